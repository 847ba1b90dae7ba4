"""CRM and sales-call notes: terse, half-sentences, pipes and dashes, parentheses for title and
employer, 'w/', 'f/up', 'b. 1981', some notes as bullets under a dated header. A contact is
written in full, as 'Ms./Mr./Dr. Surname' or by surname alone; a firm with its legal form,
without it, or by its stem; a product as 'Ferrox-7', 'Ferrox 7' or 'Ferrox7', now and then with
its maker beside it.
"""

from __future__ import annotations

import random

from . import Doc, Note, Truth, an, cast, check, fresh, plan

PEOPLE = """Inês Valadares f|Tiago Bragança m|Obinna Ezeudu m|Ifeoma Nwakaego f|Aino Kettusalo f
|Joonas Peltokangas m|Kenji Morisawa m|Haruka Tsukimoto f|Seo-yeon Bae f|Rami Azzouni m
|Dalia Sabbagh f|Marek Wojtaszek m|Zofia Grabowiecka f|Arjun Venkatraman m|Priya Raghunathan f
|Ximena Olvera f|Rodrigo Cantú m|Lukas Oberwinkler m|Greta Hallström f|Siobhán Mulcahy f
|Declan Furlong m|Linh Vuong f|Emre Kaplanoğlu m|Selin Ardıç f|Kwabena Ansah-Owusu m"""
FIRMS = [
    ("Brennholt", "Messtechnik", "GmbH", "Kassel", "test and measurement gear", "XRF analyser"),
    ("Oxalis", "Devices", "Inc.", "Denver", "retail hardware", "barcode scanner"),
    ("Pellucid", "Labs", "Ltd", "Bristol", "lab automation", "pipetting robot"),
    ("Saravia", "Logística", "S.A.", "Porto", "freight tracking", "pallet tracker"),
    ("Kivilinna", "", "Oy", "Oulu", "industrial IoT", "edge gateway"),
    ("Quorvant", "Medical", "AG", "Basel", "hospital equipment", "infusion pump"),
    ("Ndovu", "Agritech", "Ltd", "Nairobi", "farm telemetry", "soil moisture probe"),
    ("Marrowgate", "Aerial", "LLC", "Austin", "drone inspection", "inspection drone"),
    ("Hoshizora", "Robotics", "K.K.", "Nagoya", "warehouse robots", "picking arm"),
    ("Velamar", "Energía", "S.A.", "Valencia", "solar power", "string inverter"),
    ("Glenrock", "Print", "Ltd", "Galway", "labelling kit", "label printer"),
    ("Strandvik", "Marine", "AB", "Gothenburg", "marine electronics", "chartplotter"),
    ("Cindral", "Thermal", "Inc.", "Raleigh", "thermal imaging", "thermal camera"),
    ("Polanex", "", "Sp. z o.o.", "Wrocław", "industrial adhesives", "glue dispenser"),
]
PRODUCTS = [
    "Ferrox",
    "Quillo",
    "Nimbra",
    "Tarvex",
    "Lumaro",
    "Brisa",
    "Kestro",
    "Orvix",
    "Haldo",
    "Pyxo",
]
JOBS = ["CTO", "VP Sales", "head of procurement", "plant manager", "CFO", "IT director",
        "ops lead", "data engineer", "senior buyer", "facilities manager", "product owner",
        "lab manager", "regional sales director", "COO", "quality lead", "solutions architect"]  # fmt: skip
CITIES = ["Leeds", "Monterrey", "Pune", "Lyon", "Tallinn", "Accra", "Osaka", "Izmir", "Krakow",
          "Tampere", "Boise", "Rotterdam", "Seville", "Beirut", "Da Nang", "Halifax"]  # fmt: skip
HOBBIES = ["trail running", "sailing", "padel", "chess", "sourdough baking", "F1",
           "birdwatching", "vinyl collecting", "road cycling", "golf", "rock climbing",
           "woodworking", "salsa dancing", "fly fishing"]  # fmt: skip

HEADERS = ["Call notes {D}:", "Mtg recap {D} -", "[CRM] {D}", "Visit report:", "Discovery call:",
           "Notes {D}", "Acct update:", "QBR prep -", "Log {D}:"]  # fmt: skip
