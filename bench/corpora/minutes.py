"""Meeting minutes, e-mail threads and handover notes as agents keep them: 'Minutes, ops sync
3 Mar' with an 'Attendees:' line, bullets and 'Action:' items (or all of it on one line split by
semicolons); 'Subject: Re: ...' threads with a 'From:' line, '>' quoted replies written in the
first person and signature blocks; 'Handover — ...' notes with 'Watch out:'/'Context:' bullets
and 'To do:' lines. A person is written in full, in full with initials after it ('Adaeze Umeadi
(AU)') and then by those initials, by surname ('Dr Umeadi' for a doctor) or first name, with
possessives ('Umeadi's team'), and now and then introduced by role first ('our contact, the
fleet manager, ...'). A firm is named with or without its legal form, by its stem, sometimes
in capitals, and otherwise 'the vendor' or 'they'; a product as 'Zentor-7', 'Zentor 7' or
'Zentor7', sometimes in lower case, sometimes by its stem alone. Some notes carry a one-letter
typo, a few of them in a name; some lines start in lower case.
"""

from __future__ import annotations

import random
import re

from . import Doc, Note, Truth, an, cast, check, fresh, plan

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


def _initials(t: Truth) -> str:
    f = t.facts
    return "".join(p[0] for p in re.split(r"[-\s]+", f"{f['first']} {f['last']}") if p).upper()


def _firm(rng: random.Random, t: Truth) -> tuple[str, str]:
    f = t.facts
    forms = [t.name, f["bare"], f["short"], f["short"].upper()]
    return rng.choices(forms, [0.35, 0.3, 0.25, 0.1])[0], t.key


def _item(rng: random.Random, t: Truth) -> tuple[str, str]:
    stem, n = t.facts["stem"], t.facts["number"]
    form = rng.choice([f"{stem}-{n}", f"{stem} {n}", f"{stem}{n}"])
    return (form.lower() if rng.random() < 0.12 else form), t.key


def _date(rng: random.Random) -> str:
    d, m = rng.randint(1, 28), rng.randint(1, 12)
    month = MONTHS.split()[m - 1]
    nth = {1: "st", 2: "nd", 3: "rd", 21: "st", 22: "nd", 23: "rd"}.get(d, "th")
    return rng.choice([f"{d} {month[:3]}", f"{d}{nth} {month}", f"{d:02d}.{m:02d}.",
                       f"{month} {d}", f"wk {(m - 1) * 4 + d // 7 + 1}"])  # fmt: skip


