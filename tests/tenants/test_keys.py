"""API keys as admins manage them: issued with a name and scopes (raw key once), revoked, and a
revoked key refused by the API at its next request."""

import pytest

from apps.tenants.keys import check_key_issue, check_key_revoke, keys_list
from apps.tenants.models import AuditEvent, TenantAPIKey
from memoryproject.api_errors import ApplicationError, NotFoundError
from tests.conftest import scope_for


def test_issue_use_revoke(tenant, client):
    scope = scope_for(tenant, actor="user:ada", kind="person")
    key, raw = check_key_issue(scope, tenant=tenant, name="reader", scopes=["memory:read"])
    assert key.created_by == "user:ada" and key.scopes == ["memory:read"]
    assert not TenantAPIKey.objects.filter(hashed_key__contains=raw).exists()  # only its hash

    assert client.get("/api/v1/stats", HTTP_AUTHORIZATION=f"Api-Key {raw}").status_code == 200
    assert keys_list(tenant=tenant)[0].last_used_at is not None
    # Scopes hold: a read key cannot write.
    write = client.post(
        "/api/v1/documents", {}, content_type="application/json",
        HTTP_AUTHORIZATION=f"Api-Key {raw}",
    )  # fmt: skip
    assert write.status_code == 403

    check_key_revoke(scope, tenant=tenant, prefix=key.prefix)
    check_key_revoke(scope, tenant=tenant, prefix=key.prefix)
    assert client.get("/api/v1/stats", HTTP_AUTHORIZATION=f"Api-Key {raw}").status_code == 401
    actions = list(AuditEvent.objects.filter(tenant=tenant).values_list("action", flat=True))
    assert sorted(actions) == ["key.issued", "key.revoked"]


def test_refusals(make_tenant):
    tenant, other = make_tenant(), make_tenant()
    scope = scope_for(tenant)
    for name, scopes, field in [
        ("", ["review"], "name"),
        ("x" * 51, ["review"], "name"),
        ("k", [], "scopes"),
        ("k", ["root"], "scopes"),
    ]:
        with pytest.raises(ApplicationError) as refused:
            check_key_issue(scope, tenant=tenant, name=name, scopes=scopes)
        assert refused.value.field == field
    theirs, _ = check_key_issue(scope_for(other), tenant=other, name="k", scopes=["review"])
    with pytest.raises(NotFoundError):
        check_key_revoke(scope, tenant=tenant, prefix=theirs.prefix)
    assert not TenantAPIKey.objects.get(pk=theirs.pk).revoked
