"""Routes of this app: `api_urlpatterns` mount under /api/v1/, `urlpatterns` are pages."""

from django.urls import path

from apps.timeline import api

api_urlpatterns = [
    path("kinds", api.KindsApi.as_view(), name="api-kinds"),
    path("rows", api.RowsApi.as_view(), name="api-rows"),
    path("rows/<str:kind>/<str:key>", api.RowUpdateApi.as_view(), name="api-row-update"),
]

urlpatterns: list = []
