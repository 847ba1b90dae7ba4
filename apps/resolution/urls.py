"""Routes of this app: `api_urlpatterns` mount under /api/v1/, `urlpatterns` are pages."""

from django.urls import path

from apps.resolution import api, review_api, review_views, views

api_urlpatterns = [
    path("entities", api.EntitySearchApi.as_view(), name="api-entities"),
    path("entities/<str:uid>", api.EntityDetailApi.as_view(), name="api-entity"),
    path("reviews", review_api.ReviewListApi.as_view(), name="api-reviews"),
    path("reviews/<str:uid>", review_api.ReviewDetailApi.as_view(), name="api-review"),
    path(
        "reviews/<str:uid>/confirm",
        review_api.ReviewConfirmApi.as_view(),
        name="api-review-confirm",
    ),
    path(
        "reviews/<str:uid>/reject", review_api.ReviewRejectApi.as_view(), name="api-review-reject"
    ),
    path("merges/<str:uid>/undo", review_api.MergeUndoApi.as_view(), name="api-merge-undo"),
]
urlpatterns = [
    path("entities/", views.entity_search, name="entity-search"),
    path("entities/<str:uid>/", views.entity_page, name="entity-page"),
    path(
        "entities/<str:uid>/review-extras/", review_views.entity_extras, name="entity-review-extras"
    ),
    path("review/", review_views.review_queue_page, name="review-queue"),
    path("review/audit/", review_views.audit_page, name="review-audit"),
    path("review/undo-last", review_views.undo_last, name="review-undo-last"),
    path("review/bulk", review_views.bulk_confirm, name="review-bulk"),
    path("review/skipped/clear", review_views.skipped_clear, name="review-skipped-clear"),
    path("review/pairs/<str:uid>/", review_views.pair_page, name="review-pair"),
    path("review/pairs/<str:uid>/confirm", review_views.pair_confirm, name="review-confirm"),
    path("review/pairs/<str:uid>/reject", review_views.pair_reject, name="review-reject"),
    path("review/pairs/<str:uid>/skip", review_views.pair_skip, name="review-skip"),
    path("review/merges/<str:uid>/undo", review_views.merge_undo, name="review-merge-undo"),
]
