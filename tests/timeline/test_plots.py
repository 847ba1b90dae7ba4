"""Plots with their numbers: an entity's values over time (its timeline) and an agent's trust
over the last days (its page, linked from the entries it wrote), server-rendered SVG bars."""

from __future__ import annotations

import re

from django.test import Client

from apps.graph import cypher
from apps.lessons.services.episodes import check_entry_record, check_episode_open
from apps.tenants.models import Role
from apps.timeline.impact import check_entry_invalidate
from apps.timeline.services import check_rows_write
from tests.timeline.conftest import row


def viewer_client(tenant, make_person) -> Client:
    viewer = make_person(tenant, Role.VIEWER)
    client = Client()
    client.login(username=viewer.username, password=viewer.raw_password)
    return client


def bar_values(html: str, plot_id: str) -> list[str]:
    figure = html.split(f'id="{plot_id}"', 1)[1].split("</figure>", 1)[0]
    return re.findall(r'<rect class="bar"[^>]* data-value="([^"]*)"', figure)


def test_an_entity_timeline_plots_each_numeric_value(kinds, tenant, make_person):
    check_rows_write(kinds, rows=[
        row("d1", "2026-01-01T00:00:00Z", status="ok", temp=20.5, count=1),
        row("d1", "2026-01-02T00:00:00Z", status="warm", temp=25.0),
        row("d1", "2026-01-03T06:30:00Z", status="hot", temp=31.25, count=4),
    ])  # fmt: skip
    uid = cypher.read(kinds, "MATCH (e:Entity {tenant: $tenant, kind: 'Device', key: 'd1'}) "
                      "RETURN e.uid AS uid")[0]["uid"]  # fmt: skip
    html = viewer_client(tenant, make_person).get(f"/entities/{uid}/timeline").content.decode()
    assert bar_values(html, "entity-values-temp") == ["20.5", "25.0", "31.25"]
    assert bar_values(html, "entity-values-count") == ["1", "0", "4"]
    assert "no value" in html.split('id="entity-values-count"', 1)[1]  # the table says so
    assert 'id="entity-values-status"' not in html  # text is not plotted
    assert "01-03 06:30" in html


def test_an_agents_page_plots_its_trust_over_time(kinds, tenant, make_person):
    # A version written long before the window (it still holds) and, today, two entries, one
    # of them marked wrong: before today only the version counts, today both kinds do.
    check_rows_write(kinds, rows=[row("d1", "2026-01-01T00:00:00Z", status="ok")])
    episode = check_episode_open(kinds, title="look")["id"]
    check_entry_record(kinds, episode=episode, type="look")
    bad = check_entry_record(kinds, episode=episode, type="look")["id"]
    check_entry_invalidate(kinds, entry=bad)
    client = viewer_client(tenant, make_person)
    episode_page = client.get(f"/memory/episodes/{episode}").content.decode()
    assert f'href="/memory/agents/{kinds.actor}"' in episode_page

    html = client.get(f"/memory/agents/{kinds.actor}", {"days": "7"}).content.decode()
    now = (2 / 3 + 0.5) / 2  # versions (1 + 1) / 3, entries (1 + 1) / 4
    assert f'id="trust-score">{now:.3f}<' in html
    assert bar_values(html, "trust-over-time") == ["0.667"] * 6 + [f"{now:.3f}"]
    table = html.split('id="trust-over-time"', 1)[1]
    assert "no evidence yet" not in table and f"{now:.3f}" in table
    assert 'id="trust-none"' not in html
    nobody = client.get("/memory/agents/agent:nobody").content.decode()
    assert 'id="trust-none"' in nobody and "no evidence yet</span>" in nobody
    assert nobody.split('id="trust-over-time"', 1)[1].count("no evidence yet") == 30
