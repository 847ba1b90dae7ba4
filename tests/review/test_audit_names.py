"""The audit of decisions names the entities, linked to their pages, instead of raw uids, and
says how many edges moved in words with the right plural."""

import re

from django.test import Client

from apps.tenants.models import AuditEvent, Role
from tests.conftest import scope_for
from tests.review.review_fixtures import anthropic_pair, pending_pairs


def test_the_audit_links_names_not_uids(tenant, make_person):
    anthropic_pair(scope_for(tenant))
    [pair] = pending_pairs(scope_for(tenant))
    reviewer = make_person(tenant, Role.REVIEWER)
    client = Client()
    client.login(username=reviewer.username, password=reviewer.raw_password)
    client.post(f"/review/pairs/{pair['uid']}/confirm", HTTP_HX_REQUEST="true")
    client.post("/review/undo-last", HTTP_HX_REQUEST="true")
    html = client.get("/review/audit/").content.decode()
    confirm = AuditEvent.objects.get(tenant=tenant, action="review.confirm").details
    row = html.split('data-action="review.confirm"', 1)[1].split("</tr>", 1)[0]
    cell = re.search(r'<td data-target="[^"]*" title="[^"]*">(.*?)</td>', row).group(1)
    assert f'<a href="/entities/{confirm["survivor_uid"]}/">{confirm["survivor_name"]}</a>' in cell
    assert confirm["merged_name"] in cell and "<code>" not in cell
    moved = confirm["moved"]
    assert f"{moved} edge{'' if moved == 1 else 's'} moved" in row
    undo = html.split('data-action="merge.undo"', 1)[1].split("</tr>", 1)[0]
    assert "<code>" not in undo and "back out of" in undo
