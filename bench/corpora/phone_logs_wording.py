"""Name pools and wording of the phonelog corpus: what callers say as a speech recogniser writes
it (lowercase, thin punctuation) and the assistant's third-person phrases. Slots: n f s (name,
first, surname as heard), N F S D (as written), w W / p P employer and former employer, x X a
product, m M mf MF mJ mshe a colleague, c C city, yw Y a year, J aJ job, H hobby, b B a maker."""

PEOPLE = """Priya Ranganathan f|Tomasz Wielgosz m|Amara Nwachukwu f|Henrik Solbakken m|
Lucía Berrocal f|Kenji Matsuura m|Fatima Bennani f|Dmitri Arkhipov m|Siobhan Gallagher f|
Mateus Carvalho m|Ingrid Haugland f|Oluwaseun Adeyemi m|Camille Fontaine f|Rafael Quintero m|
Anneke Bosman f|Yusuf Demirci m|Meilin Zhou f|Thabo Nkosi m|Giulia Marchetti f|Arjun Mehra m|
Sanna Virtanen f|Callum Rennie m|Noor Haddad f|Bogdan Ilescu m|Hana Dvořáková f|
Emeka Chukwuma m|Leilani Kahale f|Joaquín Ferraro m|Astrid Lindqvist f|Ravi Subramaniam m|
Wanjiru Kamau f|Pieter de Wolf m|Zofia Krawczyk f|Marcus Ellery m|Daniela Vasconcelos f|
Tariq Al-Mansouri m|Élodie Marchand f|Kwame Asante m|Ilse Brandt f|Hiroshi Tanabe m|
Aoife Brennan f|Vikram Bhatt m|Nadia Petrescu f|Oskar Lindahl m|Beatriz Salgado f|
Samir Khoury m|Ewa Nowicka f|Declan Oduya m"""
PEOPLE = [p.strip() for p in PEOPLE.split("|")]

FIRMS = [
    ("Corvane", "Analytics", "SAS", "Lyon", "industrial analytics", "sensor gateway"),
    ("Halvik", "Marine", "AS", "Bergen", "marine electronics", "depth sounder"),
    ("Tessaro", "Packaging", "S.p.A.", "Bologna", "food packaging", "tray sealer"),
    ("Brandquist", "Logistics", "AB", "Gothenburg", "freight forwarding", "fleet tracker"),
    ("Oyelaran", "Medical", "Ltd", "Lagos", "medical devices", "infusion pump"),
    ("Kestrova", "Robotics", "s.r.o.", "Brno", "warehouse robotics", "picking robot"),
    ("Marundi", "Textiles", "Pvt Ltd", "Coimbatore", "textile machinery", "loom controller"),
    ("Veldhuis", "Climate", "B.V.", "Utrecht", "climate control", "heat pump"),
    ("Solenne", "Audio", "SARL", "Bordeaux", "pro audio", "mixing desk"),
    ("Tavira", "Solar", "Lda", "Porto", "solar installation", "string inverter"),
    ("Quillon", "Print", "Ltd", "Leeds", "commercial printing", "label printer"),
    ("Nakamori", "Instruments", "K.K.", "Osaka", "lab instruments", "spectrometer"),
    ("Ardentis", "Security", "Inc.", "Denver", "access control", "door controller"),
    ("Pellworth", "Dental", "Ltd", "Bristol", "dental supplies", "curing lamp"),
    ("Zambrano", "Agro", "S.L.", "Valencia", "irrigation", "drip controller"),
    ("Hollenbeck", "Werkzeuge", "GmbH", "Stuttgart", "power tools", "cordless drill"),
    ("Lumivex", "Lighting", "Oy", "Tampere", "stage lighting", "moving head"),
    ("Orbisk", "Networks", "ApS", "Aarhus", "office networking", "access point"),
    ("Brennock", "Coffee Systems", "Ltd", "Cork", "coffee equipment", "espresso machine"),
    ("Kaimaro", "Boards", "LLC", "Honolulu", "surfboard making", "foil board"),
    ("Rhenvald", "Pumps", "AG", "Basel", "industrial pumps", "dosing pump"),
    ("Ilvento", "Bikes", "S.r.l.", "Verona", "e-bikes", "cargo bike"),
    ("Taruvi", "Water", "Ltd", "Nairobi", "water treatment", "filter unit"),
    ("Greywick", "Software", "Ltd", "Dublin", "booking software", "check-in kiosk"),
    ("Polvani", "Cucine", "S.r.l.", "Turin", "commercial kitchens", "combi oven"),
    ("Cordillo", "Mining Supply", "SpA", "Santiago", "mining supply", "gas detector"),
    ("Vantorre", "Interiors", "NV", "Ghent", "office furniture", "standing desk"),
    ("Frostvik", "Cold Chain", "AB", "Malmö", "refrigerated storage", "temperature logger"),
    ("Baltrus", "Timber", "UAB", "Kaunas", "timber processing", "moisture meter"),
    ("Karavel", "Optik", "A.Ş.", "Izmir", "optics", "thermal camera"),
]

