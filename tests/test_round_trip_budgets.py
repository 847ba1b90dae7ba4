"""Every hot endpoint stays within its Cypher round-trip budget (tests/round_trip_budgets.json),
so an N+1 in a selector, or a query more per chunk, fails here. Data is made through the
services; each request is measured as the client sends it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.test import Client

from apps.graph.cypher import count_round_trips
from apps.lessons.services.episodes import check_episode_open
from apps.resolution.candidates import EntityCandidate
from apps.tenants.models import Job, Role
from tests.conftest import scope_for
from tests.review.review_fixtures import anthropic_pair, ingest, pending_pairs

BUDGETS = {
    name: budget
    for name, budget in json.loads(
        (Path(__file__).parent / "round_trip_budgets.json").read_text()
    ).items()
    if not name.startswith("_")
}
STORY = (
    "# Baker Street\n\n"
    "Sherlock Holmes lives in London. Holmes works for Scotland Yard as a consultant, and "
    "Dr. John Watson writes down every case they solve together. Their rooms are small.\n\n"
    "## The firm\n\n"
    "Mrs. Hudson owns the house in Baker Street. Inspector Lestrade of Scotland Yard asks "
    "Holmes for help when a case is beyond the Yard, which happens every other week.\n\n"
    "## The cases\n\n"
    "Irene Adler outwitted Holmes in Bohemia. Professor Moriarty leads a network of crime in "
    "London, and Holmes follows him to the falls at Reichenbach in Switzerland.\n"
)


@pytest.fixture
def world(tenant, api_client, make_person):
    """A tenant with a pending pair, a conversation, an episode and a reviewer's session."""
    scope = scope_for(tenant)
    first, second = anthropic_pair(scope)
    mistral = "A French company that builds open-weight language models."
    ingest(scope, "Mistral trains models.", [EntityCandidate("Mistral", "Organization",
                                                             description=mistral)])  # fmt: skip
    ingest(scope, "Mistral AI released a model.",
           [EntityCandidate("Mistral AI", "Organization", description=mistral)])  # fmt: skip
    pair, other = (p["uid"] for p in pending_pairs(scope))
    ann = "/api/v1/users/ann/sessions/main/messages"
    api_client.post(ann, {"role": "user", "text": "Anthropic builds Claude.", "by": "ann"},
                    format="json")  # fmt: skip
    check_episode_open(scope, title="a first episode")
    reviewer = make_person(tenant, Role.REVIEWER)
    page = Client()
    page.login(username=reviewer.username, password=reviewer.raw_password)
    return {"api": api_client, "page": page, "pair": pair, "other": other,
            "entity": first[0].entity_uid}  # fmt: skip


def _request(world, name: str):
    api, page, pair, entity = world["api"], world["page"], world["pair"], world["entity"]
    other = world["other"]
    message = {"role": "user", "text": "Does Anthropic build Claude?", "by": "ann"}
    calls = {
        "GET /api/v1/entities?q=": lambda: api.get("/api/v1/entities", {"q": "Anthropic"}),
        "GET /api/v1/entities/<uid>": lambda: api.get(f"/api/v1/entities/{entity}"),
        "GET /entities/<uid>/": lambda: page.get(f"/entities/{entity}/"),
        "GET /api/v1/reviews": lambda: api.get("/api/v1/reviews"),
        "GET /api/v1/reviews/<uid>": lambda: api.get(f"/api/v1/reviews/{pair}"),
        "POST /api/v1/reviews/<uid>/confirm": lambda: api.post(f"/api/v1/reviews/{pair}/confirm"),
        "GET /review/": lambda: page.get("/review/"),
        "GET /api/v1/reviews/clusters": lambda: api.get("/api/v1/reviews/clusters"),
        "GET /review/clusters/": lambda: page.get("/review/clusters/"),
        "GET /review/pairs/<uid>/": lambda: page.get(f"/review/pairs/{pair}/"),
        "POST /review/pairs/<uid>/confirm": lambda: page.post(
            f"/review/pairs/{other}/confirm", HTTP_HX_REQUEST="true"
        ),
        "POST /api/v1/users/<user>/sessions/<sid>/messages": lambda: api.post(
            "/api/v1/users/ann/sessions/main/messages", message, format="json"
        ),
        "GET /api/v1/users/<user>/sessions/<sid>/messages": lambda: api.get(
            "/api/v1/users/ann/sessions/main/messages"
        ),
        "POST /api/v1/context": lambda: api.post(
            "/api/v1/context",
            {"user": "ann", "session": "main", "message": "Does Anthropic build Claude?"},
            format="json",
        ),
        "POST /api/v1/documents": lambda: api.post(
            "/api/v1/documents", {"content": STORY, "source": "notes"}, format="json"
        ),
        "GET /api/v1/episodes": lambda: api.get("/api/v1/episodes"),
        "GET /api/v1/lessons": lambda: api.get("/api/v1/lessons"),
        "GET /api/v1/playbooks-for": lambda: api.get(
            "/api/v1/playbooks-for", {"situation": json.dumps({"status": "hot"})}
        ),
        "GET /api/v1/knowledge/<user>": lambda: api.get("/api/v1/knowledge/ann"),
    }
    return calls[name]()


