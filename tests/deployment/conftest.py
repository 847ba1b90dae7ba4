"""A small deployment of the service, as separate processes: a throwaway PostgreSQL
(bin/postgres-throwaway), a Redis of its own, two web processes (uvicorn, as bin/run-local starts
it) and two Celery workers, all against the suite's Neo4j. Loopback only."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from tests.conftest import ROOT, graph_wipe_tenant, wait_for

PY = sys.executable
START_TIMEOUT = 300.0  # four processes loading Django (and the workers the models) on two cores


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Deployment:
    env: dict[str, str]
    logs: Path
    webs: list[str] = field(default_factory=list)  # base URLs
    worker_logs: list[Path] = field(default_factory=list)
    procs: list[subprocess.Popen] = field(default_factory=list)
    tenant_uid: str = ""
    key: str = ""
    started_in: float = 0.0  # seconds until every process answered

    def manage(self, *args: str, timeout: float = 300) -> str:
        done = subprocess.run([PY, "manage.py", *args], cwd=ROOT, env=self.env, text=True,
                              capture_output=True, timeout=timeout)  # fmt: skip
        assert done.returncode == 0, f"manage.py {args[0]}: {done.stderr[-3000:]}"
        return done.stdout

    def start(self, name: str, argv: list[str]) -> Path:
        log = self.logs / f"{name}.log"
        with open(log, "ab") as out:
            self.procs.append(subprocess.Popen(argv, cwd=ROOT, env=self.env, stdout=out,
                                               stderr=subprocess.STDOUT))  # fmt: skip
        return log

    def client(self, index: int) -> httpx.Client:
        return httpx.Client(base_url=self.webs[index % len(self.webs)], timeout=120,
                            headers={"Authorization": f"Api-Key {self.key}"})  # fmt: skip


def _postgres_start() -> dict[str, str]:
    done = subprocess.run([ROOT / "bin" / "postgres-throwaway", "start"], text=True,
                          capture_output=True, timeout=120)  # fmt: skip
    if done.returncode == 3:
        pytest.fail(done.stderr.strip() + " (bin/run-tests installs it when run as root)")
    assert done.returncode == 0, done.stderr
    return dict(line.split("=", 1) for line in done.stdout.split())


def _redis_start(deployment: Deployment) -> str:
    if not shutil.which("redis-server"):
        pytest.fail("redis-server is missing: apt-get install redis-server")
    port = free_port()
    deployment.start("redis", ["redis-server", "--port", str(port), "--bind", "127.0.0.1",
                               "--save", "", "--appendonly", "no"])  # fmt: skip
    import redis

    def answers() -> bool:
        try:
            return redis.Redis(port=port, socket_timeout=1).ping()
        except redis.ConnectionError:
            return False

    wait_for(answers, timeout=30, message="redis-server did not answer")
    return f"redis://127.0.0.1:{port}/0"


TENANT_SETUP = """
import json
from apps.tenants import services
tenant = services.tenant_create(slug="deployment", name="Deployment test")
_, key = services.api_key_issue(tenant=tenant, name="agents")
print(json.dumps({"tenant": tenant.uid, "key": key}))
"""


@pytest.fixture
def deployment(tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    postgres = _postgres_start()
    env = {k: v for k, v in os.environ.items()
           if k not in {"SQLITE_PATH", "CELERY_BROKER_URL", "DATABASE_URL"}}  # fmt: skip
    deployment = Deployment(env=env, logs=logs)
    try:
        env.update(DATABASE_URL=postgres["PG_THROWAWAY_URL"], REDIS_URL=_redis_start(deployment),
                   CELERY_QUEUE="anamnesis-deployment", CELERY_TASK_ALWAYS_EAGER="false")  # fmt: skip
        deployment.manage("migrate", "--noinput", "-v0")
        made = json.loads(deployment.manage("shell", "-c", TENANT_SETUP).strip().splitlines()[-1])
        deployment.tenant_uid, deployment.key = made["tenant"], made["key"]
        for n in (1, 2):
            deployment.worker_logs.append(deployment.start(f"worker{n}", [
                PY, "-m", "celery", "-A", "memoryproject", "worker", "--loglevel=INFO",
                "--concurrency=1", "--pool=prefork", "--without-gossip", "--without-mingle",
                "--without-heartbeat", "-n", f"deployment{n}@%h", "-Q", env["CELERY_QUEUE"],
            ]))  # fmt: skip
            port = free_port()
            deployment.start(f"web{n}", [
                PY, "-m", "uvicorn", "memoryproject.asgi:application", "--host", "127.0.0.1",
                "--port", str(port), "--workers", "1", "--timeout-graceful-shutdown", "10",
            ])  # fmt: skip
            deployment.webs.append(f"http://127.0.0.1:{port}")
        _wait_until_up(deployment)
        yield deployment
    finally:
        for proc in deployment.procs:
            proc.terminate()
        for proc in deployment.procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
        subprocess.run([ROOT / "bin" / "postgres-throwaway", "stop", postgres["PG_THROWAWAY_DIR"]],
                       timeout=120)  # fmt: skip
        if deployment.tenant_uid:
            graph_wipe_tenant(deployment.tenant_uid)


def _wait_until_up(deployment: Deployment) -> None:
    started = time.monotonic()

    def up() -> bool:
        for proc in deployment.procs:
            if proc.poll() is not None:
                pytest.fail(f"a process of the deployment exited: {proc.args}")
        for n in range(len(deployment.webs)):
            try:
                with deployment.client(n) as client:
                    if client.get("/api/v1/health", timeout=5).status_code != 200:
                        return False
            except httpx.HTTPError:
                return False
        # A worker's process loads the models before it takes a task (memoryproject.celery).
        return all("loaded the embedding model" in log.read_text(errors="replace")
                   for log in deployment.worker_logs)  # fmt: skip

    wait_for(up, timeout=START_TIMEOUT, interval=1.0,
             message=f"the deployment did not start; logs in {deployment.logs}")  # fmt: skip
    deployment.started_in = time.monotonic() - started
