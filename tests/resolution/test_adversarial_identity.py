"""Adversarial identity cases through the real gate, model and Neo4j: things that only look alike
are never merged, variants of one name with evidence are; each decision says why."""

import pytest

from apps.graph import cypher
from apps.resolution.candidates import EntityCandidate, Provenance
from apps.resolution.services import entities_resolve

AGENT = Provenance(agent="agent:test")


def resolve(scope, name, kind="Person", description="", **values):
    values = {k.replace("id_", "id:"): v for k, v in values.items()}
    [receipt] = entities_resolve(
        scope,
        entities=[EntityCandidate(name, kind, description=description, values=values)],
        provenance=AGENT,
    )
    return receipt


def active_count(scope):
    return cypher.read(
        scope, "MATCH (e:Entity {tenant: $tenant, status: 'active'}) RETURN count(e) AS n"
    )[0]["n"]


def test_five_people_of_one_name_and_five_birth_dates_stay_five(scope):
    receipts = [
        resolve(scope, "John Smith", born=f"19{year}-0{month}-1{month}")
        for year, month in ((50, 1), (61, 3), (72, 5), (83, 7), (94, 9))
    ]
    assert [r.action for r in receipts] == ["created"] * 5
    assert active_count(scope) == 5
    assert all("born conflict" in r.reason for r in receipts[1:]), receipts[1].reason


def test_one_business_name_in_two_cities_with_two_phones_is_two(scope):
    first = resolve(scope, "Blue Heron Bakery", "Organization", phone="+44 113 496 0000",
                    address="12 Briggate, Leeds")  # fmt: skip
    other = resolve(scope, "Blue Heron Bakery", "Organization", phone="+1 503 555 0199",
                    address="800 NW 23rd Ave, Portland OR")  # fmt: skip
    assert other.action in ("created", "pending") and other.entity_uid != first.entity_uid
    assert "phone conflict" in other.reason and "-> merge" not in other.reason


def test_one_name_with_unrelated_lives_is_not_merged(scope):
    first = resolve(scope, "Maria Garcia", description="A cardiologist in Madrid, Spain.")
    other = resolve(
        scope, "Maria Garcia", description="A jazz saxophonist touring from Buenos Aires."
    )
    assert other.action != "merged" and other.entity_uid != first.entity_uid
    assert other.signals["description"] < 0 and "description" in other.reason


def test_an_identical_name_alone_waits_for_a_reviewer(scope):
    first = resolve(scope, "Ada Lovelace")
    again = resolve(scope, "Ada Lovelace")
    assert again.action == "pending" and again.matched_uid == first.entity_uid
    assert set(again.signals) == {"name"}


def test_an_initial_with_the_same_birth_date_and_email_merges(scope):
    first = resolve(scope, "John Smith", born="1961-03-13", email="jsmith@example.org")
    initial = resolve(scope, "J. Smith", born="1961-03-13", email="JSmith@example.org")
    assert initial.action == "merged" and initial.entity_uid == first.entity_uid
    assert "initial" in initial.reason and "email exact" in initial.reason


def test_a_nickname_with_the_same_email_merges(scope):
    first = resolve(scope, "Robert Brown", email="rbrown@example.org")
    nick = resolve(scope, "Bob Brown", email="rbrown@example.org")
    assert nick.action == "merged" and nick.entity_uid == first.entity_uid
    assert "nicknames" in nick.reason


def test_junior_and_senior_at_one_address_are_two(scope):
    senior = resolve(scope, "John Miller Sr.", address="4 Elm Street, Springfield")
    junior = resolve(scope, "John Miller Jr.", address="4 Elm Street, Springfield")
    assert junior.action != "merged" and junior.entity_uid != senior.entity_uid
    assert "different generations" in junior.reason


