"""Wording of the interviews corpus: the shapes of a note about a person (a line opening with
"> " is the guest speaking, "? " the interviewer), the lines that bring in an employer, a former
employer, a colleague or a product or add noise (firm and product notes: interviews_things_wording)."""


def rows(text: str) -> list[str]:
    return [x.strip() for x in text.strip().splitlines() if x.strip()]


def items(text: str, sep: str = ",") -> list[str]:
    return [x.strip() for x in text.replace("\n", sep).split(sep) if x.strip()]


def alts(text: str) -> list[str]:
    return items(text, "|")


def turns(text: str) -> list[str]:
    """One template a line, a literal \\n inside a line standing for a line break."""
    return [x.replace("\\n", "\n") for x in rows(text)]


def blocks(text: str) -> list[str]:
    return [b.strip() for b in text.strip().split("\n\n")]


# First-person clauses; "{A}" (an age) only where the note carries its date.
I_JOB = alts("""
I'm {aJ} | I work as {aJ} | officially I'm {aJ} | my title is {J}
these days I'm {aJ} | I'm currently {aJ} | my job is {J}, on paper
""")
I_CITY = alts("""
I live in {C} | I'm based in {C} | home is {C} these days
I'm in {C} | I moved to {C} a few years back | I'm {C}-based
""")
I_BORN = alts("""
I was born in {Y} | I was born in '{yy} | born in {Y} | I'm a {Y} baby
""")
I_AGE = ["I'm {A}", "I turned {A} this year"]
I_HOBBY = alts("""
it's mostly {H} | I'm really into {H} | my thing is {H}
I'm a bit obsessed with {H} | I spend way too much time on {H} | it's {H}, mostly
""")

WORKS_AT = ["{aT} firm", "{aT} company", "a small {T} outfit", "one of the {T} firms"]
WORKS_AT_KV = ["n/a ({T})", "? ({T}, didn't catch the name)", "undisclosed {T} firm"]

# Speaker labels when a shape sets none: interviewer, then which name surface labels the guest.
LABELS = [("Q", "A"), ("Q", "F"), ("HOST", "U"), ("HOST", "F"), ("INT", "SU"),
          ("Interviewer", "F"), ("Q", "f"), ("MOD", "I"), ("HOST", "FU")]  # fmt: skip

