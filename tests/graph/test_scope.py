"""No graph query runs without a tenant scope, and a scope reaches only its tenant."""

import pytest

from apps.graph import cypher
from apps.graph.scope import Scope
from tests.conftest import scope_for


def test_a_query_without_tenant_filter_is_refused(scope):
    with pytest.raises(cypher.UnscopedQuery):
        cypher.read(scope, "MATCH (n:Entity) RETURN count(n) AS n")


def test_a_caller_cannot_supply_the_tenant(scope):
    with pytest.raises(cypher.UnscopedQuery):
        cypher.read(scope, "MATCH (n:Entity {tenant: $tenant}) RETURN n", tenant="someone-else")


def test_a_query_needs_a_scope_object():
    with pytest.raises(cypher.UnscopedQuery):
        cypher.read("tenant-uid", "MATCH (n:Entity {tenant: $tenant}) RETURN n")


def test_a_scope_needs_a_tenant():
    with pytest.raises(ValueError):
        Scope(tenant="", actor="x")


def test_one_tenant_never_sees_another(make_tenant):
    a, b = scope_for(make_tenant()), scope_for(make_tenant())
    cypher.write(a, "CREATE (:Document {uid: randomUUID(), tenant: $tenant, source: 'a'})")
    count = "MATCH (d:Document {tenant: $tenant}) RETURN count(d) AS n"
    assert cypher.read(a, count)[0]["n"] == 1
    assert cypher.read(b, count)[0]["n"] == 0


def test_round_trips_are_counted(scope):
    with cypher.count_round_trips() as n:
        cypher.read(scope, "MATCH (d:Document {tenant: $tenant}) RETURN count(d) AS n")
        cypher.write_unit(
            scope,
            lambda tx: [
                tx.run("MATCH (d:Document {tenant: $tenant}) RETURN count(d) AS n"),
                tx.run("MATCH (c:Chunk {tenant: $tenant}) RETURN count(c) AS n"),
            ],
        )
    assert n[0] == 3
