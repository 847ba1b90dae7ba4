"""One Neo4j driver per process, configured from settings (never at import time)."""

from __future__ import annotations

import os
import threading
from urllib.parse import quote, unquote, urlparse

from django.conf import settings
from neo4j import GraphDatabase
from neomodel import db

_lock = threading.Lock()
_connected_pid: int | None = None


def graph_url() -> str:
    """The Bolt URL with credentials: NEO4J_BOLT_URL when set, else the local Neo4j's."""
    if settings.NEO4J_BOLT_URL:
        url = settings.NEO4J_BOLT_URL
        parsed = urlparse(url)
        if parsed.username is None and os.environ.get("NEO4J_PASSWORD"):
            user = quote(os.environ.get("NEO4J_USER", "neo4j"))
            password = quote(os.environ["NEO4J_PASSWORD"], safe="")
            url = url.replace("://", f"://{user}:{password}@", 1)
        return url
    from apps.graph import local_neo4j

    password = quote(local_neo4j.local_password(), safe="")
    return local_neo4j.bolt_url().replace("://", f"://neo4j:{password}@", 1)


def graph_connect(force: bool = False) -> None:
    """Point neomodel at the graph (neomodel talks to the server as it does). Called lazily on
    first use, never at import or app start, so commands run before Neo4j is up. Safe to call
    often; a forked process (a Celery worker) gets a driver of its own."""
    global _connected_pid
    with _lock:
        if not force and _connected_pid == os.getpid() and db.driver is not None:
            return
        url = urlparse(graph_url())
        auth = (unquote(url.username or "neo4j"), unquote(url.password or ""))
        address = url._replace(netloc=url.hostname + (f":{url.port}" if url.port else "")).geturl()
        # Our own driver so that server notifications (unknown labels in counts) stay quiet.
        driver = GraphDatabase.driver(
            address,
            auth=auth,
            notifications_min_severity="OFF",
            max_connection_pool_size=settings.NEO4J_MAX_CONNECTION_POOL_SIZE,
            connection_acquisition_timeout=settings.NEO4J_CONNECTION_ACQUISITION_TIMEOUT,
        )
        previous = db.driver
        db.set_connection(driver=driver)
        # A driver inherited through fork() is dropped, not closed: its sockets are the parent's.
        if previous is not None and _connected_pid == os.getpid():
            previous.close()
        _connected_pid = os.getpid()


def graph_driver():
    graph_connect()
    return db.driver
