"""A keyed row and a mention in text of the same thing meet in one entity, or in a pending review
when that is ambiguous: never two entities nobody is told about."""

from __future__ import annotations

import json

from apps.graph import cypher
from apps.timeline import selectors
from apps.timeline.kinds import check_kind_declare
from apps.timeline.services import check_rows_write
from tests.timeline.conftest import TEAM

T1, T2 = "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"


def named(scope, norm: str) -> list[dict]:
    return cypher.read(
        scope,
        "MATCH (e:Entity {tenant: $tenant, norm_name: $norm}) "
        "RETURN e.uid AS uid, e.name AS name, e.kind AS kind, e.key AS key, "
        "[(e)-[s:SAME_AS {status: 'pending'}]-(x) | x.uid] AS pending ORDER BY e.uid",
        norm=norm,
    )


def team_row(key: str, t: str = T1, **values) -> dict:
    return {"kind": "Team", "key": key, "t": t, "values": values}


def fact(name: str, **values) -> dict:
    return {"entities": [{"name": name, "type": "Organization", "values": values}]}


def test_a_row_takes_the_entity_text_named_before_as_its_own(kinds, api_client):
    sent = api_client.post("/api/v1/facts", fact("Platform Guild", url="https://pg.example"),
                           format="json")  # fmt: skip
    assert sent.status_code == 201, sent.json()
    text_uid = sent.json()["receipts"][0]["entity_uid"]
    receipts = check_rows_write(
        kinds, rows=[team_row("Platform Guild"), team_row("platform guild")]
    )
    assert [r["status"] for r in receipts] == ["created", "created"]
    found = named(kinds, "platform guild")
    # One key named it exactly: that entity of text is the keyed one, with its values of text.
    keyed = [e for e in found if e["key"] == "Platform Guild"]
    assert [e["uid"] for e in keyed] == [text_uid] and keyed[0]["kind"] == "Team"
    # A second key of the same name finds no entity of text left (the first took it): its own.
    assert {e["key"] for e in found} == {"Platform Guild", "platform guild"}
    history = selectors.history(kinds, kind="Team", key="Platform Guild")
    assert len(history) == 1
    check_kind_declare(kinds, kind={**TEAM, "values": {"motto": "string"}})
    check_rows_write(kinds, rows=[team_row("Platform Guild", T2, motto="ship it")])
    assert named(kinds, "platform guild") == found  # later rows write to the same entity
    values = cypher.read(kinds, "MATCH (e:Entity {tenant: $tenant, uid: $uid}) "
                         "RETURN e.values_json AS v", uid=text_uid)[0]["v"]  # fmt: skip
    # What the text said stays under the row's values (the gate compares it).
    assert json.loads(values) == {"url": "https://pg.example", "motto": "ship it"}


def test_a_key_naming_several_entities_of_text_is_held_for_review(
    kinds, api_client, tenant, make_api_client
):
    # Two entities of one name (a name alone never merges them).
    for url in ("https://one.example", "https://two.example"):
        sent = api_client.post("/api/v1/facts", fact("Night Shift", url=url), format="json")
        assert sent.status_code == 201, sent.json()
    texts = {e["uid"] for e in named(kinds, "night shift")}
    assert len(texts) == 2
    check_rows_write(kinds, rows=[team_row("Night Shift")])
    keyed = [e for e in named(kinds, "night shift") if e["kind"] == "Team"]
    assert len(keyed) == 1 and keyed[0]["uid"] not in texts
    assert set(keyed[0]["pending"]) == texts
    # Reviewers see the pairs, with the reason.
    reviewer = make_api_client(tenant, scopes=["memory:read", "review"])
    listed = reviewer.get("/api/v1/reviews")
    assert listed.status_code == 200, listed.json()
    pairs = [p for p in listed.json()["results"] if p["right"]["uid"] == keyed[0]["uid"]]
    assert len(pairs) == 2
    detail = reviewer.get(f"/api/v1/reviews/{pairs[0]['uid']}")
    assert detail.status_code == 200 and "names 2 entities of text" in detail.json()["reason"]
    # A confirm merges the entity of text into the keyed one, which rows keep writing to.
    confirmed = reviewer.post(f"/api/v1/reviews/{pairs[0]['uid']}/confirm", {}, format="json")
    assert confirmed.status_code == 200, confirmed.json()
    receipts = check_rows_write(kinds, rows=[team_row("Night Shift", T2)])
    assert receipts[0]["status"] == "unchanged"
    assert [e["uid"] for e in named(kinds, "night shift") if e["kind"]] == [keyed[0]["uid"]]


def test_text_naming_a_key_a_row_wrote_before_meets_it_or_asks(kinds, api_client):
    check_rows_write(kinds, rows=[team_row("Core Crew")])
    keyed = named(kinds, "core crew")[0]
    sent = api_client.post("/api/v1/facts", fact("Core Crew"), format="json")
    assert sent.status_code == 201, sent.json()
    receipt = sent.json()["receipts"][0]
    assert receipt["action"] in ("merged", "pending"), receipt
    assert receipt["matched_uid"] == keyed["uid"]
    if receipt["action"] == "pending":  # a name alone never merges: a reviewer is asked
        mention = next(e for e in named(kinds, "core crew") if e["uid"] == receipt["entity_uid"])
        assert mention["pending"] == [keyed["uid"]]
