"""The Celery app. Each worker process opens its own Neo4j connection (the driver is not fork-safe)
and loads the embedding model and the extractor once, at start, not in its first task's time."""

import logging
import os
import time
from collections.abc import Callable

from celery import Celery, Task
from celery.signals import worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryproject.settings")


class GraphJobTask(Task):
    """Every task is one job: its graph reads see its own earlier writes, also when a routed
    Neo4j cluster sends them to a follower (apps.graph.cypher.read_your_writes)."""

    def __call__(self, *args, **kwargs):
        from apps.graph.cypher import read_your_writes

        with read_your_writes():
            return super().__call__(*args, **kwargs)


app = Celery("anamnesis", task_cls=GraphJobTask)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
log = logging.getLogger(__name__)


@worker_process_init.connect
def _reconnect_graph(**_kwargs):
    # Each prefork child connects on its first query (graph_connect compares process ids);
    # connecting here makes a worker that cannot reach Neo4j fail at start, visibly.
    from apps.graph.connection import graph_connect

    graph_connect(force=True)


# What a worker loads once at start besides the embedding model: an app with something heavy to
# load registers it from its AppConfig.ready() (apps/ingestion/apps.py: the extractor), so this
# module, below every app, names none of them. Each loader returns what it loaded, for the log.
WORKER_WARM_UPS: list[Callable[[], str]] = []


def worker_warm_up_register(load: Callable[[], str]) -> None:
    if load not in WORKER_WARM_UPS:
        WORKER_WARM_UPS.append(load)


@worker_process_init.connect
def _load_models(**_kwargs):
    # Loading takes seconds; a worker pays it once, before it takes a task. The web process
    # never runs this, so it never loads spaCy for a queued document.
    from apps.graph.embeddings import get_embedder

    started = time.monotonic()
    get_embedder().embed(["warm up"])
    names = [load() for load in WORKER_WARM_UPS]
    log.warning("worker %s loaded the embedding model and %s in %.1f s",
                os.getpid(), ", ".join(names) or "nothing else",
                time.monotonic() - started)  # fmt: skip


@app.task(name="broker.delivered_purge")
def broker_delivered_purge() -> int:
    from memoryproject.broker_rows import delivered_messages_purge

    return delivered_messages_purge()
