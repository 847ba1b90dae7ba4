"""Digests of chats, e-mail threads and meetings as an assistant keeps them about its user: 'User
mentioned that her manager, ...', 'Q: ... A: ...', dated headers, bullet and numbered lists,
possessives ("Kiplagat's team"), first names alone after a full name, casual lowercase openings,
hobbies and small talk. A firm is named with or without its legal form or by its stem; a
product as 'Kalix-3', 'Kalix 3' or 'Kalix3', sometimes in lower case, sometimes with its maker.
"""

from __future__ import annotations

import random

from . import Doc, Note, Style, Truth, an, cast, check, org_note, plan, product_note

PEOPLE = """Shirin Farahmandi f|Babak Tavakkoli m|Luana Figueiró f|Caetano Brandolim m
|Wanjiru Mwangangi f|Otieno Kiplagat m|Eleni Papadakou f|Stavros Triantafyllou m
|Ingrid Tveitane f|Halvor Brekkestad m|Oksana Hrytsenko f|Taras Melnychuk m|Ayu Setiawati f
|Yassine Benkirane m|Rosalía Quispe f|Gwilym Pritchard m|Špela Kovačič f|Farhana Chowdhury f
|Mads Kjærgaard m|Anahit Sargsyan f|Arnaud Nkoulou m|Catalina Restrepo-Uribe f|Ilze Kalniņa f
|Hafiz Zulkarnain m|Tsvetelina Dobreva f"""
FIRMS = [
    ("Nordhavn", "Fintech", "ApS", "Aarhus", "payments", "card terminal"),
    ("Arqueta", "", "S.A.C.", "Arequipa", "mining services", "rock drill"),
    ("Pelagos", "Shipping", "S.A.", "Piraeus", "shipping", "cargo sensor"),
    ("Zubrava", "", "LLC", "Lviv", "embedded software", "dev board"),
    ("Merapi", "Digital", "Ltd", "Bandung", "mobile payments", "POS tablet"),
    ("Atlasia", "Textiles", "SARL", "Casablanca", "textiles", "knitting machine"),
    ("Brynmor", "Audio", "Ltd", "Cardiff", "pro audio", "studio monitor"),
    ("Planika", "Bikes", "d.o.o.", "Ljubljana", "bicycles", "e-bike"),
    ("Kjølberg", "", "AS", "Bergen", "aquaculture", "fish counter"),
    ("Vardan", "Tech", "CJSC", "Yerevan", "chip design", "microcontroller"),
    ("Wouri", "Logistics", "SA", "Douala", "port logistics", "container tag"),
    ("Cafetal", "Roasters", "S.A.S.", "Medellín", "coffee", "coffee roaster"),
    ("Baltrix", "", "SIA", "Riga", "timber", "moisture meter"),
    ("Gentala", "Energy", "Sdn Bhd", "Kuching", "hydropower", "turbine controller"),
]
PRODUCTS = ["Kalix", "Tundro", "Belto", "Sparo", "Kumo", "Fenno", "Glimt", "Vexa", "Zorbi",
            "Dunstra"]  # fmt: skip
JOBS = ["engineering manager", "UX researcher", "paralegal", "nurse practitioner", "accountant",
        "backend developer", "data scientist", "marketing lead", "recruiter", "architect",
        "product manager", "physiotherapist", "sales engineer", "head of finance", "teacher",
        "pharmacist"]  # fmt: skip
CITIES = ["Shiraz", "Recife", "Mombasa", "Thessaloniki", "Stavanger", "Odesa", "Surabaya", "Fez",
          "Cusco", "Swansea", "Maribor", "Chittagong", "Aalborg", "Gyumri", "Cali", "Penang"]  # fmt: skip
HOBBIES = ["pottery", "krav maga", "surfing", "crochet", "board games", "marathon training",
           "film photography", "karaoke", "gardening", "kitesurfing", "tango", "stand-up comedy",
           "mushroom foraging", "darts"]  # fmt: skip
RELS = ["manager", "sister", "old flatmate", "client", "neighbour", "mentor", "ex-colleague",
        "cousin", "landlord", "co-founder", "tennis partner", "brother-in-law"]  # fmt: skip

