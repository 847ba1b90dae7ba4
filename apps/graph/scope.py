"""The tenant scope every service and selector takes first: no graph query runs without one."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

ACTOR_KINDS = ("agent", "person", "system")


@dataclass(frozen=True)
class Scope:
    """Who acts (actor) for which tenant. `tenant` is the tenant's stable uid, stored on nodes."""

    tenant: str
    actor: str
    actor_kind: str = "agent"
    permissions: frozenset[str] = frozenset()
    settings: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        if not self.tenant or not isinstance(self.tenant, str):
            raise ValueError("A scope needs a tenant uid")
        if self.actor_kind not in ACTOR_KINDS:
            raise ValueError(f"actor_kind must be one of {ACTOR_KINDS}")

    def allows(self, permission: str) -> bool:
        return permission in self.permissions

    def setting(self, name: str) -> Any:
        from django.conf import settings as django_settings

        return self.settings.get(name, django_settings.TENANT_DEFAULTS.get(name))