class _Writer:
    """One note being written: its lines, each with a kind ('head', 'att', 'open', 'fact',
    'quote', 'sig', 'act', 'end') that the genre's layout arranges, and the initials it has
    introduced after a full name."""

    def __init__(self, rng: random.Random, truths: dict[str, Truth], genre: str, fancy: bool):
        self.rng, self.truths, self.genre, self.fancy = rng, truths, genre, fancy
        self.note = Note()
        self.kinds: list[str] = []
        self.ini: dict[str, str] = {}
        self.used: set[str] = set()

    def pick(self, templates: list[str]) -> str:
        """One of the templates, not one this note has used already."""
        choice = self.rng.choice([t for t in templates if t not in self.used] or templates)
        self.used.add(choice)
        return choice

    def say(self, kind: str, template: str, **slots) -> None:
        rng = self.rng
        for slot, value in list(slots.items()):  # initials after a person's full name
            mark = "{" + slot + "}"
            at = template.find(mark) + len(mark)
            if not (
                self.fancy and isinstance(value, tuple) and kind not in ("head", "sig", "quote")
            ):
                continue
            t = self.truths[value[1]]
            ini = _initials(t) if t.kind == "person" else ""
            taken = ini in self.note.names or ini in self.ini.values()
            if (not ini or taken or at < len(mark) or value[0] != t.name or t.key in self.ini
                    or template[at:at + 2] in ("'s", " (") or rng.random() > 0.35):  # fmt: skip
                continue
            template = f"{template[:at]} ({{{slot}_i}}){template[at:]}"
            slots[f"{slot}_i"] = (ini, t.key)
            self.ini[t.key] = ini
        low = 0.2 if self.genre == "email" else 0.08
        if kind in ("open", "fact", "end") and template[0] != "{" and rng.random() < low:
            template = template[0].lower() + template[1:]
        self.note.say(template, **slots)
        self.kinds.append(kind)

    def ref(self, key: str, initials: float = 0.4) -> tuple[str, str]:
        """How a person already named in the note is referred to again."""
        f, r = self.truths[key].facts, self.rng.random()
        if key in self.ini and r < initials:
            return self.ini[key], key
        if f["title"] and r < 0.6:
            return f"Dr {f['last']}", key
        return (f["last"] if r < 0.8 else f["first"]), key

    def who(self, key: str, full: float = 0.75) -> tuple[str, str]:
        t = self.truths[key]
        return (t.name, key) if self.rng.random() < full else self.ref(key)

    def mate(self, key: str) -> dict:
        job = self.truths[key].facts["job"]
        return {"Q": self.who(key, 0.8), "J2": job, "aJ2": an(job)}

    def head(self, org: str | None = None) -> None:
        rng, g = self.rng, self.genre
        slots = {"team": rng.choice(TEAMS).format(q=rng.randint(1, 4)), "date": _date(rng),
                 "topic": rng.choice(TOPICS).format(q=rng.randint(1, 4), n=rng.randint(4100, 9899)),
                 "fw": rng.choice(FORWARDED), "n": rng.randint(3, 14)}  # fmt: skip
        if org and rng.random() < 0.35:
            self.say("head", rng.choice(NAMED[g]), N=_firm(rng, self.truths[org]), **slots)
        else:
            self.say("head", rng.choice(HEAD[g]), **slots)

    def attendees(self, keys: list[str], org: str | None = None) -> None:
        """An 'Attendees:' line naming people in full, or our side and the vendor's."""
        slots = {f"A{i}": (self.truths[k].name, k) for i, k in enumerate(keys)}
        names = [f"{{A{i}}}" for i in range(len(keys))]
        if not keys and org:
            names, slots = (
                ["our side plus two from {A0}"],
                {"A0": _firm(self.rng, self.truths[org])},
            )
        self.say("att", self.rng.choice(ATTEND) + ", ".join([*names, self.rng.choice(FILLERS)]),
                 **slots)  # fmt: skip

    def close(self, people: list[str], org: str | None = None) -> None:
        """Actions or to-dos on someone in the note, and a closing line."""
        rng, g = self.rng, self.genre
        day = rng.choice(DAYS)
        n = rng.choice([0, 1, 1, 2]) if g != "email" else 0
        for template in rng.sample(ACTS if g == "minutes" else TODOS, n):
            if people:
                key = rng.choice(people)
                said = [s for s, k in self.note.names.items() if k == key]
                full = self.truths[key].name in said or not said  # else as the note named them
                a = self.ref(key, 0.75) if full else (rng.choice(said), key)
            elif org:
                f = self.truths[org].facts
                a = (rng.choice([f["short"], f["bare"]]), org)
            else:
                a = (
                    rng.choice(["the agent", "finance", "procurement"])
                    if g == "minutes"
                    else "the vendor"
                )
            self.say("act", template, A=a, day=day)
        if rng.random() < (0.45 if g == "email" else 0.3):
            self.say("end", rng.choice(ENDS[g]), day=day)


def _person(w: _Writer, key: str, co: list[str]) -> None:
    rng, truths, g = w.rng, w.truths, w.genre
    f = truths[key].facts
    base = {"J": f["job"], "aJ": an(f["job"]), "C": f["city"], "Y": f["born"], "H": f["hobby"],
            "poss": "her" if f["she"] else "his", "day": rng.choice(DAYS)}  # fmt: skip
    employer = f["employer"] if f["employer"] in co else None
    if employer:
        base["O"] = _firm(rng, truths[employer])
    mates = [k for k in co if truths[k].kind == "person"]
    w.head(employer)
    named = False
    if g == "minutes" and rng.random() < 0.7:
        w.attendees([key, *mates])
        named = True
    elif g == "email" and rng.random() < 0.3:
        w.say("head", "From: {P}", P=(truths[key].name, key))
        named = True
    bare = rng.random() < 0.25
    opening = rng.choice(OPEN_BARE[g] if bare else (OPEN_AT if employer else OPEN_ALONE)[g])
    w.say("open", opening, P=w.ref(key) if named else w.who(key, 0.85), **base)
    groups = [("city", {})] if rng.random() < 0.35 else []
    groups += [(k, {}) for k in rng.sample(["born", "hobby"], rng.choice([0, 1, 1, 2]))]
    if bare:
        groups = [("job", {})] + ([("employer", {})] if employer else []) + groups
    said = {"city": "{C}", "born": "{Y}", "hobby": "{H}"}
    groups = [(k, x) for k, x in groups if said.get(k, "{?}") not in opening]
    for other in co:
        o = truths[other]
        if other == f.get("prior"):
            groups.append(("prior", {"O": _firm(rng, o)}))
        elif other == f.get("uses"):
            groups.append(("uses", {"X": _item(rng, o), "XS": (o.facts["stem"], other)}))
        elif o.kind == "person":
            groups.append(("mate", w.mate(other)))
    rng.shuffle(groups)
    quoting = g == "email" and rng.random() < 0.55
    quotes = []
    for group, extra in groups:
        if quoting and rng.random() < 0.6:
            quotes.append((w.pick(QUOTED[group]), extra))
        else:
            w.say("fact", w.pick(LINES[group]), **{**base, "R": w.ref(key), **extra})
    if quotes:
        w.say("quote", "On {date}, {W} wrote:", date=_date(rng), W=w.who(key, 0.5))
        for template, extra in quotes:
            w.say("quote", template, **{**base, **extra})
    if g == "email" and not quotes and rng.random() < 0.35:  # a signature block
        w.say("sig", "--")
        w.say("sig", "{P}", P=(truths[key].name, key))
        w.say("sig", "{J}, {O}" if employer else "{J}", **base)
    w.close([key, *mates], employer)


