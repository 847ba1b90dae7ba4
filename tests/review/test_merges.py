"""Merge and unmerge on a graph with every relationship type an entity can have: counts and
endpoints before, after the merge, and after the undo (which must give back the graph exactly)."""

import pytest

from apps.graph import cypher
from apps.resolution.candidates import EntityCandidate
from apps.review.not_same import not_same_record
from apps.review.services import check_merge_undo, check_review_confirm
from memoryproject.api_errors import ConflictError
from tests.review.review_fixtures import ANTHROPIC, anthropic_pair, ingest, pending_pairs

EDGES = """
MATCH (x {tenant: $tenant})-[r]->(y {tenant: $tenant})
WHERE x:Entity OR y:Entity
RETURN type(r) AS type, coalesce(x.name, labels(x)[0] + ':' + coalesce(x.norm, x.uid)) AS start,
       coalesce(y.name, labels(y)[0]) AS end, properties(r) AS props
"""

ENTITIES = """
MATCH (e:Entity {tenant: $tenant})
RETURN e.name AS name, e.status AS status, e.aliases AS aliases, e.norm_aliases AS norms,
       e.description AS description ORDER BY name
"""


def graph(scope):
    edges = cypher.read(scope, EDGES)
    for e in edges:
        e["props"] = {k: v for k, v in e["props"].items() if k != "created_at"}
    edges.sort(key=lambda e: (e["type"], e["start"], e["end"], repr(sorted(e["props"].items()))))
    return edges, cypher.read(scope, ENTITIES)


def edges_of(scope, name):
    return cypher.read(
        scope,
        "MATCH (e:Entity {tenant: $tenant, name: $name})-[r]-(o) "
        "RETURN type(r) AS type, startNode(r) = e AS out, coalesce(o.name, labels(o)[0]) AS other,"
        " r.weight AS weight, r.confidence AS confidence, r.status AS status "
        "ORDER BY type, other, out",
        name=name,
    )


def rich_fixture(scope):
    """A = 'Anthropic AI' pending against B = 'Anthropic'; A also has MENTIONS, RELATED_TO both
    ways (one shared with B), a pending SAME_AS with a third entity, a NOT_SAME, its name key and
    an edge of a type no service knows."""
    first, second = anthropic_pair(scope)
    a_uid, b_uid = second[0].entity_uid, first[0].entity_uid
    # A third organisation proposed against A ("pending A-C").
    third = ingest(
        scope,
        "Anthropic AI Labs hired researchers.",
        [EntityCandidate("Anthropic AI Labs", "Organization", description=ANTHROPIC)],
    )
    openai = ingest(
        scope, "OpenAI builds GPT.",
        [EntityCandidate("OpenAI", "Organization", description="Makers of GPT models.")],
    )  # fmt: skip
    assert not_same_record(scope, left_uid=a_uid, right_uid=openai[0].entity_uid)
    cypher.write(
        scope,
        "MATCH (a:Entity {tenant: $tenant, uid: $a}) "
        "CREATE (n:Note {tenant: $tenant, uid: randomUUID(), text: 'see also'})-[:CITES "
        "{tenant: $tenant, note: 'generic'}]->(a)",
        a=a_uid,
    )
    return a_uid, b_uid, third[0]


def test_merge_moves_every_edge_and_undo_gives_the_graph_back(scope):
    a_uid, b_uid, third = rich_fixture(scope)
    pairs = pending_pairs(scope)
    review = next(p for p in pairs if {p["a"], p["b"]} == {"Anthropic AI", "Anthropic"})
    before = graph(scope)
    a_edges_before = edges_of(scope, "Anthropic AI")
    assert {e["type"] for e in a_edges_before} >= {
        "MENTIONS", "RELATED_TO", "SAME_AS", "NOT_SAME", "KEY_OF", "CITES"
    }  # fmt: skip

    result = check_review_confirm(scope, review_uid=review["uid"])
    assert result["survivor_uid"] == b_uid and result["merged_uid"] == a_uid

    # Nothing but the tombstone's forward touches the merged entity.
    assert edges_of(scope, "Anthropic AI") == [
        {"type": "MERGED_INTO", "out": True, "other": "Anthropic", "weight": None,
         "confidence": None, "status": None}
    ]  # fmt: skip
    survivor = {(e["type"], e["other"], e["out"]): e for e in edges_of(scope, "Anthropic")}
    # Shared relation combined: weights add (1 + 1), confidence averages (0.8 + 0.4) / 2.
    builds = survivor[("RELATED_TO", "Claude", True)]
    assert builds["weight"] == 2 and builds["confidence"] == pytest.approx(0.6)
    assert survivor[("RELATED_TO", "Google", False)]["weight"] == 1
    assert survivor[("RELATED_TO", "Dario Amodei", False)]["weight"] == 1
    assert ("NOT_SAME", "OpenAI", True) in survivor or ("NOT_SAME", "OpenAI", False) in survivor
    assert ("CITES", "Note", False) in survivor
    mentions = [e for e in edges_of(scope, "Anthropic") if e["type"] == "MENTIONS"]
    assert len(mentions) == 2  # one in each of the two chunks
    keys = [e for e in edges_of(scope, "Anthropic") if e["type"] == "KEY_OF"]
    assert len(keys) == 2
    # Pending A-C became B-C; no self pair.
    assert {(p["a"], p["b"]) for p in pending_pairs(scope)} == (
        {("Anthropic AI Labs", "Anthropic")} if third.action == "pending" else set()
    )
    [tomb, surv] = [e for e in graph(scope)[1] if e["name"] in ("Anthropic AI", "Anthropic")][::-1]
    assert tomb["status"] == "merged" and surv["status"] == "active"
    assert "Anthropic AI" in surv["aliases"] and "anthropic ai" in surv["norms"]

    undone = check_merge_undo(scope, merge_uid=result["merge_uid"])
    assert undone["review_uid"] == review["uid"]
    assert graph(scope) == before
    assert edges_of(scope, "Anthropic AI") == a_edges_before
    with pytest.raises(ConflictError, match="Already undone"):
        check_merge_undo(scope, merge_uid=result["merge_uid"])


