"""Meeting minutes, e-mail threads and handover notes as agents keep them: 'Minutes, ops sync
3 Mar' with an 'Attendees:' line, bullets and 'Action:' items (or all of it on one line split by
semicolons); 'Subject: Re: ...' threads with a 'From:' line, '>' quoted replies written in the
first person and signature blocks; 'Handover — ...' notes with 'Watch out:'/'Context:' bullets
and 'To do:' lines. A person is written in full, in full with initials after it ('Adaeze Umeadi
(AU)') and then by those initials, by surname ('Dr Umeadi' for a doctor) or first name, with
possessives ('Umeadi's team'), and now and then introduced by role first ('our contact, the
fleet manager, ...'). A firm is named with or without its legal form, by its stem, sometimes
in capitals, and otherwise 'the vendor' or 'they'; a product as 'Zentor-7', 'Zentor 7' or
'Zentor7', sometimes in lower case, sometimes by its stem alone. Some notes carry a one-letter
typo, a few of them in a name; some lines start in lower case.
"""

from __future__ import annotations

import random
import re

from . import Doc, Note, Truth, an, cast, check, fresh, plan
from . import minutes_wording as words


def _initials(t: Truth) -> str:
    f = t.facts
    return "".join(p[0] for p in re.split(r"[-\s]+", f"{f['first']} {f['last']}") if p).upper()


def _firm(rng: random.Random, t: Truth) -> tuple[str, str]:
    f = t.facts
    forms = [t.name, f["bare"], f["short"], f["short"].upper()]
    return rng.choices(forms, [0.35, 0.3, 0.25, 0.1])[0], t.key


def _item(rng: random.Random, t: Truth) -> tuple[str, str]:
    stem, n = t.facts["stem"], t.facts["number"]
    form = rng.choice([f"{stem}-{n}", f"{stem} {n}", f"{stem}{n}"])
    return (form.lower() if rng.random() < 0.12 else form), t.key


def _date(rng: random.Random) -> str:
    d, m = rng.randint(1, 28), rng.randint(1, 12)
    month = words.MONTHS.split()[m - 1]
    nth = {1: "st", 2: "nd", 3: "rd", 21: "st", 22: "nd", 23: "rd"}.get(d, "th")
    return rng.choice([f"{d} {month[:3]}", f"{d}{nth} {month}", f"{d:02d}.{m:02d}.",
                       f"{month} {d}", f"wk {(m - 1) * 4 + d // 7 + 1}"])  # fmt: skip


