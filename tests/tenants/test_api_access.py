"""Every API route needs a key with the right scope; a key reaches only its own tenant."""

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient

from apps.tenants import services
from apps.tenants.models import Job, KeyScope


def _api_routes(patterns=None, prefix=""):
    for entry in patterns if patterns is not None else get_resolver().url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from _api_routes(entry.url_patterns, route)
        elif isinstance(entry, URLPattern) and route.startswith("api/v1/"):
            yield route, entry


def _concrete(route: str) -> str:
    # Fill every converter with a value that matches it; the object need not exist.
    import re

    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", "x0", route)


API_ROUTES = sorted(_api_routes())


def test_the_url_conf_has_api_routes():
    assert len(API_ROUTES) >= 3


@pytest.mark.parametrize("route,pattern", API_ROUTES, ids=[r for r, _ in API_ROUTES])
@pytest.mark.parametrize("method", ["get", "post", "put", "patch", "delete"])
def test_every_api_route_requires_a_key(db, route, pattern, method):
    response = getattr(APIClient(), method)(_concrete(route), {}, format="json")
    assert response.status_code == 401, (route, method, response.status_code)
    assert response.json()["error"]["code"] == "not_authenticated"


@pytest.mark.parametrize("route,pattern", API_ROUTES, ids=[r for r, _ in API_ROUTES])
def test_every_api_view_names_the_scope_it_needs(route, pattern):
    view = getattr(pattern.callback, "view_class", None) or getattr(pattern.callback, "cls", None)
    assert view is not None, route
    assert getattr(view, "required_scope", None), f"{route} declares no required_scope"


def test_a_wrong_key_is_refused(db):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Api-Key abcdefgh.not-a-real-key")
    response = client.get("/api/v1/stats")
    assert response.status_code == 401


def test_a_revoked_key_is_refused(tenant):
    api_key, raw = services.api_key_issue(tenant=tenant, name="soon revoked")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Api-Key {raw}")
    assert client.get("/api/v1/stats").status_code == 200
    services.api_key_revoke(api_key=api_key)
    assert client.get("/api/v1/stats").status_code == 401


def test_a_key_without_the_scope_gets_403(tenant, make_api_client):
    client = make_api_client(tenant, scopes=[KeyScope.MEMORY_WRITE])
    response = client.get("/api/v1/stats")
    assert response.status_code == 403
    assert "memory:read" in response.json()["error"]["message"]


def test_last_use_is_recorded(tenant):
    api_key, raw = services.api_key_issue(tenant=tenant, name="tracked")
    assert api_key.last_used_at is None
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Api-Key {raw}")
    client.get("/api/v1/stats")
    api_key.refresh_from_db()
    assert api_key.last_used_at is not None


def test_the_key_is_hashed_at_rest(tenant):
    api_key, raw = services.api_key_issue(tenant=tenant, name="hashed")
    api_key.refresh_from_db()
    assert raw.split(".", 1)[1] not in api_key.hashed_key


def test_stats_count_only_the_callers_tenant(make_tenant, make_api_client):
    from apps.graph import cypher
    from tests.conftest import scope_for

    a, b = make_tenant(), make_tenant()
    cypher.write(
        scope_for(a), "CREATE (:Document {uid: randomUUID(), tenant: $tenant, source: 's'})"
    )
    stats_a = make_api_client(a).get("/api/v1/stats").json()
    stats_b = make_api_client(b).get("/api/v1/stats").json()
    assert stats_a["documents"] == 1
    assert stats_b["documents"] == 0
    assert set(stats_a) >= {
        "documents", "chunks", "entities", "relations", "conversations", "messages",
        "pending_reviews", "episodes", "lessons", "playbooks", "read_at",
    }  # fmt: skip


def test_another_tenants_job_is_404_not_403(make_tenant, make_api_client):
    a, b = make_tenant(), make_tenant()
    job = Job.objects.create(tenant=a, kind="ingest")
    assert make_api_client(a).get(f"/api/v1/jobs/{job.uid}").status_code == 200
    response = make_api_client(b).get(f"/api/v1/jobs/{job.uid}")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_health_reports_neo4j_broker_and_model(tenant, api_client, make_api_client):
    body = api_client.get("/api/v1/health").json()
    assert body["neo4j"]["connected"] is True
    assert body["neo4j"]["version"].startswith("2026.01")
    assert body["neo4j"]["gds"].startswith("2.26")
    # Versions and edition only to admin keys.
    reader = make_api_client(tenant, scopes=["memory:read"]).get("/api/v1/health").json()
    assert reader["neo4j"] == {"connected": True} and reader["status"] == "ok"
    assert body["broker"]["connected"] is True
    assert body["embedding"]["dimensions"] == 384
    assert body["status"] == "ok"


def test_openapi_schema_needs_a_login_or_key(db, api_client):
    assert APIClient().get("/api/schema/").status_code in (401, 403)
    response = api_client.get("/api/schema/")
    assert response.status_code == 200
    assert b"/api/v1/stats" in response.content


def test_a_failed_jobs_error_holds_no_exception_text(tenant, caplog):
    from apps.tenants.services import job_fail

    job = Job.objects.create(tenant=tenant, kind="ingest")
    job_fail(job, ValueError("secret text of user ann"))
    job.refresh_from_db()
    assert job.status == "failed" and "secret" not in job.error
    assert job.error.startswith("ValueError")
    assert "secret text of user ann" in caplog.text  # the detail is in the log
