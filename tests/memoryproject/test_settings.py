"""Settings: what the service writes locally is private from the start."""

from __future__ import annotations

import os
import stat
import subprocess
import sys

from tests.conftest import ROOT

SCRIPT = """
import django
django.setup()
from django.db import connection
connection.ensure_connection()
connection.cursor().execute("CREATE TABLE t (x)")
from apps.graph.local_neo4j import local_password
local_password()
"""


def test_local_files_are_created_private(tmp_path):
    data = tmp_path / "data"
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"SQLITE_PATH", "DATABASE_URL", "DJANGO_SECRET_KEY"}
    }
    env.update(ANAMNESIS_DATA_DIR=str(data), DJANGO_SETTINGS_MODULE="memoryproject.settings")
    subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, check=True, timeout=120)
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    files = [data / "secret_key", data / "db.sqlite3", data / "neo4j" / "password"]
    for path in files:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    assert stat.S_IMODE((data / "staticfiles").stat().st_mode) == 0o700


PRINT_TLS = """
import django
django.setup()
from django.conf import settings as s
print(s.SECURE_PROXY_SSL_HEADER, s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE,
      s.CSRF_COOKIE_SECURE, s.SECURE_HSTS_SECONDS, s.CSRF_TRUSTED_ORIGINS, s.THROTTLE_RATES["key"])
"""


def test_tls_proxy_settings_come_from_the_environment(tmp_path):
    env = {**os.environ, "ANAMNESIS_DATA_DIR": str(tmp_path), "DJANGO_SETTINGS_MODULE":
           "memoryproject.settings"}  # fmt: skip
    plain = subprocess.run([sys.executable, "-c", PRINT_TLS], cwd=ROOT, env=env, check=True,
                           capture_output=True, text=True, timeout=120).stdout  # fmt: skip
    assert plain.split() == ["None", "False", "False", "False", "0", "[]", "20000/minute"]
    env.update(
        DJANGO_SECURE_PROXY_SSL_HEADER="true", DJANGO_SECURE_SSL_REDIRECT="true",
        DJANGO_SECURE_COOKIES="true", DJANGO_HSTS_SECONDS="31536000",
        DJANGO_CSRF_TRUSTED_ORIGINS="https://memory.example.org", THROTTLE_KEY_RATE="5/second",
    )  # fmt: skip
    behind = subprocess.run([sys.executable, "-c", PRINT_TLS], cwd=ROOT, env=env, check=True,
                            capture_output=True, text=True, timeout=120).stdout  # fmt: skip
    assert behind.split() == [
        "('HTTP_X_FORWARDED_PROTO',", "'https')", "True", "True", "True", "31536000",
        "['https://memory.example.org']", "5/second",
    ]  # fmt: skip


PRINT_DATABASE = """
import django
django.setup()
from django.conf import settings as s
d = s.DATABASES["default"]
print(repr((d["ENGINE"], d["NAME"], d["USER"], d["PASSWORD"], d["HOST"], d["PORT"],
            d["CONN_MAX_AGE"], d["CONN_HEALTH_CHECKS"], d["OPTIONS"], d["TEST"]["NAME"])))
"""


def test_database_url_selects_postgresql_with_its_options(tmp_path):
    env = {**os.environ, "ANAMNESIS_DATA_DIR": str(tmp_path), "DJANGO_SETTINGS_MODULE":
           "memoryproject.settings", "DATABASE_URL": "postgres://memory:p%40ss%2Fw@db.internal:6543/"
           "anamnesis?sslmode=verify-full&connect_timeout=5", "DATABASE_CONN_MAX_AGE": "60"}  # fmt: skip
    env.pop("DATABASE_TEST_NAME", None)
    out = subprocess.run([sys.executable, "-c", PRINT_DATABASE], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True, timeout=120).stdout  # fmt: skip
    assert eval(out) == (  # noqa: S307 - our own repr of plain values
        "django.db.backends.postgresql", "anamnesis", "memory", "p@ss/w", "db.internal", "6543",
        60, True, {"sslmode": "verify-full", "connect_timeout": "5"}, None,
    )  # fmt: skip
    # A unix socket's directory in the query; no connection kept across ASGI requests by default.
    env.update(DATABASE_URL="postgresql:///anamnesis?host=/run/postgresql")
    env.pop("DATABASE_CONN_MAX_AGE")
    out = subprocess.run([sys.executable, "-c", PRINT_DATABASE], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True, timeout=120).stdout  # fmt: skip
    assert eval(out)[1:7] == ("anamnesis", "", "", "/run/postgresql", "5432", 0)  # noqa: S307
