"""A tenant's settings (thresholds, limits) as its admins change them: each value checked against
its kind and bounds, only real changes written, one audit entry per changed setting. A value
equal to the default is stored as no override, so a later change of the default applies."""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.conf import settings as django_settings
from django.db import transaction

from apps.graph.scope import Scope
from apps.tenants.models import Tenant
from apps.tenants.services import audit_record
from apps.tenants.settings_labels import GROUPS, label_for
from memoryproject.api_errors import ApplicationError

MAX_TEXT_CHARS = 100
MAX_NUMBER = 1_000_000_000


@dataclass(frozen=True)
class Rule:
    kind: type  # int, float or str
    low: float = 0
    high: float = MAX_NUMBER
    help: str = ""

    def choices(self, name: str) -> list[str]:
        if name == "knowledge_extractor":
            return sorted(django_settings.KNOWLEDGE_EXTRACTORS)
        if name == "entry_extractor":
            return sorted(django_settings.ENTRY_EXTRACTORS)
        return []


RULES = {
    "merge_threshold": Rule(float, 0.5, 1.0, "match probability at which entities merge alone"),
    "review_threshold": Rule(float, 0.0, 1.0, "from here up to merge: a reviewer decides"),
    "sole_name_merges": Rule(int, 0, 1, "1: a sole place or firm name merges"),
    "max_document_bytes": Rule(int, 1, 50_000_000, "largest document accepted"),
    "max_inline_document_bytes": Rule(int, 0, 1_000_000, "largest document ingested inline"),
    "max_message_chars": Rule(int, 1, 1_000_000, "longest conversation message"),
    "max_facts_per_request": Rule(int, 1, 10_000, "entities and relations per facts request"),
    "summarize_waiting": Rule(int, 1, 10_000, "messages waiting before a summary runs"),
    "summary_keep_last": Rule(int, 0, 10_000, "newest messages kept out of the summary"),
    "lesson_threshold": Rule(int, 1, 10_000, "episodes a lesson needs"),
    "playbook_needs": Rule(int, 1, 10_000, "episodes a playbook needs when the caller says not"),
    "playbook_needs_floor": Rule(int, 1, 10_000, "fewest episodes a caller may ask a playbook for"),
    "knowledge_promotion_minutes": Rule(int, 1, 10_080, "minutes between promotions"),
    "knowledge_heat_threshold": Rule(float, 0.0, 1.0, "heat a chain needs to be promoted"),
    "knowledge_extractor": Rule(str, help="how facts are read from conversations"),
    "entry_extractor": Rule(str, help="how rows are read from the text of episode entries"),
    "graph_memory_mb": Rule(int, 0, 1_000_000, "memory one graph algorithm may need (MB)"),
    "similar_to_threshold": Rule(float, 0.0, 1.0, "cosine at which work-graph nodes are linked"),
    "similarity_settle_seconds": Rule(int, 0, 3600, "quiet seconds before SIMILAR_TO syncs"),
    "evidence_ga_floor": Rule(float, 0.0, 1.0, "goal alignment below which strength fades"),
}


def rule_for(name: str) -> Rule:
    # A setting added to TENANT_DEFAULTS without a rule here is bounded by its default's kind.
    if name in RULES:
        return RULES[name]
    default = django_settings.TENANT_DEFAULTS[name]
    return Rule(type(default) if type(default) in (int, float) else str)


def settings_rows(*, tenant: Tenant) -> list[dict]:
    """Each setting with its value, its default, whether it is overridden, its bounds, and how a
    person reads it (group, label, unit, help: apps/tenants/settings_labels.py), by group."""
    rows = []
    for name, default in django_settings.TENANT_DEFAULTS.items():
        rule = rule_for(name)
        shown = label_for(name, rule.help)
        rows.append(
            {
                "name": name,
                "value": tenant.settings.get(name, default),
                "default": default,
                "overridden": name in tenant.settings,
                "kind": rule.kind.__name__,
                "low": rule.low,
                "high": rule.high,
                "choices": rule.choices(name),
                "help": shown.help,
                "group": shown.group,
                "label": shown.label,
                "unit": shown.unit,
            }
        )
    return sorted(rows, key=lambda row: GROUPS.index(row["group"]))


def _parse(name: str, raw) -> object:
    rule = rule_for(name)
    text = str(raw).strip()
    if rule.kind is str:
        choices = rule.choices(name)
        if choices and text not in choices:
            raise ValueError(f"one of {', '.join(choices)}")
        if not text or len(text) > MAX_TEXT_CHARS:
            raise ValueError(f"1 to {MAX_TEXT_CHARS} characters")
        return text
    try:
        value = int(text) if rule.kind is int else float(text)
    except ValueError:
        raise ValueError(f"a {'whole ' if rule.kind is int else ''}number") from None
    if not math.isfinite(value) or not rule.low <= value <= rule.high:
        raise ValueError(f"between {rule.low:g} and {rule.high:g}")
    return value


def settings_parse(values: dict, *, current: dict) -> dict:
    """Every given setting parsed against its rule, and the review threshold below the merge
    threshold once `values` join the `current` overrides. Unknown names and bad values are
    refused together (`extra["errors"]`: name -> what is expected), the first one named as the
    field. The console's check and a tenant import's; returns {name: parsed value}."""
    defaults = django_settings.TENANT_DEFAULTS
    errors: dict[str, str] = {}
    parsed: dict[str, object] = {}
    for name, raw in values.items():
        if name not in defaults:
            errors[name] = "not a setting"
            continue
        try:
            parsed[name] = _parse(name, raw)
        except ValueError as problem:
            errors[name] = str(problem)
    effective = {**defaults, **current, **parsed}
    if "review_threshold" not in errors and "merge_threshold" not in errors:
        if effective["review_threshold"] >= effective["merge_threshold"]:
            errors["review_threshold"] = "below merge_threshold"
    if errors:
        first = next(iter(errors))
        raise ApplicationError(
            f"{first}: {errors[first]}.",
            field=first,
            limit=rule_for(first).high if first in defaults else None,
            extra={"errors": errors},
        )
    return parsed


def check_settings_update(scope: Scope, *, tenant: Tenant, values: dict) -> dict:
    """Check every given setting (`settings_parse`), then write the ones that changed, nothing
    if any is refused. Returns {name: (before, after)} of what changed."""
    defaults = django_settings.TENANT_DEFAULTS
    with transaction.atomic():
        current = Tenant.objects.select_for_update().get(pk=tenant.pk)
        parsed = settings_parse(values, current=current.settings)
        overrides = dict(current.settings)
        changes = {}
        for name, value in parsed.items():
            before = overrides.get(name, defaults[name])
            if value == before:
                continue
            changes[name] = (before, value)
            if value == defaults[name]:
                overrides.pop(name, None)
            else:
                overrides[name] = value
        if changes:
            current.settings = overrides
            current.save(update_fields=["settings"])
            for name, (before, after) in changes.items():
                audit_record(
                    scope,
                    action="settings.changed",
                    target=name,
                    details={"from": before, "to": after},
                )
    tenant.settings = current.settings
    return changes
