"""Name pools and note wording for `assistant_briefs`: what an executive-assistant or sales-ops
agent writes into its memory (meeting-prep briefs, call follow-ups, travel logistics, recruiter
screens, vendor evaluations, Slack-style updates). Written without reading the service's code.

Template slots: P full name, L surname, G given name, hon Ms./Mr./Dr., dr "Dr." (doctors only),
J job, Jc Job, aJ "a job", R what the job runs, C city, Y birth year, A age, H hobby, she/She/
her/Her pronouns, mail, tel; a colleague's or user's slots carry a Q prefix. O/Os firm (first
and later mention), Of legal name, Ol lower-case short form, Oc HQ, Oy founded, Ot trade; O2/O2s
a former employer; M maker; X/X2 a product in two spellings, Xk its kind, aXk, Xy launch year.
Noise: day, day2, date, time, room, npers, nfirm, ncity, hotel, food, event, tool, n.
"""

import unicodedata


def an(word: str) -> str:
    """The article a word takes, read aloud ('an HR lead', 'a UX lead')."""
    vowel = word[:1].lower() in "aeiou" or (word[:2].isupper() and word[0] in "AEFHILMNORSX")
    return ("an " if vowel else "a ") + word


def plain(text: str) -> str:
    """A name folded to plain lower-case letters and digits (an e-mail's or a domain's)."""
    folded = unicodedata.normalize("NFKD", text)
    return "".join(c for c in folded if c.isascii() and c.isalnum()).lower()


GIVEN = (
    "Ana f|Chiamaka f|Ingrid f|Mei f|Priya f|Sofía f|Yuki f|Aisha f|Léa f|Zofia f|Amara f|"
    "Nadia f|Hana f|Marisol f|Freya f|Saoirse f|Thandiwe f|Elif f|Dagny f|Lucía f|Keiko f|"
    "Ximena f|Paulina f|Ifeoma f|Rania f|Tamar f|Kirsi f|Noor f|Valentina f|Aurélie f|"
    "Jelena f|Catalina f|Pilar f|Sunita f|Agnieszka f|Małgorzata f|Oksana f|Wanjiru f|"
    "Tomás m|Kwame m|Lars m|Hiroshi m|Rahul m|Mateus m|Jonas m|Émile m|Dmitri m|Kofi m|"
    "Arjun m|Sven m|Omar m|Nikolai m|Joaquín m|Tariq m|Kenji m|Ruairí m|Bongani m|Henrik m|"
    "Matteo m|Yusuf m|Diego m|Paavo m|Ilyas m|Andrés m|Felipe m|Stanislav m|Thabo m|"
    "Florin m|Cem m|Ravi m|Oskar m|Björn m|Kaito m|Babajide m|Seamus m|Gustavo m"
).split("|")

SURNAMES = (
    "Ruiz|Okafor|Lindqvist|Tanaka|Kowalczyk|Mensah|Haddad|Ferreira|Novák|Dubois|Nakamura|"
    "Chatterjee|van der Berg|de la Cruz|da Silva|Al-Amin|Müller|Sørensen|Öztürk|Nguyen|"
    "Petrović|Brennan|Ó Briain|García Ortega|Achterberg|Kaur|Iyer|Fonseca|Halloran|Sato|"
    "Takahashi|Yilmaz|Abernethy|Lefèvre|Wójcik|Esposito|Andersson|Adeyemi|Barros|"
    "Castellanos|Fischer|Gruber|Horváth|Jansen|Leclerc|Moreno|Ndlovu|Osei|Pereira|Quispe|"
    "Rahman|Saarinen|Tran|Urquhart|Virtanen|Walsh|Zapata|Le Roux|ten Brink|Mac Lochlainn|"
    "Papadopoulos|Bianchi|Kariuki|Szabó|Eriksen|Dlamini|Hoang|Björklund|Ortiz Vega"
).split("|")

