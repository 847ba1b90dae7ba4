"""The house layout rules as code, so a test can check the tree and prove each check.

Modules are judged by their role, not their exact file name: `review/views.py`, `review_views.py`
and `lessons/api/episodes.py` are all the thin request layer; `selectors.py`, `*_selectors.py` and
a `selectors/` package are all reads."""

from __future__ import annotations

import re
from pathlib import Path

MAX_LINES = 400
FORBIDDEN_NAMES = {"utils", "helpers", "common", "core", "base", "manager", "misc"}
CYPHER_WORDS = r"(MATCH|MERGE|CREATE|UNWIND|DETACH DELETE|CALL db\.)"
FSTRING_CYPHER = re.compile(rf"""\bf(["']{{1,3}})[^"']*\b{CYPHER_WORDS}\b""")
CYPHER_LITERAL = re.compile(rf"""["']\s*{CYPHER_WORDS}\s*[\(\{{]""")
# The request layer: routes, API views, pages, forms, thin tasks.
THIN_ROLES = {"api", "views", "pages", "urls", "tasks", "forms", "tools"}  # tools: MCP tools
READ_ROLES = {"selectors"}
# What only a write does: a clause that changes the graph, or the write entry points.
GRAPH_WRITE = re.compile(
    r"\b(MERGE|CREATE|DETACH DELETE|DELETE|REMOVE)\b\s|\bSET\s+\w+\s*[.=+:]|"
    r"\bcypher\.(write|write_unit)\("
)
# An import of a request-layer module (`apps.x.api`, `apps.x.views`, `from apps.x import views`).
THIN_IMPORT = re.compile(
    r"^\s*(from\s+apps\.[\w.]*\b(api|views|pages|urls|forms)\b[\w.]*\s+import|"
    r"from\s+apps\.[\w.]+\s+import\s+[^#\n]*\b(api|views|pages|urls|forms)\b)",
    re.MULTILINE,
)
# `from apps.<app>.<module> import ..., _private, ...`: reaching into another app's private names.
PRIVATE_IMPORT = re.compile(r"^\s*from\s+apps\.(\w+)[\w.]*\s+import\s+([^#\n]+)", re.MULTILINE)
# `do_*` runs inside the caller's transaction: its first parameter is that transaction.
DO_DEF = re.compile(r"^def (do_\w+)\(\s*\w+\s*(:\s*([\w.]+))?", re.MULTILINE)
# A scoped transaction (cypher.ScopedTx) may be called `tx`: what is flagged is reaching the driver
# itself, which is the only way to an unscoped session or transaction.
DRIVER_CALLS = re.compile(
    r"\b(db\.cypher_query|db\.driver\b|graph_driver\(|\.execute_query\(|\.session\(|"
    r"begin_transaction\()"
)
GRAPH_EXECUTION = {"apps/graph/cypher.py", "apps/graph/connection.py"}
# Every app (a folder with apps.py) has the same skeleton; a part may be a package of that name.
SKELETON = ("api", "views", "services", "selectors", "urls")
# The shared graph layer serves no requests of its own; the MCP server's request layer is its
# tools, which call the other apps' services.
SKELETON_EXEMPT = {"graph", "mcp_server"}
SYSTEM_QUERY_ALLOWED = {"apps/graph/schema.py", "apps/graph/cypher.py"}


def python_modules(root: Path):
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel.startswith(("apps/", "memoryproject/")) and "/migrations/" not in rel:
            yield rel, path


def module_roles(rel: str) -> set[str]:
    """The roles a module plays, from its name and its package: `views`, `review_views`,
    `api/episodes` are views/api; `merges_selectors` or `selectors/queue` are selectors."""
    parts = Path(rel).with_suffix("").parts[2:]  # below apps/<app>/
    roles = set()
    for part in parts:
        if part == "__init__":
            continue
        roles |= {part} | {part.rsplit("_", 1)[-1]}
    return roles


def skeleton_gaps(root: Path) -> list[str]:
    problems = []
    for config in sorted(root.glob("apps/*/apps.py")):
        app = config.parent
        if app.name in SKELETON_EXEMPT:
            continue
        missing = [p for p in SKELETON
                   if not (app / f"{p}.py").exists() and not (app / p / "__init__.py").exists()]  # fmt: skip
        if missing:
            problems.append(f"apps/{app.name}: the app skeleton lacks {', '.join(missing)}")
    return problems


def layout_violations(root: Path) -> list[str]:
    problems: list[str] = skeleton_gaps(root)
    for rel, path in python_modules(root):
        text = path.read_text()
        lines = text.count("\n") + 1
        roles = module_roles(rel) if rel.startswith("apps/") else set()
        if lines > MAX_LINES:
            problems.append(f"{rel}: {lines} lines (max {MAX_LINES}; split it by capability)")
        parts = set(Path(rel).with_suffix("").parts)
        if parts & FORBIDDEN_NAMES:
            problems.append(f"{rel}: named after no capability ({sorted(parts & FORBIDDEN_NAMES)})")
        if FSTRING_CYPHER.search(text):
            problems.append(f"{rel}: Cypher built with an f-string (use $parameters)")
        if roles & THIN_ROLES and CYPHER_LITERAL.search(text):
            problems.append(
                f"{rel}: Cypher in a view/api/task layer (move it to a service/selector)"
            )
        if roles & READ_ROLES and GRAPH_WRITE.search(text):
            problems.append(f"{rel}: a selector writes (reads only; writes go in a service)")
        if roles and not roles & THIN_ROLES and THIN_IMPORT.search(text):
            problems.append(f"{rel}: a service/selector imports the view/api layer (turn it round)")
        own_app = rel.split("/")[1] if rel.startswith("apps/") else None
        for app, names in PRIVATE_IMPORT.findall(text):
            if app != own_app and re.search(r"(^|[\s,(])_[a-z]\w*", names):
                problems.append(f"{rel}: imports a private name of apps.{app} (make it public)")
        for name, _, annotation in DO_DEF.findall(text):
            if annotation not in {"ScopedTx", "cypher.ScopedTx"}:
                problems.append(f"{rel}: {name} does not take the caller's transaction (ScopedTx)")
        if rel not in GRAPH_EXECUTION and DRIVER_CALLS.search(text):
            problems.append(
                f"{rel}: talks to the driver directly (use apps.graph.cypher with a Scope)"
            )
        if rel not in SYSTEM_QUERY_ALLOWED and "system_query(" in text:
            problems.append(f"{rel}: unscoped system_query outside the graph schema code")
    return problems