# An optional first line "@label interviewer stamps" (stamps: + on, - off, ? either).
SHAPES = blocks("""
Podcast ep. {ep}, rec. {dt}. Guest: {P}, {J} at {E}.
? Let's start easy. Who are you, what do you do?
> {IJ}. {IC}. {IY}, if that matters.
? And when you're not working?
> {IH}. My partner would say too much.

Show notes, ep. {ep} ({dt})
Guest: {P} ({J}, {E})
- based in {C}
- born {Y}
- off the clock: {H}
(transcript to follow; diarisation was rough)

@A Q -
Screening call, {dt}. Candidate: {Pn}.
? What are you doing at the moment?
> {IJ}, at {E}. Been there a while.
? Where are you based?
> {C}. Not looking to relocate, to be clear.
? For the profile: year of birth?
> {Y}.
{F} was relaxed; mentioned {H} twice, unprompted.

name: {Pn} | role: {J} | org: {Ek} | city: {C} | b. {Y}
src: panel Q&A, {dt}
{S} spoke on the {T} panel. Sharp, a bit dry; brought up {H} in the green room.

@f interviewer -
auto-transcript, {dt} (speaker names from the calendar invite)
> yeah so {iJ}, um, at {E}
? and you're in {C}?
> {C}, yeah. {iY}, if you need that
? hobbies, anything?
> {iH} [laughs]

Spoke with {P} after the {T} panel ({dt}). {He}'s {aJ} at {E}, lives in {C}, born {Y}. \
Said {his} weekends mostly go to {H}. {F} seemed open to a follow-up.

@U MOD ?
Panel, day {n}, room B ({dt}). Moderator asked each panelist for a quick intro.
> Hi, I'm {Pn}. {IJ}, and {iC}.
? Something people don't know about you?
> {IH}. Seriously.

Interview w/ {Pn} ({E}), {dt}, ~{m} min
> So. {IJ}. In practice it's a lot of meetings.
? Where's home?
> {C}. {IY}.
> Outside work, {iH}.

Panel bios (programme + what they said on stage), {dt}
- {Pn}: {J}, {E}
- lives in {C}; b. '{yy}
- hobby: {H} (came up unprompted)
- TODO: ask {D} about references

Recorded {yr}. {P} on how {he} got into {T}.
? How old were you when you started?
> Straight out of school, more or less. I'm {A} now, so, a while.
> {IJ}. {IC}.
? Anything outside work?
> {IH}.

Candidate profile: {Pn}
Current: {Jc}, {Ek}
Location: {C}
Born: {Y}
Interests: {H}
Source: podcast appearance (ep. {ep}, {dt})

From the ep. {ep} transcript ({dt}), {P}:
"{IJ}, at {E}."
"{IY}. {IC}."
"Outside work? {IH}. Keeps me sane."

{S}, {F}: {J} / {Ek} / {C}. b.{Y}. {Hc}. Seen: ep. {ep}.

@U HOST +
Ep. {ep}, {dt}
? My guest today is {P}, {aJ} at {E}. Welcome.
> Thanks for having me.
? You're calling in from {C}?
> Yep, {C}. Cold today.
? Can I ask how old you are?
> {A}. Born in {Y}.

Notes on {P} (ep. {ep}, {dt}). {S}'s path so far: now {aJ} at {E}. {He} lives in {C} and \
was born in {Y}. {F}'s big thing outside work is {H}.

@Pn Q +
Ep. {ep} raw, {dt}
? Sorry, go ahead.
> No, you go. [crosstalk] OK. So. {IJ}.
? At {E}, right?
> Right. {IC}.
(inaudible)
> {IY}, anyway.

note to self re {Pn}: {J} at {E}, in {C}. born {Y}. into {H}. follow up in Q{q}.

Ep. {ep} ({dt}), guest segment
? Tell us about yourself.
> I'm {Pn}. {IJ}. We do {T}, pretty small team.
> {IC}; the rest of the team is all over the place.
> Hobbies? {Hc}, for years now.

guest = {Pn}
title = {J}
employer = {Ek}
home = {C}
yob = {Y}
hobby = {H}
(ep. {ep}, timestamps approx.)

@U INT +
? For the record ({dt}): name and what you do.
> {Pn}. {IJ}.
? And you're {A}?
> {A} this year, yes. Born {Y}.
? Based where?
> {C}.

Guest: {P}, {J} at {E} ({C})
Topics: {T}, hiring, burnout
Fun fact: {F} was born in {Y} and is deep into {H}.

{P}, ep. {ep}
> I'm {aJ} by training and by trade, ha.
> {IH}, outside work.
> {IC}. Born {Y}, if you're counting.

Re: {Pn} ({dt}). {aJc} in {C}; {A} at time of recording. Works at {E}. Mentions {H} a lot.

Written Q&A returned by {P}, {dt}:
1. Current role? {Jc}, {E}.
2. Based? {C}.
3. Year of birth? {Y}.
4. Something non-work? {Hc}.

{S} again. {Jc}, {C}-based, born {Y}, works at {E}. Icebreaker if needed: {H}.

(audio starts mid-sentence; file from {dt})
> which is partly why I ended up in {C}, honestly.
? And the job now?
> {Jc}. At {E}.
? For the intro, your full name?
> {Pn}. {D} on the slides, though.
> {IY}.

Panel recap ({T} track, {dt})
- {I} ({E}): {J}; talked mostly about hiring
- hallway, after: "{IC}. {IY}. And yes, {iH}."

@F HOST ?
? Before we start: how do I introduce you?
> {IJ} at {E}. Keep it short.
? And you're in {C} now?
> Yeah, {iC}. {IY}.
? Last one: hobby.
> {IH}.
Guest: {Pn} (ep. {ep}, {dt})

Summary ({dt}): {P} is {aJ} at {E}, lives in {C}. Transcript bits below.
> I was born in {Y}, which makes me, what, {A}?
> {IH}. That's my whole personality.

Intro email forwarded by a listener, then a 20-min call ({dt}).
{Pn}: {aJ} at {E}.
? So you're in {C}?
> {IC}, yes.
? And outside work?
> {IH}. Ask me about it, I dare you.
""")

