"""Agents' API keys of a tenant, as its admins manage them: issue (named, scoped; the raw key is
returned once and only its hash is kept), revoke, and list with last use and issuer."""

from __future__ import annotations

from django.db import transaction

from apps.graph.scope import Scope
from apps.tenants.models import KeyScope, Tenant, TenantAPIKey
from apps.tenants.services import api_key_issue, audit_record
from memoryproject.api_errors import ApplicationError, NotFoundError

MAX_KEY_NAME_CHARS = 50  # the library's column


def keys_list(*, tenant: Tenant) -> list[TenantAPIKey]:
    return list(TenantAPIKey.objects.filter(tenant=tenant).order_by("revoked", "-created"))


def check_key_issue(
    scope: Scope, *, tenant: Tenant, name: str, scopes: list[str]
) -> tuple[TenantAPIKey, str]:
    """A new key for the tenant's agents. Returns the row and the raw key, to be shown once."""
    name = (name or "").strip()
    if not name or len(name) > MAX_KEY_NAME_CHARS:
        raise ApplicationError(
            f"name is required, at most {MAX_KEY_NAME_CHARS} characters.",
            field="name",
            limit=MAX_KEY_NAME_CHARS,
        )
    scopes = list(dict.fromkeys(scopes or []))
    if not scopes:
        raise ApplicationError("Choose at least one scope.", field="scopes")
    if set(scopes) - set(KeyScope.values):
        raise ApplicationError(f"scopes are among {', '.join(KeyScope.values)}.", field="scopes")
    with transaction.atomic():
        api_key, raw = api_key_issue(tenant=tenant, name=name, scopes=scopes)
        TenantAPIKey.objects.filter(pk=api_key.pk).update(created_by=scope.actor)
        api_key.created_by = scope.actor
        audit_record(
            scope,
            action="key.issued",
            target=f"key:{api_key.prefix}",
            details={"name": name, "scopes": scopes},
        )
    return api_key, raw


def check_key_revoke(scope: Scope, *, tenant: Tenant, prefix: str) -> TenantAPIKey:
    """Revoke by prefix; the key stops working at its next request. Revoking twice is a no-op."""
    with transaction.atomic():
        api_key = TenantAPIKey.objects.filter(tenant=tenant, prefix=prefix).first()
        if api_key is None:
            raise NotFoundError("No such key.", field="prefix")
        if not api_key.revoked:
            TenantAPIKey.objects.filter(pk=api_key.pk).update(revoked=True)
            api_key.revoked = True
            audit_record(
                scope, action="key.revoked", target=f"key:{prefix}", details={"name": api_key.name}
            )
    return api_key
