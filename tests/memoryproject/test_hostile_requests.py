"""Hostile requests, each a cause of a 500 or of a non-JSON error once: now one refused write
(a 4xx in the API's error shape, with `field` and `limit` where one applies), and the tenant's
data still reads afterwards."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from apps.graph.write_failures import write_failures_list
from apps.tenants.models import Role
from tests.conftest import scope_for

INT64_MAX = 2**63 - 1
STEPS = [{"do": "check the fan"}]
BASE = "/api/v1/users/{user}/sessions/{sid}"


def refused(response, status=400, *, field=None, limit=None, code=None) -> dict:
    assert response.status_code == status, response.content[:500]
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    error = response.json()["error"]
    assert set(error) >= {"code", "message"}
    if field is not None:
        assert error.get("field") == field, error
    if limit is not None:
        assert error.get("limit") == limit, error
    if code is not None:
        assert error["code"] == code, error
    return error


def raw_post(client, path, text: str, method="post"):
    return getattr(client, method)(path, data=text.encode(), content_type="application/json")


def post_json(client, path, body, method="post"):
    """JSON as a client sends it: ASCII, lone surrogates as \\u escapes."""
    return raw_post(client, path, json.dumps(body), method=method)


def closed(client) -> str:
    ep = client.post("/api/v1/episodes", {"title": "t"}, format="json").json()["id"]
    client.post(f"/api/v1/episodes/{ep}/close", {"outcome": {"ok": True}}, format="json")
    return ep


@pytest.fixture
def playbook(api_client):
    """A written playbook and the episodes that support it."""
    eps = [closed(api_client) for _ in range(3)]
    body = {"key": "hot", "trigger": {"status": "hot"}, "steps": STEPS, "supported_by": eps}
    assert api_client.post("/api/v1/playbooks", body, format="json").status_code == 201
    return {"episodes": eps, "body": body}


def playbooks_still_read(client) -> None:
    listed = client.get("/api/v1/playbooks")
    assert listed.status_code == 200 and [p["key"] for p in listed.json()["results"]] == ["hot"]
    assert client.get("/api/v1/playbooks/hot").json()["versions"][0]["steps"] == STEPS
    found = client.get("/api/v1/playbooks-for", {"situation": json.dumps({"status": "hot"})})
    assert found.status_code == 200 and found.json()["results"][0]["key"] == "hot"


# 1. Nesting deep enough to exhaust the JSON parser.
@pytest.mark.parametrize(
    "path",
    ["/api/v1/facts", "/api/v1/episodes", "/api/v1/documents", BASE.format(user="ann", sid="s")
     + "/messages"],
)  # fmt: skip
def test_json_nested_5000_levels_is_a_400(api_client, path):
    for text in ('{"a":' * 5000 + "1" + "}" * 5000, "[" * 5000 + "]" * 5000):
        refused(raw_post(api_client, path, text), field="body", limit=32, code="too_deep")
    # Shallower than the parser's own limit but deeper than the API's: refused as well.
    deep = '{"values": ' + "[" * 100 + "]" * 100 + "}"
    refused(raw_post(api_client, path, deep), field="values", limit=32, code="too_deep")


# 2. A lone surrogate in a playbook's steps used to be stored and break every read after it.
def test_a_lone_surrogate_in_steps_is_refused_and_playbooks_still_read(api_client, playbook):
    hostile = {**playbook["body"], "steps": [{"do": "\ud800"}]}
    error = refused(post_json(api_client, "/api/v1/playbooks", hostile), field="steps")
    assert error["code"] == "invalid_unicode"
    assert "\ud800" not in json.dumps(error, ensure_ascii=False)
    playbooks_still_read(api_client)
    assert api_client.get("/api/v1/playbooks/hot").json()["version"] == 1


# 2b. A playbook, an outcome and an entry stored before the validator existed, holding an escaped
# lone surrogate (written here behind the services' back, as the old code stored it): reads
# answer with the replacement character instead of a 500, on the API and on the pages.
LEGACY = """
MATCH (v:PlaybookVersion {tenant: $tenant, key: 'hot'}) SET v.steps = $steps, v.trigger = $trigger
WITH count(*) AS n
MATCH (ep:Episode {tenant: $tenant, uid: $episode}) SET ep.outcome = $outcome
WITH ep
MATCH (e:Entry {tenant: $tenant, episode: ep.uid}) SET e.values = $outcome
"""


def test_legacy_lone_surrogates_in_stored_json_read_as_a_marker(
    tenant, api_client, playbook, make_person
):
    from apps.graph import cypher

    episode = api_client.post("/api/v1/episodes", {"title": "t"}, format="json").json()["id"]
    entry = {"type": "note", "values": {"k": 1}}
    assert api_client.post(f"/api/v1/episodes/{episode}/entries", entry,
                           format="json").status_code == 201  # fmt: skip
    cypher.write(scope_for(tenant), LEGACY, episode=episode,
                 steps='[{"do": "check the \\ud800 fan"}]', trigger='{"status": "hot"}',
                 outcome='{"ok": "\\udfff"}')  # fmt: skip
    listed = api_client.get("/api/v1/playbooks")
    assert listed.status_code == 200
    assert listed.json()["results"][0]["steps"] == [{"do": "check the \ufffd fan"}]
    detail = api_client.get("/api/v1/playbooks/hot")
    assert detail.status_code == 200
    assert detail.json()["versions"][0]["steps"] == [{"do": "check the \ufffd fan"}]
    found = api_client.get("/api/v1/playbooks-for", {"situation": json.dumps({"status": "hot"})})
    assert found.status_code == 200 and found.json()["results"][0]["key"] == "hot"
    ep = api_client.get(f"/api/v1/episodes/{episode}")
    assert ep.status_code == 200 and ep.json()["outcome"] == {"ok": "\ufffd"}
    assert ep.json()["entries"][0]["values"] == {"ok": "\ufffd"}
    client = Client()
    client.force_login(make_person(tenant, Role.VIEWER))
    for path in ("/memory/playbooks", "/memory/playbooks/hot", f"/memory/episodes/{episode}"):
        page = client.get(path)
        assert page.status_code == 200, path
    assert "check the \ufffd fan" in client.get("/memory/playbooks/hot").content.decode()


# 3. Lone surrogates in the other free-form JSON inputs.
def test_lone_surrogates_in_free_form_json_are_refused(tenant, api_client, make_api_client):
    ep = api_client.post("/api/v1/episodes", {"title": "t"}, format="json").json()["id"]
    entry = {"type": "note", "values": {"k": "\udfff"}}
    refused(post_json(api_client, f"/api/v1/episodes/{ep}/entries", entry),
            field="values", code="invalid_unicode")  # fmt: skip
    key = {"type": "note", "values": {"\ud800": 1}}
    refused(post_json(api_client, f"/api/v1/episodes/{ep}/entries", key),
            field="values", code="invalid_unicode")  # fmt: skip
    outcome = {"outcome": {"x": "\ud800"}}
    refused(post_json(api_client, f"/api/v1/episodes/{ep}/close", outcome), field="outcome")
    eps = [closed(api_client) for _ in range(3)]
    trigger = {"key": "t", "trigger": {"a": "\ud800"}, "steps": STEPS, "supported_by": eps}
    refused(post_json(api_client, "/api/v1/playbooks", trigger), field="trigger")
    reader = make_api_client(tenant, scopes=["memory:read"])
    situation = json.dumps({"a": "\ud800"})  # ASCII text with the escape, as a client sends it
    refused(reader.get("/api/v1/playbooks-for", {"situation": situation}), field="situation")
    # In a plain string field too: the body parser refuses it before any serializer.
    title = raw_post(api_client, "/api/v1/episodes", '{"title": "\\ud800"}')
    refused(title, field="title", code="invalid_unicode")
    # The episode still reads, with nothing of the refused writes in it.
    assert api_client.get(f"/api/v1/episodes/{ep}").json()["entries"] == []
    assert {f["kind"] for f in write_failures_list(scope_for(tenant))} >= {"entry", "playbook"}


# 4. Integers beyond signed 64 bits.
def test_integers_beyond_64_bits_are_400s_with_the_limit(api_client):
    huge = str(2**63)
    refused(api_client.get(f"/api/v1/lessons?at_least={huge}"), field="at_least",
            limit=1_000_000)  # fmt: skip
    refused(api_client.get(f"/api/v1/lessons?limit={huge}"), field="limit", limit=200)
    path = BASE.format(user="ann", sid="main")
    assert api_client.post(path + "/messages", {"role": "user", "text": "hi", "by": "ann"},
                           format="json").status_code == 201  # fmt: skip
    refused(api_client.get(f"{path}/messages?before={huge}"), field="before", limit=INT64_MAX)
    summary = raw_post(api_client, path + "/summary",
                       f'{{"text": "s", "upto": {huge}, "by": "ann"}}', method="put")  # fmt: skip
    refused(summary, field="upto", limit=INT64_MAX, code="out_of_range")
    # A reference to a playbook version beyond what any version number can be.
    ep = api_client.post("/api/v1/episodes", {}, format="json").json()["id"]
    cite = {"type": "note", "cites": [{"kind": "playbook", "id": f"p#{huge}"}]}
    refused(api_client.post(f"/api/v1/episodes/{ep}/entries", cite, format="json"), field="cites")
    cite = {"type": "note", "cites": [{"kind": "playbook", "id": "p#\u00b2"}]}
    refused(api_client.post(f"/api/v1/episodes/{ep}/entries", cite, format="json"), field="cites")
    messages = api_client.get(path + "/messages").json()["messages"]
    assert [m["text"] for m in messages] == ["hi"]


# 5. Numbers too large for a float, in a trigger and in a situation.
def test_huge_numbers_in_a_trigger_or_a_situation_are_400s(api_client, playbook):
    eps = json.dumps(playbook["episodes"])
    for number in ("1e400", "-1e400", str(10**30)):
        text = f'{{"key": "n", "trigger": {{"a": {number}}}, "steps": [{{"do": "x"}}], ' \
               f'"supported_by": {eps}}}'  # fmt: skip
        refused(raw_post(api_client, "/api/v1/playbooks", text), field="trigger",
                code="out_of_range")  # fmt: skip
        situation = api_client.get("/api/v1/playbooks-for", {"situation": f'{{"a": {number}}}'})
        refused(situation, field="situation", code="out_of_range")
    nan = api_client.get("/api/v1/playbooks-for", {"situation": '{"a": NaN}'})
    refused(nan, field="situation", code="invalid_json")
    playbooks_still_read(api_client)


# 6. A user id that cannot be in a URL, on the conversations page.
def test_a_user_id_with_a_slash_on_the_conversations_page(tenant, make_person):
    person = make_person(tenant, role=Role.REVIEWER)
    client = Client()
    client.force_login(person)
    page = client.get("/conversations/", {"user": "a/b"})
    assert page.status_code == 400 and b"A user is 1-128" in page.content
    assert page["Content-Type"].startswith("text/html")
    assert client.get("/conversations/", {"user": "ann"}).status_code == 302


# 7. Errors Django answers itself, in the JSON shape under /api/; pages keep HTML.
def test_unknown_api_paths_oversized_bodies_and_long_urls_answer_json(api_client, settings):
    refused(api_client.get("/api/v1/no-such-route"), 404, code="not_found")
    refused(api_client.get("/api/v1/jobs/a%2Fb"), 404, code="not_found")
    refused(api_client.get("/api/v1/playbooks/a%2Fb"), 404, code="not_found")
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100_000
    big = json.dumps({"content": "x" * 200_000, "source": "s"})
    refused(raw_post(api_client, "/api/v1/documents", big), 413, field="body", limit=100_000)
    long_url = "/api/v1/lessons?about=" + "a" * settings.MAX_URL_CHARS
    refused(api_client.get(long_url), 414, field="url", limit=settings.MAX_URL_CHARS)
    page = Client().get("/no-such-page/")
    assert page.status_code == 404 and page["Content-Type"].startswith("text/html")
    assert api_client.get("/api/v1/stats").status_code == 200


def test_an_oversized_body_read_outside_the_api_parser_is_a_413(api_client, settings):
    """Django's own limit (RequestDataTooBig) where something reads request.body first."""
    from django.core.exceptions import RequestDataTooBig
    from django.test import RequestFactory

    from memoryproject.api_errors import handler400

    request = RequestFactory().post("/api/v1/documents", data=b"{}", content_type="x/y")
    answer = handler400(request, RequestDataTooBig("too big"))
    assert answer.status_code == 413
    assert json.loads(answer.content)["error"]["limit"] == settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    page = handler400(RequestFactory().post("/accounts/login/"), RequestDataTooBig("too big"))
    assert page.status_code == 400 and page["Content-Type"].startswith("text/html")


