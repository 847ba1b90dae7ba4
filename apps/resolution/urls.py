"""Routes of this app: `api_urlpatterns` mount under /api/v1/, `urlpatterns` are pages."""

from django.urls import path

from apps.resolution import api, views

api_urlpatterns = [
    path("entities", api.EntitySearchApi.as_view(), name="api-entities"),
    path("entities/<str:uid>", api.EntityDetailApi.as_view(), name="api-entity"),
    path("match-model", api.MatchModelApi.as_view(), name="api-match-model"),
    path("match-model/learn", api.MatchModelLearnApi.as_view(), name="api-match-model-learn"),
]
urlpatterns = [
    path("entities/", views.entity_search, name="entity-search"),
    path("entities/<str:uid>/", views.entity_page, name="entity-page"),
]
