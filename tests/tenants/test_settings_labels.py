"""Every tenant setting has a group, a label in words, a unit where it is a number, and a
sentence of help; the console shows those, grouped, and no raw snake_case name as a label."""

import re

from django.conf import settings
from django.test import Client

from apps.tenants.models import Role
from apps.tenants.settings_labels import GROUPS, LABELS
from apps.tenants.tenant_settings import rule_for


def test_every_setting_has_a_label_group_unit_and_help():
    assert set(LABELS) == set(settings.TENANT_DEFAULTS)
    for name, label in LABELS.items():
        assert label.group in GROUPS and label.help.endswith("."), name
        assert "_" not in label.label and label.label[0].isupper(), name
        if rule_for(name).kind is not str:
            assert label.unit, f"{name} is a number with no unit"


def test_the_settings_page_shows_labels_by_group(tenant, make_person):
    admin = make_person(tenant, Role.ADMIN)
    client = Client()
    client.login(username=admin.username, password=admin.raw_password)
    html = client.get(f"/console/{tenant.slug}/settings").content.decode()
    labels = re.findall(r'<label for="s-[a-z_]+">([^<]+)</label>', html)
    assert len(labels) == len(settings.TENANT_DEFAULTS)
    assert not [text for text in labels if "_" in text]
    groups = re.findall(r'<h3 id="settings-\d+">([^<]+)</h3>', html)
    assert groups[0] == "Matching and review" and len(groups) == len(set(groups)) >= 5
    assert "Merge on its own at" in html and "P(same)" in html


def test_the_console_audit_links_members_keys_and_settings(tenant, make_person):
    from django.contrib.auth import get_user_model

    admin = make_person(tenant, Role.ADMIN)
    get_user_model().objects.create_user("dora", password="pw-dora-4321")
    client = Client()
    client.login(username=admin.username, password=admin.raw_password)
    console = f"/console/{tenant.slug}"
    client.post(f"{console}/members/invite", {"username": "dora", "role": "viewer"})
    client.post(f"{console}/settings", {"merge_threshold": "0.97"})
    followed = client.post(f"{console}/settings", {"merge_threshold": "0.98"}, follow=True)
    assert "1 setting changed." in followed.content.decode()
    html = client.get(f"{console}/audit").content.decode()
    assert f'<a href="{console}/members">dora</a>' in html
    assert f'<a href="{console}/settings">Merge on its own at</a>' in html
    assert "<code>user:dora</code>" not in html
