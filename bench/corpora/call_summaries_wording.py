"""Name pools and sentence templates for `call_summaries`: what a voice agent writes after a call.

Person slots: {P} the first naming of the caller, {Pl} a later one, {Sp} the caller's speaker
label, {O}/{Os} the employer (any form / its short name), {J}/{aJ} job, {C} city, {ph} phone as
read out, {em} e-mail, {B} birth year as said, {H} hobby, {X} a product and {L}/{aL} its kind,
{Q} a colleague with {QJ}/{aQJ} their job, {she}/{She}/{her}/{Her}/{him} pronouns, {S} the
surname spelled out, {W} a misheard surname.
"""

PEOPLE = [
    "Khoa Trần m", "Thảo Lương f", "Hiếu Đặng m", "Oluwaseun Adeyemi m", "Folake Akinola f",
    "Kehinde Oyelaran m", "Ifeoluwa Bamgbose f", "Katarzyna Wróblewska f", "Bartłomiej Zieliński m",
    "Jadwiga Pietrzak f", "Killa Mamani f", "Amaru Condori m", "Sisa Huamán f", "Illari Yupanqui m",
    "Aino Kivelä f", "Jaakko Rintamäki m", "Ilmari Saarnio m", "Eeva Halttunen f", "Nino Beridze f",
    "Giorgi Tsiklauri m", "Lasha Chkheidze m", "Mariam Dolidze f", "Kavitha Sundaram f",
    "Senthil Ramasamy m", "Meenakshi Palaniappan f", "Arul Selvaraj m", "Iñaki Etxeberria m",
    "Maialen Goikoetxea f", "Ander Zubiaurre m", "Nerea Arrieta f", "Tuğba Erdoğmuş f",
    "Dawit Gebremedhin m",
]  # fmt: skip

NICKNAMES = {
    "Oluwaseun": "Seun", "Katarzyna": "Kasia", "Bartłomiej": "Bartek", "Jadwiga": "Jadzia",
    "Jaakko": "Jaska", "Giorgi": "Gio", "Meenakshi": "Meena", "Kavitha": "Kavi",
    "Ifeoluwa": "Ife", "Folake": "Fola", "Iñaki": "Iñak", "Dawit": "Dave",
}  # fmt: skip

# stem, word, legal form, city, trade, product line
FIRMS = [
    ("Halvu", "Cold Freight", "Oy", "Tampere", "refrigerated trucking", "temperature logger"),
    ("Quellari", "Dental", "S.A.C.", "Arequipa", "dental supply", "curing lamp"),
    ("Orbeli", "Acoustics", "LLC", "Tbilisi", "studio acoustics", "ceiling panel"),
    (
        "Tessaly",
        "Refrigeration",
        "Sp. z o.o.",
        "Wrocław",
        "commercial refrigeration",
        "blast chiller",
    ),
    (
        "Kanmani",
        "Technical Textiles",
        "Pvt Ltd",
        "Coimbatore",
        "industrial fabrics",
        "filter sleeve",
    ),
    ("Ibarluze", "Robotika", "S.Coop.", "Arrasate", "warehouse automation", "picking arm"),
    ("Ewuro", "Agritech", "Ltd", "Ibadan", "farm sensing", "soil probe"),
    ("Sông Hàn", "Marine Electric", "JSC", "Đà Nẵng", "marine electronics", "bilge monitor"),
    ("Pallasvaara", "Energia", "Oy", "Oulu", "district heating", "heat meter"),
    ("Chaski", "Courier Networks", "S.A.", "Cusco", "last-mile delivery", "parcel locker"),
    ("Mtsvane", "Cellar Works", "LLC", "Kutaisi", "winery equipment", "fermentation tank"),
    ("Lipowa", "Medical", "S.A.", "Lublin", "hospital equipment", "infusion pump"),
    ("Velmora", "Print Systems", "GmbH", "Graz", "label printing", "label printer"),
    ("Thiruvai", "Pumps", "Pvt Ltd", "Madurai", "irrigation equipment", "borewell pump"),
    ("Itsaslur", "Naval", "S.L.", "Bilbao", "ship repair", "hull scanner"),
    ("Adunni", "Payments", "Ltd", "Lagos", "mobile payments", "card reader"),
]
TLD = {"Tampere": "fi", "Oulu": "fi", "Arequipa": "pe", "Cusco": "pe", "Tbilisi": "ge",
       "Kutaisi": "ge", "Wrocław": "pl", "Lublin": "pl", "Coimbatore": "in", "Madurai": "in",
       "Arrasate": "eus", "Bilbao": "es", "Ibadan": "ng", "Lagos": "ng", "Đà Nẵng": "vn",
       "Graz": "at"}  # fmt: skip

