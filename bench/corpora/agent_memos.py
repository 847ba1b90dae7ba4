"""Memory memos that AI agents write for themselves after a task: terse bullets, key: value
fragments, to-dos and first-person asides about the people, firms and products they met.
Written from the corpus brief and `bench/corpora/__init__.py` alone, without reading the
service's code."""

from __future__ import annotations

import random

from . import FACTS, Doc, Note, Style, Truth, an, cast, fresh, org_note, plan, product_note
from . import agent_memos_wording as w


def _person(rng: random.Random, t: Truth, full: bool = True) -> tuple[str, str]:
    """A surface for a person: the full name or a short one (surname, initial + surname, or
    title + surname)."""
    first, last = t.facts["first"], t.facts["last"]
    if full:
        forms = [f"{first} {last}"] * 4
        forms += [f"Dr. {first} {last}"] * 2 if t.facts["title"] else []
    else:
        forms = [last] * 4 + [f"{first[0]}. {last}"]
        forms += [f"Dr. {last}"] * 2 if t.facts["title"] else []
    return rng.choice(forms), t.key


def _firm(rng: random.Random, t: Truth, short: bool = False) -> tuple[str, str]:
    # Full legal name most often; the bare name (no legal form) and the stem as shorter forms.
    forms = [t.facts["short"], t.facts["bare"]] if short else [t.name, t.name, t.facts["bare"]]
    return rng.choice(forms), t.key


def _product_namer():
    """Names a product as "Stem-7", "Stem 7" or "Stem7", never twice the same way in a row,
    so a memo that names it twice shows two spellings."""
    last: dict[str, str] = {}

    def name(rng: random.Random, t: Truth) -> tuple[str, str]:
        s, n = t.facts["stem"], t.facts["number"]
        forms = [f for f in (f"{s}-{n}", f"{s} {n}", f"{s}{n}") if f != last.get(t.key)]
        last[t.key] = rng.choice(forms)
        return last[t.key], t.key

    return name


def _mate(rng: random.Random, t: Truth) -> dict:
    job = t.facts["job"]
    return {"Q": _person(rng, t), "QJ": job, "aQJ": an(job)}


def _person_note(rng, note: Note, truths, key, co, product) -> None:
    t = truths[key]
    f = t.facts
    # Pr: the full name as a contact field may hold it, "Surname, First", for key: value lines.
    contact = (f"{f['last']}, {f['first']}", key) if rng.random() < 0.5 else _person(rng, t)
    slots = {"P": _person(rng, t), "Pr": contact, "S": _person(rng, t, full=False), "J": f["job"],
             "aJ": an(f["job"]), "C": f["city"], "Y": f["born"], "H": f["hobby"],
             "G": "she" if f["she"] else "he"}  # fmt: skip
    said = rng.choice(w.P_OPEN)
    note.say(said, **slots)
    for _ in range(rng.choice([0, 1, 1, 2])):
        line = fresh(rng, w.P_MORE, said)  # no fact twice in one memo; stop when all are said
        if any(any(s in line for s in g) and any(s in said for s in g) for g in FACTS):
            break
        note.say(line, **slots)
        said += " " + line
    for other in co:
        o = truths[other]
        if o.kind == "org":
            more = {"E": _firm(rng, o), "Eb": _firm(rng, o, short=True), "T": o.facts["trade"]}
            lines = w.P_WORKS if other == f["employer"] else w.P_PRIOR
        elif o.kind == "person":
            more, lines = _mate(rng, o), w.P_MATE
        else:
            k = o.facts["category"]
            more, lines = {"X": product(rng, o), "L": k, "aL": an(k)}, w.P_USES
        note.say(rng.choice(lines), **slots, **more)


def _date(rng: random.Random) -> str:
    return f"{rng.randint(2023, 2025)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


def _memo(rng: random.Random, truths, key, co, style: Style) -> Doc:
    note = Note()
    layout = rng.choices(["lines", "prose", "semi"], weights=[7, 2, 1])[0]
    if layout != "semi" and rng.random() < 0.8:
        frame = {"D": _date(rng), "n": rng.randint(100, 999), "who": rng.choice(w.WHO),
                 "what": rng.choice(w.WHAT)}  # fmt: skip
        note.say(rng.choice(w.HEADERS), **frame)
    start = len(note.parts)
    kind = truths[key].kind
    if kind == "person":
        _person_note(rng, note, truths, key, co, style.product)
    elif kind == "org":
        org_note(rng, note, truths, key, co, style)
    else:
        product_note(rng, note, truths, key, co, style)
    for todo in rng.sample(w.TODOS, rng.choice([0, 1, 1, 2])):
        note.say(todo)
    if layout == "lines":  # one bullet style per memo, a few lines left bare like key: value
        bullet = rng.choice(w.BULLETS)
        for i in range(start, len(note.parts)):
            if rng.random() < 0.85:
                note.parts[i] = bullet + note.parts[i]
    return note.doc(sep={"lines": "\n", "prose": " ", "semi": "; "}[layout])


def documents(seed: int = 0, size: str = "default"):
    """(docs, truths, namesake_pairs) for one seed and size; same arguments, same corpus."""
    rng = random.Random(seed)
    truths, pairs = cast(rng, size, w.PEOPLE, w.FIRMS, w.PRODUCTS, w.JOBS, w.CITIES, w.HOBBIES)
    style = Style(org=w.ORG, org_more=w.ORG_MORE, staff=w.STAFF, makes=w.MAKES, item=w.ITEM,
                  by=w.BY, item_more=w.ITEM_MORE, users=w.USERS, firm=_firm,
                  product=_product_namer(), mate=_mate)  # fmt: skip
    per = {"person": (2, 4), "org": (2, 3), "product": (2, 3)}
    scenes = plan(rng, truths, pairs, per, co_odds=0.55)
    docs = [_memo(rng, truths, key, co, style) for key, co in scenes]
    return docs, truths, pairs
