"""Press clips: what a research agent saves to memory while it reads the web and the news, in its
own words — summaries of press releases, trade-press clips, profiles, funding and hiring news,
product reviews, speaker lists and podcast show notes — about fictional people, firms and
products, with two pairs of namesakes. Its planning, wording and name pools (the latter two in
press_clips_wording.py) were written without reading the service or the other generators, so
that the corpus can judge entity resolution rather than echo it.
"""

from __future__ import annotations

import random
import re
from collections import Counter

from . import SIZES, Doc, Truth
from . import press_clips_wording as W

CAP = 9  # the most notes a thing may be named in
PRONOUNS = {"f": ("she", "Ms"), "m": ("he", "Mr")}
NOT_ACRONYMS = {"CFO", "CTO", "CEO", "COO", "NGO", "HQ"}


def _a(phrase: str) -> str:
    return ("an " if phrase[0] in "aeiou" else "a ") + phrase


class _Slots(dict):
    """Template slots computed on first use, so only the things a template names are recorded."""

    makers: dict = {}  # slot name -> how to compute it, set per instance

    def __missing__(self, key):
        return self.setdefault(key, self.makers[key]())


class _World:
    def __init__(self):
        self.truths: dict[str, Truth] = {}
        self.info: dict[str, dict] = {}
        self.pairs: list[tuple[str, str]] = []
        self.taken: list[str] = []  # every name form so far, casefolded
        self.aliases: dict[str, list[tuple[str, re.Pattern]]] = {}

    def fits(self, forms) -> bool:
        low = [f.casefold() for f in forms]
        return all(a not in t and t not in a for a in low for t in self.taken)

    def take(self, key: str, forms, aliases, acronym: str | None = None) -> None:
        self.taken += [f.casefold() for f in forms]
        pats = [(a, re.compile(rf"(?<!\w){re.escape(a)}(?!\w)", re.I)) for a in aliases]
        self.aliases[key] = pats + ([(acronym, re.compile(rf"\b{acronym}\b"))] if acronym else [])


def _cast(rng: random.Random, size: str) -> _World:
    n_people, n_firms, n_products = SIZES[size]
    w = _World()
    sectors = list(W.SECTORS)
    chosen = rng.sample(sectors, min(n_firms, len(sectors)))
    chosen += [rng.choice(sectors) for _ in range(n_firms - len(chosen))]
    for i, sector in enumerate(chosen, 1):
        words, _, kinds = W.SECTORS[sector]
        for stem in rng.sample(W.FIRM_STEMS, len(W.FIRM_STEMS)):
            parts = [stem, rng.choice(words)]
            tails = [t for t in W.NAME_TAILS if t[:4].lower() not in parts[1].lower()]
            parts += [rng.choice(tails)] if rng.random() < 0.35 else []
            bare = " ".join(parts)
            acr = "".join(p[0] for p in parts) if len(parts) == 3 else None
            legal, hqs = rng.choice(W.LEGAL)
            forms = [stem, bare, f"{bare} {legal}"] + ([acr] if acr else [])
            if w.fits(forms) and acr not in NOT_ACRONYMS:
                break
        key = f"o{i}"
        w.take(key, forms, [stem], acr)
        facts = {"sector": sector, "city": rng.choice(hqs), "founded": rng.randint(1952, 2021),
                 "legal_form": legal, "short": stem, "staff": rng.choice([40, 85, 120, 260, 540, 1300, 2400]),
                 **({"acronym": acr} if acr else {})}  # fmt: skip
        w.truths[key] = Truth(key, "org", f"{bare} {legal}", facts)
        w.info[key] = {"stem": stem, "bare": bare, "acr": acr, "kinds": kinds}
    firms = list(w.truths)
    makers = rng.sample(firms, len(firms))
    for j in range(1, n_products + 1):
        maker = makers[(j - 1) % len(makers)]
        for stem in rng.sample(W.PRODUCT_STEMS, len(W.PRODUCT_STEMS)):
            model = rng.choice([str(rng.randint(2, 9)), str(rng.randint(10, 99)),
                                str(100 * rng.randint(1, 9)), rng.choice("SXMRT") + str(rng.randint(1, 9))])  # fmt: skip
            variants = [f"{stem}-{model}", f"{stem} {model}", f"{stem}{model}"]
            if w.fits([stem, *variants]):
                break
        key = f"x{j}"
        w.take(key, [stem, *variants], [stem, variants[2]])
        price = rng.choice(["€", "$", "£", "A$", "CHF "]) + str(rng.randrange(39, 2400, 10))
        facts = {"kind": rng.choice(w.info[maker]["kinds"]), "maker": maker, "launched": rng.randint(2018, 2025), "price": price}  # fmt: skip
        w.truths[key] = Truth(key, "product", variants[0], facts)
        w.info[key] = {"stem": stem, "variants": variants}
    total = n_people + 2
    jobs = rng.sample(W.JOBS, min(total, len(W.JOBS)))
    jobs += [rng.choice(W.JOBS) for _ in range(total - len(jobs))]
    cities = rng.sample(W.CITIES, total)
    employers = rng.sample(firms, len(firms))
    people = []
    for i in range(n_people):
        given, gender = next(g for g in rng.sample(W.GIVEN, len(W.GIVEN)) if w.fits([g[0]]))
        surname = next(s for s in rng.sample(W.SURNAMES, len(W.SURNAMES)) if w.fits([s]))
        w.taken += [given.casefold(), surname.casefold(), f"{given} {surname}".casefold()]
        job, city, employer = jobs[i], cities[i], employers[i % len(firms)]
        people.append(_person(rng, given, surname, gender, job, city, employer))
    for j, orig in enumerate(rng.sample(people, 2)):
        others = [o for o in firms if o != orig["employer"]]
        twin = _person(rng, orig["given"], orig["surname"], orig["gender"], jobs[n_people + j],
                       cities[n_people + j], rng.choice(others))  # fmt: skip
        twin["born"] += 1 if twin["born"] == orig["born"] else 0
        people.insert(rng.randrange(len(people) + 1), twin)
        twin["twin_of"] = orig
    for i, rec in enumerate(people, 1):
        key = rec["key"] = f"p{i}"
        w.truths[key] = Truth(key, "person", f"{rec['given']} {rec['surname']}", {
            "job": rec["job"][0], "employer": rec["employer"], "city": rec["city"],
            "born": rec["born"], "studied": f"{rec['subject']}, {rec['place']}",
            "hobby": rec["hobby"], "former_job": rec["former"]})  # fmt: skip
        w.info[key] = rec
        w.take(key, [], [rec["given"], rec["surname"]])
    w.pairs = [(r["twin_of"]["key"], r["key"]) for r in people if "twin_of" in r]
    return w


