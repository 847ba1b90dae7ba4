"""The relational database from a `DATABASE_URL` of PostgreSQL (docs/operations/scale-out.md)."""

import os
from urllib.parse import parse_qsl, unquote, urlparse


def postgres_database(url: str) -> dict:
    """Django's DATABASES entry for a postgres:// or postgresql:// URL."""
    # postgres://user:password@host:port/name?sslmode=require&...: the query's keys are libpq's
    # (sslmode, sslrootcert, connect_timeout, application_name, ...); `host=/dir` names a unix
    # socket's directory instead of a TCP host.
    pg = urlparse(url)
    options = dict(parse_qsl(pg.query))
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": unquote(pg.path.lstrip("/")),
        "USER": unquote(pg.username or ""),
        "PASSWORD": unquote(pg.password or ""),
        "HOST": options.pop("host", None) or pg.hostname or "",
        "PORT": str(pg.port or 5432),
        # Each request runs in a thread of its own under ASGI (uvicorn): a connection kept across
        # requests would be one per thread, never reused. Keep them only behind a pooler's
        # process model, e.g. DATABASE_CONN_MAX_AGE=60 for WSGI workers or Celery.
        "CONN_MAX_AGE": int(os.environ.get("DATABASE_CONN_MAX_AGE", "0")),
        "CONN_HEALTH_CHECKS": True,
        "OPTIONS": options,
        # The suite's database (created and dropped by the test runner): test_<name> by default.
        "TEST": {"NAME": os.environ.get("DATABASE_TEST_NAME") or None},
    }
