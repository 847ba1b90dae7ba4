"""The conversations API: users kept apart, limits as 400s with field and limit, scopes."""

import pytest

from apps.graph import cypher
from apps.tenants.models import KeyScope

BASE = "/api/v1/users/{user}/sessions/{sid}"


def post_message(client, text="hello", user="ann", sid="main", **extra):
    body = {"role": "user", "text": text, "by": user, **extra}
    return client.post(BASE.format(user=user, sid=sid) + "/messages", body, format="json")


def test_append_read_and_context(api_client):
    for i in range(1, 26):
        response = post_message(api_client, f"line {i}")
        assert response.status_code == 201, response.json()
    assert response.json()["no"] == 25
    last = api_client.get(BASE.format(user="ann", sid="main") + "/messages?last=3").json()
    assert [m["no"] for m in last["messages"]] == [23, 24, 25]
    before = api_client.get(BASE.format(user="ann", sid="main") + "/messages?last=2&before=5")
    assert [m["text"] for m in before.json()["messages"]] == ["line 3", "line 4"]

    put = api_client.put(
        BASE.format(user="ann", sid="main") + "/summary",
        {"text": "Lines counted.", "upto": 20, "by": "desk"},
        format="json",
    )
    assert put.status_code == 200 and put.json()["upto"] == 20
    found = api_client.get(BASE.format(user="ann", sid="main") + "/context?last=3").json()
    assert found["summary"]["text"] == "Lines counted."
    assert [m["no"] for m in found["messages"]] == [23, 24, 25] and found["waiting"] == 2


def test_another_users_session_reads_as_empty(api_client):
    post_message(api_client, "ann's secret", user="ann")
    other = api_client.get(BASE.format(user="bob", sid="main") + "/messages").json()
    assert other["messages"] == []
    assert api_client.get("/api/v1/users/bob/sessions").json()["sessions"] == []


def test_another_tenants_key_sees_nothing(api_client, make_tenant, make_api_client):
    post_message(api_client, "tenant one")
    stranger = make_api_client(make_tenant())
    assert stranger.get(BASE.format(user="ann", sid="main") + "/messages").json()["messages"] == []


@pytest.mark.parametrize(
    "body,field",
    [
        ({"text": "x" * 20_001}, "text"),
        ({"role": "R O L E"}, "role"),
        ({"role": "r" * 33}, "role"),
        ({"surprise": 1}, "surprise"),
        ({"mentions": ["x"] * 51}, "mentions"),
        ({"at": "not a time"}, "at"),
    ],
)
def test_bad_messages_are_400_with_the_field_and_use_no_number(api_client, tenant, body, field):
    response = post_message(api_client, **{"text": "hi", **body})
    assert response.status_code == 400, response.json()
    error = response.json()["error"]
    assert field in (error.get("field"), *error.get("fields", {}).keys())
    assert post_message(api_client, "fine").json()["no"] == 1
    subjects = cypher.read(
        scope_of(tenant), "MATCH (f:WriteFailure {tenant: $tenant}) RETURN f.subject_user AS u"
    )
    assert [r["u"] for r in subjects] == ["ann"]


def test_text_limit_names_the_limit(api_client):
    error = post_message(api_client, "x" * 20_001).json()["error"]
    assert error["field"] == "text" and error["limit"] == 20_000


def test_bad_user_or_sid_in_the_path(api_client):
    assert post_message(api_client, user="a" * 200).status_code == 400
    response = api_client.get(BASE.format(user="ann", sid="a%20b") + "/messages")
    assert response.status_code == 400 and response.json()["error"]["field"] == "sid"


def test_upto_beyond_the_last_message_is_400(api_client):
    post_message(api_client)
    response = api_client.put(
        BASE.format(user="ann", sid="main") + "/summary",
        {"text": "s", "upto": 5, "by": "desk"},
        format="json",
    )
    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["field"], error["limit"]) == ("upto", 1)


