"""The whole pipeline on the real model and the real graph: progress on the job, duplicate
layers, local resolution, and a crash mid-way followed by a re-run that ends as an
uninterrupted run would."""

import pytest

from apps.graph import cypher
from apps.graph.write_failures import write_failures_list
from apps.ingestion import services
from apps.ingestion.extraction import ExtractionFailed
from apps.ingestion.extraction.spacy_ner import SpacyExtractor
from apps.tenants.models import Job
from tests.conftest import scope_for

PARAGRAPHS = [
    "Sherlock Holmes lives in London with Dr. John Watson. Holmes works for Scotland Yard when "
    "the inspectors are stuck, and he charges them nothing for the trouble of thinking.",
    "Acme Corp acquired Globex Corporation in 2020. The company is based in Berlin and builds "
    "pumps for farms, and its engineers travel to Kenya twice every single year.",
    "Marie Curie, a physicist, founded the Radium Institute in Paris. Curie taught physics at "
    "the University of Paris and wrote about radioactivity in many careful papers.",
    "Ada Lovelace wrote notes on the Analytical Engine designed by Charles Babbage. Lovelace "
    "saw that the machine could compose music, long before any computer was built.",
]
DOCUMENT = "# Notes\n\n" + "\n\n".join(PARAGRAPHS) + "\n"


def submit(scope, content=DOCUMENT, **fields):
    return services.check_document_submit(scope, content=content, source="test", **fields)


def run(scope, content=DOCUMENT, extractor=None):
    queued = submit(scope, content)
    job = Job.objects.select_related("tenant").get(uid=queued["job"])
    services.document_ingest_job_run(job, extractor=extractor)
    job.refresh_from_db()
    return job


def graph_picture(scope):
    """Everything ingestion writes, without uids that differ between tenants."""
    rows = cypher.read(
        scope,
        """
        MATCH (c:Chunk {tenant: $tenant})
        OPTIONAL MATCH (c)-[m:MENTIONS]->(e:Entity)
        WITH c, collect([m.surface, m.start, e.name]) AS mentions
        OPTIONAL MATCH (c)-[:NEXT]->(n:Chunk)
        RETURN c.position AS position, c.section_path AS path, size(mentions) AS mention_count,
               n.position AS next, COUNT { (c)-[:PART_OF]->(:Document) } AS part_of,
               COUNT { MATCH (:Entity {tenant: $tenant}) } AS entities,
               [(a:Entity {tenant: $tenant})-[r:RELATED_TO]->(b) |
                 [a.name, r.predicate, b.name, r.weight]] AS relations
        ORDER BY position
        """,
    )
    return [{**row, "relations": sorted(row["relations"])} for row in rows]


def test_progress_and_receipts_land_on_the_job(scope):
    job = run(scope)
    assert job.status == "done" and job.attempts == 1
    progress = job.progress
    assert progress["done"] == progress["total"] == progress["chunks_written"] == 4
    assert progress["entities_created"] > 5 and progress["relations"] > 2
    kinds = {r["kind"] for r in job.result["receipts"]}
    assert {"chunk", "entity", "relation"} <= kinds
    picture = graph_picture(scope)
    assert [row["next"] for row in picture] == [1, 2, 3, None]
    assert all(row["part_of"] == 1 and row["path"] == ["Notes"] for row in picture)


def test_local_resolution_reaches_the_graph(scope):
    run(scope)
    rows = cypher.read(
        scope,
        "MATCH (:Chunk {tenant: $tenant})-[m:MENTIONS]->(e:Entity {tenant: $tenant}) "
        "WHERE e.name IN ['Sherlock Holmes', 'Acme Corp'] "
        "RETURN e.name AS name, collect(m.surface) AS surfaces",
    )
    surfaces = {row["name"]: sorted(row["surfaces"]) for row in rows}
    assert surfaces["Sherlock Holmes"] == ["Holmes", "Sherlock Holmes"]
    assert "The company" in surfaces["Acme Corp"]
    holmes = cypher.read(
        scope, "MATCH (e:Entity {tenant: $tenant}) WHERE e.name = 'Holmes' RETURN e.uid AS uid"
    )
    assert holmes == []


class CrashAt:
    """Kills the run at one chunk, the way a dying worker would (not an extraction failure)."""

    def __init__(self, position):
        self.inner, self.position, self.calls = SpacyExtractor.shared(), position, 0
        self.name = self.inner.name

    def extract(self, text, *, state):
        if self.calls == self.position:
            raise SystemExit("worker killed")
        self.calls += 1
        return self.inner.extract(text, state=state)


