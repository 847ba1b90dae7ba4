"""The first-run data set: real pending reviews, a summed-up conversation, a lesson; and it never
touches a tenant that has memory of its own."""

from apps.graph import cypher
from apps.lessons.selectors import lesson_get, promotion_rules_list
from apps.tenant_data.services.demo_data import demo_data_fill, demo_scope
from apps.tenants.selectors import tenant_stats

SUMMARY = "MATCH (s:Summary {tenant: $tenant}) RETURN s.upto AS upto, s.text AS text"


def test_an_empty_tenant_gets_the_demo_data_once(tenant):
    result = demo_data_fill(tenant=tenant)
    assert result["filled"] is True and result["pending_reviews"] >= 1
    scope = demo_scope(tenant)
    stats = tenant_stats(scope)
    assert stats["documents"] == 4
    assert stats["entities"] >= 8
    assert stats["pending_reviews"] >= 1
    assert stats["relations"] >= 3
    assert (stats["conversations"], stats["messages"]) == (1, 8)
    assert (stats["episodes"], stats["lessons"]) == (1, 1)
    # The lesson comes from promotion, by the rule the demo declares in data.
    assert result["lesson"] == "show-the-table"
    assert [r["name"] for r in promotion_rules_list(scope)] == ["explain-by-table"]
    assert lesson_get(scope, key="show-the-table")["support"] == 1
    summary = cypher.read(scope, SUMMARY)
    assert summary and summary[0]["upto"] == 6 and summary[0]["text"]

    again = demo_data_fill(tenant=tenant)
    assert again == {"filled": False}
    after = tenant_stats(scope)
    assert {k: v for k, v in after.items() if k != "read_at"} == {
        k: v for k, v in stats.items() if k != "read_at"
    }


def test_a_tenant_with_memory_is_left_alone(tenant):
    from apps.conversations.services import check_message_append

    scope = demo_scope(tenant)
    check_message_append(scope, user="u", sid="s", role="user", text="mine", by="u")
    assert demo_data_fill(tenant=tenant) == {"filled": False}
    stats = tenant_stats(scope)
    assert (stats["documents"], stats["entities"], stats["messages"]) == (0, 0, 1)


def test_it_fills_only_once_even_after_the_data_is_gone(tenant):
    from tests.conftest import graph_wipe_tenant

    assert demo_data_fill(tenant=tenant)["filled"] is True
    graph_wipe_tenant(tenant.uid)
    assert demo_data_fill(tenant=tenant) == {"filled": False}
    assert tenant_stats(demo_scope(tenant))["documents"] == 0
