"""Passages in context: are the facts of stored documents given back? Prints figures, asserts
nothing.

    .venv/bin/python bench/context_passages.py                       # 1,000 then 10,000 documents
    .venv/bin/python bench/context_passages.py --sizes 300 --tune    # and the floors' grid (dev)

A generated corpus: each document (a short agent's note, a title and two or three paragraphs of
everyday filler about generated people, companies and projects) states one planted fact once,
about a subject of its own (a generated name no other document uses). Each question asks for a
fact in other words, naming its subject but never quoting the answer. The dev questions (one
wording per kind of fact) are the ones the floors were tuned on; the held-out ones use other
wordings, never looked at while tuning. Questions that match nothing name subjects no document
has, or ask about something else entirely.

Every question goes through check_context (k=5) in a session of its own, with budgets of 500
and 1,000 tokens. Recall: the share of questions whose planted passage is in the block (cited,
and the answer's words in the text). Also the block's tokens, and the server time's p50/p95
(check_context's server_ms: the graph work and the block, without the question's embedding).

Ingestion: the first --pipeline documents go through the whole pipeline (document_ingest with
spaCy extraction and the resolution gate); the rest are stored by the ingestion service
(document_store), chunked by its chunker, embedded by the real model in batches, and written by
the chunk-write service (do_window_chunks_merge, one transaction per 64 documents) without
extraction, so 10,000 documents load in minutes. Uses the configured Neo4j and a tenant of its
own, deleted at the end (unless --keep).
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import statistics
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryproject.settings")

SYLLABLES = ("ka ve lor min ta qua ris bel dor fen gal hux ix jor kel lum mor nax oph pel rin "
             "sor tav ul vex wyn yar zel bra cor dra el fro gri").split()  # fmt: skip
ORG_SUFFIX = ["Systems", "Labs", "Holdings", "Logistics", "Foods", "Robotics", "Analytics"]
CITIES = ["Tallinn", "Porto", "Gdansk", "Valparaiso", "Tromso", "Cork", "Bilbao", "Durban",
          "Hobart", "Tampere", "Brno", "Leipzig", "Nagoya", "Quito", "Malmo", "Split"]  # fmt: skip
FOODS = ["peanuts", "shellfish", "sesame", "kiwi", "mustard", "celery", "lupin", "buckwheat"]
TOOLS = ["Jira", "Linear", "Redmine", "YouTrack", "Trac", "Bugzilla", "Mantis", "Shortcut"]
MONTHS = ["January", "February", "March", "April", "June", "July", "September", "November"]
TEAMS = ["robotics", "battery", "imaging", "genomics", "acoustics", "materials"]

# kind: (fact as an agent writes it, dev question, held-out question, answer field)
FACTS = {
    "founded": ("{org} was founded in {year} in {city}, in a rented garage by the docks.",
                "In which year did {org} start out?", "How long ago was {org} set up?", "year"),
    "moved": ("{person} moved to {city} last spring to run the new {team} lab.",
              "Which city is {person} based in now?", "Where does {person} live these days?",
              "city"),
    "blocked": ("The {project} rollout is blocked until {vendor} renews our licence.",
                "What is holding up {project}?", "Why can't we ship {project} yet?", "vendor"),
    "manager": ("{person} reports to {person2} since the reorganisation in the autumn.",
                "Who is {person}'s boss?", "Who manages {person}?", "person2"),
    "port": ("{org} ships all its hardware through the harbour of {city}.",
             "From which port does {org} send out its products?",
             "Where do {org}'s goods leave by sea?", "city"),
    "allergy": ("{person} is allergic to {food}, so keep it off the catering order.",
                "What can't {person} eat?", "Which food makes {person} ill?", "food"),
    "deadline": ("The {project} deadline moved to {month} after the audit.",
                 "When is {project} due now?", "By which month must {project} be finished?",
                 "month"),
    "tracker": ("{org} keeps every bug and feature request in {tool}.",
                "Which ticketing software does {org} use?",
                "What issue tracker does {org} rely on?", "tool"),
    "extension": ("{person} can be reached on extension {number} during office hours.",
                  "What number do I dial to call {person}?", "How do I phone {person}?",
                  "number"),
    "backups": ("Backups of {project} are kept in the {city} data centre for ninety days.",
                "Where are the copies of {project} stored?",
                "In which facility does {project}'s backup live?", "city"),
}  # fmt: skip
FILLER = [
    "The team met on {day} to go over the backlog and agreed to meet again next week.",
    "{p} shared slides about the quarterly plan and asked for comments by Friday.",
    "Coffee in the kitchen ran out again, and {p} promised to order more.",
    "We spent most of the call on hiring; two candidates look promising.",
    "{p} is on holiday until the end of the month, so reviews will be slower.",
    "The office wifi dropped twice this morning; IT is looking into it.",
    "Someone suggested a team lunch at the new noodle place near the station.",
    "{p} thinks the onboarding guide is out of date and offered to rewrite it.",
    "The printer on the second floor jams whenever it prints double-sided.",
    "Our weekly numbers look flat, which nobody found surprising in August.",
]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday"]
OFF_TOPIC = ["What's a good recipe for banana bread?", "How do I fix a flat bicycle tyre?",
             "Which moons of Jupiter have oceans under the ice?",
             "Can you recommend a novel for a long flight?",
             "What is the capital of Mongolia?", "How many legs does a spider have?"]  # fmt: skip


class Names:
    """Generated names, none used twice."""

    def __init__(self, rng: random.Random):
        self.rng, self.used = rng, set()

    def word(self) -> str:
        # Words of 2-3 syllables run out past about 1,800 documents (each uses about 20 names
        # of the ~37,000 such words): after 50 misses in a row a word takes 4 (1.2 million).
        misses = 0
        while True:
            syllables = self.rng.choice((2, 3)) if misses < 50 else 4
            w = "".join(self.rng.choice(SYLLABLES) for _ in range(syllables))
            if w not in self.used and len(w) > 4:
                self.used.add(w)
                return w.capitalize()
            misses += 1

    def person(self) -> str:
        return f"{self.word()} {self.word()}"

    def org(self) -> str:
        return f"{self.word()} {self.rng.choice(ORG_SUFFIX)}"


def fact_fill(rng: random.Random, names: Names) -> dict:
    return {"org": names.org(), "person": names.person(), "person2": names.person(),
            "project": f"Project {names.word()}", "vendor": f"{names.word()} Software",
            "city": rng.choice(CITIES), "year": str(rng.randint(1951, 2019)),
            "food": rng.choice(FOODS), "tool": rng.choice(TOOLS), "month": rng.choice(MONTHS),
            "team": rng.choice(TEAMS), "number": str(rng.randint(2000, 8999))}  # fmt: skip


def corpus(rng: random.Random, names: Names, count: int, start: int) -> list[dict]:
    docs = []
    kinds = sorted(FACTS)
    for i in range(start, start + count):
        kind = kinds[i % len(kinds)]
        fill = fact_fill(rng, names)
        fact, dev_q, held_q, answer = FACTS[kind]

        def filler(n: int) -> str:
            return " ".join(rng.choice(FILLER).format(p=names.person(), day=rng.choice(DAYS))
                            for _ in range(n))  # fmt: skip

        paragraphs = [filler(2), filler(1) + " " + fact.format(**fill) + " " + filler(1)]
        if rng.random() < 0.5:
            paragraphs.append(filler(2))
        rng.shuffle(paragraphs)
        title = f"Notes {i}: week {rng.randint(1, 52)}"
        docs.append({"title": title, "content": f"# {title}\n\n" + "\n\n".join(paragraphs) + "\n",
                     "questions": (dev_q.format(**fill), held_q.format(**fill)),
                     "answer": fill[answer], "kind": kind, "fill": fill})  # fmt: skip
    return docs


def no_match_questions(rng: random.Random, names: Names, n: int) -> list[str]:
    asked = [FACTS[k][1 + (i % 2)].format(**fact_fill(rng, names))
             for i, k in enumerate(rng.choices(sorted(FACTS), k=n))]  # fmt: skip
    return asked + OFF_TOPIC


def load(scope, docs: list[dict], *, pipeline: int) -> float:
    from apps.graph import cypher
    from apps.graph.embeddings import get_embedder
    from apps.ingestion.chunk_writes import ChunkRecord, chunk_uid, do_window_chunks_merge
    from apps.ingestion.chunking import chunk_document
    from apps.ingestion.dedup import content_hash
    from apps.ingestion.extraction.spacy_ner import SpacyExtractor
    from apps.ingestion.pipeline import document_ingest
    from apps.ingestion.services import document_store

    started = time.perf_counter()
    extractor = SpacyExtractor() if pipeline else None
    bulk = []
    for d in docs:
        stored = document_store(scope, content=d["content"], source="bench", title=d["title"],
                                size=len(d["content"].encode()))  # fmt: skip
        d["uid"] = stored.uid
        if pipeline > 0:
            document_ingest(scope, document_uid=stored.uid, extractor=extractor)
            pipeline -= 1
        else:
            bulk.append(d)
    embedder = get_embedder()
    for s in range(0, len(bulk), 64):
        part = bulk[s : s + 64]
        chunks = [(d, c) for d in part for c in chunk_document(d["content"])]
        vectors = embedder.embed([c.text for _, c in chunks])
        records: dict[str, list] = {}
        for (d, c), v in zip(chunks, vectors, strict=True):
            records.setdefault(d["uid"], []).append(ChunkRecord(
                uid=chunk_uid(d["uid"], c.position), document_uid=d["uid"], chunk=c,
                text_hash=content_hash(c.text), embedding=v))  # fmt: skip

        # One transaction per part (each document's chunks in a round trip of their own): a
        # commit per document made 10,000 documents take most of an hour on this machine.
        def part_written(stx, records=records):
            for rows in records.values():
                do_window_chunks_merge(stx, rows)

        cypher.write_unit(scope, part_written)
        if (s // 64) % 16 == 15:
            print(f"  {s + len(part)} of {len(bulk)} chunked, embedded and written in "
                  f"{time.perf_counter() - started:.0f} s", flush=True)  # fmt: skip
    return time.perf_counter() - started


def planted_chunk(scope, doc: dict) -> str:
    from apps.graph import cypher

    rows = cypher.read(scope, "MATCH (c:Chunk {tenant: $tenant, document_uid: $d}) "
                       "RETURN c.uid AS uid, c.text AS text", d=doc["uid"])  # fmt: skip
    want = FACTS[doc["kind"]][0].format(**doc["fill"])[:40]
    return next(r["uid"] for r in rows if want in r["text"])


def ask(scope, question: str, *, budget: int, n: int) -> dict:
    from apps.conversations.context import check_context

    return check_context(scope, user="bench", sid=f"q{n}", message=question, k=5,
                         token_budget=budget)  # fmt: skip


def found_in(result: dict, doc: dict) -> bool:
    return (f"passage:{doc['chunk']}" in result["cited"]
            and doc["answer"].lower() in result["context"].lower())  # fmt: skip


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def measure(scope, label: str, docs: list[dict], nomatch: list[str], counter: list[int]):
    print(f"\n{label}")
    every = []
    for part, index in (("dev", 0), ("held-out", 1)):
        for budget in (500, 1000):
            hits, tokens, times = 0, [], []
            for doc in docs:
                counter[0] += 1
                result = ask(scope, doc["questions"][index], budget=budget, n=counter[0])
                hits += found_in(result, doc)
                tokens.append(result["tokens"])
                times.append(result["timings"]["server_ms"])
            every += times
            print(
                f"  {part:8s} budget {budget:5d}: recall {hits / len(docs):.3f} "
                f"({hits}/{len(docs)}), tokens mean {statistics.mean(tokens):.0f}, "
                f"server p50 {percentile(times, 50):.1f} ms p95 {percentile(times, 95):.1f} ms"
            )
    tokens, passages, times = [], 0, []
    for q in nomatch:
        counter[0] += 1
        result = ask(scope, q, budget=1000, n=counter[0])
        tokens.append(result["tokens"])
        passages += len(result["passages"])
        times.append(result["timings"]["server_ms"])
    print(
        f"  no match ({len(nomatch)} questions, budget 1000): tokens mean "
        f"{statistics.mean(tokens):.0f} max {max(tokens)}, passages given {passages}, "
        f"server p95 {percentile(times, 95):.1f} ms"
    )
    return every


def tune(scope, docs: list[dict], nomatch: list[str]) -> None:
    """The floors' grid on the dev questions: the answer passage among the first 5 kept, and
    the passages kept for questions that match nothing."""
    from apps.graph import cypher
    from apps.graph.embeddings import embed_one
    from apps.ingestion import passage_selectors as ps

    def rows_of(q):
        return cypher.read_unit(scope, lambda stx: stx.run(
            ps.PASSAGES, lucene=ps.passages_words_query(scope.tenant, q), vector=embed_one(q),
            depth=ps.DEPTH))  # fmt: skip

    dev = [(rows_of(d["questions"][0]), d["chunk"], d["questions"][0]) for d in docs]
    none = [(rows_of(q), q) for q in nomatch]
    answers = [next((r for r in rows if r["uid"] == want), None) for rows, want, _ in dev]
    sims = sorted(r["similarity"] for r in answers if r)
    rare = sum(1 for (rows, want, q) in dev if want in ps.rare_shared(rows, q))
    print(
        f"\ndev: answer passage among the candidates {len(sims)}/{len(dev)}, holds a rare "
        f"shared word {rare}; its similarity min {sims[0]:.3f} p10 {percentile(sims, 10):.3f} "
        f"p50 {percentile(sims, 50):.3f}"
    )
    best_none = sorted(max((r["similarity"] for r in rows), default=0) for rows, _ in none)
    rare_none = sum(bool(ps.rare_shared(rows, q)) for rows, q in none)
    print(
        f"no match: best similarity p50 {percentile(best_none, 50):.3f} max "
        f"{best_none[-1]:.3f}; questions with a rare shared word {rare_none}/{len(none)}"
    )
    results = []
    chosen = (ps.MEANING_FLOOR, ps.WORDS_FLOOR, ps.RARE_WORD_HITS, ps.MEANING_FLOOR_UNNAMED)

    def kept(rows, q):
        return [p["uid"] for p in ps.passages_ranked(rows, limit=5, question=q)["passages"]]

    grid = itertools.product((0.80, 0.82, 0.84, 0.86, 0.88), (0.50, 0.55, 0.60, 0.65, 0.70),
                             (2, 3, 5), (ps.MEANING_FLOOR_UNNAMED,))  # fmt: skip
    for meaning, words, rare_hits, unnamed in grid:
        ps.MEANING_FLOOR, ps.WORDS_FLOOR, ps.RARE_WORD_HITS = meaning, words, rare_hits
        ps.MEANING_FLOOR_UNNAMED = unnamed
        found = sum(want in kept(rows, q) for rows, want, q in dev)
        given = sum(len(kept(rows, q)) for rows, q in none)
        many = sum(len(kept(rows, q)) for rows, _, q in dev)
        results.append((found, -given, -many, meaning, words, rare_hits, unnamed))
    ps.MEANING_FLOOR, ps.WORDS_FLOOR, ps.RARE_WORD_HITS, ps.MEANING_FLOOR_UNNAMED = chosen
    results.sort(reverse=True)
    print(f"floors on the dev questions (found of {len(dev)}, no-match passages, kept):")
    for found, given, many, meaning, words, rare_hits, unnamed in results[:15]:
        print(
            f"  meaning {meaning:.2f} words {words:.2f} rare {rare_hits} unnamed {unnamed:.2f}: "
            f"found {found}, no-match passages {-given}, kept {-many}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--sizes", default="1000,10000", help="documents, growing in one tenant")
    ap.add_argument("--questions", type=int, default=60, help="per part (dev, held-out)")
    ap.add_argument("--no-match", type=int, default=24)
    ap.add_argument(
        "--pipeline",
        type=int,
        default=100,
        help="documents that go through the whole pipeline (spaCy, the gate)",
    )
    ap.add_argument("--seed", type=int, default=33)
    ap.add_argument("--tune", action="store_true")
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()

    import django

    django.setup()
    from apps.graph import cypher
    from apps.graph.connection import graph_connect
    from apps.graph.schema import schema_install
    from apps.graph.scope import Scope

    graph_connect()
    schema_install()
    rng = random.Random(args.seed)
    names = Names(rng)
    scope = Scope(tenant=f"bench-{uuid.uuid4().hex[:8]}", actor="bench", actor_kind="system")
    sizes = [int(s) for s in args.sizes.split(",")]
    docs: list[dict] = []
    counter = [0]
    p95s = {}
    try:
        for size in sizes:
            new = corpus(rng, names, size - len(docs), len(docs))
            seconds = load(scope, new, pipeline=args.pipeline if not docs else 0)
            docs += new
            schema_install()  # waits until the indexes have caught up with the load
            print(f"{size} documents in tenant {scope.tenant} ({len(new)} loaded in "
                  f"{seconds:.0f} s)")  # fmt: skip
            asked = random.Random(args.seed + size).sample(docs, min(args.questions, len(docs)))
            for d in asked:
                d.setdefault("chunk", planted_chunk(scope, d))
            nomatch = no_match_questions(random.Random(args.seed + size), Names(
                random.Random(args.seed * 7 + size)), args.no_match)  # fmt: skip
            nomatch = [q for q in nomatch if not any(w in names.used for w in q.lower().split())]
            for d in asked[:3]:  # warm up
                ask(scope, d["questions"][0], budget=1000, n=0)
            if args.tune:
                tune(scope, asked, nomatch)
            times = measure(scope, f"{size} documents, k=5", asked, nomatch, counter)
            p95s[size] = percentile(times, 95)
            print(
                f"  all questions: server p50 {percentile(times, 50):.1f} ms, "
                f"p95 {p95s[size]:.1f} ms"
            )
        if len(p95s) > 1:
            first, last = sizes[0], sizes[-1]
            print(f"\np95 at {last} / p95 at {first}: {p95s[last] / p95s[first]:.2f}")
    finally:
        if not args.keep:
            cypher.write(scope, "MATCH (n) WHERE n.tenant = $tenant DETACH DELETE n")


if __name__ == "__main__":
    main()
