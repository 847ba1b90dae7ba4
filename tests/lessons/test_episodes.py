"""Episodes: numbered entries, citations that must exist, closing, no reopen, no change."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from apps.graph import cypher
from apps.graph.write_failures import write_failures_list
from apps.lessons.selectors import episode_get, episodes_about, episodes_list
from apps.lessons.services.episodes import (
    check_entry_record,
    check_episode_close,
    check_episode_open,
)
from memoryproject.api_errors import ApplicationError, ConflictError, NotFoundError
from tests.conftest import scope_for


def test_entries_are_numbered_and_cite_entries_and_pinned_entities(scope, make_entity):
    d1 = make_entity("d1")
    opened = check_episode_open(scope, key="d1-overheat", title="d1 hot", about=[d1])
    assert opened["status"] == "opened"
    ep = opened["id"]
    first = check_entry_record(
        scope,
        episode=ep,
        type="observation",
        values={"status": "hot"},
        cites=[{"kind": "entity", "id": d1}],
    )
    assert (first["seq"], first["status"]) == (1, "recorded")
    second = check_entry_record(
        scope,
        episode=ep,
        type="forecast",
        values={"fails_in_hours": 6},
        cites=[{"kind": "entry", "id": first["id"]}],
    )
    closed = check_episode_close(
        scope, episode=ep, outcome={"failed": False}, cites=[{"kind": "entry", "id": second["id"]}]
    )
    assert (closed["seq"], closed["status"]) == (3, "closed")

    got = episode_get(scope, episode=ep)
    assert [e["seq"] for e in got["entries"]] == [1, 2, 3]
    assert [e["type"] for e in got["entries"]] == ["observation", "forecast", "outcome"]
    assert got["entries"][0]["cites"][0]["kind"] == "entity"
    assert got["entries"][0]["cites"][0]["as_of"] == got["entries"][0]["at"]
    assert got["status"] == "closed" and got["outcome"] == {"failed": False}
    assert [a["id"] for a in got["about"]] == [d1]
    about = episodes_about(scope, entity=d1)
    assert about[0]["id"] == ep and about[0]["outcome"] == {"failed": False}
    # NEXT chains the entries, and the agent WROTE each one.
    rows = cypher.read(
        scope,
        "MATCH (a:Agent {tenant: $tenant})-[:WROTE]->(e:Entry {tenant: $tenant}) "
        "RETURN a.name AS agent, count(e) AS n, "
        "COUNT { MATCH (:Entry {tenant: $tenant})-[:NEXT]->(:Entry) } AS links",
    )
    assert rows == [{"agent": scope.actor, "n": 3, "links": 2}]


def test_concurrent_writers_get_one_gap_free_order(tenant):
    scope = scope_for(tenant)
    ep = check_episode_open(scope, title="busy")["id"]

    def write(i):
        return check_entry_record(
            scope_for(tenant, actor=f"agent:{i % 4}"),
            episode=ep,
            type="observation",
            values={"i": i},
        )["seq"]

    with ThreadPoolExecutor(max_workers=8) as pool:
        seqs = list(pool.map(write, range(40)))
    assert sorted(seqs) == list(range(1, 41))
    entries = episode_get(scope, episode=ep)["entries"]
    assert [e["seq"] for e in entries] == list(range(1, 41))
    links = cypher.read(
        scope,
        "MATCH (a:Entry {tenant: $tenant})-[:NEXT]->(b:Entry) RETURN a.seq AS a, b.seq AS b",
    )
    assert sorted((r["a"], r["b"]) for r in links) == [(i, i + 1) for i in range(1, 40)]


def test_citing_what_does_not_exist_is_refused_uses_no_number_and_is_recorded(scope):
    ep = check_episode_open(scope)["id"]
    check_entry_record(scope, episode=ep, type="observation")
    with pytest.raises(ApplicationError) as refused:
        check_entry_record(
            scope, episode=ep, type="observation", cites=[{"kind": "entity", "id": "nope"}]
        )
    assert refused.value.code == "missing_reference" and refused.value.field == "cites"
    assert check_entry_record(scope, episode=ep, type="action")["seq"] == 2
    assert len(episode_get(scope, episode=ep)["entries"]) == 2
    failures = write_failures_list(scope)
    assert failures[0]["kind"] == "entry" and "entity:nope" in failures[0]["reason"]


def test_a_closed_episode_takes_no_entry_and_is_never_reopened(scope):
    opened = check_episode_open(scope, key="once")
    assert check_episode_open(scope, key="once") == {**opened, "status": "exists"}
    check_episode_close(scope, episode=opened["id"], outcome={"fixed": True})
    with pytest.raises(ConflictError):
        check_entry_record(scope, episode=opened["id"], type="observation")
    with pytest.raises(ConflictError):
        check_episode_close(scope, episode=opened["id"], outcome={"fixed": False})
    with pytest.raises(ConflictError):
        check_episode_open(scope, key="once")
    got = episode_get(scope, episode=opened["id"])
    assert got["status"] == "closed" and got["outcome"] == {"fixed": True}
    assert len(got["entries"]) == 1


def test_bad_input_and_other_tenants(scope, make_tenant, make_entity):
    with pytest.raises(ApplicationError) as refused:
        check_episode_open(scope, about=["missing-entity"])
    assert refused.value.field == "about"
    assert episodes_list(scope) == []
    ep = check_episode_open(scope)["id"]
    with pytest.raises(ApplicationError):
        check_entry_record(scope, episode=ep, type="Not A Type")
    with pytest.raises(ApplicationError):
        check_entry_record(scope, episode=ep, type="note", values={"x": "y" * 30_000})
    other = scope_for(make_tenant())
    with pytest.raises(NotFoundError):
        check_entry_record(other, episode=ep, type="observation")
    d1 = make_entity("d1")
    with pytest.raises(ApplicationError):
        check_episode_open(other, about=[d1])
    assert episode_get(other, episode=ep) is None


def test_query_budget_of_an_entry_and_of_a_timeline(scope):
    from apps.graph.cypher import count_round_trips

    ep = check_episode_open(scope)["id"]
    first = check_entry_record(scope, episode=ep, type="observation")
    with count_round_trips() as trips:
        check_entry_record(
            scope, episode=ep, type="action", cites=[{"kind": "entry", "id": first["id"]}]
        )
    assert trips[0] == 3  # lock, check citations, append
    for i in range(20):
        check_entry_record(scope, episode=ep, type="observation", values={"i": i})
    with count_round_trips() as trips:
        assert len(episode_get(scope, episode=ep)["entries"]) == 22
    assert trips[0] == 1