class _Writer:
    """One note being written: its lines, each with a kind ('head', 'att', 'open', 'fact',
    'quote', 'sig', 'act', 'end') that the genre's layout arranges, and the initials it has
    introduced after a full name."""

    def __init__(self, rng: random.Random, truths: dict[str, Truth], genre: str, fancy: bool):
        self.rng, self.truths, self.genre, self.fancy = rng, truths, genre, fancy
        self.note = Note()
        self.kinds: list[str] = []
        self.ini: dict[str, str] = {}
        self.used: set[str] = set()

    def pick(self, templates: list[str]) -> str:
        """One of the templates, not one this note has used already."""
        choice = self.rng.choice([t for t in templates if t not in self.used] or templates)
        self.used.add(choice)
        return choice

    def say(self, kind: str, template: str, **slots) -> None:
        rng = self.rng
        for slot, value in list(slots.items()):  # initials after a person's full name
            mark = "{" + slot + "}"
            at = template.find(mark) + len(mark)
            if not (
                self.fancy and isinstance(value, tuple) and kind not in ("head", "sig", "quote")
            ):
                continue
            t = self.truths[value[1]]
            ini = _initials(t) if t.kind == "person" else ""
            taken = ini in self.note.names or ini in self.ini.values()
            if (not ini or taken or at < len(mark) or value[0] != t.name or t.key in self.ini
                    or template[at:at + 2] in ("'s", " (") or rng.random() > 0.35):  # fmt: skip
                continue
            template = f"{template[:at]} ({{{slot}_i}}){template[at:]}"
            slots[f"{slot}_i"] = (ini, t.key)
            self.ini[t.key] = ini
        low = 0.2 if self.genre == "email" else 0.08
        if kind in ("open", "fact", "end") and template[0] != "{" and rng.random() < low:
            template = template[0].lower() + template[1:]
        self.note.say(template, **slots)
        self.kinds.append(kind)

    def ref(self, key: str, initials: float = 0.4) -> tuple[str, str]:
        """How a person already named in the note is referred to again."""
        f, r = self.truths[key].facts, self.rng.random()
        if key in self.ini and r < initials:
            return self.ini[key], key
        if f["title"] and r < 0.6:
            return f"Dr {f['last']}", key
        return (f["last"] if r < 0.8 else f["first"]), key

    def who(self, key: str, full: float = 0.75) -> tuple[str, str]:
        t = self.truths[key]
        return (t.name, key) if self.rng.random() < full else self.ref(key)

    def mate(self, key: str) -> dict:
        job = self.truths[key].facts["job"]
        return {"Q": self.who(key, 0.8), "J2": job, "aJ2": an(job)}

    def head(self, org: str | None = None) -> None:
        rng, g = self.rng, self.genre
        slots = {"team": rng.choice(words.TEAMS).format(q=rng.randint(1, 4)), "date": _date(rng),
                 "topic": rng.choice(words.TOPICS).format(q=rng.randint(1, 4), n=rng.randint(4100, 9899)),
                 "fw": rng.choice(words.FORWARDED), "n": rng.randint(3, 14)}  # fmt: skip
        if org and rng.random() < 0.35:
            self.say("head", rng.choice(words.NAMED[g]), N=_firm(rng, self.truths[org]), **slots)
        else:
            self.say("head", rng.choice(words.HEAD[g]), **slots)

    def attendees(self, keys: list[str], org: str | None = None) -> None:
        """An 'Attendees:' line naming people in full, or our side and the vendor's."""
        slots = {f"A{i}": (self.truths[k].name, k) for i, k in enumerate(keys)}
        names = [f"{{A{i}}}" for i in range(len(keys))]
        if not keys and org:
            names, slots = (
                ["our side plus two from {A0}"],
                {"A0": _firm(self.rng, self.truths[org])},
            )
        self.say("att", self.rng.choice(words.ATTEND) + ", ".join([*names, self.rng.choice(words.FILLERS)]),
                 **slots)  # fmt: skip

    def close(self, people: list[str], org: str | None = None) -> None:
        """Actions or to-dos on someone in the note, and a closing line."""
        rng, g = self.rng, self.genre
        day = rng.choice(words.DAYS)
        n = rng.choice([0, 1, 1, 2]) if g != "email" else 0
        for template in rng.sample(words.ACTS if g == "minutes" else words.TODOS, n):
            if people:
                key = rng.choice(people)
                said = [s for s, k in self.note.names.items() if k == key]
                full = self.truths[key].name in said or not said  # else as the note named them
                a = self.ref(key, 0.75) if full else (rng.choice(said), key)
            elif org:
                f = self.truths[org].facts
                a = (rng.choice([f["short"], f["bare"]]), org)
            else:
                a = (
                    rng.choice(["the agent", "finance", "procurement"])
                    if g == "minutes"
                    else "the vendor"
                )
            self.say("act", template, A=a, day=day)
        if rng.random() < (0.45 if g == "email" else 0.3):
            self.say("end", rng.choice(words.ENDS[g]), day=day)


def _person(w: _Writer, key: str, co: list[str]) -> None:
    rng, truths, g = w.rng, w.truths, w.genre
    f = truths[key].facts
    base = {"J": f["job"], "aJ": an(f["job"]), "C": f["city"], "Y": f["born"], "H": f["hobby"],
            "poss": "her" if f["she"] else "his", "day": rng.choice(words.DAYS)}  # fmt: skip
    employer = f["employer"] if f["employer"] in co else None
    if employer:
        base["O"] = _firm(rng, truths[employer])
    mates = [k for k in co if truths[k].kind == "person"]
    w.head(employer)
    named = False
    if g == "minutes" and rng.random() < 0.7:
        w.attendees([key, *mates])
        named = True
    elif g == "email" and rng.random() < 0.3:
        w.say("head", "From: {P}", P=(truths[key].name, key))
        named = True
    bare = rng.random() < 0.25
    opening = rng.choice(
        words.OPEN_BARE[g] if bare else (words.OPEN_AT if employer else words.OPEN_ALONE)[g]
    )
    w.say("open", opening, P=w.ref(key) if named else w.who(key, 0.85), **base)
    groups = [("city", {})] if rng.random() < 0.35 else []
    groups += [(k, {}) for k in rng.sample(["born", "hobby"], rng.choice([0, 1, 1, 2]))]
    if bare:
        groups = [("job", {})] + ([("employer", {})] if employer else []) + groups
    said = {"city": "{C}", "born": "{Y}", "hobby": "{H}"}
    groups = [(k, x) for k, x in groups if said.get(k, "{?}") not in opening]
    for other in co:
        o = truths[other]
        if other == f.get("prior"):
            groups.append(("prior", {"O": _firm(rng, o)}))
        elif other == f.get("uses"):
            groups.append(("uses", {"X": _item(rng, o), "XS": (o.facts["stem"], other)}))
        elif o.kind == "person":
            groups.append(("mate", w.mate(other)))
    rng.shuffle(groups)
    quoting = g == "email" and rng.random() < 0.55
    quotes = []
    for group, extra in groups:
        if quoting and rng.random() < 0.6:
            quotes.append((w.pick(words.QUOTED[group]), extra))
        else:
            w.say("fact", w.pick(words.LINES[group]), **{**base, "R": w.ref(key), **extra})
    if quotes:
        w.say("quote", "On {date}, {W} wrote:", date=_date(rng), W=w.who(key, 0.5))
        for template, extra in quotes:
            w.say("quote", template, **{**base, **extra})
    if g == "email" and not quotes and rng.random() < 0.35:  # a signature block
        w.say("sig", "--")
        w.say("sig", "{P}", P=(truths[key].name, key))
        w.say("sig", "{J}, {O}" if employer else "{J}", **base)
    w.close([key, *mates], employer)


