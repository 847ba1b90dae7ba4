"""A voice agent's call summaries: what a phone assistant writes after each call, a header line
(call id, date, direction), speaker-labelled transcript snippets in spoken style, third-person
summary bullets and action items, hurried one-line scrawls and bare voicemail notes.

People are named as callers name them: a full name once, then a first name, "Ms. X", a
nickname, the surname spelled letter by letter, a misheard surname corrected, lowercase in a
scrawl; firms with or without their legal form, as an acronym or "the X folks"; products as
"Auki 9", "Auki-9", "Auki9" or "the Auki nine". Phones, e-mails and years are often read out.
"""

from __future__ import annotations

import random
import unicodedata
from datetime import date, timedelta

from . import Doc, Note, Style, an, cast, org_note, plan, product_note
from . import call_summaries_wording as w

ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen").split()  # fmt: skip
TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def words(n: int) -> str:
    if n < 20:
        return ONES[n]
    tens, ones = divmod(n, 10)
    return TENS[tens] + (f"-{ONES[ones]}" if ones else "")


def year_said(rng: random.Random, y: int) -> str:
    hi, lo = divmod(y, 100)
    if hi == 19:
        spoken = "nineteen " + (words(lo) if lo >= 10 else f"oh {ONES[lo]}")
    elif lo < 10:
        spoken = "two thousand " + rng.choice(["", "and "]) + ONES[lo]
    else:
        spoken = rng.choice(["twenty ", "two thousand and "]) + words(lo)
    return rng.choice([str(y), str(y), spoken, spoken, f"'{lo:02d}"])


def fold(s: str) -> str:
    """The name as typed on a keyboard without accents."""
    s = s.translate(str.maketrans("đĐłŁıİ", "dDlLiI"))
    return "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c))


def digits_said(rng: random.Random, group: str, zero: str) -> str:
    out, i = [], 0
    while i < len(group):
        d = group[i]
        word = zero if d == "0" else ONES[int(d)]
        if i + 1 < len(group) and group[i + 1] == d and rng.random() < 0.7:
            out.append(f"double {word}")
            i += 2
        else:
            out.append(word)
            i += 1
    return " ".join(out)


def phone_said(rng: random.Random, phone: str) -> str:
    groups = phone.split()
    zero = rng.choice(["oh", "zero"])
    mode = rng.randrange(5)
    if mode == 0:
        return phone
    if mode == 1:
        return "-".join(groups)
    said = [digits_said(rng, g, zero) for g in groups]
    if mode == 4:
        pairs = [groups[-1][:2], groups[-1][2:]]
        said[-1] = " ".join(words(int(p)) if p[0] != "0" else f"{zero} {ONES[int(p)]}"
                            for p in pairs)  # fmt: skip
    return ", ".join(said)


def email_said(rng: random.Random, email: str) -> str:
    if rng.random() < 0.5:
        return email
    local, domain = email.split("@")
    return f"{local.replace('.', ' dot ')} at {domain.replace('.', ' dot ')}"


def mutate(rng: random.Random, name: str) -> str:
    """A surname as misheard: one vowel (not the first letter) swapped."""
    spots = [i for i, c in enumerate(name) if i and c in "aeiou"]
    spots = spots or [i for i, c in enumerate(name) if i and fold(c) in "aeiou"]
    if not spots:
        return name + "s"
    i = rng.choice(spots)
    return name[:i] + rng.choice([v for v in "aeiou" if v != fold(name[i])]) + name[i + 1 :]