def test_sessions_search_and_context_endpoint(api_client):
    post_message(api_client, "The boiler in the basement is leaking", sid="home")
    post_message(api_client, "Meeting moved to Friday", sid="work")
    sessions = api_client.get("/api/v1/users/ann/sessions").json()["sessions"]
    assert [s["sid"] for s in sessions] == ["work", "home"]
    hits = api_client.get("/api/v1/users/ann/messages/search?q=boiler").json()["messages"]
    assert [h["sid"] for h in hits] == ["home"]
    response = api_client.post(
        "/api/v1/context",
        {"user": "ann", "session": "home", "message": "Is the boiler fixed?", "token_budget": 200},
        format="json",
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["message"]["no"] == 2 and body["trace"]
    assert body["tokens"] <= 200
    bad = api_client.post(
        "/api/v1/context",
        {"user": "ann", "session": "home", "message": "x", "k": 99},
        format="json",
    )
    assert bad.status_code == 400 and bad.json()["error"]["field"] == "k"


def test_scopes(tenant, make_api_client):
    reader = make_api_client(tenant, scopes=[KeyScope.MEMORY_READ])
    assert post_message(reader).status_code == 403
    assert reader.get(BASE.format(user="ann", sid="main") + "/messages").status_code == 200
    writer = make_api_client(tenant, scopes=[KeyScope.MEMORY_WRITE, KeyScope.MEMORY_READ])
    assert writer.post("/api/v1/erasures", {"user": "ann"}, format="json").status_code == 403
    assert (
        writer.post("/api/v1/erasures/preview", {"user": "ann"}, format="json").status_code == 403
    )


def scope_of(tenant):
    from tests.conftest import scope_for

    return scope_for(tenant)


def test_refused_summaries_and_context_calls_are_kept_under_their_user(api_client, tenant):
    post_message(api_client, "hello")
    summary = api_client.put(BASE.format(user="ann", sid="main") + "/summary",
                             {"text": "too far", "upto": 9, "by": "ann"}, format="json")  # fmt: skip
    assert summary.status_code == 400 and summary.json()["error"]["field"] == "upto"
    asked = api_client.post("/api/v1/context", {"user": "ann", "session": "main",
                                                "message": "hi", "k": 999}, format="json")  # fmt: skip
    assert asked.status_code == 400
    rows = cypher.read(
        scope_of(tenant),
        "MATCH (f:WriteFailure {tenant: $tenant}) "
        "RETURN f.subject_user AS user, f.subject_sid AS sid, f.reason AS reason ORDER BY reason",
    )
    assert [(r["user"], r["sid"]) for r in rows] == [("ann", "main")] * 2
    assert all("/users/ann" not in r["reason"] for r in rows)  # the path is not kept


def test_a_batch_through_the_api(api_client, tenant):
    url = BASE.format(user="ann", sid="main") + "/messages:batch"
    post_message(api_client, "first")
    batch = [{"role": "user", "text": f"line {i}", "by": "ann"} for i in range(3)]
    response = api_client.post(url, {"messages": batch}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["user"] == "ann" and [m["no"] for m in body["messages"]] == [2, 3, 4]

    batch[1] = {**batch[1], "surprise": True}
    refused = api_client.post(url, {"messages": batch}, format="json")
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert (error["field"], error["index"]) == ("messages[1].surprise", 1)
    too_many = api_client.post(url, {"messages": [batch[0]] * 501}, format="json")
    assert too_many.status_code == 400 and too_many.json()["error"]["field"] == "messages"
    long = [batch[0], {**batch[0], "text": "x" * 20_001}]
    error = api_client.post(url, {"messages": long}, format="json").json()["error"]
    assert (error["field"], error["limit"], error["index"]) == ("messages[1].text", 20_000, 1)
    last = api_client.get(BASE.format(user="ann", sid="main") + "/messages").json()
    assert [m["no"] for m in last["messages"]] == [1, 2, 3, 4]
    refusals = cypher.read(scope_of(tenant), "MATCH (f:WriteFailure {tenant: $tenant}) "
                           "RETURN f.subject_user AS user")  # fmt: skip
    assert [r["user"] for r in refusals] == ["ann"] * 3


def test_the_batch_route_is_in_the_openapi_schema(api_client):
    schema = api_client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    route = schema["paths"]["/api/v1/users/{user}/sessions/{sid}/messages:batch"]["post"]
    assert route["summary"].startswith("Append a batch")
