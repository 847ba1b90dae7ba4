"""MCP's entity reads show a pending pair above the twin threshold once, as REST does (the same
selectors): search_entities gives one item with its twin, get_entity names the pair."""

from __future__ import annotations

import pytest

from apps.graph import cypher
from tests.conftest import scope_for
from tests.mcp_server.conftest import READ_ONLY, call, key_issue, over_http
from tests.review.review_fixtures import anthropic_pair

pytestmark = pytest.mark.django_db(transaction=True)


def test_search_entities_and_get_entity_show_the_twin(live_asgi, tenant):
    scope = scope_for(tenant)
    first, second = anthropic_pair(scope)
    [pair] = cypher.read(scope, "MATCH (:Entity {tenant: $tenant})-[s:SAME_AS]->() "
                         "RETURN s.uid AS uid")  # fmt: skip
    raw = key_issue(tenant, READ_ONLY)

    async def steps(client):
        found = await call(client, "search_entities", q="Anthropic", limit=10)
        entity = await call(client, "get_entity", uid=second[0].entity_uid)
        return found, entity

    found, entity = over_http(live_asgi, raw, steps)
    items = [r for r in found["results"] if r["name"].startswith("Anthropic")]
    assert [r["uid"] for r in items] == [first[0].entity_uid]
    assert [t["uid"] for t in items[0]["twins"]] == [second[0].entity_uid]
    assert [(t["uid"], t["pair"]) for t in entity["twins"]] == [(first[0].entity_uid, pair["uid"])]
