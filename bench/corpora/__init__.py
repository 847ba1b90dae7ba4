"""Corpora for identity on text, written apart from the service: eleven generators of short notes
as agents write them (CRM call notes, narrative field reports, chat and e-mail digests, meeting
minutes with e-mail threads and handover notes, agents' memos to themselves, stand-up logs and
ticket comments, a research agent's press and web clips, an executive assistant's briefs and
follow-ups, a voice agent's call summaries, a recruiting agent's interview transcripts and show
notes, a phone assistant's speech-recognition transcripts of calls and voicemails) about
fictional people, firms and products, each named in several notes in varied wording, with two
pairs of namesakes. Their wording and name pools were written without reading the service's
resolution or extraction code, so that they can judge it rather than echo it.

Each generator is `documents(seed=0, size="default") -> (docs, truths, namesake_pairs)`:
`Doc.names` maps every surface a document uses for a tracked thing to that thing's key.
This file holds what they share: the records, a note builder that keeps those surfaces,
a planner that decides which things each note names, and `check`, which lists what is wrong.
"""

from __future__ import annotations

import random
import string
from collections import Counter
from dataclasses import dataclass, field

SIZES = {"small": (5, 3, 2), "default": (10, 6, 4), "large": (20, 12, 8)}  # people, firms, products


@dataclass
class Truth:
    key: str  # unique id of the true thing, e.g. "p3", "o1", "x2"
    kind: str  # "person" | "org" | "product"
    name: str  # canonical full name
    facts: dict = field(default_factory=dict)


@dataclass
class Doc:
    text: str
    names: dict[str, str]  # every surface used here for a tracked thing -> its Truth.key


Ref = tuple[str, str]  # (surface, key)


