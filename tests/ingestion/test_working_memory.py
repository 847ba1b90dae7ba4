"""The short-term state of one document: local resolution of short names, descriptions and
demonstratives, unresolved references, and the reset at section boundaries."""

from apps.ingestion.chunking import OutlineEntry
from apps.ingestion.working_memory import (
    ARGUMENT,
    NamedSpan,
    ShortTermState,
    WorkingMemory,
    read_chunk,
)


def spans(text, *named):
    return [NamedSpan(s, text.index(s), text.index(s) + len(s), t) for s, t in named]


def test_a_short_name_resolves_to_the_full_name_seen_before():
    state = WorkingMemory()
    state.begin_chunk(("Cases",))
    text = "Sherlock Holmes arrived. Later Holmes left."
    first = text.index("Holmes", 10)
    found = [
        NamedSpan("Sherlock Holmes", 0, 15, "Person"),
        NamedSpan("Holmes", first, first + 6, "Person"),
    ]
    reading = read_chunk(state, text, found)
    assert [(m.surface, m.name, m.via) for m in reading.mentions] == [
        ("Sherlock Holmes", "Sherlock Holmes", "name"),
        ("Holmes", "Sherlock Holmes", "state"),
    ]


def test_state_carries_across_chunks_of_one_section():
    state = WorkingMemory()
    state.begin_chunk(("Firms",))
    read_chunk(state, "Acme Corp grew.", spans("Acme Corp grew.", ("Acme Corp", "Organization")))
    assert state.begin_chunk(("Firms",)) is False
    reading = read_chunk(state, "The company moved.", [])
    assert [(r.phrase, r.target) for r in reading.references] == [("The company", "Acme Corp")]
    assert reading.mentions[0].name == "Acme Corp" and reading.mentions[0].via == "reference"


def test_a_reference_waits_for_its_antecedent_within_the_section():
    state = WorkingMemory()
    state.begin_chunk(("A",))
    reading = read_chunk(state, "The company is new.", [])
    assert reading.references[0].target is None
    assert state.view().unresolved == ("The company",)
    read_chunk(
        state, "It is Globex Inc.", spans("It is Globex Inc.", ("Globex Inc", "Organization"))
    )
    assert state.view().unresolved == ()


def test_this_assumption_points_to_the_current_branch():
    state = WorkingMemory()
    state.begin_chunk(("Argument",))
    text = "We assume that every market clears. This assumption fails in a crisis."
    reading = read_chunk(state, text, [])
    assert [(r.kind, r.target) for r in reading.references] == [
        (ARGUMENT, "We assume that every market clears.")
    ]
    assert reading.mentions == []  # an argument is not an entity


def test_a_section_boundary_resets_the_short_lived_state_but_keeps_the_outline():
    outline = [OutlineEntry(1, "Cases", 0), OutlineEntry(1, "Firms", 50)]
    state: ShortTermState = WorkingMemory(outline)
    state.begin_chunk(("Cases",))
    read_chunk(state, "Sherlock Holmes. We assume that he lies.", spans(
        "Sherlock Holmes. We assume that he lies.", ("Sherlock Holmes", "Person")))  # fmt: skip
    assert state.view().active_entities and state.view().branch
    assert state.begin_chunk(("Firms",)) is True
    view = state.view()
    assert view.active_entities == () and view.branch is None and view.unresolved == ()
    assert view.outline == tuple(outline) and view.section_path == ("Firms",)
    assert view.transitional == (("Sherlock Holmes", "Person"),)  # weak, for two chunks
    state.begin_chunk(("Firms",))
    state.begin_chunk(("Firms",))
    reading = read_chunk(state, "Holmes again.", spans("Holmes again.", ("Holmes", "Person")))
    assert reading.mentions[0].name == "Holmes"  # resolution now belongs to the long-term graph


def test_types_must_agree():
    state = WorkingMemory()
    state.begin_chunk(())
    read_chunk(state, "Paris Hilton.", spans("Paris Hilton.", ("Paris Hilton", "Person")))
    reading = read_chunk(state, "Paris.", spans("Paris.", ("Paris", "Location")))
    assert reading.mentions[0].name == "Paris"


def test_an_acronym_after_the_full_name_resolves_to_it_across_chunks():
    state = WorkingMemory()
    state.begin_chunk(("Firms",))
    text = "International Business Machines opened a lab."
    read_chunk(state, text, spans(text, ("International Business Machines", "Organization")))
    state.begin_chunk(("Firms",))
    later = "IBM hired forty people."
    reading = read_chunk(state, later, spans(later, ("IBM", "Organization")))
    assert [(m.surface, m.name, m.via) for m in reading.mentions] == [
        ("IBM", "International Business Machines", "state")
    ]
    assert state.canonical("IBM", "Person") is None  # people have initials, not acronyms


def test_a_lone_surname_typed_otherwise_by_the_extractor_takes_the_persons_type():
    state = WorkingMemory()
    state.begin_chunk(())
    text = "Ada Lovelace wrote notes. Lovelace saw further."
    found = spans(text, ("Ada Lovelace", "Person"))
    at = text.index("Lovelace", 5)
    found.append(NamedSpan("Lovelace", at, at + 8, "Organization"))  # as the small model says
    reading = read_chunk(state, text, found)
    assert [(m.surface, m.name, m.type) for m in reading.mentions] == [
        ("Ada Lovelace", "Ada Lovelace", "Person"),
        ("Lovelace", "Ada Lovelace", "Person"),
    ]
    # Two words naming nothing active keep the type they were given.
    other = "Globex Labs hired."
    assert (
        read_chunk(state, other, spans(other, ("Globex Labs", "Organization"))).mentions[0].type
        == "Organization"
    )


def test_a_names_first_word_typed_a_place_is_that_name_unless_it_is_a_place():
    state = WorkingMemory()
    state.begin_chunk(())
    text = "The Ostrel 4 arrived. Paris Quaye tested it. The Ostrel runs hot; Paris is far."
    found = spans(text, ("Ostrel 4", "Object"), ("Paris Quaye", "Person"))
    for word in ("Ostrel", "Paris"):  # as the small model types them
        at = text.rindex(word)
        found.append(NamedSpan(word, at, at + len(word), "Location"))
    reading = read_chunk(state, text, sorted(found, key=lambda s: s.start))
    assert [(m.surface, m.name, m.type) for m in reading.mentions] == [
        ("Ostrel 4", "Ostrel 4", "Object"),
        ("Paris Quaye", "Paris Quaye", "Person"),
        ("Ostrel", "Ostrel 4", "Object"),
        ("Paris", "Paris", "Location"),
    ]


def test_a_surname_of_two_words_and_a_firms_short_name_keep_their_owners_across_types():
    state = WorkingMemory()
    state.begin_chunk(())
    text = "Anahera Te Rangi met Halvorsen Marine AS. Te Rangi signed; Halvorsen Marine shipped."
    found = spans(text, ("Anahera Te Rangi", "Person"), ("Halvorsen Marine AS", "Organization"))
    for surface, typed in (("Te Rangi", "Object"), ("Halvorsen Marine", "Person")):
        at = text.rindex(surface)  # as the small model types them
        found.append(NamedSpan(surface, at, at + len(surface), typed))
    reading = read_chunk(state, text, sorted(found, key=lambda s: s.start))
    assert [(m.surface, m.name, m.type) for m in reading.mentions][2:] == [
        ("Te Rangi", "Anahera Te Rangi", "Person"),
        ("Halvorsen Marine", "Halvorsen Marine AS", "Organization"),
    ]