# firm stems (invented), some two words so that the bare name gets an acronym
FIRM_STEMS = (
    "Corvane|Altvik|Brisora|Halvard|Quenta|Merrow|Tessaly|Oduya|Pemberly|Varda|Nordhavn|"
    "Vellmar|Praxen|Tolvik|Zephyra|Ondine|Calyx|Yarrowby|Kestova|Ambrel|Fennick|Gaudry|"
    "Isvara|Jorvane|Kalder|Lumeris|Marlowe|Nestica|Orbell|Quarrow|"
    "Blue Fjord|North Harbor|Red Kite|Iron Lantern|Silver Reed|Twin Pines|Grey Heron|"
    "Stone Bridge|Cedar Point|Amber Coast|White Tern|Copper Sky"
).split("|")

# trade word, what the firm does, what its products are
TRADES = [
    ("Analytics", "data analytics", "dashboard suite"),
    ("Robotics", "warehouse robotics", "picking robot"),
    ("Logistics", "freight forwarding", "fleet tracker"),
    ("Medical", "medical devices", "infusion pump"),
    ("Foods", "food processing", "industrial mixer"),
    ("Energy", "battery storage", "home battery"),
    ("Systems", "enterprise software", "ERP module"),
    ("Labs", "lab automation", "pipetting robot"),
    ("Audio", "pro audio", "studio monitor"),
    ("Optics", "industrial optics", "machine-vision camera"),
    ("Networks", "networking hardware", "edge router"),
    ("Mobility", "e-bike manufacturing", "cargo e-bike"),
    ("Security", "cybersecurity", "firewall appliance"),
    ("Payments", "payment processing", "card terminal"),
    ("Aero", "drone manufacturing", "survey drone"),
    ("Instruments", "test and measurement", "oscilloscope"),
    ("Agritech", "precision farming", "soil sensor"),
    ("Maritime", "ship equipment", "marine radar"),
    ("Print", "3D printing", "resin printer"),
    ("Health", "digital health", "remote patient monitor"),
]

# legal form -> where firms with it keep their headquarters
FORMS = {
    "GmbH": ["Graz", "Zürich", "Leipzig", "Bremen", "Innsbruck"],
    "Ltd": ["Leeds", "Bristol", "Edinburgh", "Dublin", "Manchester"],
    "Inc.": ["Austin", "Denver", "Pittsburgh", "Toronto", "Raleigh"],
    "LLC": ["Boise", "Tucson", "Columbus"],
    "S.A.": ["Bilbao", "Valparaíso", "Monterrey", "Lausanne", "Medellín"],
    "Oy": ["Tampere", "Turku", "Oulu"],
    "K.K.": ["Osaka", "Sapporo", "Fukuoka"],
    "plc": ["Birmingham", "Glasgow", "Cardiff"],
    "AB": ["Malmö", "Gothenburg", "Uppsala"],
    "AS": ["Bergen", "Tromsø", "Stavanger"],
    "B.V.": ["Rotterdam", "Utrecht", "Eindhoven"],
    "S.p.A.": ["Turin", "Bologna"],
    "Pty Ltd": ["Brisbane", "Perth", "Adelaide"],
    "S.A.S.": ["Nantes", "Lyon", "Toulouse"],
    "Sp. z o.o.": ["Kraków", "Gdańsk", "Wrocław"],
    "A/S": ["Aarhus", "Odense"],
}

PRODUCT_STEMS = (
    "Vantor|Quillo|Nimbra|Solenne|Kadro|Tessel|Orvik|Pyxa|Zentra|Arkis|Elara|Gavia|Ixo|"
    "Lyrix|Mirel|Opaline|Picora|Quanta|Sablo|Tundro|Umbrel|Vestra|Wrenly|Xeno|Yoru|Zelko|"
    "Brevo|Caldra|Dunmo|Ferro|Hexa|Jovi|Kleo|Loomi|Morrow|Noctis|Ostra|Perla|Rivo|Stilo"
).split("|")

