"""The layout rules hold for the project, and each check catches a planted violation."""

from pathlib import Path

import pytest

from tests.layout_rules import LAYERS, layout_violations

ROOT = Path(__file__).resolve().parent.parent


def test_the_project_follows_the_layout_rules():
    assert layout_violations(ROOT) == []


PLANTED = {
    "too long": ("apps/demo/services.py", "x = 1\n" * 401, "lines"),
    "forbidden name": ("apps/demo/utils.py", "x = 1\n", "named after no capability"),
    "f-string cypher": (
        "apps/demo/selectors.py",
        'def f(label):\n    return f"MATCH (n:{label}) RETURN n"\n',
        "f-string",
    ),
    "cypher in a view": (
        "apps/demo/views.py",
        'QUERY = "MATCH (n:Entity {tenant: $tenant}) RETURN n"\n',
        "view/api/task",
    ),
    "cypher in a prefixed view module": (
        "apps/demo/review_views.py",
        'QUERY = "MATCH (n:Entity {tenant: $tenant}) RETURN n"\n',
        "view/api/task",
    ),
    "cypher in an api package": (
        "apps/demo/api/episodes.py",
        'QUERY = "MATCH (n:Episode {tenant: $tenant}) RETURN n"\n',
        "view/api/task",
    ),
    "a selector that writes": (
        "apps/demo/review_selectors.py",
        'QUERY = """\nMATCH (n:Entity {tenant: $tenant})\nSET n.seen = true\n"""\n',
        "a selector writes",
    ),
    "a service importing a view": (
        "apps/demo/services.py",
        "from apps.demo.views import queue_page\n",
        "imports the view/api layer",
    ),
    "a do_ function outside the caller's transaction": (
        "apps/demo/services.py",
        "def do_thing_write(scope, *, uid):\n    return uid\n",
        "caller's transaction",
    ),
    "an app without the skeleton": (
        "apps/demo/apps.py",
        "x = 1\n",
        "skeleton lacks api, views, services, selectors, urls",
    ),
    "another app's private name": (
        "apps/demo/api.py",
        "from apps.other.api import MAX_CHARS, _query_params\n",
        "private name of apps.other",
    ),
    "driver call outside graph": (
        "apps/demo/selectors.py",
        "from neomodel import db\nrows = db.cypher_query('RETURN 1')\n",
        "driver directly",
    ),
    "session outside graph": (
        "apps/demo/selectors.py",
        "from apps.graph.connection import graph_driver\n"
        "with graph_driver().session() as s:\n    s.run('MATCH (n) RETURN n')\n",
        "driver directly",
    ),
    "a lower layer importing a higher one": (
        "apps/tenants/services.py",
        "from apps.ingestion.services import check_document_submit\n",
        "imports apps.ingestion.services (layer 5) from layer 1",
    ),
    "a lower layer importing a higher one inside a function": (
        "apps/tenants/demo_fill.py",
        "def fill(scope):\n    from apps.lessons.services.lessons import check_lesson_learn\n\n"
        "    return check_lesson_learn\n",
        "imports apps.lessons.services.lessons (layer 2) from layer 1",
    ),
    "the ground importing an app through `from apps import`": (
        "memoryproject/celery.py",
        "def warm_up():\n    from apps import ingestion\n\n    return ingestion\n",
        "imports apps.ingestion (layer 5) from layer 0",
    ),
    "two memory apps of one layer": (
        "apps/review/merges.py",
        "from apps.insights.selectors import graph_important\n",
        "imports apps.insights.selectors (layer 3) from layer 3",
    ),
    "an app without a layer": ("apps/newapp/selectors.py", "x = 1\n", "has no layer"),
    "unscoped system query": (
        "apps/demo/selectors.py",
        "from apps.graph.cypher import system_query\nsystem_query('RETURN 1')\n",
        "system_query",
    ),
}


@pytest.mark.parametrize("name", sorted(PLANTED))
def test_each_check_catches_a_planted_violation(tmp_path, name):
    rel, content, expected = PLANTED[name]
    target = tmp_path / rel
    target.parent.mkdir(parents=True)
    target.write_text(content)
    # The planted apps `demo` and `other` get layers; `newapp` is left without one on purpose.
    layers = {**LAYERS, "demo": 2, "other": 1}
    problems = layout_violations(tmp_path, layers if "newapp" not in rel else LAYERS)
    assert len(problems) == 1 and expected in problems[0], problems
