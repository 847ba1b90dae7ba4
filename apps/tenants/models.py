"""Relational side of tenancy: tenants, people's roles, agents' API keys, jobs and the audit."""

import uuid

from django.conf import settings
from django.db import models
from rest_framework_api_key.models import AbstractAPIKey


def _uid() -> str:
    return uuid.uuid4().hex


class Tenant(models.Model):
    uid = models.CharField(max_length=32, unique=True, default=_uid, editable=False)
    slug = models.SlugField(max_length=50, unique=True)
    name = models.CharField(max_length=200)
    # Overrides of settings.TENANT_DEFAULTS (thresholds, input limits).
    settings = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.slug

    def setting(self, name: str):
        return self.settings.get(name, settings.TENANT_DEFAULTS.get(name))

    def effective_settings(self) -> dict:
        return {**settings.TENANT_DEFAULTS, **self.settings}


class Role(models.TextChoices):
    ADMIN = "admin", "Admin"
    REVIEWER = "reviewer", "Reviewer"
    VIEWER = "viewer", "Viewer"


ROLE_RANK = {Role.VIEWER: 1, Role.REVIEWER: 2, Role.ADMIN: 3}


class Membership(models.Model):
    """A person's role in one tenant."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.VIEWER)
    granted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "tenant"], name="one_role_per_tenant")
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.role} @ {self.tenant}"

    def at_least(self, role: str) -> bool:
        return ROLE_RANK[self.role] >= ROLE_RANK[role]


class KeyScope(models.TextChoices):
    MEMORY_READ = "memory:read", "Read memory"
    MEMORY_WRITE = "memory:write", "Write memory"
    REVIEW = "review", "Decide reviews"
    ADMIN = "admin", "Administer (erasure)"


class TenantAPIKey(AbstractAPIKey):
    """An agent's key: one tenant, hashed at rest by djangorestframework-api-key, shown once."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="api_keys")
    scopes = models.JSONField(default=list)
    last_used_at = models.DateTimeField(null=True, blank=True)
    created_by = models.CharField(max_length=200, blank=True)  # the actor who issued it

    class Meta(AbstractAPIKey.Meta):
        verbose_name = "API key"
        verbose_name_plural = "API keys"


class JobStatus(models.TextChoices):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"


class Job(models.Model):
    """Long work (ingestion, promotion, erasure) with visible progress."""

    uid = models.CharField(max_length=32, unique=True, default=_uid, editable=False)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="jobs")
    kind = models.CharField(max_length=40)
    subject = models.CharField(max_length=200, blank=True)  # what it works on (a document uid...)
    status = models.CharField(max_length=10, choices=JobStatus.choices, default=JobStatus.QUEUED)
    progress = models.JSONField(default=dict, blank=True)
    result = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True)
    actor = models.CharField(max_length=200, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["tenant", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.kind} {self.uid} {self.status}"


class AuditEvent(models.Model):
    """Who did what, when: human decisions and admin actions. Never the erased content itself."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="audit_events")
    actor = models.CharField(max_length=200)
    actor_kind = models.CharField(max_length=10)
    action = models.CharField(max_length=60)
    target = models.CharField(max_length=200, blank=True)
    details = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        indexes = [models.Index(fields=["tenant", "-at"])]
        ordering = ["-at"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor} {self.action} {self.target}"


class TenantDeletion(models.Model):
    """A whole tenant's deletion: the job (status, progress) and, once the tenant is gone, the
    site-level record that it was deleted, by whom, and the scan proving nothing of it is left.
    Site-level on purpose: it outlives the tenant, its jobs and its audit trail."""

    uid = models.CharField(max_length=32, unique=True, default=_uid, editable=False)
    tenant_uid = models.CharField(max_length=32, db_index=True)
    tenant_slug = models.CharField(max_length=50)
    requested_by = models.CharField(max_length=200)
    status = models.CharField(max_length=10, choices=JobStatus.choices, default=JobStatus.QUEUED)
    progress = models.JSONField(default=dict, blank=True)
    scan = models.JSONField(default=dict, blank=True)  # tenant_scan() after the deletion
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"deletion of {self.tenant_slug} {self.status}"


class UsageSample(models.Model):
    """A tenant's counts in one hour (the last reading of that hour): the console's usage over
    time. Sampled by a beat task (apps.tenants.usage), kept for USAGE_KEEP_DAYS."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="usage_samples")
    hour = models.DateTimeField()
    documents = models.PositiveIntegerField(default=0)
    entities = models.PositiveIntegerField(default=0)
    messages = models.PositiveIntegerField(default=0)
    pending_reviews = models.PositiveIntegerField(default=0)
    jobs_running = models.PositiveIntegerField(default=0)
    jobs_failed = models.PositiveIntegerField(default=0)
    taken_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tenant", "hour"], name="usage_sample_one_per_hour")
        ]
        ordering = ["-hour"]

    def __str__(self) -> str:
        return f"{self.tenant_id} {self.hour:%Y-%m-%d %H:00}"
