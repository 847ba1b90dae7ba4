"""Stand-up logs: daily stand-ups, tracker comments, sprint retros, vendor status updates and call
logs as an agent writes them into a team's memory, terse and mixed in style, about fictional
people, firms and products, with two pairs of namesakes. Its planning, name pools and wording
(standup_logs_wording.py) were written without reading the service or the other generators.
"""

from __future__ import annotations

import datetime
import random
import re
import string
import unicodedata
from collections import Counter

from . import SIZES, Doc, Truth
from . import standup_logs_wording as W

_FMT = string.Formatter()
_STRIP = ", -"
_POOLS = ("GIVEN_F", "GIVEN_M", "SURNAMES", "FIRM_STEMS", "PRODUCT_STEMS")


def _strings(x) -> list[str]:
    items = x.values() if isinstance(x, dict) else x if isinstance(x, list | tuple) else []
    return [x] if isinstance(x, str) else [s for v in items for s in _strings(v)]


# words the notes use anyway: no name or acronym may be one of them
_VOCAB = {
    w.casefold()
    for k, v in vars(W).items()
    if k.isupper() and k not in _POOLS
    for s in _strings(v)
    for w in re.findall(r"[^\W\d_]+", s)
} | set("has was via gas ads ids its one two new old out day get got let set yes".split())


def _an(phrase: str) -> str:
    return ("an " if phrase[0].lower() in "aeio" else "a ") + phrase


def _ascii(name: str) -> str:
    name = name.replace("ı", "i").replace("ł", "l")
    return unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()


def _slip(rng: random.Random, word: str) -> str:
    """A one-letter slip inside a word (never its first letter)."""
    i = rng.randrange(1, len(word) - 2)
    op = rng.randrange(3)
    if op == 0 and word[i] != word[i + 1]:
        return word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    if op == 1:
        return word[:i] + word[i] + word[i:]
    return word[:i] + word[i + 1 :]


def _date(rng: random.Random) -> str:
    y, m, d = rng.choice((2024, 2025)), rng.randint(1, 12), rng.randint(1, 28)
    wd = W.DAYS[datetime.date(y, m, d).weekday()]
    th = {1: "st", 2: "nd", 3: "rd", 21: "st", 22: "nd", 23: "rd"}.get(d, "th")
    mon = W.MONTHS[m - 1]
    forms = [f"{d} {mon}", f"{mon} {d}", f"{y}-{m:02d}-{d:02d}", f"{d:02d}/{m:02d}", f"{m}/{d}",
             f"{d}.{m}.", f"{wd} {d}/{m}", f"{d}{th} {W.MONTHS_LONG[m - 1]}",
             f"{d}-{mon}-{y % 100}", f"{wd.lower()} {d} {mon.lower()}"]  # fmt: skip
    return rng.choice(forms)


def _tokens(t: Truth) -> list[str]:
    f = t.facts
    if t.kind == "person":
        return [f["given"], f["surname"]]
    if t.kind == "org":
        return [f["short"], *([f["acronym"]] if f["acronym"] else [])]
    return [f["stem"]]


def _cast(rng: random.Random, size: str):
    n_people, n_firms, n_products = SIZES[size]
    while True:
        truths = _draw(rng, n_people, n_firms, n_products)
        words = {w for t in truths.values() for w in _tokens(t)}
        descs = {w for t in truths.values() if t.kind == "org" for w in t.facts["core"].split()[1:]}
        around = [*words, *descs, *W.CITIES, *W.ROOMS, *W.TOOLS, *W.HOBBIES]
        if (
            not any(a != b and a.casefold() in b.casefold() for a in words for b in around)
            and not any(u.casefold() in w.casefold() for u in W.CITIES for w in words)
            and not any(w.casefold() in _VOCAB for w in words)
        ):
            return truths


