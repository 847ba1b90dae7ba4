from django.urls import path

from apps.tenant_data import views

# No API routes: the data section is a console page (apps/tenant_data/api.py says why).
api_urlpatterns: list = []

console = "console/<slug:slug>/"
urlpatterns = [
    path(console + "data", views.console_data, name="console-data"),
    path(console + "data/export", views.export_start, name="console-export"),
    path(
        console + "data/exports/<str:uid>/archive",
        views.export_download,
        name="console-export-download",
    ),
    path(console + "data/import", views.import_start, name="console-import"),
    path(console + "data/delete", views.tenant_delete, name="console-delete"),
    path("console/deletions/<str:uid>", views.deletion_status, name="console-deletion"),
]
