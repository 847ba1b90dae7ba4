"""Waiting for a state in tests: poll it, bounded, never sleep a fixed time."""

from __future__ import annotations

import time

import pytest


def wait_for(predicate, *, timeout: float = 120.0, interval: float = 0.3, message: str = ""):
    """Poll until predicate() is truthy; fail the test with `message` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    pytest.fail(message or f"condition not met within {timeout}s")