def _person(rng, given, surname, gender, job, city, employer) -> dict:
    doctor = job[0] in W.DOCTOR_JOBS or rng.random() < 0.08
    return {"given": given, "surname": surname, "gender": gender, "job": job, "city": city,
            "employer": employer, "born": rng.randint(1956, 1999), "subject": rng.choice(W.SUBJECTS),
            "place": rng.choice(W.STUDY_PLACES), "hobby": rng.choice(W.HOBBIES),
            "former": rng.choice(W.FORMER_JOBS), "formerplace": rng.choice(W.FORMER_PLACES),
            "years": rng.choice(["two", "three", "five", "seven", "nine"]),
            "title": "Dr" if doctor else PRONOUNS[gender][1]}  # fmt: skip


class _Clip:
    """One note being written: its random choices and the surfaces it names."""

    def __init__(self, rng: random.Random, w: _World):
        self.rng, self.w = rng, w
        self.names: dict[str, str] = {}
        self.slots: dict[str, _Slots] = {}
        self.later_refs: dict[str, str] = {}
        self.dot = rng.choice(["", "", "."])
        self.common = self._common()

    def rec(self, surface: str, key: str) -> str:
        self.names[surface] = key
        return surface

    def fill(self, template: str, slots: _Slots) -> str:
        text = template.format_map(slots)
        return text[:1].upper() + text[1:]

    def _common(self, extra: dict | None = None) -> _Slots:
        r = self.rng
        d = r.randint(1, 28), r.randint(1, 12), r.choice([2023, 2024, 2025])
        date = r.choice([f"{d[0]:02d}/{d[1]:02d}", f"{d[2]}-{d[1]:02d}-{d[0]:02d}",
                         f"{d[0]} {W.MONTHS[d[1] - 1]} {d[2]}", f"{W.MONTHS[d[1] - 1]} {d[0]}"])  # fmt: skip
        pools = {"pub": W.PUBS, "src": W.SOURCES, "conf": W.CONFS, "pod": W.PODS, "city2": W.CITIES,
                 "city3": W.CITIES, "topic": W.TOPICS, "theme": W.THEMES, "award": W.AWARDS, "region": W.REGIONS,
                 "investor": W.INVESTORS, "round": W.ROUNDS, "plus": W.PLUSES, "minus": W.MINUSES,
                 "score": W.SCORES, "bug": W.BUGS}  # fmt: skip
        makers = {k: (lambda p=p: r.choice(p)) for k, p in pools.items()}
        s = _Slots()
        s.makers = makers
        makers.update({
            "date": lambda: date, "ep": lambda: str(r.randint(12, 240)),
            "amount": lambda: r.choice(["€{}m", "${}m", "£{}m", "CHF {}m"]).format(r.randint(2, 90)),
            "topic2": lambda: r.choice([t for t in W.TOPICS if t != s.get("topic")]),
            "n2": lambda: str(r.randint(3, 12)), "fw": lambda: f"{r.randint(1, 4)}.{r.randint(0, 9)}",
            "event": lambda: r.choice(W.EVENTS).format_map(s),
            "plan": lambda: r.choice(W.PLANS).format_map(s), **(extra or {})})  # fmt: skip
        return s

    def later(self, p: str, informal: bool) -> str:
        if p not in self.later_refs:
            i, x = self.w.info[p], self.rng.random()
            title = f"{i['title']}{self.dot} {i['surname']}"
            ref = i["given"] if informal and x < 0.4 else i["surname"] if x < 0.7 else title
            self.later_refs[p] = self.rec(ref, p)
        return self.later_refs[p]

    def firm(self, o: str, first: bool = True, casual: bool = False) -> str:
        i, t = self.w.info[o], self.w.truths[o]
        acr, introduced = i["acr"], i["bare"] in self.names
        if first and not casual:
            ways = {"legal": 4, "bare": 3, "upper": 1, "upper_legal": 1, "intro": 2 if acr else 0}
        elif first:
            ways = {"bare": 4, "stem": 3, "legal": 1, "acr": 1 if acr else 0}
        else:
            ways = {"stem": 4, "bare": 2, "acr": (3 if introduced else 1) if acr else 0}
        way = self.rng.choices(list(ways), weights=list(ways.values()))[0]
        if way == "intro":
            return f"{self.rec(i['bare'], o)} ({self.rec(acr, o)})"
        forms = {"legal": t.name, "bare": i["bare"], "upper": i["bare"].upper(),
                 "upper_legal": t.name.upper(), "stem": i["stem"], "acr": acr}  # fmt: skip
        return self.rec(forms[way], o)

    def person(self, p: str, informal: bool = False) -> _Slots:
        if p not in self.slots:
            i, r = self.w.info[p], self.rng
            job, pr = i["job"], PRONOUNS[i["gender"]]
            plain = [v for v in job[1] if v[0].islower()]
            self.slots[p] = s = self._common({
                "P": lambda: self.rec(self.w.truths[p].name, p), "S": lambda: self.later(p, informal),
                "Pr": lambda: pr[0].capitalize(), "pr": lambda: pr[0], "job": lambda: r.choice(job[1]),
                "a_job": lambda: _a(r.choice(plain)), "Job": lambda: r.choice([job[2], job[0].capitalize()]),
                "job2": lambda: r.choice([v for v in job[1] if v != s["job"]]),
                "F": lambda: self.firm(i["employer"], casual=r.random() < 0.5), "Fp": lambda: s["F"] + "'s",
                "a_former": lambda: _a(i["former"]),
                **{k: (lambda k=k: str(i[k])) for k in ("city", "born", "subject", "place", "hobby", "formerplace", "years")},
            })  # fmt: skip
        return self.slots[p]

    def org(self, o: str) -> _Slots:
        t, r = self.w.truths[o], self.rng
        descs = W.SECTORS[t.facts["sector"]][1]
        return self._common({
            "F": lambda: self.firm(o), "Fl": lambda: self.firm(o, first=False),
            "sector": lambda: r.choice(descs), "a_sector": lambda: _a(r.choice(descs)),
            "hq": lambda: t.facts["city"], "founded": lambda: str(t.facts["founded"]),
            "n": lambda: str(t.facts["staff"])})  # fmt: skip

    def product(self, x: str) -> _Slots:
        if x not in self.slots:
            t, i, r = self.w.truths[x], self.w.info[x], self.rng
            first = r.choice(i["variants"])
            later = [i["stem"]] * 2 + [v for v in i["variants"] if v != first]
            self.slots[x] = s = self._common({
                "X": lambda: self.rec(first, x), "Xl": lambda: self.rec(r.choice(later), x),
                "kind": lambda: t.facts["kind"], "a_kind": lambda: _a(t.facts["kind"]),
                "M": lambda: self.firm(t.facts["maker"], casual=True), "Mp": lambda: s["M"] + "'s",
                "price": lambda: t.facts["price"], "launched": lambda: str(t.facts["launched"])})  # fmt: skip
        return self.slots[x]


