"""A tenant import trusts nothing in its archive: settings pass the console's checks, memberships
grant roles only to the archive's own people, blank lines count toward the limits, a lone
surrogate is a refusal naming its line; and a new tenant the promotion ticker has visited still
takes an import, while a tenant with memory is refused with the reason on its data page."""

import gzip
import json
import uuid

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from apps.graph import cypher
from apps.ingestion.document_deletion import check_document_delete, document_delete_job_run
from apps.ingestion.services import check_document_submit
from apps.knowledge.ticker import knowledge_promotion_run
from apps.tenant_data import tasks
from apps.tenant_data.selectors import import_blockers, tenant_scan
from apps.tenant_data.services import tenant_archive
from apps.tenant_data.services.tenant_archive import ArchiveRefused, archive_records
from apps.tenant_data.services.tenant_import import JOB_KIND, check_import_start, import_path
from apps.tenant_data.services.tenant_import import import_run as run_import
from apps.tenants.models import Job, JobStatus, Membership, Role
from apps.tenants.services import job_create
from tests.conftest import scope_for

pytestmark = pytest.mark.django_db


def archive_lines(*, source: str = "", settings: dict | None = None, rows=(), nodes=1) -> list:
    lines = [{"kind": "header", "format": tenant_archive.FORMAT,
              "tenant": {"uid": source or uuid.uuid4().hex, "slug": "old", "name": "old"}}]  # fmt: skip
    if settings is not None:
        lines.append({"kind": "settings", "settings": settings})
    for n in range(1, nodes + 1):
        lines.append({"kind": "node", "ref": f"n{n}", "labels": ["Note"],
                      "props": {"uid": str(uuid.uuid4()), "text": "kept"}})  # fmt: skip
    lines += [{"kind": "row", "table": "tenants.membership", "fields": f} for f in rows]
    lines.append({"kind": "footer", "counts": {"node": nodes, "relationship": 0, "row": len(rows)}})
    return [json.dumps(line) for line in lines]


def imported(tenant, admin, lines: list[str]) -> Job:
    """The import job of `lines`, run here as the worker would run it, as `admin` asked."""
    scope = scope_for(tenant, actor=f"user:{admin.username}", kind="person")
    job = job_create(scope, kind=JOB_KIND, subject="an archive")
    path = import_path(job.uid, tenant_uid=tenant.uid)
    path.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode()))
    run_import(job_uid=job.uid)
    return Job.objects.get(pk=job.pk)


@pytest.mark.parametrize(
    "settings, named",
    [
        ({"merge_threshold": 5.0}, "merge_threshold"),
        ({"review_threshold": -3.0}, "review_threshold"),
        ({"max_facts_per_request": 0}, "max_facts_per_request"),
        ({"knowledge_extractor": "no-such-extractor"}, "knowledge_extractor"),
        ({"merge_threshold": 0.6, "review_threshold": 0.7}, "review_threshold"),
    ],
)
def test_archived_settings_the_console_would_refuse_refuse_the_import(
    tenant, make_person, settings, named
):
    admin = make_person(tenant, Role.ADMIN)
    job = imported(tenant, admin, archive_lines(settings=settings))
    assert job.status == JobStatus.FAILED
    assert job.error.startswith("Archive line 2: the setting ") and named in job.error, job.error
    tenant.refresh_from_db()
    assert tenant.settings == {}
    # Refused before any write: the graph holds only the stamp it was made with.
    assert tenant_scan(tenant_uid=tenant.uid)["nodes"] == {"GraphStamp": 1}


def test_archived_settings_within_the_rules_are_kept_and_unknown_ones_reported(tenant, make_person):
    admin = make_person(tenant, Role.ADMIN)
    archived = {"merge_threshold": 0.9, "lesson_threshold": 4, "from_a_newer_site": 1}
    job = imported(tenant, admin, archive_lines(settings=archived))
    assert job.status == JobStatus.DONE, job.error
    tenant.refresh_from_db()
    assert tenant.setting("merge_threshold") == 0.9 and tenant.setting("lesson_threshold") == 4
    assert "from_a_newer_site" not in tenant.settings
    assert job.result["settings_unknown"] == ["from_a_newer_site"]


def test_a_membership_naming_an_account_outside_the_archive_grants_nothing(
    make_tenant, make_person
):
    target, elsewhere = make_tenant(), make_tenant()
    admin = make_person(target, Role.ADMIN)
    victim = make_person(elsewhere, Role.VIEWER)
    rows = [
        {"username": victim.username, "role": "admin"},
        {"username": "nobody-here", "role": "admin"},
    ]
    for source in ("", elsewhere.uid):  # an unknown tenant, then one the importer is no admin of
        job = imported(target, admin, archive_lines(source=source, rows=rows))
        assert job.status == JobStatus.DONE, job.error
        assert job.result["memberships"] == 0 and job.result["memberships_skipped"] == 2
        assert job.result["memberships_not_granted"] == sorted([victim.username, "nobody-here"])
        assert not Membership.objects.filter(user=victim, tenant=target).exists()
        cypher.write(scope_for(target), "MATCH (n:Note {tenant: $tenant}) DETACH DELETE n")
        Job.objects.filter(tenant=target).delete()  # empty again for the second archive


def test_the_members_of_a_tenant_its_admin_exported_keep_their_roles(make_tenant, make_person):
    source, target = make_tenant(), make_tenant()
    admin = make_person(source, Role.ADMIN)
    Membership.objects.create(user=admin, tenant=target, role=Role.ADMIN)
    colleague = make_person(source, Role.REVIEWER)
    rows = [{"username": colleague.username, "role": "reviewer"}]
    job = imported(target, admin, archive_lines(source=source.uid, rows=rows))
    assert job.status == JobStatus.DONE, job.error
    assert job.result["memberships"] == 1 and job.result["memberships_not_granted"] == []
    assert Membership.objects.get(user=colleague, tenant=target).role == Role.REVIEWER


