"""Wording tables for bench/corpora/standup_logs.py: name pools, facts, and the phrases of
stand-ups, tracker comments, retros, vendor updates and call logs. Written for that corpus alone,
without reading the service or the other generators.

Slots: {P} person, {F} firm, {X} product, {S} the note's main thing, {J}/{aJ} job, {C} city,
{Y} year, {H} hobby, {E} e-mail, {T} phone, {W}/{aW} what a firm does, {K}/{aK} product kind;
untracked: {d} date, {w} week, {s} sprint, {n} number, {tk} ticket prefix, {R} room, {U} city,
{tool} a tool, {topic} a call topic, {q} quarter.
"""

# fmt: off
GIVEN_F = """Aino Réka Folake Kavitha Miren Thanh Aroha Killa Nino Sigrún Elif Zofia Inês Nurul
Selam Laia Kadri Aigerim Wanjiru Shirin Haruka Eleni Ioana Bára Maricel Thandeka Oona Dagny
Ngozi Ximena""".split()
GIVEN_M = """Tapio Bence Oluwaseun Senthil Iker Quang Wiremu Amaru Levan Hjalti Emre Dohyun Bartosz
Tiago Hafiz Dawit Emyr Jordi Yerlan Baraka Dariush Kenta Stavros Mircea Vojtěch Rodel Sipho Eero
Tevita Chidi Matías""".split()
SURNAMES = """Varga Koskinen Adeyemi Raghunathan Etxeberria Trinh Parata Mamani Beridze Sveinsson
Yıldız Hwang Nowak Azevedo Ismail Tesfaye Llwyd Vilaró Tamm Abenov Mwangi Chaudhary Farahani
Watanabe Papadakis Dumitrescu Novotný Dimaculangan Dlamini Kallio Fonoti Okonkwo Halvorsen Quispe
Lindqvist Bakırcı Oyelaran Szabó Hatanaka Rautio Castañeda Ndlovu Haddad Petrossian Ferrandis
Obradović Jansone Kipkemboi""".split()
FIRM_STEMS = """Korvana Belmaro Sahrani Vidaro Kestuva Ondrel Tolkari Zumbra Okavi Ilvesta Quenro
Pasolda Drumvik Lumesa Hakkila Serapha Ventoor Brasko Calvetti Azuleta Temboni Nordhal Ibarrola
Moravek Achterberg Fjelstad Nyandoro Tanizawa Urquiola Selvadur Krasnopol Waikora Ostemark
Gaviota""".split()
PRODUCT_STEMS = """Vanta Orlo Kesti Mirabo Tundro Lakko Ombra Pelto Sirka Quarro Tarvo Brisa Kumo
Ardel Fenna Jalvo Ravna Sulka Otava Venka Haldo Ixora Kivra Dunmo Zarko Lyrax Pikku Talvi""".split()
LEGAL = """GmbH|Ltd|Inc.|S.A.|Oy|AB|Pty Ltd|K.K.|S.r.l.|B.V.|A/S|sp. z o.o.|Kft.|S.L.|AS|SAS|LLC|
Ltda.|AG|d.o.o.""".replace("\n", "").split("|")
COMMA_LEGAL = {"Ltd", "Inc.", "LLC"}

# (descriptors, what the firm does, kinds of thing it sells)
SECTORS = [
    (["Marine Engineering", "Marine"], ["marine electronics maker", "ship systems supplier"],
     ["sonar module", "bridge display", "bilge sensor"]),
    (["Logistik", "Freight Partners", "Cargo"], ["freight forwarder", "3PL and warehousing outfit"],
     ["route planner app", "pallet tracker", "dock scheduling tool"]),
    (["Instruments", "Messtechnik", "Metrology"], ["test & measurement vendor", "lab kit maker"],
     ["oscilloscope", "torque analyser", "spectrometer"]),
    (["Robotics", "Industrial Automation"], ["automation integrator", "warehouse robotics shop"],
     ["picking arm", "AMR platform", "conveyor controller"]),
    (["Telecom", "Networks", "Radio Systems"], ["network gear vendor", "telecom hw supplier"],
     ["edge router", "mesh radio", "5G modem"]),
    (["Software", "Digital", "Data Services"], ["software house", "SaaS vendor", "data platform co"],
     ["ticketing plugin", "ETL service", "reporting suite"]),
    (["Optics", "Photonics"], ["optics manufacturer", "machine-vision supplier"],
     ["thermal camera", "line-scan camera", "lidar unit"]),
    (["Payments", "Payment Systems"], ["payments processor", "card terminal vendor"],
     ["payment terminal", "POS tablet", "payout API"]),
    (["Medtech", "Health Devices"], ["medical device company", "clinical hardware supplier"],
     ["infusion pump", "patient monitor", "vitals tablet"]),
    (["Energia", "Power Solutions", "Grid Systems"], ["energy storage firm", "grid hw supplier"],
     ["battery cabinet", "smart meter", "inverter"]),
    (["Printing", "Label Systems"], ["label & print hardware maker", "print hw vendor"],
     ["label printer", "barcode scanner", "thermal printer"]),
    (["Cloud", "Hosting"], ["hosting provider", "managed cloud shop"],
     ["object storage tier", "managed k8s plan", "CDN add-on"]),
    (["Agritech", "Agro Systems"], ["agri-tech company", "farm sensor maker"],
     ["soil probe", "irrigation controller", "drone sprayer"]),
    (["Security", "Cyber Defence"], ["security vendor", "pen-test and SOC provider"],
     ["firewall appliance", "hardware key", "SIEM connector"]),
]

