"""What words say a person's job is: a noun phrase ("a site reliability engineer", "head of
procurement", a title), read on the name's own line, and what a verb gives its subject ("is the
CTO", "was appointed head of procurement", "works as a geologist", "in his capacity as account
manager", "confirmed her title is payroll clerk", "X's role on this is maintenance supervisor").
mention_attributes ties each to a name."""

from __future__ import annotations

from apps.resolution.role_words import (
    DEPARTMENTS,
    RELATION_WORDS,
    ROLE_HEADS,
    TITLE_OPENINGS,
    WRITER_WORDS,
    job_shaped,
)

MAX_ROLE_WORDS = 3
# Title acronyms the small model types as organisations ("Ana Duarte (CTO, Corvane)").
TITLES = TITLE_OPENINGS | frozenset(
    "ceo cto cfo coo cio cmo cso cpo md gm pm hr ops lead founder cofounder".split()
)
_ROLE_DEPS = {"appos", "attr", "pobj", "compound", "oprd"}
# "holds the position of manager", "took the role of": the noun that names the role.
ROLE_HOLDERS = frozenset("position role title job post function".split())
# Verbs that give their passive subject a job: "was appointed CFO", "was promoted to analyst".
_GIVEN_JOB = frozenset("appoint name elect promote hire make nominate install reassign".split())
NOT_ROLES = RELATION_WORDS | frozenset(
    "one time part way thing lot kind type name year entry note record date birth age employer "
    "number phone email address reference example office site branch hq".split()
)


def verb_role(verb) -> str:
    """The job `verb` gives its subject ("is their lead data scientist", "was appointed head of
    procurement", "trained as an architect"), read on the verb's own line; '' for none."""
    return verb_job(verb, {}, line_of(verb))


def line_of(token) -> tuple[int, int]:
    """The start and end offsets of the line `token` stands on."""
    text = token.doc.text
    return text.rfind("\n", 0, token.idx) + 1, (text.find("\n", token.idx) + 1 or len(text) + 1) - 1


def verb_job(verb, owner, line: tuple[int, int]) -> str:
    """The job `verb` gives its subject, on `line`; no word of a name (`owner`: token index ->
    name) is a job."""
    # "X, promoted to Y": a past participle on the name is passive without its auxiliary
    passive = any(c.dep_ == "auxpass" for c in verb.children) or (
        verb.dep_ == "acl" and verb.tag_ == "VBN"
    )
    for child in verb.children:
        if child.dep_ in ("attr", "oprd") and verb.lemma_ in ("be", "become", "remain"):
            if child.i not in owner:
                role = role_phrase(child, line)
                if role:
                    return role
        # "X was appointed head of procurement", "was promoted to senior analyst": the job a
        # subject was given (passive only: "They appointed X head" gives it to X, the object).
        if passive and verb.lemma_.lower() in _GIVEN_JOB and child.i not in owner:
            nouns = [child] if child.dep_ == "oprd" else []
            if child.dep_ == "prep" and child.lower_ in ("to", "as"):
                nouns = [c for c in child.children if c.dep_ == "pobj"]
            for noun in nouns:
                role = role_phrase(noun, line)
                if role and job_shaped(role):
                    return role
        if child.dep_ in ("dobj", "attr") and child.lemma_ in ROLE_HOLDERS:  # "holds the role of"
            for prep in child.children:
                for pobj in prep.children if prep.lower_ == "of" else ():
                    role = role_phrase(pobj, line) if pobj.dep_ == "pobj" else ""
                    if role:
                        return role
        if child.dep_ in ("prep", "dobj") and _held_role(child):  # "moved into the X role"
            return _held_role(child)
        role = _own_role_said(child, owner, line)
        if role:
            return role
        if child.dep_ == "prep" and child.lower_ == "as":  # "works as a", "As a geologist, X"
            for pobj in child.children:
                if pobj.dep_ == "pobj" and pobj.i not in owner:
                    role = role_phrase(pobj, line)
                    if role:
                        return role
    if verb.lemma_ == "be" and not any(c.dep_ in ("attr", "acomp") for c in verb.children):
        return _said_after(verb, owner)
    return ""


_DETERMINERS = frozenset("a an the our their his her my your".split())


def _said_after(verb, owner) -> str:
    """A job's words right after a copula the parse left without its complement, as speech
    goes ("she's a purchasing assistant" with 'purchasing' read as a verb): determiners, then
    at most MAX_ROLE_WORDS lower-case words ending in a job's word and the clause."""
    doc, i = verb.doc, verb.i + 1
    while i < len(doc) and doc[i].lower_ in _DETERMINERS:
        i += 1
    words = []
    while i < len(doc) and doc[i].is_alpha and doc[i].text.islower() and i not in owner:
        words.append(doc[i].lower_)
        i += 1
    ends = i >= len(doc) or doc[i].is_punct or doc[i].is_space or doc[i].lower_ in _CLAUSE_GOES
    if not ends or not 0 < len(words) <= MAX_ROLE_WORDS:
        return ""
    return " ".join(words) if words[-1] in ROLE_HEADS else ""