def _org(w: _Writer, key: str, co: list[str]) -> None:
    rng, truths, g = w.rng, w.truths, w.genre
    t = truths[key]
    f = t.facts
    slots = {"O": _firm(rng, t), "Os": (rng.choice([f["short"], f["bare"]]), key),
             "Of": (t.name, key), "C": f["city"], "Y": f["founded"], "T": f["trade"]}  # fmt: skip
    staff = [k for k in co if truths[k].kind == "person"]
    w.head(key)
    if g == "minutes" and rng.random() < 0.6:
        w.attendees(staff, key)
    opening = rng.choice(ORG[g])
    w.say("open", opening, **slots)
    if rng.random() < 0.5:
        w.say("fact", fresh(rng, ORG_MORE, opening), **slots)
    for other in co:
        o = truths[other]
        if o.kind == "person":
            w.say("fact", w.pick(STAFF), **slots, **w.mate(other))
        else:
            k = o.facts["category"]
            xs = (o.facts["stem"], other)
            w.say("fact", w.pick(MAKES), **slots, X=_item(rng, o), XS=xs, L=k, aL=an(k))
    w.close(staff, key)


def _product(w: _Writer, key: str, co: list[str]) -> None:
    rng, truths, g = w.rng, w.truths, w.genre
    f = truths[key].facts
    k = f["category"]
    slots = {"X": _item(rng, truths[key]), "X2": _item(rng, truths[key]), "XS": (f["stem"], key),
             "L": k, "aL": an(k), "Y": f["launched"], "n": rng.randint(2, 40)}  # fmt: skip
    users = [u for u in co if truths[u].kind == "person"]
    maker = f["maker"] if f["maker"] in co else None
    w.head(maker)
    if g == "minutes" and users and rng.random() < 0.5:
        w.attendees(users)
    if maker:
        m = truths[maker]
        mb = (rng.choice([m.facts["short"], m.facts["bare"]]), maker)
        opening = rng.choice(BY)
        w.say("open", opening, **slots, M=_firm(rng, m), Mb=mb)
    else:
        opening = rng.choice(ITEM[g])
        w.say("open", opening, **slots)
    if rng.random() < 0.4:
        w.say("fact", fresh(rng, ITEM_MORE, opening), **slots)
    for other in users:
        w.say("fact", w.pick(USERS), **slots, **w.mate(other))
    w.close(users, maker)


def _unstop(part: str, names: dict[str, str]) -> str:
    """A line without its full stop, unless the stop ends a name ('Halcyra B.V.')."""
    if part.endswith(".") and not any(part.endswith(s) and s.endswith(".") for s in names):
        return part[:-1]
    return part


def _layout(w: _Writer) -> str:
    rng, g = w.rng, w.genre
    names = w.note.names
    parts = list(zip(w.kinds, w.note.parts, strict=True))

    def of(*kinds: str) -> list[str]:
        return [p for k, p in parts if k in kinds]

    head, att, body, acts = of("head"), of("att"), of("open", "fact"), of("act")
    quote, sig, end = of("quote"), of("sig"), of("end")
    if g == "minutes":
        mark = rng.choice(ACT_MARK)
        if rng.random() < 0.3:  # all on one line
            att = [a[0].lower() + a[1:] for a in att]
            items = [_unstop(p, names) for p in att + body]
            items += [
                ("action items: " if i == 0 else "") + _unstop(a, names) for i, a in enumerate(acts)
            ]
            return f"{head[0]}: " + "; ".join(items) + "".join(f". {e}" for e in end)
        bullet = rng.choice(["- ", "* ", "• ", ""])
        lines = [head[0] + rng.choice(["", ":"]), *att]
        lines += [f"{bullet or f'{i}. '}{p}" for i, p in enumerate(body, 1)]
        if acts and rng.random() < 0.5:
            lines += ["Action items:", *(f"- {a}" for a in acts)]
        else:
            lines += [mark + a for a in acts]
        return "\n".join(lines + end)
    if g == "email":
        prose = " ".join(body) if rng.random() < 0.6 else "\n".join(body)
        return "\n".join([*head, prose, *end, *sig, *quote])
    lines = [head[0]]  # a handover
    if rng.random() < 0.3:
        lines.append(" ".join(body))
    else:
        label = [rng.choice(LABELS) if rng.random() < 0.3 and ":" not in p else "" for p in body]
        lines += [f"- {m}{p}" for m, p in zip(label, body, strict=True)]
    mark = rng.choice(TODO_MARK)
    return "\n".join(lines + [mark + a for a in acts] + end)


