"""What each test process keeps to itself when bin/run-tests runs the suite in TEST_PROCESSES
pytest-xdist workers: its test database (pytest-django's _gw0 suffix), Celery queues, SQLite
broker file, Redis cache database and worker log. The Neo4j is shared, each test in a tenant of
its own; tests marked `serial` change what every tenant shares (the Neo4j schema) and run
afterwards, alone (`ANAMNESIS_TESTS=serial`)."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlparse

from django.conf import settings

WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")  # "gw0", "gw1"...; empty in one process


def resources_separated() -> None:
    """Settings (and the environment child processes inherit) of this worker's own."""
    from memoryproject.celery import app

    queue = f"{settings.CELERY_TASK_DEFAULT_QUEUE}-{WORKER}"
    os.environ["CELERY_QUEUE"] = settings.CELERY_TASK_DEFAULT_QUEUE = queue
    app.conf.task_default_queue = queue
    cache = settings.CACHES["default"]
    if cache["BACKEND"].endswith("RedisCache"):  # cache.clear() is a FLUSHDB: a database each
        db = int(WORKER.removeprefix("gw")) + 1
        cache["LOCATION"] = urlparse(cache["LOCATION"])._replace(path=f"/{db}").geturl()
    if settings.CELERY_BROKER_URL.startswith("sqla+sqlite:"):  # SQLite: one writer at a time
        broker = f"sqla+sqlite:///{Path(settings.DATA_DIR) / f'broker-{WORKER}.sqlite3'}"
        os.environ["CELERY_BROKER_URL"] = settings.CELERY_BROKER_URL = broker
        app.conf.broker_url = broker


def serial_split(config, items) -> None:
    """In a worker, the tests not marked `serial`; in the serial run, only those."""
    serial_run = os.environ.get("ANAMNESIS_TESTS") == "serial"
    if not (serial_run or WORKER):
        return
    kept, dropped = [], []
    for item in items:
        (kept if (item.get_closest_marker("serial") is not None) == serial_run else dropped).append(
            item
        )
    config.hook.pytest_deselected(items=dropped)
    items[:] = kept