def _head(c: _Clip, own: list[str], s: _Slots) -> list[str]:
    head = c.rng.choice(own) if own and c.rng.random() < 0.5 else c.rng.choice(W.HEADS)
    return [head.format_map(s)] if head else []


def _card(c: _Clip, heads, with_line, groups, s: _Slots) -> list[str]:
    r, least = c.rng, 1 if with_line else 2
    lines = [c.fill(r.choice(heads), s)] + ([c.fill(r.choice(with_line), s)] if with_line else [])
    return lines + [c.fill(r.choice(groups[g]), s) for g in r.sample(list(groups), r.randint(least, 4))]  # fmt: skip


def _write_person(c: _Clip, p: str, extra: set[str]) -> str:
    r, with_emp = c.rng, bool(extra)
    if r.random() < 0.2:
        heads, emp, noemp, groups = W.PERSON_CARD
        return "\n".join(_card(c, heads, emp if with_emp else noemp, groups, c.person(p)))
    own, emp, noemp, informal = W.PERSON_GENRES[r.choice(list(W.PERSON_GENRES))]
    s = c.person(p, informal)
    intro = r.choice(emp if with_emp else noemp)
    groups = [g for g in W.PERSON_FACTS if g != "former" or "former" not in intro]
    facts = [r.choice(W.PERSON_FACTS[g]) for g in r.sample(groups, r.choice((0, 1, 1, 2, 2, 3, 4, 5)))]  # fmt: skip
    return "\n".join(_head(c, own, s) + [" ".join(c.fill(t, s) for t in [intro, *facts])])


