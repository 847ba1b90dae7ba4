"""The erasure hook: a fact with no other support goes, one with other support is recomputed."""

from __future__ import annotations

import pytest
from django.conf import settings

from apps.conversations.erasure import check_erasure_start
from apps.graph import cypher
from apps.graph.residue import tenant_residue
from apps.knowledge.erasure import knowledge_forget_messages
from apps.knowledge.selectors import knowledge_graph
from apps.knowledge.services import knowledge_promote_chains
from apps.tenants.models import Job
from tests.conftest import scope_for, wait_for
from tests.lessons.conftest import say


def test_the_hook_is_registered_for_the_conversation_erasure():
    assert "apps.knowledge.erasure.knowledge_forget_messages" in (settings.MESSAGE_ERASURE_HOOKS)


def test_forgetting_messages_takes_their_support_off_promoted_facts(scope):
    first = say(scope, "ann", "I use Go and Docker.")
    second = say(scope, "ann", "Maybe I use Go.")
    third = say(scope, "ann", "I use Go.")
    say(scope, "bob", "I use Docker.")
    say(scope, "bob", "I use Docker.")
    say(scope, "bob", "I use Docker.")
    knowledge_promote_chains(scope)
    go = {f["to"]: f for f in knowledge_graph(scope, user="ann")}["go"]
    assert go["weight"] == 3
    assert go["confidence"] == pytest.approx(((0.8 + 0.4) / 2 + 0.8) / 2)

    result = knowledge_forget_messages(scope, message_uids=[first["uid"], third["uid"]])
    assert result == {"dropped": 1, "reweighed": 1}
    ann = {f["to"]: f for f in knowledge_graph(scope, user="ann")}
    assert set(ann) == {"go"}  # docker had no other support: the fact and its node went
    assert ann["go"]["weight"] == 1 and ann["go"]["confidence"] == pytest.approx(0.4)
    assert ann["go"]["nuance"] == "Maybe I use Go."
    left = cypher.read(
        scope,
        "MATCH (:Knowledge {tenant: $tenant, user: 'ann'})-[r:FACT]->() RETURN r.messages AS m",
    )
    assert left == [{"m": [second["uid"]]}]
    nodes = cypher.read(
        scope, "MATCH (k:Knowledge {tenant: $tenant, user: 'ann'}) RETURN k.key AS key ORDER BY key"
    )
    assert [n["key"] for n in nodes] == ["ann", "go"]
    # Another user's fact about the same tool is untouched.
    assert knowledge_graph(scope, user="bob")[0]["weight"] == 3
    # Message 1 is gone, so the chain's mark went back to 0, and with it the user's chain mark.
    mark = "MATCH (c:KnowledgeChain {tenant: $tenant, user: 'ann'}) RETURN c.promoted_no AS n"
    assert cypher.read(scope, mark) == []
    knowledge_forget_messages(scope, message_uids=[second["uid"]])
    assert knowledge_graph(scope, user="ann") == []


def test_erasing_the_last_messages_moves_the_chain_mark_back(scope):
    said = [say(scope, "eve", text) for text in ["I use Go.", "I use Rust.", "I use Zig."]]
    knowledge_promote_chains(scope)
    mark = "MATCH (c:KnowledgeChain {tenant: $tenant, user: 'eve'}) RETURN c.promoted_no AS n"
    assert cypher.read(scope, mark) == [{"n": 3}]
    knowledge_forget_messages(scope, message_uids=[said[2]["uid"]])
    assert cypher.read(scope, mark) == [{"n": 2}]
    assert {f["to"] for f in knowledge_graph(scope, user="eve")} == {"go", "rust"}


def test_the_conversation_erasure_calls_the_hook_and_leaves_no_fact_behind(scope):
    from apps.conversations.erasure import messages_erase

    for text in ["I use Go and Docker.", "ok", "thanks"]:
        say(scope, "ann", text, sid="work")
    for text in ["I use Go.", "hi", "bye"]:
        say(scope, "ann", text, sid="home")
    knowledge_promote_chains(scope)
    assert {f["to"]: f["weight"] for f in knowledge_graph(scope, user="ann")} == {
        "go": 2,
        "docker": 1,
    }
    messages_erase(scope, user="ann", sid="work")
    assert {f["to"]: f["weight"] for f in knowledge_graph(scope, user="ann")} == {"go": 1}
    messages_erase(scope, user="ann", sid=None)
    assert knowledge_graph(scope, user="ann") == []
    left = cypher.read(
        scope,
        "RETURN COUNT { MATCH (k:Knowledge {tenant: $tenant}) } AS nodes, "
        "COUNT { MATCH (c:KnowledgeChain {tenant: $tenant}) } AS chains",
    )
    assert left == [{"nodes": 0, "chains": 0}]


@pytest.mark.worker
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_erasures_of_one_users_sessions_at_once_leave_no_support_behind(celery_worker, tenant):
    """Each erasure takes its messages' support off the same promoted facts: run together on a
    real worker's processes, one at a time where they meet (the deletion lock), so none writes
    back the support another took off."""
    scope = scope_for(tenant)
    sessions = ["work", "home", "road", "desk"]
    said = [say(scope, "ann", text, sid=sid) for sid in sessions
            for text in ("I use Go and Docker.", "I use Go.", "ok")]  # fmt: skip
    knowledge_promote_chains(scope)
    assert {f["to"]: f["weight"] for f in knowledge_graph(scope, user="ann")} == {
        "go": 8,
        "docker": 4,
    }
    jobs = [check_erasure_start(scope, user="ann", sid=sid).uid for sid in sessions]
    wait_for(lambda: all(Job.objects.get(uid=j).status in ("done", "failed") for j in jobs),
             timeout=600, message="the erasures did not finish")  # fmt: skip
    assert [Job.objects.get(uid=j).status for j in jobs] == ["done"] * 4
    assert knowledge_graph(scope, user="ann") == []
    assert tenant_residue(scope, needles=[m["uid"] for m in said]) == {}
