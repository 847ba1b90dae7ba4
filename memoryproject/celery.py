"""The Celery app. Each worker process opens its own Neo4j connection (the driver is not fork-safe)
and loads the embedding model once, at start, not in its first task's time; the libraries and the
extractor are loaded once before the pool forks, and shared."""

import logging
import os
import time
from collections.abc import Callable

from celery import Celery, Task
from celery.signals import worker_init, worker_process_init

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


@worker_init.connect
def _load_before_the_pool_forks(**_kwargs):
    # In the worker's main process, before it forks its pool: each process inherits the
    # embedding libraries (torch, sentence-transformers: 8 s of CPU to import) and what the
    # warm-ups load (spaCy's pipeline: 3 s), so a worker pays them once, not once a process.
    # No model runs here: a thread pool torch started would not survive the fork.
    from apps.graph.embeddings import embedding_libraries_import

    started = time.monotonic()
    embedding_libraries_import()
    names = [load() for load in WORKER_WARM_UPS]
    log.warning("worker %s imported the embedding libraries and %s in %.1f s before forking",
                os.getpid(), ", ".join(names) or "nothing else",
                time.monotonic() - started)  # fmt: skip


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
