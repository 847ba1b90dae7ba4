"""What a sentence says about each named thing, read from spaCy's dependency parse rather than
from sentence templates, so that "X works as a geologist for Y", "As a geologist, X often
travels for Y" and "Met X (geologist, Y)" all give X the job 'geologist' and the employer Y.

Attributes, per entity name of the chunk (after the document's short-term state resolved
surnames and "the company"):
- `role`: the noun phrase that says what a person is: an apposition ("X, a nurse"), a
  predicate nominal ("X is the CTO"), "as a ..." on X's verb ("X works as", "As a geologist,
  X ..."), a title before the name ("geologist Leila Haddad"), a reversed apposition ("the
  CTO, X"), a relative clause ("X, who works as a ..."), a job given to the subject ("X was
  appointed head of procurement", "was promoted to senior analyst");
- `employer` (a person's organisation), `city` (a person's or an organisation's place) and
  `maker` (a thing's organisation): the nearest mention of that kind in the parse tree within
  MAX_PATH arcs, when no mention of the claimant's own kind stands on the path and no other
  claimant is nearer ("X met Y of Z": Z is Y's, not X's).

Whatever the relation words ("works for", "joined", "hired", "of", "at", "'s"), the tie is the
evidence: two notes that tie one name to one firm speak of one person; the comparison that
reads them (resolution.comparisons.affiliations) weighs a disagreement mildly, since a looser
tie ("X emailed Y") can disagree for one person."""

from __future__ import annotations

from collections.abc import Sequence

from apps.ingestion.extraction.former_ties import former_cued
from apps.ingestion.extraction.note_fields import fields_read
from apps.ingestion.extraction.pronoun_mentions import labels_turn, pronoun_mentions
from apps.ingestion.extraction.role_phrases import (
    MAX_ROLE_WORDS,
    NOT_ROLES,
    ROLE_HOLDERS,
    TITLES,
    is_title,
    line_of,
    role_phrase,
    verb_job,
)
from apps.ingestion.extraction.turn_answers import answers_read
from apps.resolution.comparisons.affiliations import FORMER_EMPLOYER
from apps.resolution.role_words import (
    ROLE_HEADS,
    job_shaped,
    on_roll,
)

MAX_PATH = 4  # arcs, prepositions not counted
MAX_VALUES = 3  # per attribute and chunk
# What each attribute takes (the candidate mentions) and who claims it.
_TIES = {
    "employer": (("Organization",), ("Person",)),
    "city": (("Location",), ("Person", "Organization")),
    "maker": (("Organization",), ("Object",)),
}


def attributes_read(doc, mentions: Sequence) -> dict[str, dict[str, str]]:
    """name -> {attribute: value} for the chunk's `mentions` (LocalMention-like: start, end,
    name, type) in the parsed `doc`; several values of one attribute are joined by '; '."""
    spans = []  # (head token, mention)
    owner: dict[int, int] = {}
    for m in [*mentions, *pronoun_mentions(doc, mentions)]:
        tokens = doc.char_span(m.start, m.end, alignment_mode="expand")
        if tokens is None or not len(tokens):
            continue
        spans.append((_span_head(tokens), m))
        for token in tokens:
            owner[token.i] = len(spans) - 1
    found: dict[str, dict[str, list[str]]] = {}
    for key, (takes, claimants) in _TIES.items():
        for value_i, (value_head, value) in enumerate(spans):
            if value.type not in takes:
                continue
            best = _claimants(spans, owner, value_i, value_head, claimants)
            # "ex-Tessaro", "used to be at Tessaro": where the person worked
            former = key == "employer" and former_cued(doc.text, value.start, value.end)
            tie = FORMER_EMPLOYER if former else key
            for i in best:
                name = spans[i][1].name
                if name != value.name:
                    found.setdefault(name, {}).setdefault(tie, []).append(value.name)
    for head, m in spans:
        if m.type == "Person":
            role = _role_of(head, owner, turn=labels_turn(doc.text, m))
            if role:
                found.setdefault(m.name, {}).setdefault("role", []).append(role)
    out: dict[str, dict[str, str]] = {}
    for name, attributes in found.items():
        out[name] = {
            key: "; ".join(list(dict.fromkeys(values))[:MAX_VALUES])
            for key, values in attributes.items()
            if key != "role"
        }
        # "Noor: noor", a speaker's label over her own name, is no role
        attributes["role"] = [r for r in attributes.get("role", ())
                              if set(r.split()) - set(name.lower().split())]  # fmt: skip
        jobs = [r for r in attributes["role"] if job_shaped(r)]
        if jobs:
            out[name]["role"] = jobs[0]
    for name, fields in [*fields_read(doc.text, mentions, TITLES, NOT_ROLES).items(),
                         *answers_read(doc.text, mentions).items()]:  # fmt: skip
        for key, value in fields.items():  # what the parse tied, else the fields, the answers
            out.setdefault(name, {}).setdefault(key, value)
    for name, attributes in found.items():  # a reading no job's word ends ('budget'), last
        if attributes["role"]:
            out[name].setdefault("role", attributes["role"][0])
    for attributes in out.values():  # "(ex-Tessaro)" read as a field too: where she was
        former = set(attributes.get(FORMER_EMPLOYER, "").split("; "))
        now = "; ".join(e for e in attributes.pop("employer", "").split("; ") if e not in former)
        if now:
            attributes["employer"] = now
    return out