PRODUCTS = ["Auki", "Zenta", "Korvid", "Peltra", "Nimbra", "Tavix", "Sirro", "Oxbel", "Helvo",
            "Dunmo", "Ravik", "Quorra"]  # fmt: skip
JOBS = ["procurement lead", "fleet manager", "quality manager", "site engineer",
        "accounts payable clerk", "sales director", "warehouse supervisor", "compliance officer",
        "field technician", "office manager", "lab coordinator", "export manager",
        "IT administrator", "operations analyst", "plant manager", "customer success lead",
        "biomedical engineer", "logistics planner"]  # fmt: skip
CITIES = ["Tampere", "Arequipa", "Tbilisi", "Wrocław", "Coimbatore", "Ibadan", "Đà Nẵng", "Oulu",
          "Cusco", "Kutaisi", "Lublin", "Graz", "Madurai", "Bilbao", "Lagos", "Hội An", "Batumi",
          "Gdańsk", "Trujillo", "Jyväskylä"]  # fmt: skip
HOBBIES = ["trail running", "choir", "chess", "beekeeping", "sea swimming", "pottery",
           "birdwatching", "rowing", "salsa", "woodworking", "bouldering", "sourdough baking"]  # fmt: skip

# ---- a person's call: openings ------------------------------------------------------------
INTRO_IN = [
    "{Sp}: hi, uh, yeah, this is {P}",
    "{Sp}: hello? hi, it's {P} calling",
    "{Sp}: yeah, morning, {P} here",
    "{Sp}: hi, so, um, my name's {P}",
    "Agent: thanks for calling, who am I speaking with?\n{Sp}: oh, sorry, {P}",
    "{Sp}: hey, {P} again, we spoke, uh, last week I think",
]
INTRO_OUT = [
    "Agent: hi, is this {P}?\n{Sp}: yeah, speaking",
    "Agent: hello, I'm trying to reach {P}\n{Sp}: that's me, yeah",
    "Agent: good afternoon, calling for {P}?\n{Sp}: mm-hm, go ahead",
    "Agent: hi, {P}? it's the assistant from the service desk\n{Sp}: oh, right, hi",
]
INTRO_NOTE = {
    True: [
        "- Spoke with {P}",
        "- {P} called in",
        "- Caller: {P}",
        "- {P} rang back",
        "- Call from {P} (returning our call)",
        "- {P} phoned about the last visit",
    ],
    False: [
        "- Spoke with {P}",
        "- Outbound to {P}, picked up on the second try",
        "- Called {P} as promised",
        "- Reached {P} on the mobile",
        "- Follow-up call to {P}",
    ],
}
SPELL = [
    "Agent: sorry, could you spell your surname for me?\n{Sp}: sure, {S}",
    "{Sp}: it's {Pl}, that's {S}",
    "- surname spelled {S}",
    "Agent: and that's spelled?\n{Sp}: {S}, yeah",
]
MISHEAR = [
    "Agent: thanks, {W}, sorry, {Pl}, go ahead",
    "- name: {W}, sorry, {Pl} (misheard at first)",
    "Agent: okay, so {W}, no, wait, {Pl}, got it",
]

