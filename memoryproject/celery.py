"""The Celery app. Each worker process opens its own Neo4j connection (the driver is not fork-safe)."""

import os

from celery import Celery
from celery.signals import worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryproject.settings")

app = Celery("anamnesis")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_init.connect
def _reconnect_graph(**_kwargs):
    # Each prefork child connects on its first query (graph_connect compares process ids);
    # connecting here makes a worker that cannot reach Neo4j fail at start, visibly.
    from apps.graph.connection import graph_connect

    graph_connect(force=True)
