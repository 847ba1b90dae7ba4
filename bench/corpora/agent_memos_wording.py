"""Name pools and sentence templates for `agent_memos`: the memos' own wording, kept apart
so that the generator module stays short. Invented for this corpus alone."""

from __future__ import annotations

# "first surname(s) f|m", the format `cast` reads; every surname is unique in the pool so that
# two people in one memo never share a surface.
PEOPLE = [
    "Adaeze Nwachukwu f", "Tomasz Wierzbicki m", "Ingrid Solbakken f", "Rafael Quintanilla m",
    "Mei-Lin Kuo f", "Haruto Shimazaki m", "Leila Farahani f", "Oskar Vainionpää m",
    "Priya Raghunathan f", "Mateus Albuquerque m", "Siobhan Kearney f", "Dmitri Savelyev m",
    "Amara Diallo f", "Kwame Asante-Boateng m", "Lucía Ferrándiz f", "Jonas Brekke m",
    "Nilufar Yusupova f", "Thabo Mahlangu m", "Chiara Benedetti f", "Eamon Gallagher m",
    "Yusuf Demirci m", "Annika Rautio f", "Linh Dao f", "Santiago Villalobos m",
    "Zahra Benali f", "Kofi Mensah-Darko m", "Astrid Hallgrimsdottir f", "Marek Jelínek m",
    "Noor Haddad f", "Paulo Tavares m", "Ayesha Siddiqui f", "Henrik Østergaard m",
    "Valentina Orlova f", "Rohan Deshpande m", "Grete Kallas f", "Ibrahima Ndiaye m",
]  # fmt: skip

# (stem, word, legal form, city, trade, product line) as `cast` expects; "" word = stem only.
FIRMS = [
    ("Brakwater", "Instruments", "Ltd", "Leeds", "environmental monitoring", "air-quality sensor"),
    ("Osterfeld", "Logistik", "GmbH", "Graz", "freight forwarding", "handheld scanner"),
    ("Quayline", "Robotics", "Inc.", "Winnipeg", "warehouse automation", "pallet robot"),
    ("Marisca", "", "S.A.", "Bilbao", "marine electronics", "sonar unit"),
    ("Kallio", "Works", "Oy", "Tampere", "industrial tooling", "torque wrench"),
    ("Vesterhavn", "Data", "A/S", "Aarhus", "fleet telematics", "GPS tracker"),
    ("Sorinel", "Labs", "S.r.l.", "Turin", "lab equipment", "benchtop centrifuge"),
    ("Hanbit", "Mobility", "Co., Ltd.", "Daejeon", "e-mobility", "e-bike motor"),
    ("Pampeiro", "Agro", "S.A.", "Curitiba", "agritech", "soil probe"),
    ("Nyota", "Energy", "Ltd", "Mombasa", "off-grid solar", "solar inverter"),
    ("Vistula", "Soft", "sp. z o.o.", "Kraków", "speech software", "dictation app"),
    ("Lumeo", "Optics", "B.V.", "Eindhoven", "optics", "thermal camera"),
    ("Egeli", "Tekstil", "A.Ş.", "Izmir", "technical textiles", "fabric cutter"),
    ("Saltmarsh", "Coffee", "Pty Ltd", "Adelaide", "coffee equipment", "espresso grinder"),
    ("Rivoire", "Médical", "SAS", "Lyon", "medical devices", "infusion pump"),
    ("Deccan", "Aerial", "Pvt Ltd", "Pune", "aerial survey", "survey drone"),
    ("Baltik", "Grid", "UAB", "Kaunas", "metering software", "smart meter"),
    ("Tern & Vale", "", "LLC", "Portland", "outdoor gear", "trail stove"),
]

PRODUCTS = [
    "Quillon", "Ferrant", "Sablo", "Vireo", "Nimbra", "Corvia", "Pelion", "Zantra", "Tessel",
    "Ambrix", "Glimra", "Drumlin", "Merrow", "Kitebar", "Orlix", "Pavane",
]  # fmt: skip