# "Z" and "QX" are only ever said or written with their number ("zed nine", "QX-12").
PRODUCTS = ["Vela", "Orlo", "Tamber", "Nivo", "Solvar", "Quenta", "Brisa", "Hexel", "Marlo",
            "Pivra", "Caldo", "Ostra", "Lumo", "Fenra", "Teglo", "Arvo", "Dunex", "Zolta", "Z",
            "QX"]  # fmt: skip
LETTERS = {"z": "zed", "q": "q", "x": "x"}

JOBS = ["ops lead", "procurement manager", "head of facilities", "field service engineer",
        "office manager", "purchasing assistant", "plant manager", "warehouse supervisor",
        "lab manager", "sales director", "account manager", "quality engineer",
        "maintenance planner", "finance controller", "head of customer support",
        "product manager", "logistics coordinator", "site manager", "buyer",
        "systems administrator", "clinic manager", "chief engineer", "fleet manager",
        "marketing lead", "category manager", "project engineer", "technical director",
        "store manager", "production scheduler", "install technician", "service desk lead",
        "regional sales manager"]  # fmt: skip

CITIES = ["Lyon", "Bergen", "Bologna", "Gothenburg", "Lagos", "Brno", "Coimbatore", "Utrecht",
          "Bordeaux", "Porto", "Leeds", "Osaka", "Denver", "Bristol", "Valencia", "Stuttgart",
          "Tampere", "Aarhus", "Cork", "Honolulu", "Basel", "Verona", "Nairobi", "Dublin",
          "Turin", "Santiago", "Ghent", "Malmö", "Kaunas", "Izmir", "Halifax", "Pune",
          "Monterrey", "Cape Town", "Kraków", "Auckland"]  # fmt: skip

HOBBIES = ["sailing", "trail running", "bouldering", "choir", "beekeeping", "chess",
           "woodworking", "birdwatching", "salsa", "open-water swimming", "pottery",
           "road cycling", "fly fishing", "sourdough baking", "astronomy", "allotment gardening",
           "photography", "kayaking", "jazz piano", "marathons", "cross-country skiing",
           "padel", "motorbike restoration"]  # fmt: skip

FILLERS = ["um", "uh", "like", "you know", "sort of", "erm", "so"]
MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december"]  # fmt: skip
DAYS = ["first", "third", "fifth", "ninth", "twelfth", "fourteenth", "twentieth", "thirtieth"]

GREET = ["thanks for calling, sales desk, how can i help", "good morning, you're through to support",
         "hello sales and support how can i help you today", "hi there thanks for holding",
         "support line, go ahead", "hi, sales, how can i help"]  # fmt: skip
DIAL = ["hi is that {f}", "hello, am i speaking to {n}", "hi {f}, it's the sales desk",
        "hi, trying to reach {n}", "oh hi {f} you picked up, great"]  # fmt: skip
PICKUP = ["speaking", "yeah that's me", "yep, who's this", "hi yes hello", "yeah hi"]
INTRO = ["hi yeah this is {n}", "hi um it's {n} here", "hello yes hi my name is {n}",
         "oh hi hi, {n} speaking, i was told to call this number", "hey it's {f}, {n}",
         "yeah hello this is {f} {s}", "hiya, {n} here"]  # fmt: skip
