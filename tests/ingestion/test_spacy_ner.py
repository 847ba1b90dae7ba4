"""The default extractor on the real offline spaCy model: POLE+O entities, relations from the
dependency parse, descriptions from appositives, local resolution through the state."""

import pytest

from apps.ingestion.extraction.spacy_ner import SpacyExtractor
from apps.ingestion.working_memory import WorkingMemory


@pytest.fixture(scope="module")
def extractor():
    return SpacyExtractor.shared()


def read(extractor, text, state=None):
    state = state or WorkingMemory()
    state.begin_chunk(())
    found = extractor.extract(text, state=state)
    entities = {e.name: e for e in found.entities}
    triples = {(found.entities[r.subject].name, r.predicate, found.entities[r.object].name)
               for r in found.relations}  # fmt: skip
    return entities, triples, found


def test_entities_are_mapped_to_pole_o(extractor):
    entities, _, _ = read(
        extractor, "Marie Curie worked in Paris for the University of Paris during World War I."
    )
    assert entities["Marie Curie"].type == "Person"
    assert entities["Paris"].type == "Location"
    assert entities["University of Paris"].type == "Organization"
    assert all(e.type in {"Person", "Organization", "Location", "Event", "Object"}
               for e in entities.values())  # fmt: skip


def test_subject_verb_object_and_copular_relations(extractor):
    _, triples, _ = read(
        extractor,
        "Acme Corp acquired Globex Corporation. Tim Cook is the CEO of Apple. "
        "Microsoft was founded by Bill Gates. Sherlock Holmes lives in London.",
    )
    assert ("Tim Cook", "WORKS_FOR", "Apple") in triples
    assert ("Bill Gates", "FOUNDED", "Microsoft") in triples
    assert ("Sherlock Holmes", "LOCATED_IN", "London") in triples
    assert any(s == "Acme Corp" and o == "Globex Corporation" for s, _, o in triples)


def test_an_appositive_role_becomes_the_description(extractor):
    entities, triples, _ = read(
        extractor, "Marie Curie, a physicist, founded the Radium Institute."
    )
    assert entities["Marie Curie"].description == "a physicist"
    assert ("Marie Curie", "FOUNDED", "Radium Institute") in triples


def test_short_names_and_descriptions_resolve_locally(extractor):
    entities, triples, found = read(
        extractor,
        "Sherlock Holmes met Acme Corp in London. Holmes liked them. "
        "The company is based in Berlin.",
    )
    holmes = entities["Sherlock Holmes"]
    assert "Holmes" not in entities
    assert [m.surface for m in holmes.mentions] == ["Sherlock Holmes", "Holmes"]
    assert "Holmes" in holmes.aliases
    assert ("Acme Corp", "LOCATED_IN", "Berlin") in triples
    assert [(r.phrase, r.target) for r in found.references] == [("The company", "Acme Corp")]


def test_mention_offsets_point_into_the_chunk(extractor):
    text = "Ada Lovelace wrote notes on the Analytical Engine in London."
    entities, _, _ = read(extractor, text)
    for entity in entities.values():
        for mention in entity.mentions:
            assert text[mention.start : mention.end] == mention.surface


def test_a_proper_noun_the_ner_misses_becomes_an_object(extractor):
    text = "We calibrated the Vantablack Spectrometer before lunch."
    assert not [e for e in extractor.nlp(text).ents if "Vantablack" in e.text]  # NER misses it
    entities, _, _ = read(extractor, text)
    assert entities["Vantablack Spectrometer"].type == "Object"
    [mention] = entities["Vantablack Spectrometer"].mentions
    assert text[mention.start : mention.end] == "Vantablack Spectrometer"


def test_a_lone_surname_and_an_acronym_after_the_full_name_resolve_in_the_document(extractor):
    state = WorkingMemory()
    read(extractor, "International Business Machines hired Ada Lovelace in London.", state)
    later, _, _ = read(extractor, "Later IBM promoted Lovelace to run the project.", state)
    assert set(later) == {"International Business Machines", "Ada Lovelace"}
    assert "IBM" in later["International Business Machines"].aliases
    assert later["Ada Lovelace"].type == "Person" and "Lovelace" in later["Ada Lovelace"].aliases


def test_names_in_capitals_are_read_as_names_and_kept_as_written(extractor):
    entities, _, _ = read(extractor, "We met NOOR TANAKA of NORTHWIND MATERIALS LLC in Valencia.")
    assert entities["NOOR TANAKA"].type == "Person"
    assert "NORTHWIND MATERIALS LLC" in entities
    assert "NORTHWIND" not in entities


def test_a_legal_form_ends_a_name_before_the_next_sentence_and_alone_names_nothing(extractor):
    entities, _, _ = read(extractor, "The V7 is made by Marlow Logistics Ltd. Customers praise "
                                     "its battery. LLC was all the form said.")  # fmt: skip
    assert "Marlow Logistics Ltd." in entities
    assert not any("Customers" in name for name in entities)
    assert "LLC" not in entities


def test_a_model_number_is_one_name_never_an_event_or_a_person(extractor):
    entities, _, _ = read(extractor, "Field test of the Strata-X6 by Marlow went well. Tanaka "
                                     "asked about the W 8 rollout and the Lumen X5 sensor. In "
                                     "Q3 the GPT-4 model shipped.")  # fmt: skip
    assert "Strata-X6" in entities and "Strata" not in entities
    assert entities["W 8"].type == "Object" and entities["Lumen X5"].type == "Object"
    assert "GPT-4" in entities and entities["GPT-4"].type not in ("Event", "Person")
    assert "In Q3" not in entities  # a preposition is no model number's stem


def test_a_model_number_the_model_calls_a_place_is_a_thing(extractor):
    """spaCy types 'Vega-X5' a place (GPE) here; a model number is never a Location."""
    text = "Silverfin Foods released a firmware update for the Vega-X5, its router, on Monday."
    entities, _, _ = read(extractor, text)
    assert entities["Vega-X5"].type == "Object", entities["Vega-X5"]
    assert entities["Silverfin Foods"].type == "Organization"