AT = [
    "User mentioned that {u} {rel}, {P}, is {aJ} at {O}.",
    "{P} ({J} @ {O}) came up again.",
    "Q: who is {P}? A: {aJ} at {O}, lives in {C}.",
    "they talked about {P}'s new role as {J} at {O}.",
    "{O}'s {J}, {P}, was cc'd on the thread.",
    "fyi {P} works at {O} now ({J}).",
    "User's {rel} {P} got a job at {O} as {aJ}.",
    "People mentioned: {P} — {J}, {O}, {C}.",
    "{P} from {O} joined the call ({J}).",
    "email from {P} ({O}), signed as {J}.",
    "User said {P} is the {J} over at {O}.",
]
ALONE = [
    "User mentioned that {u} {rel}, {P}, works as {aJ} in {C}.",
    "{P} ({J}) came up again.",
    "Q: who is {P}? A: {u} {rel}, {aJ} based in {C}.",
    "user says {P} moved to {C} last year, still working as {aJ}.",
    "fyi {P} is {aJ} now, based in {C}.",
    "Mentioned: {P}, {J}, {C}.",
    "{P} — {J}. lives in {C}. born {Y}.",
    "User's {rel} {P} ({J}) is visiting from {C}.",
    "{P} asked the user for a reference; {pron}'s {aJ}.",
    "the {J} {P} (from {C}) messaged again.",
]
OPEN = ["{P} came up in the chat.", "Email thread with {P}.", "User vented about {P} again.",
        "{P} pinged twice today.", "call w/ {P} moved to thursday.", "Re: {P}."]  # fmt: skip
JOB = ["{F} is {aJ}.", "{S}'s job: {J}.", "Q: what does {F} do? A: {J}.",
       "{S} got promoted to {J}.", "{F} has worked as {aJ} for years.", "{S} — {J}.",
       "turns out {F} is the {J}.", "{S}'s title is {J} (per email signature)."]  # fmt: skip
EMPLOYER = ["{S}'s team at {O} owns the rollout.", "{F} works at {O}.", "{S} is with {O}.",
            "Q: where does {F} work? A: {O}.", "{F} mentioned {O} is hiring.",
            "{S} has been at {O} for a while.", "employer: {O}.",
            "{S}'s boss at {O} is on leave."]  # fmt: skip
CITY = ["{F} lives in {C}.", "{S} is based in {C}.", "{F} is back home in {C}.",
        "Q: where is {F}? A: {C}.", "{S} relocated to {C}.", "{F} works remotely from {C}.",
        "housewarming at {S}'s place in {C}.", "{F} says hi from {C}."]  # fmt: skip
BORN = ["{F} was born in {Y}.", "{S} (b. {Y}) wants a quiet birthday.",
        "{F}'s birthday is coming up (born {Y}, apparently).",
        "Q: how old is {S}? A: born in {Y}.", "{S}, born {Y}, hates video calls.",
        "{F} is a {Y} kid.", "born {Y} ({S}).", "{S} said {pron} was born in {Y}."]  # fmt: skip
HOBBY = ["{F} is really into {H}.", "{S} does {H} on weekends.", "user and {F} both like {H}.",
         "side note: {H} (ask {F} about it).", "{S}'s {H} thing came up again.",
         "{F} invited the user to try {H}.", "{S} has been doing {H} lately.",
         "hobbies: {H} ({F})."]  # fmt: skip
PRIOR = ["{F} used to work at {O}.", "{S} left {O} last spring.", "formerly at {O} ({S}).",
         "{F} was at {O} before.", "{S} still knows people at {O}.", "ex-{O}, per {F}.",
         "{S} spent 4 years at {O}.", "{F} quit {O} to move jobs."]  # fmt: skip
USES = ["{F} is trying the {X}.", "{S}'s team switched to the {X}.",
        "{F} asked how to reset a {X}.", "{S} hates the {X} lol.", "{F} recommended the {X}.",
        "Q: what does {F}'s team use? A: the {X}.", "{S} broke a {X} last week.",
        "{F} ordered a {X} on the 12th."]  # fmt: skip
MATE = ["{S} and {Q} ({J2}) are on the same team.", "{Q}, {aJ2}, was cc'd.",
        "{F}'s colleague {Q} ({J2}) joined.", "also: {Q} — {J2}.", "{Q} ({J2}) replied-all.",
        "{S} looped in {Q}, {aJ2}.", "{Q} ({J2}) and {F} share a desk.",
        "{Q} ({J2}) backed {F} up."]  # fmt: skip
