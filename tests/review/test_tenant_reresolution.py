"""The whole tenant re-resolved on a worker (POST /api/v1/resolution/reresolve): a pair first
scored under the review threshold is proposed once what both sides know says so, a second run
proposes and merges nothing more, the job reports its passes with progress, and the route needs
the review scope and keeps to the caller's tenant."""

import pytest

from apps.graph import cypher
from apps.tenants.models import KeyScope
from tests.conftest import scope_for, wait_for
from tests.resolution.test_block_pairs import PAIRS, facts, learn

RIGHTS = [KeyScope.REVIEW.value, KeyScope.MEMORY_READ.value, KeyScope.MEMORY_WRITE.value]


def run(client):
    queued = client.post("/api/v1/resolution/reresolve")
    assert queued.status_code == 202, queued.content
    return wait_for(lambda: (j := client.get(queued.json()["url"]).json())["status"] == "done"
                    and j, timeout=300, message="the re-resolution job did not finish")  # fmt: skip


@pytest.mark.django_db(transaction=True)
def test_reresolve_on_a_worker_proposes_what_the_graph_now_says_once(make_tenant, make_api_client,
                                                                    celery_worker):  # fmt: skip
    tenant, other = make_tenant(), make_tenant()
    scope = scope_for(tenant)
    client = make_api_client(tenant, RIGHTS)
    facts(client, {"name": "Wiktor Szymanek", "type": "Person", "values": {"born": "1971"}})
    lone = facts(client, {"name": "Szymanek", "type": "Person"})
    learn(scope, lone["entity_uid"], {"born": "1971"})  # what a later note taught it
    assert cypher.read(scope, PAIRS) == []

    reader = make_api_client(tenant, [KeyScope.MEMORY_READ.value])
    assert reader.post("/api/v1/resolution/reresolve").status_code == 403
    done = run(client)
    assert done["result"]["passes"] >= 1 and done["result"]["entities"] == 2
    assert done["progress"] == {"done": 2, "total": 2}
    [pair] = cypher.read(scope, PAIRS)
    assert pair["status"] == "pending" and "born year" in pair["reason"]

    again = run(client)
    assert again["result"]["merges"] == 0 and len(cypher.read(scope, PAIRS)) == 1
    theirs = run(make_api_client(other, RIGHTS))
    assert theirs["result"]["entities"] == 0
