"""Role words: what a note says a named thing is, in the words next to its mention ("the Z-9
drone", "Helix X2, the battery pack,", "Maria Okafor, a nurse from Porto", "Kestrel is a logistics
firm"), learned as the value `text:role` (text_evidence) and compared by `compare_roles`.

Three places are read, each only up to a word that ends a noun phrase (a preposition, a verb
such as 'is', punctuation), at most MAX_WORDS words:
- an apposition after the mention: `<name>, the|a|an|its <role>`;
- a copula after it: `<name> is|was a|an|the <role>`;
- a noun after a mention that a determiner introduces: `the <name> <role>` ("the Z5 drone"),
  one word only (a verb may follow it, and nothing here tells a verb from a noun).
Words that name an occasion rather than what the thing is ('rollout', 'update', 'team') are
dropped, so "asked about the Z5 rollout" gives no role.

Levels: `same` (the head words, the last of each role, are one), `related` (another word is
shared: 'logistics firm' / 'logistics company'), `different` (nothing shared: a nurse and a
pilot, a drone and a battery pack), missing when either side has no role: comparisons.roles."""

from __future__ import annotations

import re

MAX_WORDS = 3
MAX_ROLE_CHARS = 60
_WORD = re.compile(r"[a-z][a-z-]*")
# Words that end a role's noun phrase (prepositions, verbs, conjunctions, pronouns).
_ENDS = frozenset(
    "at in on of for from by with to into about as and or but that which who whose where when "
    "is was are were be been has have had will would can could may might must shall should do "
    "does did its their his her our my your this these those there here since after before "
    "last next based located headquartered named called he she they it we you i who "
    "made built produced designed developed manufactured supplied sold used owned run "
    "during worth via per like unlike than near over under above below behind beyond across "
    "through throughout within without inside outside around along among between toward "
    "towards upon until despite except plus onto off out up down again also still just only "
    "even already yet now then soon often always never ever very too so quite rather really "
    "remains remained stays stayed seems seemed looks looked".split()
)  # pronouns, participles, prepositions, adverbs: "a device he describes", "a Z-9 during"
# Words that say only that it is a thing or a firm: alone they are no role ("the Z-9 model",
# "a device he describes", "X, the role of ..."), so they never set two notes apart.
_GENERIC = frozenset(
    "model unit device product item thing one role version type kind series line range piece "
    "gadget system tool machine equipment company firm business organisation organization "
    "outfit entity name brand".split()
)
# Irregular past forms and chat fillers that follow a product's name in notes.
_PAST_FORMS = frozenset(
    "came went broke ran got fell took gave kept held left stood sat began bought brought "
    "caught felt found heard lost meant met paid put said sent shut spent stuck told thought "
    "woke wore won wrote did had was were became arrived".split()
)
_FILLERS = frozenset("lol haha btw fyi tbh imo asap omg ok okay thanks cheers pls".split())
# Words that name an occasion or a part of a place, not what the named thing is.
_OCCASIONS = frozenset(
    "rollout roll-out launch release update upgrade test trial review pilot-run demo project "
    "programme program team office site budget plan deal order meeting call visit event "
    "contract account case issue report side end".split()
)
# Words that say how a person stands to another, not what they are ("a colleague of X"): no
# role, so two notes calling one person a chemist and a colleague do not disagree.
RELATION_WORDS = frozenset(
    "colleague friend partner client customer contact acquaintance neighbour neighbor relative "
    "cousin sister brother wife husband son daughter mother father boss peer counterpart guest "
    "visitor member fan user person man woman guy lady people".split()
)
# The head words of jobs as notes write them (a role phrase ends in one, or is one: 'COO').
ROLE_HEADS = frozenset(
    "director manager officer lead head chief engineer analyst inspector chemist consultant "
    "specialist coordinator architect buyer accountant administrator nurse scientist developer "
    "designer president founder cofounder co-founder planner supervisor technician geologist "
    "economist editor researcher professor lecturer teacher physician doctor surgeon lawyer "
    "counsel attorney paralegal pharmacist agronomist surveyor auditor controller treasurer "
    "recruiter strategist advisor adviser associate assistant secretary clerk foreman owner "
    "ceo cto cfo coo cio cmo cso cpo vp svp evp md gm pm intern trainee executive representative "
    "rep salesperson marketer journalist pilot mechanic electrician operator dispatcher "
    "biologist physicist statistician programmer photographer curator librarian therapist "
    "physiotherapist dentist veterinarian vet practitioner psychologist paramedic midwife".split()
)
# Titles that open a job and name its field after them: "head of procurement", "VP Sales".
TITLE_OPENINGS = frozenset("head chief director vp svp evp president".split())
DEPARTMENTS = frozenset(
    "sales marketing engineering finance operations ops product procurement research legal "
    "people it design data security growth partnerships support strategy purchasing".split()
)
# Most job nouns not listed still end like one ("beekeeper", "welder", "machinist").
_JOB_ENDING = re.compile(r"(?:er|or|ist|ian|eer|ant|ent|ive)s?$")
_DETERMINERS = ("the", "a", "an", "its", "their")
# After the name, and after its initials if a note glosses it so ("Rói Joensen (RJ), a head of
# legal"): an apposition or a copula that says what the mention is.
_INITIALS = r"(?:\s*\([^\W\d_]{2,4}\))?"
_APPOSITION = re.compile(rf"^{_INITIALS}\s*,\s+(?:the|a|an|its|their)\s+")
_COPULA = re.compile(rf"^{_INITIALS}\s+(?:is|was)\s+(?:a|an|the)\s+")
_AFTER_DETERMINER = re.compile(r"(?:^|\s)(?:the|a|an|its|their)\s+$", re.IGNORECASE)


