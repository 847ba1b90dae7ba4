"""Routes of this app: `api_urlpatterns` mount under /api/v1/, `urlpatterns` are pages."""

from django.urls import path

from apps.tasks import views
from apps.tasks.api import evidence, tasks

api_urlpatterns = [
    path("tasks", tasks.TasksApi.as_view(), name="api-tasks"),
    path("tasks/batch", tasks.TaskBatchApi.as_view(), name="api-tasks-batch"),
    path("tasks/ready", tasks.ReadyApi.as_view(), name="api-tasks-ready"),
    path("tasks/claim", tasks.ClaimApi.as_view(), name="api-tasks-claim"),
    path("tasks/similarity-sync", evidence.SimilaritySyncApi.as_view(), name="api-similarity"),
    path("tasks/<str:task>", tasks.TaskDetailApi.as_view(), name="api-task"),
    path("tasks/<str:task>/release", tasks.ReleaseApi.as_view(), name="api-task-release"),
    path("tasks/<str:task>/complete", tasks.FinishApi.as_view(), name="api-task-complete"),
    path("tasks/<str:task>/fail", tasks.FailApi.as_view(), name="api-task-fail"),
    path("tasks/<str:task>/context", tasks.ContextApi.as_view(), name="api-task-context"),
    path("tasks/<str:task>/evidence", evidence.EvidenceAddApi.as_view(), name="api-task-evidence"),
    path("tasks/<str:task>/pages", evidence.PagesApi.as_view(), name="api-task-pages"),
    path("evidence/synthesis", evidence.SynthesisApi.as_view(), name="api-evidence-synthesis"),
    path("evidence/<str:evidence_id>", evidence.EvidenceDetailApi.as_view(), name="api-evidence"),
]

urlpatterns = [
    path("work/tasks", views.dag_page, name="work-tasks"),
    path("work/ready", views.ready_page, name="work-ready"),
    path("work/tasks/<str:task>", views.task_page, name="work-task"),
    path("work/tasks/<str:task>/context", views.task_context_page, name="work-task-context"),
    path("work/tasks/<str:task>/ingests", views.task_ingests, name="work-task-ingests"),
]
