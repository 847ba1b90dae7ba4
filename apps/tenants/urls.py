from django.urls import path

from apps.tenants import api, console_views, views

api_urlpatterns = [
    path("health", api.HealthApi.as_view(), name="api-health"),
    path("stats", api.StatsApi.as_view(), name="api-stats"),
    path("jobs/<str:uid>", api.JobDetailApi.as_view(), name="api-job"),
]

# The console's Data section (export, import, deletion) is apps/tenant_data/urls.py.
console = "console/<slug:slug>/"
urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("jobs/recent", views.dashboard_jobs, name="dashboard-jobs"),
    path("tenants/switch", views.tenant_switch, name="tenant-switch"),
    path("console/", console_views.console_home, name="console"),
    path(console, console_views.console_usage, name="console-usage"),
    path(console + "members", console_views.console_members, name="console-members"),
    path(console + "members/invite", console_views.member_invite, name="console-member-invite"),
    path(
        console + "members/<str:username>/role",
        console_views.member_role,
        name="console-member-role",
    ),
    path(
        console + "members/<str:username>/remove",
        console_views.member_remove,
        name="console-member-remove",
    ),
    path(console + "keys", console_views.console_keys, name="console-keys"),
    path(console + "keys/issue", console_views.key_issue, name="console-key-issue"),
    path(console + "keys/<str:prefix>/revoke", console_views.key_revoke, name="console-key-revoke"),
    path(console + "audit", console_views.console_audit, name="console-audit"),
    path(console + "erasure", console_views.console_erasure, name="console-erasure"),
    path(console + "settings", console_views.console_settings, name="console-settings"),
]
