"""Routes of this app: `api_urlpatterns` mount under /api/v1/, `urlpatterns` are pages."""

from django.urls import path

from apps.knowledge import api, views

api_urlpatterns = [
    path(
        "knowledge/promotions",
        api.KnowledgePromoteApi.as_view(),
        name="api-knowledge-promotions",
    ),
    path("knowledge/<str:user>", api.KnowledgeApi.as_view(), name="api-knowledge"),
]
urlpatterns = [
    path("memory/knowledge", views.knowledge_users_page, name="knowledge"),
    path("memory/knowledge/<str:user>", views.knowledge_page, name="knowledge-user"),
]
