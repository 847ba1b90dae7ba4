"""Members of a tenant: invite an existing account, change its role, remove it; always an admin."""

import pytest
from django.contrib.auth import get_user_model

from apps.tenants.members import check_member_invite, check_member_remove, check_member_role_change
from apps.tenants.models import AuditEvent, Membership, Role
from memoryproject.api_errors import ApplicationError, ConflictError, NotFoundError
from tests.conftest import scope_for


def test_invite_change_remove_each_audited(tenant, make_person):
    admin = make_person(tenant, Role.ADMIN)
    scope = scope_for(tenant, actor=f"user:{admin.username}", kind="person")
    get_user_model().objects.create_user("bea", password="pw-bea-12345")
    check_member_invite(scope, tenant=tenant, username=" bea ", role=Role.REVIEWER)
    with pytest.raises(ConflictError):
        check_member_invite(scope, tenant=tenant, username="bea", role=Role.ADMIN)
    check_member_role_change(scope, tenant=tenant, username="bea", role=Role.VIEWER)
    check_member_role_change(scope, tenant=tenant, username="bea", role=Role.VIEWER)  # no-op
    check_member_remove(scope, tenant=tenant, username="bea")
    assert not Membership.objects.filter(tenant=tenant, user__username="bea").exists()
    trail = list(
        AuditEvent.objects.filter(tenant=tenant).order_by("at").values_list("action", "details")
    )
    assert trail == [
        ("member.invited", {"role": "reviewer"}),
        ("member.role_changed", {"from": "reviewer", "to": "viewer"}),
        ("member.removed", {"role": "viewer"}),
    ]


def test_refusals_name_the_field(tenant, make_person):
    scope = scope_for(tenant)
    with pytest.raises(NotFoundError) as missing:
        check_member_invite(scope, tenant=tenant, username="ghost", role=Role.VIEWER)
    assert missing.value.field == "username"
    with pytest.raises(ApplicationError) as bad_role:
        check_member_invite(scope, tenant=tenant, username="ghost", role="owner")
    assert bad_role.value.field == "role"
    with pytest.raises(ApplicationError) as long_name:
        check_member_invite(scope, tenant=tenant, username="x" * 151, role=Role.VIEWER)
    assert (long_name.value.field, long_name.value.limit) == ("username", 150)


def test_the_last_admin_is_neither_demoted_nor_removed(tenant, make_person):
    only = make_person(tenant, Role.ADMIN)
    scope = scope_for(tenant)
    with pytest.raises(ConflictError):
        check_member_role_change(scope, tenant=tenant, username=only.username, role=Role.VIEWER)
    with pytest.raises(ConflictError):
        check_member_remove(scope, tenant=tenant, username=only.username)
    second = make_person(tenant, Role.ADMIN)
    check_member_role_change(scope, tenant=tenant, username=only.username, role=Role.VIEWER)
    assert Membership.objects.get(tenant=tenant, user=second).role == Role.ADMIN
