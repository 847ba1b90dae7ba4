"""Knowledge promotion: heat, the rule extractor, the upsert contract, idempotence, retrieval."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from apps.graph import cypher
from apps.knowledge.selectors import knowledge_graph, knowledge_search
from apps.knowledge.services import chain_heat, knowledge_promote_chains
from tests.lessons.conftest import say


def facts(scope, user):
    return {(f["from"], f["relation"], f["to"]): f for f in knowledge_graph(scope, user=user)}


def test_heat_grows_with_frequency_and_fades_with_time():
    now = datetime(2026, 1, 2, tzinfo=UTC)
    assert chain_heat(last_at=now, recent_messages=10, now=now) == 1.0
    assert chain_heat(last_at=now, recent_messages=5, now=now) == 0.5
    assert chain_heat(last_at=now - timedelta(hours=24), recent_messages=10, now=now) == 0.5
    assert chain_heat(last_at=now, recent_messages=0, now=now) == 0.0


def test_a_hot_chain_becomes_weighted_facts_once_per_revision(scope):
    for text in [
        "I use Go and Docker for the Nexus Protocol.",
        "I'm working on Nexus Protocol.",
        "I am struggling with authentication.",
    ]:
        say(scope, "ann", text)
    first = knowledge_promote_chains(scope)
    assert first["promoted"] == 1 and first["receipts"][0]["heat"] >= 0.25
    got = facts(scope, "ann")
    assert set(got) == {
        ("ann", "USES", "go"),
        ("ann", "USES", "docker"),
        ("ann", "WORKS_ON", "nexus_protocol"),
        ("ann", "STRUGGLES_WITH", "authentication"),
    }
    assert got[("ann", "USES", "go")]["weight"] == 1
    assert got[("ann", "USES", "go")]["confidence"] == pytest.approx(0.8)
    # The same revision again changes nothing.
    assert knowledge_promote_chains(scope)["chains"] == 0
    assert facts(scope, "ann") == got

    say(scope, "ann", "Maybe I use Go for scripts.")
    knowledge_promote_chains(scope)
    go = facts(scope, "ann")[("ann", "USES", "go")]
    assert go["weight"] == 2
    assert go["confidence"] == pytest.approx((0.8 + 0.4) / 2)
    assert go["nuance"] == "Maybe I use Go for scripts."
    assert facts(scope, "ann")[("ann", "USES", "docker")]["weight"] == 1
    # Every fact names the messages that support it.
    rows = cypher.read(
        scope,
        "MATCH (:Knowledge {tenant: $tenant, key: 'ann'})-[r:FACT {relation: 'USES'}]->"
        "(:Knowledge {key: 'go'}) RETURN r.messages AS messages",
    )
    texts = cypher.read(
        scope,
        "MATCH (m:Message {tenant: $tenant}) WHERE m.uid IN $uids RETURN m.text AS t",
        uids=rows[0]["messages"],
    )
    assert sorted(t["t"] for t in texts) == [
        "I use Go and Docker for the Nexus Protocol.",
        "Maybe I use Go for scripts.",
    ]


def test_a_cold_chain_waits_and_a_crashed_or_repeated_write_counts_once(scope):
    from apps.knowledge.services import chain_upsert

    for text in ["hello", "I use Neo4j.", "thanks"]:
        say(scope, "bob", text)
    later = datetime.now(UTC) + timedelta(days=10)
    cold = knowledge_promote_chains(scope, now=later)
    assert cold["cold"] == 1 and knowledge_graph(scope, user="bob") == []
    knowledge_promote_chains(scope)
    assert facts(scope, "bob")[("bob", "USES", "neo4j")]["weight"] == 1
    # A worker that extracted the same messages and writes after the first one: unchanged.
    uid = cypher.read(
        scope, "MATCH (m:Message {tenant: $tenant, user: 'bob', no: 2}) RETURN m.uid AS u"
    )
    triple = {
        "from": "bob",
        "from_label": "Identities",
        "relation": "USES",
        "to": "neo4j",
        "to_label": "Tools",
        "nuance": "",
        "confidence": 0.9,
        "messages": [uid[0]["u"]],
    }
    again = chain_upsert(scope, user="bob", sid="main", upto=3, heat=0.5, triples=[triple])
    assert again["status"] == "unchanged"
    # Even past the mark, an observation already counted is not counted again.
    chain_upsert(scope, user="bob", sid="main", upto=4, heat=0.5, triples=[triple, triple])
    assert facts(scope, "bob")[("bob", "USES", "neo4j")]["weight"] == 1


def test_retrieval_is_two_hops_confident_and_ordered(scope):
    for text in ["I use Go.", "I use Go, really.", "I'm working on Nexus.", "I use Docker."]:
        say(scope, "cy", text)
    say(scope, "cy", "Maybe I'm interested in Rust.")
    for text in ["I use Go.", "hi", "bye"]:
        say(scope, "dee", text)
    knowledge_promote_chains(scope)
    found = knowledge_search(scope, user="cy", query="what about go?")
    assert [(f["from"], f["relation"], f["to"]) for f in found][0] == ("cy", "USES", "go")
    assert found[0]["weight"] == 2
    # Two hops from go: through cy to nexus and docker; rust is below 0.5 confidence.
    assert {f["to"] for f in found} == {"go", "nexus", "docker"}
    assert all(f["confidence"] >= 0.5 for f in found)
    assert knowledge_search(scope, user="dee", query="nexus") == []
    assert [f["to"] for f in knowledge_search(scope, user="dee", query="go")] == ["go"]
    assert len(knowledge_search(scope, user="cy", query="go", limit=500)) <= 50


def test_concurrent_promoters_lose_no_observation_and_count_none_twice(tenant):
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from apps.knowledge.services import chain_upsert
    from tests.conftest import scope_for

    scope = scope_for(tenant)

    def triple(message):
        return {
            "from": "ann",
            "from_label": "Identities",
            "relation": "USES",
            "to": "go",
            "to_label": "Tools",
            "nuance": message,
            "confidence": 0.8,
            "messages": [message],
        }

    barrier = threading.Barrier(8)

    def promote(i, sid):
        barrier.wait()
        return chain_upsert(
            scope_for(tenant), user="ann", sid=sid, upto=1, heat=0.5, triples=[triple(f"m-{sid}")]
        )

    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(lambda i: promote(i, f"s{i}"), range(8)))
    assert facts(scope, "ann")[("ann", "USES", "go")]["weight"] == 8
    with ThreadPoolExecutor(max_workers=8) as pool:
        receipts = list(pool.map(lambda i: promote(i, "same"), range(8)))
    assert sorted(r["status"] for r in receipts) == ["promoted"] + ["unchanged"] * 7
    assert facts(scope, "ann")[("ann", "USES", "go")]["weight"] == 9


def test_other_tenants_namesake_nodes_do_not_crowd_a_users_facts_out(make_tenant):
    """The context's fact search cuts Lucene's hits at 200 before it filters: the tenant and
    user are required clauses of the query, so 300 other users' "go" nodes cannot hide ours."""
    from apps.graph.cypher import read_unit
    from apps.knowledge.selectors import do_knowledge_facts_find
    from apps.knowledge.services import chain_upsert
    from tests.conftest import scope_for

    ours, theirs = scope_for(make_tenant()), scope_for(make_tenant())
    cypher.write(
        theirs,
        "UNWIND range(1, 300) AS i "
        "CREATE (:Knowledge {tenant: $tenant, user: 'u' + i, label: 'Tools', key: 'go', "
        "name: 'go'})",
    )
    triple = {
        "from": "ann",
        "from_name": "ann",
        "from_label": "Identities",
        "relation": "USES",
        "to": "go",
        "to_name": "go",
        "to_label": "Tools",
        "nuance": "",
        "confidence": 0.9,
        "messages": ["m1"],
    }
    for scope in (ours, theirs):  # the same user name in both tenants
        chain_upsert(scope, user="ann", sid="main", upto=1, heat=0.5, triples=[triple])

    found = read_unit(
        ours, lambda stx: do_knowledge_facts_find(stx, user="ann", text="go", limit=5)
    )
    assert [(f["from"], f["relation"], f["to"]) for f in found["facts"]] == [("ann", "USES", "go")]
    assert [f["to"] for f in knowledge_search(ours, user="ann", query="go")] == ["go"]
