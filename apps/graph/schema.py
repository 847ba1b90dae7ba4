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
    """An index whose options (SCHEMA_OPTIONS) or properties (SCHEMA_PROPERTIES) a family has
    changed since it was made is dropped, so the family's statement makes it again. Neo4j
    rebuilds it from the data; searches of it answer partially until it is online again."""
    options = _family_dicts("SCHEMA_OPTIONS")
    properties = _family_dicts("SCHEMA_PROPERTIES")
    names = sorted(set(options) | set(properties))
    if not names:
        return
    rows = system_query(
        "SHOW INDEXES YIELD name, properties, options WHERE name IN $names "
        "RETURN name, properties, options",
        names=names,
    )
    for row in rows:
        have = (row["options"] or {}).get("indexConfig") or {}
        stale = any(have.get(key) != value for key, value in options.get(row["name"], {}).items())
        wanted = properties.get(row["name"])
        if stale or (wanted is not None and list(row["properties"] or []) != wanted):
            if not re.fullmatch(r"[a-z_]+", row["name"]):  # names come from our own code
                raise ValueError(f"unexpected index name {row['name']!r}")
            system_query("DROP INDEX " + row["name"] + " IF EXISTS")


def _family_dicts(attribute: str) -> dict:
    return {
        name: value for family in FAMILIES for name, value in getattr(family, attribute, {}).items()
    }


def _counts() -> dict[str, int]:
    constraints = system_query("SHOW CONSTRAINTS YIELD name RETURN count(*) AS n")[0]["n"]
    indexes = system_query("SHOW INDEXES YIELD name RETURN count(*) AS n")[0]["n"]
    return {"constraints": constraints, "indexes": indexes}


def graph_health() -> dict:
    """Connected or not, the server's version and edition, and the GDS version (None when the
    server has no Graph Data Science library: graph algorithms then fail)."""
    try:
        row = system_query(
            "CALL dbms.components() YIELD name, versions, edition "
            "RETURN name, versions[0] AS version, edition"
        )[0]
        gds = system_query(
            "SHOW FUNCTIONS YIELD name WHERE name = 'gds.version' RETURN count(*) > 0 AS present"
        )[0]["present"]
        if gds:
            gds = system_query("RETURN gds.version() AS version")[0]["version"]
        return {
            "connected": True,
            "version": row["version"],
            "edition": row["edition"],
            "gds": gds or None,
        }
    except Exception as exc:  # noqa: BLE001 - health reports any failure, it must not raise
        return {"connected": False, "error": type(exc).__name__}
