"""Rows from entries: a background job reads the text of episode entries past its mark, asks the
tenant's extractor (entry_extractors.py) for rows of one kind, and writes them by the write rule.

- Entries are read by their serial (apps/lessons/services/entry_serials.py), oldest first, a slice
  at a time, through the (tenant, serial) index: a run costs what came since the last one.
- The unit of atomicity is one entry: its rows (by `do_rows_write`, each State pointing at the
  entry with FROM), its READ_FOR edge and the mark moved to its serial commit together, or none of
  them. The mark is locked first and checked, so two runs never read one entry twice for a kind,
  and a run stopped half-way has moved the mark only past what it committed.
- A row the extractor gives that cannot be stored (a bad row, or one the write rule refuses) is a
  WriteFailure; its entry still counts as read. An extractor that raises stops the run (the job
  fails with the reason) and its entry waits for the next run.
- A run can read entries of some types only (`types`): its mark is its own, one for each kind and
  set of types, so a run over observations and one over every type each read an entry once.
- Messages of conversations are never read: they can be erased, and rows drawn from them would
  stay. Only Entry nodes are read.
"""

from __future__ import annotations

import json

from apps.graph import cypher
from apps.graph.scope import Scope
from apps.lessons.services.entry_serials import do_entry_serials_backfill
from apps.lessons.services.episodes import TYPE_PATTERN as ENTRY_TYPE
from apps.tenants.models import Job, KeyScope, Tenant
from apps.tenants.services import job_create, job_enqueue, job_run
from apps.timeline.entry_extractors import Extractor, ExtractorError, extractor_named, rows_checked
from apps.timeline.kinds import kind_get, kinds_get
from apps.timeline.rows import time_text, validate_row
from apps.timeline.write_rule import do_rows_write
from memoryproject.api_errors import ApplicationError
from memoryproject.refusals import refusal_record

JOB_KIND = "rows_from_entries"
ACTOR = "system:entry-rows"
RIGHTS = frozenset({KeyScope.MEMORY_READ, KeyScope.MEMORY_WRITE})
SLICE = 50
MAX_TYPES = 20
TYPES_SEP = " types="  # how a job's subject carries the types of its run
EXTRACTOR_FAILED = (
    "The extractor gave no answer; that entry and the ones after it wait for the next run."
)
MAX_REASON_CHARS = 1500

MARK = """
MERGE (m:ExtractionMark {tenant: $tenant, kind: $kind})
ON CREATE SET m.serial = 0
RETURN m.serial AS serial
"""

# Named, the (tenant, serial) index is read in order from the mark (else the planner seeks the
# tenant's index and sorts every entry of the tenant); ORDER BY names both of its properties.
WAITING = """
MATCH (en:Entry {tenant: $tenant})
USING INDEX SEEK en:Entry(tenant, serial)
WHERE en.serial > $after AND coalesce(en.text, '') <> '' AND ($types IS NULL OR en.type IN $types)
RETURN count(en) AS n
"""

ENTRIES = """
MATCH (en:Entry {tenant: $tenant})
USING INDEX SEEK en:Entry(tenant, serial)
WHERE en.serial > $after AND coalesce(en.text, '') <> '' AND ($types IS NULL OR en.type IN $types)
WITH en ORDER BY en.tenant, en.serial LIMIT $limit
RETURN en.uid AS uid, en.serial AS serial, en.type AS type, en.text AS text,
       en.values AS values, en.by AS by, en.created_at AS at
"""

# The mark's lock is taken first and held to the commit (SET then REMOVE leaves no property);
# the entry is locked next, before the entities of its rows, as an entry's append locks it
# before the entities it cites: one order, no deadlock cycle.
ENTRY_CLAIM = """
MATCH (m:ExtractionMark {tenant: $tenant, kind: $kind})
SET m._lock = true
REMOVE m._lock
WITH m WHERE m.serial < $serial
MATCH (en:Entry {tenant: $tenant, uid: $entry}) USING INDEX SEEK en:Entry(uid)
CREATE (en)-[:READ_FOR {kind: $kind, at: datetime(), rows: 0}]->(m)
RETURN m.serial AS serial
"""

MARK_MOVE = """
MATCH (en:Entry {tenant: $tenant, uid: $entry})-[r:READ_FOR {kind: $kind}]->
      (m:ExtractionMark {tenant: $tenant, kind: $kind})
SET m.serial = en.serial, m.read_at = datetime(), r.rows = $rows
"""


def types_checked(types: list | None) -> list[str] | None:
    """The entry types of a run, sorted (None: every type); a 400 naming `types` otherwise."""
    if types is None:
        return None
    if (not isinstance(types, list) or not 1 <= len(types) <= MAX_TYPES
            or not all(isinstance(t, str) and ENTRY_TYPE.fullmatch(t) for t in types)):  # fmt: skip
        raise ApplicationError(f"types lists 1 to {MAX_TYPES} entry types (lower-case names).",
                               field="types", limit=MAX_TYPES)  # fmt: skip
    return sorted(set(types))


def _mark_key(kind: str, types: list[str] | None) -> str:
    return kind if types is None else f"{kind}{TYPES_SEP}{','.join(types)}"


