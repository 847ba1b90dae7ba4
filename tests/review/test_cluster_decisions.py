"""Cluster decisions on a firm split into six fragments, through the real services: accept,
split and reject, each undone in one action to the graph as it was; a stale or decided cluster
refused; what a split or a reject kept apart never proposed again."""

import pytest

from apps.graph import cypher
from apps.resolution.candidates import EntityCandidate
from apps.review.cluster_decisions import check_cluster_decide, check_cluster_undo
from apps.review.cluster_selectors import cluster_detail, pending_clusters
from apps.review.services import check_review_confirm, check_review_reject
from apps.tenants.models import AuditEvent, Job
from memoryproject.api_errors import ApplicationError, ConflictError
from tests.conftest import scope_for
from tests.review.cluster_fixtures import FIRM, MORE, entity_states, firm_fragments
from tests.review.review_fixtures import ANTHROPIC, ingest, pending_pairs
from tests.review.test_merges import graph

GROUP_ONE = ("Anthropic", "Anthropic AI", "Anthropic Inc")
GROUP_TWO = ("Anthropic Labs", "Anthropic Safety", "Anthropic Studio")


def the_cluster(scope) -> dict:
    listing = pending_clusters(scope)
    assert listing["clusters"] == 1, listing
    return listing["results"][0]


def edges_to(scope, uid: str) -> dict[str, int]:
    rows = cypher.read(
        scope, "MATCH (e:Entity {tenant: $tenant, uid: $uid})-[r]-() "
        "RETURN type(r) AS type, count(r) AS n", uid=uid,
    )  # fmt: skip
    return {r["type"]: r["n"] for r in rows}


def test_the_cluster_lists_its_members_and_evidence_for_and_against_each(scope):
    uids = firm_fragments(scope)
    listed = the_cluster(scope)
    assert listed["size"] == 6 and listed["component_size"] == 6 and listed["pairs"] >= 7
    assert {m["name"] for m in listed["members"]} == set(uids)
    cluster = cluster_detail(scope, cluster_id=listed["id"])
    members = {m["name"]: m for m in cluster["members"]}
    # The survivor of an accept: the most mentioned, then the oldest (the first fragment).
    assert cluster["survivor_uid"] == uids["Anthropic"] and members["Anthropic"]["survivor"]
    labs = members["Anthropic Labs"]
    assert labs["mention_count"] == 1 and labs["document_count"] == 1
    assert labs["conflicting"] and labs["value_rows"][0]["disagree"] == [
        {"name": "Anthropic", "value": "+1 415 555 0100"}
    ]
    against = {e["other_name"]: e["words_against"] for e in labs["evidence"]}
    assert any("phones differ" in words for words in against["Anthropic"])
    assert all(e["words_for"] and e["score"] for m in members.values() for e in m["evidence"])
    assert not members["Anthropic Studio"]["conflicting"]
    assert cluster_detail(scope, cluster_id=listed["id"][:-1] + "z") is None


def test_accept_merges_all_into_one_and_undo_gives_every_edge_back(scope):
    uids = firm_fragments(scope)
    cluster = the_cluster(scope)
    before, pairs_before = graph(scope), pending_pairs(scope)

    done = check_cluster_decide(scope, cluster_id=cluster["id"], decision="accept",
                                expected=list(uids.values()))  # fmt: skip
    survivor = uids["Anthropic"]
    assert done["survivors"] == [survivor] and len(done["merges"]) == 5
    assert {m["survivor_uid"] for m in done["merges"]} == {survivor}
    states = entity_states(scope)
    assert states.pop("Anthropic") == "active" and set(states.values()) == {"merged"}
    assert pending_pairs(scope) == [] and pending_clusters(scope)["clusters"] == 0
    # Every fragment's mention and relation is the survivor's now.
    assert edges_to(scope, survivor)["MENTIONS"] == 6
    assert edges_to(scope, survivor)["RELATED_TO"] == 6
    assert list(
        AuditEvent.objects.filter(target=cluster["id"]).values_list("action", flat=True)
    ) == ["review.cluster_accept"]
    with pytest.raises(ConflictError, match=r"Already decided \(accept\) by agent:test"):
        check_cluster_decide(scope, cluster_id=cluster["id"], decision="reject")

    undone = check_cluster_undo(scope, cluster_id=cluster["id"])
    assert undone["merges_undone"] == [m["merge_uid"] for m in reversed(done["merges"])]
    assert graph(scope) == before and pending_pairs(scope) == pairs_before
    assert the_cluster(scope)["id"] == cluster["id"]
    with pytest.raises(ConflictError, match="Already undone"):
        check_cluster_undo(scope, cluster_id=cluster["id"])


