"""The minutes generator's wording (bench/corpora/minutes.py): its name pools (people, firms,
products, jobs, cities, hobbies) and the sentence templates of its three genres (minutes,
e-mail threads, handover notes), kept apart from the code that writes the notes."""

from __future__ import annotations

PEOPLE = """Adaeze Umeadi f|Folarin Oyebanji m|Mei-Ling Tsao f|Rangi Te Awhitu m|Aroha Paewai f
|Bogdan Iliescu m|Ruxandra Voiculescu f|Yerlan Abenov m|Dinara Seitkali f|Joaquín Etcheverry m
|Lucía Barrientos f|Harpreet Dhillon f|Lwazi Mabandla m|Yonatan Shalev m|Kanokwan Srisuk f
|Thanakorn Boonmee m|Gwenaëlle Le Goff f|Iñaki Arregi m|Rūta Žemaitytė f|Darius Kavaliauskas m
|Enkhjin Batbayar f|Dilan Amedi f|Tavita Leiataua m|Yoandri Céspedes m|Meriem Ben Slimane f
|Hodan Warsame f|Matej Hrušovský m|Rói Joensen m|Kavitha Selvaraj f"""
FIRMS = [
    ("Korvald", "Freight", "AS", "Trondheim", "cold-chain freight", "reefer monitor"),
    ("Tamarind", "Systems", "Pvt Ltd", "Coimbatore", "textile automation", "loom controller"),
    ("Halcyra", "", "B.V.", "Eindhoven", "medical imaging", "portable scanner"),
    ("Vltavin", "Glass", "s.r.o.", "Liberec", "technical glass", "kiln controller"),
    ("Qaraghan", "", "LLP", "Almaty", "grain storage", "silo sensor"),
    ("Murrindi", "Water", "Pty Ltd", "Townsville", "irrigation", "flow meter"),
    ("Ferrandis", "Industrial", "S.L.", "Zaragoza", "tooling", "torque wrench"),
    ("Anvaya", "Health", "Pvt Ltd", "Kochi", "telehealth", "vitals monitor"),
    ("Coldbrook", "Electric", "LLC", "Omaha", "grid hardware", "smart meter"),
    ("Tupana", "Bio", "Ltda.", "Manaus", "plant extracts", "bioreactor"),
    ("Vessna", "", "UAB", "Kaunas", "laser cutting", "fibre laser"),
    ("Minatomi", "Precision", "Co., Ltd.", "Hamamatsu", "motion control", "servo drive"),
    ("Aduramo", "Power", "Ltd", "Ibadan", "off-grid solar", "charge controller"),
    ("Glaswen", "Robotics", "Ltd", "Swindon", "farm robotics", "weeding robot"),
]
PRODUCTS = ["Zentor", "Ortana", "Miloq", "Tessaro", "Quadrel", "Vantiq", "Lirra", "Obelo",
            "Poltra", "Ekwa"]  # fmt: skip
JOBS = ["account manager", "maintenance supervisor", "purchasing manager", "people partner",
        "project engineer", "chief of staff", "QA engineer", "fleet manager", "category manager",
        "research director", "head of legal", "customer success lead", "warehouse manager",
        "site reliability engineer", "programme director", "internal auditor"]  # fmt: skip
CITIES = ["Kisumu", "Cluj-Napoca", "Shymkent", "Hobart", "Chiang Mai", "Rosario", "Tromsø",
          "Klaipėda", "Sfax", "Hilo", "Plzeň", "Madurai", "Ulaanbaatar", "Nantes", "Hargeisa",
          "Dunedin"]  # fmt: skip
HOBBIES = ["bell ringing", "canyoning", "quilting", "amateur radio", "fencing",
           "cross-country skiing", "calligraphy", "roller derby", "model railways", "free diving",
           "ultimate frisbee", "cryptic crosswords", "archery", "lindy hop"]  # fmt: skip

