"""Relations an automatic merge brought go back to the restored entity when it is undone."""

from apps.resolution.auto_merges import auto_merges_rescore
from apps.resolution.candidates import EntityCandidate, RelationCandidate
from apps.review.services import check_suspect_undo
from apps.review.suspect_merges import suspect_queue
from tests.conftest import scope_for
from tests.review.review_fixtures import ingest
from tests.review.test_suspect_merges import relations


def born_and_context_count_for_little(scope):
    """test_suspect_merges.born_counts_for_little, and a shared neighbour no evidence either (issue 34: the second
    note names the Navy too, so its context backs the merge as well)."""
    import copy

    from apps.resolution.match_model import model_params
    from apps.resolution.tenant_model import match_model_store

    params = copy.deepcopy(model_params())
    params["comparisons"]["born"]["levels"]["exact"]["u"] = (
        params["comparisons"]["born"]["levels"]["exact"]["m"] / 1.5
    )
    for level in params["comparisons"]["context"]["levels"].values():
        level["u"] = level["m"]
    match_model_store(scope, params, confirmed=0, rejected=100)


def test_undoing_an_automatic_merge_takes_back_the_relations_it_brought(make_tenant):
    """A relation only the merged mention observed moves back whole; one the entity had already
    is split: each side keeps the observations that came through it."""
    scope = scope_for(make_tenant(), actor="user:ada", kind="person")
    born = {"born": "1906-12-09"}
    hopper = EntityCandidate("Grace Hopper", "Person", values=born)
    navy = EntityCandidate("United States Navy", "Organization", values={"url": "https://navy.mil"})
    ingest(scope, "Grace Hopper served in the United States Navy.", [hopper, navy],
           [RelationCandidate(0, "SERVED_IN", 1)], title="Hopper 1")  # fmt: skip
    receipts = ingest(
        scope, "Grace Hopper of the United States Navy wrote COBOL.",
        [EntityCandidate("Grace Hopper", "Person", values={**born, "email": "gh@example.org"}),
         navy, EntityCandidate("COBOL", "Object")],
        [RelationCandidate(0, "SERVED_IN", 1), RelationCandidate(0, "WROTE", 2)],
        title="Hopper 2",
    )  # fmt: skip
    assert receipts[0].action == "merged", receipts[0].reason
    survivor = receipts[0].entity_uid
    assert relations(scope, survivor) == [("SERVED_IN", "United States Navy", 2),
                                          ("WROTE", "COBOL", 1)]  # fmt: skip

    born_and_context_count_for_little(scope)
    assert auto_merges_rescore(scope)["suspect"] == 1
    [row] = suspect_queue(scope)["results"]
    undone = check_suspect_undo(scope, uid=row["uid"])
    assert undone["relations_back"] == 2
    assert relations(scope, undone["restored_uid"]) == [("SERVED_IN", "United States Navy", 1),
                                                        ("WROTE", "COBOL", 1)]  # fmt: skip
    assert relations(scope, survivor) == [("SERVED_IN", "United States Navy", 1)]