class Caller:
    """The surfaces of one person in one call note."""

    def __init__(self, rng: random.Random, t) -> None:
        f = t.facts
        self.rng, self.key, self.f = rng, t.key, f
        self.first, self.last, self.full = f["first"], f["last"], t.name
        self.title = f["title"] or ("Ms." if f["she"] else "Mr.")
        self.nick = w.NICKNAMES.get(self.first)
        she = f["she"]
        self.pron = {"she": "she" if she else "he", "She": "She" if she else "He",
                     "her": "her" if she else "his", "Her": "Her" if she else "His",
                     "him": "her" if she else "him"}  # fmt: skip

    def pick(self, forms: list[str]) -> tuple[str, str]:
        return (self.rng.choice(forms), self.key)

    def intro(self) -> tuple[str, str]:
        forms = [self.full] * 4 + [f"{self.title} {self.last}"] * 2 + [self.first]
        if self.f["title"]:
            forms.append(f"{self.title} {self.full}")
        if fold(self.full) != self.full:
            forms.append(fold(self.full))
        return self.pick(forms)

    def own(self) -> tuple[str, str]:
        """As the person gives their own name."""
        forms = [self.full] * 4 + [self.first] * 2 + [fold(self.full)]
        return self.pick(forms + ([f"Dr. {self.last}"] if self.f["title"] else []))

    def later(self) -> tuple[str, str]:
        forms = [self.first] * 3 + [f"{self.title} {self.last}"] * 2 + [self.last]
        forms += [self.nick] * 2 if self.nick else []
        return self.pick(forms + ([fold(self.last)] if fold(self.last) != self.last else []))

    def lower(self) -> tuple[str, str]:
        forms = [self.first, self.last, fold(self.first), fold(self.last)]
        return self.pick([s.lower() for s in forms + ([self.nick] if self.nick else [])])

    def surname(self) -> tuple[str, str]:
        return self.pick([self.last, f"{self.title} {self.last}"])

    def label(self, inbound: bool):
        r = self.rng.random()
        if r < 0.2:
            return (f"{self.first[0]}.{self.last[0]}.", self.key)
        if r < 0.4:
            return (self.nick or self.first, self.key)
        return self.rng.choice(["Caller", "Caller", "Customer"] if inbound else ["Contact", "Them"])


def firm_surface(rng: random.Random, t, lower: bool = False) -> tuple[str, str]:
    f = t.facts
    if lower:
        return (rng.choice([f["short"].lower(), fold(f["short"]).lower()]), t.key)
    forms = [t.name, f["bare"], f["bare"], f["short"], f"{f['short']} {f['form']}"]
    initials = "".join(p[0] for p in fold(f["bare"]).split())
    return (rng.choice(forms + [initials] * 2 if len(initials) > 2 else forms), t.key)


def prod_surface(rng: random.Random, t, lower: bool = False) -> tuple[str, str]:
    stem, n = t.facts["stem"], t.facts["number"]
    if lower:
        return (
            rng.choice([f"{stem.lower()}{n}", f"{stem.lower()} {n}", f"{stem.lower()}-{n}"]),
            t.key,
        )
    forms = [f"{stem} {n}", f"{stem} {n}", f"{stem}-{n}", f"{stem}{n}", f"{stem} {words(int(n))}"]
    return (rng.choice(forms + [f"{stem.upper()}-{n}"]), t.key)


def mate(rng: random.Random, t) -> dict:
    c = Caller(rng, t)
    job = t.facts["job"]
    return {"P": c.intro(), "J": job, "aJ": an(job), **c.pron}


STYLE = Style(org=w.ORG, org_more=w.ORG_MORE, staff=w.STAFF, makes=w.MAKES, item=w.ITEM, by=w.BY,
              item_more=w.ITEM_MORE, users=w.USERS, firm=firm_surface, product=prod_surface,
              mate=mate)  # fmt: skip


def header(rng: random.Random, inbound: bool) -> str:
    d = date(2023, 1, 2) + timedelta(days=rng.randrange(1000))
    when = rng.choice([d.isoformat(), f"{d.day} {d:%b} {d.year}", f"{d:%m/%d/%Y}",
                       f"{d.day}.{d.month}.{d.year}", f"{d:%a} {d.day} {d:%b}",
                       f"{d:%B} {d.day}, {d.year}", f"{d:%d/%m/%y}"])  # fmt: skip
    cid = rng.choice([f"#{rng.randint(1000, 9999)}", f"C-{rng.randint(10000, 99999)}",
                      f"VX{rng.randint(100, 999)}", f"{d:%y%m%d}-{rng.randint(1, 60):03d}"])  # fmt: skip
    way = rng.choice(["inbound", "in", "incoming"] if inbound else ["outbound", "out", "outgoing"])
    clock = f"{rng.randint(8, 18):02d}:{rng.randrange(60):02d}"
    mins, secs = rng.randint(1, 24), rng.randrange(60)
    took = rng.choice([f"{mins}m{secs:02d}s", f"00:{mins:02d}:{secs:02d}", f"{mins} min"])
    return rng.choice([
        f"Call {cid} | {when} | {way} | {took}", "CALL " + f"{cid} — {when}, {way}",
        f"[{way.upper()}] {when} {clock} · ref {cid}", f"{'Inbound' if inbound else 'Outbound'} call, {when}, id {cid}",
        f"Call log {when} ({way}) {cid}", f"{when} {clock} — {way} — call id {cid} — {took}",
    ])  # fmt: skip