class Note:
    """A document being written: its sentences and the surfaces they use for tracked things.
    `say(template, **slots)` formats one sentence; a slot given as (surface, key) is recorded."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.names: dict[str, str] = {}

    def say(self, template: str, **slots) -> None:
        used = {f for _, f, _, _ in string.Formatter().parse(template) if f}
        values = {}
        for slot, value in slots.items():
            if isinstance(value, tuple):
                surface, key = value
                if slot in used:
                    if self.names.setdefault(surface, key) != key:
                        raise ValueError(f"{surface!r} names two things")
                value = surface
            values[slot] = value
        self.parts.append(template.format(**values))

    def doc(self, sep: str = " ") -> Doc:
        parts = [p if sep != " " or p[-1] in ".!?:-" else p + "." for p in self.parts if p]
        text = sep.join(parts)
        for bad, good in (("..", "."), (". .", "."), ("  ", " ")):
            text = text.replace(bad, good)
        return Doc(text=text, names=dict(self.names))


FACTS = [("{C}",), ("{Y}",), ("{T}",), ("{H}",), ("{J}", "{aJ}"), ("{K}", "{aK}", "{L}", "{aL}")]


def fresh(rng: random.Random, templates: list[str], said: str) -> str:
    """One of `templates` that states no fact the sentence `said` already states."""
    new = [t for t in templates
           if not any(any(s in t for s in g) and any(s in said for s in g) for g in FACTS)]  # fmt: skip
    return rng.choice(new or templates)


def an(word: str) -> str:
    return ("an " if word[:1].lower() in "aeio" else "a ") + word


def cast(rng: random.Random, size: str, people, firms, products, jobs, cities, hobbies):
    """The true things of one corpus drawn from a module's pools: people (first, surname, 's'he),
    firms (stem, word, legal form, city, trade, product line), product stems; each person with a
    job, employer, city, birth year and hobby, some with a former employer or a product they use;
    two of them get a namesake (same name, another job, employer and city)."""
    n_people, n_orgs, n_products = SIZES[size]
    truths: dict[str, Truth] = {}
    for i, (stem, word, form, city, trade, line) in enumerate(rng.sample(firms, n_orgs), 1):
        bare = f"{stem} {word}".strip()
        facts = {"short": stem, "bare": bare, "form": form, "city": city, "trade": trade,
                 "line": line, "founded": rng.randint(1954, 2019), "staff": [], "makes": []}  # fmt: skip
        truths[f"o{i}"] = Truth(f"o{i}", "org", f"{bare} {form}", facts)
    orgs = list(truths)
    for i, stem in enumerate(rng.sample(products, n_products), 1):
        number = str(rng.choice([rng.randint(2, 9), rng.randint(10, 60)]))
        maker = orgs[(i - 1) % n_orgs]
        category = truths[maker].facts["line"]
        facts = {"stem": stem, "number": number, "category": category, "maker": maker,
                 "launched": rng.randint(2008, 2024), "users": []}  # fmt: skip
        truths[f"x{i}"] = Truth(f"x{i}", "product", f"{stem} {number}", facts)
        truths[maker].facts["makes"].append(f"x{i}")
    items = [k for k in truths if k.startswith("x")]

    def person(key, first, last, she, avoid=None):
        taken = avoid.facts if avoid else {}
        employer = rng.choice([o for o in orgs if o != taken.get("employer")])
        home = truths[employer].facts["city"]
        city = home if rng.random() < 0.5 and home != taken.get("city") else None
        facts = {"first": first, "last": last, "she": she, "employer": employer,
                 "job": rng.choice([j for j in jobs if j != taken.get("job")]),
                 "city": city or rng.choice([c for c in cities if c != taken.get("city")]),
                 "born": rng.randint(1958, 1999), "hobby": rng.choice(hobbies),
                 "title": "Dr." if rng.random() < 0.2 else None, "colleagues": []}  # fmt: skip
        if rng.random() < 0.3 and not avoid:
            facts["prior"] = rng.choice([o for o in orgs if o != employer])
        if rng.random() < 0.5:
            facts["uses"] = rng.choice(items)
        truths[key] = Truth(key, "person", f"{first} {last}", facts)

    for i, line in enumerate(rng.sample(people, n_people), 1):
        first, *last, she = line.split()
        person(f"p{i}", first, " ".join(last), she == "f")
    pairs = []
    for j, a in enumerate(rng.sample([f"p{i}" for i in range(1, n_people + 1)], 2), 1):
        f = truths[a].facts
        person(f"p{n_people + j}", f["first"], f["last"], f["she"], avoid=truths[a])
        pairs.append((a, f"p{n_people + j}"))
    for key, t in truths.items():
        if t.kind == "person":
            truths[t.facts["employer"]].facts["staff"].append(key)
            if t.facts.get("uses"):
                truths[t.facts["uses"]].facts["users"].append(key)
    for key, t in truths.items():
        if t.kind == "person":
            mates = truths[t.facts["employer"]].facts["staff"]
            t.facts["colleagues"] = [k for k in mates if k != key]
    return truths, pairs


def plan(rng: random.Random, truths: dict[str, Truth], pairs, scenes_per: dict[str, tuple],
         co_odds: float, most: int = 4, cap: int = 8) -> list[tuple[str, list[str]]]:  # fmt: skip
    """Which things each note names: a focus and, in a share `co_odds` of the notes, 1-3
    companions drawn from its relations (employer, former employer, a colleague, a product it
    makes or uses, its maker, its users). Every thing is named in
    2..cap notes; the two people of a namesake pair are never named in one note."""
    apart = {a: b for a, b in pairs} | {b: a for a, b in pairs}
    count: Counter = Counter()

    def related(key: str) -> list[str]:
        f = truths[key].facts
        out = [f.get("employer"), f.get("prior"), f.get("maker"), f.get("uses")]
        out += (
            f.get("staff", []) + f.get("makes", []) + f.get("colleagues", []) + f.get("users", [])
        )
        return [k for k in out if k]

    scenes = []
    for key, truth in truths.items():
        for _ in range(rng.randint(*scenes_per[truth.kind])):
            if count[key] < cap:
                scenes.append((key, []))
                count[key] += 1
    for focus, co in scenes:
        if rng.random() > co_odds:  # a note about its focus alone
            continue
        want = min(most - 1, 1 + (rng.random() < 0.45) + (rng.random() < 0.2))
        for other in rng.sample(related(focus), len(related(focus))):
            if len(co) >= want or count[other] >= cap:
                continue
            if other in co or any(apart.get(k) == other for k in [focus, *co]):
                continue
            co.append(other)
            count[other] += 1
    for key in truths:
        while count[key] < 2:
            scenes.append((key, []))
            count[key] += 1
    rng.shuffle(scenes)
    return scenes


def check(docs: list[Doc], truths: dict[str, Truth], pairs: list[tuple[str, str]]) -> list[str]:
    """What is wrong with a corpus: a surface missing from its text or overlapping another
    thing's surface in the same note, a thing named in fewer than 2 or more than 9 notes, a
    namesake pair that is not two people of one name in separate notes. Empty when sound."""
    problems = []
    for i, d in enumerate(docs):
        for surface, key in d.names.items():
            if surface not in d.text:
                problems.append(f"doc {i}: {surface!r} not in text")
            if key not in truths:
                problems.append(f"doc {i}: unknown key {key}")
            for other, k2 in d.names.items():
                if k2 != key and surface.casefold() in other.casefold():
                    problems.append(f"doc {i}: {surface!r} ({key}) inside {other!r} ({k2})")
    named = Counter(k for d in docs for k in set(d.names.values()))
    for key in truths:
        if not 2 <= named[key] <= 9:
            problems.append(f"{key} {truths[key].name!r} named in {named[key]} documents")
    if len(pairs) != 2:
        problems.append(f"{len(pairs)} namesake pairs")
    for a, b in pairs:
        if truths[a].name != truths[b].name:
            problems.append(f"namesakes {a}, {b} have different names")
        if any({a, b} <= set(d.names.values()) for d in docs):
            problems.append(f"namesakes {a}, {b} share a document")
    return problems


@dataclass(frozen=True)
class Style:
    """What a generator writes a firm's or a product's note with: its templates and how it
    names a firm, a product and a colleague (the notes' wording stays each module's own)."""

    org: list
    org_more: list
    staff: list
    makes: list
    item: list
    by: list
    item_more: list
    users: list
    firm: object  # (rng, truth) -> (surface, key)
    product: object  # (rng, truth) -> (surface, key)
    mate: object  # (rng, truth) -> slots naming a colleague
    org_extra: object = None  # (rng) -> more slots, drawn after the others


def org_note(rng, note: Note, truths, key, co, style: Style) -> None:
    t = truths[key]
    f = t.facts
    slots = {"O": style.firm(rng, t), "Os": (rng.choice([f["short"], f["bare"]]), key),
             "Of": (t.name, key), "C": f["city"], "Y": f["founded"], "T": f["trade"]}  # fmt: skip
    slots.update(style.org_extra(rng) if style.org_extra else {})
    opening = rng.choice(style.org)
    note.say(opening, **slots)
    if rng.random() < 0.5:
        note.say(fresh(rng, style.org_more, opening), **slots)
    for other in co:
        o = truths[other]
        if o.kind == "person":
            note.say(rng.choice(style.staff), **slots, **style.mate(rng, o))
        else:
            k = o.facts["category"]
            note.say(rng.choice(style.makes), **slots, X=style.product(rng, o), L=k, aL=an(k))


def product_note(rng, note: Note, truths, key, co, style: Style) -> None:
    t = truths[key]
    f = t.facts
    k = f["category"]
    slots = {"X": style.product(rng, t), "X2": style.product(rng, t), "L": k, "aL": an(k),
             "Y": f["launched"]}  # fmt: skip
    if f["maker"] in co:
        m = truths[f["maker"]]
        mb = (rng.choice([m.facts["short"], m.facts["bare"]]), m.key)
        opening = rng.choice(style.by)
        note.say(opening, **slots, M=style.firm(rng, m), Mb=mb)
    else:
        opening = rng.choice(style.item)
        note.say(opening, **slots)
    if rng.random() < 0.4:
        note.say(fresh(rng, style.item_more, opening), **slots)
    for other in co:
        o = truths[other]
        if o.kind == "person":
            note.say(rng.choice(style.users), **slots, **style.mate(rng, o))


# Last: each generator imports the shared parts above.
from . import (  # noqa: E402
    agent_memos,
    assistant_briefs,
    call_summaries,
    chat_digests,
    crm_notes,
    field_reports,
    interviews,
    minutes,
    phone_logs,
    press_clips,
    standup_logs,
)

GENERATORS = {
    "crm": crm_notes.documents,
    "field": field_reports.documents,
    "chat": chat_digests.documents,
    "minutes": minutes.documents,
    "memos": agent_memos.documents,
    "standups": standup_logs.documents,
    "clips": press_clips.documents,
    "briefs": assistant_briefs.documents,
    "calls": call_summaries.documents,
    "interviews": interviews.documents,
    "phonelog": phone_logs.documents,
}
