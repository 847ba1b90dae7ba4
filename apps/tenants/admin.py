from django.contrib import admin
from rest_framework_api_key.admin import APIKeyModelAdmin
from rest_framework_api_key.models import APIKey

from apps.tenants.models import (
    AuditEvent,
    Job,
    Membership,
    Tenant,
    TenantAPIKey,
    TenantDeletion,
)

# The library registers its own APIKey model, which nothing here uses: one "API keys" list only.
if admin.site.is_registered(APIKey):
    admin.site.unregister(APIKey)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 1


@admin.register(Tenant)
class TenantAdmin(admin.ModelAdmin):
    list_display = ("slug", "name", "uid", "created_at")
    search_fields = ("slug", "name")
    readonly_fields = ("uid",)
    inlines = [MembershipInline]


@admin.register(TenantAPIKey)
class TenantAPIKeyAdmin(APIKeyModelAdmin):
    list_display = (
        *APIKeyModelAdmin.list_display, "tenant", "scopes", "last_used_at", "created_by",
    )  # fmt: skip
    list_filter = ("tenant", "revoked")


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("user", "tenant", "role", "granted_at")
    list_filter = ("tenant", "role")


@admin.register(Job)
class JobAdmin(admin.ModelAdmin):
    list_display = ("uid", "tenant", "kind", "status", "created_at")
    list_filter = ("tenant", "kind", "status")
    readonly_fields = [f.name for f in Job._meta.fields]


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    list_display = ("at", "tenant", "actor", "action", "target")
    list_filter = ("tenant", "action")
    readonly_fields = [f.name for f in AuditEvent._meta.fields]


@admin.register(TenantDeletion)
class TenantDeletionAdmin(admin.ModelAdmin):
    """The site-level record of deleted tenants: read only, it is the proof."""

    list_display = ("created_at", "tenant_slug", "requested_by", "status", "finished_at")
    readonly_fields = [f.name for f in TenantDeletion._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False
