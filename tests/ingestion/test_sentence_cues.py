"""What a sentence does with a name says what the name is, whatever the small model typed it:
people get promoted, loop others in and have colleagues; a firm owns a data scientist, is "a
bicycles firm" and releases a model. Names are invented: the model knows none of them."""

import pytest

from apps.ingestion.extraction.model_numbers import with_codes
from apps.ingestion.extraction.name_types import cues_agreed, retyped
from apps.ingestion.extraction.spacy_ner import SpacyExtractor
from apps.ingestion.working_memory import NamedSpan, WorkingMemory


@pytest.fixture(scope="module")
def extractor():
    return SpacyExtractor.shared()


def typed(extractor, text) -> dict[str, str]:
    return {e.name: e.type for e in extractor.extract(text, state=WorkingMemory()).entities}


@pytest.mark.parametrize(
    "text, name",
    [
        ("Mirela pinged twice. Vukotic got promoted to head of sales.", "Vukotic"),
        ("Kvistad looped in Mirela Vukotic, a data analyst.", "Kvistad"),
        ("Kallistrat's colleague Mirela Vukotic (nurse) joined.", "Kallistrat"),
        ("Brennoch's data scientist, Ilvane, was cc'd on the thread.", "Ilvane"),
        ("Q: how old is Vukotic? A: born in 1984.", "Vukotic"),
        ("Pinged Mirela. Kvistad is really into bouldering these days.", "Kvistad"),
        ("Q: what does Farida's team use? A: a spreadsheet.", "Farida"),
        ("Hanne Restrepo-Ortiz pinged twice today.", "Hanne Restrepo-Ortiz"),
        ("Vukotic hates the Fenlo52, lol.", "Vukotic"),
    ],
)
def test_what_only_people_do_or_have_makes_a_person(extractor, text, name):
    assert typed(extractor, text).get(name) == "Person", text


def test_a_name_that_owns_a_job_title_is_the_employer_and_the_apposition_its_holder(extractor):
    found = extractor.extract(
        "Quarrow LLC's engineering manager, Hedda, was cc'd on the thread.", state=WorkingMemory()
    )
    entities = {e.name: e for e in found.entities}
    # NER also read a person 'Quarrow' inside the registered name: one firm, no person.
    assert {n: e.type for n, e in entities.items()} == {
        "Quarrow LLC": "Organization", "Hedda": "Person"}  # fmt: skip
    assert entities["Hedda"].learned == {"employer": "Quarrow LLC", "role": "engineering manager"}
    assert typed(extractor, "Brennoch's data scientist, Dr. Ilvane, called.")["Brennoch"] == (
        "Organization"
    )
    # A person has a manager, and a given name owns no firm's job.
    assert typed(extractor, "Arnulf's manager, Ilvane, called.").get("Arnulf") == "Person"


def test_a_common_noun_opening_a_note_is_no_person(extractor):
    assert typed(extractor, "Email thread with Vukotic. Q: how old is Vukotic?") == {
        "Vukotic": "Person"}  # fmt: skip
    assert typed(extractor, "Brown said the deal is off.") == {"Brown": "Person"}


@pytest.mark.parametrize(
    "text, surface, model_type",
    [
        ("Notes on Tarvella: Lviv, embedded software, since 2013.", "Tarvella", "Person"),
        (
            "Ostrel sent the user an offer; they're a bicycles firm in Ljubljana.",
            "Ostrel",
            "Object",
        ),
        ("Kvarnholm released the Skiff 4 in 2010.", "Kvarnholm", "Person"),
        ("Met Ilvane, ex-Dornbrack, at the fair.", "Dornbrack", "Person"),
        ("User asked about the Tundra 10 by Pellavo.", "Pellavo", "Location"),
        ("People mentioned: Chowdhury — paralegal, Tolvanen, Cusco.", "Tolvanen", "Location"),
        ("Wanjiru Mwangangi from Pelkaros joined the call.", "Pelkaros", "Location"),
    ],
)
def test_what_only_a_firm_is_or_does_makes_a_firm(text, surface, model_type):
    at = text.index(surface)
    found = retyped(text, NamedSpan(surface, at, at + len(surface), model_type))
    assert [(s.surface, s.type) for s in found] == [(surface, "Organization")], text


