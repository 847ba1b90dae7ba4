"""Import of a conversation history larger than one batch, as a job with progress.

The request checks every message (a refused one refuses the import with its index, nothing is
staged), then stages the messages in the graph in chunks of one batch, each a
MessageImportChunk under the user and session (so erasing them erases what waits too). The
worker takes the chunks in order: it embeds a chunk's texts in one call of the model, then
appends them with their vectors and deletes the chunk in one transaction. A chunk is written
once however often the task runs (a redelivered task finds only the chunks left), and the
messages are searchable by meaning as soon as they are written.
"""

from __future__ import annotations

import json

from apps.conversations.services import (
    MAX_BATCH,
    after_batch_append,
    do_messages_append_in,
    validate_messages_input,
)
from apps.graph import cypher
from apps.graph.embeddings import get_embedder
from apps.graph.scope import Scope
from apps.tenants.models import Job, KeyScope
from apps.tenants.services import job_create, job_enqueue, job_run

JOB_KIND = "conversation_import"
MAX_IMPORT_MESSAGES = 20_000  # and the request's MAX_REQUEST_BYTES

STAGE = """
UNWIND $chunks AS c
CREATE (:MessageImportChunk {uid: randomUUID(), tenant: $tenant, job: $job, user: $user,
                             sid: $sid, seq: c.seq, count: c.count, rows: c.rows,
                             created_at: datetime()})
"""
NEXT_CHUNK = """
MATCH (c:MessageImportChunk {tenant: $tenant, job: $job})
WITH c ORDER BY c.seq
WITH collect(c) AS chunks WHERE size(chunks) > 0
RETURN chunks[0].uid AS uid, chunks[0].user AS user, chunks[0].sid AS sid,
       chunks[0].rows AS rows, reduce(n = 0, c IN chunks | n + c.count) AS waiting
"""
UNSTAGE = """
MATCH (c:MessageImportChunk {tenant: $tenant, job: $job})
DETACH DELETE c
"""
# Deleting the chunk first locks it: a second worker on the same chunk waits, then finds it gone.
TAKE = """
OPTIONAL MATCH (c:MessageImportChunk {uid: $uid}) WHERE c.tenant = $tenant
DETACH DELETE c
RETURN count(c) AS taken
"""


def check_import_start(scope: Scope, *, user: str, sid: str, messages: list[dict]) -> Job:
    """Check the messages (1 to MAX_IMPORT_MESSAGES, each as in a batch), stage them, and queue
    the job that appends them to the session in order, after whatever it holds then (single
    appends meanwhile land between chunks). The job row never holds the user or any text.
    When the work queue cannot be reached nothing stays staged, the job is failed and the
    refusal is a 503 (job_enqueue)."""
    rows = validate_messages_input(scope, user=user, sid=sid, messages=messages,
                                limit=MAX_IMPORT_MESSAGES)  # fmt: skip
    job = job_create(scope, kind=JOB_KIND, subject="one session", total=len(rows))
    chunks = [
        {"seq": seq, "count": len(part), "rows": json.dumps(part)}
        for seq, part in enumerate(rows[i : i + MAX_BATCH] for i in range(0, len(rows), MAX_BATCH))
    ]
    cypher.write(scope, STAGE, chunks=chunks, job=job.uid, user=user, sid=sid)
    from apps.conversations import tasks

    # A broker that is down: the staged chunks go, the job is recorded failed, a 503.
    job_enqueue(job, tasks.conversation_import, job.uid,
                undo=lambda: cypher.write(scope, UNSTAGE, job=job.uid))  # fmt: skip
    return job


def import_run(*, job_uid: str) -> dict | None:
    """The worker's side: the job's chunks in order, progress after each, with the right to
    write memory and no more (job_run)."""

    def work(scope: Scope, progress) -> dict:
        total = Job.objects.get(uid=job_uid).progress.get("total", 0)
        while found := cypher.read(scope, NEXT_CHUNK, job=job_uid):
            chunk = found[0]
            rows = json.loads(chunk["rows"])
            vectors = get_embedder().embed([r["text"] for r in rows])
            rows = [{**r, "vector": v} for r, v in zip(rows, vectors, strict=True)]
            stored = cypher.write_unit(
                scope, lambda unit, c=chunk, r=rows: _chunk_write(unit, c, r)
            )
            if stored:
                after_batch_append(scope, stored=stored, embed=False)
            progress(done=total - chunk["waiting"] + len(rows))
        # What this job wrote, all runs together (an erasure may have dropped the rest).
        return {"messages": Job.objects.get(uid=job_uid).progress.get("done", 0)}

    return job_run(job_uid, work, actor="system:import", permissions={KeyScope.MEMORY_WRITE})


def _chunk_write(unit, chunk: dict, rows: list[dict]) -> dict | None:
    if not unit.run(TAKE, uid=chunk["uid"])[0]["taken"]:
        return None
    return do_messages_append_in(unit, user=chunk["user"], sid=chunk["sid"], rows=rows)
