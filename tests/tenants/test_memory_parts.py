"""Tenancy names no memory app: each app registers its counts, job labels and job roles from its
AppConfig, and what tenancy shows comes from that registry."""

import ast
import importlib
from pathlib import Path

import pytest

from apps.tenants.api import StatsOut
from apps.tenants.memory_parts import (
    MemoryPart,
    dashboard_card_job_kinds,
    dashboard_cards,
    erasure_job_kinds,
    housekeeping_job_kinds,
    job_label,
    memory_part_register,
)
from apps.tenants.selectors import tenant_stats
from tests.conftest import scope_for

ROOT = Path(__file__).resolve().parents[2]


def job_kind_constants():
    """(module, value) of every `JOB_KIND = "..."` in the apps."""
    for path in sorted((ROOT / "apps").rglob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if (
                isinstance(node, ast.Assign)
                and [getattr(t, "id", None) for t in node.targets] == ["JOB_KIND"]
                and isinstance(node.value, ast.Constant)
            ):
                module = path.relative_to(ROOT).with_suffix("").as_posix().replace("/", ".")
                yield module, node.value.value


def test_every_kind_of_job_in_the_tree_has_a_label_registered_by_its_app():
    kinds = list(job_kind_constants())
    assert len(kinds) >= 10
    unlabelled = [(module, kind) for module, kind in kinds if job_label(kind) == kind]
    assert unlabelled == []


def test_the_erasure_page_and_the_import_check_take_their_job_kinds_from_the_owning_apps():
    erasure = importlib.import_module("apps.conversations.erasure")
    ticker = importlib.import_module("apps.knowledge.ticker")
    assert erasure_job_kinds() == (erasure.JOB_KIND,)
    assert housekeeping_job_kinds() == (ticker.JOB_KIND,)


def test_the_dashboard_shows_the_cards_the_apps_registered_and_their_jobs_there_only():
    assert dashboard_cards() == ["ingestion/partials/dashboard_jobs.html"]
    assert dashboard_card_job_kinds() == ("document_ingest",)


@pytest.mark.django_db
def test_the_stats_route_counts_what_the_apps_registered_in_one_read(tenant):
    stats = tenant_stats(scope_for(tenant))
    assert set(stats) == set(StatsOut().fields)
    assert all(stats[name] == 0 for name in stats if name not in ("read_at", "graph_stamp"))
    assert stats["graph_stamp"]  # made with the tenant (apps/graph/graph_version.py)


def test_a_count_not_scoped_to_the_tenant_is_refused_at_registration():
    with pytest.raises(ValueError, match="not scoped"):
        memory_part_register(MemoryPart(app="x", counts=(("all", "COUNT { MATCH (n) }"),)))
    with pytest.raises(ValueError, match="COUNT"):
        memory_part_register(MemoryPart(app="x", counts=(("bad name", "COUNT { $tenant }"),)))
