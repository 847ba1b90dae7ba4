"""Routes of this app: `api_urlpatterns` mount under /api/v1/, `urlpatterns` are pages."""

from django.urls import path

from apps.lessons import views
from apps.lessons.api import episodes, knowledge, playbooks

api_urlpatterns = [
    path("episodes", episodes.EpisodesApi.as_view(), name="api-episodes"),
    path("episodes/<str:uid>", episodes.EpisodeDetailApi.as_view(), name="api-episode"),
    path("episodes/<str:uid>/entries", episodes.EntryRecordApi.as_view(), name="api-entries"),
    path("episodes/<str:uid>/close", episodes.EpisodeCloseApi.as_view(), name="api-episode-close"),
    path("lessons", episodes.LessonsApi.as_view(), name="api-lessons"),
    path("lessons/<str:key>", episodes.LessonDetailApi.as_view(), name="api-lesson"),
    path(
        "lessons/<str:key>/evidence",
        episodes.LessonEvidenceApi.as_view(),
        name="api-lesson-evidence",
    ),
    path("playbooks", playbooks.PlaybooksApi.as_view(), name="api-playbooks"),
    path("playbooks-for", playbooks.PlaybooksForApi.as_view(), name="api-playbooks-for"),
    path("playbooks/<str:key>", playbooks.PlaybookDetailApi.as_view(), name="api-playbook"),
    path("playbooks/<str:key>/runs", playbooks.PlaybookRunApi.as_view(), name="api-playbook-run"),
    path(
        "playbooks/<str:key>/switch",
        playbooks.PlaybookSwitchApi.as_view(),
        name="api-playbook-switch",
    ),
    path("handoffs", playbooks.HandoffsApi.as_view(), name="api-handoffs"),
    path(
        "handoffs/<str:key>/accept", playbooks.HandoffAcceptApi.as_view(), name="api-handoff-accept"
    ),
    path("agents/me", playbooks.AgentMeApi.as_view(), name="api-agent-me"),
    path("promotions", knowledge.PromoteApi.as_view(), name="api-promotions"),
    path(
        "knowledge/promotions",
        knowledge.KnowledgePromoteApi.as_view(),
        name="api-knowledge-promotions",
    ),
    path("knowledge/<str:user>", knowledge.KnowledgeApi.as_view(), name="api-knowledge"),
]

urlpatterns = [
    path("memory/episodes", views.episodes_page, name="episodes"),
    path("memory/episodes/<str:uid>", views.episode_page, name="episode"),
    path("memory/lessons", views.lessons_page, name="lessons"),
    path("memory/lessons/<str:key>", views.lesson_page, name="lesson"),
    path("memory/playbooks", views.playbooks_page, name="playbooks"),
    path("memory/playbooks/<str:key>", views.playbook_page, name="playbook"),
    path("memory/playbooks/<str:key>/switch", views.playbook_switch, name="playbook-switch"),
    path("memory/handoffs", views.handoffs_page, name="handoffs"),
    path("memory/knowledge", views.knowledge_users_page, name="knowledge"),
    path("memory/knowledge/<str:user>", views.knowledge_page, name="knowledge-user"),
]