JOBS = [
    "procurement lead", "field engineer", "head of sales", "data analyst", "plant manager",
    "QA lead", "product owner", "account manager", "CFO", "logistics coordinator",
    "UX researcher", "site supervisor", "regulatory affairs mgr", "embedded developer",
    "office manager", "senior buyer", "ops mgr", "service technician",
]  # fmt: skip

CITIES = [
    "Porto", "Tampere", "Ghent", "Kraków", "Bilbao", "Daejeon", "Mombasa", "Curitiba", "Tromsø",
    "Plovdiv", "Izmir", "Adelaide", "Winnipeg", "Leeds", "Lyon", "Graz", "Kaunas", "Pune",
    "Cebu", "Valparaíso", "Aarhus", "Turin", "Eindhoven", "Portland",
]  # fmt: skip

HOBBIES = [
    "bouldering", "sourdough baking", "chess", "trail running", "birdwatching", "sea kayaking",
    "amateur radio", "pottery", "jazz piano", "beekeeping", "cross-country skiing",
    "salsa dancing", "astrophotography", "fly fishing", "rowing", "woodturning",
]  # fmt: skip

# Memo frame: headers name nothing tracked, so a note's first naming is always in the body.
HEADERS = [
    "Memo after call w/ {who}:", "memo to self, {D}", "(agent) learned today:",
    "Notes after task #{n}:", "## memory update {D}", "Post-task memo ({what}):",
    "FYI for next session:", "MEMO {D} — {what}", "things to remember (task {n}):",
    "Memo after call w/ {who} ({D}):", "scratch notes, run {n}",
]  # fmt: skip
WHO = ["procurement", "sales", "the vendor", "support", "finance", "the site team", "legal"]
WHAT = ["onboarding", "vendor check", "CRM cleanup", "quote review", "ticket triage", "intro call"]
TODOS = [
    "TODO: follow up in approx. 2 wks", "status: open", "status: done", "next -> send recap",
    "conf: medium", "todo: verify title before next contact", "status: waiting on reply",
    "(low priority)", "-> file under accounts", "conf: high; source = call", "I should re-check this",
    "note to self: don't re-ask this next time", "open q: budget?",
]  # fmt: skip
BULLETS = ["- ", "- ", "* ", "• ", "> "]

# Person lines. P full name (Pr in key: value lines), S short name, G pronoun; J/aJ job, C city, Y birth year, H hobby.
# Openings all carry a job or a city: that is what tells namesakes apart.
P_OPEN = [
    "{P} — {J}, based in {C}", "Noted that {P} is {aJ} in {C}", "contact: {Pr}; role: {J}",
    "{P} ({J}, {C})", "re: {P} -> {J}", "{Pr} | {J} | {C}", "spoke w/ {P} ({J}) today",
    "FYI {P} works as {aJ}", "{P}, {J}. lives in {C}", "learned today {P} is in {C} now",
    "who: {Pr}; what: {J}; where: {C}", "met {P} ({J}) — friendly, direct",
]  # fmt: skip
P_MORE = [
    "{S} was born {Y}", "b. {Y}", "born approx. {Y} per profile", "{S} lives in {C}",
    "city: {C}", "hobby: {H}", "{S} is into {H} — good small-talk opener",
    "{G} does {H} on weekends", "{S} is {aJ}", "title: {J}", "born {Y}; into {H}",
    "remember: {S} mentioned {H} twice", "{S} -> {C} based, born {Y}",
]  # fmt: skip
# E/Eb the employer (full / short), T its trade.
P_WORKS = [
    "works at {E}", "employer: {E}", "{S} @ {E} ({T})", "{S} joined {E} a while back",
    "{S} reports into someone at {Eb}; confirm who", "org -> {E}", "on the {T} side at {Eb}",
]  # fmt: skip
P_PRIOR = [
    "previously at {E}", "ex-{Eb}, left on good terms apparently", "used to work for {E}",
    "former employer: {E}", "{S} came over from {Eb}",
]  # fmt: skip
# Q a colleague, QJ the colleague's job.
P_MATE = [
    "colleague: {Q}, {QJ}", "works closely w/ {Q} ({QJ})", "{Q} sits on the same team",
    "cc {Q} next time (same org; {QJ})", "same office as {Q}",
]  # fmt: skip
# X a product, L its category.
P_USES = [
    "uses the {X} ({L})", "{S} runs {aL} — the {X}", "asked re: {X} support -> forwarded",
    "kit: {X}", "{S} swears by the {X}", "complained about the {X}; battery mostly",
]  # fmt: skip