@pytest.mark.parametrize(
    "text, surface",
    [("ex-Nordhavn, per Mirela. Call her.", "Mirela"), ("Email from Arnaud about it.", "Arnaud")],
)
def test_a_given_name_a_note_cites_or_hears_from_is_a_persons(text, surface):
    at = text.index(surface)
    found = retyped(text, NamedSpan(surface, at, at + len(surface), "Organization"))
    assert found[0].type == "Person", text
    flew = "Flew in from Florence on Monday."
    assert retyped(flew, NamedSpan("Florence", 15, 23, "Location"))[0].type == "Location"


def test_a_longer_name_a_cued_firms_word_opens_is_that_firms():
    text = "Velkora Energía (solar power) - RFP out. Velkora ships the Nimbra-42."
    at = text.rindex("Velkora")
    spans = [NamedSpan("Velkora Energía", 0, 15, "Person"),
             NamedSpan("Velkora", at, at + 7, "Organization")]  # fmt: skip
    assert [s.type for s in cues_agreed(text, spans)] == ["Organization", "Organization"]


def test_a_persons_profile_after_a_colon_stays_a_persons():
    text = "Ilvane: Aarhus, backend developer, since 2019."
    assert retyped(text, NamedSpan("Ilvane", 0, 6, "Person"))[0].type == "Person"


def test_a_model_number_written_in_lower_case_is_a_product(extractor):
    found = typed(extractor, "Mirela Vukotic is trying the velkor-28; the torvi 9 is loud.")
    assert found.get("velkor-28") == "Object" and found.get("torvi 9") == "Object"
    found = typed(extractor, "Mirela Vukotic made the top 10 list; the covid rules stay.")
    assert set(found) == {"Mirela Vukotic"}


def test_a_name_whose_last_word_the_note_uses_for_a_person_is_a_persons(extractor):
    found = typed(
        extractor,
        "Re: renewal — forwarded from the shared inbox\nHye-Jin Cavell wrote back for Quillam"
        " LLP; signs off as buyer.\nCavell is Busan-based, so watch the time zone.\nOn 9 Dec,"
        " Cavell wrote:\n> Happy to confirm.",
    )
    assert found.get("Hye-Jin Cavell") == "Person" and found.get("Quillam LLP") == "Organization"


def test_a_city_after_a_comma_is_no_part_of_a_firms_name(extractor):
    found = typed(extractor, "- People mentioned: Babak Tavakkoli — nurse, Quellmar, Arequipa.")
    assert found.get("Quellmar") == "Organization" and "Quellmar, Arequipa" not in found


def test_a_model_name_the_model_typed_a_firm_is_a_product():
    text = "The Ostra-K7 is made by Pellavo Optics."
    found = with_codes([NamedSpan("Ostra-K7", 4, 12, "Organization")], text)
    assert [(s.surface, s.type) for s in found] == [("Ostra-K7", "Object")]


def test_a_models_stem_and_its_number_however_joined_are_the_model_within_a_note(extractor):
    found = typed(extractor, "Field log: the Vostrel-51 bricked again. Vostrel 51 units "
                             "ship Monday; order 4 more Vostrel.")  # fmt: skip
    assert found == {"Vostrel-51": "Object"}, found


def test_a_legal_form_with_inner_stops_stays_whole(extractor):
    # The tokenizer splits "S.p.A." into 'S.p', '.', 'A.': the stop is no legal form ending it.
    found = typed(extractor, "Summary: Tessaro Packaging S.p.A. (est. 1981) - a trade account.")
    assert found == {"Tessaro Packaging S.p.A.": "Organization"}, found