def _span_head(tokens):
    """The token of the span whose head lies outside it (the span's root)."""
    inside = {t.i for t in tokens}
    for token in tokens:
        if token.head.i not in inside or token.head.i == token.i:
            return token
    return tokens[-1]


def _claimants(spans, owner, value_i, value_head, kinds) -> list[int]:
    """The mentions of `kinds` nearest to the value's head in the parse (within MAX_PATH arcs
    and the same sentence), with no mention of their own kind on the path between."""
    distances = []
    named = {t: spans[j][1].name for t, j in owner.items()}  # token -> the mention's name
    for i, (head, m) in enumerate(spans):
        if i == value_i or m.type not in kinds or head.sent.start != value_head.sent.start:
            continue
        path = _path(head, value_head)
        if path is None or _coordinated(path):
            continue
        # A preposition is no step of its own: "works as a geologist for Y" is three.
        steps = len(path) - 1 - sum(1 for t in path[1:-1] if t.pos_ == "ADP")
        if steps > MAX_PATH:
            continue
        between = {owner[t.i] for t in path[1:-1] if t.i in owner} - {i, value_i}
        if any(spans[j][1].type == m.type for j in between) or _subject_else(
            path, named, m.name, spans[value_i][1].name
        ):
            continue
        distances.append((steps, i))
    if not distances:
        return []
    nearest = min(d for d, _ in distances)
    return [i for d, i in distances if d == nearest]


def _subject_else(path: list, named: dict[int, str], claimant: str, value: str) -> bool:
    """Whether a verb on the path has another named thing for its subject, nearer to it than
    the claimant: the tie is that thing's ("X, taking notes; The Lirra 3 comes from Minstomi"
    parsed X as a second subject of 'comes': Minstomi is the Lirra's maker, not X's employer)."""
    for verb in path[1:-1]:
        subjects = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass") and c.i in named]
        others = [abs(c.i - verb.i) for c in subjects if named[c.i] not in (claimant, value)]
        mine = [abs(c.i - verb.i) for c in subjects if named[c.i] == claimant]
        if others and (not mine or min(others) < min(mine)):
            return True
    return False


def _coordinated(path: list) -> bool:
    """Two names joined by 'and' ("Sargsyan and Ilze Kalniņa ...") are listed side by side:
    neither is the other's firm or place."""
    return len(path) == 2 and "conj" in (path[0].dep_, path[1].dep_)


def _path(a, b) -> list | None:
    """The tokens on the parse tree's path from `a` to `b`, both included."""
    up_a = [a, *a.ancestors]
    index = {t.i: n for n, t in enumerate(up_a)}
    climbed = [b]
    for token in [b, *b.ancestors]:
        if token.i in index:
            return up_a[: index[token.i] + 1] + list(reversed(climbed[:-1]))
        climbed.append(token.head)
    return None


def _role_of(head, owner, turn: bool = False) -> str:
    """What the sentence says the person whose span ends at `head` is (module docstring), on
    the name's own line: a parse that runs across a line break ties a heading or the line
    before ("Handover notes for cover" over "- Kavitha Selvaraj") to the name. A `turn`'s
    speaker label is no subject of the line's verbs (pronoun_mentions.labels_turn)."""
    text = head.doc.text
    line = line_of(head)
    # "Attendees: X, Y (LM), the agent": appositions that are names make a list, and a role
    # after it is anyone's.
    listed = any(c.dep_ == "appos" and owner.get(c.i, owner.get(head.i)) != owner.get(head.i)
                 for c in head.children)  # fmt: skip
    roll = on_roll(text, head.idx)  # "Present: X, the night-shift lead": another attendee
    for child in _appositions(head):  # "X, a nurse"; "X (CTO, Y)"
        if listed:
            break
        if roll and any(c.dep_ == "det" for c in child.children):
            continue
        if child.dep_ == "appos" and child.i not in owner or is_title(child):
            role = role_phrase(child, line)
            if role:
                return role
    if head.dep_ == "appos" and head.head.i not in owner and _comma_only(head.head, head, owner):
        # "the CTO, X"; not "HR sheet: X", "attendees - X"; "The firm's CFO, X, said" (a subject)
        role = role_phrase(head.head, line, apposed=True)
        if role:
            return role
    for child in head.children:  # "geologist Leila Haddad", "CTO Ana Duarte"
        if child.dep_ in ("compound", "amod") and child.i < head.i and child.i not in owner:
            # "HR sheet: X", "attendees - X", "New face: X": a label before a mark, no title.
            marked = any(t.is_punct or t.is_space for t in head.doc[child.i + 1 : head.i]
                         if t.i not in owner)  # fmt: skip
            if not marked and (child.pos_ == "NOUN" or is_title(child)):
                role = role_phrase(child, line)
                if role:
                    return role
    verbs = []
    if head.dep_ == "poss" and head.head.lemma_ in ROLE_HOLDERS and head.head.dep_ == "nsubj":
        verbs.append(head.head.head)  # "X's role on this is maintenance supervisor"
    # The subject's verb, or on an auxiliary (where the parse strays) its verb's too.
    if head.dep_ in ("nsubj", "nsubjpass") and not turn:
        verbs += [head.head, head.head.head] if head.head.dep_ == "aux" else [head.head]
    elif head.dep_ == "appos" and head.head.dep_ in ("nsubj", "nsubjpass"):
        verbs.append(head.head.head)  # "Our contact X is a research chemist"
    for child in head.children:  # "X, who works as a geologist"; "X (was moved to the Y role)"
        if (
            child.dep_ == "relcl"
            or child.dep_ in ("parataxis", "acl")
            and child.pos_ in ("VERB", "AUX")
            and not any(c.dep_ in ("nsubj", "nsubjpass") for c in child.children)
        ):
            verbs.append(child)
    verbs += [
        c for v in verbs for c in v.children if c.dep_ == "conj" and c.pos_ in ("VERB", "AUX")
    ]
    # "X moved to Rosario to join Y as an agronomist": the clause's subject is X, unless the
    # verb has an object who is the one asked ("X asked Ana to join as CTO"); and only a job
    # ("X is trying to sell the Vexa 8 as a premium product": the Vexa's).
    clauses = [
        c for v in verbs for c in v.children if c.dep_ == "xcomp" and c.pos_ == "VERB"
        and not any(o.dep_ == "dobj" for o in v.children)
    ]  # fmt: skip
    for verb in verbs + clauses:  # "X has been with Y and serves as ...": the conjoined verb's too
        role = verb_job(verb, owner, line)
        if role and (verb in verbs or job_shaped(role)):
            return role
    return _role_before(head, owner, line)


