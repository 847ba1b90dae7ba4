"""uvicorn's access log names no conversation user or session (issue 38)."""

from __future__ import annotations

import logging

from memoryproject.access_log import PersonalPathsHidden, path_redacted


def test_users_and_sessions_are_hidden_in_paths_and_queries():
    assert path_redacted("/api/v1/users/ann/sessions/main/messages?before=3") == (
        "/api/v1/users/~/sessions/~/messages?before=3"
    )
    assert path_redacted("/conversations/?user=ann%40x&page=2") == "/conversations/?user=~&page=2"
    assert path_redacted("/api/v1/tasks/t-1/claim") == "/api/v1/tasks/t-1/claim"


def test_the_service_puts_the_filter_on_uvicorns_access_log():
    import memoryproject.asgi  # noqa: F401  (the service's entry point)

    logger = logging.getLogger("uvicorn.access")
    assert any(isinstance(f, PersonalPathsHidden) for f in logger.filters)
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1,
                               '%s - "%s %s HTTP/%s" %d', ("127.0.0.1:5", "GET",
                               "/api/v1/users/bob/sessions/s1/context", "1.1", 200), None)  # fmt: skip
    assert logger.filters[0].filter(record)
    assert "bob" not in record.getMessage() and "/users/~/sessions/~/" in record.getMessage()
