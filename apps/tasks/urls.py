"""Routes of this app: `api_urlpatterns` mount under /api/v1/, `urlpatterns` are pages."""

from django.urls import path

from apps.tasks.api import tasks

api_urlpatterns = [
    path("tasks", tasks.TasksApi.as_view(), name="api-tasks"),
    path("tasks/batch", tasks.TaskBatchApi.as_view(), name="api-tasks-batch"),
    path("tasks/ready", tasks.ReadyApi.as_view(), name="api-tasks-ready"),
    path("tasks/claim", tasks.ClaimApi.as_view(), name="api-tasks-claim"),
    path("tasks/<str:task>", tasks.TaskDetailApi.as_view(), name="api-task"),
    path("tasks/<str:task>/release", tasks.ReleaseApi.as_view(), name="api-task-release"),
    path("tasks/<str:task>/complete", tasks.FinishApi.as_view(), name="api-task-complete"),
    path("tasks/<str:task>/fail", tasks.FailApi.as_view(), name="api-task-fail"),
]

urlpatterns = []