def _typo(rng: random.Random, word: str) -> str:
    """The word with one letter dropped, doubled or hit beside."""
    i = rng.randrange(1, len(word) - 1)
    how = rng.choice(["drop", "double", "near"])
    if how == "near" and word[i] in NEAR:
        return word[:i] + NEAR[word[i]] + word[i + 1 :]
    return word[:i] + (word[i] * 2 if how == "double" else "") + word[i + 1 :]


def _misspell(rng, text: str, names: dict[str, str], in_name: bool, keep: set[str]):
    """The text with one word misspelt, inside a name or outside every name; the names are
    then the surfaces as they now read."""
    spots = [(m.start(), m.end(), k) for s, k in names.items() for m in re.finditer(re.escape(s), text)]  # fmt: skip
    words = []
    for m in re.finditer(r"[^\W\d_]{5,}", text):
        over = [(a, b) for a, b, _ in spots if a < m.end() and m.start() < b]
        if in_name and over and all(a <= m.start() and m.end() <= b for a, b in over):
            words.append(m)
        elif not in_name and not over and m.group().islower() and m.group() not in keep:
            words.append(m)
    if not words:
        return text, names
    m = rng.choice(words)
    new = _typo(rng, m.group())
    out = text[: m.start()] + new + text[m.end() :]
    shift = len(new) - len(m.group())
    now = {s: k for s, k in names.items() if s in out}
    for a, b, k in spots:
        if a <= m.start() and m.end() <= b:
            now[out[a : b + shift]] = k
    return out, now


def _faults(doc: Doc) -> list[str]:
    """What `check` would find wrong with this one note, and initials that appear inside
    another word."""
    out = []
    for s, k in doc.names.items():
        if s not in doc.text:
            out.append(f"{s!r} not in text")
        out += [f"{s!r} in {s2!r}" for s2, k2 in doc.names.items() if k2 != k and s.casefold() in s2.casefold()]  # fmt: skip
        if s.isupper() and len(s) <= 4:
            alone = re.findall(rf"(?<!\w){re.escape(s)}(?!\w)", doc.text)
            if len(alone) != doc.text.count(s):
                out.append(f"{s!r} inside a word")
    return out


def _write(rng: random.Random, truths, focus: str, co: list[str], keep: set[str]) -> Doc:
    for attempt in range(4):
        fancy = attempt < 3  # the last try without initials and typos
        genre = rng.choices(["minutes", "email", "handover"], [0.4, 0.35, 0.25])[0]
        w = _Writer(rng, truths, genre, fancy)
        {"person": _person, "org": _org, "product": _product}[truths[focus].kind](w, focus, co)
        text = _layout(w)
        for bad, good in (("..", "."), ("  ", " ")):
            text = text.replace(bad, good)
        names = dict(w.note.names)
        if fancy and rng.random() < 0.15:
            text, names = _misspell(rng, text, names, False, keep)
        if fancy and rng.random() < 0.06:
            text, names = _misspell(rng, text, names, True, keep)
        doc = Doc(text, names)
        if not _faults(doc):
            return doc
    raise ValueError(f"minutes: no sound note for {focus}: {_faults(doc)}")


def documents(seed: int = 0, size: str = "default"):
    """Minutes, e-mail threads and handovers: ~50 for the default size, about 22 true things,
    two namesake pairs."""
    rng = random.Random(f"minutes/{seed}")
    people = [line.strip() for line in PEOPLE.split("|")]
    truths, pairs = cast(rng, size, people, FIRMS, PRODUCTS, JOBS, CITIES, HOBBIES)
    scenes = plan(rng, truths, pairs, {"person": (2, 4), "org": (1, 2), "product": (1, 2)}, 0.6)
    keep = {w for line in [*JOBS, *CITIES, *HOBBIES, *(x for f in FIRMS for x in f[4:])]
            for w in line.split()}  # fmt: skip  # facts are not misspelt
    docs = [_write(rng, truths, focus, co, keep) for focus, co in scenes]
    problems = check(docs, truths, pairs)
    if problems:
        raise ValueError(f"minutes corpus, seed {seed}: {problems[:5]}")
    return docs, truths, pairs
