"""A real `celery worker` process for the tests, one per test process and session, consuming a
queue of its own (the fixtures are in tests/conftest.py)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote, urlparse

from django.conf import settings

from tests.process_separation import WORKER as XDIST_WORKER
from tests.waits import wait_for

ROOT = Path(__file__).resolve().parent.parent


def child_database_env() -> dict[str, str]:
    """What a child process (a worker, a server) needs to use the suite's relational database:
    the SQLite file, or on PostgreSQL (DATABASE_URL) the test database the runner created."""
    database = settings.DATABASES["default"]
    if database["ENGINE"].endswith("postgresql"):
        url = urlparse(os.environ["DATABASE_URL"])
        return {"DATABASE_URL": url._replace(path="/" + quote(database["NAME"])).geturl()}
    return {"SQLITE_PATH": str(database["NAME"])}


WORKER_LOG = f"test-worker{'-' + XDIST_WORKER if XDIST_WORKER else ''}.log"
# A task's lines in the worker's log: one when it is received (also one waiting for its countdown),
# one when it ends.
TASK_LINE = re.compile(
    r"Task [\w.]+\[([0-9a-f-]{36})\] (received|succeeded|raised|retry|ignored|rejected|failed)"
)


class SharedCeleryWorker:
    """One `celery worker` process for the session (loading the models takes 10-30 s on two
    cores), consuming a queue of its own that tasks are routed to only while a worker test runs:
    the tasks other tests queue are never run by it. After each test it is idle or restarted, so
    no task of one test runs in another."""

    def __init__(self) -> None:
        self.queue = f"{settings.CELERY_TASK_DEFAULT_QUEUE}-worker"
        self.proc: subprocess.Popen | None = None
        self.concurrency = ""
        self.log_path = Path(settings.DATA_DIR) / WORKER_LOG
        self.log = None

    def running(self, concurrency: str) -> subprocess.Popen:
        if self.proc is not None and (self.proc.poll() is not None
                                      or self.concurrency != concurrency):  # fmt: skip
            self.stop()
        if self.proc is None:
            self.start(concurrency)
        return self.proc

    def start(self, concurrency: str) -> None:
        env = {**os.environ, **child_database_env(), "CELERY_TASK_ALWAYS_EAGER": "false",
               "CELERY_QUEUE": self.queue}  # fmt: skip
        queue_purge(self.queue)
        offset = self.log_offset()
        self.log = open(self.log_path, "ab")  # noqa: SIM115
        self.concurrency = concurrency
        self.proc = subprocess.Popen(
            [
                sys.executable, "-m", "celery", "-A", "memoryproject", "worker",
                "--loglevel=INFO", f"--concurrency={concurrency}", "--pool=prefork",
                "--without-gossip", "--without-mingle", "--without-heartbeat",
                "-Q", self.queue,
            ],
            cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        # Loading the models took 147 s on a busy host (26 s idle): a test's own deadline is for
        # its tasks, so it starts once every process of the worker is ready to take one.
        wait_for(lambda: self.proc.poll() is not None or self.loaded_since(offset) >= int(concurrency),
                 timeout=900, message="the test worker's processes did not load the models")  # fmt: skip
        assert self.proc.poll() is None, self.log_path.read_text(errors="replace")[-3000:]

    def loaded_since(self, offset: int) -> int:
        """How many of the worker's processes logged their models loaded since `offset`."""
        return self.log_since(offset).count("loaded the embedding model")

    def log_since(self, offset: int) -> str:
        with open(self.log_path, "rb") as log:
            log.seek(offset)
            return log.read().decode("utf-8", "replace")

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()
        self.proc = self.log = None

    def log_offset(self) -> int:
        return self.log_path.stat().st_size if self.log_path.exists() else 0

    def idle_since(self, offset: int) -> bool:
        """Every task the worker received since `offset` in its log has ended."""
        open_tasks = 0
        for match in TASK_LINE.finditer(self.log_since(offset)):
            open_tasks += 1 if match.group(2) == "received" else -1
        return open_tasks <= 0

    def settle(self, offset: int, timeout: float = 15.0) -> None:
        """Until the worker ran every task it took since `offset`; one still running or waiting
        for its countdown after `timeout` goes with a restarted worker. Then its queue is
        emptied of what no process took."""
        if self.proc is None:
            return
        deadline = time.monotonic() + timeout
        while not self.idle_since(offset):
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self.stop()
                break
            time.sleep(0.1)
        queue_purge(self.queue)


def queue_purge(queue: str) -> None:
    from memoryproject.celery import app

    with app.connection_for_write() as connection:
        app.amqp.TaskConsumer(connection, queues=[app.amqp.queues[queue]]).purge()