# job title, what someone with it "runs" (or "" when the phrase does not fit)
JOBS = [
    ("procurement lead", "procurement"),
    ("head of partnerships", "partnerships"),
    ("VP of sales operations", "sales operations"),
    ("chief of staff", ""),
    ("regional account director", ""),
    ("talent acquisition partner", ""),
    ("supply chain analyst", ""),
    ("staff data engineer", ""),
    ("CFO", "finance"),
    ("general counsel", "legal"),
    ("events manager", "events"),
    ("product marketing manager", ""),
    ("head of IT", "IT"),
    ("operations director", "operations"),
    ("customer success lead", "customer success"),
    ("field sales engineer", ""),
    ("facilities manager", "facilities"),
    ("HR business partner", ""),
    ("solutions architect", ""),
    ("R&D manager", "R&D"),
    ("quality engineer", ""),
    ("brand director", "the brand team"),
    ("fleet coordinator", "the fleet"),
    ("research scientist", ""),
    ("logistics planner", ""),
    ("financial controller", ""),
    ("head of people", "the people team"),
    ("security architect", ""),
    ("plant manager", "the plant"),
    ("executive assistant to the CEO", ""),
]

CITIES = (
    "Lyon|Porto|Nairobi|Osaka|Kraków|Montréal|São Paulo|Reykjavík|Accra|Tallinn|Valparaíso|"
    "Hanoi|Bengaluru|Rotterdam|Brisbane|Cape Town|Tbilisi|Monterrey|Gdańsk|Aarhus|Bilbao|"
    "Kyoto|Lagos|Ljubljana|Medellín|Pune|Seville|Tampere|Auckland|Dublin|Edinburgh|Graz|"
    "Halifax|İzmir|Kaunas|Malmö|Nantes|Oaxaca|Penang|Tromsø|Zürich|Austin|Denver|Leeds|"
    "Bristol|Gothenburg|Sapporo|Kigali|Da Nang|Cluj-Napoca|Córdoba|Chiang Mai|Wellington"
).split("|")

HOBBIES = (
    "bouldering|trail running|sourdough baking|amateur astronomy|chess|sailing|birdwatching|"
    "jazz piano|pottery|gravel cycling|open-water swimming|fly fishing|woodworking|"
    "salsa dancing|beekeeping|marathon running|film photography|kitesurfing|choir singing|"
    "vintage motorbikes|allotment gardening|padel|urban sketching|calligraphy|"
    "cross-country skiing|tango|homebrewing|orienteering|board games|fencing|rowing|surfing|"
    "knitting|ultrarunning|cricket|table tennis|origami|restoring old synths"
).split("|")

# noise: never tracked
NOISE_FIRMS = (
    "Pellworth Catering|Skylane Travel|Graybrook Legal|Hollis & Marr|Tidewater Events|"
    "Quickbook Cars|Fernhill Print Shop|Oakmere Recruiting"
).split("|")
HOTELS = "Hotel Parkview|the Ardmore|Residence Lumière|Harbour Lodge|Hotel Brückner".split("|")
FOODS = "Osteria Nove|Casa Lupe|the Grain Store|Sushi Kanda|Bistro Marceau|Mesa Alta".split("|")
EVENTS = (
    "Logistics Expo|SaaS Connect|the Nordic Retail Summit|MedTech Forum|the partner offsite|"
    "Supply Chain Week|the Q3 customer advisory board"
).split("|")
ROOMS = (
    "Room Larch|Aspen room|3F huddle room|Boardroom B|Zoom (link in invite)|Teams|"
    "Room 4.12|the glass room"
).split("|")
TOOLS = "Salesforce|HubSpot|Jira|SAP|a pile of spreadsheets|Notion|Workday".split("|")
NOISE_ROLES = "our AE|external counsel|their EA|our SE|the travel desk|finance".split("|")

