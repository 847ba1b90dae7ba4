"""How many of a corpus's people the fixed rule lets the graph unify at all: a person's name alone
never merges, so two notes about one person join only through something both say of them (a
job, an employer, a city, a birth year, a hobby, an e-mail, a phone, a colleague or a product
they use) or, for `+context`, some other tracked thing both notes name. From the generator's
truth alone, no service code: for each person, the notes naming them are joined where the
sentences naming them (and a pronoun sentence right after) state the same fact; a person whose
notes end in one group is reachable. An estimate: a fact found by its words may be another
person's in the same sentence, and one said in other words is missed.

    python3 bench/identity_reach.py [--corpus crm,field,...] [--seeds 0-4]

Prints, per corpus and seed: the people named in two or more notes, how many are reachable by
facts, by facts or shared context, and the fewest fragments each rule leaves (lower bounds for
`bench/identity_text.py`'s `person` column and its entities per true entity).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpora import GENERATORS  # noqa: E402

# Facts that say nothing of who a person is (their name's parts, a pronoun, a namesake link).
_NOT_FACTS = {"given", "surname", "first", "last", "gender", "she", "twin", "title"}
_SENTENCES = re.compile(r"(?<=[.!?;])\s+|\n")
_PRONOUN = re.compile(r"^\W*(she|he|they|her|his|their|him)\b", re.IGNORECASE)


def _sentences_about(text: str, surfaces: list[str]) -> str:
    parts = [p for p in _SENTENCES.split(text) if p.strip()]
    kept = []
    for i, part in enumerate(parts):
        if any(s in part for s in surfaces):
            kept.append(part)
            if i + 1 < len(parts) and _PRONOUN.match(parts[i + 1]):
                kept.append(parts[i + 1])
    return "\n".join(kept)


def _facts_stated(truth, truths, doc, about: str) -> set[tuple[str, str]]:
    found = set()
    for kind, value in truth.facts.items():
        if kind in _NOT_FACTS or value in (None, "", [], ()):
            continue
        for v in value if isinstance(value, (list, tuple, set)) else [value]:
            if isinstance(v, str) and v in truths:  # another tracked thing: any of its surfaces
                if any(key == v and s in about for s, key in doc.names.items()):
                    found.add((kind, v))
            elif str(v).casefold() in about.casefold():
                found.add((kind, str(v)))
    return found


def _groups(links: list[set]) -> int:
    parent = list(range(len(links)))

    def root(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(len(links)):
        for j in range(i + 1, len(links)):
            if links[i] & links[j]:
                parent[root(i)] = root(j)
    return len({root(i) for i in range(len(links))})


def reach(docs, truths, whole: bool = False) -> dict:
    people = {k: t for k, t in truths.items() if t.kind == "person"}
    places = {k for k, t in truths.items() if t.kind == "place"}
    out = {"people": 0, "facts": 0, "context": 0, "frag_facts": 0, "frag_context": 0}
    for key, truth in people.items():
        notes = [d for d in docs if key in d.names.values()]
        if len(notes) < 2:
            continue
        facts, context = [], []
        for doc in notes:
            surfaces = [s for s, k in doc.names.items() if k == key]
            about = doc.text if whole else _sentences_about(doc.text, surfaces)
            stated = _facts_stated(truth, truths, doc, about)
            others = {("named", k) for k in doc.names.values() if k != key and k not in places}
            facts.append(stated)
            context.append(stated | others)
        by_facts, by_context = _groups(facts), _groups(context)
        out["people"] += 1
        out["facts"] += by_facts == 1
        out["context"] += by_context == 1
        out["frag_facts"] += by_facts
        out["frag_context"] += by_context
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", default=",".join(GENERATORS))
    parser.add_argument("--seeds", default="0-4", help="a range (0-4) or a list (0,2)")
    parser.add_argument("--whole", action="store_true",
                        help="a fact anywhere in the note counts (an upper bound)")  # fmt: skip
    args = parser.parse_args()
    if "-" in args.seeds:
        first, last = map(int, args.seeds.split("-"))
        seeds = list(range(first, last + 1))
    else:
        seeds = [int(s) for s in args.seeds.split(",")]
    print("corpus    seed  people(>=2 notes)  reachable by facts  by facts or context  "
          "fewest fragments (facts / +context)")  # fmt: skip
    for name in args.corpus.split(","):
        for seed in seeds:
            docs, truths, _ = GENERATORS[name](seed=seed)
            r = reach(docs, truths, args.whole)
            print(
                f"{name:<9} {seed:>4}  {r['people']:>17}  {r['facts']:>18}  "
                f"{r['context']:>19}  {r['frag_facts']:>3} / {r['frag_context']}"
            )


if __name__ == "__main__":
    main()
