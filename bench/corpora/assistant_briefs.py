"""Notes an executive-assistant / sales-ops agent writes into its memory: meeting-prep briefs,
call follow-ups, travel logistics, recruiter screens, vendor evaluations and Slack-style updates,
mixed, about fictional people, firms and products. Each thing is named in several notes in
varied wording (full name then surname, Ms./Dr. Surname, given name alone in a chat line; firms
with and without legal form, short form, acronym, lower-case; model numbers as "Stem-7",
"Stem 7" and "Stem7"), two pairs of namesakes differ in job, employer and city.
Written without reading the service's code; wording and pools live in the wording module.
"""

from __future__ import annotations

import datetime
import random
import string
from collections import Counter

from . import SIZES, Doc, Note, Truth
from . import assistant_briefs_wording as W
from .assistant_briefs_wording import an, plain

REF_YEAR = 2025  # the year the notes are written in; ages are counted from it
CAP = 8  # most notes a thing is planned into (check allows 9)
FACT = {"J": "job", "Jc": "job", "aJ": "job", "R": "job", "C": "city", "Y": "born",
        "A": "born", "H": "hobby", "O": "employer", "Ol": "employer",
        "Oy": "founded", "Oc": "hq", "Ot": "trade", "aOt": "trade", "Xk": "kind",
        "aXk": "kind", "Xy": "launched"}  # fmt: skip
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


def facts_of(template: str) -> set[str]:
    return {FACT[f] for f in fields(template) if f in FACT}


class Memo(Note):
    """A note that remembers its templates, so that it does not repeat one."""

    def __init__(self) -> None:
        super().__init__()
        self.used: set[str] = set()


def pick(rng, pool: list[str], slots: dict, note: Memo | None = None, said=()) -> str | None:
    """A template of `pool` whose every slot is filled, if it can be one the note has not used
    and that restates none of the facts `said`."""
    fit = [t for t in pool if fields(t) <= slots.keys()]
    new = [t for t in fit if t not in getattr(note, "used", ()) and not facts_of(t) & set(said)]
    t = rng.choice(new or fit) if fit else None
    if note is not None:
        note.used.add(t)
    return t