# Firm and product lines for the shared `org_note` / `product_note`.
# O firm surface, Os short firm, Of full legal name; C city, Y founded, T trade.
ORG = [
    "{Of} — {T}, HQ {C}", "firm: {Of}; sector: {T}; based in {C}",
    "{O} is a {T} outfit out of {C}", "Noted that {Of} was founded {Y}, HQ in {C}",
    "re: {Of} -> {T}, est. {Y}", "{Of} ({C}) does {T}", "learned today {O} is based in {C}",
    "account: {Of}", "{O}: {T}; founded {Y}",
]  # fmt: skip
ORG_MORE = [
    "{Os} founded {Y} (per their site)", "HQ: {C}", "remember: {Os} = {T}",
    "est. approx. {Y}", "core business -> {T}", "{Os} still runs everything out of {C}",
    "legal name is {Of}, fyi for invoices",
]  # fmt: skip
STAFF = [
    "{Q} ({QJ}) works at {Os}", "contact there: {Q}, {QJ}", "{Q} -> {QJ} @ {Os}",
    "spoke w/ {Q} of {Os}; title is {QJ}", "main contact = {Q} ({QJ})",
]  # fmt: skip
MAKES = [
    "makes the {X} ({L})", "product: {X}; {aL}", "{Os} -> {X}, their {L}",
    "their {L} line = {X}", "sells {aL}, the {X}",
]  # fmt: skip
ITEM = [
    "{X}: {aL}, launched {Y}", "product note re: {X} -> {L}", "{X} is {aL}; also written {X2}",
    "remember: {X} (sometimes {X2} in tickets) is {aL}", "FYI {X} launched approx. {Y}",
    "item: {X} | type: {L}",
]  # fmt: skip
BY = [
    "{X} is made by {M}", "{M} -> {X} ({L})", "{X}: {aL} from {Mb}",
    "Noted that {Mb} ships the {X}", "vendor for {X} = {M}",
]  # fmt: skip
ITEM_MORE = [
    "launch year: {Y}", "category: {L}", "seen as {X2} in the spreadsheet, same thing",
    "release approx. {Y}; docs thin", "{X2} = {aL}, nothing fancy",
]  # fmt: skip
USERS = [
    "{Q} ({QJ}) uses the {X} daily", "user: {Q} — {QJ}; runs the {X}",
    "{Q} complained re: {X} firmware", "{Q}, {QJ}, relies on the {X}",
]  # fmt: skip


def clashes() -> list[tuple[str, str]]:
    """Pool names of two different entries where one contains the other; `check` would reject
    them in one memo, so this should stay empty when the pools are edited."""
    atoms = []
    for i, line in enumerate(PEOPLE):
        first, *last, _ = line.split()
        atoms += [(i, " ".join(last)), (i, f"{first} {' '.join(last)}")]
    for i, (stem, word, form, *_) in enumerate(FIRMS, 100):
        atoms += [(i, stem), (i, f"{stem} {word}".strip()), (i, f"{stem} {word} {form}")]
    atoms += [(i, stem) for i, stem in enumerate(PRODUCTS, 200)]
    return [(a, b) for i, a in atoms for j, b in atoms if i != j and a.casefold() in b.casefold()]
