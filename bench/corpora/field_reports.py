"""Field reports and narrative agent memory: whole sentences in a report's voice, with
appositions ('Marit Oosterhuis, a hydrologist with ...'), relative clauses ('who works at'),
the passive ('was founded in 1987', 'is built by'), 'formerly of', 'based in', 'born in',
and follow-ups by pronoun or surname, 'the firm', 'the company', 'the device'. A firm is named
with or without its legal form or by its stem; a product as 'Veyra-4', 'Veyra 4' or 'Veyra4'.
"""

from __future__ import annotations

import random

from . import Doc, Note, Style, Truth, an, cast, check, org_note, plan, product_note

PEOPLE = """Marit Oosterhuis f|Joost Verkerk m|Akosua Frimpong f|Yaw Asiedu m|Kadri Saarsalu f
|Tõnis Lõhmus m|Valentina Irarrázaval f|Matías Covarrubias m|Nour Elshazly f
|Karim Abdelmessih m|Sólveig Hákonardóttir f|Einar Thorlacius m|Maricel Dimaculangan f
|Raffaele Tornabuoni m|Ailsa MacInnes f|Bence Halmágyi m|Nino Kapanadze f|Dawit Gebremariam m
|Montserrat Puigdollers f|Vojtěch Kratochvíl m|Dilani Wickramasinghe f|Anselm Riedlinger m
|Thandiwe Mahlangu f|Oskar Sundelin m|Mirela Dragomir f"""
FIRMS = [
    ("Aldermoor", "Instruments", "Ltd", "Sheffield", "precision optics", "laser rangefinder"),
    ("Kronvik", "", "AB", "Malmö", "water treatment", "UV steriliser"),
    ("Tellurion", "Systems", "GmbH", "Dresden", "semiconductor testing", "wafer prober"),
    ("Ombrelia", "", "S.p.A.", "Bologna", "packaging machinery", "cartoning machine"),
    ("Fennimore", "Dynamics", "Inc.", "Pittsburgh", "wearable robotics", "lift-assist exoskeleton"),
    ("Sandhaven", "Mining", "Pty Ltd", "Perth", "mine safety", "gas detector"),
    ("Luminaq", "", "S.A.", "Santiago", "street lighting", "streetlight controller"),
    ("Tervaniemi", "", "Oy", "Jyväskylä", "forestry machinery", "harvester head"),
    ("Danubis", "Pharma", "Zrt.", "Debrecen", "generic medicines", "autoinjector"),
    ("Kaldera", "Geothermal", "ehf.", "Reykjavík", "geothermal drilling", "downhole sensor"),
    ("Pacifika", "Telecom", "Inc.", "Cebu", "rural broadband", "mesh router"),
    ("Brannoch", "Agri", "Ltd", "Inverness", "livestock monitoring", "cattle collar"),
    ("Zelenka", "Motors", "a.s.", "Brno", "electric drives", "hub motor"),
    ("Meridia", "Health", "PLC", "Colombo", "diagnostics", "glucose meter"),
]
PRODUCTS = ["Veyra", "Kolto", "Astrel", "Nuvik", "Presk", "Quenta", "Ilvo", "Dravik", "Selko",
            "Zephra"]  # fmt: skip
JOBS = ["structural engineer", "hydrologist", "procurement officer", "site supervisor",
        "chief financial officer", "research chemist", "field technician", "logistics coordinator",
        "veterinary surgeon", "software architect", "plant director", "compliance officer",
        "product designer", "safety inspector", "marketing director", "operations manager"]  # fmt: skip
CITIES = ["Utrecht", "Tartu", "Valparaíso", "Alexandria", "Akureyri", "Davao", "Trieste",
          "Aberdeen", "Pécs", "Tbilisi", "Addis Ababa", "Girona", "Olomouc", "Kandy", "Linz",
          "Durban"]  # fmt: skip
HOBBIES = ["restoring old motorbikes", "bouldering", "sea kayaking", "keeping bees",
           "playing the cello", "growing chillies", "long-distance swimming", "amateur astronomy",
           "orienteering", "collecting fountain pens", "baking rye bread", "the game of go",
           "watercolour painting", "ice fishing"]  # fmt: skip