class World:
    """The true things of one corpus, with the noise a note may mention."""

    def __init__(self, rng: random.Random, size: str) -> None:
        self.rng = rng
        self.truths: dict[str, Truth] = {}
        self.pairs: list[tuple[str, str]] = []
        self.taken: list[tuple[str, str]] = []  # (casefolded surface, key)
        n_people, n_orgs, n_products = SIZES[size]
        self._firms(n_orgs)
        self._products(n_products)
        self._people(n_people)
        self._noise()

    def _free(self, surfaces: list[str]) -> bool:
        """No surface inside another thing's surface, nor the other way round."""
        new = [s.casefold() for s in surfaces]
        return not any(a in b or b in a for a in new for b, _ in self.taken)

    def _keep(self, key: str, surfaces: list[str]) -> None:
        self.taken += [(s.casefold(), key) for s in surfaces]

    def _firms(self, n: int) -> None:
        rng, i = self.rng, 0
        while i < n:
            stem = rng.choice(W.FIRM_STEMS)
            word, trade, line = rng.choice(W.TRADES)
            form = rng.choice(sorted(W.FORMS))
            bare = f"{stem} {word}"
            words = bare.split()
            acr = "".join(w[0] for w in words) if len(words) >= 3 else ""
            surfaces = [f"{bare} {form}", bare, stem] + ([acr] if acr else [])
            if not self._free(surfaces):
                continue
            i += 1
            key = f"o{i}"
            self._keep(key, surfaces)
            facts = {"legal": f"{bare} {form}", "bare": bare, "short": stem, "acronym": acr,
                     "form": form, "city": rng.choice(W.FORMS[form]), "trade": trade,
                     "line": line, "founded": rng.randint(1948, 2020),
                     "domain": plain(stem) + rng.choice([".com", ".io", ".co", ".net"]),
                     "staff": [], "alumni": [], "makes": []}  # fmt: skip
            self.truths[key] = Truth(key, "org", facts["legal"], facts)

    def _products(self, n: int) -> None:
        rng, i = self.rng, 0
        orgs = [k for k in self.truths if k.startswith("o")]
        while i < n:
            stem = rng.choice(W.PRODUCT_STEMS)
            num = str(rng.choice([rng.randint(2, 9), rng.randint(10, 90), 100 * rng.randint(1, 9)]))
            spellings = [f"{stem}-{num}", f"{stem} {num}", f"{stem}{num}"]
            if not self._free(spellings):
                continue
            i += 1
            key, maker = f"x{i}", orgs[i % len(orgs)]
            self._keep(key, spellings)
            m = self.truths[maker].facts
            facts = {"stem": stem, "number": num, "spellings": spellings, "maker": maker,
                     "category": m["line"], "launched": rng.randint(max(2005, m["founded"]), 2024),
                     "users": []}  # fmt: skip
            self.truths[key] = Truth(key, "product", f"{stem} {num}", facts)
            m["makes"].append(key)

    def _person(self, key: str, first: str, last: str, she: bool, avoid: dict | None = None):
        rng, t = self.rng, self.truths
        avoid = avoid or {}
        orgs = [k for k in t if k.startswith("o") and k != avoid.get("employer")]
        employer = rng.choice(orgs)
        hq = t[employer].facts["city"]
        cities = [c for c in W.CITIES if c not in (avoid.get("city"), hq)]
        city = hq if rng.random() < 0.4 and hq != avoid.get("city") else rng.choice(cities)
        job, runs = rng.choice([j for j in W.JOBS if j[0] != avoid.get("job")])
        dom = t[employer].facts["domain"]
        mail = rng.choice([f"{plain(first)}.{plain(last)}", f"{plain(first)[0]}{plain(last)}"])
        code = rng.choice([44, 33, 49, 81, 1, 34, 46])
        tel = f"+{code} {rng.randint(200, 999)} {rng.randint(100, 999)} {rng.randint(1000, 9999)}"
        facts = {"first": first, "last": last, "gender": "f" if she else "m", "job": job,
                 "runs": runs, "employer": employer, "city": city,
                 "born": rng.randint(1961, 2000), "hobby": rng.choice(W.HOBBIES),
                 "title": "Dr." if rng.random() < 0.15 else "", "email": f"{mail}@{dom}",
                 "phone": tel, "colleagues": []}  # fmt: skip
        if rng.random() < 0.3:
            facts["prior"] = rng.choice([o for o in orgs if o != employer])
        if rng.random() < 0.5:
            facts["uses"] = rng.choice([k for k in t if k.startswith("x")])
        t[key] = Truth(key, "person", f"{first} {last}", facts)

    def _people(self, n: int) -> None:
        rng, i = self.rng, 0
        while i < n:
            first, g = rng.choice(W.GIVEN).split()
            last = rng.choice(W.SURNAMES)
            if not self._free([f"{first} {last}", first, last]):
                continue
            i += 1
            self._keep(f"p{i}", [f"{first} {last}", first, last])
            self._person(f"p{i}", first, last, g == "f")
        for j, a in enumerate(rng.sample([f"p{k}" for k in range(1, n + 1)], 2), 1):
            f = self.truths[a].facts
            self._person(f"p{n + j}", f["first"], f["last"], f["gender"] == "f", avoid=f)
            self.pairs.append((a, f"p{n + j}"))
        people = [(k, t.facts) for k, t in self.truths.items() if t.kind == "person"]
        for key, f in people:
            for rel, back in (("employer", "staff"), ("prior", "alumni"), ("uses", "users")):
                if f.get(rel):
                    self.truths[f[rel]].facts[back].append(key)
        for key, f in people:
            f["colleagues"] = [k for k in self.truths[f["employer"]].facts["staff"] if k != key]

    def _noise(self) -> None:
        """Noise strings that hold no tracked surface and sit in none."""
        rng = self.rng

        def clean(s: str) -> bool:
            return self._free([s]) and not any(w.casefold() in b for w in s.split()
                                               for b, _ in self.taken if len(w) > 3)  # fmt: skip

        people = [f"{g.split()[0]} {s}" for g in W.GIVEN for s in W.SURNAMES[::7]]
        people = [p for p in people if clean(p)]  # shares no given name or surname either
        self.people = rng.sample(people, min(12, len(people)))
        pools = {"nfirm": W.NOISE_FIRMS, "hotel": W.HOTELS, "food": W.FOODS,
                 "event": W.EVENTS, "room": W.ROOMS, "tool": W.TOOLS, "nrole": W.NOISE_ROLES,
                 "ncity": W.CITIES}  # fmt: skip
        self.pools = {
            name: [s for s in pool if clean(s)] or ["TBD"] for name, pool in pools.items()
        }

    # ---- slots -------------------------------------------------------------------------------
    def noise(self) -> dict:
        rng = self.rng
        d = datetime.date(REF_YEAR, 1, 1) + datetime.timedelta(days=rng.randint(0, 330))
        d2 = d + datetime.timedelta(days=rng.randint(1, 9))
        s = {name: rng.choice(pool) for name, pool in self.pools.items()}
        s.update(day=DAYS[d.weekday()], day2=DAYS[d2.weekday()], date=f"{d.day} {d:%b}",
                 time=f"{rng.randint(8, 17)}:{rng.choice(['00', '15', '30', '45'])}",
                 npers=rng.choice(self.people), n=rng.randint(12, 240))  # fmt: skip
        return s

    def person(self, key: str, q: str = "") -> dict:
        f = self.truths[key].facts
        job, she = f["job"], f["gender"] == "f"
        s = {"P": (self.truths[key].name, key), "L": (f["last"], key), "G": (f["first"], key),
             "hon": f["title"] or ("Ms." if she else "Mr."), "J": job,
             "Jc": job[0].upper() + job[1:], "aJ": an(job), "C": f["city"], "Y": f["born"],
             "A": REF_YEAR - f["born"], "H": f["hobby"], "she": "she" if she else "he",
             "She": "She" if she else "He", "her": "her" if she else "his",
             "Her": "Her" if she else "His",
             "mail": f["email"], "tel": f["phone"]}  # fmt: skip
        if f["runs"]:
            s["R"] = f["runs"]
        if f["title"]:
            s["dr"] = f["title"]
        return {q + k: v for k, v in s.items()}

    def firm(self, key: str, q: str = "O") -> dict:
        rng, f = self.rng, self.truths[key].facts
        first = rng.choices([f["legal"], f["bare"], f["short"]], weights=[4, 4, 2])[0]
        later = rng.choice([f["short"], f["bare"]] + [f["acronym"]] * 2 * bool(f["acronym"]))
        lower = rng.choice([f["short"].lower(), f["short"], f["acronym"] or f["short"].lower()])
        return {q: (first, key), q + "s": (later, key), q + "f": (f["legal"], key),
                q + "l": (lower, key), q + "c": f["city"], q + "y": f["founded"],
                q + "t": f["trade"], "a" + q + "t": an(f["trade"])}  # fmt: skip

    def product(self, key: str) -> dict:
        f = self.truths[key].facts
        a, b = self.rng.sample(f["spellings"], 2)
        k = f["category"]
        return {"X": (a, key), "X2": (b, key), "Xk": k, "aXk": an(k), "Xy": f["launched"]}


