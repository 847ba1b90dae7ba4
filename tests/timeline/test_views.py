"""Pages: the entity timeline with an "as of" date, the diff page, an entry and what relied on it.
Run in Debian's chromium, with htmx swapping the timeline."""

from __future__ import annotations

import pytest

from apps.graph import cypher
from apps.lessons.services.episodes import check_entry_record, check_episode_open
from apps.tenants.models import Role
from apps.timeline.services import check_rows_write
from tests.conftest import browser_login, scope_for
from tests.timeline.conftest import kinds_declare, row

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_timeline_as_of_diff_and_an_entry_marked_wrong(live_server, page, tenant, make_person):
    scope = scope_for(tenant)
    kinds_declare(scope)
    ep = check_episode_open(scope, title="look at d1")["id"]
    entry = check_entry_record(scope, episode=ep, type="observation")["id"]
    check_rows_write(scope, rows=[
        row("d1", "2026-01-01T00:00:00Z", entry=entry, status="<b>ok</b>",
            relations={"LOCATED_IN": "r1"}),
        row("d1", "2026-01-05T00:00:00Z", status="hot", relations={"LOCATED_IN": "r2"}),
    ])  # fmt: skip
    uid = cypher.read(scope, "MATCH (e:Entity {tenant: $tenant, kind: 'Device', key: 'd1'}) "
                      "RETURN e.uid AS uid")[0]["uid"]  # fmt: skip

    browser_login(page, live_server, make_person(tenant, Role.REVIEWER))
    page.goto(f"{live_server.url}/entities/{uid}/")
    page.wait_for_selector("#timeline-states")
    assert page.locator("#timeline-states tbody tr").count() == 2
    assert "hot" in page.locator("#as-of-values").inner_text()
    assert page.locator("#as-of-relations").inner_text().strip() == "LOCATED_IN → r2"
    # As of an earlier date, htmx swaps the timeline for that time: values and neighbours.
    page.fill("#as-of", "2026-01-02")
    page.click("#entity-timeline button[type=submit]")
    page.wait_for_function(
        "document.querySelector('#as-of-time time').getAttribute('datetime').startsWith('2026-01-02')"
    )
    assert "<b>ok</b>" in page.locator("#as-of-values").inner_text()  # escaped, shown as text
    assert page.locator("#as-of-relations").inner_text().strip() == "LOCATED_IN → r1"

    page.goto(f"{live_server.url}/memory/diff?since=2026-01-02&until=2026-01-06")
    assert "status <b>ok</b> → hot" in page.locator("#diff-changed").inner_text()
    assert "d1 LOCATED_IN r2" in page.locator("#diff-opened").inner_text()

    # The State points at its entry; the entry page shows it and a reviewer marks it wrong.
    page.goto(f"{live_server.url}/memory/entries/{entry}")
    assert "Device d1" in page.locator("#relied-states").inner_text()
    page.fill("#invalidate-form input[name=reason]", "sensor lied")
    page.click("#invalidate-form button")
    page.wait_for_selector("#entry-invalid")
    assert "sensor lied" in page.locator("#entry-invalid").inner_text()
    assert not page.console_errors


def test_viewers_cannot_mark_and_pages_need_a_login(client, tenant, make_person):
    scope = scope_for(tenant)
    entry = check_entry_record(scope, episode=check_episode_open(scope)["id"], type="x",
                               text="<i>P-1</i> ran hot\nat noon", values={"temp": 91})["id"]  # fmt: skip
    assert client.get(f"/memory/entries/{entry}").status_code == 302
    viewer = make_person(tenant, Role.VIEWER)
    client.force_login(viewer)
    page = client.get(f"/memory/entries/{entry}")
    assert page.status_code == 200 and b"invalidate-form" not in page.content
    said = page.content.decode().split('id="entry-said"')[1].split("</section>")[0]
    assert "&lt;i&gt;P-1&lt;/i&gt; ran hot<br>at noon" in said  # the entry's text, escaped
    assert "<dt>temp</dt><dd>91</dd>" in said
    assert client.post(f"/memory/entries/{entry}/invalidate").status_code == 403
    assert client.get("/memory/entries/nope").status_code == 404


def test_admins_declare_kinds_on_the_page_and_viewers_only_read(client, tenant, make_person):
    admin = make_person(tenant, Role.ADMIN)
    client.force_login(admin)
    bad = client.post("/memory/kinds", {"kind": '{"name": "room", "key": "code"}'})
    assert bad.status_code == 400 and b"capitalised" in bad.content
    good = client.post("/memory/kinds", {"kind": '{"name": "Room", "key": "code"}'})
    assert good.status_code == 302
    assert b'data-kind="Room"' in client.get("/memory/kinds").content
    client.force_login(make_person(tenant, Role.VIEWER))
    listed = client.get("/memory/kinds")
    assert b'data-kind="Room"' in listed.content and b"kind-form" not in listed.content
    assert client.post("/memory/kinds", {"kind": '{"name": "Hall", "key": "k"}'}).status_code == 403


def test_admins_start_rows_from_entries_on_the_kinds_page_and_see_progress(client, tenant,
                                                                          make_person):  # fmt: skip
    from apps.tenants.models import Job
    from apps.timeline import tasks

    scope = scope_for(tenant)
    kinds_declare(scope)
    check_entry_record(scope, episode=check_episode_open(scope)["id"], type="observation",
                       text="serial: d1\nstatus: <i>ok</i>")  # fmt: skip
    client.force_login(make_person(tenant, Role.VIEWER))
    assert b"rows-from-entries" not in client.get("/memory/kinds").content
    assert client.post("/memory/kinds/Device/rows-from-entries").status_code == 403
    client.force_login(make_person(tenant, Role.ADMIN))
    assert client.post("/memory/kinds/Nope/rows-from-entries").status_code == 404
    assert client.post("/memory/kinds/Device/rows-from-entries").status_code == 302
    job = Job.objects.get(tenant=tenant, kind="rows_from_entries")
    queued = client.get("/memory/kinds").content.decode()
    assert (
        f'data-job="{job.uid}" data-status="queued"' in queued and 'hx-trigger="every 2s"' in queued
    )
    tasks.rows_from_entries(job.uid)  # what the worker runs for it
    done = client.get("/memory/kinds/jobs").content.decode()
    assert 'data-status="done"' in done and "1/1 entries" in done and "1 created" in done
    assert "every 2s" not in done  # nothing running: the page stops asking
