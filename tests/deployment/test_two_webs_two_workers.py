"""The scale-out path, run: two web processes and two Celery workers on Redis and PostgreSQL,
one Neo4j. Concurrent agents send documents, facts and messages through both web processes;
nothing may be lost or counted twice, and every message keeps its agent's order."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from apps.graph import cypher
from apps.graph.scope import Scope
from tests.conftest import wait_for

pytestmark = [pytest.mark.deployment, pytest.mark.worker, pytest.mark.slow]

AGENTS = 4
MESSAGES = 6  # per agent, in its own session and in the session all agents share
# Two documents per agent, each on a subject of its own (near-identical chunks would be dropped
# as duplicates, on purpose).
DOCUMENTS = [
    ("Marguerite Olsson ran the lighthouse on Skarvholm for eleven winters.\n\n"
     "Her logbooks, kept in the Gothenburg archive, record every storm of 1931."),
    ("The Pellworth Brewery in Leeds moved its cellars under the canal in 1962.\n\n"
     "Tobias Reinholt, its head brewer, designed the copper vats himself."),
    ("Quillon Systems sells soil sensors to vineyards around Mendoza.\n\n"
     "Its founder, Aurelio Vantaggi, studied hydrology in Bologna."),
    ("A survey of the Hallorn glacier measured a retreat of forty metres in a decade.\n\n"
     "Dr. Sigrun Ekdahl led the survey team from the station at Tarfala."),
    ("The Brindlemoor orchestra premiered a symphony by Kasimir Dovrenko in Prague.\n\n"
     "Critics praised the second movement, written for a solo bassoon."),
    ("Nakamura Freight opened a rail depot outside Sapporo for frozen fish.\n\n"
     "Haruto Nakamura, the owner's grandson, now manages its night shift."),
    ("The Calder Street library lends telescopes to members over twelve.\n\n"
     "Librarian Fenella Abernathy started the programme with four donated scopes."),
    ("Orveto Ceramics fires its tiles in a wood kiln near Faenza.\n\n"
     "Master potter Livia Marchetti trains two apprentices each spring."),
]  # fmt: skip


def agent_work(deployment, agent: int) -> dict:
    """One agent's requests, in order, alternating between the two web processes."""
    clients = [deployment.client(agent), deployment.client(agent + 1)]
    sent = {"jobs": [], "own": [], "shared": []}
    try:
        for n, text in enumerate(DOCUMENTS[agent * 2 : agent * 2 + 2]):
            answer = clients[n % 2].post("/api/v1/documents",
                                         json={"content": text, "source": f"agent-{agent}"})  # fmt: skip
            assert answer.status_code == 202, answer.text
            sent["jobs"].append(answer.json()["job"])
        facts = {
            "entities": [
                {"name": f"Deployment Agent {agent} Lab", "type": "Organization"},
                {"name": f"Probe Keeper {agent}", "type": "Person"},
            ],
            "relations": [{"subject": f"Probe Keeper {agent}", "predicate": "works_for",
                           "object": f"Deployment Agent {agent} Lab"}],
        }  # fmt: skip
        answer = clients[1].post("/api/v1/facts", json=facts)
        assert answer.status_code == 201, answer.text
        for i in range(MESSAGES):
            for sid, key in ((f"own-{agent}", "own"), ("shared", "shared")):
                text = f"agent {agent} says line {i} in {sid}"
                answer = clients[i % 2].post(f"/api/v1/users/team/sessions/{sid}/messages",
                                             json={"role": "user", "text": text, "by": f"agent-{agent}"})  # fmt: skip
                assert answer.status_code == 201, answer.text
                sent[key].append(text)
    finally:
        for client in clients:
            client.close()
    return sent