AT = [
    "{P}, who works at {O} as {aJ}, lives in {C}.",
    "{P} is {aJ} at {O} and is based in {C}.",
    "At {O}, the role of {J} is held by {P}.",
    "{P}, {aJ} with {O}, was born in {Y}.",
    "I spoke with {P} today; {pron} is the {J} at {O}.",
    "{O} employs {P} as its {J}.",
    "{P} joined {O} as {aJ} and now works from {C}.",
    "During the visit to {O} I was introduced to {P}, the {J}.",
    "{P} has been with {O} for several years and currently serves as {J}.",
    "{O}'s {J}, {P}, is based in {C}.",
    "{P} was hired by {O} as {aJ}.",
    "{P}, who was born in {Y}, is employed by {O} as {aJ}.",
]
ALONE = [
    "{P} is {aJ} living in {C}.",
    "{P}, born in {Y}, works as {aJ}.",
    "{P} was born in {Y} and now works as {aJ} in {C}.",
    "The {J} {P} is based in {C}.",
    "{P}, {aJ} who lives in {C}, contacted us again.",
    "I met {P}, {aJ} from {C}, at the regional fair.",
    "{P} ({Y}) works as {aJ} in {C}.",
    "Our contact {P} is {aJ}; {pron} lives and works in {C}.",
    "{P} has worked as {aJ} in {C} for most of {poss} career.",
    "A note on {P}: {pron} is {aJ}, based in {C}.",
]
OPEN = ["I met {P} again this morning.", "{P} called to follow up on last week's visit.",
        "This entry concerns {P}.", "A short conversation with {P} took place today.",
        "{P} was present at the site meeting.", "Some background on {P} follows."]  # fmt: skip
JOB = ["{R} works as {aJ}.", "{R} is employed as {aJ}.", "By profession {r} is {aJ}.",
       "{S}'s title is {J}.", "{R} holds the position of {J}.",
       "{R} has served as {J} for some time.", "{R} was recently appointed {J}.",
       "{R} describes {obj}self as 'just the {J}'."]  # fmt: skip
EMPLOYER = ["{R} works for {O}.", "{R} is on the staff of {O}.", "{S}'s employer is {O}.",
            "{R} is currently employed by {O}.", "{R} represents {O} at these meetings.",
            "The company {r} works for is {O}.", "{R} has been at {O} since graduating.",
            "{R} answers to the management of {O}."]  # fmt: skip
CITY = ["{R} lives in {C}.", "{R} is based in {C}.", "{R} commutes from {C}.",
        "Home for {S} is {C}.", "{R} moved to {C} some years ago and has stayed.",
        "{S}'s office is in {C}.", "{R} still resides in {C}.", "These days {r} works from {C}."]  # fmt: skip
BORN = ["{R} was born in {Y}.", "Born in {Y}, {r} has spent most of {poss} working life here.",
        "{S}, born in {Y}, prefers to be contacted by phone.",
        "According to the registry, {r} was born in {Y}.", "{S}'s year of birth is {Y}.",
        "{R} gave {Y} as {poss} year of birth.", "The records list {Y} as {S}'s birth year.",
        "{R} was born in {Y}, or so the staff list says."]  # fmt: skip
HOBBY = ["In {poss} spare time {r} enjoys {H}.", "Outside work, {r} is passionate about {H}.",
         "{R} has recently taken up {H}.", "{R} talks a lot about {H}.",
         "{S} mentioned {poss} interest in {H}.", "{R} devotes much of {poss} free time to {H}.",
         "Weekends, for {S}, mean {H}.", "{R} once told me that {H} keeps {obj} sane."]  # fmt: skip
PRIOR = ["Before that, {r} worked at {O}.", "{R} previously worked for {O}.",
         "{R} spent several years at {O} before moving on.", "{R} left {O} a few years ago.",
         "{S}, formerly of {O}, knows the sector well.", "{R} came to us from {O}.",
         "Earlier in {poss} career {r} was at {O}.", "{R} is a former employee of {O}."]  # fmt: skip
USES = ["{R} uses the {X} daily.", "The {X} that {r} relies on was bought last spring.",
        "{R} is testing the {X}, a device {pron} describes as reliable.",
        "{R} asked whether the {X} could be serviced locally.",
        "{S}'s team has deployed several {X} units.",
        "According to {S}, the {X} performs well in the cold.",
        "{R} complained that the {X} drains its battery quickly.",
        "{R} has recommended the {X} to colleagues."]  # fmt: skip
MATE = ["{R} works alongside {Q}, {aJ2}.", "{Q}, who is {aJ2}, is a colleague of {S}.",
        "{S} introduced me to {Q}, the {J2}.", "{Q} ({J2}) shares an office with {S}.",
        "Also present was {Q}, {aJ2}.", "{S} and {Q}, {aJ2}, were both at the meeting.",
        "{R} mentioned a colleague, {Q}, who is {aJ2}.", "{Q}, {aJ2}, joined us later."]  # fmt: skip