def _role_before(head, owner, line: tuple[int, int]) -> str:
    """A job's words just before the name on its line, however the parse hung them ("contact:
    Achterberg AG data engineer Aigerim Trinh": both hang on the next line's first word)."""
    start = head.i
    while start > 0 and owner.get(start - 1) == owner.get(head.i):
        start -= 1
    words = []  # the head word by the list of jobs, whatever the tagger made it ('engineer' VBP)
    for token in reversed(head.doc[max(0, start - MAX_ROLE_WORDS) : start]):
        if (
            token.i in owner
            or not token.is_alpha
            or not token.text.islower()
            or not (token.pos_ in ("NOUN", "ADJ") or not words and token.lower_ in ROLE_HEADS)
            or not line[0] <= token.idx < line[1]
        ):
            break
        words.insert(0, token.lower_)
    if not words or words[-1] in NOT_ROLES:
        return ""
    # A job noun not on the list ('hydrologist', 'beekeeper') only where the parse ties it to
    # the name: "the paper Ana Ruiz wrote" is no job of hers.
    if words[-1] not in ROLE_HEADS and not (job_shaped(words[-1]) and _tied(start - 1, head)):
        return ""
    opening = start - len(words) - 1  # "their manager Arnaud": how one stands to them, no job
    if opening >= 0 and head.doc[opening].dep_ in ("poss", "case"):
        return ""
    return " ".join(words)


def _tied(word_i: int, head) -> bool:
    """Whether the word at `word_i` modifies the name whose head is `head`, or the name stands
    in apposition to it: "the hydrologist Sunniva Aakre", "the welder Tomas Ruiz"."""
    word = head.doc[word_i]
    return (
        word.head.i == head.i
        and word.dep_ in ("amod", "compound", "nmod")
        or (head.head.i == word_i and head.dep_ == "appos")
    )


def _comma_only(before, head, owner) -> bool:
    """Whether only commas stand between `before` and the mention whose head is `head`."""
    between = [t for t in head.doc[before.i + 1 : head.i] if t.i not in owner]
    return all(t.text == "," for t in between)


def _appositions(head) -> list:
    """`head`'s children, but an apposition the parse hung on a first conjunct after a later
    one is that later one's: in "Y and X (product manager) met", X is the manager, not Y."""
    out = [c for c in head.children if c.dep_ != "appos" or apposition_holder(c).i == head.i]
    # "X: today: docs; blocker: laptop": a semicolon ends what is said of X; so does X's
    # relative clause ("X, who works as a buyer: update: ..."): what follows is the note's
    clause = min((c.i for c in head.children if c.dep_ == "relcl"), default=len(head.doc))
    out = [c for c in out if c.dep_ != "appos"
           or ";" not in head.doc[head.i : c.i].text and c.i < clause]  # fmt: skip
    if head.dep_ == "conj":
        out += [c for c in head.head.children
                if c.dep_ == "appos" and apposition_holder(c).i == head.i]  # fmt: skip
    return out


def apposition_holder(appos):
    """The token an apposition describes: its head, or the head's last conjunct before it
    ("Y and X (product manager)": X's, though the parse hangs it on Y)."""
    head = appos.head
    later = [c for c in head.children if c.dep_ == "conj" and head.i < c.i < appos.i]
    return later[-1] if later else head
