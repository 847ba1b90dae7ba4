"""A throwaway tenant for a benchmark: the graph schema installed, SQLite migrated, a tenant with
an API key of every scope, and its Scope. Import it after django.setup()."""

from __future__ import annotations

import uuid

from django.core.management import call_command

from apps.graph.schema import schema_install
from apps.graph.scope import Scope
from apps.tenants import services as tenant_services


def bench_tenant():
    """(tenant, raw API key, Scope) of a new tenant named bench-<random>."""
    schema_install()
    call_command("migrate", "--noinput", verbosity=0)
    slug = f"bench-{uuid.uuid4().hex[:8]}"
    tenant = tenant_services.tenant_create(slug=slug, name=slug, settings={})
    _, key = tenant_services.api_key_issue(tenant=tenant, name="bench", scopes=None)
    return tenant, key, Scope(tenant=tenant.uid, actor="bench", actor_kind="system")