def _org(w: _Writer, key: str, co: list[str]) -> None:
    rng, truths, g = w.rng, w.truths, w.genre
    t = truths[key]
    f = t.facts
    slots = {"O": _firm(rng, t), "Os": (rng.choice([f["short"], f["bare"]]), key),
             "Of": (t.name, key), "C": f["city"], "Y": f["founded"], "T": f["trade"]}  # fmt: skip
    staff = [k for k in co if truths[k].kind == "person"]
    w.head(key)
    if g == "minutes" and rng.random() < 0.6:
        w.attendees(staff, key)
    opening = rng.choice(words.ORG[g])
    w.say("open", opening, **slots)
    if rng.random() < 0.5:
        w.say("fact", fresh(rng, words.ORG_MORE, opening), **slots)
    for other in co:
        o = truths[other]
        if o.kind == "person":
            w.say("fact", w.pick(words.STAFF), **slots, **w.mate(other))
        else:
            k = o.facts["category"]
            xs = (o.facts["stem"], other)
            w.say("fact", w.pick(words.MAKES), **slots, X=_item(rng, o), XS=xs, L=k, aL=an(k))
    w.close(staff, key)


def _product(w: _Writer, key: str, co: list[str]) -> None:
    rng, truths, g = w.rng, w.truths, w.genre
    f = truths[key].facts
    k = f["category"]
    slots = {"X": _item(rng, truths[key]), "X2": _item(rng, truths[key]), "XS": (f["stem"], key),
             "L": k, "aL": an(k), "Y": f["launched"], "n": rng.randint(2, 40)}  # fmt: skip
    users = [u for u in co if truths[u].kind == "person"]
    maker = f["maker"] if f["maker"] in co else None
    w.head(maker)
    if g == "minutes" and users and rng.random() < 0.5:
        w.attendees(users)
    if maker:
        m = truths[maker]
        mb = (rng.choice([m.facts["short"], m.facts["bare"]]), maker)
        opening = rng.choice(words.BY)
        w.say("open", opening, **slots, M=_firm(rng, m), Mb=mb)
    else:
        opening = rng.choice(words.ITEM[g])
        w.say("open", opening, **slots)
    if rng.random() < 0.4:
        w.say("fact", fresh(rng, words.ITEM_MORE, opening), **slots)
    for other in users:
        w.say("fact", w.pick(words.USERS), **slots, **w.mate(other))
    w.close(users, maker)


def _unstop(part: str, names: dict[str, str]) -> str:
    """A line without its full stop, unless the stop ends a name ('Halcyra B.V.')."""
    if part.endswith(".") and not any(part.endswith(s) and s.endswith(".") for s in names):
        return part[:-1]
    return part


def _layout(w: _Writer) -> str:
    rng, g = w.rng, w.genre
    names = w.note.names
    parts = list(zip(w.kinds, w.note.parts, strict=True))

    def of(*kinds: str) -> list[str]:
        return [p for k, p in parts if k in kinds]

    head, att, body, acts = of("head"), of("att"), of("open", "fact"), of("act")
    quote, sig, end = of("quote"), of("sig"), of("end")
    if g == "minutes":
        mark = rng.choice(words.ACT_MARK)
        if rng.random() < 0.3:  # all on one line
            att = [a[0].lower() + a[1:] for a in att]
            items = [_unstop(p, names) for p in att + body]
            items += [
                ("action items: " if i == 0 else "") + _unstop(a, names) for i, a in enumerate(acts)
            ]
            return f"{head[0]}: " + "; ".join(items) + "".join(f". {e}" for e in end)
        bullet = rng.choice(["- ", "* ", "• ", ""])
        lines = [head[0] + rng.choice(["", ":"]), *att]
        lines += [f"{bullet or f'{i}. '}{p}" for i, p in enumerate(body, 1)]
        if acts and rng.random() < 0.5:
            lines += ["Action items:", *(f"- {a}" for a in acts)]
        else:
            lines += [mark + a for a in acts]
        return "\n".join(lines + end)
    if g == "email":
        prose = " ".join(body) if rng.random() < 0.6 else "\n".join(body)
        return "\n".join([*head, prose, *end, *sig, *quote])
    lines = [head[0]]  # a handover
    if rng.random() < 0.3:
        lines.append(" ".join(body))
    else:
        label = [
            rng.choice(words.LABELS) if rng.random() < 0.3 and ":" not in p else "" for p in body
        ]
        lines += [f"- {m}{p}" for m, p in zip(label, body, strict=True)]
    mark = rng.choice(words.TODO_MARK)
    return "\n".join(lines + [mark + a for a in acts] + end)


