"""Chunk duplicate layers look only at the caller's tenant, and a chunk is never its own
duplicate (a resumed job sees it as written)."""

from apps.ingestion import services
from apps.ingestion.dedup import chunk_duplicate_layer, content_hash
from apps.tenants.models import Job
from tests.conftest import scope_for
from tests.ingestion.test_pipeline import DOCUMENT


def ingest(scope):
    queued = services.check_document_submit(scope, content=DOCUMENT, source="s")
    job = Job.objects.select_related("tenant").get(uid=queued["job"])
    services.document_ingest_job_run(job)
    job.refresh_from_db()
    return job


def test_another_tenants_chunks_are_not_duplicates(make_tenant):
    a, b = scope_for(make_tenant()), scope_for(make_tenant())
    assert ingest(a).progress["chunks_written"] == 4
    job = ingest(b)
    assert job.progress["chunks_written"] == 4 and job.progress["duplicates_skipped"] == 0


def test_a_written_chunk_is_recognised_as_itself(scope):
    from apps.graph.embeddings import get_embedder
    from apps.ingestion.chunk_writes import chunk_uid
    from apps.ingestion.chunking import chunk_document

    job = ingest(scope)
    first = chunk_document(DOCUMENT)[0]
    uid = chunk_uid(job.subject, 0)
    embedding = get_embedder().embed([first.text])[0]
    layer = chunk_duplicate_layer(scope, uid=uid, text_hash=content_hash(first.text),
                                  embedding=embedding)  # fmt: skip
    assert layer == ("written", uid)
    other = chunk_duplicate_layer(scope, uid="not-yet-written", text_hash=content_hash(first.text),
                                  embedding=embedding)  # fmt: skip
    assert other == ("content_hash", uid)


def test_a_window_repeating_its_own_chunk_keeps_the_first(scope):
    from apps.graph.embeddings import get_embedder
    from apps.ingestion.dedup import ChunkProbe, chunks_duplicate_layers

    texts = ["Acme Corp builds pumps for farms in Kenya, and its engineers travel there often.",
             "Acme Corp builds pump for farms in Kenya, and its engineers travel there often.",
             "Tea pickers in Assam wait for the June rain before the first flush.",
             "Acme Corp builds pumps for farms in Kenya, and its engineers travel there often."]  # fmt: skip
    vectors = get_embedder().embed(texts)
    probes = [ChunkProbe(f"window-{i}", content_hash(t), v)
              for i, (t, v) in enumerate(zip(texts, vectors, strict=True))]  # fmt: skip
    assert chunks_duplicate_layers(scope, probes) == [
        (None, None), ("semantic", "window-0"), (None, None), ("content_hash", "window-0")]  # fmt: skip