def _draw(rng, n_people, n_firms, n_products) -> dict[str, Truth]:
    firms, products, people = [], [], []
    for stem, (descs, whats, kinds) in zip(
        rng.sample(W.FIRM_STEMS, n_firms), rng.sample(W.SECTORS, n_firms), strict=True
    ):
        core = f"{stem} {rng.choice(descs)}"
        legal = rng.choice(W.LEGAL)
        parts = core.split()
        facts = dict(short=stem, core=core, legal=legal, what=rng.choice(whats), kinds=kinds,
                     acronym="".join(p[0] for p in parts).upper() if len(parts) == 3 else None,
                     city=rng.choice(W.CITIES), founded=rng.randint(1948, 2019))  # fmt: skip
        firms.append(Truth("", "org", f"{core} {legal}", facts))
    makers = rng.sample(firms, n_products)
    for stem, maker in zip(rng.sample(W.PRODUCT_STEMS, n_products), makers, strict=True):
        num = rng.choice((rng.randint(2, 9), rng.randint(10, 99), rng.randint(10, 99) * 10))
        facts = dict(stem=stem, model=str(num), kind=rng.choice(maker.facts["kinds"]), maker=maker)
        products.append(Truth("", "product", f"{stem}-{num}", facts))
    givens = rng.sample([(g, "f") for g in W.GIVEN_F] + [(g, "m") for g in W.GIVEN_M], n_people)
    for (given, gender), surname in zip(givens, rng.sample(W.SURNAMES, n_people), strict=True):
        people.append(_person(rng, given, gender, surname, rng.choice(firms)))
    for orig in rng.sample(people, 2):
        f = orig.facts
        employer = rng.choice([o for o in firms if o is not f["employer"]])
        twin = _person(rng, f["given"], f["gender"], f["surname"], employer, f["job"], f["city"])
        twin.facts["twin"], f["twin"] = orig, twin
        people.append(twin)
    rng.shuffle(people)
    truths = {}
    for prefix, group in (("p", people), ("o", firms), ("x", products)):
        for i, t in enumerate(group, 1):
            t.key = f"{prefix}{i}"
            truths[t.key] = t
    for t in truths.values():  # objects -> keys
        for k in ("employer", "maker", "twin"):
            if k in t.facts:
                t.facts[k] = t.facts[k].key
    return truths


def _person(rng, given, gender, surname, employer, not_job=None, not_city=None) -> Truth:
    first = rng.choice([_ascii(given), _ascii(given)[0]])
    facts = dict(given=given, surname=surname, gender=gender, employer=employer,
                 job=rng.choice([j for j in W.JOBS if j != not_job]),
                 city=rng.choice([c for c in W.CITIES if c != not_city]),
                 born=rng.randint(1961, 2001), hobby=rng.choice(W.HOBBIES),
                 title="Dr" if rng.random() < 0.15 else None,
                 email=f"{first}.{_ascii(surname)}@{rng.choice(W.MAIL)}",
                 phone=f"+{rng.randint(30, 98)} {rng.randint(100, 999)} {rng.randint(1000, 9999)}")  # fmt: skip
    return Truth("", "person", f"{given} {surname}", facts)


def _plan(rng: random.Random, truths: dict[str, Truth]) -> list[list[str]]:
    specs = [[k] for k in truths for _ in range(rng.choice((2, 2, 3, 3, 3)))]
    rng.shuffle(specs)
    count = Counter(s[0] for s in specs)
    for spec in rng.sample(specs, round(len(specs) * rng.uniform(0.24, 0.3))):
        for _ in range(1 if rng.random() < 0.7 else 2):
            twins = {truths[k].facts.get("twin") for k in spec}
            cands = [c for c in _related(truths, spec[0]) if c not in spec and c not in twins]
            cands = [c for c in cands if count[c] < 9 and truths[c].facts.get("twin") not in spec]
            if cands:
                spec.append(rng.choice(cands))
                count[spec[-1]] += 1
    return specs


def _related(truths: dict[str, Truth], key: str) -> list[str]:
    t, f = truths[key], truths[key].facts
    others = [k for k in truths if k != key]
    if t.kind == "person":
        mates = [k for k in others if truths[k].facts.get("employer") == f["employer"]]
        made = [k for k in others if truths[k].facts.get("maker") == f["employer"]]
        people = [k for k in others if truths[k].kind == "person"]
        return [f["employer"]] * 4 + mates * 2 + made + people
    if t.kind == "org":
        return [k for k in others if key in (truths[k].facts.get("employer"), truths[k].facts.get("maker"))]  # fmt: skip
    staff = [k for k in others if truths[k].facts.get("employer") == f["maker"]]
    return [f["maker"]] * 4 + staff + [k for k in others if truths[k].kind == "person"]