ORG = [
    "{O} ({C}) came up: founded {Y}, does {T}.",
    "Q: what's {O}? A: {T} company in {C}, started in {Y}.",
    "User is interviewing at {O} — {T}, HQ in {C}.",
    "{O} was founded in {Y}, per their site.",
    "Notes on {O}: {C}, {T}, since {Y}.",
    "User read that {O} (est. {Y}) is hiring in {C}.",
    "{O} — {T}. HQ {C}.",
    "thread about {O}: {T}, founded {Y}.",
    "{O} sent the user an offer; they're a {T} firm in {C}.",
]
ORG_MORE = ["{Os} has been around since {Y}.", "{Os} is in {C}.", "{Os} does {T}.",
            "legal name: {Of}.", "{Os}'s careers page is down lol.", "{Os} HQ: {C}.",
            "the company was started in {Y}."]  # fmt: skip
STAFF = ["works there: {Q} ({J2}).", "user knows {Q} from there, {aJ2}.",
         "{Q} ({J2}) is the contact there.", "{Q}, {aJ2}, replied for them.",
         "their {J2} is {Q}.", "{Q} works there as {aJ2}.", "ask {Q} ({J2}) for an intro."]  # fmt: skip
MAKES = ["they make the {X}.", "{Os}'s {X} ({L}) is their big product.", "the {X} is theirs.",
         "makers of the {X}.", "{Os} sells the {X}, {aL}.", "their {L} is the {X}."]  # fmt: skip
BY = ["User asked about the {X} by {M}.", "Q: who makes the {X}? A: {M}.",
      "{Mb}'s {X} ({L}) — user's considering it.", "the {X} ({M}) went on sale in {Y}.",
      "{M} released the {X} in {Y}.", "User returned the {X} to {M}.",
      "the {X} is {Mb}'s {L}."]  # fmt: skip
ITEM = ["User asked about the {X} ({L}).", "Q: is the {X} worth it? A: probably.",
        "the {X} came out in {Y}.", "{X}: {aL}, launched {Y}.", "User's {X} arrived.",
        "reviews of the {X} are mixed.", "the {X} is {aL}.", "user wants a {X} for the office."]  # fmt: skip
ITEM_MORE = ["launched {Y}.", "it's {aL}.", "the {X2}, not the older model.",
             "{X2} firmware bug again.", "warranty is 2 yrs."]  # fmt: skip
USERS = ["{Q} ({J2}) has one.", "{Q} uses it daily.", "{Q} recommended it.",
         "{Q} said it's fine.", "{Q}, {aJ2}, bought two.", "{Q} is testing it for work."]  # fmt: skip
HEAD = ["Digest — {D}:", "Chat summary ({iso}):", "Email thread, {n} msgs:", "Standup notes, {D}",
        "slack #general recap:", "meeting digest (weekly sync):", "Conversation {iso}:"]  # fmt: skip
TAIL = ["user seemed stressed.", "no action items.", "remind user on friday.",
        "follow up next week.", "(user was driving, short chat)", "todo: calendar invite."]  # fmt: skip
DAYS = "Mon Tue Wed Thu Fri".split()
MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()


def _who(rng: random.Random, t: Truth, full: float = 0.7) -> tuple[str, str]:
    f, r = t.facts, rng.random()
    if r < full:
        return t.name, t.key
    if f["title"] and r < full + 0.15:
        return f"Dr. {f['last']}", t.key
    return (f["first"] if r < 0.9 else f["last"]), t.key


def _firm(rng: random.Random, t: Truth) -> tuple[str, str]:
    f = t.facts
    return rng.choices([t.name, f["bare"], f["short"]], [0.35, 0.35, 0.3])[0], t.key


def _item(rng: random.Random, t: Truth) -> tuple[str, str]:
    stem, n = t.facts["stem"], t.facts["number"]
    form = rng.choice([f"{stem}-{n}", f"{stem} {n}", f"{stem}{n}"])
    return (form.lower() if rng.random() < 0.15 else form), t.key


def _mate(rng, o: Truth) -> dict:
    return {"Q": _who(rng, o, 0.8), "J2": o.facts["job"], "aJ2": an(o.facts["job"])}