# ---- a person's call: the facts, as said (first person), as noted (bullets), as scrawled ---
SAY = {
    "job": [
        "{Sp}: I'm {aJ}, so yeah, that's kind of my whole job",
        "{Sp}: I'm the, uh, the {J}",
        "{Sp}: well I'm {aJ}, so it lands on my desk",
        "Agent: and your role?\n{Sp}: {J}",
    ],
    "job_employer": [
        "{Sp}: I'm {aJ} at {O}",
        "{Sp}: {J}, over at {O}",
        "{Sp}: I work for {O}, um, {J}",
        "Agent: so you're {aJ} with {O}, right?\n{Sp}: yeah, yeah, that's right",
    ],
    "employer": [
        "{Sp}: I'm calling from {O}",
        "{Sp}: I'm with {O}",
        "{Sp}: I'm with the {Os} folks, uh, {O}",
        "Agent: and which company?\n{Sp}: {O}",
    ],
    "city": [
        "{Sp}: I'm in {C}, so, you know, the time difference",
        "{Sp}: I'm based in {C}",
        "{Sp}: I live in {C}, so if it's a visit, uh, keep that in mind",
        "Agent: and where are you located?\n{Sp}: {C}",
    ],
    "phone": [
        "{Sp}: best number is {ph}",
        "{Sp}: you can reach me on {ph}",
        "{Sp}: it's {ph}, that's my mobile",
        "Agent: a callback number?\n{Sp}: yeah, {ph}",
    ],
    "email": [
        "{Sp}: email's {em}",
        "{Sp}: just send it to {em}",
        "Agent: and the email?\n{Sp}: {em}",
    ],
    "born": ["Agent: for verification, your year of birth?\n{Sp}: {B}", "{Sp}: birth year? {B}"],
    "hobby": [
        "{Sp}: sorry, I've got {H} at six, so, quickly",
        "{Sp}: ha, no, weekends are for {H}",
        "{Sp}: sorry, bit distracted, sorting out my {H} stuff",
    ],
    "prior": [
        "{Sp}: I used to be at {O}, so I know the old setup",
        "{Sp}: before this I was with {O}",
        "{Sp}: back when I was at {O} we had the same thing",
    ],
    "colleague": [
        "{Sp}: my colleague {Q} said to call you",
        "{Sp}: can you cc {Q}? our {QJ}",
        "{Sp}: {Q}, on my team, uh, set it up",
        "{Sp}: I'll loop in {Q}, works with me",
    ],
    "uses": [
        "{Sp}: it's about our {X}, it keeps, uh, rebooting",
        "{Sp}: so we have the {X}, and the display just went blank",
        "{Sp}: we need a quote for two more {X} units, well, three",
        "{Sp}: the {X}, the {L}, the firmware update failed",
    ],
}
NOTE = {
    "job": ["- {Pl} is {aJ}", "- role: {J}", "- {She}'s the {J}", "- {Pl} ({J})"],
    "job_employer": [
        "- {Pl}, {J} at {O}",
        "- {Pl} is {aJ} with {O}",
        "- {Pl} ({J}, {O})",
        "- works at {O} as {aJ}",
    ],
    "employer": [
        "- {Pl} works at {O}",
        "- {Pl} is with {O}",
        "- calling on behalf of {O}",
        "- company: {O}",
        "- {Pl} is one of the {Os} folks",
    ],
    "city": [
        "- {Pl} is based in {C}",
        "- {Pl} lives in {C}",
        "- location: {C}",
        "- {She}'s in {C}",
    ],
    "phone": ["- callback number {ph}", "- {Pl}'s mobile: {ph}", "- reach {him} on {ph}"],
    "email": ["- email {em}", "- {Pl} wants it by email: {em}", "- send to {em}"],
    "born": ["- DOB year {B} (verified)", "- born {B}", "- ID check ok, birth year {B}"],
    "hobby": ["- small talk: {H}", "- {Pl} mentioned {H}", "- into {H}, apparently"],
    "prior": ["- {Pl} used to be at {O}", "- ex-{O}", "- previously with {O}"],
    "colleague": [
        "- cc {Q}, same team",
        "- {Q} ({QJ}) works with {Pl}",
        "- {Pl}'s colleague {Q} set it up",
        "- loop in {Q}",
    ],
    "uses": [
        "- issue with the {X}",
        "- {Pl}'s team runs the {X}",
        "- quote for more {X} units",
        "- {Her} {X} keeps rebooting",
    ],
}
SCRAWL = {
    "job": ["{J}"],
    "job_employer": ["{J} @ {O}", "{O}, {J}"],
    "employer": ["{O}", "from {O}"],
    "city": ["in {C}", "{C}"],
    "phone": ["cb {ph}", "{ph}"],
    "email": ["{em}"],
    "born": ["dob {B}"],
    "hobby": ["likes {H}"],
    "prior": ["ex-{O}", "used to be {O}"],
    "colleague": ["cc {Q}", "w/ {Q}"],
    "uses": ["re {X}", "{X} issue", "re the {X}"],
}
SCRAWL_INTRO = ["cb from {P}", "missed call {P}", "{P} called", "vm from {P}", "{P} rang"]
VOICEMAIL = ["Left a voicemail for {P}", "No answer, left a message for {P}",
             "Tried {P}, straight to voicemail", "VM left for {P}"]  # fmt: skip
