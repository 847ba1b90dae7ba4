"""The delivered messages the SQLite broker keeps, deleted.

kombu's SQLAlchemy transport marks a message it delivered invisible (`visible = 0`) and never
deletes it, so the broker's file kept every task ever run, with its arguments: tenants, job
uids, and the user of each conversation erasure (issue 38). A delivered message is of no more use
to kombu (an unacknowledged one is put back as a new row when its worker stops), so the erasure
task purges them once it is done, and beat does every ten minutes. Redis deletes a message
when it is acknowledged: nothing to do there."""

from __future__ import annotations

import functools
import re

from django.conf import settings

PREFIX = "sqla+"


@functools.cache
def _engine(url: str):
    from sqlalchemy import create_engine

    return create_engine(url)


def delivered_messages_purge() -> int:
    """Delete the broker's delivered messages; how many (0 for a broker other than SQL)."""
    from sqlalchemy import inspect, text

    url = settings.CELERY_BROKER_URL
    if not url.startswith(PREFIX):
        return 0
    table = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("message_table_name", "kombu_message")
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", table):
        raise ValueError(f"Not a table name: {table!r}")
    engine = _engine(url.removeprefix(PREFIX))
    if not inspect(engine).has_table(table):  # no message was ever sent
        return 0
    with engine.begin() as connection:
        return connection.execute(text(f"DELETE FROM {table} WHERE visible = 0")).rowcount  # noqa: S608