INTRO_AT = ["hi this is {n} from {w}", "hi yeah it's {n} at {w}", "hello, {n}, calling from {w}",
            "um hi it's {f} from {w}, {n}", "hi this is {n} i'm with {w}",
            "yeah hi {n}, {w}, um, we spoke last month"]  # fmt: skip
HELP = ["how can i help", "what can i do for you", "sure, go ahead", "okay, what's up",
        "right, what's it about"]  # fmt: skip

# (caller's words, the assistant's summary of them)
REASONS = [
    ("i'm ringing about the quote you sent over", "chasing the quote we sent"),
    ("we had a delivery that was meant to come tuesday and it just hasn't", "delivery due Tuesday has not arrived"),
    ("i wanted pricing for like two or three units", "wants pricing for two or three units"),
    ("there's a problem with the invoice, it doesn't match our purchase order", "invoice does not match their purchase order"),
    ("can we move the site visit, next week's not good for us", "wants to move the site visit"),
    ("i need someone from support to call me back", "asked for a callback from support"),
    ("just following up on the ticket from last week", "following up on last week's ticket"),
    ("we're thinking about a trial, like a thirty day thing", "interested in a 30-day trial"),
    ("i need the spec sheet, the pdf, for our engineers", "asked for the spec sheet"),
    ("does the warranty cover parts or just labour", "question about warranty cover"),
    ("we want to add two more seats to the contract", "wants to add two seats to the contract"),
    ("i got a missed call from this number", "returning our call"),
]  # fmt: skip
USE_REASONS = [
    ("it's the {x}, it keeps throwing an error on start up", "{X} throws an error on start-up"),
    ("our {x} has gone a bit funny since the update", "{X} misbehaving since the last update"),
    ("we need a second {x} for the new site", "wants a second {X} for a new site"),
    ("the {x} is making this like grinding noise", "{X} making a grinding noise"),
]  # fmt: skip
OUT_REASONS = [
    ("just following up on the quote", "followed up on the quote"),
    ("you left us a voicemail yesterday", "returned their voicemail"),
    ("calling about the renewal, it's coming up next month", "renewal due next month"),
    ("we've got the replacement part in, wanted to book a time", "replacement part in; booking a fitting"),
    ("just checking the install went okay", "checked the install went fine"),
]  # fmt: skip
FIRM_WHY = [("accounts calling about an unpaid invoice", "chasing an unpaid invoice"),
            ("returning your call about the trade account", "returning our call about a trade account"),
            ("calling about the stand at the trade fair", "about the stand at the trade fair")]  # fmt: skip
ISSUES = [("won't power on", "won't power on"), ("keeps rebooting", "keeps rebooting"),
          ("throws error forty one", "shows error 41"), ("has frozen, like the screen", "has a frozen display"),
          ("won't hold a charge", "won't hold a charge")]  # fmt: skip

NEXT = ["Follow up Friday.", "Send quote by Thursday.", "Call back Monday morning.",
        "Sent spec sheet; nothing else needed.", "Logged a ticket, support to call back.",
        "Waiting on their purchase order.", "Book a demo next week.", "Passed to accounts.",
        "Check stock and reply today.", "No action."]  # fmt: skip
CLOSE = [
    [("us", "great so i'll get that sent over today"), ("them", "perfect thanks so much bye")],
    [("us", "lovely, anything else"), ("them", "no that's it, cheers"), ("us", "cheers bye")],
    [("them", "okay brilliant, speak soon"), ("us", "speak soon, bye bye")],
    [("us", "okay i'll chase that and call you back"), ("them", "thanks [inaudible] bye")],
    [("them", "sorry i've got another call coming in"), ("us", "no worries, bye")],
    [("us", "right i think that's everything"), ("them", "yeah yeah great thanks bye")],
]  # fmt: skip
VM_HEAD = ["voicemail from {phone}: ", "Voicemail ({phone}): ", "new voicemail, {phone}: "]
VM_END = ["call me back on this number, thanks bye", "anyway give me a ring back, cheers",
          "okay thanks bye", "um yeah that's it, bye", "[inaudible] okay bye bye"]  # fmt: skip
POOR = ["[low confidence transcript]", "(audio quality poor)", "[partial transcript]"]

