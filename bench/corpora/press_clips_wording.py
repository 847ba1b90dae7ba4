"""Name pools and wording tables for press_clips.py: the phrases a research agent might use when
it files away press releases, trade-press clips, profiles, reviews and show notes. Written from
scratch for this corpus, without reading the service or the other generators. Slots in braces are
filled by press_clips.py; a template only names the tracked things its slots stand for.
"""

# -- name pools ------------------------------------------------------------------------------

GIVEN = [
    ("Ngozi", "f"), ("Aigerim", "f"), ("Saoirse", "f"), ("Thandiwe", "f"), ("Marisol", "f"),
    ("Oksana", "f"), ("Parisa", "f"), ("Zeynep", "f"), ("Anouk", "f"), ("Chiamaka", "f"),
    ("Rasa", "f"), ("Mirela", "f"), ("Soraya", "f"), ("Dagny", "f"), ("Itzel", "f"),
    ("Ximena", "f"), ("Folake", "f"), ("Elif", "f"), ("Tuuli", "f"), ("Ayelet", "f"),
    ("Priyanka", "f"), ("Meseret", "f"), ("Ljubica", "f"), ("Teuila", "f"), ("Haruka", "f"),
    ("Mbali", "f"), ("Solveig", "f"), ("Nilufar", "f"), ("Agnieszka", "f"), ("Lucía", "f"),
    ("Kalani", "f"), ("Wanjiru", "f"), ("Mahsa", "f"),
    ("Tendai", "m"), ("Kwabena", "m"), ("Oisin", "m"), ("Rustam", "m"), ("Bongani", "m"),
    ("Joaquin", "m"), ("Tariq", "m"), ("Dmitri", "m"), ("Arjun", "m"), ("Kenji", "m"),
    ("Mateus", "m"), ("Emeka", "m"), ("Teodor", "m"), ("Ravshan", "m"), ("Anselm", "m"),
    ("Kofi", "m"), ("Ilkka", "m"), ("Niklas", "m"), ("Vusi", "m"), ("Farid", "m"),
    ("Tomasz", "m"), ("Rangi", "m"), ("Sipho", "m"), ("Bertil", "m"), ("Ignacio", "m"),
    ("Nurlan", "m"), ("Yannick", "m"), ("Pavlo", "m"), ("Aleksi", "m"), ("Kaveh", "m"),
    ("Babajide", "m"), ("Eero", "m"), ("Quang", "m"),
]  # fmt: skip

SURNAMES = [
    "Okonkwo", "Zhumabay", "Brennock", "Mthembu", "Halvorsen", "Esquivel", "Kovalenko",
    "Tehrani", "Verhoeven", "Adeyemi", "Jankauskas", "Petrescu", "Farahani", "Lindqvist",
    "Villanueva", "Oduya", "Karahan", "Virtanen", "Ben-Haim", "Raghunathan", "Tesfaye",
    "Jovanovic", "Faleolo", "Takemura", "Dlamini", "Tursunzoda", "Castellanos", "Kowalczyk",
    "Achterberg", "Iwasaki", "Oyelaran", "Grgic", "Hakobyan", "Sepúlveda", "Ramaswamy",
    "Ekwueme", "Bjornstad", "Laaksonen", "Moravec", "Quispe", "Haddad", "Taumalolo",
    "Szabo-Lenart", "Rautio", "Ferreira-Lobo", "Delacroix", "Valtonen", "Ismaili", "Mwangi",
    "Nakashima", "O'Dowd", "Gunawardena", "Aydemir", "Urquhart-Bell",
]  # fmt: skip

FIRM_STEMS = [
    "Brannvik", "Quillon", "Tessaro", "Orvane", "Mirovia", "Veltrona", "Sundhaven", "Ardentis",
    "Halcyra", "Ferrolux", "Granvoll", "Isotara", "Kestova", "Lumbrant", "Marrowind", "Nexivo",
    "Obsidra", "Quorvan", "Rivalto", "Solvanta", "Umbrecht", "Valdoria", "Wenmark", "Zephalon",
    "Alderkamp", "Castrelle", "Dunmoor", "Eskerra", "Fjallstad", "Ilvento", "Juntera", "Karsbek",
    "Lorvik", "Montavo", "Nordelle", "Ostravia", "Pirrotta", "Rennwald", "Saltmere", "Trevanne",
    "Ulvira", "Vossberg", "Wyndlow",
]  # fmt: skip