def _phrase(text: str, most: int = MAX_WORDS) -> str:
    """The role's words at the start of `text`: lower-case words up to one that ends it."""
    words = []
    tokens = text.split()
    for i, token in enumerate(tokens[: most + 1]):
        word = token.rstrip(".,;:!?)")
        if word == "of" and words and words[-1] in TITLE_OPENINGS and i + 1 < len(tokens):
            field = tokens[i + 1].rstrip(".,;:!?)")  # "a head of legal": the title's field
            if _WORD.fullmatch(field) and field not in _ENDS | set(_DETERMINERS):
                return f"{' '.join(words)} of {field}"[:MAX_ROLE_CHARS]
        if not _WORD.fullmatch(word) or word in _ENDS:
            break
        if words and words[-1] in ROLE_HEADS and word.endswith("ing"):
            break  # "an operations manager living in Perth"
        if word not in _OCCASIONS:
            words.append(word)
        if word != token:  # punctuation ends the phrase
            break
    # "a colleague of X" says how one stands to someone; "a customer success lead" is a job
    if set(words[:most]) <= _GENERIC or words[:most] and words[:most][-1] in RELATION_WORDS:
        return ""
    return " ".join(words[:most])[:MAX_ROLE_CHARS]


# A line that lists who attended: "X, the night-shift lead" there is two attendees.
_ROLL = re.compile(
    r"[\W_]*(?:present|attendees|attending|participants|in the room|on the call)\b", re.IGNORECASE
)


# The same list later on its line: "Minutes (6 Jan), procurement: attendees - X, Y, the agent".
_ROLL_INLINE = re.compile(
    r"\b(?:present|attendees|attending|participants|in the room|on the call)\s*[:–—-]", re.I
)
# Who writes the notes, alone ("X, the agent, taking notes"): the writer, no one's job.
WRITER_WORDS = frozenset(("agent", "user", "bot"))
# What a firm is to us, never a person's job: "the vendor (Qaraghan)", "X is our supplier".
TRADE_ROLES = frozenset("vendor supplier maker manufacturer distributor reseller".split())


def on_roll(text: str, at: int) -> bool:
    """Whether text[at] stands in a list of attendees ("Present: X, the night-shift lead"), up
    to the end of its line or a semicolon, where a determiner's role after a name is another
    attendee's."""
    line = text.rfind("\n", 0, at) + 1
    item = text.rfind(";", line, at) + 1 or line  # a semicolon ends the list: "...; X brought Y"
    return bool(item == line and _ROLL.match(text, line) or _ROLL_INLINE.search(text, item, at))


def role_near(text: str, start: int, end: int) -> str:
    """The role the words next to the mention text[start:end] give it, or ''."""
    after = text[end : end + 200]
    for pattern in (_APPOSITION, _COPULA) if not on_roll(text, start) else (_COPULA,):
        found = pattern.match(after)
        if found:
            role = _phrase(after[found.end() :])
            if role and role not in WRITER_WORDS:
                return role
    if _AFTER_DETERMINER.search(text[max(0, start - 8) : start]) and after[:1] == " ":
        role = _phrase(after, 1)  # one word: a verb may follow ("the Z-9 drone flew")
        return "" if _verb_or_filler(role) else role
    return ""


def _verb_or_filler(word: str) -> bool:
    """Whether the word after "the <name>" reads as what the thing did or a chat filler ("the
    Fenno-52 came out", "the Kestro drains fast", "hates the Fenno52 lol"), not what it is: a
    past or third-person verb form; a product's kind after its name is a singular noun."""
    return (
        word in _PAST_FORMS
        or word in _FILLERS
        or word.endswith("ed")
        or word.endswith("s")
        and not word.endswith(("ss", "us", "is"))
    )


def roles_in(text: str, spans) -> str:
    """The first role any of a candidate's mentions (spans with start and end) is given."""
    for span in sorted(spans, key=lambda s: s.start):
        role = role_near(text, span.start, span.end)
        if role:
            return role
    return ""


def job_shaped(role: str) -> bool:
    """Whether each role of `role` ('; ' between) ends in a job's head word or a job noun's
    ending: what a parse misread ('sheet' of "HR sheet: X", 'chase' of "X to chase ...") is
    not a job, and two such readings must not keep one person apart."""
    roles = [r.split() for r in str(role).casefold().split(";") if r.split()]
    return bool(roles) and all(_JOB_ENDING.search(w[-1]) or titled(w) for w in roles)


def titled(words: list[str]) -> bool:
    """Whether a role's words (lower case) end in a job's head word or open with a title and
    its field ('head of procurement', 'vp sales')."""
    return words[-1] in ROLE_HEADS or len(words) > 1 and words[0] in TITLE_OPENINGS


def jobs_only(role: object) -> str:
    """The roles of `role` ('; ' between) that are job-shaped, joined again: a misread kept
    beside a real job ('category manager; sheet') must not hide that job from a comparison."""
    kept = [r.strip() for r in str(role or "").split(";") if r.strip() and job_shaped(r)]
    return "; ".join(kept)