# Headers, by genre; the NAMED ones carry a firm.
HEAD = {
    "minutes": ["Minutes, {team} sync {date}", "Minutes — {team} sync, {date}",
                "MINUTES: {team} call, {date}", "Meeting notes, {team} review ({date})",
                "Mins, {team} meeting {date}", "{team} sync {date} - minutes",
                "Minutes ({date}), {team}"],
    "email": ["Subject: Re: {topic}", "Fwd: {topic}", "RE: RE: {topic}", "Subj: Fw: {topic}",
              "Re: {topic} — forwarded from {fw}", "Thread: {topic} ({n} msgs)"],
    "handover": ["Handover — {date}", "HANDOVER ({date})", "Handover notes for cover, {date}",
                 "Handing over while I'm on leave ({date})", "Shift handover {date}",
                 "Cover notes, {date}"],
}  # fmt: skip
NAMED = {
    "minutes": ["Minutes — {N} review, {date}", "{N} QBR, minutes ({date})",
                "Minutes, call with {N} {date}"],
    "email": ["Subject: Re: {N} — {topic}", "Fwd: {topic} ({N})", "RE: {N} {topic}"],
    "handover": ["Handover: {N} account", "Handover — who owns {N} ({date})",
                 "Handover, {N} ({date})"],
}  # fmt: skip
TEAMS = ["ops", "renewals", "vendor", "steering group", "Q{q} planning", "onboarding",
         "procurement", "account", "escalation", "integration", "site"]  # fmt: skip
TOPICS = ["renewal", "pricing for next year", "site access", "Q{q} invoice", "contract redlines",
          "pilot timeline", "intro", "onboarding docs", "PO {n}", "support tickets",
          "delivery slot"]  # fmt: skip
FORWARDED = ["the shared inbox", "accounts payable", "the support queue", "my other account",
             "the old thread"]  # fmt: skip
ATTEND = ["Attendees: ", "Present: ", "attendees - ", "In the room: ", "Attendees — "]
FILLERS = ["me (notes)", "the agent, taking notes", "two from finance", "someone from legal",
           "our account lead", "the night-shift lead"]  # fmt: skip

# How a note about a person opens, by genre: naming the employer, not naming it, or no facts.
OPEN_AT = {
    "minutes": [
        "Intro from our contact, the {J} at {O}, {P}.",
        "{P} joined for {O} — {J}, dialling in from {C}.",
        "{P} ({J}, {O}) walked us through the rollout plan.",
        "New face: {P}, who took over as {J} at {O}.",
        "{O} sent {P}, their {J}, instead of the usual rep.",
        "Welcome to {P}, {J} on the {O} side.",
        "{P} presented for {O}; title on the slide: {J}.",
        "Update from {P} ({O}): now {J}, working from {C}.",
    ],
    "email": [
        "{P} ({J}, {O}) replied first thing.",
        "Forwarded from {P} — {J} at {O}.",
        "{P} wrote back for {O}; signs off as {J}.",
        "Adding {P} on copy — {O}'s {J}.",
        "Reply from {P} of {O}, the {J}, out of {C}.",
        "Per {P}, {J} at {O}: the draft is fine.",
        "Our contact at {O}, the {J}, {P}, answered overnight.",
    ],
    "handover": [
        "{P} owns the {O} account on their side — {J}.",
        "Key contact at {O}: {P}, {J}, in {C}.",
        "Owner at {O}: {P} ({J}).",
        "Our contact, the {J} at {O}, {P}, expects a call {day}.",
        "{P} is the {J} at {O}; treat as decision maker.",
        "Escalations go to {P} ({O}), {J}.",
    ],
}
OPEN_ALONE = {
    "minutes": [
        "Intro from our contact, the {J}, {P}.",
        "{P} joined — {J}, dialling in from {C}.",
        "{P} ({J}) gave the status update.",
        "New face: {P}, {aJ} out of {C}.",
        "Guest: {P}, {J}, calling from {C}.",
        "{P}, the {J}, raised the budget question.",
        "Round of intros; {P} is {aJ}, lives in {C}.",
    ],
    "email": [
        "{P} replied first thing; signs off as {J}.",
        "Forwarded from {P}, {aJ} in {C}.",
        "Adding {P} on copy — {J}, {C} office.",
        "Reply from {P} ({J}), sent from {C}.",
        "Per {P} ({J}): fine to proceed.",
        "Our contact, the {J}, {P}, answered overnight.",
    ],
    "handover": [
        "{P} owns the account — {J}, works from {C}.",
        "Key contact: {P}, {J}, {C}.",
        "Our contact, the {J}, {P}, expects a call {day}.",
        "{P} ({J}) — treat as decision maker.",
        "Escalations go to {P}, the {J}.",
        "Main person to know: {P}, {aJ} in {C}.",
    ],
}
OPEN_BARE = {
    "minutes": ["{P} chaired.", "{P} ran the meeting.", "Main item: {P}'s proposal.",
                "{P} opened with the numbers.", "Item 1 — update from {P}.",
                "{P} asked for this slot."],
    "email": ["{P} answered everyone at once, again.", "Thread started by {P}.",
              "Forwarding {P}'s note below.", "{P} bounced this back to us.",
              "Three replies from {P} overnight.", "Chasing {P} on this one."],
    "handover": ["Open item with {P}.", "{P} is waiting on us.",
                 "Ongoing thread with {P}, details below.", "{P} — read this before calling.",
                 "Picking up from {P}'s last ticket.", "Handing {P} over to you."],
}  # fmt: skip

