"""An argument's ABOUT edges follow its entity through a reviewer's merge and back through the
undo (apps/review/merges.py moves every edge; an ABOUT the survivor has already is dropped,
not doubled, and recreated on undo). Data through the real pipeline, gate and review."""

from apps.graph import cypher
from apps.resolution.candidates import EntityCandidate
from apps.review.merges import merge_plan
from apps.review.services import check_merge_undo, check_review_confirm
from tests.ingestion.test_arguments import ingest as document_ingest
from tests.review.review_fixtures import ingest, pending_pairs

ABOUT = """
MATCH (a:Argument {tenant: $tenant, kind: 'assumption'})-[:ABOUT]->(e:Entity {tenant: $tenant})
RETURN e.uid AS uid, e.name AS name ORDER BY e.name
"""


def test_about_edges_move_on_a_merge_and_back_on_its_undo(scope):
    document_ingest(scope)  # its assumption is ABOUT Brisvane Hydraulics and Nairobi
    before = {r["name"]: r["uid"] for r in cypher.read(scope, ABOUT)}
    assert set(before) == {"Brisvane Hydraulics", "Nairobi"}
    (receipt,) = ingest(scope, "Brisvane Hydraulics sells pumps to cooperatives in Kenya.",
                        [EntityCandidate("Brisvane Hydraulics", "Organization",
                                         description="A pump maker in Kenya.")])  # fmt: skip
    assert receipt.action == "pending", receipt.reason
    (pair,) = pending_pairs(scope)
    twin = receipt.entity_uid
    merge = check_review_confirm(scope, review_uid=pair["uid"], survivor_uid=twin)
    moved = {r["name"]: r["uid"] for r in cypher.read(scope, ABOUT)}
    assert moved == {"Brisvane Hydraulics": twin, "Nairobi": before["Nairobi"]}

    check_merge_undo(scope, merge_uid=merge["merge_uid"])
    assert {r["name"]: r["uid"] for r in cypher.read(scope, ABOUT)} == before


def test_an_about_the_survivor_has_already_is_dropped_not_doubled():
    edge = {"type": "ABOUT", "other_id": "arg-1", "out": False, "to_survivor": False,
            "props": {"tenant": "t"}, "id": "r1", "other_uid": "a1", "other_label": "Argument"}  # fmt: skip
    mine = {"related": [], "mentions": [], "pending": [], "not_same": [], "shared": ["arg-1"]}
    plan = merge_plan([edge], mine)
    assert plan["in"] == [] and [d["why"] for d in plan["dropped"]] == [
        "the survivor has it already"
    ]
    plan = merge_plan([edge], {**mine, "shared": []})
    assert [m["type"] for m in plan["in"]] == ["ABOUT"] and plan["dropped"] == []
