"""The lessons app's pages without a browser: an entry's text keeps its lines, as text."""

from __future__ import annotations

from apps.lessons.services.episodes import check_entry_record, check_episode_open
from apps.tenants.models import Role
from tests.conftest import scope_for


def test_an_entry_keeps_its_line_breaks_and_is_escaped(client, tenant, make_person):
    scope = scope_for(tenant)
    ep = check_episode_open(scope, title="round")["id"]
    # Rows from entries read `name: value` lines: the page shows them one a line.
    check_entry_record(scope, episode=ep, type="observation",
                       text="serial: D-1\nstatus: <b>broken</b>")  # fmt: skip
    client.force_login(make_person(tenant, Role.VIEWER))
    page = client.get(f"/memory/episodes/{ep}").content.decode()
    assert "serial: D-1<br>status: &lt;b&gt;broken&lt;/b&gt;" in page
    assert "<b>broken</b>" not in page
