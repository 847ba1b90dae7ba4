"""Episode boundaries found in a document without headers: the cues that force one, the topic
shift over the real model's chunk vectors, and the state's reset and transitional context."""

from apps.graph.embeddings import get_embedder
from apps.ingestion.chunking import chunk_document
from apps.ingestion.text_boundaries import TextBoundaries
from apps.ingestion.working_memory import WorkingMemory, read_chunk
from tests.ingestion.test_working_memory import spans

SHIPPING = [
    "Northwind Freight moves grain and timber through the port of Oslo on nine cargo vessels. "
    "Dock workers load the holds at night and the cranes run until the tide turns again.",
    "The company expects freight rates on the northern sea routes to rise again before winter, "
    "and it has chartered two more bulk carriers for the grain harvest in the autumn.",
    "Harbour pilots guide each vessel past the breakwater, and the container cranes on the quay "
    "were repaired after a storm flooded the port's electrical substation last month.",
    "Freight forwarders book space on the cargo vessels weeks ahead, and the grain and timber "
    "shipments leave the port of Oslo for the Baltic harbours as soon as the holds are full.",
]
BAKING = [
    "Ashby Bakeries bakes rye bread, croissants and wedding cakes in a converted mill. Flour "
    "arrives by the sack every morning and the ovens are lit long before dawn in the kitchen.",
    "The pastry chefs fold butter into the croissant dough by hand, and each sourdough loaf "
    "proves for a whole night in wicker baskets before it is baked in the stone oven.",
    "Customers queue at the bakery counter for cinnamon buns and fresh baguettes, and the cakes "
    "for weddings are iced with sugar flowers piped one petal at a time by the decorators.",
]


def found(texts, **options):
    vectors = get_embedder().embed(texts)
    return TextBoundaries(**options).feed(texts, vectors)


def test_a_topic_shift_between_chunks_is_a_boundary_and_a_steady_topic_is_not():
    flags = found(SHIPPING[:3] + BAKING, cues=False)
    assert flags == [False, False, False, True, False, False]
    assert not any(found(SHIPPING, cues=False))


def test_a_new_subject_or_a_date_line_forces_a_boundary_and_a_reply_does_not():
    texts = [
        "From: Ana <ana@example.org>\nSubject: Harbour dues\n\n" + SHIPPING[0],
        "From: Bo <bo@example.org>\nSubject: Re: Harbour dues\n\n" + SHIPPING[1],
        "From: Ana <ana@example.org>\nSubject: Bread orders\n\n" + SHIPPING[2],
        "Tuesday, 3 March 2026\n\n" + SHIPPING[0],
        "From: Bo <bo@example.org>\nTo: board@example.org\nSubject: Grain prices\n"
        "Date: Tuesday, 3 March 2026",  # a header block the chunker kept alone
        SHIPPING[1],
    ]
    assert found(texts, shifts=False) == [False, False, True, True, True, False]


def test_a_header_joined_to_the_end_of_a_chunk_starts_the_episode_at_the_next_chunk():
    texts = [SHIPPING[0] + "\n\n3 March 2026", SHIPPING[1], SHIPPING[2]]
    assert found(texts, shifts=False) == [False, True, False]


def test_vectors_arriving_a_window_at_a_time_find_the_same_shift():
    texts = SHIPPING[:3] + BAKING
    vectors = get_embedder().embed(texts)
    finder = TextBoundaries(cues=False)
    # The shift is the fourth chunk's: a window of five knows two chunks after it.
    flags = finder.feed(texts[:5], vectors[:5]) + finder.feed(texts[5:], vectors[5:])
    assert flags[3] and not any(flags[:3] + flags[4:])


def test_chunks_of_a_plain_document_carry_their_text_to_the_boundaries():
    document = "\n\n".join(SHIPPING[:3] + BAKING)
    chunks = chunk_document(document)
    assert [c.section_path for c in chunks] == [()] * len(chunks)  # no header to reset on
    assert found([c.text for c in chunks], cues=False).index(True) == 3


def test_at_a_boundary_the_outgoing_entities_stay_as_weak_candidates_for_two_chunks():
    state = WorkingMemory()
    state.begin_chunk(())
    text = "Northwind Freight hired Ana Lima in Oslo."
    read_chunk(state, text, spans(text, ("Northwind Freight", "Organization"),
                                  ("Ana Lima", "Person"), ("Oslo", "Location")))  # fmt: skip
    assert state.begin_chunk((), boundary=True) is True
    view = state.view()
    assert view.active_entities == () and ("Northwind Freight", "Organization") in view.transitional
    reading = read_chunk(state, "The company grew.", [])
    assert (reading.references[0].target, reading.references[0].tentative) == (
        "Northwind Freight", True)  # fmt: skip
    state.begin_chunk(())
    state.begin_chunk(())
    assert state.view().transitional == ()
    assert read_chunk(state, "The company grew.", []).references[0].target is None


def test_what_the_new_episode_names_ranks_above_the_weak_candidates():
    state = WorkingMemory()
    state.begin_chunk(())
    read_chunk(state, "Northwind Freight.", spans("Northwind Freight.", ("Northwind Freight",
                                                                         "Organization")))  # fmt: skip
    state.begin_chunk((), boundary=True)
    text = "The company said on Monday that Ashby Bakeries would open. The firm hired."
    reading = read_chunk(state, text, spans(text, ("Ashby Bakeries", "Organization")))
    assert [(r.phrase, r.target) for r in reading.references] == [
        ("The company", "Ashby Bakeries"), ("The firm", "Ashby Bakeries")]  # fmt: skip
    assert [m.name for m in reading.mentions] == ["Ashby Bakeries"] * 3


def test_a_description_points_to_the_most_salient_entity_not_a_passing_one():
    state = WorkingMemory()
    state.begin_chunk(())
    text = "Northwind Freight sails. The company grows. Ivo Novak said so."
    # The small model types a person as an organisation now and then.
    read_chunk(state, text, spans(text, ("Northwind Freight", "Organization"),
                                  ("Ivo Novak", "Organization")))  # fmt: skip
    assert read_chunk(state, "The company hired.", []).references[0].target == "Northwind Freight"