def test_a_crashed_job_rerun_leaves_the_graph_of_an_uninterrupted_run(make_tenant, monkeypatch):
    from apps.ingestion import pipeline

    # Windows of one chunk, so the crash falls between two chunk transactions.
    monkeypatch.setattr(pipeline, "EMBED_BATCH", 1)
    calm, crashed = scope_for(make_tenant()), scope_for(make_tenant())
    run(calm)

    queued = submit(crashed)
    job = Job.objects.select_related("tenant").get(uid=queued["job"])
    with pytest.raises(SystemExit):
        services.document_ingest_job_run(job, extractor=CrashAt(2))
    job.refresh_from_db()
    assert job.status == "running" and job.progress["done"] == 2
    assert len(graph_picture(crashed)) == 2

    services.document_ingest_job_run(job)  # the broker redelivers; the whole job runs again
    job.refresh_from_db()
    assert job.status == "done" and job.attempts == 2 and job.progress["resumed"] == 2
    assert graph_picture(crashed) == graph_picture(calm)

    services.document_ingest_job_run(job)  # and once more: nothing changes
    assert graph_picture(crashed) == graph_picture(calm)


def test_duplicate_chunks_are_skipped_with_their_layer(scope):
    run(scope)
    before = graph_picture(scope)
    # Same paragraph in another document: caught by the chunk hash.
    copy = "\n\n".join([PARAGRAPHS[2], "Completely new words about tea plantations in Assam, "
                        "their pickers, the rain in June and the price of leaves at auction. "
                        "The estates are old, the roads are steep, and the tea is good. "
                        "Buyers come from far away to taste the first flush every spring."])  # fmt: skip
    job = run(scope, copy)
    layers = [r.get("layer") for r in job.result["receipts"] if r["kind"] == "chunk"]
    assert layers == ["content_hash", None]
    # A paraphrase that differs by one word: caught by the embedding (cosine >= 0.95).
    paraphrase = PARAGRAPHS[1].replace("pumps", "pump")
    job = run(scope, "A new preface on gardening tools. " * 12 + "\n\n" + paraphrase)
    chunk_receipts = [r for r in job.result["receipts"] if r["kind"] == "chunk"]
    assert "semantic" in [r.get("layer") for r in chunk_receipts]
    assert job.progress["duplicates_skipped"] >= 1
    assert len(graph_picture(scope)) == len(before) + 1 + len(chunk_receipts) - 1


class FailingSecond:
    def __init__(self):
        self.inner, self.calls = SpacyExtractor.shared(), 0
        self.name = "flaky"

    def extract(self, text, *, state):
        self.calls += 1
        if self.calls == 2:
            raise ExtractionFailed("endpoint answered 503")
        return self.inner.extract(text, state=state)


def test_an_extraction_failure_is_counted_recorded_and_the_rest_goes_on(scope):
    job = run(scope, extractor=FailingSecond())
    assert job.status == "done"
    assert job.progress["failures"] == 1 and job.progress["chunks_written"] == 3
    assert [f["kind"] for f in write_failures_list(scope)] == ["extraction"]
    refused = [r for r in job.result["receipts"] if r.get("action") == "refused"]
    assert refused and "503" in refused[0]["reason"]
    # Running the job again completes the missing chunk.
    services.document_ingest_job_run(job)
    job.refresh_from_db()
    assert job.progress["chunks_written"] == 1 and job.progress["resumed"] == 3
    assert len(graph_picture(scope)) == 4


class Watching:
    """Reads the job through the API and the jobs page each time a window's extraction starts
    (after the window before it committed; its parse may run beside that write), the way a
    user watching a large document would."""

    def __init__(self, job_uid, api, page):
        self.inner, self.job_uid, self.api, self.page = SpacyExtractor.shared(), job_uid, api, page
        self.name, self.seen, self.starting = self.inner.name, [], False

    def parse_window(self, texts):
        self.starting = True
        return self.inner.parse_window(texts)

    def extract(self, text, *, state, parsed=None):
        if self.starting:
            self.starting = False
            served = self.api.get(f"/api/v1/jobs/{self.job_uid}").json()
            html = self.page.get("/ingestion/jobs", HTTP_HX_REQUEST="true").content.decode()
            row = html[html.index(f'data-job="{self.job_uid}"') :]
            shown = row[row.index("<span") : row.index("chunks</span>")].split(">")[-1].strip()
            self.seen.append((served["status"], served["progress"].get("done"), shown))
        return self.inner.extract(text, state=state, parsed=parsed)


def test_progress_moves_in_the_api_and_on_the_page_while_a_document_runs(
    tenant, api_client, make_person, monkeypatch
):
    from django.test import Client

    from apps.ingestion import pipeline
    from apps.tenants.models import Role

    monkeypatch.setattr(pipeline, "EMBED_BATCH", 1)  # four windows of one chunk
    viewer = make_person(tenant, Role.VIEWER)
    page = Client()
    page.login(username=viewer.username, password=viewer.raw_password)
    queued = submit(scope_for(tenant))
    job = Job.objects.select_related("tenant").get(uid=queued["job"])
    watching = Watching(job.uid, api_client, page)
    services.document_ingest_job_run(job, extractor=watching)
    assert watching.seen == [("running", done, f"{done}/4") for done in range(4)]
    assert api_client.get(f"/api/v1/jobs/{job.uid}").json()["progress"]["done"] == 4
