"""Rows from entries: the job reads the text of entries past its mark, writes rows by the write
rule with FROM, reads each entry once per kind, refuses bad rows and still counts the entry read,
and never reads conversation messages or another tenant's entries."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from apps.graph import cypher
from apps.graph.write_failures import write_failures_list
from apps.lessons.services.episodes import check_entry_record, check_episode_open
from apps.tenants.models import Job, JobStatus
from apps.timeline import selectors, tasks
from apps.timeline.entry_extractors import ExtractorError, RuleExtractor
from apps.timeline.entry_rows import entries_extract
from tests.conftest import scope_for
from tests.lessons.conftest import say
from tests.timeline.conftest import kinds_declare

FROM_EDGES = """
MATCH (s:State {tenant: $tenant})-[:FROM]->(en:Entry {tenant: $tenant})
RETURN s.key AS key, en.uid AS entry ORDER BY s.valid_from
"""
READS = """
MATCH (en:Entry {tenant: $tenant})-[r:READ_FOR]->(:ExtractionMark {tenant: $tenant})
RETURN en.uid AS entry, r.kind AS kind, r.rows AS rows
"""


def note(scope, episode, text, **kw) -> str:
    return check_entry_record(scope, episode=episode, type="observation", text=text, **kw)["id"]


def test_rows_come_from_entries_with_from_and_a_rerun_reads_nothing_twice(kinds):
    ep = check_episode_open(kinds)["id"]
    first = note(kinds, ep, "serial: d1\nt: 2026-01-01T00:00:00Z\nstatus: ok\nLOCATED_IN: r1")
    note(kinds, ep, "", values={"serial": "d1"})  # no text: nothing to read
    note(kinds, ep, "the pump is quiet")  # text, but no row of the kind
    second = note(kinds, ep, "serial: d1\nt: 2026-01-02T00:00:00Z\nstatus: hot\ntemp: 71.5")
    got = entries_extract(kinds, kind="Device")
    assert got["read"] == 3 and got["rows"] == {"created": 1, "changed": 1, "unchanged": 0,
                                                 "refused": 0}  # fmt: skip
    history = selectors.history(kinds, kind="Device", key="d1")
    assert [(h["values"], h["entry"]) for h in history] == [
        ({"status": "ok"}, first), ({"status": "hot", "temp": 71.5}, second)]  # fmt: skip
    assert cypher.read(kinds, FROM_EDGES) == [{"key": "d1", "entry": first},
                                             {"key": "d1", "entry": second}]  # fmt: skip
    assert selectors.related(kinds, kind="Device", key="d1", rel="LOCATED_IN") == []
    again = entries_extract(kinds, kind="Device")
    assert again["read"] == 0 and again["mark"] == got["mark"]
    third = note(kinds, ep, "serial: d2\nstatus: new")  # no t: true from the entry's time
    assert entries_extract(kinds, kind="Device")["read"] == 1
    assert selectors.history(kinds, kind="Device", key="d2")[0]["entry"] == third
    reads = cypher.read(kinds, READS)
    assert len(reads) == 4 and {r["kind"] for r in reads} == {"Device"}
    # Another kind has its own mark: the same entries are read once for it too.
    assert entries_extract(kinds, kind="Room")["read"] == 4


def test_a_bad_row_is_a_write_failure_and_its_entry_counts_read(kinds):
    ep = check_episode_open(kinds)["id"]
    bad = note(kinds, ep, "serial: d3\ntemp: very hot\n\nserial: d4\nstatus: ok")
    got = entries_extract(kinds, kind="Device")
    assert got["read"] == 1 and got["rows"]["refused"] == 1 and got["rows"]["created"] == 1
    failure = write_failures_list(kinds)[0]
    assert failure["kind"] == "row" and "temp" in failure["reason"] and bad in failure["reason"]
    assert selectors.history(kinds, kind="Device", key="d3") == []
    assert cypher.read(kinds, READS) == [{"entry": bad, "kind": "Device", "rows": 1}]
    assert entries_extract(kinds, kind="Device")["read"] == 0


def test_messages_and_other_tenants_entries_are_never_read(kinds, make_tenant):
    say(kinds, "ann", "serial: d9\nstatus: said in a conversation")
    other = scope_for(make_tenant())
    kinds_declare(other)
    note(other, check_episode_open(other)["id"], "serial: d8\nstatus: elsewhere")
    got = entries_extract(kinds, kind="Device")
    assert got["read"] == 0 and got["rows"]["created"] == 0
    assert cypher.read(kinds, "MATCH (s:State {tenant: $tenant}) RETURN count(s) AS n") == [
        {"n": 0}]  # fmt: skip
    assert entries_extract(other, kind="Device")["read"] == 1
    assert selectors.history(kinds, kind="Device", key="d8") == []


class FailsOn:
    """The rule extractor, except that it cannot answer for one text."""

    name = "fails-on"

    def __init__(self, text: str):
        self.text = text

    def extract(self, kind, entry):
        if entry["text"] == self.text:
            raise ExtractorError("the model is away")
        return RuleExtractor().extract(kind, entry)


def test_an_extractor_that_fails_stops_the_run_and_its_entry_waits(kinds):
    ep = check_episode_open(kinds)["id"]
    note(kinds, ep, "serial: d1\nstatus: ok")
    note(kinds, ep, "serial: d2\nstatus: ok")
    with pytest.raises(ExtractorError):
        entries_extract(kinds, kind="Device", extractor=FailsOn("serial: d2\nstatus: ok"))
    assert len(cypher.read(kinds, READS)) == 1
    assert entries_extract(kinds, kind="Device")["read"] == 1
    assert selectors.history(kinds, kind="Device", key="d2")[0]["values"] == {"status": "ok"}


def test_concurrent_runs_read_each_entry_once(kinds):
    ep = check_episode_open(kinds)["id"]
    for i in range(12):
        note(kinds, ep, f"serial: d{i}\nstatus: s{i}")
    with ThreadPoolExecutor(max_workers=3) as pool:
        # The extractor is given: threads do not see the test's database transaction.
        runs = list(pool.map(lambda _: entries_extract(kinds, kind="Device",
                                                       extractor=RuleExtractor()), range(3)))  # fmt: skip
    assert sum(r["read"] for r in runs) == 12
    assert sum(r["rows"]["created"] for r in runs) == 12
    assert len(cypher.read(kinds, READS)) == 12


def test_the_llm_extractor_is_the_tenants_choice(kinds, tenant, chat_server, settings):
    settings.ENTRY_LLM_URL = chat_server.url
    tenant.settings = {**tenant.settings, "entry_extractor": "llm"}
    tenant.save()
    chat_server.answer = {"rows": [{"key": "d5", "t": None, "relations": {"LOCATED_IN": ["r2"],
                                    "USED_BY": []}, "values": {"status": "ok", "temp": None,
                                    "last_seen": None, "note": None, "count": 2, "ok": None}}]}  # fmt: skip
    entry = note(kinds, check_episode_open(kinds)["id"], "d5 is fine, two of them, in r2")
    got = entries_extract(kinds, kind="Device")
    assert got["extractor"] == "llm" and got["rows"]["created"] == 1
    state = selectors.history(kinds, kind="Device", key="d5")[0]
    assert state["values"] == {"status": "ok", "count": 2} and state["entry"] == entry
    assert state["relations"]["LOCATED_IN"] == ["r2"]
    asked = chat_server.requests[0]["body"]
    assert "d5 is fine" in asked["messages"][1]["content"]
    assert asked["response_format"]["json_schema"]["strict"] is True


def test_the_api_queues_a_job_whose_progress_and_result_show(kinds, tenant, make_api_client):
    client = make_api_client(tenant)
    note(kinds, check_episode_open(kinds)["id"], "serial: d1\nstatus: ok")
    assert client.post("/api/v1/kinds/Nope/rows-from-entries").status_code == 404
    response = client.post("/api/v1/kinds/Device/rows-from-entries")
    assert response.status_code == 202
    job = Job.objects.get(uid=response.json()["job"])
    assert job.kind == "rows_from_entries" and job.subject == "Device"
    # What the worker runs for it (the real worker's start costs more than this test).
    tasks.rows_from_entries(job.uid)
    shown = client.get(response.json()["url"]).json()
    assert shown["status"] == JobStatus.DONE and shown["progress"] == {"done": 1, "total": 1}
    assert shown["result"]["read"] == 1 and shown["result"]["rows"]["created"] == 1
    assert selectors.history(kinds, kind="Device", key="d1")[0]["values"] == {"status": "ok"}
    reader = make_api_client(tenant, scopes=["memory:read"])
    assert reader.post("/api/v1/kinds/Device/rows-from-entries").status_code == 403


def test_a_run_of_some_entry_types_reads_only_those_under_its_own_mark(kinds, api_client):
    from apps.graph.write_failures import write_failures_list as failures

    ep = check_episode_open(kinds)["id"]
    note(kinds, ep, "serial: d1\nt: 2026-01-01T00:00:00Z\nstatus: ok")
    check_entry_record(kinds, episode=ep, type="forecast",
                       text="serial: d2\nt: 2026-01-01T00:00:00Z\nstatus: hot")  # fmt: skip
    got = entries_extract(kinds, kind="Device", types=["observation"])
    assert got["read"] == 1 and got["types"] == ["observation"]
    assert selectors.history(kinds, kind="Device", key="d2") == []
    assert entries_extract(kinds, kind="Device", types=["observation"])["read"] == 0
    # Another set of types, and every type, have marks of their own: each reads its entries once.
    assert entries_extract(kinds, kind="Device", types=["forecast", "observation"])["read"] == 2
    assert entries_extract(kinds, kind="Device")["read"] == 2
    assert entries_extract(kinds, kind="Device")["read"] == 0
    with pytest.raises(Exception) as bad:
        entries_extract(kinds, kind="Device", types=["Not A Type"])
    assert getattr(bad.value, "field", None) == "types"
    refused = api_client.post("/api/v1/kinds/Device/rows-from-entries",
                              {"types": ["BAD TYPE"]}, format="json")  # fmt: skip
    assert refused.status_code == 400 and refused.json()["error"]["field"] == "types"
    assert len(failures(kinds)) >= 1  # the refusal is kept