def test_split_merges_within_groups_and_keeps_the_groups_apart_for_good(scope):
    uids = firm_fragments(scope)
    cluster = the_cluster(scope)
    groups = [[uids[n] for n in GROUP_ONE], [uids[n] for n in GROUP_TWO]]
    before = graph(scope)

    done = check_cluster_decide(scope, cluster_id=cluster["id"], decision="split", groups=groups)
    one, two = uids["Anthropic"], uids["Anthropic Labs"]
    assert sorted(done["survivors"]) == sorted([one, two]) and len(done["merges"]) == 4
    # No pending pair joins Labs, Safety and Studio: the decision made two, merged at once.
    assert len(done["made"]) == 2 and done["not_same"] == [sorted([one, two])]
    assert {n for n, s in entity_states(scope).items() if s == "active"} == {
        "Anthropic", "Anthropic Labs"
    }  # fmt: skip
    assert pending_pairs(scope) == []
    assert check_cluster_undo(scope, cluster_id=cluster["id"])["pending_again"] == done["rejected"]
    assert graph(scope) == before  # the pairs it made are gone, the closed ones pending again

    check_cluster_decide(scope, cluster_id=cluster["id"], decision="split", groups=groups)
    for i, name in enumerate(GROUP_ONE[1:] + GROUP_TWO[1:]):
        again = ingest(scope, f"{name} opened an office in Paris. Note {i}.",
                       [EntityCandidate(name, "Organization", description=ANTHROPIC)],
                       title=f"again {i}")  # fmt: skip
        kept_apart = two if name in GROUP_ONE else one
        assert kept_apart not in {p["uid"] for p in again[0].proposed}, again[0].reason
    survivors = {"Anthropic", "Anthropic Labs"}
    assert not [p for p in pending_pairs(scope) if {p["a"], p["b"]} == survivors]


def test_a_split_must_place_every_member_once_and_not_join_what_was_kept_apart(scope):
    uids = firm_fragments(scope)
    cluster = the_cluster(scope)
    one, two = [uids[n] for n in GROUP_ONE], [uids[n] for n in GROUP_TWO]
    for groups in ([one + two], [one, two[:2]], [one, two, [one[0]]]):
        with pytest.raises(ApplicationError) as refused:
            check_cluster_decide(scope, cluster_id=cluster["id"], decision="split", groups=groups)
        assert refused.value.field == "groups"
    check_review_reject(scope, review_uid=next(
        p["uid"] for p in pending_pairs(scope) if {p["a"], p["b"]} == {"Anthropic Labs", "Anthropic"}
    ))  # fmt: skip
    # Still one cluster (Labs is paired with AI too), with a NOT_SAME inside it now.
    assert cluster_detail(scope, cluster_id=cluster["id"])["not_same"]
    with pytest.raises(ConflictError, match="decided not the same"):
        check_cluster_decide(scope, cluster_id=cluster["id"], decision="accept")
    with pytest.raises(ConflictError, match="different groups"):
        check_cluster_decide(scope, cluster_id=cluster["id"], decision="split",
                             groups=[one + [uids["Anthropic Labs"]], two[1:]])  # fmt: skip
    assert entity_states(scope)["Anthropic AI"] == "active"


def test_reject_closes_every_pending_pair_among_them_and_undo_reopens_them(scope):
    uids = firm_fragments(scope)
    cluster = the_cluster(scope)
    before, pairs_before = graph(scope), pending_pairs(scope)

    done = check_cluster_decide(scope, cluster_id=cluster["id"], decision="reject")
    assert sorted(done["rejected"]) == sorted(p["uid"] for p in pairs_before)
    assert len(done["not_same"]) == len(pairs_before) and done["merges"] == []
    assert pending_pairs(scope) == [] and set(entity_states(scope).values()) == {"active"}
    undone = check_cluster_undo(scope, cluster_id=cluster["id"])
    assert sorted(undone["pending_again"]) == sorted(done["rejected"])
    assert graph(scope) == before and pending_pairs(scope) == pairs_before

    check_cluster_decide(scope, cluster_id=cluster["id"], decision="reject")
    again = ingest(scope, "Anthropic Safety opened an office in Paris.",
                   [EntityCandidate("Anthropic Safety", "Organization", description=ANTHROPIC)])  # fmt: skip
    assert uids["Anthropic AI"] not in {p["uid"] for p in again[0].proposed}, again[0].reason
    assert not [p for p in pending_pairs(scope)
                if {p["a"], p["b"]} == {"Anthropic Safety", "Anthropic AI"}]  # fmt: skip