PRODUCT_STEMS = [
    "Korrin", "Tavlo", "Quenda", "Ostrel", "Myrra", "Zelvo", "Pindra", "Elkano", "Fennra",
    "Glimra", "Huvo", "Ivarra", "Jexa", "Lomira", "Nuvra", "Ruvelle", "Sarvik", "Tundro",
    "Uvelo", "Wexa", "Yorla", "Zintra", "Belko", "Cindro", "Dovra", "Kelvra", "Ombrel",
    "Astrel", "Virra", "Qanto",
]  # fmt: skip

# sector -> (words for the firm's name, what the press calls such a firm, what it makes)
SECTORS = {
    "logistics": (["Freight", "Logistics", "Cargo"],
                  ["freight logistics company", "logistics group", "freight forwarder"],
                  ["parcel locker", "pallet tracking tag", "route-planning app"]),
    "software": (["Software", "Systems", "Labs"],
                 ["software maker", "software house", "enterprise software vendor"],
                 ["shift-scheduling app", "demand forecasting suite", "password manager"]),
    "robotics": (["Robotics", "Automation"],
                 ["robotics firm", "automation specialist", "robot maker"],
                 ["warehouse picking robot", "pipe inspection drone", "robotic lawn mower"]),
    "energy": (["Energy", "Solar", "Power"],
               ["renewable energy company", "solar installer", "energy supplier"],
               ["home battery", "balcony solar kit", "heat pump controller"]),
    "food": (["Foods", "Provisions", "Dairy"],
             ["food producer", "food manufacturer", "snack maker"],
             ["oat drink", "protein bar", "plant-based yoghurt"]),
    "medtech": (["Medical", "Medtech", "Diagnostics"],
                ["medical device maker", "diagnostics company", "medtech firm"],
                ["pulse oximeter", "hearing aid", "connected insulin pen"]),
    "audio": (["Audio", "Acoustics", "Sound"],
              ["audio equipment maker", "acoustics firm", "headphone maker"],
              ["noise-cancelling headset", "studio monitor", "portable speaker"]),
    "maritime": (["Marine", "Shipping", "Maritime"],
                 ["shipping company", "marine electronics supplier", "maritime services group"],
                 ["marine radar", "sonar buoy", "bilge monitor"]),
    "mobility": (["Mobility", "Motors", "Cycles"],
                 ["e-bike maker", "mobility start-up", "light vehicle maker"],
                 ["cargo e-bike", "electric scooter", "folding e-bike"]),
    "agritech": (["Agritech", "Farms", "Agro"],
                 ["agritech company", "farm technology firm", "crop-monitoring business"],
                 ["soil moisture sensor", "greenhouse climate controller", "irrigation valve"]),
    "materials": (["Materials", "Composites", "Polymers"],
                  ["materials company", "composites maker", "specialty chemicals firm"],
                  ["insulation panel", "recycled-carbon bike frame", "bioplastic film"]),
    "payments": (["Payments", "Pay", "Finance"],
                 ["payments company", "fintech", "payment processor"],
                 ["card terminal", "invoicing app", "contactless reader"]),
}  # fmt: skip

NAME_TAILS = ["Group", "Technologies", "Industries", "Works", "Partners", "International"]