def merge(note: Note, pieces: list[tuple[str, dict]], sep: str) -> None:
    """One line of `note` made of several fragments, each with its own slots."""
    part = Note()
    for template, slots in pieces:
        part.say(template, **slots)
    for surface, key in part.names.items():
        if note.names.setdefault(surface, key) != key:
            raise ValueError(f"{surface!r} names two things")
    note.parts.append(sep.join(part.parts))


def person_note(rng: random.Random, truths, key: str, co: list[str]) -> Note:
    t = truths[key]
    f = t.facts
    c = Caller(rng, t)
    items = []
    for k in co:
        kind = truths[k].kind
        if k == f.get("prior"):
            items.append(("prior", k))
        elif kind != "org":
            items.append(("colleague" if kind == "person" else "uses", k))
    facts = ["job", "city", "phone", "born", "hobby"] + (["email"] if f["employer"] in co else [])
    chosen = rng.sample(facts, rng.choice([0, 1, 1, 1, 2, 2, 3]))
    if f["employer"] in co:
        joint = "job" in chosen and rng.random() < 0.8
        items.append(("job_employer" if joint else "employer", f["employer"]))
        chosen = [x for x in chosen if not (joint and x == "job")]
    items += [(x, None) for x in chosen]
    rng.shuffle(items)
    odds = [8, 7, 3, 2 * (len(items) <= 2) + 4 * (not items)]
    mode = rng.choices(["talk", "summary", "scrawl", "voicemail"], odds)[0]
    inbound = mode == "scrawl" or (mode != "voicemail" and rng.random() < 0.7)
    label = c.label(inbound)
    low = mode == "scrawl" and rng.random() < 0.7

    def slots(kind: str, other: str | None) -> dict:
        s = {"Sp": label, "Pl": c.later(), "J": f["job"], "aJ": an(f["job"]), "C": f["city"],
             "ph": phone_said(rng, f["phone"]) if not low else f["phone"], "H": f["hobby"],
             "em": email_said(rng, f["email"]), "B": year_said(rng, f["born"]), **c.pron}  # fmt: skip
        if other and truths[other].kind == "org":
            s.update(
                O=firm_surface(rng, truths[other], low), Os=(truths[other].facts["short"], other)
            )
        elif other and truths[other].kind == "product":
            x = truths[other].facts
            s.update(X=prod_surface(rng, truths[other], low), L=x["category"], aL=an(x["category"]))
        elif other:
            q = Caller(rng, truths[other])
            job = truths[other].facts["job"]
            s.update(Q=q.lower() if low else q.intro(), QJ=job, aQJ=an(job))
        return s

    note = Note()
    note.say(header(rng, inbound))
    first = c.lower() if low else c.own() if mode == "talk" and inbound else c.intro()
    if mode == "scrawl":
        pieces = [(rng.choice(w.SCRAWL_INTRO), {"P": first})]
        pieces += [(rng.choice(w.SCRAWL[kind]), slots(kind, k)) for kind, k in items]
        merge(note, pieces, rng.choice([", ", " / ", "; "]))
        if rng.random() < 0.3:
            note.say(rng.choice(["wants cb tmrw am", "pls call back", "urgent-ish", "no msg"]))
        return note
    if mode == "voicemail":
        note.say(rng.choice(w.VOICEMAIL), P=first)
    elif mode == "talk":
        note.say(rng.choice(w.INTRO_IN if inbound else w.INTRO_OUT), P=first, Sp=label)
    else:
        note.say(rng.choice(["Summary:", "Call summary", "Notes:", "", ""]))
        note.say(rng.choice(w.INTRO_NOTE[inbound]), P=first)
    r = rng.random()
    if mode != "voicemail" and r < 0.25:
        spells = w.SPELL if mode == "talk" else [s for s in w.SPELL if s.startswith("-")]
        note.say(
            rng.choice(spells), Sp=label, S=("-".join(fold(c.last).upper()), key), Pl=c.later()
        )
    elif mode != "voicemail" and r < 0.37:
        name, k = c.surname()
        heard = name.replace(c.last, mutate(rng, c.last))
        mishears = w.MISHEAR if mode == "talk" else [s for s in w.MISHEAR if s.startswith("-")]
        note.say(rng.choice(mishears), W=heard, Pl=(name, k))
    spoken = rng.randint(0, len(items)) if mode == "talk" else 0
    for kind, other in items[:spoken]:
        note.say(rng.choice(w.SAY[kind]), **slots(kind, other))
    if mode == "talk" and items[spoken:]:
        note.say(rng.choice(["Summary:", "Notes:", "Agent summary:", "Recap:"]))
    for kind, other in items[spoken:]:
        note.say(rng.choice(w.NOTE[kind]), **slots(kind, other))
    if rng.random() < 0.6:
        note.say(rng.choice(w.CLOSE), Pl=c.lower() if low else c.later())
    note.say(rng.choice(w.TAIL))
    return note