def _person(rng, note: Note, truths, key, co, user: str = "their") -> None:
    t = truths[key]
    f = t.facts
    slots = {"P": _who(rng, t), "S": (f["last"], key), "F": (f["first"], key), "J": f["job"],
             "aJ": an(f["job"]), "C": f["city"], "Y": f["born"], "H": f["hobby"],
             "pron": "she" if f["she"] else "he", "u": user,
             "rel": rng.choice(RELS)}  # fmt: skip
    employer = f["employer"] if f["employer"] in co else None
    if employer:
        slots["O"] = _firm(rng, truths[employer])
    lines = [(CITY, "{C}")] if rng.random() < 0.35 else []
    lines += rng.sample([(BORN, "{Y}"), (HOBBY, "{H}")], rng.choice([0, 1, 1, 2]))
    opening = rng.choice(OPEN if rng.random() < 0.25 else AT if employer else ALONE)
    note.say(opening, **slots)  # an opening without facts: the job and employer after it
    if opening in OPEN:
        lines = [(JOB, "")] + ([(EMPLOYER, "")] if employer else []) + lines
    seen = {opening}
    lines = [rng.choice(group) for group, said in lines if not said or said not in opening]
    for other in co:
        o = truths[other]
        if other == f.get("prior"):
            lines.append((rng.choice(PRIOR), {"O": _firm(rng, o)}))
        elif other == f.get("uses"):
            lines.append((rng.choice(USES), {"X": _item(rng, o)}))
        elif o.kind == "person":
            lines.append((rng.choice(MATE), _mate(rng, o)))
    rng.shuffle(lines)
    for line in lines:
        template, extra = line if isinstance(line, tuple) else (line, {})
        if template not in seen:
            seen.add(template)
            note.say(template, **{**slots, **extra})


# How this style writes a firm's and a product's notes (bench/corpora: org_note, product_note).
STYLE = Style(org=ORG, org_more=ORG_MORE, staff=STAFF, makes=MAKES, item=ITEM, by=BY,
              item_more=ITEM_MORE, users=USERS, firm=_firm, product=_item, mate=_mate)  # fmt: skip


def _org(rng, note: Note, truths, key, co) -> None:
    org_note(rng, note, truths, key, co, STYLE)


def _product(rng, note: Note, truths, key, co) -> None:
    product_note(rng, note, truths, key, co, STYLE)


def _write(rng: random.Random, truths, focus: str, co: list[str], user: str) -> Doc:
    note = Note()
    if truths[focus].kind == "person":
        _person(rng, note, truths, focus, co, user)
    else:
        {"org": _org, "product": _product}[truths[focus].kind](rng, note, truths, focus, co)
    if rng.random() < 0.3:
        note.say(rng.choice(TAIL))
    d, m = rng.randint(1, 28), rng.randint(1, 12)
    header = rng.choice(HEAD).format(D=f"{rng.choice(DAYS)} {d} {MONTHS[m - 1]}",
                                     iso=f"2024-{m:02d}-{d:02d}", n=rng.randint(2, 9))  # fmt: skip
    layout = rng.random()
    if layout < 0.3 and len(note.parts) > 1:  # a list under a header
        numbered = rng.random() < 0.4
        items = [f"{i}) {p}" if numbered else f"- {p}" for i, p in enumerate(note.parts, 1)]
        return Doc(header + "\n" + "\n".join(items), dict(note.names))
    doc = note.doc()
    header += "" if header.endswith(":") else ":"
    return Doc(f"{header} {doc.text}" if layout < 0.6 else doc.text, doc.names)


def documents(seed: int = 0, size: str = "default"):
    """Chat digests: ~50 for the default size, about 22 true things, two namesake pairs."""
    rng = random.Random(f"chat-digests/{seed}")
    people = [line.strip() for line in PEOPLE.split("|")]
    truths, pairs = cast(rng, size, people, FIRMS, PRODUCTS, JOBS, CITIES, HOBBIES)
    scenes = plan(rng, truths, pairs, {"person": (2, 4), "org": (1, 2), "product": (1, 2)}, 0.65)
    user = rng.choice(["her", "his", "their"])  # the user the assistant keeps these notes for
    docs = [_write(rng, truths, focus, co, user) for focus, co in scenes]
    problems = check(docs, truths, pairs)
    if problems:
        raise ValueError(f"chat corpus, seed {seed}: {problems[:5]}")
    return docs, truths, pairs