# legal form -> cities a firm of that form would have its head office in
LEGAL = [
    ("GmbH", ["Leipzig", "Bremen", "Graz", "Freiburg"]), ("Ltd", ["Leeds", "Belfast", "Aberdeen"]),
    ("Inc.", ["Tucson", "Raleigh", "Boise"]), ("S.A.", ["Bilbao", "Valparaíso", "Lyon", "Braga"]),
    ("Oy", ["Tampere", "Oulu", "Jyväskylä"]), ("AB", ["Malmö", "Uppsala", "Linköping"]),
    ("Pty Ltd", ["Perth", "Hobart", "Geelong"]), ("K.K.", ["Sendai", "Fukuoka", "Kanazawa"]),
    ("S.p.A.", ["Turin", "Verona", "Bologna"]), ("B.V.", ["Eindhoven", "Groningen", "Zwolle"]),
    ("AS", ["Bergen", "Trondheim", "Stavanger"]), ("A/S", ["Aarhus", "Odense", "Aalborg"]),
    ("Sp. z o.o.", ["Wrocław", "Gdańsk", "Poznań"]), ("Pte Ltd", ["Singapore"]),
    ("S.r.l.", ["Genoa", "Padua", "Trieste"]), ("Ltda.", ["Curitiba", "Porto Alegre", "Recife"]),
    ("Kft.", ["Debrecen", "Szeged", "Győr"]), ("s.r.o.", ["Brno", "Ostrava", "Plzeň"]),
]  # fmt: skip

CITIES = [
    "Lagos", "Almaty", "Cork", "Durban", "Tromsø", "Monterrey", "Kraków", "Isfahan", "Izmir",
    "Rotterdam", "Kaunas", "Cluj-Napoca", "Turku", "Quito", "Accra", "Antwerp", "Chennai",
    "Addis Ababa", "Novi Sad", "Apia", "Kyoto", "Nantes", "Cusco", "Kumasi", "Tashkent", "Haifa",
    "Wellington", "Da Nang", "Tbilisi", "Yerevan", "Kampala", "Oaxaca", "Riga", "Rosario",
    "Mysuru", "Dunedin", "Lille", "Kochi", "Bursa", "Arequipa",
]  # fmt: skip

# canonical job, ways of saying it, the form written before a name
JOBS = [
    ("chief financial officer", ["chief financial officer", "CFO", "finance chief"], "CFO"),
    ("chief technology officer", ["chief technology officer", "CTO", "technology chief"], "CTO"),
    ("chief executive", ["chief executive", "CEO", "chief executive officer"], "Chief executive"),
    ("chief operating officer", ["chief operating officer", "COO", "operating chief"], "COO"),
    ("head of procurement", ["head of procurement", "procurement chief", "procurement head"], "Procurement head"),
    ("head of sales", ["head of sales", "sales chief", "head of the sales team"], "Sales chief"),
    ("general counsel", ["general counsel", "chief lawyer", "top in-house lawyer"], "General counsel"),
    ("research scientist", ["research scientist", "scientist in the research group"], "Research scientist"),
    ("chief medical officer", ["chief medical officer", "medical chief"], "Chief medical officer"),
    ("operations director", ["operations director", "director of operations", "ops director"], "Operations director"),
    ("head of design", ["head of design", "design lead", "design chief"], "Design chief"),
    ("marketing director", ["marketing director", "director of marketing", "marketing chief"], "Marketing director"),
    ("supply chain analyst", ["supply chain analyst", "analyst in supply chain planning"], "Supply chain analyst"),
    ("plant manager", ["plant manager", "factory manager", "manager of the main plant"], "Plant manager"),
    ("head of people", ["head of people", "HR chief", "people director"], "HR chief"),
    ("lead hardware engineer", ["lead hardware engineer", "hardware lead", "head of hardware engineering"], "Hardware lead"),
    ("investor relations manager", ["investor relations manager", "IR manager", "investor relations lead"], "IR manager"),
    ("data engineer", ["data engineer", "data platform engineer", "engineer on the data platform team"], "Data engineer"),
    ("product manager", ["product manager", "manager on the product team"], "Product manager"),
    ("security engineer", ["security engineer", "information security engineer"], "Security engineer"),
    ("head of logistics", ["head of logistics", "logistics chief", "logistics director"], "Logistics chief"),
    ("sustainability manager", ["sustainability manager", "sustainability lead"], "Sustainability lead"),
    ("communications director", ["communications director", "director of communications", "comms chief"], "Comms chief"),
    ("quality manager", ["quality manager", "head of quality", "quality assurance lead"], "Quality manager"),
]  # fmt: skip
DOCTOR_JOBS = {"research scientist", "chief medical officer"}