_CLAUSE_GOES = frozenset("at for with in from and but so".split())


def _own_role_said(child, owner, line: tuple[int, int]) -> str:
    """ "in his capacity as account manager", "confirmed his title is account manager": the
    subject's own job, said through a role's noun with a pronoun's possessive (on the verb
    or on the one it governs: "approves spend in his capacity as ...")."""
    if child.dep_ == "xcomp":
        return next(filter(None, (_own_role_said(c, owner, line) for c in child.children)), "")
    if child.dep_ == "prep" and child.lower_ == "in":
        for noun in child.children:
            if noun.dep_ == "pobj" and noun.lemma_ in ROLE_HOLDERS | {"capacity"}:
                for pobj in (c for a in noun.children if a.lower_ == "as" for c in a.children):
                    role = role_phrase(pobj, line) if pobj.i not in owner else ""
                    if role and pobj.dep_ == "pobj":
                        return role
    if child.dep_ == "ccomp" and child.lemma_ == "be":
        said = [c for c in child.children if c.dep_ == "nsubj" and c.lemma_ in ROLE_HOLDERS]
        if said and any(c.dep_ == "poss" and c.pos_ == "PRON" for c in said[0].children):
            for attr in (c for c in child.children if c.dep_ == "attr" and c.i not in owner):
                role = role_phrase(attr, line)
                if role:
                    return role
    return ""


def _held_role(child) -> str:
    """ "moved into the warehouse manager role", "took on the sales lead job": the words before
    a role's noun, when they end in a job's word."""
    nouns = [child] if child.dep_ == "dobj" else [c for c in child.children if c.dep_ == "pobj"]
    for noun in nouns:
        if noun.lemma_ not in ROLE_HOLDERS:
            continue
        words = [t.lower_ for t in noun.doc[noun.left_edge.i : noun.i]
                 if t.is_alpha and t.text.islower() and t.dep_ not in ("det", "poss")]  # fmt: skip
        if words and job_shaped(" ".join(words)):
            return " ".join(words[-MAX_ROLE_WORDS:])
    return ""


def is_title(token) -> bool:
    return token.lower_.strip(".") in TITLES


def role_phrase(noun, line: tuple[int, int], apposed: bool = False) -> str:
    """The noun and the lower-case modifiers before it ('civil engineer', 'data scientist'),
    at most MAX_ROLE_WORDS words; '' for a word that names no role or stands on another line."""
    if not line[0] <= noun.idx < line[1] or noun.ent_type_ in ("DATE", "TIME"):
        return ""  # another line's; "X: today: docs", a day, is no job
    if not is_title(noun):
        if noun.pos_ != "NOUN" or not apposed and noun.dep_ not in _ROLE_DEPS | {"ROOT"}:
            return ""
        if not noun.text.islower():
            return ""  # "Rapport: X ...": a note's heading, not what X is
        if any(c.dep_ == "poss" and c.pos_ == "PRON" for c in noun.children):
            # "as his year of birth", "their manager, Arnaud": his, not what he is; "is their
            # lead data scientist", a job's full title, is what the subject is
            if (
                apposed
                or noun.lower_ not in ROLE_HEADS
                or not any(t.dep_ in ("compound", "amod") and t.text.islower() for t in noun.lefts)
            ):
                return ""
    words = [
        t.lower_
        for t in noun.lefts
        if t.dep_ in ("compound", "amod") and t.is_alpha and t.text.islower()
        and line[0] <= t.idx < line[1]
    ]  # fmt: skip
    word = noun.lower_.strip(".")
    if word in NOT_ROLES or not word.replace("-", "").isalpha():
        return ""
    if any(c.lower_ in ("no", "not", "never") for c in noun.lefts):
        return ""  # "X: no update", "not a blocker": nothing X is
    if word in WRITER_WORDS and not words:
        return ""  # "X, the agent, taking notes": the note's writer, no job ("travel agent" is)
    if word in TITLE_OPENINGS and not words:  # "head of procurement", "VP of Sales"
        of = next((c for c in noun.rights if c.lower_ == "of" and c.i + 1 < len(c.doc)), None)
        field = of.doc[of.i + 1] if of is not None else None  # "head of legal, instead of ..."
        if (
            field is not None
            and field.is_alpha
            and (field.dep_ == "pobj" and field.text.islower() or field.lower_ in DEPARTMENTS)
        ):
            return f"{word} of {field.lower_}"
        field = _field_of(of) if of is not None else ""
        if field:  # "head of customer support": the field's words before its noun too
            return f"{word} of {field}"
    return " ".join([*words, word][-MAX_ROLE_WORDS:])


def _field_of(of) -> str:
    nouns = [c for c in of.children if c.dep_ == "pobj" and c.is_alpha and c.text.islower()]
    if not nouns:
        return ""
    noun = nouns[0]
    words = [t for t in noun.lefts if t.dep_ in ("compound", "amod") and t.i > of.i]
    if not all(t.is_alpha and t.text.islower() for t in words) or len(words) > 2:
        return ""
    return " ".join(t.lower_ for t in [*words, noun])
