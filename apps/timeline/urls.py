"""Routes of this app: `api_urlpatterns` mount under /api/v1/, `urlpatterns` are pages."""

from django.urls import path

from apps.timeline import agent_views, api, history_api, meaning_api, views

api_urlpatterns = [
    path("kinds", api.KindsApi.as_view(), name="api-kinds"),
    path("rows", api.RowsApi.as_view(), name="api-rows"),
    path("kinds/<str:kind>/rows-from-entries", api.RowsFromEntriesApi.as_view(),
         name="api-rows-from-entries"),
    path("rows/<str:kind>/<str:key>", api.RowUpdateApi.as_view(), name="api-row-update"),
    path("kinds/<str:kind>/entities/<str:key>/history", history_api.HistoryApi.as_view(),
         name="api-history"),
    path("kinds/<str:kind>/entities/<str:key>/as-of", history_api.AsOfApi.as_view(),
         name="api-as-of"),
    path("kinds/<str:kind>/entities/<str:key>/related/<str:rel>",
         history_api.RelatedApi.as_view(), name="api-related"),
    path("kinds/<str:kind>/entities/<str:key>/pointing-at/<str:rel>",
         history_api.PointingAtApi.as_view(), name="api-pointing-at"),
    path("kinds/<str:kind>/entities/<str:key>/similar", history_api.SimilarApi.as_view(),
         name="api-similar"),
    path("kinds/<str:kind>/embed", meaning_api.EmbedApi.as_view(), name="api-kind-embed"),
    path("kinds/<str:kind>/nearest", meaning_api.NearestApi.as_view(), name="api-kind-nearest"),
    path("kinds/<str:kind>/history-search", history_api.SearchHistoryApi.as_view(),
         name="api-history-search"),
    path("diff", history_api.DiffApi.as_view(), name="api-diff"),
    path("what-if", history_api.WhatIfApi.as_view(), name="api-what-if"),
    path("entries/<str:uid>/impact", history_api.EntryImpactApi.as_view(), name="api-entry-impact"),
    path("states/<str:uid>/impact", history_api.StateImpactApi.as_view(), name="api-state-impact"),
    path("entries/<str:uid>/invalidate", history_api.EntryInvalidateApi.as_view(),
         name="api-entry-invalidate"),
    path("agents/<str:name>/trust", history_api.TrustApi.as_view(), name="api-agent-trust"),
]  # fmt: skip

urlpatterns = [
    path("entities/<str:uid>/timeline", views.entity_timeline_part, name="entity-timeline"),
    path("memory/kinds", views.kinds_page, name="kinds"),
    path("memory/agents/<path:name>", agent_views.agent_page, name="agent-page"),
    path("memory/kinds/jobs", views.entry_row_jobs_part, name="kinds-jobs"),
    path(
        "memory/kinds/<str:kind>/rows-from-entries",
        views.kind_rows_from_entries,
        name="kind-rows-from-entries",
    ),
    path("memory/diff", views.diff_page, name="timeline-diff"),
    path("memory/entries/<str:uid>", views.entry_page, name="entry-page"),
    path("memory/entries/<str:uid>/invalidate", views.entry_invalidate, name="entry-invalidate"),
]