# ---- person notes --------------------------------------------------------------------------
BRIEF_HEAD = [
    "Prep: {day} {date}, {time}, {room}",
    "MEETING PREP ({day} {time}) - {room}",
    "Brief for {day}'s {time} call ({room})",
    "prep notes / {date} / {room}",
]
BRIEF_OPEN = [
    "Who: {P}",
    "Who: {P}, {J}",
    "Who: {P} ({J}, {O})",
    "Meeting with {P} - {Jc}, {O}",
    "Attendee: {Jc} {P}",
    "Guest: {P}, {J} at {O}",
    "Meeting: {P} from {O}",
    "Contact: {P} ({O}, {C})",
    "Who: {dr} {P}",
    "Main attendee is {P}, who runs {R} for {O}",
]
KV_FACTS = [
    "Role: {Jc}", "Title: {Jc}", "Position: {Jc}",
    "Company: {O}", "Employer: {O}", "Org: {O} ({J})", "Works at: {O}",
    "Location: {C}", "Based: {C}", "Office: {C}", "City: {C}",
    "Born: {Y}", "YOB: {Y}", "Age: {A} (b. {Y})", "b. {Y}",
    "Hobby: {H}", "Interests: {H}", "Small talk: {H}", "Personal: into {H}",
]  # fmt: skip
BRIEF_CLOSE = [
    "Goal: get {L} to sign off on the pilot",
    "Ask {hon} {L} about the Q3 budget",
    "Open item: {L} still owes us the security questionnaire",
    "Watch out: {L} prefers short decks, no more than 8 slides",
    "{L} asked for the agenda by {day2}",
]
NARR_FACTS = [
    "{L} works as {aJ}", "{hon} {L} is {aJ}", "{L} is {aJ} at {O}",
    "{L}'s team at {O} owns the budget", "{She} runs {R} for {O}",
    "{She} has been with {O} for about six years", "{hon} {L} is based in {C}",
    "{She} works out of the {C} office", "{L} is {C}-based", "{L} lives in {C}",
    "{L} was born in {Y}", "{She} is {A} per LinkedIn, so born {Y}", "{L} (b. {Y}) is sharp",
    "{L} is into {H}", "{She} spends weekends on {H}", "{hon} {L} mentioned {H} twice",
    "{Her} big thing outside work is {H}", "{L} joined {O} as {aJ}",
    "As {aJ}, {hon} {L} signs off on vendors", "{L} ({A}, per LinkedIn) seemed keen",
]  # fmt: skip
FOLLOW_HEAD = [
    "Follow-up from the {day} call with {P} ({J}, {O})",
    "Notes after the {day} call with {P}",
    "Had 30 min with {J} {P} of {O} on {day}",
    "Debrief: {P}, {J} at {O}, called in on {day}",
    "Call recap ({date}): {P} from the {C} office",
    "Spoke to {P} today; {she} works as {aJ}",
    "Recap - {P}, who runs {R} for {O}, called back",
]
FOLLOW_CLOSE = [
    "Action: send the deck to {mail} by {day2}",
    "Next step: {npers} ({nrole}) drafts the NDA",
    "Call {hon} {L} back on {tel} after {time}",
    "{L} wants a written summary; logged in {tool}",
    "No decision yet - {L} will revert by {day2}",
]
LOG_HEAD = [
    "Travel/logistics - {event}, {ncity}, {date}",
    "Logistics for {event} ({ncity}, {date})",
    "TRAVEL: {ncity}, {day} {date}",
]
LOG_OPEN = [
    "- {P} flies in from {C} on {day}",
    "- {P} ({O}) arrives {day} from {C}",
    "- {Jc} {P} needs a car from the airport, {day} {time}",
    "- {C}-based {P} joins in person",
    "- {dr} {P}: hotel booked at {hotel}, 2 nights",
]
LOG_MORE = [
    "- {hon} {L}: room at {hotel}, late checkout requested",
    "- {L}'s EA is {npers}; itinerary goes to {mail}",
    "- dinner with {L} at {food}, 19:30",
    "- {L} can be reached on {tel} while travelling",
    "- home base for {L} is {C}, so return flight is to {C}",
    "- {L} speaks on the {O} panel, {day2} morning",
]
SCREEN_HEAD = [
    "Screening call - {date}", "Candidate screen ({day} {date})", "Recruiter notes, {date}",
]  # fmt: skip
SCREEN_OPEN = [
    "Candidate: {P}", "Name: {P}", "Candidate: {dr} {P}", "Screened: {P} ({J}, {O})",
    "Candidate: {P}, currently {aJ} at {O}",
]  # fmt: skip
SCREEN_FACTS = [
    "Current: {Jc} @ {O}", "Current employer: {O}", "Current role: {Jc}",
    "Location: {C}; open to hybrid", "Lives in {C}", "b. {Y}", "YOB {Y}",
    "Age {A} (born {Y})", "Interests: {H}", "Hobbies: {H}",
]  # fmt: skip
SCREEN_CLOSE = [
    "Notes: {L} is strong on stakeholder management",
    "{hon} {L} wants a decision by {day2}",
    "Recommend next round with {npers}",
    "Comp expectations discussed; {L} is flexible",
]
SLACK_HEAD = ["#sales-ops {time}", "[slack] {time}", "DM to {npers}, {time}", "#exec-team {day}"]
SLACK_OPEN = [
    "quick update: met {P} ({Ol}) today",
    "fyi - {P} is in, {day} works",
    "talked to {P} from {Ol}, all good",
    "heads up, {P} ({J}) pinged me",
    "{P} confirmed for {day}",
]
SLACK_FACTS = [
    "{G} is {aJ} there btw", "{G}'s the {J}", "{G} is {C}-based", "{G} sits in {C}",
    "{G} was born in {Y} apparently", "{G}'s into {H}, ask about it", "{G} works for {Ol}",
]  # fmt: skip
SLACK_CLOSE = ["{G} wants the numbers first", "will loop back w/ {G} {day2}", "{G} says thx"]