def org_call(rng: random.Random, truths, key: str, co: list[str]) -> Note:
    note = Note()
    note.say(header(rng, rng.random() < 0.6))
    org_note(rng, note, truths, key, co, STYLE)
    f = truths[key].facts
    if rng.random() < 0.3 and not any(str(f["founded"]) in p for p in note.parts):
        note.say(rng.choice(w.FOUNDED), Y=year_said(rng, f["founded"]))
    if rng.random() < 0.35:
        dom = f["domain"] if rng.random() < 0.5 else f["domain"].replace(".", " dot ")
        note.say(rng.choice(w.DOMAIN), dom=dom)
    if rng.random() < 0.5:
        note.say(rng.choice(w.ORG_CLOSE), Os=(f["short"], key))
    note.say(rng.choice(w.TAIL))
    return note


def product_call(rng: random.Random, truths, key: str, co: list[str]) -> Note:
    note = Note()
    note.say(header(rng, True))
    product_note(rng, note, truths, key, co, STYLE)
    when = truths[key].facts["launched"]
    if rng.random() < 0.3 and not any(str(when) in p for p in note.parts):
        note.say(rng.choice(w.LAUNCHED), Y=year_said(rng, when))
    if rng.random() < 0.5:
        note.say(rng.choice(w.PRODUCT_CLOSE), X=prod_surface(rng, truths[key]))
    note.say(rng.choice(w.TAIL))
    return note


def sound(doc: Doc, keys: set[str]) -> bool:
    """Names exactly `keys`, each surface in the text and inside no other thing's surface."""
    if set(doc.names.values()) != keys:
        return False
    return all(s in doc.text and not (k != k2 and s.casefold() in s2.casefold())
               for s, k in doc.names.items() for s2, k2 in doc.names.items())  # fmt: skip


def write(rng: random.Random, truths, key: str, co: list[str]) -> Doc:
    build = {"person": person_note, "org": org_call, "product": product_call}[truths[key].kind]
    for _ in range(40):
        try:
            doc = build(rng, truths, key, co).doc("\n")
        except ValueError:
            continue
        if sound(doc, {key, *co}):
            return doc
    raise RuntimeError(f"no sound call note for {key} with {co}")


def documents(seed: int = 0, size: str = "default"):
    rng = random.Random(seed)
    truths, pairs = cast(rng, size, w.PEOPLE, w.FIRMS, w.PRODUCTS, w.JOBS, w.CITIES, w.HOBBIES)
    for t in truths.values():
        f = t.facts
        if t.kind == "org":
            word = fold(f["bare"]).split()[-1].lower() if rng.random() < 0.3 else ""
            stem = fold(f["short"]).lower().replace(" ", "")
            f["domain"] = f"{stem}{'-' + word if word else ''}.{w.TLD.get(f['city'], 'com')}"
    for t in truths.values():
        f = t.facts
        if t.kind == "person":
            f["phone"] = f"0{rng.randint(10, 99)} {rng.randint(100, 999)} {rng.randint(1000, 9999)}"
            first, last = fold(f["first"]).lower(), fold(f["last"]).lower()
            local = rng.choice(
                [f"{first}.{last}", f"{first[0]}.{last}", f"{first}{last[0]}", first]
            )
            f["email"] = f"{local}@{truths[f['employer']].facts['domain']}"
    scenes = plan(rng, truths, pairs, {"person": (2, 3), "org": (1, 3), "product": (1, 3)}, 0.55)
    docs = [write(rng, truths, key, co) for key, co in scenes]
    return docs, truths, pairs
