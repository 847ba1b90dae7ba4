"""Records whose evidence is in the text (issue 34): addresses, external ids and dates of birth
written in a description become the comparisons stated values get, learned from text and never
outranking a stated value. Through the real gate and Neo4j."""

from __future__ import annotations

import pytest

from apps.resolution.candidates import EntityCandidate
from apps.resolution.entity_values import values_load
from apps.resolution.services import entities_resolve
from apps.resolution.text_addresses import address_values_in, birth_date_in
from tests.resolution.test_adversarial_identity import AGENT
from tests.resolution.test_text_identity import entity


@pytest.mark.parametrize(
    ("sentence", "found"),
    [
        ("lachlan berry lives at 69 giblin street, killarney, bittern, qld 4814.",
         [("address", "69 giblin street, killarney, bittern, qld 4814")]),
        ("Her address: 12 Main St, Suburb 2000 NSW", [("address", "12 Main St, Suburb 2000 NSW")]),
        ("Ana lives at home.", []),
        ("Social security number 6988048.", [("id:soc_sec", "6988048")]),
        ("SSN: 123-45-6789; passport number x1234567",
         [("id:soc_sec", "123-45-6789"), ("id:passport", "X1234567")]),
        ("He was a social security officer.", []),
    ],
)  # fmt: skip
def test_addresses_and_ids_are_read_from_the_phrase_that_introduces_them(sentence, found):
    assert address_values_in(sentence) == found


@pytest.mark.parametrize(
    ("sentence", "born"),
    [
        ("born on 1908-12-09", "1908-12-09"),
        ("Born on 14 August 1945 in Porto.", "1945-08-14"),
        ("born March 3rd, 1961", "1961-03-03"),
        ("date of birth: 14/08/1945", "1945-08-14"),
        ("DOB 08/14/1945", "1945-08-14"),
        ("DOB 03/04/1950", None),  # March or April: a wrong date would be a conflict
        ("born 31/02/1950", None),
        ("born in Porto", None),
    ],
)
def test_dates_of_birth_in_several_forms_are_iso(sentence, born):
    assert birth_date_in(sentence) == born


NOTE = "{name} was born on {born}. {name} lives at {address}. Social security number {ssn}."


def person(scope, name, **written):
    [receipt] = entities_resolve(scope, provenance=AGENT, entities=[EntityCandidate(
        name, "Person", description=NOTE.format(name=name, **written))])  # fmt: skip
    return receipt


def test_a_record_written_as_text_merges_on_its_address_and_id_learned_from_text(scope):
    first = person(scope, "kayla harrington", born="1915-06-12", ssn="9004242",
                   address="7 maltby circuit, coaling, coolaroo, nsw 3465")  # fmt: skip
    again = person(scope, "kayla harington", born="1915-06-12", ssn="9004242",
                   address="7 maltby circ, coaling, coolaroo, nsw 3465")  # fmt: skip
    assert again.action == "merged" and again.entity_uid == first.entity_uid, again.reason
    assert "external_id exact" in again.reason and "learned from text" in again.reason
    kept = values_load(entity(scope, first.entity_uid)["values"])
    assert kept["text:id:soc_sec"] == "9004242" and kept["text:address"].startswith("7 maltby")


def test_a_conflicting_id_learned_from_text_forbids_the_merge(scope):
    person(scope, "luke purdon", born="1983-10-24", ssn="8099933",
           address="23 ramsay place, mirani, garbutt, vic 2260")  # fmt: skip
    other = person(scope, "luke purdon", born="1983-10-24", ssn="1234567",
                   address="23 ramsay place, mirani, garbutt, vic 2260")  # fmt: skip
    assert other.action != "merged", other.reason


def test_a_stated_address_is_never_outranked_by_one_in_the_text(scope):
    [stated] = entities_resolve(scope, provenance=AGENT, entities=[EntityCandidate(
        "william bishop", "Person", values={"address": "21 neworra place, worongary, qld 6225"},
        description="william bishop lives at 9 other road, elsewhere, nsw 2000.")])  # fmt: skip
    kept = values_load(entity(scope, stated.entity_uid)["values"])
    assert kept == {"address": "21 neworra place, worongary, qld 6225"}


@pytest.mark.parametrize(
    ("sentence", "found"),
    [
        ("Asiedu gave 1995 as his year of birth.", [("born", "1995")]),
        ("Kaplanoğlu: YOB 1980. Price sensitive.", [("born", "1980")]),
        ("The records list 1989 as MacInnes's birth year.", [("born", "1989")]),
        ("The firm dates its founding to 1971.", [("founded", "1971")]),
        ("Ndovu was established back in 2003 and hired 40 people in 2019.", [("founded", "2003")]),
        ("Born 12 May 1980 in Riga, she joined in 2004.", [("born", "1980-05-12")]),
        ("Revenue in 2019 was flat; the plan for 2020 is growth.", []),
    ],
)
def test_a_year_beside_a_word_of_birth_or_founding_is_read_whatever_the_wording(sentence, found):
    from apps.resolution.text_evidence import values_in

    assert [(k, v) for k, v in values_in(sentence) if k in ("born", "founded")] == found
