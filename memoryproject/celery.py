"""The Celery app. Each worker process opens its own Neo4j connection (the driver is not fork-safe)
and loads the embedding model and the extractor once, at start, not in its first task's time."""

import logging
import os
import time

from celery import Celery
from celery.signals import worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryproject.settings")

app = Celery("anamnesis")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
log = logging.getLogger(__name__)


@worker_process_init.connect
def _reconnect_graph(**_kwargs):
    # Each prefork child connects on its first query (graph_connect compares process ids);
    # connecting here makes a worker that cannot reach Neo4j fail at start, visibly.
    from apps.graph.connection import graph_connect

    graph_connect(force=True)


@worker_process_init.connect
def _load_models(**_kwargs):
    # Loading takes seconds; a worker pays it once, before it takes a task. The web process
    # never runs this, so it never loads spaCy for a queued document.
    from apps.graph.embeddings import get_embedder
    from apps.ingestion.extraction import ExtractionFailed, default_extractor

    started = time.monotonic()
    get_embedder().embed(["warm up"])
    try:
        name = default_extractor().name
    except ExtractionFailed as exc:  # a misconfigured LLM extractor fails its jobs, not the worker
        name = f"no extractor ({exc})"
    log.warning("worker %s loaded the embedding model and %s in %.1f s",
                os.getpid(), name, time.monotonic() - started)  # fmt: skip


@app.task(name="broker.delivered_purge")
def broker_delivered_purge() -> int:
    from memoryproject.broker_rows import delivered_messages_purge

    return delivered_messages_purge()