def test_a_cluster_that_changed_since_it_was_read_is_refused_with_its_members_now(scope):
    uids = firm_fragments(scope)
    cluster = the_cluster(scope)
    with pytest.raises(ApplicationError) as wrong:
        check_cluster_decide(scope, cluster_id=cluster["id"], decision="accept",
                             expected=list(uids.values())[:5])  # fmt: skip
    assert wrong.value.status == 400 and wrong.value.field == "expected_members"
    # Another reviewer merges Studio into AI through the pair queue: five members now.
    studio = next(p for p in pending_pairs(scope) if p["a"] == "Anthropic Studio")
    check_review_confirm(scope, review_uid=studio["uid"])
    with pytest.raises(ConflictError, match="changed since it was read") as stale:
        check_cluster_decide(scope, cluster_id=cluster["id"], decision="accept")
    assert len(stale.value.extra["members"]) == 5
    assert uids["Anthropic Studio"] not in stale.value.extra["members"]
    assert stale.value.extra["cluster_id"] == the_cluster(scope)["id"]
    assert entity_states(scope)["Anthropic AI"] == "active"
    with pytest.raises(ApplicationError, match="No decision"):
        check_cluster_undo(scope, cluster_id=cluster["id"])


@pytest.mark.django_db(transaction=True)
def test_two_reviewers_deciding_one_cluster_at_once_decide_it_once(scope):
    import dataclasses
    import threading

    firm_fragments(scope)
    cluster = the_cluster(scope)
    before = graph(scope)
    barrier = threading.Barrier(2)
    outcomes = {}

    def reviewer(name, decision):
        mine = dataclasses.replace(scope, actor=f"user:{name}", actor_kind="person")
        barrier.wait()
        try:
            outcomes[name] = check_cluster_decide(mine, cluster_id=cluster["id"], decision=decision)
        except ConflictError as exc:
            outcomes[name] = exc

    threads = [threading.Thread(target=reviewer, args=args)
               for args in (("ada", "accept"), ("bob", "reject"))]  # fmt: skip
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    [won] = [n for n, o in outcomes.items() if isinstance(o, dict)]
    [lost] = [o for o in outcomes.values() if isinstance(o, ConflictError)]
    assert lost.extra["decided_by"] == f"user:{won}"
    states = set(entity_states(scope).values())
    assert states == ({"active", "merged"} if won == "ada" else {"active"})
    check_cluster_undo(scope, cluster_id=cluster["id"])
    assert graph(scope) == before


def test_a_component_of_fourteen_is_decided_twelve_at_a_time(scope):
    uids = firm_fragments(scope, FIRM + MORE)
    [big] = pending_clusters(scope)["results"]  # the two left over are a pair or two, no cluster
    assert big["size"] == 12 and big["component_size"] == 14, big
    cluster = cluster_detail(scope, cluster_id=big["id"])
    assert cluster["component_size"] == 14 and len(cluster["members"]) == 12
    done = check_cluster_decide(scope, cluster_id=big["id"], decision="accept")
    assert len(done["merges"]) == 11
    # What is left is cut again: the survivor and the two left over, now one cluster.
    [rest] = pending_clusters(scope)["results"]
    left = set(uids.values()) - {m["uid"] for m in big["members"]}
    assert {m["uid"] for m in rest["members"]} == left | {cluster["survivor_uid"]}


def test_each_merge_of_a_decision_counts_toward_the_match_models_learning(make_tenant):
    tenant = make_tenant(model_learn_every=4)
    scope = scope_for(tenant)
    firm_fragments(scope)
    check_cluster_decide(scope, cluster_id=the_cluster(scope)["id"], decision="accept")
    # Five merges, five decisions: the count passed 4, so learning is queued once.
    assert Job.objects.filter(tenant=tenant, kind="match_model.learn").count() == 1