# What each kind of caller says and is told, fact by fact; "mate" is a colleague, user or
# member of staff, "item" a product a firm makes. A line is used only if its slots are known.
PERSON = {
    "ask": {
        "job": ["and what's your role there", "sorry what is it you do there", "and your job title"],
        "employer": ["and which company is this", "and who are you with", "sorry which firm"],
        "city": ["where are you based", "and whereabouts are you", "and the city on the account"],
        "born": ["and can i take your year of birth just for security", "year of birth please",
                 "and your date of birth"],
        "hobby": ["doing anything nice this weekend", "how was the weekend", "you get any time off"],
        "prior": ["have we dealt with you before", "i feel like i know your name from somewhere"],
        "uses": ["which unit is it", "and what have you got on site at the moment"],
        "mate": ["anyone else i should copy in", "who else should i keep in the loop"],
    },
    "answer": {
        "job": ["{J}", "i'm the {J}", "{aJ}, yeah", "um i'm the {J} so", "{J}, at {w}"],
        "employer": ["{w}", "oh sorry, {w}", "it's {w}"],
        "city": ["{c}", "{c}, yeah", "i'm in {c}", "we're -- i'm in {c}"],
        "born": ["{yw}", "it's {yw}", "uh the {dob} {yw}"],
        "hobby": ["oh {H} as usual", "{H}, always {H}", "ha yeah, {H} if the weather holds"],
        "prior": ["maybe, i used to be at {p}", "probably from {p}, i was there before this"],
        "uses": ["the {x}", "it's the {x}", "we've got the {x}"],
        "mate": ["yeah {m}, {mshe}'s our {mJ}", "{m}, {mJ}", "um {m} probably, the {mJ}"],
    },
    "say": {
        "job": ["i'm the {J} so this kind of lands on my desk", "i'm {aJ} by the way",
                "so i'm the uh the {J}, for my sins", "my title's {J} but honestly i do everything",
                "i'm the {J} at {w}", "i'm {aJ} over at {w}", "i work for {w}, {J}"],
        "employer": ["i'm over at {w}", "it's for {w}, that's who i work for",
                     "we're {w}, not sure you've got us on file"],
        "city": ["i'm calling from {c}", "i'm based in {c}", "i'm out in {c}", "i live in {c} anyway"],
        "born": ["i was born in {yw}", "born {yw} yeah", "i'm -- born in {yw}, don't say it"],
        "hobby": ["i've got {H} later so i'll keep it quick", "weekends are all {H} for me at the moment",
                  "{H} is my thing really"],
        "prior": ["i used to be at {p} actually", "before this i was with {p} for a few years",
                  "i came over from {p}", "i was at {p} before so i know you lot from there"],
        "uses": ["we've got the {x} on site", "we run the {x}", "we've been on the {x} a while now"],
        "mate": ["my colleague {m} looks after that side", "you can cc {m}, {mshe}'s the {mJ}",
                 "{m} on my team might call you too, {mshe}'s our {mJ}"],
    },
    "tell": {
        "job": ["{She} is {aJ}.", "Role: {J}.", "Works as {aJ}.", "{She} is {aJ} at {W}.",
                "{J} at {W}."],
        "employer": ["{She} works at {W}.", "Company: {W}.", "With {W}."],
        "city": ["Based in {C}.", "{She} is in {C}.", "Calling from {C}."],
        "born": ["Year of birth {Y} (security check).", "Born {Y}.", "Gave {Y} as year of birth."],
        "hobby": ["Mentioned {H} (small talk).", "Into {H}; good rapport topic.", "{She} is into {H}."],
        "prior": ["Previously at {P}.", "Used to work at {P}.", "{She} came over from {P}."],
        "uses": ["Has the {X} on site.", "Runs the {X}.", "Their unit: {X}."],
        "mate": ["Colleague {M} ({mJ}) to be copied in.", "Their {mJ} is {M}.",
                 "cc {M} ({mJ})."],
    },
    "paren": {"job": "{J}", "employer": "{W}", "city": "{C}", "born": "b. {Y}", "prior": "ex-{P}",
              "uses": "{X} user"},
    "field": {"job": "Role: {J}", "employer": "Company: {W}", "city": "Location: {C}",
              "born": "Year of birth: {Y}", "prior": "Previously: {P}", "uses": "Equipment: {X}",
              "hobby": "Small talk: {H}", "mate": "Also on the thread: {M} ({mJ})"},
    "log": {"job": "{J}", "employer": "{W}", "city": "{C}", "born": "b. {Y}", "prior": "ex-{P}",
            "uses": "{X}", "hobby": "chat: {H}", "mate": "cc {M}"},
    "vm": INTRO_AT + INTRO,
    "summary": ["Summary: {N}{paren} - {Why}. {next}", "Assistant summary: {N}{paren}, {Why}.",
                "--- summary: {N}{paren}: {Why}. {next}"],
}  # fmt: skip
FIRM = {
    "ask": {"trade": ["so what is it you do exactly"], "city": ["and where are you based"],
            "founded": ["how long have you been going"], "mate": ["who's the best person to talk to"],
            "item": ["and what do you make, roughly"]},
    "say": {
        "trade": ["so we do {T}, mostly", "yeah we're a {T} firm", "it's all {T} here really"],
        "city": ["we're in {c}, yeah", "this is the {c} office, the only one actually",
                 "we're based in {c}"],
        "founded": ["we've been going since {yw}", "since {yw}, the founder's daughter runs it now",
                    "founded in {yw} i think, yeah {yw}"],
        "mate": ["you'd want {m} really, {mshe}'s our {mJ}", "that'd be {m}, the {mJ}",
                 "{m} handles all that, {mshe}'s the {mJ}", "ask for {m}, {mJ}"],
        "item": ["oh the {x}, yeah that's ours, it's {aL}", "we make the {x}, the {L}",
                 "is this about the {x}, the {L}"],
    },
    "tell": {
        "trade": ["{T} firm.", "They do {T}.", "Trade: {T}."],
        "city": ["Based in {C}.", "Office in {C}.", "{C}-based."],
        "founded": ["Founded {Y}.", "Around since {Y}.", "Going since {Y}."],
        "mate": ["Contact: {M} ({mJ}).", "Ask for {M}, their {mJ}.", "{M} is their {mJ}."],
        "item": ["They make the {X} ({L}).", "Maker of the {X}, {aL}.", "Product: {X} ({L})."],
    },
    "paren": {"city": "{C}", "trade": "{T}", "founded": "est. {Y}"},
    "field": {"trade": "Trade: {T}", "city": "City: {C}", "founded": "Founded: {Y}",
              "mate": "Contact: {M}, {mJ}", "item": "Makes: {X} ({L})"},
    "vm": ["hi this is the front desk at {o}", "hello it's {o}", "hi, {o} here"],
    "summary": ["Summary: {Of}{paren} - {Why}. {next}", "Summary: {O}{paren}, {Why}."],
}  # fmt: skip
ITEM = {
    "ask": {"maker": ["which one is it exactly", "and who makes it", "what's the model"],
            "launched": ["how old is it", "when did that come out"],
            "mate": ["anyone else you know using one"]},
    "say": {
        "maker": ["it's a {b} one, the {xs}", "the {x2}, from {b}", "{b} make it, it's the {x2}",
                  "the {b} {xs}, yeah"],
        "launched": ["it came out in {yw}", "it's the {yw} model", "that one's from {yw}"],
        "mate": ["{m} has one too, {mshe}'s {maJ}", "{m} runs one, the {mJ}",
                 "{m} has a couple, {mshe}'s {maJ}"],
    },
    "tell": {
        "maker": ["Made by {B}.", "Maker: {B}.", "{B} unit."],
        "launched": ["Model launched {Y}.", "Launched {Y}, still in parts support.",
                     "{X2} is from {Y}."],
        "mate": ["{M} ({mJ}) has one too.", "Same unit as {M}, {mJ}.", "Reference user: {M} ({mJ})."],
    },
    "paren": {"launched": "launched {Y}", "maker": "{B}"},
    "vm": ["hi um it's about the {x}", "yeah hi, we've got a problem with our {x}",
           "hello, calling about the {x} we bought"],
    "summary": ["Summary: {X}{paren}: {Why}. {next}", "Summary: {X}{paren} - {Why}."],
}  # fmt: skip

