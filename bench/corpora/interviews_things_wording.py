"""Wording of the interviews corpus's firm and product notes (the person notes' wording is in
interviews_wording)."""

from .interviews_wording import rows, turns

ORG_HEAD = ["", "", "Company research, {dt}", "Podcast prep: background ({dt})", "Panel prep ({dt})",
            "From the sponsor read and the rep interview", "company file, updated {dt}"]  # fmt: skip
ORG = turns("""
Company spotlight, ep. {ep}: {Of} ({T}, {C}, founded {Y}).
HOST: So what is {O}, in one sentence?\\nREP: We do {T}. Small team, based in {C}.
org: {Of} | sector: {T} | hq: {C} | est. {Y}
Background for the panel: {O} keeps coming up. They do {T}, out of {C}.
{Os}: the {T} people in {C}. Founded {Y}, per their own about page.
Q (to the {Os} co-founder, who asked not to be named): When did you start?\\nA: {Y}. In a rented room in {C}, like everyone.
Sponsor segment, ep. {ep}: {O}. Their pitch: "{T}, done properly."
{t0}HOST: and today's company is {Of}\\n{t1}REP: hi, yes, so we're in {T}, we started in {Y}
""")
ORG_MORE = rows("""
Founded in {Y}.
HQ: {C}.
REP: we've been in {C} since day one.
They're in {T}, whatever the deck says.
est. {Y} (the rep said "{Y}-ish")
REP: it's {T}, mostly. Not glamorous.
Team size unclear; {Os} wouldn't say.
""")
STAFF = rows("""
- {N}: {NJ} there
- {N} ({NJ}) was on ep. {ep}
{t0}{NU}: I'm {aNJ} at {Os}, for what it's worth.
- staff we've interviewed: {N}, {aNJ} in {NC}
{N} is the {NJ} at {Os}; good guest, ask {Nhim} back.
REP: you should talk to {N}, {Nhe}'s our {NJ}.
Contact there: {N} ({NJ}, lives in {NC}).
""")
MAKES = rows("""
Product: the {X}, {aL}.
They make {aL}, the {X}.
REP: the {X} is our main thing. It's {aL}, basically.
- makes: {X} ({L})
{Os} ships the {X}, {aL}; came up in two other interviews.
""")

ITEM_HEAD = ["", "", "Gear notes, {dt}", "ep. {ep} show notes: things guests mentioned",
             "Product file, updated {dt}", "Listener asked about this one (ep. {ep})"]  # fmt: skip
ITEM = turns("""
Gear mentioned on the show: {X}, {aL}, out since {Y}.
{X}: {aL}, launched {Y}. Came up in three interviews this month.
product: {X} | type: {L} | launched: {Y}
Q: What's the {X2}, exactly?\\nA: It's {aL}. Been around since {Y}.
Looked up the {X} after the interview: {aL}, on the market since {Y}.
""")
BY = rows("""
{M} makes the {X}, {aL} (launched {Y}).
The {X} ({aL}) is made by {Mb}; launched {Y}.
maker: {M} | product: {X} | type: {L}
REP ({Mb}): the {X2}? That's ours. It's {aL}, out since {Y}.
{Mb} launched the {X} in {Y}. It's {aL}.
""")
ITEM_MORE = rows("""
Launched {Y}.
It's {aL}, nothing exotic.
Category: {L}.
(launch year {Y}, per the spec sheet)
Not cheap, judging by the guests' faces.
""")
USERS = rows("""
- {N} ({NJ}) uses it daily.
{N}: "I'd be lost without the {X2}."
{ts}{NU}: we run the whole thing on the {X2}, honestly.
Users we've talked to: {N}, {aNJ} in {NC}.
{N} brought it up unprompted; {Nhe}'s {aNJ}.
""")
STEM = rows("""
(at {Mb} they just call it the {Xs})
Around {Mb} it's simply "the {Xs}".
- nickname at {Mb}: the {Xs}
""")