FORMER_JOBS = [
    "management consultant", "auditor", "schoolteacher", "journalist", "software tester",
    "account manager", "lab technician", "civil engineer", "army logistics officer", "buyer",
    "policy adviser", "shift supervisor", "translator",
]  # fmt: skip
FORMER_PLACES = [
    "a state rail operator", "a mid-sized audit firm", "a start-up in Nairobi", "the civil service",
    "a regional bank", "a university spin-out", "a shipping agency in Piraeus", "a hospital group",
    "a consultancy in Dubai", "a telecoms operator", "a supplier to carmakers", "a development NGO",
]  # fmt: skip
SUBJECTS = [
    "chemistry", "economics", "mechanical engineering", "law", "statistics", "marine biology",
    "industrial design", "philosophy", "computer science", "agronomy", "accounting", "physics",
]  # fmt: skip
STUDY_PLACES = [
    "Ghent", "Leuven", "Delft", "Coimbra", "Tartu", "Nairobi", "Montréal", "Edinburgh",
    "Aachen", "Porto", "Valdivia", "Pune", "Sapporo", "Stellenbosch",
]  # fmt: skip
HOBBIES = [
    "competitive rowing", "restoring old motorbikes", "birdwatching", "amateur astronomy",
    "ultramarathons", "playing the oud", "beekeeping", "correspondence chess", "sourdough baking",
    "sea kayaking", "pottery", "bouldering", "choir singing", "fly fishing", "tango",
]  # fmt: skip

# -- untracked things and filler -------------------------------------------------------------

PUBS = [
    "Freight Ledger", "Harbour Review", "Nordic Trade Weekly", "Circuit & Cable", "Agri Dispatch",
    "Boardroom Brief", "Medtech Monthly", "Tidewater Business Journal", "Kontor Digest",
    "Ledgerline", "the Morning Manifest", "Plant & Process",
]  # fmt: skip
CONFS = [
    "Nordic Supply Summit", "Fieldwork Expo", "DataHarbour Days", "Meridian Tech Forum",
    "Atlas Logistics Congress", "Open Hardware Weekend", "BioFrontiers Symposium",
    "Future of Work Fair", "Ports & Corridors",
]  # fmt: skip
PODS = ["Shop Floor Radio", "Second Shift", "Two Coffees In", "The Inventory Hour",
        "Quarterly Lines", "Dockside Chats", "Margins & Makers"]  # fmt: skip
SOURCES = ["trade weekly", "company newsletter", "wire report", "press release", "local paper",
           "networking-site post", "podcast transcript", "conference programme"]  # fmt: skip
MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()
TOPICS = [
    "supplier lead times are finally easing", "hiring will stay flat until the autumn",
    "the team is moving its reporting onto a new data platform",
    "customers want shorter contracts", "most of the sector underestimates freight costs",
    "regulators should publish clearer guidance", "remote work has not hurt productivity",
    "small suppliers need faster payment terms", "the next year will be about consolidation",
    "buyers are choosing fewer, better tools", "energy prices still squeeze margins",
]  # fmt: skip
THEMES = [
    "supplier risk", "hiring in a downturn", "data contracts", "cold-chain logistics",
    "right-to-repair rules", "pricing after inflation", "battery recycling", "remote onboarding",
    "open hardware", "cyber insurance", "carbon accounting", "four-day weeks",
]  # fmt: skip
AWARDS = ["40 under 40 list", "list of people to watch", "shortlist for operator of the year",
          "annual power list", "rising stars list"]  # fmt: skip
REGIONS = ["the Baltics", "West Africa", "Southeast Asia", "the Andean region",
           "Central Europe", "the Gulf", "East Africa", "the Nordics"]  # fmt: skip
