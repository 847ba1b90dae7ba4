"""Stored communities (seed 004, phase 5): a refresh job runs Leiden on the tenant's entity
graph and writes :Community nodes with their members, the documents they draw from and a
summary (extractive, or an LLM's with a counted fallback); the API lists them, shows one with
its fusion candidates (pending pairs among its members) and answers a broad question from the
summaries; all of it is the tenant's, and a document's deletion leaves no community quoting it.
Data through the real services, against the real Neo4j and model."""

from __future__ import annotations

import pytest
from django.test import Client

from apps.graph import cypher
from apps.ingestion.document_deletion import document_erase
from apps.insights import community_selectors
from apps.insights.communities import communities_refresh, communities_refresh_run
from apps.resolution.candidates import EntityCandidate, RelationCandidate
from apps.tenant_data.selectors import tenant_scan
from apps.tenant_data.services.tenant_deletion import check_tenant_delete, deletion_run
from apps.tenants.models import Job, Role
from tests.conftest import scope_for
from tests.review.review_fixtures import ANTHROPIC, anthropic_pair, ingest, pending_pairs

PUMPS = (
    "Brisvane Hydraulics builds water pumps for farms in Kenya. Amina Otieno leads Brisvane "
    "Hydraulics from Nairobi, where the pumps are assembled."
)


def pumps(scope) -> str:
    """A second community (Brisvane Hydraulics, Amina Otieno, Nairobi); its document's uid."""
    ingest(
        scope, PUMPS,
        [EntityCandidate("Brisvane Hydraulics", "Organization", description="A pump maker."),
         EntityCandidate("Amina Otieno", "Person", description="An engineer in Kenya."),
         EntityCandidate("Nairobi", "Location", description="The capital of Kenya.")],
        [RelationCandidate(1, "LEADS", 0, confidence=0.9),
         RelationCandidate(0, "BASED_IN", 2, confidence=0.8),
         RelationCandidate(1, "LIVES_IN", 2, confidence=0.6)],
        title="about pumps",
    )  # fmt: skip
    rows = cypher.read(scope, "MATCH (d:Document {tenant: $tenant, title: 'about pumps'}) "
                       "RETURN d.uid AS uid")  # fmt: skip
    return rows[0]["uid"]


@pytest.fixture
def world(scope):
    """Two communities: the Anthropic one (with a pending pair), the pumps one; a lone entity."""
    anthropic_pair(scope)
    ingest(scope, "Dario Amodei advises Anthropic AI. Google funds Anthropic.",
           [EntityCandidate("Dario Amodei", "Person", description="Chief executive of Anthropic."),
            EntityCandidate("Anthropic AI", "Organization", description=ANTHROPIC),
            EntityCandidate("Google", "Organization", description="A search and ads company."),
            EntityCandidate("Anthropic", "Organization", description=ANTHROPIC)],
           [RelationCandidate(0, "ADVISES", 1), RelationCandidate(2, "FUNDS", 3)],
           title="more about Anthropic")  # fmt: skip
    document = pumps(scope)
    ingest(scope, "Lone Island has no neighbours.",
           [EntityCandidate("Lone Island", "Location", description="An island.")])  # fmt: skip
    return {"pumps": document}


def by_name(listed: dict, name: str) -> dict:
    return next(c for c in listed["communities"] if name in c["name"] or name in c["summary"])


def test_a_refresh_writes_communities_with_members_documents_and_summaries(scope, world):
    counts = communities_refresh(scope)
    assert counts["communities"] == 2 and counts["singletons"] == 1
    assert counts["llm_summaries"] == counts["llm_fallbacks"] == 0
    listed = community_selectors.communities_list(scope)
    assert listed["total"] == 2
    pumps_community = by_name(listed, "Brisvane Hydraulics")
    assert pumps_community["size"] == 3 and pumps_community["documents"] == 1
    assert pumps_community["relation_types"] == ["BASED_IN", "LEADS", "LIVES_IN"]
    assert pumps_community["summary_source"] == "extractive"
    summary = pumps_community["summary"]
    assert "Amina Otieno leads Brisvane Hydraulics" in summary  # its strongest relation
    assert "water pumps for farms in Kenya" in summary  # a sentence of its chunk
    detail = community_selectors.community_detail(scope, uid=pumps_community["uid"])
    assert {m["name"] for m in detail["members"]} == {"Brisvane Hydraulics", "Amina Otieno",
                                                      "Nairobi"}  # fmt: skip
    assert [m["rank"] for m in detail["members"]] == [0, 1, 2]
    assert [d["uid"] for d in detail["document_list"]] == [world["pumps"]]
    assert [p["text"] for p in detail["passages"]] == [PUMPS]

    first_run = pumps_community["run"]
    again = communities_refresh(scope)  # a refresh replaces the run, never adds to it
    assert again["replaced"] == 2
    listed = community_selectors.communities_list(scope)
    assert listed["total"] == 2 and {c["run"] for c in listed["communities"]} == {again["run"]}
    assert again["run"] != first_run


def test_fusion_candidates_are_the_pending_pairs_among_its_members(scope, world):
    communities_refresh(scope)
    (pair,) = pending_pairs(scope)
    listed = community_selectors.communities_list(scope)
    anthropic = by_name(listed, "Anthropic")
    detail = community_selectors.community_detail(scope, uid=anthropic["uid"])
    assert [f["uid"] for f in detail["fusion_candidates"]] == [pair["uid"]]
    assert {detail["fusion_candidates"][0]["a"]["name"],
            detail["fusion_candidates"][0]["b"]["name"]} == {"Anthropic", "Anthropic AI"}  # fmt: skip
    pumps_community = by_name(listed, "Brisvane Hydraulics")
    other = community_selectors.community_detail(scope, uid=pumps_community["uid"])
    assert other["fusion_candidates"] == []


