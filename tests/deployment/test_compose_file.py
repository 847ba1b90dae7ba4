"""docker-compose.yml cannot run here (no Docker); what it says must still match the settings."""

from __future__ import annotations

import re

import yaml

from tests.conftest import ROOT

COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
READ_BY_THE_SERVICE = "\n".join(
    (ROOT / path).read_text() for path in ("memoryproject/settings.py", "apps/graph/connection.py")
)


def test_the_web_and_worker_services_run_what_bin_run_local_runs():
    services = COMPOSE["services"]
    run_local = (ROOT / "bin" / "run-local").read_text()
    assert "uvicorn memoryproject.asgi:application" in services["web"]["command"]
    assert "uvicorn memoryproject.asgi:application" in run_local
    assert "celery -A memoryproject worker" in services["worker"]["command"]
    for name in ("web", "worker", "beat"):
        assert services[name]["depends_on"]["migrate"] == {
            "condition": "service_completed_successfully"
        }


def test_every_variable_the_app_services_set_is_one_the_service_reads():
    for name in ("web", "worker", "beat", "migrate"):
        environment = COMPOSE["services"][name]["environment"]
        for variable in environment:
            assert re.search(rf"""["']{variable}["']""", READ_BY_THE_SERVICE), (name, variable)
        # The servers they name are the compose file's own services, with its credentials.
        assert environment["DATABASE_URL"].startswith(
            "postgres://anamnesis:anamnesis-dev@postgres:"
        )
        assert environment["REDIS_URL"].startswith("redis://redis:")
        assert environment["NEO4J_BOLT_URL"] == "bolt://neo4j:7687"
    postgres = COMPOSE["services"]["postgres"]["environment"]
    assert (postgres["POSTGRES_USER"], postgres["POSTGRES_DB"]) == ("anamnesis", "anamnesis")
