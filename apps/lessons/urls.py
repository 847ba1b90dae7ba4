"""Routes of this app: `api_urlpatterns` mount under /api/v1/, `urlpatterns` are pages."""

from django.urls import path

from apps.lessons import views
from apps.lessons.api import episodes, handoffs, lessons, playbooks, promotion

api_urlpatterns = [
    path("episodes", episodes.EpisodesApi.as_view(), name="api-episodes"),
    path("episodes/<str:uid>", episodes.EpisodeDetailApi.as_view(), name="api-episode"),
    path("episodes/<str:uid>/entries", episodes.EntryRecordApi.as_view(), name="api-entries"),
    path("episodes/<str:uid>/close", episodes.EpisodeCloseApi.as_view(), name="api-episode-close"),
    path("lessons", lessons.LessonsApi.as_view(), name="api-lessons"),
    path("lessons/<str:key>", lessons.LessonDetailApi.as_view(), name="api-lesson"),
    path(
        "lessons/<str:key>/evidence",
        lessons.LessonEvidenceApi.as_view(),
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
    path("handoffs", handoffs.HandoffsApi.as_view(), name="api-handoffs"),
    path(
        "handoffs/<str:key>/accept", handoffs.HandoffAcceptApi.as_view(), name="api-handoff-accept"
    ),
    path("agents/me", handoffs.AgentMeApi.as_view(), name="api-agent-me"),
    path("promotions", promotion.PromoteApi.as_view(), name="api-promotions"),
    path("promotions/dry-run", promotion.PromotionTryApi.as_view(), name="api-promotion-try"),
    path("promotion-rules", promotion.PromotionRulesApi.as_view(), name="api-promotion-rules"),
    path(
        "promotion-rules/<str:name>",
        promotion.PromotionRuleApi.as_view(),
        name="api-promotion-rule",
    ),
    path(
        "promotion-rules/<str:name>/activate",
        promotion.PromotionRuleActivateApi.as_view(),
        name="api-promotion-rule-activate",
    ),
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
    path("memory/promotions", views.promotions_page, name="promotions"),
    path("memory/promotions/<str:action>", views.promotion_action, name="promotion-action"),
]