JOBS = """release manager|QA lead|data engineer|site reliability engineer|procurement officer|
account manager|firmware developer|scrum master|product owner|UX researcher|security analyst|
solutions architect|support engineer|integration specialist|test automation engineer|
hardware buyer|logistics planner|finance controller|legal counsel|DevOps engineer|payments lead|
mobile developer|technical writer|field service technician|data protection officer|
vendor manager|backend developer|customer success manager""".replace("\n", "").split("|")
CITIES = """Tampere|Pécs|Ibadan|Madurai|Donostia|Huế|Rotorua|Cusco|Kutaisi|Akureyri|Eskişehir|
Daejeon|Wrocław|Coimbra|Ipoh|Mekelle|Aberystwyth|Girona|Tartu|Shymkent|Kisumu|Pune|Tabriz|Sendai|
Patras|Cluj-Napoca|Brno|Cebu|Durban|Oulu|Bergen|Valparaíso|Arequipa|Gdańsk|Linz|Trondheim
""".replace("\n", "").split("|")
HOBBIES = """bouldering|sea kayaking|choir singing|chess|beekeeping|trail running|pottery|
birdwatching|amateur radio|salsa|orienteering|woodturning|sourdough baking|cyclocross|padel|
fly fishing|sailing|tabletop RPGs|cross-country skiing|go (the board game)|rock climbing|
stand-up comedy open mics""".replace("\n", "").split("|")
ROOMS = "Basalt Heron Lintel Cobalt Juniper Tidewater Saffron Kiln Larch Quarry".split()
TOOLS = ["the build bot", "Pinwheel CI", "the Hollis board", "staging-2", "the on-call pager",
         "Tresco wiki", "the Brindle dashboard", "the shared drive", "the release train"]
TOPICS = ["renewal", "the invoice dispute", "access to the test rig", "onboarding", "SSO setup",
          "the delayed shipment", "the RMA", "pricing for Q3", "the pilot scope", "redlines"]
TICKETS = "TICKET OPS PLAT INFRA PAY HW SUP VND QA".split()
MAIL = ["postbox.example", "contractor-mail.net", "teamhub.example", "ext.partners.example"]
MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()
MONTHS_LONG = """January February March April May June July August September October
November December""".split()
DAYS = "Mon Tue Wed Thu Fri Sat Sun".split()

P_INTRO = {
    "": ["{P}", "{P}", "{P}"],
    "J": ["{P} ({J})", "{J} {P}", "{P}, our {J},", "{P}, who works as {aJ},", "{P} [{J}]",
          "{P} - {J} -", "{P}, {J},", "{P} (was moved to {J} role last month)", "{P}, now {aJ},",
          "{P} (the {J})", "{P}, {aJ} by trade,", "{P} (role: {J})"],
    "C": ["{P} ({C})", "{P} from the {C} office", "{P}, based in {C},", "{P} (remote, {C})",
          "{C}-based {P}", "{P} @ {C}", "{P}, who lives in {C},", "{P} (loc {C})"],
    "CJ": ["{P}, {J} in {C},", "{P} ({J}, {C})", "{J} {P} ({C} office)", "{P}, our {J} in {C},",
           "{P} - works as {aJ} out of {C} -", "{P} ({C}; {J})", "{C} {J} {P}"],
    "F": ["{P} ({F})", "{P} from {F}", "{P} @ {F}", "{F}'s {P}", "{P} on the {F} side",
          "{P} (works for {F})", "{P}, {F},", "{P} (employer: {F})"],
    "FJ": ["{P}, {J} at {F},", "{F} {J} {P}", "{P} ({J}, {F})", "{P}, who works as {aJ} for {F},",
           "{P} - {J} @ {F} -", "{P} ({F}; was moved to {J} role)", "{F}'s {J}, {P},",
           "{J} {P} from {F}", "{P}, {aJ} with {F},"],
    "CF": ["{P} ({F}, {C})", "{P} from {F} in {C}", "{P} of {F}, sits in {C},", "{F}'s {P} ({C})",
           "{P} ({C}) at {F}"],
    "CFJ": ["{P} ({J}, {F}, {C})", "{P}, {J} at {F} ({C}),", "{J} {P} from {F}'s {C} office",
            "{P} - {F}, {J}, {C} -", "{P}, {C}-based {J} for {F},"],
}
P_VERB = ["is blocked on the staging certs", "finished the migration script, PR is up",
          "is OOO thu-fri", "picks up the flaky e2e tests today", "is waiting on legal sign-off",
          "will demo on friday", "says the rollout slips a week", "wants {R} for the design review",
          "pushed the hotfix last night", "is reviewing the API contract", "closed 4 tickets yday",
          "flagged a perf regression in checkout", "is writing the runbook for {tool}",
          "needs a second reviewer asap", "moved the deploy to tmrw am", "has the budget numbers",
          "still chasing the access request", "started on the data export", "joined the call late"]