def write_archive(tmp_path, lines: list[str], *, blank_lines: int) -> object:
    path = tmp_path / "a.ndjson.gz"
    body = lines[0] + "\n" + "\n" * blank_lines + "\n".join(lines[1:]) + "\n"
    path.write_bytes(gzip.compress(body.encode()))
    return path


def test_blank_lines_count_toward_the_line_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(tenant_archive, "MAX_LINES", 50)
    path = write_archive(tmp_path, archive_lines(), blank_lines=100)
    with pytest.raises(ArchiveRefused, match="too many lines") as refused:
        list(archive_records(path))
    assert refused.value.message.startswith("Archive line 51:") and refused.value.limit == 50


def test_blank_lines_count_toward_the_unpacked_size_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(tenant_archive, "MAX_UNCOMPRESSED_BYTES", 1_000)
    path = write_archive(tmp_path, archive_lines(), blank_lines=2_000)
    with pytest.raises(ArchiveRefused, match="unpacks too large"):
        list(archive_records(path))
    # The same archive without its blank lines is well within both limits.
    assert len(list(archive_records(write_archive(tmp_path, archive_lines(), blank_lines=0)))) == 3


def test_a_lone_surrogate_is_a_refusal_naming_its_line(tenant, make_person):
    admin = make_person(tenant, Role.ADMIN)
    lines = archive_lines(nodes=2)
    lines[2] = lines[2].replace('"kept"', '"kept \\ud800"')
    job = imported(tenant, admin, lines)
    assert job.status == JobStatus.FAILED
    assert job.error == "Archive line 3: a string holds a lone surrogate (invalid Unicode)"
    # A surrogate pair escaped the same way is one character, and imports.
    lines[2] = lines[2].replace("\\ud800", "\\ud83d\\ude00")
    Job.objects.filter(tenant=tenant).delete()
    job = imported(tenant, admin, lines)
    assert job.status == JobStatus.DONE, job.error
    texts = cypher.read(scope_for(tenant), "MATCH (n:Note {tenant: $tenant}) RETURN n.text AS t")
    assert sorted(r["t"] for r in texts) == ["kept", "kept \U0001f600"]


def login(person) -> Client:
    client = Client()
    client.login(username=person.username, password=person.raw_password)
    return client


def test_a_tenant_the_promotion_ticker_visited_still_takes_an_import(
    tenant, make_person, monkeypatch
):
    # The ticker's job, run as a worker runs it: an empty tenant's promotion puts no memory in it.
    ticker = job_create(scope_for(tenant, actor="system:knowledge-promotion", kind="system"),
                        kind="knowledge_promote", subject="conversation chains")  # fmt: skip
    knowledge_promotion_run(job_uid=ticker.uid)
    assert Job.objects.get(pk=ticker.pk).status == JobStatus.DONE
    assert import_blockers(scope_for(tenant)) == []

    queued = []
    monkeypatch.setattr(tasks.tenant_import, "delay", lambda uid: queued.append(uid))
    admin = make_person(tenant, Role.ADMIN)
    page = login(admin).get(f"/console/{tenant.slug}/data")
    assert b'id="import-form"' in page.content and b'id="import-closed"' not in page.content
    upload = SimpleUploadedFile("a.ndjson.gz", gzip.compress(b"{}\n"))
    job = check_import_start(scope_for(tenant), upload=upload)
    assert queued == [job.uid]


def test_the_data_page_says_why_a_tenant_with_memory_takes_no_import(tenant, make_person):
    scope = scope_for(tenant)
    check_document_submit(scope, content="Ada Lovelace wrote the first program.", source="test")
    reasons = import_blockers(scope)
    assert any("its graph holds memory" in r for r in reasons)
    assert any("Document ingestion" in r for r in reasons)
    admin = login(make_person(tenant, Role.ADMIN))
    page = admin.get(f"/console/{tenant.slug}/data").content.decode()
    assert 'id="import-closed"' in page and all(reason in page for reason in reasons)
    upload = SimpleUploadedFile("a.ndjson.gz", gzip.compress(b"{}\n"))
    refused = admin.post(f"/console/{tenant.slug}/data/import", {"archive": upload})
    assert refused.status_code == 409 and reasons[0] in refused.content.decode()


def test_the_deletion_lock_is_no_memory_and_stays_with_its_tenant(tenant, make_person):
    """A tenant whose document deletion made its deletion lock (its jobs since gone) still takes
    an import; an archive's lock (keyed by the tenant it came from) is not written."""
    scope = scope_for(tenant)
    stored = check_document_submit(scope, content="Quarrymen of Wendlestone met.", source="notes")
    document_delete_job_run(check_document_delete(scope, uid=stored["document"]))
    Job.objects.filter(tenant=tenant).delete()
    assert tenant_scan(tenant_uid=tenant.uid)["nodes"].get("DeletionLock") == 1
    assert import_blockers(scope) == []
    lines = archive_lines(nodes=2)
    lock = json.loads(lines[2])
    lines[2] = json.dumps({**lock, "labels": ["DeletionLock"], "props": {"lock_key": "old"}})
    job = imported(tenant, make_person(tenant, Role.ADMIN), lines)
    assert job.status == JobStatus.DONE, job.error
    assert tenant_scan(tenant_uid=tenant.uid)["nodes"]["DeletionLock"] == 1