def test_a_decided_pair_cannot_be_decided_again(scope):
    anthropic_pair(scope)
    [review] = pending_pairs(scope)
    check_review_confirm(scope, review_uid=review["uid"])
    with pytest.raises(ConflictError, match="Already confirmed by agent:test") as refused:
        check_review_confirm(scope, review_uid=review["uid"])
    assert refused.value.extra["decided_by"] == "agent:test"


@pytest.mark.django_db(transaction=True)
def test_two_reviewers_confirming_at_once_merge_once(scope):
    import threading

    first, _ = anthropic_pair(scope)
    [review] = pending_pairs(scope)
    barrier = threading.Barrier(2)
    outcomes = {}

    def reviewer(name):
        mine = scope_for_person(scope, name)
        barrier.wait()
        try:
            outcomes[name] = check_review_confirm(mine, review_uid=review["uid"])
        except ConflictError as exc:
            outcomes[name] = exc

    def scope_for_person(base, name):
        import dataclasses

        return dataclasses.replace(base, actor=f"user:{name}", actor_kind="person")

    threads = [threading.Thread(target=reviewer, args=(n,)) for n in ("ada", "bob")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    won = [n for n, o in outcomes.items() if isinstance(o, dict)]
    lost = [n for n, o in outcomes.items() if isinstance(o, ConflictError)]
    assert len(won) == 1 and len(lost) == 1, outcomes
    assert outcomes[lost[0]].extra["decided_by"] == f"user:{won[0]}"
    assert cypher.read(scope, "MATCH (m:Merge {tenant: $tenant}) RETURN count(m) AS n") == [
        {"n": 1}
    ]
    assert (
        cypher.read(
            scope,
            "MATCH (e:Entity {tenant: $tenant, status: 'active', type: 'Organization'}) "
            "RETURN collect(e.uid) AS uids",
        )[0]["uids"].count(first[0].entity_uid)
        == 1
    )


def test_undo_in_order_later_merges_first(scope):
    first, second = anthropic_pair(scope)
    third = ingest(
        scope,
        "Anthropic AI Inc is a public benefit corporation.",
        [EntityCandidate("Anthropic AI Inc", "Organization", description=ANTHROPIC)],
    )
    assert third[0].action == "pending", third[0].reason
    pairs = {p["a"]: p["uid"] for p in pending_pairs(scope)}
    m1 = check_review_confirm(scope, review_uid=pairs["Anthropic AI"])
    # The third name's pair moved with the merged entity; confirming it merges into the same one.
    pairs = {p["a"]: p for p in pending_pairs(scope)}
    assert pairs["Anthropic AI Inc"]["b"] == "Anthropic"
    m2 = check_review_confirm(scope, review_uid=pairs["Anthropic AI Inc"]["uid"])
    with pytest.raises(ConflictError, match="undo merge .* first"):
        check_merge_undo(scope, merge_uid=m1["merge_uid"])
    check_merge_undo(scope, merge_uid=m2["merge_uid"])
    check_merge_undo(scope, merge_uid=m1["merge_uid"])
    # (The third name was proposed against both: up to 3 proposals per mention.)
    assert {(p["a"], p["b"]) for p in pending_pairs(scope)} >= {
        ("Anthropic AI", "Anthropic"),
        (third[0].name, third[0].matched_name),
    }