def test_the_api_runs_the_job_lists_shows_and_answers_in_the_tenant_only(
    tenant, make_tenant, make_api_client, world
):
    api = make_api_client(tenant)
    queued = api.post("/api/v1/communities/refresh")
    assert queued.status_code == 202, queued.content
    communities_refresh_run(job_uid=queued.json()["job"])
    job = api.get(queued.json()["url"]).json()
    assert job["status"] == "done" and job["result"]["communities"] == 2
    assert job["progress"]["done"] == job["progress"]["total"] == 2

    listed = api.get("/api/v1/communities").json()
    assert listed["total"] == 2
    answer = api.get("/api/v1/communities/answer", {"q": "Who makes water pumps in Kenya?"})
    assert answer.status_code == 200
    body = answer.json()
    assert "Brisvane Hydraulics" in body["communities"][0]["name"]
    assert body["communities"][0]["score"] > body["communities"][1]["score"]
    assert body["answer"].startswith(body["communities"][0]["name"])
    uid = body["communities"][0]["uid"]
    detail = api.get(f"/api/v1/communities/{uid}").json()
    assert detail["size"] == 3 and len(detail["members"]) == 3

    refused = api.get("/api/v1/communities/answer")
    assert refused.status_code == 400 and "q" in refused.json()["error"]["fields"]
    refused = api.get("/api/v1/communities", {"limit": 0})
    assert refused.status_code == 400 and "limit" in refused.json()["error"]["fields"]
    assert api.get("/api/v1/communities/nope").status_code == 404

    theirs = make_api_client(make_tenant())
    assert theirs.get("/api/v1/communities").json() == {"total": 0, "communities": []}
    assert theirs.get(f"/api/v1/communities/{uid}").status_code == 404
    assert theirs.get("/api/v1/communities/answer", {"q": "pumps"}).json()["communities"] == []


def test_a_document_deletion_removes_the_communities_drawing_from_it(scope, world):
    communities_refresh(scope)
    listed = community_selectors.communities_list(scope)
    gone = by_name(listed, "Brisvane Hydraulics")["uid"]
    kept = by_name(listed, "Anthropic")["uid"]
    counts = document_erase(scope, uid=world["pumps"])
    assert counts["communities"] == 1
    assert counts["left"] == 0, counts["residue"]
    assert community_selectors.community_detail(scope, uid=gone) is None
    assert community_selectors.community_detail(scope, uid=kept) is not None
    left = cypher.read(scope, "MATCH (c:Community {tenant: $tenant}) "
                       "WHERE c.summary CONTAINS 'pumps' RETURN count(c) AS n")  # fmt: skip
    assert left[0]["n"] == 0


def test_an_llm_summary_when_configured_and_a_counted_fallback(scope, world, chat_server,
                                                                settings):  # fmt: skip
    settings.COMMUNITY_LLM_URL = chat_server.url
    chat_server.answers = [{"title": "Claude's makers", "summary": "Anthropic builds Claude."},
                           {"title": "no summary"}]  # fmt: skip
    counts = communities_refresh(scope)
    assert counts["llm_summaries"] == 1 and counts["llm_fallbacks"] == 1
    sent = chat_server.requests[0]["body"]
    assert sent["response_format"]["json_schema"]["strict"] is True
    sources = {c["summary_source"] for c in community_selectors.communities_list(scope)
               ["communities"]}  # fmt: skip
    assert sources == {"llm", "extractive"}
    llm = next(c for c in community_selectors.communities_list(scope)["communities"]
               if c["summary_source"] == "llm")  # fmt: skip
    assert llm["name"] == "Claude's makers" and llm["summary"] == "Anthropic builds Claude."


def test_the_page_lists_answers_and_a_reviewer_refreshes(tenant, make_person, world):
    scope = scope_for(tenant)
    communities_refresh(scope)
    viewer = make_person(tenant, Role.VIEWER)
    client = Client()
    client.login(username=viewer.username, password=viewer.raw_password)
    page = client.get("/graph/communities/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'href="/graph/communities/"' in html  # the menu's link
    assert "Brisvane Hydraulics" in html and "communities-refresh-button" not in html
    asked = client.get("/graph/communities/", {"q": "water pumps in Kenya"}).content.decode()
    assert 'id="communities-answer"' in asked
    assert client.post("/graph/communities/refresh/").status_code == 403
    uid = by_name(community_selectors.communities_list(scope), "Anthropic")["uid"]
    detail = client.get(f"/graph/communities/{uid}/").content.decode()
    assert 'id="community-fusion"' in detail and "Anthropic AI" in detail

    reviewer = make_person(tenant, Role.REVIEWER)
    client.login(username=reviewer.username, password=reviewer.raw_password)
    assert "communities-refresh-button" in client.get("/graph/communities/").content.decode()
    assert client.post("/graph/communities/refresh/").status_code == 302
    assert Job.objects.filter(tenant=tenant, kind="communities_refresh").count() == 1


def test_a_tenant_deletion_leaves_no_community(tenant, make_tenant, world):
    scope = scope_for(tenant)
    communities_refresh(scope)
    other = scope_for(make_tenant())
    pumps(other)
    communities_refresh(other)
    assert tenant_scan(tenant_uid=tenant.uid)["nodes"]["Community"] == 2
    deletion = check_tenant_delete(actor="user:staff", tenant=tenant, confirm=tenant.slug)
    deletion_run(deletion_uid=deletion.uid)
    after = tenant_scan(tenant_uid=tenant.uid)
    assert after["left"] == 0 and "Community" not in after["nodes"]
    assert "IN_COMMUNITY" not in after["relationships"]
    assert community_selectors.communities_list(other)["total"] == 1  # another's stays