EVENTS = [
    "a second site in {city2}", "a partnership with a regional rail operator",
    "a listing on a regional exchange", "a new apprenticeship programme", "a share buyback",
    "a move into {region}", "a supply deal with a grocery chain", "job cuts in its back office",
    "a carbon-neutral target for 2030", "a rebrand of its consumer line",
    "a price rise of around {n2} per cent",
]  # fmt: skip
INVESTORS = ["a Nordic pension fund", "two family offices", "its existing backers",
             "a climate-focused venture fund", "a regional development bank",
             "a strategic investor from the car industry"]  # fmt: skip
ROUNDS = ["seed round", "Series A", "Series B", "growth round", "bridge round"]
PLANS = ["hiring engineers", "a second plant", "expansion into {region}", "paying down debt",
         "a bigger sales team"]  # fmt: skip
PLUSES = ["well built", "easy to set up", "good value for the price", "quieter than its predecessor",
          "simple to repair", "well documented"]  # fmt: skip
MINUSES = ["the app is clunky", "spare parts are hard to find", "the manual is thin",
           "the firmware still has bugs", "it is pricey", "delivery times are long"]  # fmt: skip
BUGS = ["a pairing fault", "battery drain in standby", "a display flicker", "a sync bug",
        "a calibration drift"]  # fmt: skip
SCORES = ["4/5", "7 out of 10", "three stars", "8.5/10", "3/5"]

# -- templates. Person slots: P full name, S a later reference, Pr/pr pronoun, job/a_job/Job, F employer, Fp
# "employer's", city, born, subject, place, hobby, a_former, formerplace, years. Firm slots: F
# first mention, Fl later, a_sector, hq, founded, n. Product slots: X first, Xl later, kind,
# a_kind, M maker, Mp "maker's", price, launched. Shared: pub, date, src, conf, pod, ep, city2,
# topic, theme, award, event, investor, round, amount, plan, plus, minus, score, fw, bug.

HEADS = ["src: {pub}, {date}", "[{date}]", "{date}", "via {pub} ({date})",
         "saved {date}; source: {src}", "Source: {src}", "", "", ""]  # fmt: skip

# genre -> (own headings, intros naming the employer, intros without it, informal)
PERSON_GENRES = {
    "profile": ([], [
        "Profile: {P}, {job} at {F}.", "Profile — {P} is {a_job} with {F}.",
        "Short profile: {P} serves as {job} of {F}.", "{P} is {Fp} {job}.",
    ], [
        "Profile: {P}, {job}.", "Profile — {P} works as {a_job}.",
        "Short profile: {P}, currently {a_job}.", "{P} works as {a_job}, per a speaker bio.",
    ], False),
    "move": (["Job change:", "People moves —"], [
        "{P} has joined {F} as {job}.", "{P} took over as {job} at {F}, per a networking-site post.",
        "Hiring note: {F} named {P} its new {job}.", "{F} brings in {P} as {job}.",
        "{P}, formerly {a_former} at {formerplace}, is now {job} at {F}.",
    ], [
        "{P} started a new role as {job}.", "New role for {P}: {job}.",
        "{P} announced a move into the role of {job}, per a networking-site post.",
        "{P}, formerly {a_former} at {formerplace}, now works as {a_job}.",
        "{P} took over as {job} this quarter.",
    ], True),
    "quote": ([], [
        "{Job} {P} of {F} told {pub} that {topic}.", "{Fp} {job}, {P}, said {topic}.",
        "In {pub}, {P} ({job}, {F}) argued that {topic}.",
        "{P}, who serves as {job} at {F}, said in an interview that {topic}.",
    ], [
        "{Job} {P} told {pub} that {topic}.", "{P}, {a_job}, said in {pub} that {topic}.",
        "Quoted in {pub}: {P}, {job}, who thinks {topic}.",
    ], False),
    "podcast": (["Show notes:", "Listened:"], [
        "{pod}, ep. {ep}: guest {P}, {job} at {F}.", "{pod}, episode {ep} — {P} ({Fp} {job}) on {theme}.",
        "Guest on {pod} (ep. {ep}) was {P}, who works at {F} as {job}.",
    ], [
        "{pod}, ep. {ep}: guest {P}, {job}.", "{pod}, episode {ep} — {P}, {a_job}, on {theme}.",
        "Guest on {pod} (ep. {ep}) was {P}, {a_job}.",
    ], True),
    "talk": (["Events:"], [
        "{P} ({job}, {F}) is on the programme at {conf} in {city2}.",
        "{Job} {P} of {F} gives a talk on {theme} at {conf}.",
    ], [
        "{P}, {a_job}, speaks at {conf} in {city2} on {theme}.",
        "{conf} lists {P} ({job}) among its speakers ({theme}).",
    ], False),
    "award": ([], [
        "{P} ({job}, {F}) made {pub}'s {award}.", "{pub} put {P} of {F} on its {award}.",
    ], [
        "{P}, {a_job}, made {pub}'s {award}.", "{pub} put {P} on its {award}, listed as {job}.",
    ], False),
}  # fmt: skip

