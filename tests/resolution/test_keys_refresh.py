"""Entities kept before a kind of blocking key existed get it from `blocking_keys_refresh`, and
are found by it afterwards; a second run changes nothing."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from apps.graph import cypher
from apps.graph.fulltext import entity_words_query
from apps.resolution.blocking_keys import blocking_keys
from apps.resolution.keys_refresh import keys_refresh
from tests.conftest import scope_for
from tests.resolution.test_adversarial_identity import resolve
from tests.resolution.test_blocking_keys import FOUND_BY_KEYS

KEYS = "MATCH (e:Entity {tenant: $tenant, uid: $uid}) RETURN e.name_keys AS keys"
# An entity as it was kept before nickname keys: only its other keys.
KEYS_OLD = """
MATCH (e:Entity {tenant: $tenant, uid: $uid})
SET e.name_keys = [k IN e.name_keys WHERE NOT k STARTS WITH 'nk']
"""


def found_by_nicknames(scope, name):
    keys = tuple(k for k in blocking_keys("Person", [name], {}, asked=True) if k.startswith("nk"))
    q = entity_words_query(scope.tenant, "", type="Person", keys=keys)
    return {row["name"] for row in cypher.read(scope, FOUND_BY_KEYS, q=q)}


def test_an_entity_kept_before_nickname_keys_gets_them_and_is_found_by_them(make_tenant):
    tenant, other = make_tenant(), make_tenant()
    scope = scope_for(tenant)
    robert = resolve(scope, "Robert Smith", email="rs@example.org")
    cypher.write(scope, KEYS_OLD, uid=robert.entity_uid)
    [before] = cypher.read(scope, KEYS, uid=robert.entity_uid)
    assert not [k for k in before["keys"] if k.startswith("nk")]
    assert "Robert Smith" not in found_by_nicknames(scope, "Bob Smith")
    elsewhere = resolve(scope_for(other), "Robert Smith")
    cypher.write(scope_for(other), KEYS_OLD, uid=elsewhere.entity_uid)

    out = StringIO()
    call_command("blocking_keys_refresh", "--tenant", tenant.slug, stdout=out)
    assert f"{tenant.slug}: 1 entities, 1 given new keys" in out.getvalue()
    [after] = cypher.read(scope, KEYS, uid=robert.entity_uid)
    assert set(before["keys"]) < set(after["keys"]) and "nkrobert9sm0" in after["keys"]
    assert "Robert Smith" in found_by_nicknames(scope, "Bob Smith")
    # Only the tenant named: the other tenant's entity is untouched.
    [untouched] = cypher.read(scope_for(other), KEYS, uid=elsewhere.entity_uid)
    assert "nkrobert9sm0" not in untouched["keys"]
    assert keys_refresh(scope) == (1, 0)  # a second run changes nothing


def test_the_refresh_pages_through_a_tenant_and_refuses_an_unknown_slug(make_tenant):
    scope = scope_for(make_tenant())
    for name in ("Bill Jones", "Kate Doe", "Peggy Roe"):
        receipt = resolve(scope, name)
        cypher.write(scope, KEYS_OLD, uid=receipt.entity_uid)
    pages = []
    assert keys_refresh(scope, page_size=2, progress=lambda r, c: pages.append((r, c))) == (3, 3)
    assert pages == [(2, 2), (3, 3)]
    with pytest.raises(CommandError, match="no tenant with slug 'nope'"):
        call_command("blocking_keys_refresh", "--tenant", "nope")