def _typo(rng: random.Random, word: str) -> str:
    """The word with one letter dropped, doubled or hit beside."""
    i = rng.randrange(1, len(word) - 1)
    how = rng.choice(["drop", "double", "near"])
    if how == "near" and word[i] in words.NEAR:
        return word[:i] + words.NEAR[word[i]] + word[i + 1 :]
    return word[:i] + (word[i] * 2 if how == "double" else "") + word[i + 1 :]


def _misspell(rng, text: str, names: dict[str, str], in_name: bool, keep: set[str]):
    """The text with one word misspelt, inside a name or outside every name; the names are
    then the surfaces as they now read."""
    spots = [(m.start(), m.end(), k) for s, k in names.items() for m in re.finditer(re.escape(s), text)]  # fmt: skip
    words = []
    for m in re.finditer(r"[^\W\d_]{5,}", text):
        over = [(a, b) for a, b, _ in spots if a < m.end() and m.start() < b]
        if in_name and over and all(a <= m.start() and m.end() <= b for a, b in over):
            words.append(m)
        elif not in_name and not over and m.group().islower() and m.group() not in keep:
            words.append(m)
    if not words:
        return text, names
    m = rng.choice(words)
    new = _typo(rng, m.group())
    out = text[: m.start()] + new + text[m.end() :]
    shift = len(new) - len(m.group())
    now = {s: k for s, k in names.items() if s in out}
    for a, b, k in spots:
        if a <= m.start() and m.end() <= b:
            now[out[a : b + shift]] = k
    return out, now


def _faults(doc: Doc) -> list[str]:
    """What `check` would find wrong with this one note, and initials that appear inside
    another word."""
    out = []
    for s, k in doc.names.items():
        if s not in doc.text:
            out.append(f"{s!r} not in text")
        out += [f"{s!r} in {s2!r}" for s2, k2 in doc.names.items() if k2 != k and s.casefold() in s2.casefold()]  # fmt: skip
        if s.isupper() and len(s) <= 4:
            alone = re.findall(rf"(?<!\w){re.escape(s)}(?!\w)", doc.text)
            if len(alone) != doc.text.count(s):
                out.append(f"{s!r} inside a word")
    return out


def _write(rng: random.Random, truths, focus: str, co: list[str], keep: set[str]) -> Doc:
    for attempt in range(4):
        fancy = attempt < 3  # the last try without initials and typos
        genre = rng.choices(["minutes", "email", "handover"], [0.4, 0.35, 0.25])[0]
        w = _Writer(rng, truths, genre, fancy)
        {"person": _person, "org": _org, "product": _product}[truths[focus].kind](w, focus, co)
        text = _layout(w)
        for bad, good in (("..", "."), ("  ", " ")):
            text = text.replace(bad, good)
        names = dict(w.note.names)
        if fancy and rng.random() < 0.15:
            text, names = _misspell(rng, text, names, False, keep)
        if fancy and rng.random() < 0.06:
            text, names = _misspell(rng, text, names, True, keep)
        doc = Doc(text, names)
        if not _faults(doc):
            return doc
    raise ValueError(f"minutes: no sound note for {focus}: {_faults(doc)}")


def documents(seed: int = 0, size: str = "default"):
    """Minutes, e-mail threads and handovers: ~50 for the default size, about 22 true things,
    two namesake pairs."""
    rng = random.Random(f"minutes/{seed}")
    people = [line.strip() for line in words.PEOPLE.split("|")]
    truths, pairs = cast(
        rng, size, people, words.FIRMS, words.PRODUCTS, words.JOBS, words.CITIES, words.HOBBIES
    )
    scenes = plan(rng, truths, pairs, {"person": (2, 4), "org": (1, 2), "product": (1, 2)}, 0.6)
    keep = {w for line in [*words.JOBS, *words.CITIES, *words.HOBBIES, *(x for f in words.FIRMS for x in f[4:])]
            for w in line.split()}  # fmt: skip  # facts are not misspelt
    docs = [_write(rng, truths, focus, co, keep) for focus, co in scenes]
    problems = check(docs, truths, pairs)
    if problems:
        raise ValueError(f"minutes corpus, seed {seed}: {problems[:5]}")
    return docs, truths, pairs
