"""INGEST_COMMIT_CHUNKS: with 1, each chunk's graph changes commit in a transaction of their
own, so what a chunk taught is in the long-term graph before the next chunk is resolved and
written (seed 004's per-chunk commit); the graph is the one windows of 32 make."""

from apps.graph import cypher
from apps.ingestion import pipeline, services
from tests.conftest import scope_for
from tests.ingestion.test_pipeline import graph_picture, run

CHUNKS = "MATCH (c:Chunk {tenant: $tenant}) RETURN count(c) AS n"


def test_each_chunk_commits_before_the_next_is_written(make_tenant, settings, monkeypatch):
    windowed, each = scope_for(make_tenant()), scope_for(make_tenant())
    run(windowed)

    settings.INGEST_COMMIT_CHUNKS = 1
    seen = []
    write = pipeline.window_write

    def observed(scope, *, chunks, seen=None):
        committed = cypher.read(scope, CHUNKS)[0]["n"]
        observed.calls.append((len(chunks), committed))
        return write(scope, chunks=chunks, seen=seen)

    observed.calls = seen
    monkeypatch.setattr(pipeline, "window_write", observed)
    job = run(each)
    assert job.status == "done" and job.progress["chunks_written"] == 4
    assert seen == [(1, 0), (1, 1), (1, 2), (1, 3)]  # chunk k sees the k chunks before it
    assert graph_picture(each) == graph_picture(windowed)
    services.document_ingest_job_run(job)  # redelivered: every chunk committed, nothing new
    assert graph_picture(each) == graph_picture(windowed)
