"""Routes of this app: `api_urlpatterns` mount under /api/v1/, `urlpatterns` are pages."""

from django.urls import path

from apps.search import api, views

api_urlpatterns = [
    path("search", api.SearchApi.as_view(), name="api-search"),
]
urlpatterns = [
    path("search/", views.search_page, name="search"),
]