def _write_panel(c: _Clip, people: tuple[str, ...], extra: set[str]) -> str:
    r, with_emp = c.rng, {p for p in people if c.w.truths[p].facts["employer"] in extra}
    lines = [c.fill(r.choice(W.PANEL_HEADS), c.common)]
    lines += [c.fill(r.choice(W.PANEL_LINES[p not in with_emp]), c.person(p)) for p in people]
    tail = r.choice(W.PANEL_TAILS)
    return "\n".join(lines + ([c.fill(tail, c.person(r.choice(people)))] if tail else []))


def _write_firm(c: _Clip, o: str, extras: set[str]) -> str:
    r, s, extra = c.rng, c.org(o), next(iter(extras), None)
    is_person = bool(extra) and extra[0] == "p"
    xs = (c.person(extra) if is_person else c.product(extra)) if extra else None
    if r.random() < 0.25:
        heads, groups = W.FIRM_SHEET
        lines = _card(c, heads, [], groups, s)
        acr = c.w.info[o]["acr"]
        if acr and r.random() < 0.4:
            lines.insert(1, f"- short name: {c.rec(acr, o)}")
        if extra:
            lines.append(c.fill(r.choice(W.SHEET_WITH_PERSON if is_person else W.SHEET_WITH_PRODUCT), xs))  # fmt: skip
        return "\n".join(lines)
    genre = r.choice(list(W.FIRM_GENRES))
    own, intros = W.FIRM_GENRES[genre]
    groups = [g for g in W.FIRM_FACTS if g != "plan" or genre == "funding"]
    body = [r.choice(intros)] + [r.choice(W.FIRM_FACTS[g]) for g in r.sample(groups, r.choice((0, 1, 1, 2, 2, 3)))]  # fmt: skip
    head = _head(c, own, s)
    sentences = [c.fill(t, s) for t in body]
    if extra:
        more = r.choice(W.FIRM_WITH_PERSON if is_person else W.FIRM_WITH_PRODUCT)
        sentences.insert(r.randint(1, len(sentences)), c.fill(more, xs))
    return "\n".join(head + [" ".join(sentences)])


