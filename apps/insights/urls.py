"""Routes of this app: `api_urlpatterns` mount under /api/v1/, `urlpatterns` are pages."""

from django.urls import path

from apps.insights import api, community_api, community_views, views

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
    path("communities", community_api.CommunitiesListApi.as_view(), name="api-communities"),
    path(
        "communities/answer",
        community_api.CommunitiesAnswerApi.as_view(),
        name="api-communities-answer",
    ),  # fmt: skip
    path(
        "communities/refresh",
        community_api.CommunitiesRefreshApi.as_view(),
        name="api-communities-refresh",
    ),  # fmt: skip
    path(
        "communities/<str:uid>", community_api.CommunityDetailApi.as_view(), name="api-community"
    ),  # fmt: skip
]
urlpatterns = [
    path("graph/", views.graph_page, name="graph-page"),
    path("graph/communities/", community_views.communities_page, name="graph-communities"),
    path(
        "graph/communities/refresh/",
        community_views.communities_refresh,
        name="graph-communities-refresh",
    ),  # fmt: skip
    path(
        "graph/communities/<str:uid>/", community_views.community_page, name="graph-community"
    ),  # fmt: skip
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