# What is said about a person, {R} being how the note refers to them by now.
LINES = {
    "job": ["{R} confirmed {poss} title is {J}.", "{R} is {aJ} now, per the new signature.",
            "Title correction: {R} is the {J}, not the deputy.",
            "{R} took over as {J} after the reshuffle.", "{R}'s role on this is {J}.",
            "{R} ({J}) has the final say.", "{R} approves spend in {poss} capacity as {J}."],
    "employer": ["Confirmed that {R} is on the {O} side.", "{R} is {O} staff, not a contractor.",
                 "The integration is run by {R}'s people at {O}.", "{R} speaks for {O} on this.",
                 "{R} is with {O}; they invoice monthly.",
                 "{O} is where {R} sits, in case anyone asks."],
    "city": ["{R} is in {C}, hours ahead of us.", "{R} dials in from {C}.",
             "{R} is {C}-based, so watch the time zone.", "{R} mostly works from home in {C}.",
             "Travel: {R} will come over from {C}.", "{R} covers the region from {C}."],
    "born": ["{R}'s badge form gives {Y} as year of birth.",
             "YOB for {R}: {Y} (from the travel booking).",
             "{R} was born in {Y}; came up re the pension scheme.",
             "{R} mentioned being born in {Y}.", "HR sheet: {R}, born {Y}.",
             "Birth year on the visa letter for {R}: {Y}."],
    "hobby": ["AOB: {R} is mad about {H}.", "{R} leaves early on Thursdays for {H}.",
              "Small talk went to {H} — {R} is keen.", "{R} asked if anyone else does {H}.",
              "{R}'s out-of-office mentioned {H}.", "Good opener with {R}: {H}.",
              "{R} spends most weekends on {H}."],
    "prior": ["{R} joined from {O} last year.", "Before this role {R} was with {O}.",
              "{R} still has friends at {O}; useful back channel.",
              "Background: {R} spent a few years with {O}.", "{R} left {O} on good terms.",
              "{R} knows the {O} people from {poss} time there."],
    "uses": ["{R}'s team is running the {X}; two units down.", "{R} raised a ticket on the {X}.",
             "{R} wants a second {X} for the back office.",
             "{R} says the firmware update bricked one of their {XS} units.",
             "Loaner {X} is with {R} until month end.", "{R} signed for the {X} delivery."],
    "mate": ["{Q} ({J2}) sat in from {R}'s side.", "{R} brought {Q}, {aJ2}.",
             "{Q}, {aJ2} on {R}'s team, took notes.",
             "{R} and {Q} ({J2}) split the follow-ups.", "{R} deferred to {Q}, the {J2}.",
             "{Q} ({J2}) reports to the same boss as {R}."],
}  # fmt: skip
# The same, quoted from the person's own e-mail.
QUOTED = {
    "job": ["> I'm the {J} here now, so send it to me.", "> As {J} I can sign off up to 10k.",
            "> (I moved into the {J} role last month.)"],
    "employer": ["> Everyone at {O} is off on the 14th.",
                 "> Legal at {O} will want to see it first.",
                 "> We at {O} are ready whenever you are."],
    "city": ["> I'm in {C} all week, happy to meet there.",
             "> I've relocated to {C}, so mornings work best.",
             "> Calls only please, I'm stuck in {C}."],
    "born": ["> Year of birth for the badge: {Y}.", "> I was born in {Y}, if the form insists."],
    "hobby": ["> Sorry for the slow reply, I was away doing {H}.",
              "> Off Friday for {H}, back Monday.", "> Thursdays are {H} night, so not then."],
    "prior": ["> When I was at {O} we did it the other way round.",
              "> I used to work at {O}, so I know their kit."],
    "uses": ["> Our {X} units keep dropping off the network.",
             "> We're trialling the {X}; first impressions good.",
             "> Could you send the manual for the {X}?"],
    "mate": ["> Copying {Q}, our {J2}.", "> {Q} ({J2}) will pick this up while I'm out."],
}  # fmt: skip