INTRO_AT = [
    "Met {P} ({J}, {O}) in {C}.",
    "{P} — {J} @ {O}.",
    "Spoke w/ {P}, {J} at {O}. Based {C}.",
    "Contact: {P} | {J} | {O} | {C}",
    "Intro call w/ {P} of {O} (title: {J}).",
    "{P} ({O}) - {J}, sits in the {C} office.",
    "New lead: {P}, {J}, {O} ({C}).",
    "Lunch w/ {P} ({J} @ {O}) in {C}.",
    "{O}: {P} is the {J}, works out of {C}.",
    "Call booked by {P} — {J} at {O}.",
    "Re: {O} — talked to {P} ({J}).",
    "{P} ({J}, {O}) called back re pricing.",
]
INTRO = [
    "Met {P} ({J}) in {C}.",
    "{P} — {J}, {C}-based.",
    "Call w/ {P}; title {J}, {C}.",
    "Contact: {P} | {J} | {C}",
    "{P}, {J}. Based in {C}.",
    "Ran into {P} ({J}) at the {C} expo.",
    "Inbound from {P} — {J}, {C}.",
    "Quick sync w/ {P} ({J}).",
    "{P} ({J}) - no budget till Q{q}.",
    "Cold call: {P}, {J}, out of {C}.",
    "{P} pinged on LinkedIn - {J}, lives in {C}.",
]
OPENERS = ["Call w/ {P}.", "Met {P} today.", "{P} rang back.", "F/up w/ {P}.", "Visit: {P}.",
           "2nd call w/ {P}.", "{P} - no-show, rescheduled."]  # fmt: skip
JOB = ["{S} = {J}, signs off on spend.", "Title per sig: {J}.", "{S}'s role: {J}.",
       "{S} is {aJ} (per LinkedIn).", "Role check - {S}, {J}.", "{S} promoted to {J} in Jan.",
       "{S} ({J}) owns the budget.", "NB {S} is the {J} - not an end user."]  # fmt: skip
EMPLOYER = ["{S} @ {O}.", "{S} is w/ {O} now.", "Employer: {O}.", "{S} - {O} acct.",
            "{O} is {S}'s employer.", "{S} works for {O}.", "Works at {O}.",
            "{S} (of {O}) wants a proposal."]  # fmt: skip
CITY = ["{S} based {C}.", "{S} WFH from {C}.", "{S} works out of {C}.", "Loc: {C}.",
        "{S} flies in from {C} for the mtg.", "{S} in the {C} office Tue-Thu.",
        "{S} = {C}, not HQ.", "{S} (in {C}) prefers calls before 10."]  # fmt: skip
BORN = ["{S} b. {Y}.", "{S} born {Y}.", "DOB yr on file: {Y}.", "Bday list: {S}, b. {Y}.",
        "{S}, born in {Y}, old-school re tools.", "{S}: YOB {Y}.", "Age: b. {Y}.",
        "{S} - born {Y} per HR form."]  # fmt: skip
HOBBY = ["Rapport: {S} into {H}.", "Small talk - {H}.", "{S} big on {H} -> use as icebreaker.",
         "PS {S} does {H} on wknds.", "Personal: {H}.", "{S} mentioned {H} twice.",
         "Icebreaker = {H} ({S}).", "Don't forget {S} loves {H}."]  # fmt: skip
PRIOR = ["Ex-{O}.", "{S} prev. at {O}.", "Formerly {O}.", "Came over from {O}.",
         "{S} left {O} ~2y ago.", "Knows us from {O} days.", "{S} ex {O} - ref them.",
         "Old contact from {O}."]  # fmt: skip
USES = ["{S} wants a pilot of the {X}.", "{S} asked for pricing on {X} - send by Fri.",
        "{S}'s team runs {X} units, happy-ish.", "{S} comparing {X} vs in-house.",
        "{S} needs 3x {X} for trial.", "Issue w/ {X} firmware - {S} escalated.",
        "{S}: {X} renewal due.", "{X} demo for {S} next wk."]  # fmt: skip
COLLEAGUE = ["Also on call: {Q} ({J2}).", "cc {Q}, {J2}.", "{Q} ({J2}) joined late.",
             "Loop in {Q} next time - {J2}.", "{S} sits next to {Q} ({J2}).",
             "{Q} = {J2}, same team as {S}.", "Intro'd to {Q}, {J2}.",
             "{S} + {Q} ({J2}) both on the deal."]  # fmt: skip
ORG = ["Acct: {O} — HQ {C}, est. {Y}.", "{O} ({C}) - founded {Y}, {T}.",
       "Account review: {O}. Sector: {T}. HQ {C}.", "{O}, est. {Y}, {T}; renewal Q{q}.",
       "Prospect: {O} | {T} | {C} | since {Y}", "{O} — {T} shop out of {C}.",
       "Pipeline: {O} (est. {Y}) moved to stage {n}.", "{O} renewal - {n}0 seats, HQ {C}.",
       "Target acct {O}: {T}, founded {Y}.", "{O} ({T}, {C}) - RFP out."]  # fmt: skip