def rows_from_entries_queue(scope: Scope, *, kind: str, types: list | None = None) -> Job:
    """A job that reads rows of `kind` from the tenant's entries (of `types` only, when given),
    queued for a worker (404 for a kind not declared; 400 for bad types; a broker that cannot
    be reached is the 503 of `job_enqueue`)."""
    from apps.timeline import tasks

    spec = kind_get(scope, name=kind)
    job = job_create(scope, kind=JOB_KIND, subject=_mark_key(spec.name, types_checked(types)))
    job_enqueue(job, tasks.rows_from_entries, job.uid)
    return job


def rows_from_entries_run(*, job_uid: str, extractor: Extractor | None = None) -> dict | None:
    """What a worker does for one job: read the entries past the mark, progress on the row."""
    subject = Job.objects.filter(uid=job_uid).values_list("subject", flat=True).first() or ""
    kind, _, types = subject.partition(TYPES_SEP)

    def work(scope: Scope, progress) -> dict:
        return entries_extract(scope, kind=kind, extractor=extractor, progress=progress,
                               types=types.split(",") if types else None)  # fmt: skip

    return job_run(job_uid, work, actor=ACTOR, permissions=RIGHTS,
                   refusals={ExtractorError: EXTRACTOR_FAILED})  # fmt: skip


def entries_extract(
    scope: Scope,
    *,
    kind: str,
    extractor: Extractor | None = None,
    progress=None,
    types: list | None = None,
) -> dict:
    """Read every entry with text past the mark of `kind` (and of `types`, when given: entries
    of those types only, under a mark of their own); returns what was read and written."""
    types = types_checked(types)
    spec = kind_get(scope, name=kind)
    mark_key = _mark_key(spec.name, types)
    kinds = {spec.name: spec}
    kinds.update(kinds_get(scope, names={r.target for r in spec.relations.values()}))
    if extractor is None:
        tenant = Tenant.objects.get(uid=scope.tenant)
        extractor = extractor_named(str(tenant.setting("entry_extractor")))
    numbered = cypher.write_unit(scope, do_entry_serials_backfill)
    mark = cypher.write(scope, MARK, kind=mark_key)[0]["serial"]
    total = cypher.read(scope, WAITING, after=mark, types=types)[0]["n"]
    counts = {"created": 0, "changed": 0, "unchanged": 0, "refused": 0}
    read = 0
    if progress:
        progress(done=0, total=total)
    while True:
        entries = cypher.read(scope, ENTRIES, after=mark, limit=SLICE, types=types)
        if not entries:
            break
        for entry in entries:
            receipts = _entry_read(scope, spec, kinds, entry, extractor, mark_key)
            if receipts is not None:
                read += 1
                for status in receipts:
                    counts[status] += 1
            mark = entry["serial"]
        if progress:
            progress(done=read, total=max(total, read))
    return {"kind": spec.name, "types": types, "read": read, "rows": counts, "mark": mark,
            "extractor": getattr(extractor, "name", type(extractor).__name__),
            "numbered": numbered}  # fmt: skip


def _entry_read(scope: Scope, spec, kinds: dict, entry: dict, extractor: Extractor, mark_key):
    """One entry: ask the extractor (outside any transaction: it may be a model), check each
    row alone, write the good ones and move the mark in one transaction, then keep what was
    refused. Returns the statuses of its rows, or None when another run read it first."""
    at = entry["at"].to_native() if hasattr(entry["at"], "to_native") else entry["at"]
    try:
        values = json.loads(entry["values"] or "{}")
    except ValueError:
        values = {}
    given = {"uid": entry["uid"], "serial": entry["serial"], "type": entry["type"],
             "text": entry["text"], "values": values, "by": entry["by"], "at": time_text(at)}  # fmt: skip
    try:
        answer = rows_checked(extractor.extract(spec, given))
    except ExtractorError:
        raise
    except Exception as exc:  # an extractor is the tenant's code or model: its failure is its own
        raise ExtractorError(f"{type(exc).__name__} in the extractor") from exc
    rows, bad = [], []
    for raw in answer:
        candidate = {"t": given["at"], **raw, "kind": spec.name, "entry": entry["uid"]}
        try:
            rows.append(validate_row(candidate, index=len(rows), kinds=kinds))
        except ApplicationError as exc:
            bad.append((f"{exc.code}: {exc.message} ({exc.field})", raw))

    def work(stx):
        if not stx.run(ENTRY_CLAIM, kind=mark_key, entry=entry["uid"], serial=entry["serial"]):
            return None
        receipts = do_rows_write(stx, rows, kinds) if rows else []
        stx.run(MARK_MOVE, kind=mark_key, entry=entry["uid"], rows=len(receipts))
        return receipts

    receipts = cypher.write_unit(scope, work)
    if receipts is None:
        return None
    refused = [(r["reason"], rows[r["index"]]) for r in receipts if r["status"] == "refused"]
    for reason, row in bad + [(reason, _row_dict(row)) for reason, row in refused]:
        raw = json.dumps(row, sort_keys=True, default=str)
        refusal_record(scope, kind="row",
                       reason=f"{reason}; entry {entry['uid']}: {raw}"[:MAX_REASON_CHARS])  # fmt: skip
    return [r["status"] for r in receipts] + ["refused"] * len(bad)


def _row_dict(row) -> dict:
    return {"key": row.key, "t": time_text(row.t), "values": row.values}
