"""`manage.py demo_setup` (without data): the login URL it prints is where bin/run-local serves."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def test_a_new_key_names_the_port_the_service_runs_on(monkeypatch):
    monkeypatch.setenv("PORT", "8011")
    out = StringIO()
    call_command("demo_setup", "--new-key", stdout=out)
    printed = out.getvalue()
    assert "Log in at http://127.0.0.1:8011/accounts/login/" in printed
    assert "API key: " in printed and "issued earlier" not in printed
    out = StringIO()
    call_command("demo_setup", "--url", "http://memory.example.org", stdout=out)
    assert "Log in at http://memory.example.org/accounts/login/" in out.getvalue()
