"""Routes of this app: `api_urlpatterns` mount under /api/v1/, `urlpatterns` are pages."""

from django.urls import path

from apps.insights import api, views

api_urlpatterns = [
    path("graph/groups", api.GroupsApi.as_view(), name="api-graph-groups"),
    path("graph/important", api.ImportantApi.as_view(), name="api-graph-important"),
    path("graph/between", api.BetweenApi.as_view(), name="api-graph-between"),
    path("graph/connection", api.ConnectionApi.as_view(), name="api-graph-connection"),
    path("graph/communities", api.CommunitiesApi.as_view(), name="api-graph-communities"),
    path(
        "graph/entities/<str:uid>/community",
        api.EntityCommunityApi.as_view(),
        name="api-graph-entity-community",
    ),  # fmt: skip
]
urlpatterns = [
    path("graph/", views.graph_page, name="graph-page"),
    path("graph/connection/", views.connection_fragment, name="graph-connection"),
    path("graph/pick/<str:side>/", views.entity_picker, name="graph-picker"),
    path("graph/neighbourhood/", views.neighbourhood_json, name="graph-neighbourhood"),
    path(
        "graph/entities/<str:uid>/neighbourhood/",
        views.neighbourhood_fragment,
        name="graph-entity-neighbourhood",
    ),  # fmt: skip
    path(
        "graph/entities/<str:uid>/community/",
        views.community_fragment,
        name="graph-entity-community",
    ),  # fmt: skip
]
