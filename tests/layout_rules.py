"""The house layout rules as code, so a test can check the tree and prove each check.

Modules are judged by their role, not their exact file name: `review/views.py`, `review_views.py`
and `lessons/api/episodes.py` are all the thin request layer; `selectors.py`, `*_selectors.py` and
a `selectors/` package are all reads."""

from __future__ import annotations

import ast
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
# The layer map (docs/concepts/layers.md): a module imports only from its own app or from apps
# of a LOWER layer, at module level or inside a function. 0 is the ground; tenancy stands on it;
# the memory apps on tenancy, each above the memory apps it builds on (so they form no cycle);
# what must know every memory app stands on top. A new app must be given its layer here.
LAYERS = {
    "graph": 0,
    "memoryproject": 0,
    "tenants": 1,
    "resolution": 2,  # identity: the gate, entity and relation writes
    "knowledge": 2,
    "lessons": 2,
    "review": 3,  # merges and unmerges of resolution's entities
    "insights": 3,  # the entity picker searches as resolution does
    "timeline": 4,  # rows of lessons' entry serials, writes through resolution's gate
    "ingestion": 5,  # document dates are timeline's; chunks go through resolution
    "conversations": 6,  # names are normalised as resolution does; passages are ingestion's chunks
    "tasks": 6,  # pages read for a task are chunked and deduplicated as ingestion does
    "search": 7,  # one ranked list over passages, entities, messages, entries, facts, arguments
    "mcp_server": 8,
    "tenant_data": 8,
}
# The composition root wires every app together (the URL map, the ASGI app): nothing imports it.
COMPOSITION_ROOT = {"memoryproject/urls.py", "memoryproject/asgi.py"}
TOP = max(LAYERS.values()) + 1
GROUND = 0


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


def imported_modules(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, dotted module) of every absolute import in the module, in functions too; `from apps
    import x` names `apps.x`."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            if node.module in {"apps", "memoryproject"}:
                found += [(node.lineno, f"{node.module}.{a.name}") for a in node.names]
            else:
                found.append((node.lineno, node.module))
    return found


def module_layer(module: str, layers: dict[str, int]) -> tuple[str, int | None] | None:
    """(app, layer) of a dotted project module, the composition root on top; None outside."""
    parts = module.split(".")
    if parts[0] == "memoryproject":
        rel = "/".join(parts) + ".py"
        return ("memoryproject", TOP if rel in COMPOSITION_ROOT else layers["memoryproject"])
    if parts[0] == "apps" and len(parts) > 1:
        return parts[1], layers.get(parts[1])
    return None


def layer_violations(rel: str, text: str, layers: dict[str, int]) -> list[str]:
    if rel == "apps/__init__.py":
        return []
    own_app, own_layer = module_layer(rel.removesuffix(".py").replace("/", "."), layers)
    if own_layer is None:
        return [f"{rel}: apps.{own_app} has no layer (give it one in LAYERS)"]
    problems = []
    for line, module in imported_modules(ast.parse(text)):
        target = module_layer(module, layers)
        if target is None or target[0] == own_app and target[1] == own_layer:
            continue
        app, layer = target
        # The ground is one layer of two packages (graph, memoryproject); above it, two apps of
        # one layer do not import each other.
        if layer is None or layer > own_layer or layer == own_layer and own_layer > GROUND:
            problems.append(
                f"{rel}:{line}: imports {module} (layer {layer}) from layer {own_layer} "
                "(import only from lower layers, or register through the lower layer)"
            )
    return problems


def layout_violations(root: Path, layers: dict[str, int] = LAYERS) -> list[str]:
    problems: list[str] = skeleton_gaps(root)
    unlayered = set()
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
        for problem in layer_violations(rel, text, layers):
            if "has no layer" in problem:  # said once per app, not per module
                app = problem.split("apps.", 1)[1].split(" ", 1)[0]
                if app in unlayered:
                    continue
                unlayered.add(app)
            problems.append(problem)
    return problems