def test_two_webs_and_two_workers_lose_nothing_and_count_nothing_twice(deployment):
    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=AGENTS) as pool:
        sent = list(pool.map(lambda agent: agent_work(deployment, agent), range(AGENTS)))
    jobs = [job for agent in sent for job in agent["jobs"]]
    api = [deployment.client(0), deployment.client(1)]

    def finished() -> list[dict] | None:
        rows = [api[n % 2].get(f"/api/v1/jobs/{job}").json() for n, job in enumerate(jobs)]
        return rows if all(row["status"] in ("done", "failed") for row in rows) else None

    rows = wait_for(finished, timeout=600, interval=2.0, message="the workers did not finish")
    assert [row["status"] for row in rows] == ["done"] * len(jobs), [r["error"] for r in rows]
    chunks_written = sum(row["progress"]["chunks_written"] for row in rows)

    scope = Scope(tenant=deployment.tenant_uid, actor="deployment-test", actor_kind="system")
    total_messages = AGENTS * MESSAGES * 2
    # Messages are embedded by the workers (a task per message): wait for all of them.
    wait_for(lambda: cypher.read(scope, "MATCH (m:Message {tenant: $tenant}) "
                                 "WHERE m.embedding IS NOT NULL RETURN count(m) AS n")[0]["n"]
             == total_messages, timeout=300, interval=2.0,
             message="the workers did not embed every message")  # fmt: skip

    # Each document once, its chunks once each at their own positions.
    documents = cypher.read(scope, "MATCH (d:Document {tenant: $tenant}) RETURN d.uid AS uid, "
                            "[(c:Chunk {tenant: $tenant})-[:PART_OF]->(d) | c.position] AS positions")  # fmt: skip
    assert len(documents) == len(DOCUMENTS)
    for document in documents:
        assert document["positions"], document
        assert sorted(document["positions"]) == list(range(len(document["positions"]))), document
    assert sum(len(d["positions"]) for d in documents) == chunks_written

    # Every fact's entity once, every relation once.
    facts = cypher.read(scope, "MATCH (p:Entity {tenant: $tenant, status: 'active'}) "
                        "WHERE p.name STARTS WITH 'Probe Keeper ' "
                        "OPTIONAL MATCH (p)-[r:RELATED_TO]->(o:Entity {tenant: $tenant}) "
                        "RETURN p.name AS name, collect(o.name) AS objects")  # fmt: skip
    assert sorted((f["name"], f["objects"]) for f in facts) == [
        (f"Probe Keeper {a}", [f"Deployment Agent {a} Lab"]) for a in range(AGENTS)
    ]
    labs = cypher.read(scope, "MATCH (o:Entity {tenant: $tenant, status: 'active'}) "
                       "WHERE o.name STARTS WITH 'Deployment Agent ' RETURN o.name AS name")  # fmt: skip
    assert sorted(r["name"] for r in labs) == [f"Deployment Agent {a} Lab" for a in range(AGENTS)]

    # Messages: numbered 1..N without a gap or a repeat; each agent's in the order it sent them,
    # also in the session every agent wrote to at once.
    def session(sid: str) -> list[dict]:
        answer = api[0].get(f"/api/v1/users/team/sessions/{sid}/messages", params={"last": 100})
        assert answer.status_code == 200, answer.text
        return answer.json()["messages"]

    for agent in range(AGENTS):
        own = session(f"own-{agent}")
        assert [m["text"] for m in own] == sent[agent]["own"]
        assert [m["no"] for m in own] == list(range(1, MESSAGES + 1))
    shared = session("shared")
    assert sorted(m["no"] for m in shared) == list(range(1, AGENTS * MESSAGES + 1))
    assert sorted(m["text"] for m in shared) == sorted(t for a in sent for t in a["shared"])
    by_number = [m["text"] for m in sorted(shared, key=lambda m: m["no"])]
    for agent in range(AGENTS):
        assert [t for t in by_number if t.startswith(f"agent {agent} ")] == sent[agent]["shared"]

    # Both web processes answer the same counts; both workers did some of the work.
    stats = [client.get("/api/v1/stats").json() for client in api]
    for counts in stats:
        assert counts["documents"] == len(DOCUMENTS)
        assert counts["chunks"] == chunks_written
        assert counts["messages"] == total_messages
        assert counts["conversations"] == AGENTS + 1
    for log in deployment.worker_logs:
        assert " succeeded in " in log.read_text(errors="replace"), f"{log} ran no task"
    for client in api:
        client.close()
    print(
        f"deployment up in {deployment.started_in:.0f} s, "
        f"work checked in {time.monotonic() - started:.0f} s"
    )