# Companion lines, by what the companion is and whether it is said ("t") or summarised ("s").
EMPLOYER = {
    "t": blocks("""
> {Eb} has been around since {EY}; I came in later.

> We're based out of {EC}, {Eb} I mean.

? And {Eb} is what, exactly?
> {Tc}. Founded {EY}, in {EC}.

> At {Eb} we do {T}, if anyone's wondering.

? Sorry, which company was that?
> {Eb}. Our company's small, {T}, out of {EC}.
"""),
    "s": rows("""
- {Eb}: {T}, HQ {EC}, est. {EY}
({Eb} = {T} firm in {EC}, founded {EY})
Employer check: {Eb}, {EC}, founded {EY}.
employer: {Eb} ({EC})
"""),
}
PRIOR = {
    "t": blocks("""
> Before that I spent {n} years at {B}.

> I came over from {B}. {n} years there.

? You were at {B} before?
> Yeah, {n} years. Long story.

> {B} before this, for about {n} years.
"""),
    "s": rows("""
- ex-{B} ({n} yrs)
Previously at {B}.
prior: {B}, ~{n} yrs
{F} left {B} after {n} years.
"""),
}
USES = {
    "t": blocks("""
> We run most of it on the {X}, honestly.

> My daily driver is the {X}.

? What's on your desk right now?
> The {X}. And too many browser tabs.
"""),
    "s": rows("""
- uses the {X}
Tools mentioned: {X}, spreadsheets, a whiteboard.
{F} swears by the {X}.
kit: {X}
"""),
}
# The guest's own employer makes it, so the stem alone is clear.
USES_OWN = {
    "t": blocks("""
> We make the {X} at {Eb}, so yes, I use the {Xs} every day.

> Everyone at {Eb} lives on the {Xs}. The {X}, I mean, our own.
"""),
    "s": rows("""
- uses the {X} ({Eb}'s own; "the {Xs}" internally)
Dogfoods the {X}; at {Eb} it's just "the {Xs}".
"""),
}
COLLEAGUE = {
    "t": blocks("""
> {M} runs that side; {Mhe}'s our {MJ}.

> I work closely with {M}. {Mf} and I go way back.

? Who else should we talk to?
> {M}. {MHe}'s {aMJ}, lives in {MC}.

> Honestly {M} deserves the credit, {Mhe}'s the {MJ} there.
"""),
    "s": rows("""
- works with {M} ({MJ})
{S} mentioned {M} ({MJ}) twice; same team, apparently.
{F} and {M} work together; {Mf} is the {MJ} there.
Also mentioned: {M}, {aMJ} based in {MC}.
Referral: {M} ({MJ}); {F} offered an intro.
colleague: {M} / {MJ} / {MC}
"""),
}
ACRONYM = alts("""
({AC} = {Ef}) | TODO: {AC} in the transcript is {Ef}
(everyone on the call said {AC}; that's {Ef})
""")

NOISE = alts("""
[crosstalk] | (inaudible) | [laughs] | (inaudible, ~4s) | [pause] | ? Mm-hm. | ? Right, right.
[phone buzzes] | (audio drops for a few seconds) | ? Sorry, you cut out there. | [both laugh]
""")
TAIL = alts("""
TODO: pull the ep. {ep} clip for the shortlist | tags: #interview #to-review
link: ep. {ep}, around the {m}-minute mark | (diarisation unreliable; labels fixed by hand)
-- end of excerpt -- | TODO: confirm spelling of {S} | TODO: ask {F} for a headshot
follow-up: send {D} the questions in advance | {F} asked us not to quote the numbers.
""")
