"""Routes of this app: `api_urlpatterns` mount under /api/v1/, `urlpatterns` are pages."""

from django.urls import path

from apps.review import api, cluster_api, cluster_views, suspect_api, trend_views, views

api_urlpatterns = [
    path("reviews", api.ReviewListApi.as_view(), name="api-reviews"),
    # Before reviews/<uid>, which would take "clusters" for a pair's uid.
    path("reviews/clusters", cluster_api.ClusterListApi.as_view(), name="api-clusters"),
    path(
        "reviews/clusters/<str:cluster_id>",
        cluster_api.ClusterDetailApi.as_view(),
        name="api-cluster",
    ),
    path(
        "reviews/clusters/<str:cluster_id>/decision",
        cluster_api.ClusterDecisionApi.as_view(),
        name="api-cluster-decision",
    ),
    path(
        "reviews/clusters/<str:cluster_id>/undo",
        cluster_api.ClusterUndoApi.as_view(),
        name="api-cluster-undo",
    ),
    path("reviews/<str:uid>", api.ReviewDetailApi.as_view(), name="api-review"),
    path("reviews/<str:uid>/confirm", api.ReviewConfirmApi.as_view(), name="api-review-confirm"),
    path("reviews/<str:uid>/reject", api.ReviewRejectApi.as_view(), name="api-review-reject"),
    path("merges/<str:uid>/undo", api.MergeUndoApi.as_view(), name="api-merge-undo"),
    path("suspect-merges", suspect_api.SuspectListApi.as_view(), name="api-suspect-merges"),
    path("resolution/reresolve", suspect_api.ReresolveApi.as_view(), name="api-reresolve"),
    path(
        "suspect-merges/rescore",
        suspect_api.SuspectRescoreApi.as_view(),
        name="api-suspect-rescore",
    ),
    path(
        "suspect-merges/<str:uid>", suspect_api.SuspectDetailApi.as_view(), name="api-suspect-merge"
    ),
    path(
        "suspect-merges/<str:uid>/keep",
        suspect_api.SuspectKeepApi.as_view(),
        name="api-suspect-keep",
    ),
    path(
        "suspect-merges/<str:uid>/undo",
        suspect_api.SuspectUndoApi.as_view(),
        name="api-suspect-undo",
    ),
]
urlpatterns = [
    path("entities/<str:uid>/review-extras/", views.entity_extras, name="entity-review-extras"),
    path("review/", views.review_queue_page, name="review-queue"),
    path("review/audit/", views.audit_page, name="review-audit"),
    path("review/trends/", trend_views.trends_page, name="review-trends"),
    path("review/undo-last", views.undo_last, name="review-undo-last"),
    path("review/bulk", views.bulk_confirm, name="review-bulk"),
    path("review/skipped/clear", views.skipped_clear, name="review-skipped-clear"),
    path("review/pairs/<str:uid>/", views.pair_page, name="review-pair"),
    path("review/pairs/<str:uid>/confirm", views.pair_confirm, name="review-confirm"),
    path("review/pairs/<str:uid>/reject", views.pair_reject, name="review-reject"),
    path("review/pairs/<str:uid>/skip", views.pair_skip, name="review-skip"),
    path("review/merges/<str:uid>/undo", views.merge_undo, name="review-merge-undo"),
    path("review/clusters/", cluster_views.clusters_page, name="review-clusters"),
    path("review/clusters/<str:cluster_id>/", cluster_views.cluster_page, name="review-cluster"),
    path(
        "review/clusters/<str:cluster_id>/decide",
        cluster_views.cluster_decide,
        name="review-cluster-decide",
    ),
    path(
        "review/clusters/<str:cluster_id>/undo",
        cluster_views.cluster_undo,
        name="review-cluster-undo",
    ),
    path("review/suspects/", views.suspects_page, name="review-suspects"),
    path("review/suspects/<str:uid>/", views.suspect_fragment, name="review-suspect"),
    path("review/suspects/<str:uid>/keep", views.suspect_keep, name="review-suspect-keep"),
    path("review/suspects/<str:uid>/undo", views.suspect_undo, name="review-suspect-undo"),
]