ORG = [
    "{O}, founded in {Y}, is a {T} company based in {C}.",
    "Founded in {Y} in {C}, {O} works in {T}.",
    "{O} is headquartered in {C} and was established in {Y}.",
    "{O} was founded in {Y}; the firm specialises in {T}.",
    "Based in {C}, {O} has been active in {T} since {Y}.",
    "The history of {O} goes back to {Y}, when it was set up in {C}.",
    "{O}, a {T} firm from {C}, was established in {Y}.",
    "I visited {O} in {C}; the company, founded in {Y}, focuses on {T}.",
    "{O} has its head office in {C}.",
    "{O} is a {T} business incorporated in {Y}.",
]
ORG_MORE = ["The firm employs around {n}00 people.", "{Os} was founded in {Y}.",
            "The company is based in {C}.", "{Os} has grown steadily since {Y}.",
            "Its headquarters remain in {C}.", "{Os} is known locally for {T}.",
            "The firm's registered name is {Of}.", "Most of the staff of {Os} work in {C}."]  # fmt: skip
STAFF = ["Our contact there is {Q}, {aJ2}.", "{Q} works there as {aJ2}.",
         "I was shown around by {Q}, the {J2}.", "Among the staff is {Q}, who is {aJ2}.",
         "{Q}, {aJ2}, handled the visit.", "The firm's {J2}, {Q}, answered most questions.",
         "{Q} has been employed there as {aJ2} for some time.", "It employs {Q} as {aJ2}."]  # fmt: skip
MAKES = ["Its best-known product is the {X}, {aL}.", "The firm makes the {X}, {aL}.",
         "The {X} is produced there.", "The company developed the {X}.",
         "{Os} builds the {X} in its own plant.", "The {X}, {aL}, is its flagship.",
         "The {X} was designed in-house.", "It sells the {X} across the region."]  # fmt: skip
BY = ["The {X}, {aL} made by {M}, was released in {Y}.", "{M} developed the {X}, {aL}.",
      "The {X} was designed by {M} and launched in {Y}.",
      "Launched in {Y}, the {X} is {Mb}'s {L}.",
      "{M} manufactures the {X}, which it introduced in {Y}.",
      "The device in question, the {X}, is built by {M}.", "{M} released the {X} in {Y}.",
      "I saw the {Mb} {X} in operation today."]  # fmt: skip
ITEM = ["The {X} is {aL} released in {Y}.", "The {X}, {aL}, first appeared in {Y}.",
        "I inspected a {X} during the visit; the device is {aL}.",
        "The {X} has been on the market since {Y}.",
        "A new batch of {X} units arrived this week.", "The {X} is {aL}.",
        "Several {X} devices were in use on site.",
        "Reports on the {X}, {aL}, are mostly positive."]  # fmt: skip
ITEM_MORE = ["The device was launched in {Y}.", "It is {aL}.", "The {X2} model remains popular.",
             "Its maker has promised a firmware update.", "The device weighs under two kilos.",
             "A spare {X2} was kept in the van."]  # fmt: skip
USERS = ["{Q}, {aJ2}, uses one every day.", "One user, {Q}, described it as dependable.",
         "{Q} ({J2}) ordered two more.", "It is used by {Q}, {aJ2}.",
         "{Q}, who is {aJ2}, had it serviced last month.", "{Q} first tried the device last year.",
         "According to {Q}, the {X} is easy to set up.", "{Q} has been testing the device."]  # fmt: skip
HEAD = ["Field report, {m} {yr}.", "Site visit notes.", "Memory entry:", "Observation, {m} {yr}:",
        "Report from the {m} trip."]  # fmt: skip
TAIL = ["The meeting lasted about forty minutes.", "A written summary was sent afterwards.",
        "Follow-up is planned for next month.", "Nothing else of note.",
        "Rain delayed the visit by an hour.", "Further details to be confirmed."]  # fmt: skip
MONTHS = "January February March April May June July August September October November December"


def _who(rng: random.Random, t: Truth, full: float = 0.65) -> tuple[str, str]:
    f, r = t.facts, rng.random()
    if r < full:
        return t.name, t.key
    if f["title"] and r < full + 0.2:
        return f"Dr. {f['last']}", t.key
    if r < 0.9:
        return f["last"], t.key
    return f"{'Ms' if f['she'] else 'Mr'} {f['last']}", t.key