ORG_MORE = ["{Os} HQ still {C}.", "Company founded {Y}.", "{Os} around since {Y}.",
            "{Os} = {T}.", "Procurement slow at {Os}.", "{Os} budget cycle starts Oct.",
            "Billing entity: {Of}.", "The company's in {C}, est. {Y}.",
            "{Os} - inc. {Y}, {C}."]  # fmt: skip
STAFF = ["Main contact: {Q} ({J2}).", "Champion: {Q}, {J2}.", "Exec sponsor: {Q}.",
         "{Q} ({J2}) is our way in.", "Blocker: {Q} ({J2}) wants more refs.",
         "Decision maker = {Q}, {J2}.", "Spoke to {Q}, {J2} there.",
         "{Q} ({J2}) signs the PO."]  # fmt: skip
MAKES = ["Flagship: {X}.", "They make the {X} ({K}).", "{Os} ships the {X}.",
         "Their {X} = {aK}.", "{X} is their bread and butter.", "Competes w/ us via {X}.",
         "{Os}'s {X} backordered.", "Makes the {X}, {K}."]  # fmt: skip
ITEM_BY = ["{X} ({M}) - spec sheet sent.", "Demo'd the {Mb} {X}.", "Pricing req: {X} by {M}, {K}.",
           "{Mb} {X}: lead time 6 wks.", "Comp intel: {M} pushing the {X} ({K}).",
           "{X}, {aK} from {M}, launched {Y}.", "RMA on a {X} - maker {M}.",
           "{Mb}'s {X} on the shortlist."]  # fmt: skip
ITEM = ["Demo'd the {X} ({K}).", "{X} - {K}, launched {Y}.", "Trial units of {X} shipped.",
        "Q re {X} battery life.", "{X}: {aK}, {Y} model.", "Price list for {X} updated.",
        "{X} ({K}) out of stock till May.", "Spec: {X}, {K}, rel. {Y}."]  # fmt: skip
ITEM_MORE = ["Launched {Y}.", "Category: {K}.", "{X2} firmware 2.1 out.", "{X2} = {K}.",
             "Still on the {Y} hw rev.", "Pls re-quote {X2} w/ 3y warranty."]  # fmt: skip
USERS = ["{Q} ({J2}) piloting it.", "User ref: {Q}.", "{Q} has 5 in the field.",
         "{Q} ({J2}) asked for a loaner.", "Happy customer: {Q}.", "{Q} complained re warranty.",
         "Ref call w/ {Q} ({J2}) ok'd.", "{Q} wants the {X} in blue lol."]  # fmt: skip
NEXT = ["Next: send deck.", "TODO: NDA.", "F/up Thu.", "Budget TBD.", "Legal review pending.",
        "Add to Q{q} forecast.", "Sent recap email.", "Price sensitive.", "Need ref customer.",
        "Action: quote by EOD.", "Waiting on PO.", "Low priority.", "-> hand to AM."]  # fmt: skip
MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()


def _who(rng: random.Random, t: Truth, full: float = 0.7) -> tuple[str, str]:
    f, r = t.facts, rng.random()
    if r < full:
        return t.name, t.key
    if f["title"] and r < full + 0.15:
        return f"Dr. {f['last']}", t.key
    if r < 0.88:
        return f"{'Ms.' if f['she'] else 'Mr.'} {f['last']}", t.key
    return f["last"], t.key


def _firm(rng: random.Random, t: Truth) -> tuple[str, str]:
    f = t.facts
    return rng.choices([t.name, f["bare"], f["short"]], [0.45, 0.35, 0.2])[0], t.key


def _item(rng: random.Random, t: Truth) -> tuple[str, str]:
    stem, n = t.facts["stem"], t.facts["number"]
    return rng.choice([f"{stem}-{n}", f"{stem} {n}", f"{stem}{n}"]), t.key


def _date(rng: random.Random) -> str:
    d, m = rng.randint(1, 28), rng.randint(1, 12)
    return rng.choice(
        [f"{d:02d}/{m:02d}", f"{m}/{d}", f"{MONTHS[m - 1]} {d}", f"{d}-{MONTHS[m - 1]}"]
    )