def _write_product(c: _Clip, x: str, extra: set[str]) -> str:
    r, s, with_maker = c.rng, c.product(x), bool(extra)
    if r.random() < 0.22:
        heads, maker, groups = W.PRODUCT_SHEET
        return "\n".join(_card(c, heads, maker if with_maker else [], groups, s))
    genre = r.choice(list(W.PRODUCT_GENRES))
    own, with_m, without = W.PRODUCT_GENRES[genre]
    body = [r.choice(with_m if with_maker else without)]
    skip = {"verdict": genre != "review", "kind": genre != "update"}
    groups = [g for g in W.PRODUCT_FACTS if not skip.get(g) and "{" + g + "}" not in body[0]]
    body += [r.choice(W.PRODUCT_FACTS[g]) for g in r.sample(groups, min(len(groups), r.choice((0, 1, 1, 2, 3))))]  # fmt: skip
    return "\n".join(_head(c, own, s) + [" ".join(c.fill(t, s) for t in body)])


def _plan(rng: random.Random, w: _World) -> list[list]:
    """Notes as [kind, key (a tuple for a panel), extra keys named beside it]."""
    keys = list(w.truths)
    people, firms, products = ([k for k in keys if k[0] == c] for c in "pox")
    twin = {a: b for a, b in w.pairs} | {b: a for a, b in w.pairs}
    specs: list[list] = []
    for p in people:
        n = rng.choice((2, 2, 2, 2, 3, 3, 3, 4))
        emp_at = {0} if p in twin or rng.random() < 0.6 else set()
        emp_at |= {1} if n >= 3 and rng.random() < 0.15 else set()
        specs += [["person", p, i in emp_at] for i in range(n)]
    specs += [["firm", o, 0.22] for o in firms for _ in range(rng.choice((2, 2, 3)))]
    specs += [["product", x, 0.3] for x in products for _ in range(rng.choice((2, 2, 3)))]
    for _ in range(max(1, len(people) // 6)):
        group = rng.sample(people, rng.choice((2, 3)))
        while any(twin.get(a) in group for a in group):
            group = rng.sample(people, rng.choice((2, 3)))
        specs.append(["panel", tuple(group), 0.3])
    count = Counter(k for kind, key, _ in specs for k in (key if kind == "panel" else [key]))
    fact = {k: w.truths[k].facts for k in keys}
    for spec in rng.sample(specs, len(specs)):  # the extras, in random order, up to CAP
        kind, key, odds = spec
        if kind == "person":
            ties = [fact[key]["employer"]] if odds else []
        elif kind == "product":
            ties = [fact[key]["maker"]] if rng.random() < odds else []
        elif kind == "firm":
            ties = [k for k in people + products if key in (fact[k].get("employer"), fact[k].get("maker"))]  # fmt: skip
            ties = ties if rng.random() < odds else []
        else:
            ties = [fact[p]["employer"] for p in key if rng.random() < odds]
        ties = [k for k in ties if count[k] < CAP]
        spec[2] = set(ties if kind == "panel" else rng.sample(ties, min(1, len(ties))))
        count.update(spec[2])
    return specs


def _sound(text: str, names: dict[str, str], w: _World) -> bool:
    """Every surface in the text, none inside another thing's, no tracked name left unlisted."""
    if any(s not in text for s in names):
        return False
    if any(k != k2 and s.casefold() in o.casefold() for s, k in names.items() for o, k2 in names.items()):  # fmt: skip
        return False
    spans = [(m.start(), m.end(), k) for s, k in names.items() for m in re.finditer(re.escape(s), text)]  # fmt: skip
    for pats in w.aliases.values():
        for alias, pat in pats:
            for m in pat.finditer(text):
                if not any(a <= m.start() and m.end() <= b and alias in {x for x, _ in w.aliases[k]}
                           for a, b, k in spans):  # fmt: skip
                    return False
    return True


WRITERS = dict(person=_write_person, panel=_write_panel, firm=_write_firm, product=_write_product)
Corpus = tuple[list[Doc], dict[str, Truth], list[tuple[str, str]]]


def documents(seed: int = 0, size: str = "default") -> Corpus:
    """The corpus for `seed` at `size` ("small", "default" or "large"): docs, truths, namesakes."""
    rng = random.Random(seed)
    w = _cast(rng, size)
    docs = []
    for spec in _plan(rng, w):
        want = set(spec[1] if spec[0] == "panel" else [spec[1]]) | spec[2]
        for _ in range(300):
            c = _Clip(rng, w)
            text = WRITERS[spec[0]](c, spec[1], spec[2]).replace("..", ".")
            if set(c.names.values()) == want and _sound(text, c.names, w):
                docs.append(Doc(text, dict(c.names)))
                break
        else:
            raise RuntimeError(f"press_clips: no sound note for {spec}")
    rng.shuffle(docs)
    return docs, w.truths, w.pairs