PERSON_FACTS = {
    "city": ["{S} is based in {city}.", "{Pr} lives in {city}.", "{S} works out of {city}.",
             "Home base: {city}.", "{Pr} is {city}-based."],
    "born": ["{S} was born in {born}.", "Born {born}.", "{Pr} was born in {born}, the bio says.",
             "Year of birth: {born}."],
    "alma": ["{S} studied {subject} in {place}.", "Education: {subject}, {place}.",
             "{Pr} holds a degree in {subject} from a university in {place}."],
    "hobby": ["Outside work, {S} is into {hobby}.", "{Pr} lists {hobby} as a pastime.",
              "{S} spends weekends on {hobby}.", "Hobby: {hobby}."],
    "former": ["{S} was previously {a_former} at {formerplace}.", "Earlier career: {a_former}.",
               "Before this, {pr} spent {years} years as {a_former} at {formerplace}."],
    "role": ["{S} serves as {job2}.", "Current title: {job2}.", "{S}'s title is {job2}."],
    "view": ["{S} said {topic2}.", "According to {S}, {topic2}.", "{Pr} expects that {topic2}."],
}  # fmt: skip

PERSON_CARD = (["Profile: {P}", "{P} — contact card", "Person: {P}", "Who: {P}"],
               ["- role: {job}, {F}", "- {job} at {F}", "- employer: {F}; title: {job}"],
               ["- role: {job}", "- title: {job}"],
               {"city": ["- based in {city}", "- city: {city}"], "born": ["- born {born}", "- b. {born}"],
                "alma": ["- studied {subject} ({place})"], "hobby": ["- hobby: {hobby}"],
                "former": ["- formerly {a_former}, {formerplace}"],
                "seen": ["- seen in {pub}, {date}", "- spoke at {conf}"]})  # fmt: skip

PANEL_HEADS = ["Speakers, {conf} ({city2}, {date}):", "{conf} programme — panel on {theme}:",
               "Line-up for the {theme} session at {conf}:"]  # fmt: skip
PANEL_LINES = (["- {P}, {job} at {F}", "- {P} ({job}, {F})", "- {Job} {P}, {F}"],
               ["- {P}, {job}", "- {P} ({job}, {city})", "- {Job} {P}"])  # fmt: skip
PANEL_TAILS = ["Moderated by an editor from {pub}.", "{S} is the one to follow up with.",
               "Worth watching: {S}.", ""]  # fmt: skip

