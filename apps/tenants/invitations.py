"""Inviting someone by email who has no account yet: the account is made without a password, and
a one-time link (Django's default token generator) lets its owner set one. The link is shown to
the admin who invited; when EMAIL_HOST is set it is mailed too. The token is bound to the
account's password hash, so it stops working once a password is set (and after
PASSWORD_RESET_TIMEOUT)."""

from __future__ import annotations

import logging
import smtplib

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db.models import Q
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from memoryproject.api_errors import ApplicationError, NotFoundError

log = logging.getLogger(__name__)


def looks_like_email(text: str) -> bool:
    return "@" in text


def invited_account(who: str):
    """The active account named `who` (a username, or an email address of one), or for an
    email address nobody has: a new account (username = the address, no usable password).
    Returns (user, created)."""
    users = get_user_model().objects.filter(is_active=True)
    if not looks_like_email(who):
        user = users.filter(username=who).first()
        if user is None:
            raise NotFoundError(
                "No active account has this username; invite an email address to create one.",
                field="username",
            )
        return user, False
    try:
        validate_email(who)
    except ValidationError:
        raise ApplicationError(
            "username: this is not a valid email address.", field="username"
        ) from None
    user = users.filter(Q(username__iexact=who) | Q(email__iexact=who)).order_by("pk").first()
    if user is not None:
        return user, False
    user = get_user_model().objects.create_user(username=who, email=who, password=None)
    return user, True


def needs_password(user) -> bool:
    return not user.has_usable_password()


def set_password_path(user) -> str:
    """The one-time link's path: /accounts/set-password/<uid>/<token>/."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    return reverse("set-password", kwargs={"uidb64": uid, "token": token})


def mail_configured() -> bool:
    return bool(getattr(settings, "EMAIL_HOST", ""))


def invite_mail_send(*, user, link: str, tenant_name: str) -> str:
    """Mail the link when mail is configured: "sent", "failed" (the mail server refused or is
    unreachable: logged, and the admin passes the link on) or "off"."""
    if not mail_configured() or not user.email:
        return "off"
    hours = settings.PASSWORD_RESET_TIMEOUT // 3600
    try:
        _send(user, link, tenant_name, hours)
    except (OSError, smtplib.SMTPException) as problem:
        log.warning("invitation mail to user %s failed: %s", user.pk, problem)
        return "failed"
    return "sent"


def _send(user, link: str, tenant_name: str, hours: int) -> None:
    send_mail(
        subject=f"You are invited to {tenant_name} on Anamnesis",
        message=(
            f"An admin of {tenant_name} invited you. Set your password here (the link works once,"
            f" for {hours} hours):\n\n{link}\n\nYour username is {user.username}."
        ),
        from_email=None,
        recipient_list=[user.email],
    )