def _person(rng, note: Note, truths, key, co) -> None:
    t = truths[key]
    f = t.facts
    slots = {"P": _who(rng, t), "S": (f["last"], key), "J": f["job"], "aJ": an(f["job"]),
             "C": f["city"], "Y": f["born"], "H": f["hobby"], "q": rng.randint(1, 4)}  # fmt: skip
    employer = f["employer"] if f["employer"] in co else None
    if employer:
        slots["O"] = _firm(rng, truths[employer])
    lines = [(CITY, "{C}")] if rng.random() < 0.3 else []
    lines += rng.sample([(BORN, "{Y}"), (HOBBY, "{H}")], rng.choice([0, 1, 1, 2]))
    opening = rng.choice(OPENERS if rng.random() < 0.25 else INTRO_AT if employer else INTRO)
    note.say(opening, **slots)  # an opener without facts: the job and employer after it
    if opening in OPENERS:
        lines = [(JOB, "")] + ([(EMPLOYER, "")] if employer else []) + lines
    lines = [rng.choice(group) for group, said in lines if not said or said not in opening]
    for other in co:
        o = truths[other]
        if other == f.get("prior"):
            lines.append((rng.choice(PRIOR), {"O": _firm(rng, o)}))
        elif other == f.get("uses"):
            lines.append((rng.choice(USES), {"X": _item(rng, o)}))
        elif o.kind == "person":
            lines.append((rng.choice(COLLEAGUE), {"Q": _who(rng, o, 0.8), "J2": o.facts["job"]}))
    rng.shuffle(lines)
    for line in lines:
        template, more = line if isinstance(line, tuple) else (line, {})
        note.say(template, **{**slots, **more})


def _org(rng, note: Note, truths, key, co) -> None:
    t = truths[key]
    f = t.facts
    slots = {"O": _firm(rng, t), "Os": (rng.choice([f["short"], f["bare"]]), key), "Of": (t.name, key),
             "C": f["city"], "Y": f["founded"], "T": f["trade"], "q": rng.randint(1, 4),
             "n": rng.randint(2, 5)}  # fmt: skip
    opening = rng.choice(ORG)
    note.say(opening, **slots)
    if rng.random() < 0.5:
        note.say(fresh(rng, ORG_MORE, opening), **slots)
    for other in co:
        o = truths[other]
        if o.kind == "person":
            note.say(rng.choice(STAFF), **slots, Q=_who(rng, o, 0.8), J2=o.facts["job"])
        else:
            k = o.facts["category"]
            note.say(rng.choice(MAKES), **slots, X=_item(rng, o), K=k, aK=an(k))


def _product(rng, note: Note, truths, key, co) -> None:
    t = truths[key]
    f = t.facts
    k = f["category"]
    slots = {"X": _item(rng, t), "X2": _item(rng, t), "K": k, "aK": an(k), "Y": f["launched"]}
    if f["maker"] in co:
        m = truths[f["maker"]]
        mb = (rng.choice([m.facts["short"], m.facts["bare"]]), m.key)
        opening = rng.choice(ITEM_BY)
        note.say(opening, **slots, M=_firm(rng, m), Mb=mb)
    else:
        opening = rng.choice(ITEM)
        note.say(opening, **slots)
    if rng.random() < 0.4:
        note.say(fresh(rng, ITEM_MORE, opening), **slots)
    for other in co:
        o = truths[other]
        if o.kind == "person":
            note.say(rng.choice(USERS), **slots, Q=_who(rng, o, 0.75), J2=o.facts["job"])


def _write(rng: random.Random, truths, focus: str, co: list[str]) -> Doc:
    note = Note()
    writer = {"person": _person, "org": _org, "product": _product}[truths[focus].kind]
    writer(rng, note, truths, focus, co)
    if rng.random() < 0.5:
        note.say(rng.choice(NEXT), q=rng.randint(1, 4))
    header = rng.choice(HEADERS).format(D=_date(rng)) if rng.random() < 0.45 else ""
    if header and len(note.parts) > 1 and rng.random() < 0.6:  # bullets under the header
        text = header + "\n" + "\n".join(f"- {p}" for p in note.parts)
        return Doc(text.replace("..", "."), dict(note.names))
    doc = note.doc()
    return Doc(f"{header} {doc.text}".strip(), doc.names)


def documents(seed: int = 0, size: str = "default"):
    """CRM notes: ~50 for the default size, about 22 true things, two namesake pairs."""
    rng = random.Random(f"crm-notes/{seed}")
    people = [line.strip() for line in PEOPLE.split("|")]
    truths, pairs = cast(rng, size, people, FIRMS, PRODUCTS, JOBS, CITIES, HOBBIES)
    scenes = plan(rng, truths, pairs, {"person": (2, 4), "org": (1, 2), "product": (1, 2)}, 0.7)
    docs = [_write(rng, truths, focus, co) for focus, co in scenes]
    problems = check(docs, truths, pairs)
    if problems:
        raise ValueError(f"crm corpus, seed {seed}: {problems[:5]}")
    return docs, truths, pairs
