"""How agents and people prove who they are, and what the request may touch (its Scope)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from rest_framework.authentication import BaseAuthentication
from rest_framework.exceptions import AuthenticationFailed, Throttled
from rest_framework.permissions import BasePermission
from rest_framework_api_key.permissions import KeyParser

from apps.graph.scope import Scope
from apps.tenants.models import ROLE_RANK, KeyScope, Membership, Role, Tenant, TenantAPIKey
from apps.tenants.throttles import (
    AddressRateThrottle,
    attempt_failed,
    attempts_exhausted,
    client_address,
    rate_of,
)

ANY_KEY = "any-key"  # a view that any valid key may call (health)
# What each person's role may do through the same services that keys call.
ROLE_PERMISSIONS = {
    Role.VIEWER: frozenset({KeyScope.MEMORY_READ}),
    Role.REVIEWER: frozenset({KeyScope.MEMORY_READ, KeyScope.REVIEW}),
    Role.ADMIN: frozenset(
        {KeyScope.MEMORY_READ, KeyScope.MEMORY_WRITE, KeyScope.REVIEW, KeyScope.ADMIN}
    ),
}
LAST_USED_RESOLUTION = timedelta(seconds=60)


class AgentPrincipal:
    """The `request.user` of a key-authenticated request."""

    is_authenticated = True
    is_anonymous = False
    is_staff = False

    def __init__(self, api_key: TenantAPIKey) -> None:
        self.api_key = api_key
        self.username = f"key:{api_key.prefix}"

    def __str__(self) -> str:
        return self.username


def scope_for_key(api_key: TenantAPIKey) -> Scope:
    return Scope(
        tenant=api_key.tenant.uid,
        actor=f"key:{api_key.prefix}:{api_key.name}",
        actor_kind="agent",
        permissions=frozenset(api_key.scopes),
        settings=api_key.tenant.effective_settings(),
    )


def scope_for_membership(membership: Membership) -> Scope:
    return Scope(
        tenant=membership.tenant.uid,
        actor=f"user:{membership.user.get_username()}",
        actor_kind="person",
        permissions=ROLE_PERMISSIONS[Role(membership.role)],
        settings=membership.tenant.effective_settings(),
    )


def scope_for_system(tenant: Tenant, actor: str, permissions=frozenset()) -> Scope:
    """A worker's scope: the rights its work needs, named by the caller (never a role's, so a
    background job cannot do more than what it was queued for)."""
    return Scope(
        tenant=tenant.uid,
        actor=actor,
        actor_kind="system",
        permissions=frozenset(permissions),
        settings=tenant.effective_settings(),
    )


class ApiKeyAuthentication(BaseAuthentication):
    """`Authorization: Api-Key <key>` (or `X-Api-Key: <key>`), checked by the library's hasher."""

    parser = KeyParser()

    def authenticate(self, request):
        key = self.parser.get(request) or request.META.get("HTTP_X_API_KEY")
        if not key:
            return None
        address = client_address(request)
        if attempts_exhausted("api_key", address):
            raise Throttled(
                wait=rate_of("api_key")[1], detail="Too many invalid API keys from this address."
            )
        try:
            api_key = TenantAPIKey.objects.get_from_key(key)
        except TenantAPIKey.DoesNotExist:
            attempt_failed("api_key", address)
            raise AuthenticationFailed("Invalid API key.") from None
        if not api_key.is_valid(key):
            attempt_failed("api_key", address)
            raise AuthenticationFailed("Invalid API key.")
        if api_key.revoked or api_key.has_expired:
            raise AuthenticationFailed("This API key is revoked or expired.")
        now = timezone.now()
        if api_key.last_used_at is None or now - api_key.last_used_at > LAST_USED_RESOLUTION:
            TenantAPIKey.objects.filter(pk=api_key.pk).update(last_used_at=now)
        return AgentPrincipal(api_key), scope_for_key(api_key)

    def authenticate_header(self, request) -> str:
        return "Api-Key"


class HasApiKey(BasePermission):
    """Fails closed: a view must name the key scope it needs (`required_scope`)."""

    message = "This API key lacks the scope this route needs."

    def has_permission(self, request, view) -> bool:
        scope = request.auth
        if not isinstance(scope, Scope):
            # DRF checks throttles after permissions, which an anonymous request never passes:
            # its address is counted here, so probing without a key is bounded too.
            address = AddressRateThrottle()
            if not address.allow_request(request, view):
                raise Throttled(wait=address.wait())
            return False
        required = getattr(view, "required_scope", None)
        if required is None:
            return False
        if required == ANY_KEY:
            return True
        self.message = f"This API key lacks the '{required}' scope."
        return scope.allows(required)


def role_at_least(membership: Membership | None, role: str) -> bool:
    return membership is not None and ROLE_RANK[membership.role] >= ROLE_RANK[role]