def state(rng, note: Note, pool, slots, said: set, want: list[str], bullet: str = "") -> None:
    """One line for each fact in `want` not yet said, never restating a said fact."""
    for fact in want:
        if fact in said:
            continue
        fit = [t for t in pool if fields(t) <= slots.keys() and fact in facts_of(t)]
        fit = [t for t in fit if not (facts_of(t) - {fact}) & said] or fit
        if fit:
            t = rng.choice(fit)
            note.say(bullet + t, **slots)
            said |= facts_of(t)


_ALL = (W.USES, W.MATE, W.PRIOR)
PERSON_KINDS = {  # head, opening, facts, close, uses, mate, prior
    "brief": (W.BRIEF_HEAD, W.BRIEF_OPEN, W.KV_FACTS, W.BRIEF_CLOSE, *_ALL),
    "follow": (None, W.FOLLOW_HEAD, W.NARR_FACTS, W.FOLLOW_CLOSE, *_ALL),
    "log": (W.LOG_HEAD, W.LOG_OPEN, W.NARR_FACTS, W.LOG_MORE, *_ALL),
    "screen": (W.SCREEN_HEAD, W.SCREEN_OPEN, W.SCREEN_FACTS, W.SCREEN_CLOSE, *_ALL),
    "slack": (W.SLACK_HEAD, W.SLACK_OPEN, W.SLACK_FACTS, W.SLACK_CLOSE, W.USES_SLACK,
              W.MATE_SLACK, W.PRIOR_SLACK),
}  # fmt: skip