def test_a_body_of_another_media_type_is_a_415_and_the_refusal_is_kept(tenant, api_client):
    path = BASE.format(user="ann", sid="main")
    for method, route in (("post", "/messages"), ("put", "/summary")):
        response = getattr(api_client, method)(path + route, data="hi", content_type="text/plain")
        refused(response, 415, code="unsupported_media_type")
    assert len(write_failures_list(scope_for(tenant))) == 2


# Minor ones.
def test_a_time_without_a_zone_is_refused(api_client):
    path = BASE.format(user="ann", sid="main") + "/messages"
    body = {"role": "user", "text": "hi", "by": "ann", "at": "2026-01-02T03:04:05"}
    refused(api_client.post(path, body, format="json"), field="at")
    body["at"] = "2026-01-02T03:04:05+02:00"
    assert api_client.post(path, body, format="json").status_code == 201


def test_a_playbook_without_needs_takes_the_tenants_and_needs_below_one_is_refused(api_client):
    ep = closed(api_client)
    body = {"key": "p", "trigger": {"a": 1}, "steps": STEPS, "supported_by": [ep]}
    refused(api_client.post("/api/v1/playbooks", body, format="json"), field="supported_by",
            limit=3)  # fmt: skip
    refused(api_client.post("/api/v1/playbooks", {**body, "needs": 0}, format="json"),
            field="needs")  # fmt: skip
    assert api_client.get("/api/v1/playbooks").json()["results"] == []
    # A caller's own needs is honoured down to the tenant's floor (seed 001's needs=1).
    assert api_client.post("/api/v1/playbooks", {**body, "needs": 1},
                           format="json").status_code == 201  # fmt: skip


def test_a_refusal_with_a_malformed_user_keeps_no_text(tenant, api_client):
    path = BASE.format(user="-bad", sid="main") + "/messages"
    body = {"role": "user", "text": "my secret words", "by": "x"}
    refused(api_client.post(path, body, format="json"), field="user")
    reasons = [f["reason"] for f in write_failures_list(scope_for(tenant))]
    assert reasons and all("secret" not in r for r in reasons)
