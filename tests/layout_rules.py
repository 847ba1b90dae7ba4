"""The house layout rules as code, so a test can check the tree and prove each check."""

from __future__ import annotations

import re
from pathlib import Path

MAX_LINES = 400
FORBIDDEN_NAMES = {"utils", "helpers", "common", "core", "base", "manager", "misc"}
CYPHER_WORDS = r"(MATCH|MERGE|CREATE|UNWIND|DETACH DELETE|CALL db\.)"
FSTRING_CYPHER = re.compile(rf"""\bf(["']{{1,3}})[^"']*\b{CYPHER_WORDS}\b""")
CYPHER_LITERAL = re.compile(rf"""["']\s*{CYPHER_WORDS}\s*[\(\{{]""")
THIN_LAYERS = {"api.py", "views.py", "urls.py", "tasks.py", "forms.py"}
# A scoped transaction (cypher.ScopedTx) may be called `tx`: what is flagged is reaching the driver
# itself, which is the only way to an unscoped session or transaction.
DRIVER_CALLS = re.compile(
    r"\b(db\.cypher_query|db\.driver\b|graph_driver\(|\.execute_query\(|\.session\(|"
    r"begin_transaction\()"
)
GRAPH_EXECUTION = {"apps/graph/cypher.py", "apps/graph/connection.py"}
SYSTEM_QUERY_ALLOWED = {"apps/graph/schema.py", "apps/graph/cypher.py"}


def python_modules(root: Path):
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel.startswith(("apps/", "memoryproject/")) and "/migrations/" not in rel:
            yield rel, path


def layout_violations(root: Path) -> list[str]:
    problems: list[str] = []
    for rel, path in python_modules(root):
        text = path.read_text()
        lines = text.count("\n") + 1
        if lines > MAX_LINES:
            problems.append(f"{rel}: {lines} lines (max {MAX_LINES}; split it by capability)")
        parts = set(Path(rel).with_suffix("").parts)
        if parts & FORBIDDEN_NAMES:
            problems.append(f"{rel}: named after no capability ({sorted(parts & FORBIDDEN_NAMES)})")
        if FSTRING_CYPHER.search(text):
            problems.append(f"{rel}: Cypher built with an f-string (use $parameters)")
        if path.name in THIN_LAYERS and CYPHER_LITERAL.search(text):
            problems.append(
                f"{rel}: Cypher in a view/api/task layer (move it to a service/selector)"
            )
        if rel not in GRAPH_EXECUTION and DRIVER_CALLS.search(text):
            problems.append(
                f"{rel}: talks to the driver directly (use apps.graph.cypher with a Scope)"
            )
        if rel not in SYSTEM_QUERY_ALLOWED and "system_query(" in text:
            problems.append(f"{rel}: unscoped system_query outside the graph schema code")
    return problems