ORG = {
    "minutes": [
        "Vendor review: {O} — {T}, head office in {C}, founded {Y}.",
        "{O} presented their roadmap; they've done {T} since {Y}.",
        "Item 2: {O} ({C}), contract up for renewal.",
        "Supplier update from {O}: {T}, run out of {C}.",
        "Discussed {O}, the {T} vendor from {C}.",
        "{O} (founded {Y}) asked for a price rise.",
        "Agreed to keep {O} as {T} supplier for another year.",
    ],
    "email": [
        "Fwd from {O} accounts: they've been doing {T} since {Y}.",
        "{O} replied — the {T} people in {C}, not the other lot.",
        "The vendor ({O}) confirmed their office is in {C}.",
        "Quote attached from {O}; {T}, going since {Y}.",
        "{O} wants the PO before they ship. They're in {C}.",
        "Re the {T} vendor: it's {O}, registered in {Y}.",
    ],
    "handover": [
        "The {O} account is yours from Monday — {T}, {C}.",
        "{O} ({T}, {C}): renewal due, they pay late.",
        "Vendor to know: {O}, founded {Y}, does our {T}.",
        "{O} — office in {C}; around since {Y}; {T}.",
        "You'll own {O} from now on. They do {T}.",
        "{O} holds our {T} contract, out of {C}.",
    ],
}
ORG_MORE = ["The vendor dates back to {Y}.", "They're headquartered in {C}.",
            "Legal entity on invoices: {Of}.", "{Os} does {T} and nothing else.",
            "Their {C} office handles billing.", "Contracts say {Of}, everyone says {Os}.",
            "{Os} was set up in {Y}.", "they've been in {C} since {Y}."]  # fmt: skip
STAFF = ["Their {J2}, {Q}, leads on it.", "Contact there: {Q} ({J2}).",
         "{Q}, {aJ2}, is the one who answers.", "{Q} ({J2}) keeps their side honest.",
         "Escalate to {Q}, their {J2}.", "{Q} ({J2}) spoke for their side.",
         "{Q} is their {J2}; good relationship."]  # fmt: skip
