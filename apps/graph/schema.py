"""Installs the graph schema idempotently: neomodel's constraints and indexes for every node
class, then each node family's full-text, vector and composite-key statements."""

from __future__ import annotations

import io
import re

from django.conf import settings
from neomodel import db

from apps.graph.connection import graph_connect
from apps.graph.cypher import system_query
from apps.graph.nodes import FAMILIES


def schema_statements() -> list[str]:
    return [statement for family in FAMILIES for statement in getattr(family, "SCHEMA", [])]


def schema_install(await_seconds: int = 300) -> dict[str, int]:
    """Create what is missing, change nothing that exists; waits until indexes are online."""
    graph_connect()
    before = _counts()
    db.install_all_labels(stdout=io.StringIO())
    _outdated_indexes_drop()
    for statement in schema_statements():
        system_query(statement, dimensions=settings.EMBEDDING_DIMENSIONS)
    system_query("CALL db.awaitIndexes($seconds)", seconds=await_seconds)
    after = _counts()
    return {
        "constraints": after["constraints"],
        "indexes": after["indexes"],
        "created": after["constraints"]
        + after["indexes"]
        - before["constraints"]
        - before["indexes"],
    }


def _outdated_indexes_drop() -> None:
    """An index whose options a family has changed since it was made (SCHEMA_OPTIONS) is dropped,
    so the family's statement makes it again with the new ones. Lucene rebuilds it from the
    data; searches of it answer partially until it is online again."""
    wanted = {
        name: config
        for family in FAMILIES
        for name, config in getattr(family, "SCHEMA_OPTIONS", {}).items()
    }
    if not wanted:
        return
    rows = system_query(
        "SHOW INDEXES YIELD name, options WHERE name IN $names RETURN name, options",
        names=list(wanted),
    )
    for row in rows:
        have = (row["options"] or {}).get("indexConfig") or {}
        if any(have.get(key) != value for key, value in wanted[row["name"]].items()):
            if not re.fullmatch(r"[a-z_]+", row["name"]):  # names come from our own code
                raise ValueError(f"unexpected index name {row['name']!r}")
            system_query("DROP INDEX " + row["name"] + " IF EXISTS")


def _counts() -> dict[str, int]:
    constraints = system_query("SHOW CONSTRAINTS YIELD name RETURN count(*) AS n")[0]["n"]
    indexes = system_query("SHOW INDEXES YIELD name RETURN count(*) AS n")[0]["n"]
    return {"constraints": constraints, "indexes": indexes}


def graph_health() -> dict:
    """Connected or not, and the server's version and edition."""
    try:
        row = system_query(
            "CALL dbms.components() YIELD name, versions, edition "
            "RETURN name, versions[0] AS version, edition"
        )[0]
        return {"connected": True, "version": row["version"], "edition": row["edition"]}
    except Exception as exc:  # noqa: BLE001 - health reports any failure, it must not raise
        return {"connected": False, "error": type(exc).__name__}