# Reads first, then the writes (each confirm takes a pair of its own).
REQUESTS = sorted(name for name in BUDGETS if name.startswith("GET ")) + sorted(
    name for name in BUDGETS if name.startswith("POST ")
)


@pytest.mark.django_db(transaction=True)
def test_every_hot_endpoint_stays_within_its_round_trip_budget(world):
    measured, over = {}, []
    for name in REQUESTS:
        with count_round_trips() as trips:
            response = _request(world, name)
        assert response.status_code < 300, (name, response.content[:300])
        measured[name] = trips[0]
        if not 0 < trips[0] <= BUDGETS[name]:
            over.append(f"{name}: {trips[0]} round trips (budget {BUDGETS[name]})")
    print("round trips:", json.dumps(measured, indent=1))
    assert over == [], over


@pytest.mark.django_db(transaction=True)
def test_ingestion_stays_within_its_round_trip_budget_per_chunk(tenant):
    from apps.ingestion import services

    scope = scope_for(tenant)
    submitted = services.check_document_submit(scope, content=STORY, source="notes")
    job = Job.objects.select_related("tenant").get(uid=submitted["job"])
    with count_round_trips() as trips:
        services.document_ingest_job_run(job)
    job.refresh_from_db()
    chunks = job.progress["chunks_written"]
    assert job.status == "done" and chunks >= 3, job.progress
    per_chunk = trips[0] / chunks
    print(f"ingestion: {trips[0]} round trips for {chunks} chunks")
    assert per_chunk <= BUDGETS["ingestion, per chunk"], f"{trips[0]} for {chunks} chunks"


PEOPLE = ["Ada Lindqvist", "Bruno Okafor", "Chiara Moreau", "Dmitri Tanaka", "Elif Novak"]
ORGS = ["Acme Corp", "Globex Corporation", "Initech", "Wayne Enterprises"]
PLACES = ["London", "Berlin", "Nairobi", "Lisbon", "Osaka"]
SENTENCES = [
    "{p} joined {o} in {c} after years of work on water pumps and irrigation.",
    "{o} is based in {c}, where {p} leads a team of forty engineers.",
    "{p} met {q} at a conference in {c} to discuss the new turbine design.",
    "Critics in {c} say the project is late, but {q} expects it to finish by spring.",
    "{q} works for {o} and visits {c} every month to check the prototypes.",
    "Engineers at {o} tested the pump in {c} during the dry season, said {p}.",
]


def window_document(chunks: int = 32) -> str:
    """`chunks` paragraphs (one chunk each), few names repeated, no two alike."""
    import random

    rng = random.Random(13)
    paragraphs = []
    for i in range(chunks):
        fill = dict(p=rng.choice(PEOPLE), q=rng.choice(PEOPLE), o=rng.choice(ORGS),
                    c=rng.choice(PLACES))  # fmt: skip
        picked = rng.sample(SENTENCES, 3)
        paragraphs.append(" ".join(s.format(**fill) for s in picked) + f" (entry {i * 7919})")
    return "# Log\n\n" + "\n\n".join(paragraphs) + "\n"


@pytest.mark.django_db(transaction=True)
def test_a_window_of_32_chunks_stays_within_its_round_trip_budget_per_chunk(tenant):
    from apps.ingestion import services

    scope = scope_for(tenant)
    submitted = services.check_document_submit(scope, content=window_document(), source="log")
    job = Job.objects.select_related("tenant").get(uid=submitted["job"])
    with count_round_trips() as trips:
        services.document_ingest_job_run(job)
    job.refresh_from_db()
    assert job.status == "done" and job.progress["chunks_written"] == 32, job.progress
    print(f"ingestion window: {trips[0]} round trips for 32 chunks")
    assert trips[0] / 32 <= BUDGETS["ingestion, window of 32 chunks, per chunk"], trips[0]


def test_every_budget_has_its_request():
    assert set(BUDGETS) == set(REQUESTS) | {
        "ingestion, per chunk",
        "ingestion, window of 32 chunks, per chunk",
    }
