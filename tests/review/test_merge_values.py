"""A reviewer's merge keeps what both entities said: every name as an alias, every value (a
different value kept as a conflict, shown on the pages), every description; its undo gives the
survivor back as it was, keeping what was stated since."""

from django.test import Client

from apps.resolution.candidates import EntityCandidate
from apps.resolution.selectors import entity_detail
from apps.review.services import check_merge_undo, check_review_confirm
from apps.tenants.models import Role
from tests.review.review_fixtures import ingest, pending_pairs

FIRST = "An AI safety company that builds the Claude models."
SECOND = "A San Francisco lab for large language model research."


def two_anthropics(scope):
    """'Anthropic AI' proposed against 'Anthropic': the same domain, two founding years (a
    conflicting date forbids an automatic merge), a value each alone, two descriptions."""
    first = ingest(scope, "Anthropic builds Claude.", [EntityCandidate(
        "Anthropic", "Organization", description=FIRST,
        values={"domain": "anthropic.com", "founded": "2021", "ceo": "Dario Amodei"})])  # fmt: skip
    second = ingest(scope, "Anthropic AI publishes research.", [EntityCandidate(
        "Anthropic AI", "Organization", description=SECOND,
        values={"domain": "anthropic.com", "founded": "2016", "email": "info@anthropic.com"})],
        title="second")  # fmt: skip
    assert second[0].action == "pending", second[0].reason
    assert "founded" in second[0].reason
    return first[0].entity_uid, second[0].entity_uid


def test_a_merge_keeps_names_values_conflicts_and_descriptions(scope):
    survivor, merged = two_anthropics(scope)
    [pair] = pending_pairs(scope)
    check_review_confirm(scope, review_uid=pair["uid"])
    entity = entity_detail(scope, uid=survivor)
    assert entity["aliases"] == ["Anthropic AI"]
    assert entity["description"] == FIRST
    assert entity["absorbed_descriptions"] == [SECOND]
    assert entity["values"] == {"domain": "anthropic.com", "founded": "2021",
                                "ceo": "Dario Amodei", "email": "info@anthropic.com"}  # fmt: skip
    # The other founding year is not written over, nor dropped: it is kept as a conflict.
    assert entity["value_conflicts"] == {"founded": ["2016"]}


def test_the_pages_show_the_conflict_and_the_absorbed_description(scope, tenant, make_person):
    survivor, _ = two_anthropics(scope)
    [pair] = pending_pairs(scope)
    person = make_person(tenant, Role.REVIEWER)
    client = Client()
    client.login(username=person.username, password=person.raw_password)
    check_review_confirm(scope, review_uid=pair["uid"])
    page = client.get(f"/entities/{survivor}/").content.decode()
    assert "2016 (conflicting value, kept)" in page
    assert f"Also described as: {SECOND}" in page


def test_undo_gives_the_values_back_and_keeps_later_ones(scope):
    survivor, merged = two_anthropics(scope)
    [pair] = pending_pairs(scope)
    done = check_review_confirm(scope, review_uid=pair["uid"])
    # Stated after the merge, by a later document naming the survivor: it stays after the undo.
    later = ingest(scope, "Anthropic was founded in 2021.", [EntityCandidate(
        "Anthropic", "Organization", values={"domain": "anthropic.com", "hq": "San Francisco"})],
        title="later")  # fmt: skip
    assert later[0].entity_uid == survivor, later[0].reason
    check_merge_undo(scope, merge_uid=done["merge_uid"])
    entity = entity_detail(scope, uid=survivor)
    assert entity["values"] == {"domain": "anthropic.com", "founded": "2021",
                                "ceo": "Dario Amodei", "hq": "San Francisco"}  # fmt: skip
    assert entity["value_conflicts"] == {} and entity["absorbed_descriptions"] == []
    assert entity["aliases"] == []
    restored = entity_detail(scope, uid=merged)
    assert restored["status"] == "active" and restored["values"]["founded"] == "2016"