# ---- what a person's note says about the things beside them ------------------------------
USES = [
    "Uses: {X}", "Currently running the {X}", "Their team runs {X} ({aXk})",
    "{L} complained about {X} firmware", "{L} wants pricing for more {X} units",
    "{She} asked whether the {X} supports SSO",
]  # fmt: skip
USES_SLACK = ["{G} wants a demo of the {X}", "they're on {X} already", "{G} hates the {X} UI lol"]
MATE = [
    "Also attending: {QP} ({QJ})", "+ {QP}, {QJ}, same team", "{QP} from {L}'s team may join",
    "Cc {QP} ({QJ}, {QC})", "{L} will loop in {QP}, {QJ} at {O}",
    "{QJc} {QP} joined for the last ten minutes",
]  # fmt: skip
MATE_SLACK = ["{QP} will join too", "{QP} ({QJ}) is on the thread now"]
PRIOR = [
    "Previously: {O2}", "ex-{O2s}", "{L} spent a few years at {O2} before this",
    "Came over from {O2}", "Before that: {O2}",
]  # fmt: skip
PRIOR_SLACK = ["{G} used to be at {O2s}", "ex-{O2s} btw"]

# ---- firm notes ---------------------------------------------------------------------------
EVAL_HEAD = [
    "Vendor evaluation - {Of}", "VENDOR EVAL: {O}", "Supplier review: {Of} ({Oc})",
    "Eval notes / {O} / {date}",
]  # fmt: skip
EVAL_FACTS = [
    "Founded: {Oy}", "HQ: {Oc}", "Founded {Oy}, HQ {Oc}", "What they do: {Ot}",
    "Sector: {Ot}", "Est. {Oy} in {Oc}", "{Os} has been around since {Oy}",
]  # fmt: skip
EVAL_MAKES = [
    "Product in scope: {X} ({aXk})", "Shortlisted: {X} - {Xk}, launched {Xy}",
    "Demo unit: {X} (the invoice says {X2})", "Also sells the {X}",
]  # fmt: skip
EVAL_STAFF = [
    "Contact: {QP}, {QJ}", "Account lead on their side: {QP} ({QJ}, {QC})",
    "Sponsor: {QJc} {QP}", "{QP} ({QJ}) handles the demo",
]  # fmt: skip
EVAL_ALUM = ["Ref: {QP} worked there before", "{QP} used to be at {Os}, ask for a back-channel"]
EVAL_CLOSE = [
    "Verdict: {Os} scores 7/10 on support, weaker on pricing",
    "Risk: {Os} is still small; ask for references",
    "Pricing: EUR {n}k/yr quoted by {Os}",
    "Next: reference call with another {Os} customer, {nfirm}",
]
ACCT_OPEN = [
    "Account review: {O}", "{Oc}-based {O} is up for renewal",
    "{Of} ({Ot}) - account review, {date}", "Notes on {O} before the QBR",
]  # fmt: skip
ACCT_FACTS = [
    "{O} is {aOt} company founded in {Oy}", "The company is headquartered in {Oc}",
    "{Os} was founded {Oy}", "{Os} works in {Ot} out of {Oc}",
]  # fmt: skip
ACCT_STAFF = [
    "Our main contact is {QP}, {QJ}", "{QJc} {QP} runs the relationship",
    "{QP} ({QJ}, {QC}) signs off on renewals", "{QP}, who works as {QaJ} there, is friendly",
]  # fmt: skip
ACCT_MAKES = ["{Os} makes the {X}, {aXk}", "They also build the {X} ({Xk}, since {Xy})"]
ACCT_ALUM = ["{QP} left {Os} a while ago", "Former {Os} person: {QP}"]
ORG_SLACK_FACTS = ["{Os} is {Oc}-based fwiw", "founded {Oy}, who knew", "they do {Ot}"]
ORG_SLACK_STAFF = ["{QP} ({QJ}) is our contact there", "ping {QP} at {Ol} if stuck"]
ORG_SLACK_MAKES = ["{Os} says the {X} ships {day2}", "their {X} is on backorder"]
ORG_SLACK = [
    "heads up: {Os} just raised prices", "{Os} ({Oc}) wants a call {day2}",
    "anyone have a contact at {O}?", "{Ol} invoice is late again",
]  # fmt: skip