P_COLON = ["y: release notes, t: smoke tests, blockers none", "blocked by missing creds",
           "yday - infra cost review; today - tagging; no blockers", "OOO from {d}",
           "on support rotation this wk", "done w/ the schema change, waiting on QA",
           "today: onboarding docs; blocker: laptop not arrived", "nothing new", "PR #{n} in review",
           "pairing on {tk}-{n}", "out sick, back tmrw", "t: load test on staging-2",
           "wrapping up the {U} trip report"]
P_FOLLOW = ["{P} to confirm by EOD", "ping {P} tmrw re access", "{P} owns the follow-up",
            "{P} said fine w/ that", "{P} will update the ticket", "agreed w/ {P} to revisit {d}",
            "{P} out next wk, cover tbd", "{P} has the notes from {R}", "waiting on {P}",
            "cc {P}", "{P} pls double-check the numbers", "{P} thinks it's a config issue",
            "action: {P}", "{P} to loop in whoever owns {tool}"]
P_YEAR = ["{P} b. {Y}", "yob {Y} ({P}, for the badge form)", "{P} was born in {Y}",
          "{P} (born {Y}) asked about the pension scheme", "dob year on file for {P}: {Y}"]
P_HOBBY = ["{P} is into {H}", "{P} away sat, {H} thing", "{P} mentioned {H} again",
           "hobby: {H} ({P})", "{P} - big on {H}", "small talk: {P} does {H}"]
P_CONTACT = ["{P}: {E}", "mail {P} at {E}", "{P} ph {T}", "reach {P} on {T}", "contact {P} - {E}"]

F_INTRO = {
    "": ["{F}", "{F}"],
    "W": ["{F} ({W})", "{F}, {aW},", "{F} - {W} -", "{F} [{W}]", "{W} {F}"],
    "C": ["{F} ({C})", "{C}-based {F}", "{F}, HQ {C},", "{F} out of {C}", "{F} (head office {C})"],
    "Y": ["{F} (est. {Y})", "{F}, founded {Y},", "{F} (around since {Y})", "{F}, est {Y},"],
    "CW": ["{F}, {aW} in {C},", "{F} ({W}, {C})", "{C} {W} {F}"],
    "WY": ["{F} ({W}, est. {Y})", "{F}, {aW} founded {Y},"],
    "CY": ["{F} ({C}, since {Y})", "{F}, founded {Y} in {C},"],
    "CWY": ["{F} ({W}, {C}, est. {Y})", "{F} - {W} out of {C}, founded {Y} -"],
}
F_VERB = ["sent the revised quote", "missed the SLA again", "wants a call on thu",
          "still hasn't signed the DPA", "confirmed delivery for wk {w}", "raised list prices ~8%",
          "asked for 60-day payment terms", "made the shortlist", "got dropped from the shortlist",
          "is onboarded to the supplier portal now", "escalated the outage on their side",
          "sent a new account manager", "proposed a 2-yr deal", "came back with a lower bid"]
F_COLON = ["quote pending", "contract renewal due {d}", "SLA breach x2 this month",
           "DPA still unsigned", "invoice {n} disputed", "security questionnaire returned",
           "PO raised", "pricing ok, legal review open", "on hold until budget sign-off",
           "reference call booked"]
F_FOLLOW = ["{F} to send the SOC2 report", "chase {F} re invoice", "{F} contact not responding",
            "{F} pricing ok-ish", "decision on {F} at next review", "ask {F} for the escalation path",
            "{F} asked to move the call to {R}", "{F} will share a roadmap deck"]

