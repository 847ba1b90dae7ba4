"""URL map. Every route under /api/v1/ needs an API key (checked by a test that walks this conf);
every page needs a login; the API schema and docs need a login or a key. Swagger UI and ReDoc
come from our own static files (drf-spectacular-sidecar), so the docs work offline."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic.base import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import IsAuthenticated

from apps.conversations import urls as conversations_urls
from apps.ingestion import urls as ingestion_urls
from apps.insights import urls as insights_urls
from apps.knowledge import urls as knowledge_urls
from apps.lessons import urls as lessons_urls
from apps.resolution import urls as resolution_urls
from apps.review import urls as review_urls
from apps.search import urls as search_urls
from apps.tasks import urls as tasks_urls
from apps.tenant_data import urls as tenant_data_urls
from apps.tenants import metrics_view
from apps.tenants import urls as tenants_urls
from apps.tenants import views as tenant_views
from apps.tenants.auth import ApiKeyAuthentication
from apps.timeline import urls as timeline_urls

# Under /api/ these answer in the API's JSON error shape; pages keep Django's HTML.
handler400 = "memoryproject.api_errors.handler400"
handler403 = "memoryproject.api_errors.handler403"
handler404 = "memoryproject.api_errors.handler404"
handler500 = "memoryproject.api_errors.handler500"

_docs_access = {
    "authentication_classes": [SessionAuthentication, ApiKeyAuthentication],
    "permission_classes": [IsAuthenticated],
}

APPS = [
    tenants_urls,
    ingestion_urls,
    resolution_urls,
    review_urls,
    conversations_urls,
    lessons_urls,
    knowledge_urls,
    insights_urls,
    timeline_urls,
    tasks_urls,
    tenant_data_urls,
    search_urls,
]
api_v1 = [route for app in APPS for route in app.api_urlpatterns]
pages = [route for app in APPS for route in app.urlpatterns]

urlpatterns = [
    path("api/v1/", include(api_v1)),
    path("metrics", metrics_view.metrics, name="metrics"),  # staff or this host only
    path("api/schema/", SpectacularAPIView.as_view(**_docs_access), name="api-schema"),
    path(
        "api/docs/",
        login_required(SpectacularSwaggerView.as_view(url_name="api-schema", **_docs_access)),
        name="api-docs",
    ),
    path(
        "api/redoc/",
        login_required(SpectacularRedocView.as_view(url_name="api-schema", **_docs_access)),
        name="api-redoc",
    ),
    # Pages without our <link rel="icon"> (the admin) make browsers ask for /favicon.ico.
    path("favicon.ico", RedirectView.as_view(url=static("favicon.svg"), permanent=True)),
    path("accounts/login/", tenant_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/set-password/<uidb64>/<token>/",
        tenant_views.SetPasswordView.as_view(),
        name="set-password",
    ),
    path("admin/", admin.site.urls),
    path("", include(pages)),
]