def person_note(w: World, key: str, co: list[str]) -> Doc:
    rng, f = w.rng, w.truths[key].facts
    kind = rng.choices(list(PERSON_KINDS), weights=[3, 3, 2, 2, 2])[0]
    head, opening, pool, close, uses, mate, prior = PERSON_KINDS[kind]
    s = w.noise() | w.person(key)
    for other in co:
        if other == f["employer"]:
            s |= w.firm(other, "O")
        elif other == f.get("prior"):
            s |= w.firm(other, "O2")
        elif w.truths[other].kind == "product":
            s |= w.product(other)
    note, said = Memo(), set()
    bullet = {"brief": rng.choice(["", "- ", "* ", "• "]), "log": "- "}.get(kind, "")
    if head:
        note.say(rng.choice(head), **s)
    first = pick(rng, opening, s)
    note.say(first, **s)
    said |= facts_of(first)
    want = rng.sample(["job", "city", "born", "hobby"], rng.randint(1, 3))
    state(rng, note, pool, s, said, (["employer"] if "O" in s else []) + want, bullet)
    extras = [(pick(rng, uses, s, note, said), s)] if "X" in s else []
    extras += [(pick(rng, prior, s, note), s)] if "O2" in s else []
    for other in co:
        if w.truths[other].kind == "person":
            q = s | w.person(other, "Q")
            extras.append((pick(rng, mate, q, note, said), q))
    rng.shuffle(extras)
    for t, slots in extras:
        note.say(bullet + t if kind in ("brief", "screen", "log") else t, **slots)
    if kind == "log" or rng.random() < 0.7:
        note.say(pick(rng, close, s, note, said), **s)
    if kind == "follow":
        return note.doc()
    return note.doc("\n")


