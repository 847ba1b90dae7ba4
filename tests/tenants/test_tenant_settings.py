"""A tenant's settings: kinds and bounds checked, refusals together, one audit entry per change,
a value equal to the default stored as no override."""

import pytest

from apps.tenants.models import AuditEvent
from apps.tenants.tenant_settings import check_settings_update, settings_rows
from memoryproject.api_errors import ApplicationError
from tests.conftest import scope_for


def test_changes_are_checked_written_and_audited(tenant):
    scope = scope_for(tenant, actor="user:ada", kind="person")
    changed = check_settings_update(
        scope, tenant=tenant,
        values={"merge_threshold": "0.97", "playbook_needs": "5", "summary_keep_last": "20"},
    )  # fmt: skip
    assert changed == {"merge_threshold": (0.995, 0.97), "playbook_needs": (3, 5)}
    tenant.refresh_from_db()
    assert tenant.settings == {"merge_threshold": 0.97, "playbook_needs": 5}
    assert tenant.effective_settings()["merge_threshold"] == 0.97
    back = check_settings_update(scope, tenant=tenant, values={"playbook_needs": "3"})
    assert back == {"playbook_needs": (5, 3)}
    tenant.refresh_from_db()
    assert tenant.settings == {"merge_threshold": 0.97}
    events = AuditEvent.objects.filter(tenant=tenant, action="settings.changed").order_by("at")
    assert [(e.actor, e.target, e.details) for e in events] == [
        ("user:ada", "merge_threshold", {"from": 0.995, "to": 0.97}),
        ("user:ada", "playbook_needs", {"from": 3, "to": 5}),
        ("user:ada", "playbook_needs", {"from": 5, "to": 3}),
    ]
    rows = {r["name"]: r for r in settings_rows(tenant=tenant)}
    assert rows["merge_threshold"]["overridden"] and not rows["playbook_needs"]["overridden"]


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ({"merge_threshold": "1.5"}, "merge_threshold"),
        ({"merge_threshold": "nan"}, "merge_threshold"),
        ({"review_threshold": "0.996"}, "review_threshold"),  # at or over the merge threshold
        ({"max_message_chars": "2.5"}, "max_message_chars"),
        ({"max_message_chars": "0"}, "max_message_chars"),
        ({"knowledge_extractor": "magic"}, "knowledge_extractor"),
        ({"not_a_setting": "1"}, "not_a_setting"),
    ],
)
def test_bad_values_are_refused_and_nothing_is_written(tenant, values, field):
    with pytest.raises(ApplicationError) as refused:
        check_settings_update(
            scope_for(tenant), tenant=tenant, values={**values, "lesson_threshold": "2"}
        )
    assert refused.value.field == field and field in refused.value.extra["errors"]
    tenant.refresh_from_db()
    assert tenant.settings == {} and not AuditEvent.objects.filter(tenant=tenant).exists()
