"""Inviting by email: an address nobody has makes an account with a one-time set-password link
(Django's token), shown to the admin and mailed when mail is configured; the link sets the
password once and logs its owner in; the invite form starts at the viewer role."""

import re
from html import unescape

from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client, override_settings

from apps.tenants.models import AuditEvent, Membership, Role


def login(person) -> Client:
    client = Client()
    client.login(username=person.username, password=person.raw_password)
    return client


def invite_link(html: str) -> str:
    found = re.search(r'id="invite-link" readonly value="([^"]+)"', html)
    assert found, html
    return unescape(found.group(1))


def test_an_email_invite_makes_the_account_and_its_link_works_once(tenant, make_person):
    admin = make_person(tenant, Role.ADMIN)
    client = login(admin)
    url = f"/console/{tenant.slug}/members"
    form = client.get(url).content.decode()
    assert '<option value="viewer" selected>' in form

    answer = client.post(f"{url}/invite", {"username": "Ada@Example.org", "role": "viewer"})
    assert answer.status_code == 200 and answer["Cache-Control"] == "no-store"
    html = answer.content.decode()
    assert "no mail is configured" in html and mail.outbox == []
    link = invite_link(html)
    assert link.startswith("http://testserver/accounts/set-password/")
    user = get_user_model().objects.get(username="Ada@Example.org")
    assert user.email == "Ada@example.org" and not user.has_usable_password()
    assert Membership.objects.get(tenant=tenant, user=user).role == Role.VIEWER
    event = AuditEvent.objects.get(tenant=tenant, action="member.invited")
    assert event.details == {"role": "viewer", "account_created": True}

    newcomer = Client()
    shown = newcomer.get(link, follow=True)  # Django moves the token out of the URL first
    assert b"Set your password" in shown.content and b"Ada@Example.org" in shown.content
    form_url = shown.redirect_chain[-1][0]
    short = newcomer.post(form_url, {"new_password1": "abc", "new_password2": "abc"})
    assert short.status_code == 200 and b"too short" in short.content
    done = newcomer.post(
        form_url, {"new_password1": "a-long-pass-9481", "new_password2": "a-long-pass-9481"}
    )
    assert done.status_code == 302 and done["Location"] == "/"
    assert newcomer.get("/").status_code == 200  # logged in, as a viewer of the tenant
    assert Client().login(username="Ada@Example.org", password="a-long-pass-9481")

    again = Client().get(link, follow=True)
    assert b"used already or has expired" in again.content
    assert b"new_password1" not in again.content


@override_settings(EMAIL_HOST="smtp.example.org")
def test_the_link_is_mailed_when_mail_is_configured(tenant, make_person):
    client = login(make_person(tenant, Role.ADMIN))
    answer = client.post(
        f"/console/{tenant.slug}/members/invite", {"username": "bo@example.org", "role": "reviewer"}
    )
    link = invite_link(answer.content.decode())
    assert "also mailed" in answer.content.decode()
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["bo@example.org"]
    assert link in mail.outbox[0].body and tenant.name in mail.outbox[0].subject


def test_an_existing_account_is_found_by_email_and_gets_no_link(tenant, make_person):
    client = login(make_person(tenant, Role.ADMIN))
    get_user_model().objects.create_user("cy", email="cy@example.org", password="pw-cy-98765")
    answer = client.post(
        f"/console/{tenant.slug}/members/invite", {"username": "CY@example.org", "role": "viewer"}
    )
    assert answer.status_code == 200 and 'id="invite-link"' not in answer.content.decode()
    assert Membership.objects.filter(tenant=tenant, user__username="cy").exists()
    assert get_user_model().objects.filter(email__iexact="cy@example.org").count() == 1


def test_a_bad_address_or_unknown_username_is_refused_by_field(tenant, make_person):
    client = login(make_person(tenant, Role.ADMIN))
    url = f"/console/{tenant.slug}/members/invite"
    bad = client.post(url, {"username": "not@an@address", "role": "viewer"})
    assert bad.status_code == 400 and b"not a valid email address" in bad.content
    unknown = client.post(url, {"username": "ghost", "role": "viewer"})
    assert unknown.status_code == 404 and b"invite an email address" in unknown.content
    assert not get_user_model().objects.filter(username__in=["not@an@address", "ghost"]).exists()


def test_a_mail_server_that_refuses_leaves_the_link_shown(tenant, make_person):
    import socket

    with socket.socket() as probe:  # a local port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    smtp = "django.core.mail.backends.smtp.EmailBackend"
    client = login(make_person(tenant, Role.ADMIN))
    with override_settings(EMAIL_HOST="127.0.0.1", EMAIL_PORT=port, EMAIL_BACKEND=smtp,
                           EMAIL_USE_TLS=False, EMAIL_TIMEOUT=5):  # fmt: skip
        answer = client.post(
            f"/console/{tenant.slug}/members/invite",
            {"username": "eve@example.org", "role": "viewer"},
        )
    assert answer.status_code == 200 and "mailing it failed" in answer.content.decode()
    assert invite_link(answer.content.decode()).startswith("http://testserver/accounts/")
