"""People of a tenant: invite an account (an email address nobody has yet makes one, see
apps/tenants/invitations.py) with a role, change the role, remove. Each change is audited; a
tenant always keeps at least one admin."""

from __future__ import annotations

from django.db import transaction

from apps.graph.scope import Scope
from apps.tenants.invitations import invited_account
from apps.tenants.models import Membership, Role, Tenant
from apps.tenants.services import audit_record
from memoryproject.api_errors import ApplicationError, ConflictError, NotFoundError

MAX_USERNAME_CHARS = 150


def members_list(*, tenant: Tenant) -> list[Membership]:
    return list(
        Membership.objects.filter(tenant=tenant).select_related("user").order_by("user__username")
    )


def validate_role(role: str) -> str:
    if role not in Role.values:
        raise ApplicationError(f"role must be one of {', '.join(Role.values)}.", field="role")
    return role


def check_member_invite(scope: Scope, *, tenant: Tenant, username: str, role: str) -> Membership:
    """Give an account a role in the tenant; `username` is a username or an email address (one
    nobody has makes a new account without a password: `membership.account_created`). An
    account that has a role already keeps it (change it instead)."""
    validate_role(role)
    username = (username or "").strip()
    if not username or len(username) > MAX_USERNAME_CHARS:
        raise ApplicationError(
            f"username (or email address) is required, at most {MAX_USERNAME_CHARS} characters.",
            field="username",
            limit=MAX_USERNAME_CHARS,
        )
    with transaction.atomic():
        user, account_created = invited_account(username)
        membership, created = Membership.objects.get_or_create(
            user=user, tenant=tenant, defaults={"role": role}
        )
        if not created:
            raise ConflictError(
                f"{user.username} is already {membership.role} here; change the role instead.",
                field="username",
            )
        details = {"role": role, **({"account_created": True} if account_created else {})}
        audit_record(scope, action="member.invited", target=f"user:{user.username}",
                     details=details)  # fmt: skip
    membership.account_created = account_created
    return membership


def _member(tenant: Tenant, username: str) -> Membership:
    membership = (
        Membership.objects.select_for_update()
        .filter(tenant=tenant, user__username=username)
        .select_related("user")
        .first()
    )
    if membership is None:
        raise NotFoundError("No such member.", field="username")
    return membership


def _keep_an_admin(tenant: Tenant, membership: Membership) -> None:
    others = (
        Membership.objects.filter(tenant=tenant, role=Role.ADMIN).exclude(pk=membership.pk).count()
    )
    if membership.role == Role.ADMIN and others == 0:
        raise ConflictError("The tenant's last admin stays an admin.", field="role")


def check_member_role_change(
    scope: Scope, *, tenant: Tenant, username: str, role: str
) -> Membership:
    validate_role(role)
    with transaction.atomic():
        membership = _member(tenant, username)
        if membership.role == role:
            return membership
        if role != Role.ADMIN:
            _keep_an_admin(tenant, membership)
        before = membership.role
        membership.role = role
        membership.save(update_fields=["role"])
        audit_record(
            scope,
            action="member.role_changed",
            target=f"user:{username}",
            details={"from": before, "to": role},
        )
    return membership


def check_member_remove(scope: Scope, *, tenant: Tenant, username: str) -> None:
    with transaction.atomic():
        membership = _member(tenant, username)
        _keep_an_admin(tenant, membership)
        role = membership.role
        membership.delete()
        audit_record(
            scope, action="member.removed", target=f"user:{username}", details={"role": role}
        )