class _Draft:
    """One note being written; `ref` gives a thing's first, then shorter, surfaces."""

    def __init__(self, rng: random.Random, truths: dict[str, Truth], keys: list[str]) -> None:
        self.rng, self.truths, self.keys = rng, truths, keys
        self.names: dict[str, str] = {}
        self.seen: set[str] = set()

    def ref(self, key: str) -> str:
        first = key not in self.seen
        self.seen.add(key)
        kind = self.truths[key].kind
        form = self._person if kind == "person" else self._org if kind == "org" else self._product
        text, surfaces = form(self.truths[key].facts, first)
        for s in surfaces:
            self.names[s] = key
        return text

    def _person(self, f: dict, first: bool) -> tuple[str, list[str]]:
        r, given, sur = self.rng.random(), f["given"], f["surname"]
        if self.rng.random() < 0.02:
            given, sur = (given, _slip(self.rng, sur)) if r < 0.5 else (_slip(self.rng, given), sur)
        if first:
            if f["title"] and r < 0.7:
                s = f"{f['title']}{self.rng.choice(('', '.'))} {given} {sur}"
            else:
                s = f"{sur}, {given}" if r < 0.06 else f"{given} {sur}"
        else:
            honor = f["title"] or ("Ms" if f["gender"] == "f" else "Mr")
            s = (sur if r < 0.52 else given if r < 0.78 else f"{honor} {sur}" if r < 0.9
                 else f"{given[0]}. {sur}" if r < 0.95 else f"{given} {sur}")  # fmt: skip
        return s, [s]

    def _org(self, f: dict, first: bool) -> tuple[str, list[str]]:
        r, core, short, acro = self.rng.random(), f["core"], f["short"], f["acronym"]
        comma = "," if f["legal"] in W.COMMA_LEGAL and self.rng.random() < 0.4 else ""
        full = f"{core}{comma} {f['legal']}"
        if self.rng.random() < 0.015:
            short = _slip(self.rng, short)
        if first:
            s = full if r < 0.45 else core if r < 0.78 else full.upper() if r < 0.86 else None
            if s is None and acro:
                return f"{core} ({acro})", [core, acro]
            return (s or full), [s or full]
        choices = [short] * 5 + [core] * 2 + [full, short.upper()] + [acro] * 3 * bool(acro)
        s = self.rng.choice(choices)
        return s, [s]

    def _product(self, f: dict, first: bool) -> tuple[str, list[str]]:
        stem, num = f["stem"], f["model"]
        if self.rng.random() < 0.015:
            stem = _slip(self.rng, stem)
        forms = [f"{stem}-{num}", f"{stem} {num}", f"{stem}{num}"]
        if first:
            s = self.rng.choice(forms) if self.rng.random() < 0.94 else forms[0].upper()
        else:
            s = self.rng.choice([stem, stem, *forms])
        return s, [s]

    def fill(self, tpl: str, subj: str, firm: str | None = None, prod: str | None = None) -> str:
        vals: dict[str, str] = {}
        for _, slot, _, _ in _FMT.parse(tpl):
            if slot and slot not in vals:
                vals[slot] = self._value(slot, subj, firm, prod)
        return tpl.format(**vals)

    def _value(self, slot: str, subj: str, firm: str | None, prod: str | None) -> str:
        t, rng = self.truths[subj], self.rng
        f = t.facts
        if slot in "SP":
            return self.ref(subj)
        if slot == "F":
            return self.ref(firm or subj)
        if slot == "X":
            return self.ref(prod or subj)
        if slot in ("J", "aJ"):
            return f["job"] if slot == "J" else _an(f["job"])
        if slot in ("W", "aW"):
            return f["what"] if slot == "W" else _an(f["what"])
        if slot in ("K", "aK"):
            return f["kind"] if slot == "K" else _an(f["kind"])
        simple = {"C": lambda: f["city"], "Y": lambda: str(f.get("born") or f.get("founded")),
                  "H": lambda: f["hobby"], "E": lambda: f["email"], "T": lambda: f["phone"],
                  "d": lambda: _date(rng), "w": lambda: str(rng.randint(2, 51)),
                  "s": lambda: str(rng.randint(8, 61)), "n": lambda: str(rng.randint(120, 9880)),
                  "tk": lambda: rng.choice(W.TICKETS), "R": lambda: rng.choice(W.ROOMS),
                  "U": lambda: rng.choice(W.CITIES), "tool": lambda: rng.choice(W.TOOLS),
                  "topic": lambda: rng.choice(W.TOPICS), "q": lambda: str(rng.randint(1, 4))}  # fmt: skip
        return simple[slot]()