CLOSE = [
    "Action: call {Pl} back tomorrow",
    "TODO: send {Pl} the updated quote",
    "Follow-up: {Pl} to confirm by Friday",
    "Next: email {Pl} the ticket number",
    "Action items:\n- chase {Pl} re: invoice\n- update CRM",
    "Outcome: {Pl} happy, closed",
    "Action: book the engineer visit, {Pl} prefers mornings",
]
TAIL = ["Sentiment: neutral", "Sentiment: frustrated, then fine", "Tags: billing, callback",
        "Tags: support", "Outcome: resolved on call", "Duration note: caller on speaker, noisy",
        "", "", "", ""]  # fmt: skip

# ---- a firm's call, a product's call: templates for the shared org_note/product_note -------
ORG = [
    "Rep: hi, yeah, this is {O}, we do, uh, {T}",
    "- Call with {O} ({T}, {C})",
    "Rep: so this is {O}, we're {T}, based in {C}",
    "- {O}: {T} outfit out of {C}",
    "Rep: yeah, it's {Of}, that's the full legal name, for the invoice",
    "- Spoke to the front desk at {O}",
    "Agent: and the company name?\nRep: {O}, well, {Of} on paper",
    "- the {Os} folks, re the overdue invoice",
]
ORG_MORE = [
    "Rep: we've been going since {Y}, so, yeah, we know {T}",
    "- HQ in {C}",
    "- founded {Y} per the rep",
    "- they do {T}",
    "Rep: we're in {C}, the main office anyway",
    "- everyone just calls them {Os}",
]
STAFF = [
    "Rep: you want {P}, {she}'s our {J}",
    "- {P} ({J}) is the contact there",
    "Rep: I'll put you through to {P}, hold on",
    "- ask for {P} next time, {she} is {aJ}",
    "Rep: that's {P}'s area, {she}'s {aJ}",
]
MAKES = [
    "Rep: yeah, the {X} is ours, it's {aL}",
    "- {O} makes the {X} ({L})",
    "Agent: it's about the {X}, your {L}\nRep: okay, yep",
    "Rep: the {X}? yeah, that's our {L}, um, current model",
]
ITEM = [
    "Caller: yeah so it's the {X}, the, uh, {L}",
    "- Issue reported with {aL}, model {X}",
    "Agent: which model is it?\nCaller: uh, the {X}, it says {X2} on the label",
    "Caller: the {X} keeps beeping, the {L}",
    "- Warranty question about the {X}",
]
BY = [
    "- {X} is made by {M}",
    "Caller: it's one of {Mb}'s, the {X}",
    "Rep: yeah, we at {M} make the {X}, it's {aL}",
    "- {X} ({M}) not syncing",
]
ITEM_MORE = [
    "- out since {Y}",
    "Caller: it's {aL}, the {X2}, so",
    "- model year {Y}",
    "Caller: we bought the {X2} when it came out, {Y}, so",
]
USERS = [
    "- {P} has the same {X}",
    "- {P} reported the {X} issue last week too",
    "Caller: {P} on our side uses the {X} every day",
    "- loop in {P}, {she} runs the {X}",
]
PRODUCT_CLOSE = ["Action: log a ticket for the {X}", "TODO: send the {X} manual",
                 "Next: check stock of the {X}", "Action: escalate {X} fault to tier two"]  # fmt: skip
ORG_CLOSE = ["Action: send the revised quote to {Os}", "TODO: update {Os} billing contact",
             "Follow-up with {Os} next week", "Action: {Os} wants a site visit"]  # fmt: skip
DOMAIN = ["Rep: it's all on our site, {dom}", "- website: {dom}", "- their domain is {dom}",
          "Rep: email us at info at {dom}"]  # fmt: skip
FOUNDED = ["Rep: we've been around since {Y}, so, yeah", "- founded {Y}, per the rep",
           "Rep: we started in {Y}, long story"]  # fmt: skip
LAUNCHED = ["Caller: we got it the year it came out, {Y}", "- launched {Y}, per the caller",
            "Caller: it's the {Y} model, I think"]  # fmt: skip
