"""Every comparison of two records of one entity type, in a fixed order: what the match model
weighs."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from apps.resolution.comparisons import MISSING, Compared
from apps.resolution.comparisons.addresses import compare_addresses
from apps.resolution.comparisons.affiliations import (
    AFFILIATIONS,
    FORMER_EMPLOYER,
    affiliation_values,
    compare_affiliation,
)
from apps.resolution.comparisons.context import compare_context, neighbour_kind
from apps.resolution.comparisons.dates import compare_dates
from apps.resolution.comparisons.descriptions import compare_descriptions
from apps.resolution.comparisons.entity_types import compare_types
from apps.resolution.comparisons.identifiers import (
    compare_domains,
    compare_emails,
    compare_external_ids,
)
from apps.resolution.comparisons.names import compare_names, model_codes
from apps.resolution.comparisons.organisation_names import (
    legal_base,
    short_name_of,
    trade_named,
)
from apps.resolution.comparisons.phones import compare_phones
from apps.resolution.comparisons.roles import compare_roles
from apps.resolution.comparisons.text_forms import comparable
from apps.resolution.role_words import jobs_only

COMPARISONS = ("name", "born", "phone", "email", "domain", "external_id", "address",
               "description", "type", "context", "role", "employer", "city", "maker",
               "hobby", "rare_name")  # fmt: skip
LEARNED_PREFIX = "text:"
# Context is evidence for an identical or variant name only: two entities named in one chunk
# share its neighbours, and a name a slip apart with agreeing context is still a reviewer's.
CONTEXT_NAMES = (
    "exact",
    "variant",
    "surname",
    "given",
)  # a value learned from text (apps.resolution.text_evidence)
# Context that agrees: what lets a rare model name count (rare_name).
AGREEING = {("context", "shared"), ("context", "many"), ("role", "same"), ("maker", "same"),
            ("employer", "same")}  # fmt: skip
# A tie shared outright settles its kind of neighbour: another city named beside one side is
# no other home town when both name the same city as theirs.
_SETTLES = {"employer": "Organization", "city": "Location"}
# A name is rare when at most this many other entities of the type carry it (a duplicate that
# waits for a reviewer is one of them).
RARE_CARRIERS = 2
# Names that are one thing within a tenant when no other entity of the type carries them and
# nothing conflicts (docs/concepts/text-identity.md, "Places and registered names"): a place
# (places are shared context, named beside anyone), and an organisation's registered name
# written with its legal form on both sides ("Tamarind Robotics Ltd").
SOLE_LEVELS = {"Location": "place", "Organization": "registered", "Object": "model"}
# A model name that tells a product apart: a stem of at least this many letters and a number
# ('Presk-28', 'Veyra 4'); 'Z5' or 'V-7' alone may be anything's.
MODEL_STEM_LETTERS = 4
_STEM = re.compile(f"[a-z]{{{MODEL_STEM_LETTERS},}}")


@dataclass(frozen=True)
class Record:
    """One side: its names (name first, then aliases) and values; its type when it may differ
    from the other side's, whether an extractor guessed it, and the (type, name) of the
    entities named beside it."""

    names: Sequence[str]
    values: dict = field(default_factory=dict)
    type: str | None = None
    guessed: bool = False
    context: Sequence[tuple[str, str]] = ()


def values_compared(values: dict) -> tuple[dict, set[str]]:
    """The values a comparison reads: each key's stated value, else the one learned from text
    (never outranking a stated one); and the keys taken from text."""
    out = {k: v for k, v in values.items() if not k.startswith(LEARNED_PREFIX)}
    learned = set()
    for key, value in values.items():
        if key.startswith(LEARNED_PREFIX):
            plain = key.removeprefix(LEARNED_PREFIX)
            if plain not in out:
                out[plain] = value
                learned.add(plain)
    return out, learned


def records_compare(
    kind: str,
    mine: Record,
    theirs: Record,
    *,
    semantic: float | None = None,
    rare: bool = False,
    sole: bool = False,
) -> list[Compared]:
    """One Compared per comparison of COMPARISONS; `semantic` is the cosine of the two
    descriptions' embeddings (None when either has none); `rare`: the candidate's name is
    carried by at most RARE_CARRIERS other entities of its type in the tenant; `sole`: the match is
    the only other entity of the type in the tenant that carries the candidate's name. A value
    learned from text says so in its detail."""
    a, learned_a = values_compared(mine.values)
    b, learned_b = values_compared(theirs.values)
    other_kind = theirs.type or kind
    names_kind = neighbour_kind(mine.type or kind, other_kind)
    date_key = "born" if kind == "Person" else "founded"
    born = compare_dates(date_key, a.get(date_key), b.get(date_key))
    found = [
        compare_names(names_kind, mine.names, theirs.names),
        Compared("born", born.level, born.detail),
        compare_phones(a.get("phone"), b.get("phone")),
        compare_emails(a.get("email"), b.get("email")),
        compare_domains(a, b),
        compare_external_ids(a, b),
        compare_addresses(a.get("address"), b.get("address")),
        compare_descriptions(semantic),
    ]
    learned = learned_a | learned_b
    marked = {"born": date_key, "domain": "url"}
    for i, compared in enumerate(found):
        keys = {compared.comparison, marked.get(compared.comparison, "")}
        if compared.level != MISSING and keys & learned:
            found[i] = Compared(compared.comparison, compared.level,
                                f"{compared.detail}, learned from text")  # fmt: skip
    found.append(
        compare_types(mine.type or kind, mine.guessed, other_kind, theirs.guessed)
        if mine.type and theirs.type and (mine.guessed or theirs.guessed)
        else Compared("type", MISSING)
    )  # fmt: skip
    names = (*mine.names, *theirs.names)
    coded = all(model_codes(n) for n in (mine.names[0], theirs.names[0]))
    ties = [compare_affiliation(key, "Object" if coded else kind, a.get(key), b.get(key))
            for key in AFFILIATIONS]  # fmt: skip
    # A tie both sides have (an employer, a city, a maker) is its own comparison below, so it is
    # not counted again as a neighbour named beside.
    tied = [v for tie in ties if tie.level != MISSING
            for side in (a, b) for v in affiliation_values(side.get(tie.comparison))]  # fmt: skip
    tied += [v for side in (a, b) for v in affiliation_values(side.get(FORMER_EMPLOYER))]
    if kind == "Person" and ties[0].level == MISSING:  # both worked at one firm before
        was = compare_affiliation("employer", kind, a.get(FORMER_EMPLOYER), b.get(FORMER_EMPLOYER))
        if was.level == "same":
            ties[0] = Compared("employer", "same", f"formerly {was.detail} on both sides")
    if found[0].level not in CONTEXT_NAMES:  # as context_counts says
        found.append(Compared("context", MISSING))
    else:  # a model number guessed a Person is no person: no employer or city conflicts
        settled = frozenset(_SETTLES[t.comparison] for t in ties
                            if t.comparison in _SETTLES and t.level == "same")  # fmt: skip
        found.append(compare_context("Object" if coded else kind, mine.context, theirs.context,
                                     (*names, *tied), settled))  # fmt: skip
    role = compare_roles(a.get("role"), b.get("role"))
    if role.level != "different" and found[0].level not in CONTEXT_NAMES:
        role = Compared("role", MISSING)  # a role agreeing beside a name a slip apart: a reviewer's
    if role.level == "different" and kind == "Person" and other_kind == "Person":
        # Another job: namesakes, a reviewer's; a word no job is called (a misread) is no job.
        # Each side's jobs alone: one misread beside a job ('category manager; sheet') hid it.
        jobs_a, jobs_b = jobs_only(a.get("role")), jobs_only(b.get("role"))
        role = (Compared("role", "conflict", f"'{jobs_a}' / '{jobs_b}'") if jobs_a and jobs_b
                else Compared("role", MISSING))  # fmt: skip
    if role.level != MISSING and "role" in learned:
        role = Compared("role", role.level, f"{role.detail}, learned from text")
    found.append(role)
    for tie in ties:
        key = tie.comparison
        if tie.level == "same" and found[0].level not in CONTEXT_NAMES:
            tie = Compared(key, MISSING)  # agreeing beside a name a slip apart: a reviewer's
        if tie.level != MISSING and key in learned:
            tie = Compared(key, tie.level, f"{tie.detail}, learned from text")
        found.append(tie)
    # A note's description is the words around its mention: where a job or a tie agrees, one
    # that reads otherwise is the note's other business ('b. 1967', 'chase by Friday').
    if any(c.comparison in ("role", *AFFILIATIONS) and c.level == "same" for c in found):
        found = _undescribed(found)
    # Only where a sole name may merge is a registered firm's role left out (below).
    registered = sole and _registered_both(kind, mine, theirs, found)
    agreeing = {(c.comparison, c.level) for c in found} & AGREEING
    if rare and coded and found[0].level in CONTEXT_NAMES and agreeing:
        why = ", ".join(sorted(f"{c} {level}" for c, level in agreeing))
        found.append(Compared("rare_name", "code", f"a model name few entities of the tenant "
                              f"carry, with agreeing context ({why})"))  # fmt: skip
    else:
        found.append(
            _sole_name(kind, mine, theirs, found, registered=registered)
            if sole
            else Compared("rare_name", MISSING)
        )
    if found[-1].level != MISSING:  # each note describes a product or a firm its own way
        found = _undescribed(found, roles=registered)
    return found


def _undescribed(found: list[Compared], *, roles: bool = False) -> list[Compared]:
    """`found` with a description that reads otherwise (low, unrelated) left out; with `roles`,
    a role that differs too."""
    return [Compared(c.comparison, MISSING) if c.comparison == "description"
            and c.level in ("low", "unrelated") or roles and c.comparison == "role"
            and c.level == "different" else c for c in found]  # fmt: skip


def _registered_both(kind: str, mine: Record, theirs: Record, found: list[Compared]) -> bool:
    """One registered name, legal form and all, on both sides of a firm: what a note says the
    firm is ("an agri-tech company", "the invoice dispute") describes it, as a description
    does, and neither stops the `registered` level nor weighs against it."""
    if SOLE_LEVELS.get(kind) != "registered" or found[0].level != "exact":
        return False
    names = _registered_pair(mine.names, theirs.names) or (mine.names[0], theirs.names[0])
    return all(legal_base(n) != comparable(n) for n in names)


def sole_carrier(name: str, same_name_count: int, blocked: Sequence[str]) -> bool:
    """Whether a match may be the only other entity that carries `name` (the `sole` of
    records_compare): at most one entity of the type has the name itself, and among the
    blocked matches (`blocked`, their names) at most one registered name (with a legal form)
    shares its name without the legal form, and one short form, however many carry it
    ('Silverfin Foods' is no sole carrier's when 'Silverfin Foods Inc' sits beside 'Silverfin
    Foods S.A.')."""
    base = legal_base(name)
    alike = [n for n in blocked if legal_base(n) == base]
    # Distinct names: two fragments of one short name ('Frostvik' twice, split before the
    # registered name came) are one short form, so the first split is not made permanent.
    registered = {comparable(n) for n in alike if comparable(n) != base}
    # A firm's first word ('Pellucid' of 'Pellucid Labs Ltd', short_name_of) is one firm's
    # only when one registered firm of the blocked opens with it, and one short name is it.
    families = {legal_base(n) for n in blocked if short_name_of(name, n)}
    shorts = {comparable(n) for n in blocked if short_name_of(n, name)}
    rivals = {legal_base(n) for n in blocked if shorts and legal_base(n) != base
              and (comparable(n) != legal_base(n) or trade_named(n))
              and legal_base(n).split()[0] in shorts}  # fmt: skip
    return (same_name_count <= 1 and len(registered) <= 1
            and len(families) <= 1 and len(shorts) <= 1 and not rivals)  # fmt: skip


def _sole_name(
    kind: str, mine: Record, theirs: Record, found: list[Compared], *, registered: bool
) -> Compared:
    """The `rare_name` level `place` or `registered` (SOLE_LEVELS): an identical name of that
    type on both sides (for a firm: its registered name twice, or once and its short form
    once where an extractor typed a side), that no third entity of the tenant carries (`sole_carrier`), with nothing against it
    (a conflicting identifier forbids the merge anyway; a role, a tie or context in conflict
    weighs against and stops it here, and for a place a description of another thing too: a
    firm's or a product's notes describe it each their own way)."""
    level = SOLE_LEVELS.get(kind)
    types = {mine.type or kind, theirs.type or kind}
    against = [c for c in found[1:] if c.comparison in ("context", "role", "description",
                                                        *AFFILIATIONS)
               and c.level in ("conflict", "different", "unrelated")]  # fmt: skip
    pair = _registered_pair(mine.names, theirs.names) if level == "registered" else None
    names = pair or (mine.names[0], theirs.names[0])
    if level is None or types != {kind} or found[0].level not in CONTEXT_NAMES:
        return Compared("rare_name", MISSING)
    if any(c.comparison != "description" and not (registered and c.comparison == "role")
           for c in against):  # fmt: skip
        return Compared("rare_name", MISSING)
    if level == "model" or (level == "registered" and pair is None and found[0].level == "exact"
                            and not all(legal_base(n) != comparable(n) for n in names)):  # fmt: skip
        # A trade name both sides carry, one as an alias: a note's 'Zelenka Motors' that the
        # tenant's known names gave the entity's own name 'Zelenka'
        shared = [(a, b) for a in mine.names for b in theirs.names
                  if comparable(a) == comparable(b) and trade_named(a)]  # fmt: skip
        return _sole_told_apart(level, shared[0] if level == "registered" and shared else names)
    if against and level == "place":  # a firm's notes describe it each their own way
        return Compared("rare_name", MISSING)
    formed = [legal_base(n) != comparable(n) for n in names]
    if level == "place" and found[0].level != "exact":
        return Compared("rare_name", MISSING)
    first_word = short_name_of(*names) or short_name_of(*names[::-1])
    if level == "registered" and not (
        (found[0].level == "exact" and all(formed))
        or ((sum(formed) == 1 and legal_base(names[0]) == legal_base(names[1]) or first_word)
            and (mine.guessed or theirs.guessed))  # a mention's; an agent's two names are two
    ):  # fmt: skip
        return Compared("rare_name", MISSING)  # a short name alone: many firms may be called so
    why = (
        "a place name no other place of the tenant carries"
        if level == "place"
        else "a registered name (with its legal form) no other organisation of the tenant carries"
        if all(formed)
        else "a registered name and its short form, no other organisation of the tenant either"
        if any(formed)
        else "a firm's trade name and its first word, no other organisation of the tenant either"
    )
    return Compared("rare_name", level, why)


def _registered_pair(mine: Sequence[str], theirs: Sequence[str]) -> tuple[str, str] | None:
    """A registered name (with its legal form) on both sides, else on one side with its short
    form on the other, each side's name or alias ('Arqueta S.A.C.' or 'Arqueta' beside an
    entity created as 'Arqueta' that a note named 'Arqueta S.A.C' too): compared so whichever
    of its names an entity was created under."""
    pairs = [(a, b) for a in mine for b in theirs if legal_base(a) == legal_base(b)
             or short_name_of(a, b) or short_name_of(b, a)]  # fmt: skip
    formed = [
        (a, b) for a, b in pairs if legal_base(a) != comparable(a) or legal_base(b) != comparable(b)
    ]
    both = [(a, b) for a, b in formed if comparable(a) == comparable(b)]
    return (both or formed or [None])[0]


def _sole_told_apart(level: str, names: tuple[str, str]) -> Compared:
    """A firm's trade name ('Tellurion Systems', level `firm`) or a product's model name with
    a stem ('Presk-28' / 'Presk 28', level `model`) that no third entity of the tenant carries:
    names chosen to be told apart, unlike 'Tellurion' or 'Z5' alone. A description of another
    thing does not stop them: a product's notes describe it each their own way."""
    if level == "model":
        codes = [model_codes(n) for n in names]
        stems = [_STEM.search(comparable(n)) for n in names]
        if not (all(codes) and all(stems) and codes[0] == codes[1]):
            return Compared("rare_name", MISSING)
        return Compared("rare_name", "model", "a model name with a stem no other thing of the "
                        "tenant carries")  # fmt: skip
    if not all(trade_named(n) for n in names):
        return Compared("rare_name", MISSING)
    return Compared("rare_name", "firm", "a firm's trade name no other organisation of the "
                    "tenant carries")  # fmt: skip


def context_counts(kind: str, my_names, their_names, my_type=None, their_type=None) -> bool:
    """Whether `records_compare` reads the two sides' neighbours at all (beside a name in
    CONTEXT_NAMES only): a reader may leave them unread otherwise (gate_batch.contexts_fill)."""
    names_kind = neighbour_kind(my_type or kind, their_type or kind)
    return compare_names(names_kind, my_names, their_names).level in CONTEXT_NAMES
