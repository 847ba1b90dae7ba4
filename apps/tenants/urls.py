from django.urls import path

from apps.tenants import api, views

api_urlpatterns = [
    path("health", api.HealthApi.as_view(), name="api-health"),
    path("stats", api.StatsApi.as_view(), name="api-stats"),
    path("jobs/<str:uid>", api.JobDetailApi.as_view(), name="api-job"),
]

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("tenants/switch", views.tenant_switch, name="tenant-switch"),
]