MAKES = ["They build the {X} in-house; it's {aL}.", "The {X} is the {L} they sell us.", "We buy the {X} straight from {Os}.",
         "Still waiting on {XS} units from them.", "The vendor's {X} ({L}) is what we run.",
         "Price list for the {X} came from {Os}."]  # fmt: skip
ITEM = {
    "minutes": ["Item: {X} rollout — {L}, launched {Y}.", "Status of the {X}: two sites live.",
                "{X} ({L}) — defect rate down this month.", "Decision: stay on the {X} for now.",
                "Discussed the {X}, the {L} released in {Y}.",
                "{X}: {n} units in the field, no new faults."],
    "email": ["Re: {X} — the {L}, not the handheld.", "Spec sheet for the {X} below ({L}, {Y}).",
              "Anyone know if the {X} ({L}) is still sold?", "Fwd: {X} recall notice.",
              "Quote for {n}x {X} attached.",
              "Question from the field on the {X}: is it the {Y} model?"],
    "handover": ["{X}: we run {n} units; {L}, model year {Y}.", "Kit on site: the {X} ({L}).",
                 "The {X} is our {L}; launched {Y}.", "Watch the {X} — firmware is flaky.",
                 "Spares for the {X} are in the cage."],
}  # fmt: skip
BY = ["The {X} is {M} kit, {aL} from {Y}.", "The {X} comes from {M}.", "Vendor for the {X} is {M}.",
      "Lead time on the {Mb} {X} is now eight weeks.", "RMA raised with {M} on a {X}.",
      "{M} put out the {X} in {Y}.", "The {X} ({L}) — supplier is {M}, slow on RMAs."]  # fmt: skip
ITEM_MORE = ["On sale since {Y}.", "It's {aL}, for anyone new.", "Everyone just calls it the {XS}.",
             "Firmware on the {X2} is two versions behind.", "Old stock is labelled {X2}.",
             "Model year {Y}."]  # fmt: skip
USERS = ["{Q} ({J2}) runs three of them.", "{Q} is the main user.",
         "{Q}, {aJ2}, asked for training on it.", "{Q} reported one overheating.",
         "Ask {Q} ({J2}) before changing the config.", "{Q} wants one at every site."]  # fmt: skip

# Closing lines: actions (minutes), to-dos (handover), sign-offs (e-mail) and the like.
ACTS = ["{A} to send the revised quote by {day}.", "{A} to confirm headcount by {day}.",
        "{A} to book the follow-up.", "{A} to circulate the deck.",
        "{A} to chase legal on the redlines.", "{A} to update the tracker.",
        "{A} to get a date for the site visit."]  # fmt: skip
ACT_MARK = ["Action: ", "ACTION: ", "action - ", "Action item: ", "TODO "]
TODOS = ["{A} owes us a signed PO.", "reply to {A} by {day}.", "chase {A} if nothing by {day}.",
         "don't let {A} slip past {day}.", "{A} is waiting on the credit note."]  # fmt: skip
TODO_MARK = ["To do: ", "Open: ", "Pending — ", "TODO: "]
LABELS = ["Context: ", "FYI: ", "Watch out: ", "Tip: ", "Note: "]
ENDS = {
    "minutes": ["Next sync {day}.", "AOB: none.", "Meeting ran over by 10 min.",
                "Minutes to be approved next time."],
    "email": ["Will chase if no reply by {day}.", "Sent from mobile, excuse typos.",
              "Replies inline.", "Thanks all.", "Cheers.", "Flagging for {day}."],
    "handover": ["Tickets are in the shared queue.", "Ping me if stuck.",
                 "Nothing urgent till {day}.", "Renewal date is in the tracker.",
                 "Don't promise discounts."],
}  # fmt: skip
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "EOW", "end of month",
        "next week", "the 15th"]  # fmt: skip
MONTHS = "January February March April May June July August September October November December"
NEAR = dict(zip("qwertyuiopasdfghjklzxcvbnm", "wertyuioposdfghjklkxcvbnmn", strict=True))