def _lines_for(d: _Draft, key: str, main: bool, style: str, bullet: str, label: bool) -> list[str]:
    """The lines a note spends on one thing: an intro (with facts) and maybe follow-ups."""
    rng, t = d.rng, d.truths[key]
    f = t.facts
    link = f.get("employer") or f.get("maker")
    firm = link if link in d.keys else None
    if key in d.seen and not main:  # named already beside a person or product
        return [bullet + d.fill(rng.choice(W.F_FOLLOW), key)] if rng.random() < 0.3 else []
    if t.kind == "person":
        facts = {c for c, p in (("J", 0.65), ("C", 0.35)) if rng.random() < p}
        facts |= {"F"} if firm else set()
        if not facts and rng.random() < 0.7:
            facts = {"J"}
        intro, verb, colon, follow = W.P_INTRO, W.P_VERB, W.P_COLON, W.P_FOLLOW
    elif t.kind == "org":
        facts = {c for c, p in (("W", 0.5), ("C", 0.35), ("Y", 0.25)) if rng.random() < p}
        intro, verb, colon, follow = W.F_INTRO, W.F_VERB, W.F_COLON, W.F_FOLLOW
    else:
        facts = ({"K"} if rng.random() < 0.7 else set()) | ({"F"} if firm else set())
        intro, verb, colon, follow = W.X_INTRO, W.X_VERB, W.X_COLON, W.X_FOLLOW
    head = d.fill(rng.choice(intro["".join(sorted(facts))]), key, firm=firm, prod=key)
    if style == "field":
        lines = [rng.choice(W.LABELS[t.kind]) * label + head.rstrip(_STRIP)]
        act = d.fill(rng.choice(colon), key)
        if rng.random() < 0.5:
            lines.append("status: " + act)
        else:
            lines[-1] += rng.choice((" — ", " | ", "; ")) + act
    elif style == "colon":
        lines = [bullet + head.rstrip(_STRIP) + ": " + d.fill(rng.choice(colon), key)]
    else:
        lines = [bullet + head + " " + d.fill(rng.choice(verb), key)]
    extra = [follow] * 3
    if t.kind == "person":
        extra += [W.P_YEAR] * 2 + [W.P_HOBBY] * 2 + [W.P_CONTACT] * (rng.random() < 0.35)
    for _ in range(rng.choice((0, 1, 1, 2)) if main else rng.choice((0, 0, 1))):
        if not extra:
            break
        pool = rng.choice(extra)
        extra = [e for e in extra if e is not pool]
        lines.append(bullet + d.fill(rng.choice(pool), key))
    return lines


def _write(rng: random.Random, truths: dict[str, Truth], keys: list[str]) -> Doc:
    main = truths[keys[0]]
    genres = [g for g in W.GENRES if main.kind in g[1].split()]
    genre, _, heads, bullets, styles, sep = rng.choice(genres)
    d = _Draft(rng, truths, keys)
    bullet = rng.choice(bullets)
    style = rng.choice(styles.split())
    lines = [d.fill(rng.choice(heads), keys[0])]
    for i, key in enumerate(keys):
        b = rng.choice(W.RETRO_MARKS) if genre == "retro" else bullet
        lines += _lines_for(d, key, i == 0, style, b, label=rng.random() < 0.8)
    b = "" if genre == "retro" else bullet
    for tpl in rng.sample(W.FILLER, rng.choice((0, 0, 1, 1, 2))):
        if len(lines) < 8:
            at = rng.choice((1, len(lines)))
            lines.insert(at, b + d.fill(tpl, keys[0]))
    if sep == " ":
        lines = [s if s[-1] in ".:!?" else s + "." for s in lines]
    text = sep.join(lines)
    if rng.random() < 0.12:
        text = _typo(rng, text, d.names)
    if rng.random() < 0.1:
        text = text[0].lower() + text[1:] if not any(text.startswith(s) for s in d.names) else text
    return Doc(text=text, names=dict(d.names))


def _typo(rng: random.Random, text: str, names: dict[str, str]) -> str:
    words = list(re.finditer(r"(?<![\w.@-])[a-z]{5,}(?![\w.@-])", text))
    if not words:
        return text
    m = rng.choice(words)
    out = text[: m.start()] + _slip(rng, m.group()) + text[m.end() :]
    return out if all(s in out for s in names) else text


def _sound(doc: Doc, truths: dict[str, Truth], keys: list[str]) -> bool:
    named = set(doc.names.values())
    if named != set(keys) or doc.text.count("\n") > 7:
        return False
    for s, k in doc.names.items():
        if s not in doc.text:
            return False
        if any(k2 != k and s.casefold() in o.casefold() for o, k2 in doc.names.items()):
            return False
    skip = named | {truths[k].facts.get("twin") for k in named}
    for key, t in truths.items():
        if key not in skip:
            for tok in _tokens(t):
                if re.search(rf"(?<!\w){re.escape(tok)}(?!\w)", doc.text, re.IGNORECASE):
                    return False
    return True


def documents(
    seed: int = 0, size: str = "default"
) -> tuple[list[Doc], dict[str, Truth], list[tuple[str, str]]]:
    rng = random.Random(seed)
    truths = _cast(rng, size)
    docs = []
    for keys in _plan(rng, truths):
        for _ in range(60):
            doc = _write(rng, truths, keys)
            if _sound(doc, truths, keys):
                break
        else:
            raise RuntimeError(f"could not write a sound note for {keys}")
        docs.append(doc)
    order = list(truths).index
    pairs = sorted({tuple(sorted((k, t.facts["twin"]), key=order)) for k, t in truths.items() if "twin" in t.facts})  # fmt: skip
    for t in truths.values():
        t.facts.pop("kinds", None)
    return docs, truths, pairs
