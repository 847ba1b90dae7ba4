"""The local Neo4j command: start, status, stop, restart with data kept. Runs a second Neo4j on
its own port and folder so the suite's own graph is not touched."""

import socket

import pytest
from django.core.management import call_command
from neo4j import GraphDatabase

from apps.graph import local_neo4j


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def second_neo4j(settings, tmp_path):
    settings.NEO4J_BOLT_URL = ""
    settings.NEO4J_LOCAL_DIR = tmp_path / "neo4j"
    settings.NEO4J_LOCAL_PORT = _free_port()
    settings.NEO4J_LOCAL_HEAP = "512m"
    settings.NEO4J_LOCAL_PAGECACHE_MB = 64
    yield settings
    local_neo4j.stop()


def _query(cypher: str):
    auth = ("neo4j", local_neo4j.local_password())
    with GraphDatabase.driver(local_neo4j.bolt_url(), auth=auth) as driver:
        records, _, _ = driver.execute_query(cypher)
        return [r.data() for r in records]


@pytest.mark.slow
@pytest.mark.timeout(1800)  # two starts of Neo4j with GDS: minutes each on a busy machine
def test_start_status_auth_restart_keeps_data_stop(second_neo4j, capsys):
    # One test, so Neo4j starts twice (start, restart), not once more for the auth check.
    assert local_neo4j.status().running is False

    call_command("neo4j", "start")
    out = capsys.readouterr().out
    assert "running" in out and str(second_neo4j.NEO4J_LOCAL_DIR) in out
    status = local_neo4j.status()
    assert status.running and status.data_dir.startswith(str(second_neo4j.NEO4J_LOCAL_DIR))

    _query("CREATE (:Probe {name: 'kept across restarts'})")
    call_command("neo4j", "restart")
    assert _query("MATCH (p:Probe) RETURN p.name AS name") == [{"name": "kept across restarts"}]
    # Auth is on; checked after the last query, so no lock after a failed login can touch it.
    with pytest.raises(Exception, match="(?i)unauthorized|authentication"):
        with GraphDatabase.driver(local_neo4j.bolt_url(), auth=("neo4j", "wrong")) as driver:
            driver.verify_connectivity()

    call_command("neo4j", "status")
    assert "running" in capsys.readouterr().out

    call_command("neo4j", "stop")
    assert local_neo4j.status().running is False
    call_command("neo4j", "status")
    assert "stopped" in capsys.readouterr().out