def test_a_legal_form_and_an_acronym_merge_with_a_shared_domain(scope):
    first = resolve(scope, "Acme Inc.", "Organization", domain="acme.com")
    bare = resolve(scope, "ACME", "Organization", url="https://www.acme.com/about")
    assert bare.action == "merged" and bare.entity_uid == first.entity_uid
    assert "legal form" in bare.reason and "domain exact" in bare.reason

    ibm = resolve(scope, "IBM", "Organization", domain="ibm.com")
    expanded = resolve(scope, "International Business Machines Corporation", "Organization",
                       domain="ibm.com")  # fmt: skip
    assert expanded.action == "merged" and expanded.entity_uid == ibm.entity_uid
    assert "acronym" in expanded.reason


def test_an_acronym_without_evidence_is_only_proposed(scope):
    resolve(scope, "International Business Machines", "Organization")
    bis = resolve(scope, "Intel Business Machines", "Organization", domain="intel-bm.example")
    assert bis.action != "merged"


def test_a_conflicting_external_id_forbids_even_an_identical_everything_else(scope):
    first = resolve(scope, "Grace Hopper", born="1906-12-09", id_wikidata="Q11641")
    other = resolve(scope, "Grace Hopper", born="1906-12-09", id_wikidata="Q99999")
    assert other.action != "merged" and other.entity_uid != first.entity_uid
    assert "external_id conflict" in other.reason


# A typist's slip (two adjacent digits swapped) is a `typo` or `close` level the model weighs;
# only a value no single slip explains is a conflict that forbids merging.
WILLAROO = "6 tullaroop street, willaroo, wa 4011"


def test_an_id_with_two_adjacent_digits_swapped_merges_and_says_so(scope):
    first = resolve(scope, "Joshua Pearce", born="1957-02-11", address=WILLAROO,
                    id_soc_sec="2860658")  # fmt: skip
    slip = resolve(scope, "Joshua Pearce", born="1957-02-11", address=WILLAROO,
                   id_soc_sec="2860568")  # fmt: skip
    assert slip.action == "merged" and slip.entity_uid == first.entity_uid, slip.reason
    assert "external_id typo" in slip.reason and "two adjacent characters swapped" in slip.reason


def test_a_birth_date_with_two_digits_swapped_merges_with_the_same_id(scope):
    first = resolve(scope, "Grace Hopper", born="1906-12-09", id_soc_sec="4513897")
    slip = resolve(scope, "Grace Hopper", born="1960-12-09", id_soc_sec="4513897")
    assert slip.action == "merged" and slip.entity_uid == first.entity_uid, slip.reason
    assert "born close" in slip.reason and "two adjacent digits swapped" in slip.reason


def test_one_name_and_a_date_slip_alone_wait_for_a_reviewer(scope):
    first = resolve(scope, "Harriet Quimby", born="1875-05-11")
    other = resolve(scope, "Harriet Quimby", born="1857-05-11")
    assert other.action == "pending" and other.matched_uid == first.entity_uid, other.reason
    assert "born close" in other.reason


@pytest.mark.parametrize(
    ("name", "born", "id_soc_sec", "reasons"),
    [
        # A birth date no single slip explains (1878-11-07 / 1887-01-17), same id.
        ("Lise Meitner", ("1878-11-07", "1887-01-17"), ("7333388", "7333388"),
         ("born conflict", "forbids an automatic merge")),
        # Ids two slips apart (1806258 / 8106285), same birth date.
        ("Emmy Noether", ("1882-03-23", "1882-03-23"), ("1806258", "8106285"),
         ("external_id conflict",)),
    ],
)  # fmt: skip
def test_a_value_no_slip_explains_forbids_a_merge_even_when_all_else_agrees(
    scope, name, born, id_soc_sec, reasons
):
    first = resolve(scope, name, born=born[0], id_soc_sec=id_soc_sec[0], address=WILLAROO)
    other = resolve(scope, name, born=born[1], id_soc_sec=id_soc_sec[1], address=WILLAROO)
    assert other.action != "merged" and other.entity_uid != first.entity_uid
    assert all(reason in other.reason for reason in reasons), other.reason
