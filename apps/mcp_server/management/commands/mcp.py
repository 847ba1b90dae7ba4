"""`manage.py mcp --key-env ANAMNESIS_API_KEY [--profile default]`: the MCP server over stdio, for desktop hosts
that start it as a subprocess. The key is read from the environment (never from the command
line, which other users of the machine can see) and checked at start and at every call."""

from __future__ import annotations

import os

from django.core.management.base import BaseCommand, CommandError
from rest_framework.exceptions import APIException

from apps.mcp_server.key_scopes import scope_of_key
from apps.mcp_server.profiles import DEFAULT_PROFILE, PROFILES
from apps.mcp_server.tools import mcp_server


class Command(BaseCommand):
    help = "Serve the memory as MCP tools over stdio, as the API key in --key-env allows."

    def add_arguments(self, parser):
        parser.add_argument(
            "--key-env", default="ANAMNESIS_API_KEY",
            help="the environment variable that holds the API key (default ANAMNESIS_API_KEY)",
        )  # fmt: skip
        parser.add_argument(
            "--profile", default=DEFAULT_PROFILE, choices=list(PROFILES),
            help=f"the tools to offer (default {DEFAULT_PROFILE}; see docs/reference/mcp.md)",
        )  # fmt: skip

    def handle(self, *args, key_env: str, profile: str, **options):
        raw_key = os.environ.get(key_env, "").strip()
        if not raw_key:
            raise CommandError(f"Set {key_env} to an API key of the tenant.")
        try:
            scope = scope_of_key(raw_key)
        except APIException as exc:
            raise CommandError(f"{key_env}: {exc.detail}") from None
        # stdout carries the protocol: anything said goes to stderr.
        self.stderr.write(f"MCP over stdio for tenant {scope.tenant} as {scope.actor}, "
                          f"profile {profile}")  # fmt: skip
        mcp_server(api_key=raw_key, profile=profile).run("stdio")
