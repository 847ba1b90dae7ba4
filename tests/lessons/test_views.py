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


def test_the_console_tries_saves_and_runs_a_promotion_rule(client, tenant, make_person):
    """An admin tries a rule (nothing written), saves it, and promotes with it; a viewer reads."""
    import json

    from apps.lessons.selectors import lesson_get
    from tests.lessons.conftest import closed_episode

    scope = scope_for(tenant)
    closed_episode(scope, outcome={"fixed": True})
    rule = {"name": "fixes", "at_least": 1,
            "lessons": [{"id": "it-gets-fixed", "statement": "It gets fixed",
                         "agrees": {"field": "outcome.fixed", "equals": True}}]}  # fmt: skip
    client.force_login(make_person(tenant, Role.ADMIN))
    tried = client.post(
        "/memory/promotions/try", {"rule": json.dumps(rule)}, HTTP_HX_REQUEST="true"
    )
    assert tried.status_code == 200
    page = tried.content.decode()
    assert "Dry run: nothing was written" in page and "it-gets-fixed" in page and "learned" in page
    assert lesson_get(scope, key="it-gets-fixed") is None
    bad = client.post("/memory/promotions/try", {"rule": "{"}, HTTP_HX_REQUEST="true")
    assert bad.status_code == 400 and "rule: The rule is not JSON" in bad.content.decode()
    broken = client.post("/memory/promotions/save", {"rule": json.dumps({**rule, "at_least": 0})})
    assert broken.status_code == 400 and "at_least" in broken.content.decode()
    assert client.post("/memory/promotions/save", {"rule": json.dumps(rule)}).status_code == 302
    ran = client.post("/memory/promotions/run", {"name": "fixes"}, HTTP_HX_REQUEST="true")
    assert "Promoted" in ran.content.decode()
    assert lesson_get(scope, key="it-gets-fixed")["support"] == 1
    viewer = client.__class__()
    viewer.force_login(make_person(tenant, Role.VIEWER))
    listed = viewer.get("/memory/promotions").content.decode()
    assert 'data-rule="fixes"' in listed and "rule-save" not in listed
    assert viewer.post("/memory/promotions/run", {"name": "fixes"}).status_code == 403
