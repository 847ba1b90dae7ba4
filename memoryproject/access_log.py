"""The web server's access log without the people it serves: a conversation's user and session
are path segments (`/api/v1/users/{user}/sessions/{sid}/...`) and a page's `?user=`, so uvicorn's
access log named every user an agent wrote for, and kept them after an erasure (issue 38). The
filter below, put on uvicorn's access logger by memoryproject.asgi, writes `~` for them."""

from __future__ import annotations

import logging
import re

HIDDEN = "~"
PERSONAL = re.compile(r"(/users/|/sessions/|[?&](?:user|session)=)[^/?&#\s\"]+")


def path_redacted(path: str) -> str:
    return PERSONAL.sub(lambda m: m.group(1) + HIDDEN, path)


class PersonalPathsHidden(logging.Filter):
    """Rewrites the path argument of uvicorn's access records ((client, method, path, http
    version, status)), and the message of any other record given to it."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and len(record.args) >= 3:
            args = list(record.args)
            args[2] = path_redacted(str(args[2]))
            record.args = tuple(args)
        elif isinstance(record.msg, str) and not record.args:
            record.msg = path_redacted(record.msg)
        return True


def access_log_redact(logger_name: str = "uvicorn.access") -> None:
    """Put the filter on the access logger once (idempotent)."""
    logger = logging.getLogger(logger_name)
    if not any(isinstance(f, PersonalPathsHidden) for f in logger.filters):
        logger.addFilter(PersonalPathsHidden())