def org_note(w: World, key: str, co: list[str]) -> Doc:
    rng, f = w.rng, w.truths[key].facts
    kind = rng.choices(["eval", "acct", "slack"], weights=[3, 3, 1])[0]
    s = w.noise() | w.firm(key, "O")
    note, said = Memo(), set()
    pools = {
        "eval": (W.EVAL_HEAD, W.EVAL_FACTS, W.EVAL_MAKES, W.EVAL_STAFF, W.EVAL_ALUM, W.EVAL_CLOSE),
        "acct": (W.ACCT_OPEN, W.ACCT_FACTS, W.ACCT_MAKES, W.ACCT_STAFF, W.ACCT_ALUM, W.EVAL_CLOSE),
        "slack": (
            W.ORG_SLACK,
            W.ORG_SLACK_FACTS,
            W.ORG_SLACK_MAKES,
            W.ORG_SLACK_STAFF,
            W.EVAL_ALUM,
            [],
        ),
    }
    head, facts, makes, staff, alum, close = pools[kind]
    first = pick(rng, head, s)
    note.say(first, **s)
    said |= facts_of(first)
    state(rng, note, facts, s, said, rng.sample(["founded", "hq", "trade"], rng.randint(1, 3)))
    for other in co:
        t = w.truths[other]
        if t.kind == "product":
            q = s | w.product(other)
            note.say(pick(rng, makes, q, note), **q)
        else:
            q = s | w.person(other, "Q")
            note.say(pick(rng, staff if other in f["staff"] else alum, q, note), **q)
    if close and rng.random() < 0.7:
        note.say(pick(rng, close, s), **s)
    return note.doc(" " if kind == "acct" else "\n")


def product_note(w: World, key: str, co: list[str]) -> Doc:
    rng, f = w.rng, w.truths[key].facts
    s = w.noise() | w.product(key)
    if f["maker"] in co:
        s |= w.firm(f["maker"], "M")
    note = Memo()
    slack = rng.random() < 0.3
    bullet = rng.choice(["", "- ", "* "])
    first = rng.choice(W.PROD_SLACK if slack else W.PROD_HEAD)
    note.say(first, **s)
    said = facts_of(first)
    want = rng.sample(["kind", "launched"], rng.randint(1, 2))
    state(rng, note, W.PROD_FACTS, s, said, want, bullet)
    if rng.random() < 0.4:
        note.say(bullet + rng.choice(W.PROD_FILLER), **s)
    if "M" in s:
        note.say(bullet + rng.choice(W.PROD_MAKER), **s)
    for other in co:
        if w.truths[other].kind == "person":
            q = s | w.person(other, "Q")
            note.say(bullet + pick(rng, W.PROD_USERS, q, note), **q)
    return note.doc("\n")


def related(truths: dict[str, Truth], key: str) -> list[str]:
    f = truths[key].facts
    out = [f.get("employer"), f.get("prior"), f.get("uses"), f.get("maker")]
    for name in ("colleagues", "staff", "alumni", "makes", "users"):
        out += f.get(name, [])
    return [k for k in out if k]


def plan(rng: random.Random, w: World) -> list[tuple[str, list[str]]]:
    """Which things each note names: a focus and, in most notes, 1-3 of its relations. Every
    thing lands in 2..CAP notes; the people of a namesake pair never share one."""
    apart = {a: b for a, b in w.pairs} | {b: a for a, b in w.pairs}
    per = {"person": (2, 3), "org": (1, 3), "product": (1, 2)}
    count: Counter = Counter()
    scenes: list[tuple[str, list[str]]] = []
    for key, t in w.truths.items():
        for _ in range(rng.randint(*per[t.kind])):
            scenes.append((key, []))
            count[key] += 1
    for focus, co in scenes:
        if rng.random() > 0.75:
            continue
        want = 1 + (rng.random() < 0.5) + (rng.random() < 0.2)
        options = related(w.truths, focus)
        for other in rng.sample(options, len(options)):
            if len(co) >= want or count[other] >= CAP or other in co or other == focus:
                continue
            if any(apart.get(k) == other for k in [focus, *co]):
                continue
            co.append(other)
            count[other] += 1
    for key in w.truths:
        while count[key] < 2:
            scenes.append((key, []))
            count[key] += 1
    rng.shuffle(scenes)
    return scenes


def documents(
    seed: int = 0, size: str = "default"
) -> tuple[list[Doc], dict[str, Truth], list[tuple[str, str]]]:
    rng = random.Random(seed)
    w = World(rng, size)
    write = {"person": person_note, "org": org_note, "product": product_note}
    docs = [write[w.truths[focus].kind](w, focus, co) for focus, co in plan(rng, w)]
    return docs, w.truths, w.pairs
