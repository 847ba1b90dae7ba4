"""Shared fixtures. Every test gets its own tenant; its graph nodes are removed afterwards, so
tests never see each other's data. Everything runs against the real services."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from apps.graph.scope import Scope
from apps.tenants import services as tenant_services
from apps.tenants.auth import ROLE_PERMISSIONS
from apps.tenants.models import Role, Tenant
from tests import process_separation
from tests.celery_worker import SharedCeleryWorker, queue_purge
from tests.waits import wait_for

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage",
]  # fmt: skip


XDIST_WORKER = process_separation.WORKER
if XDIST_WORKER:
    process_separation.resources_separated()


def pytest_collection_modifyitems(config, items):
    process_separation.serial_split(config, items)


@pytest.fixture(scope="session", autouse=True)
def graph_schema_installed(django_db_blocker):
    from filelock import FileLock

    from apps.graph.schema import schema_install

    # The workers start together; one installs, the other then finds it in place.
    with FileLock(Path(settings.DATA_DIR) / "graph-schema.lock"):
        schema_install()


@pytest.fixture(scope="session", autouse=True)
def fast_password_hashes():
    # A person made or logged in hashes a password: 0.4 s of CPU with the service's PBKDF2, for
    # some 300 of them a run. The tests check who may sign in, not the hash's strength (no
    # child process the tests start checks a person's password).
    from django.test import override_settings

    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


def graph_wipe_tenant(tenant_uid: str) -> None:
    from apps.graph import cypher

    scope = Scope(tenant=tenant_uid, actor="test-teardown", actor_kind="system")
    cypher.write(scope, "MATCH (n) WHERE n.tenant = $tenant DETACH DELETE n")


@pytest.fixture
def make_tenant(db):
    created: list[Tenant] = []

    def factory(slug: str | None = None, **settings_overrides) -> Tenant:
        slug = slug or f"t-{uuid.uuid4().hex[:10]}"
        tenant = tenant_services.tenant_create(slug=slug, name=slug, settings=settings_overrides)
        created.append(tenant)
        return tenant

    yield factory
    for tenant in created:
        graph_wipe_tenant(tenant.uid)


@pytest.fixture
def tenant(make_tenant) -> Tenant:
    return make_tenant()


def scope_for(tenant: Tenant, *, actor: str = "agent:test", kind: str = "agent", permissions=None):
    perms = permissions if permissions is not None else ROLE_PERMISSIONS[Role.ADMIN]
    return Scope(
        tenant=tenant.uid,
        actor=actor,
        actor_kind=kind,
        permissions=frozenset(perms),
        settings=tenant.effective_settings(),
    )


@pytest.fixture
def scope(tenant) -> Scope:
    return scope_for(tenant)


@pytest.fixture
def chat_server():
    """The fake OpenAI-compatible chat endpoint every LLM test talks to (tests/fake_chat.py)."""
    from tests.fake_chat import FakeChatServer

    server = FakeChatServer()
    yield server
    server.close()


@pytest.fixture
def make_api_client(db):
    def factory(tenant: Tenant, scopes: list[str] | None = None) -> APIClient:
        _, raw = tenant_services.api_key_issue(tenant=tenant, name="test key", scopes=scopes)
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Api-Key {raw}")
        client.raw_key = raw
        return client

    return factory


@pytest.fixture
def api_client(tenant, make_api_client) -> APIClient:
    return make_api_client(tenant)


@pytest.fixture
def make_person(db):
    from django.contrib.auth import get_user_model

    def factory(tenant: Tenant, role: str = Role.VIEWER, username: str | None = None):
        username = username or f"u-{uuid.uuid4().hex[:8]}"
        password = f"pw-{uuid.uuid4().hex}"
        user = get_user_model().objects.create_user(username=username, password=password)
        tenant_services.membership_grant(user=user, tenant=tenant, role=role)
        user.raw_password = password
        return user

    return factory


# --- A real Celery worker on the real broker (tests/celery_worker.py) -------------------------


@pytest.fixture(scope="session")
def shared_celery_worker(django_db_setup):
    worker = SharedCeleryWorker()
    yield worker
    worker.stop()


@pytest.fixture
def celery_worker(transactional_db, shared_celery_worker):
    """A real `celery worker` process (TEST_WORKER_CONCURRENCY processes, 2 by default) on the
    configured broker (Redis in CI, SQLAlchemy-on-SQLite locally), reading the test database
    and the test Neo4j, and running the tasks this test queues (and those its tasks queue)."""
    from memoryproject.celery import app

    worker = shared_celery_worker
    proc = worker.running(os.environ.get("TEST_WORKER_CONCURRENCY", "2"))
    queue_purge(settings.CELERY_TASK_DEFAULT_QUEUE)  # what tests without a worker queued
    offset = worker.log_offset()
    default_queue = app.conf.task_default_queue
    app.conf.task_default_queue = worker.queue  # read by the router at each send
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("CELERY_QUEUE", worker.queue)  # for a process the test starts
            yield proc
    finally:
        app.conf.task_default_queue = default_queue
    worker.settle(offset)


@pytest.fixture
def shared_celery_worker_stopped(shared_celery_worker):
    shared_celery_worker.stop()


@pytest.fixture
def fresh_celery_worker(shared_celery_worker_stopped, celery_worker):
    """`celery_worker` started anew for this test (its log begins with a new banner): stopped
    before `celery_worker` starts it, so it starts once."""
    return celery_worker


def htmx_settled(page) -> None:
    """Until the page's scripts ran and no htmx request, swap or settle is under way: content
    htmx swapped in is live (its hx-* attributes processed) only after it settled, and a key or
    click before that is lost (as is a key pressed before a deferred script added its listener:
    the element waited for can be parsed before the scripts ran)."""
    page.wait_for_function(
        "document.readyState === 'complete'"
        " && !document.querySelector('.htmx-request, .htmx-settling, .htmx-swapping')"
    )


def wait_for_a_blocked_transaction(tenant: str, timeout: float = 120.0) -> list[str]:
    """Until some transaction of `tenant` (its query's $tenant) waits on a lock: a test of a race
    then knows its second writer is waiting, however busy the machine (a sleep only hopes so);
    another test's transactions, in another tenant, do not count."""
    from apps.graph.connection import graph_driver

    def blocked() -> list[str]:
        with graph_driver().session() as session:
            rows = session.run(
                "SHOW TRANSACTIONS YIELD status, parameters WHERE status STARTS WITH 'Blocked'"
                " AND parameters.tenant = $tenant RETURN status",
                tenant=tenant,
            )
            return [r["status"] for r in rows]

    return wait_for(blocked, timeout=timeout, interval=0.1,
                    message="no transaction came to wait on the lock")  # fmt: skip


# --- A real browser ----------------------------------------------------------------------------


BROWSER_WAIT_MS = 180_000


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    from playwright.sync_api import expect

    context = browser.new_context()
    # Playwright waits 5-30 s by default; a page or a swap on a machine at load 30 takes longer.
    # Waits return as soon as their state is reached, so a generous bound costs nothing.
    context.set_default_timeout(BROWSER_WAIT_MS)
    context.set_default_navigation_timeout(BROWSER_WAIT_MS)
    expect.set_options(timeout=BROWSER_WAIT_MS)
    page = context.new_page()
    page.console_errors = []
    page.on(
        "console", lambda msg: page.console_errors.append(msg.text) if msg.type == "error" else None
    )
    page.on("pageerror", lambda exc: page.console_errors.append(str(exc)))
    yield page
    context.close()


def screenshot(page, name: str, *, full_page: bool = False) -> Path:
    """Save the page (the window, or `full_page`) as the browser tests' artifact `name`.png: in
    $BROWSER_ARTIFACTS_DIR, by default .local/browser-artifacts (CI uploads the folder)."""
    folder = Path(os.environ.get("BROWSER_ARTIFACTS_DIR", ROOT / ".local" / "browser-artifacts"))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


def nav_click(page, label: str) -> None:
    """Follow the top menu's link named `label`, opening its group first as a person would."""
    link = page.locator("nav.mainnav a").get_by_text(label, exact=True)
    group = link.locator("xpath=ancestor::details[1]")
    if group.count() and not group.evaluate("d => d.open"):
        group.locator("summary").click()
    href = link.evaluate("a => a.href")
    link.click()
    # The click only starts the navigation: wait for the new page before the caller reads it.
    page.wait_for_url(href)


def browser_login(page, live_server, user) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", user.raw_password)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