X_INTRO = {
    "": ["{X}", "the {X}"],
    "K": ["{X} ({K})", "the {X} {K}", "{X}, {aK},", "{K} {X}", "{X} - {K} -", "{X} [{K}]"],
    "F": ["{F}'s {X}", "{X} by {F}", "{X} ({F})", "{X} from {F}", "{X}, vendor {F},"],
    "FK": ["{X}, {aK} made by {F},", "{F}'s {X} {K}", "{X} ({K}, {F})", "the {K} from {F}, {X},",
           "{X} - {K}, vendor {F} -", "{F} {K} ({X})"],
}
X_VERB = ["keeps dropping the VPN after sleep", "passed the 48h soak test", "is still in eval",
          "bricked one unit on fw update", "arrived, 12 units, stored in {R}", "fails alignment",
          "goes EOL end of year per vendor", "ships with an expired cert bundle",
          "got approved for the pilot", "throws timeouts under load", "was swapped for a loaner",
          "needs a driver update on the build agents"]
X_COLON = ["firmware update pending", "3 units RMA'd", "eval ok, no blockers", "back from repair",
           "price per unit still tbd", "license count wrong on invoice", "install guide outdated",
           "pilot extended to {d}"]
X_FOLLOW = ["{X} back on the bench tmrw", "{X} eval continues next sprint", "order 4 more {X}",
            "rollback {X} fw if the bug repros", "{X} docs are outdated, raised w/ vendor",
            "put the {X} on the retro agenda", "{X}: keep the spare in {R}"]

LABELS = {
    "person": ["owner: ", "contact: ", "assignee - ", "reporter: ", "poc: "],
    "org": ["vendor - ", "vendor: ", "supplier: ", "acct: "],
    "product": ["product: ", "item - ", "hw: ", "model: "],
}
FILLER = ["blockers: none", "room {R} booked for the demo", "{tool} was down ~20 min",
          "next standup moved to 9:45", "travel to {U} approved", "reminder: code freeze {d}",
          "action items carried over from last wk", "{tool} migration still on hold",
          "offsite in {U} tbc", "retro notes live in {tool}", "on-call swap done",
          "budget line for Q{q} unchanged", "next check {d}", "(logged by the assistant)",
          "mtg ran over, rest async"]
RETRO_MARKS = ["+ ", "- ", "went well: ", "not great: ", "keep: ", "stop: ", "try: ", "Δ "]

# name, kinds of main thing it fits, headers, bullets, line styles, separator
GENRES = [
    ("standup", "person product", ["Standup {d}", "standup {d} — notes", "Daily sync {d}",
     "DSU {d}", "stand-up, {d}", "Standup ({d}) - blockers & updates", "STANDUP {d}",
     "morning standup {d}, {R} room"], ["- ", "* ", "• ", ""], "colon colon verb", "\n"),
    ("ticket", "person org product", ["{tk}-{n} comment:", "re {tk}-{n}:",
     "[{tk}-{n}] status -> in review.", "comment on {tk}-{n} ({d}):", "{tk}-{n} update {d}:",
     "ticket {tk}-{n}, note:"], [""], "verb", " "),
    ("retro", "person org product", ["Sprint {s} retro notes", "retro, sprint {s}",
     "S{s} retro - what went ok / not ok", "Sprint {s} retrospective ({d})", "retro notes spr {s}"],
     RETRO_MARKS, "verb", "\n"),
    ("vendor", "org product", ["status update for the vendor review ({d})",
     "vendor review prep, {d}", "vendor status - wk {w}", "Vendor review {d}: status",
     "supplier check-in notes {d}"], [""], "field", "\n"),
    ("call", "person org", ["log: called {S} re {topic}", "log {d}: call w/ {S}",
     "call log - {S}, {topic}", "{d} log: spoke to {S} re {topic}"], [""], "verb", "\n"),
    ("status", "person org product", ["weekly status {d}", "EOD update {d}", "handover for {d}",
     "status {d}:", "note for the team, {d}", "wk {w} status"], ["- ", "* ", ""], "verb colon", "\n"),
    ("incident", "org product", ["INC-{n} ({d}) summary", "incident {n}: {S} outage, {d}",
     "postmortem draft INC-{n}", "{d} incident log"], [""], "verb", " "),
    ("roster", "person", ["team changes {d}", "onboarding tracker, {d}", "people update wk {w}",
     "roster note {d}"], ["- ", "* "], "verb", "\n"),
    ("eval", "product", ["eval notes: {S}", "{S} eval, {d}", "hw eval log {d}", "pilot notes - {S}"],
     ["- ", ""], "colon field", "\n"),
]
# fmt: on