# Scripts: (speaker labels or None for prose, separator, steps). A step is (speaker or "say" or
# "vm" or "maybe", options) or a command: talk, close, tell, fields, bullets, summary, log,
# "us=X", "them=X" ("them=X?" sometimes), "need:slot".

CALLED = ["Call with {N}{paren}: {Why}.", "Spoke to {N}{paren}: {Why}.",
          "Inbound call, {N}{paren}: {Why}.", "{N} called{paren}: {Why}."]  # fmt: skip
PEOPLE_SCRIPTS = {
    "inbound": (("Agent", "Caller"), "\n", [("us", GREET), ("them", INTRO_AT + INTRO),
                ("us", HELP), ("them", ["{why}"]), "them={F}?", "talk", "close"]),
    "outbound": (("Me", "Them"), "\n", ["Why={Out}", ("us", DIAL), ("them", PICKUP),
                 ("us", ["hi it's the sales desk, {out}", "hiya, sales desk here, {out}", "{out}"]),
                 "talk", "close"]),
    "midname": (("Agent", "Caller"), "\n", [("us", GREET),
                ("them", ["hi yeah {why}", "hello, um, {why}", "oh hi, {why}"]), "talk",
                ("us", ["sorry i didn't catch your name", "and who am i speaking to",
                        "can i just get a name for the notes"]),
                ("them", ["oh sorry, it's {n}", "it's {f}, {f} {s}", "{n}, sorry"]), "close"]),
    "spelled": (("Agent", "Caller"), "\n", [("us", GREET),
                ("them", ["hi it's {f}, {why}", "hi this is {f} um {why}"]),
                ("us", ["and your surname {f}", "sorry and the surname", "and last name"]),
                ("them", ["{s}, that's {spelt}", "{s}. {spelt}", "it's {s}, {spelt}", "{s}"]),
                "talk", "close", "summary"]),
    "corrected": (("Agent", "Caller"), "\n", [("us", GREET), ("them", [i + ", {why}" for i in INTRO]),
                  ("us", ["okay so that's {f} {mis}", "sorry, {f} {mis}, is that right"]),
                  ("them", ["no {s}. {s}", "sorry, {s} not {mis}", "close, {s}"]),
                  ("us", ["sorry, {s}, got it", "{s}, okay", "got it sorry"]), "talk", "close"]),
    "reception": (("Me", "Them"), "\n", ["Why={Out}", ("them", ["{w}, good morning", "good afternoon {w}",
                  "hi you're through to {w}", "good morning, front desk", "hello reception"]),
                  ("us", ["hi could i speak to {n} please", "hi is {f} about", "hi, {n} please"]),
                  ("them", ["who's calling please", "can i ask what it's about"]),
                  ("us", ["it's the sales desk, {out}"]),
                  ("them", ["one moment [music]", "hold on i'll see if {she}'s in [music]"]),
                  "them={F}", ("them", ["hello, {f} speaking", "hi yeah {f} here", "{f}"]),
                  "talk", "close"]),
    "security": (("Agent", "Caller"), "\n", [("us", GREET),
                 ("them", ["hi yeah it's about my account", "hiya, i need a bit of help"]),
                 ("us", ["sure, can i take your full name and year of birth please"]),
                 ("them", ["yeah it's {n}, {yw}", "{n}. {yw}", "{f} {s}, born {yw}"]),
                 ("us", ["thanks {f}, and what's it regarding", "lovely, what can i do"]),
                 ("them", ["{why}"]), "talk", "close"]),
    "smalltalk": (("Me", "Them"), "\n", ["Why={Out}", ("us", DIAL), ("them", PICKUP),
                  ("us", ["how are you, good weekend", "how's things, get up to much"]),
                  ("them", ["yeah not bad, {H} mostly, you", "oh you know, {H}, the usual"]),
                  ("us", ["ha nice. anyway {out}"]), "talk", "close"]),
    "conference": (("Agent", "{F}"), "\n", ["need:m_0",
                   ("us", ["hi both, thanks for making the time", "hi, is that everyone"]),
                   ("them", ["hi yeah {f} here and i've got {m_0} with me"]),
                   ("{MF_0}", ["hi, {mf_0}, i'm the {mJ_0}", "hello, yeah, {mJ_0} here"]),
                   ("us", HELP), ("them", ["{why}"]), "talk", "close"]),
    "transfer": (("Agent", "Caller"), "\n", [("us", GREET), ("them", [i + ", {why}" for i in INTRO]),
                 ("us", ["okay let me put you through to support [music]"]), "us=Support",
                 ("us", ["hi, you're through to support, is that {f}", "hi {f}, support here"]),
                 ("them", ["yeah", "yes hi", "that's me"]), "talk", "close"]),
    "voicemail": (None, "\n", [("vm", VM_HEAD), ("maybe", ["Called back, went to voicemail again.",
                  "Called back; {F} will email instead.", "Tried twice, no answer."])]),
    "voicemail summary": (None, "\n", [("say", ["Voicemail transcription ({phone}):",
                          "voicemail, {phone}, transcript:"]), ("vm", [""]), "summary"]),
    "called": (None, " ", [("say", CALLED), "tell", ("say", NEXT)]),
    "structured": (None, "\n", [("say", ["Caller: {N}", "Contact: {N}", "Who: {N}"]), "fields",
                   ("say", ["Reason: {Why}"]), ("say", ["Next: {next}"])]),
    "missed": (None, " ", [("say", ["Missed call from {N} ({phone}), no voicemail.",
               "Missed call: {N}, {phone}."]), "tell", ("say", ["Try again after lunch.",
               "Will try again tomorrow.", "Texted to say we'll call."])]),
    "returned": (None, " ", [("say", ["Returned {D}'s call ({N}).", "Called {D} back. That's {N}.",
                 "Rang {N} back."]), "tell", ("say", ["Re: {Why}. {next}"])]),
    "log": (None, "\n", ["log"]),
    "bullets": (None, "\n", [("say", ["Call notes, {N}:", "Notes from the call with {N}",
                "{N} - call notes"]), "bullets", ("say", ["- Reason: {Why}."]), ("say", ["- next: {next}"])]),
    "update": (None, " ", [("say", ["Contact update after call: {N}.", "Updated the record for {N}."]),
               "tell", ("say", ["Reason for the call: {Why}."])]),
    "handover": (None, " ", [("say", ["For whoever picks this up: {N} rang while you were out ({Why}).",
                 "Handover: {N} called, {Why}."]), "tell", ("say", NEXT)]),
}  # fmt: skip
FIRM_SCRIPTS = {
    "phoned": (("Me", "Them"), "\n", [("them", ["{o}, good morning", "good afternoon {o}, how can i help",
               "{o} hello", "hi you're through to {o}"]),
               ("us", ["hi, um, i'm trying to find out a bit about what you do",
                       "hi quick one, we've got a customer asking about you"]), "talk", "close"]),
    "rang": (("Agent", "Caller"), "\n", [("us", GREET), ("them", ["hi it's the accounts team at {o}, {why}",
             "hiya, {o} here, {why}"]), "talk", "close", "summary"]),
    "summary": (None, " ", [("say", ["Call with reception at {Of}{paren}.", "Rang {O}{paren}.",
                "{O} called{paren}: {Why}."]), "tell", ("say", NEXT)]),
    "voicemail": (None, "\n", [("vm", VM_HEAD)]),
    "card": (None, "\n", [("say", ["Company: {Of}"]), "fields",
             ("say", ["Source: call with their front desk.", "From a call with reception."])]),
}  # fmt: skip
ITEM_SCRIPTS = {
    "support": (("Agent", "Caller"), "\n", [("us", GREET), ("them", [v + ", {why}" for v in ITEM["vm"]]),
                "talk", "close"]),
    "sales": (("Them", "Me"), "\n", ["Why=pricing enquiry, sent the price list",
              ("us", ["hi, um, do you stock the {x}", "hiya, do you do the {x}"]),
              ("them", ["we do yeah, it's {aL}", "yep, that's {aL}"]), "talk", "close"]),
    "summary": (None, " ", [("say", ["Support call re {X} ({L}): {Why}.",
                "Caller's {X} ({L}): {Why}.", "Sales enquiry: pricing for three {X} units ({L})."]),
                "tell", ("say", NEXT)]),
    "voicemail": (None, "\n", [("vm", VM_HEAD)]),
}  # fmt: skip
