"""Routes of this app: `api_urlpatterns` mount under /api/v1/, `urlpatterns` are pages."""

from django.urls import path

from apps.ingestion import api, views

api_urlpatterns = [
    path("documents", api.DocumentsApi.as_view(), name="api-documents"),
    path("documents/<str:uid>", api.DocumentDetailApi.as_view(), name="api-document"),
    path("facts", api.FactsCreateApi.as_view(), name="api-facts"),
]
urlpatterns = [
    path("ingestion/jobs", views.ingestion_jobs, name="ingestion-jobs"),
    path("documents/", views.documents_page, name="documents"),
    path("documents/deletions/<str:uid>", views.deletion_page, name="document-deletion"),
    path("documents/<str:uid>/", views.document_page, name="document-page"),
    path("documents/<str:uid>/delete", views.document_delete, name="document-delete"),
]