# genre -> (own headings, intros)
FIRM_GENRES = {
    "release": (["Press release summary ({date}):", "PR digest —", "Release, {date}:"], [
        "{F} announced {event}.", "{F} has confirmed {event}.", "News from {F}: {event}.",
        "{F}, {a_sector} headquartered in {hq}, announced {event}.",
    ]),
    "funding": (["Funding:", "Deals ({date})"], [
        "{F} raised {amount} in a {round} led by {investor}.",
        "{F} closed a {round} of {amount}; {investor} led it.",
        "{F} has secured {amount} from {investor}. The money goes to {plan}.",
    ]),
    "clip": (["src: {pub}, {date}", "clip ({pub})", "from {pub}:"], [
        "{pub} reports that {F} is weighing {event}.",
        "{F} is reportedly planning {event}, {pub} says.",
        "According to {pub}, {F} has hired advisers to prepare {event}.",
    ]),
}  # fmt: skip
FIRM_FACTS = {
    "founded": ["{Fl} was founded in {founded}.", "{Fl} dates back to {founded}.",
                "The company was set up in {founded}."],
    "hq": ["HQ: {hq}.", "{Fl} is {a_sector} based in {hq}.", "Its head office is in {hq}."],
    "staff": ["The firm employs roughly {n} people.", "{Fl} has about {n} staff."],
    "view": ["A spokesperson for {Fl} said {topic2}.", "{Fl} says {topic2}."],
    "plan": ["{Fl} plans to spend the money on {plan}.", "Next for {Fl}: {plan}."],
}  # fmt: skip
FIRM_SHEET = (["{F}", "Company note: {F}", "Fact sheet — {F}"],
              {"sector": ["- sector: {sector}", "- what: {a_sector}"], "hq": ["- HQ: {hq}"],
               "founded": ["- founded {founded}", "- est. {founded}"], "staff": ["- staff: ~{n}"],
               "seen": ["- last seen in {pub}, {date}"]})  # fmt: skip
FIRM_WITH_PERSON = ["{Job} {P} said {topic}.", "Quoted: {P}, {job} at the company.",
                    "{P} ({job}) is named as the contact."]  # fmt: skip
FIRM_WITH_PRODUCT = ["It also showed the {X}, {a_kind}.", "The {X} ({kind}) is part of the news.",
                     "Products mentioned: the {X}."]  # fmt: skip
SHEET_WITH_PERSON = ["- contact: {P}, {job}", "- people: {Job} {P}"]
SHEET_WITH_PRODUCT = ["- product: {X} ({kind})", "- makes the {X}"]

# genre -> (own headings, intros naming the maker, intros without it)
PRODUCT_GENRES = {
    "review": (["Review roundup", "Reviews, {date}"], [
        "{pub} reviewed the {M} {X}, {a_kind}.", "The {X} from {M} is {a_kind}; {pub} gave it {score}.",
        "{Mp} {X} ({kind}) got {score} from {pub}.",
    ], [
        "{pub} reviewed the {X}, {a_kind}.", "The {X} is {a_kind}; {pub} gave it {score}.",
        "Tested the {X} ({kind}): {score}.",
    ]),
    "launch": (["Launch note", "New products"], [
        "{M} launched the {X}, {a_kind}, priced at {price}.", "New from {M}: the {X}, {a_kind}.",
        "{M} unveiled the {X} at {conf}, pitching it as {a_kind}.",
    ], [
        "The {X}, {a_kind}, went on sale in {launched}.", "Launch: {X} ({kind}), {price}.",
        "The {X} was shown at {conf} in {city2} as {a_kind}.",
    ]),
    "update": (["Product news", "Updates"], [
        "{Mp} {X}: software update {fw} fixes {bug}.", "{M} pushed firmware {fw} for the {X}.",
    ], [
        "Firmware {fw} for the {X} fixes {bug}.", "Owners of the {X} get update {fw}, which fixes {bug}.",
    ]),
}  # fmt: skip
PRODUCT_FACTS = {
    "verdict": ["Pros: {plus}. Cons: {minus}.", "The {Xl} is {plus}, but {minus}.",
                "Verdict: {plus}; {minus}."],
    "price": ["Price: {price}.", "The {Xl} sells for {price}.", "It lists at {price}."],
    "launched": ["Launched {launched}.", "The {Xl} first shipped in {launched}."],
    "kind": ["The {Xl} is {a_kind}.", "Category: {kind}."],
    "detail": ["Early units went to pilot customers in {city3}.", "Stock of the {Xl} is short."],
}  # fmt: skip
PRODUCT_SHEET = (["{X} — spec sheet", "Product: {X}", "{X}"], ["- maker: {M}", "- made by {M}"],
                 {"kind": ["- type: {kind}"], "price": ["- price: {price}"],
                  "launched": ["- launched {launched}"], "alias": ["- also written {Xl}"],
                  "seen": ["- seen in {pub}, {date}"]})  # fmt: skip