# ---- product notes ------------------------------------------------------------------------
PROD_HEAD = ["Product notes: {X}", "{X} - eval notes", "Kit check: {X}", "re: the {X}"]
PROD_FACTS = [
    "{X} is {aXk}", "Type: {Xk}", "Launched {Xy}", "On the market since {Xy}",
    "Kind: {Xk}, out since {Xy}", "{X2}: {Xk}, released {Xy}",
]  # fmt: skip
PROD_FILLER = [
    "Spare {X2} units in the {ncity} office", "Note: the {X2} needs firmware 3.2+",
    "Quote for 12x {X2} pending with {nfirm}", "Tracking issues in {tool}",
]  # fmt: skip
PROD_MAKER = [
    "Made by {M}", "{M}'s {Xk}, the {X2}", "Maker: {M} ({Mc})", "Vendor is {M}; support via {Ms}",
]  # fmt: skip
PROD_USERS = [
    "{QP} ({QJ}) has been running the {X2} since spring", "{QP} swears by the {X2}",
    "Ask {QP} in {QC} - they use it daily", "{QJc} {QP} filed the last {X2} ticket",
]  # fmt: skip
PROD_SLACK = ["anyone used the {X}?", "{X} vs {X2} - same thing? (yes)", "{X} demo moved to {day2}"]