def _firm(rng: random.Random, t: Truth) -> tuple[str, str]:
    f = t.facts
    return rng.choices([t.name, f["bare"], f["short"]], [0.5, 0.3, 0.2])[0], t.key


def _item(rng: random.Random, t: Truth) -> tuple[str, str]:
    stem, n = t.facts["stem"], t.facts["number"]
    return rng.choice([f"{stem}-{n}", f"{stem} {n}", f"{stem}{n}"]), t.key


def _mate(rng, o: Truth) -> dict:
    return {"Q": _who(rng, o, 0.8), "J2": o.facts["job"], "aJ2": an(o.facts["job"])}


def _person(rng, note: Note, truths, key, co) -> None:
    t = truths[key]
    f = t.facts
    she = f["she"]
    sur = (f"Dr. {f['last']}" if f["title"] and rng.random() < 0.5 else f["last"], key)
    slots = {"P": _who(rng, t), "S": sur, "J": f["job"], "aJ": an(f["job"]), "C": f["city"],
             "Y": f["born"], "H": f["hobby"], "pron": "she" if she else "he",
             "poss": "her" if she else "his", "obj": "her" if she else "him"}  # fmt: skip
    employer = f["employer"] if f["employer"] in co else None
    if employer:
        slots["O"] = _firm(rng, truths[employer])
    lines = [(CITY, "{C}")] if rng.random() < 0.3 else []
    lines += rng.sample([(BORN, "{Y}"), (HOBBY, "{H}")], rng.choice([0, 1, 1, 2]))
    opening = rng.choice(OPEN if rng.random() < 0.25 else AT if employer else ALONE)
    note.say(opening, **slots)  # an opening sentence without facts: the job and employer after it
    if opening in OPEN:
        lines = [(JOB, "")] + ([(EMPLOYER, "")] if employer else []) + lines
    lines = [group for group, said in lines if not said or said not in opening]
    more = []
    for other in co:
        o = truths[other]
        if other == f.get("prior"):
            more.append((PRIOR, {"O": _firm(rng, o)}))
        elif other == f.get("uses"):
            more.append((USES, {"X": _item(rng, o)}))
        elif o.kind == "person":
            more.append((MATE, _mate(rng, o)))
    order = [(g, {}) for g in lines] + more
    rng.shuffle(order)
    for group, extra in order:
        pronoun = rng.random() < 0.5  # the subject: a pronoun or the surname
        subject = {"R": ("She" if she else "He") if pronoun else sur,
                   "r": slots["pron"] if pronoun else sur}  # fmt: skip
        note.say(rng.choice(group), **{**slots, **subject, **extra})


# How this style writes a firm's and a product's notes (bench/corpora: org_note, product_note).
STYLE = Style(org=ORG, org_more=ORG_MORE, staff=STAFF, makes=MAKES, item=ITEM, by=BY,
              item_more=ITEM_MORE, users=USERS, firm=_firm, product=_item, mate=_mate, org_extra=lambda rng: {"n": rng.randint(1, 9)})  # fmt: skip


def _org(rng, note: Note, truths, key, co) -> None:
    org_note(rng, note, truths, key, co, STYLE)


def _product(rng, note: Note, truths, key, co) -> None:
    product_note(rng, note, truths, key, co, STYLE)


def _write(rng: random.Random, truths, focus: str, co: list[str]) -> Doc:
    note = Note()
    if rng.random() < 0.2:
        note.say(rng.choice(HEAD), m=rng.choice(MONTHS.split()), yr=rng.randint(2021, 2025))
    writer = {"person": _person, "org": _org, "product": _product}[truths[focus].kind]
    writer(rng, note, truths, focus, co)
    if rng.random() < 0.3:
        note.say(rng.choice(TAIL))
    return note.doc()


def documents(seed: int = 0, size: str = "default"):
    """Field reports: ~50 for the default size, about 22 true things, two namesake pairs."""
    rng = random.Random(f"field-reports/{seed}")
    people = [line.strip() for line in PEOPLE.split("|")]
    truths, pairs = cast(rng, size, people, FIRMS, PRODUCTS, JOBS, CITIES, HOBBIES)
    scenes = plan(rng, truths, pairs, {"person": (2, 4), "org": (1, 2), "product": (1, 2)}, 0.55)
    docs = [_write(rng, truths, focus, co) for focus, co in scenes]
    problems = check(docs, truths, pairs)
    if problems:
        raise ValueError(f"field corpus, seed {seed}: {problems[:5]}")
    return docs, truths, pairs
