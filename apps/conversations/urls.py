"""Routes of this app: `api_urlpatterns` mount under /api/v1/, `urlpatterns` are pages."""

from django.urls import path

from apps.conversations import api, views

USER = "users/<str:user>/"
SESSION = USER + "sessions/<str:sid>/"

api_urlpatterns = [
    path(SESSION + "messages", api.MessagesApi.as_view(), name="api-messages"),
    path(SESSION + "messages:batch", api.MessageBatchApi.as_view(), name="api-messages-batch"),
    path(SESSION + "messages:import", api.MessageImportApi.as_view(), name="api-messages-import"),
    path(SESSION + "context", api.SessionContextApi.as_view(), name="api-session-context"),
    path(SESSION + "summary", api.SummaryApi.as_view(), name="api-summary"),
    path(USER + "sessions", api.SessionsApi.as_view(), name="api-sessions"),
    path(USER + "said-about", api.SaidAboutApi.as_view(), name="api-said-about"),
    path(USER + "messages/search", api.SearchApi.as_view(), name="api-message-search"),
    path("context", api.ContextApi.as_view(), name="api-context"),
    path("erasures/preview", api.ErasurePreviewApi.as_view(), name="api-erasure-preview"),
    path("erasures", api.ErasureApi.as_view(), name="api-erasures"),
]

urlpatterns = [
    path("conversations/", views.users_page, name="conversations"),
    path("conversations/users/<str:user>/", views.user_page, name="conversation-user"),
    path(
        "conversations/users/<str:user>/sessions/<str:sid>/",
        views.session_page,
        name="conversation-session",
    ),
    path("conversations/erasure/", views.erasure_page, name="erasure"),
    path("conversations/erasure/jobs/<str:uid>/", views.erasure_job_page, name="erasure-job"),
]
