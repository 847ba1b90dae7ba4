"""Background work of the tenant console: thin tasks that call one service each (the data
page's export, import and deletion are apps/tenant_data/tasks.py)."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="tenants.usage_sample")
def usage_sample() -> int:
    from apps.tenants.usage import usage_samples_record

    return usage_samples_record()
