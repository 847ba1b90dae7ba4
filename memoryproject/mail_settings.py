"""Mail settings: only invitations send mail, and only with EMAIL_HOST set (else the console
shows the one-time link)."""

import os

EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
_TRUE = {"1", "true", "yes", "on"}
EMAIL_USE_TLS = os.environ.get("EMAIL_USE_TLS", "true").strip().lower() in _TRUE
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "anamnesis@localhost")
