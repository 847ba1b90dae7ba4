"""`bench/ingest_throughput.py --check-neighbours`: every window's gate decided twice in its own
transaction, on the same graph: as the pipeline does (the neighbours of the matches it scores
whose name is identical or a variant, `gate_batch.contexts_fill`), and with the neighbours of
every match the lookups returned (what main's MATCHES_FIND read inline before), then the two
compared name by name (action, matched name, probability, proposals). Two runs of the bench
do not decide alike on main either (the indexes' ties at their limits, and an entity's "any
few" chunks, depend on the store's history), so a receipts diff between runs mixes that noise
with what a change did; this compares both reads on one state. Timing figures of such a run
count the second decision too: use it for the check, not for the profile."""

from __future__ import annotations

import dataclasses


def neighbours_check_install() -> dict:
    from apps.resolution import gate_batch, window_resolution
    from apps.resolution.match_sides import CONTEXT_PARAMS

    decide, fill = window_resolution.window_decide, gate_batch.contexts_fill
    stats = {"windows": 0, "names": 0, "differ": 0, "examples": []}

    def fill_all(stx, asked):
        uids = sorted({m.uid for _, _, matches in asked for m in matches})
        rows = stx.run(gate_batch.CONTEXTS_READ, uids=uids, **CONTEXT_PARAMS) if uids else []
        known = {r["uid"]: tuple(tuple(n) for n in r["side"]["context"] or () if n[0] and n[1])
                 for r in rows}  # fmt: skip
        return [[dataclasses.replace(m, context=known.get(m.uid, ())) for m in matches]
                for _, _, matches in asked]  # fmt: skip

    def checked(stx, groups, seen, *, created_uid, **kwargs):
        made: list[str] = []  # the second decision gives the window's new entities these uids
        got = decide(stx, groups, seen, created_uid=lambda: made.append(created_uid()) or made[-1],
                     **kwargs)  # fmt: skip
        gate_batch.contexts_fill = fill_all
        again = iter(made)
        try:
            every = decide(stx, groups, seen, created_uid=lambda: next(again, None) or created_uid(),
                           **kwargs)  # fmt: skip
        finally:
            gate_batch.contexts_fill = fill
        stats["windows"] += 1
        for (kind, norm, _), (a, _, _), (b, _, _) in zip(groups, got, every, strict=True):
            stats["names"] += 1
            if _decided(a) != _decided(b):
                stats["differ"] += 1
                if len(stats["examples"]) < 10:
                    stats["examples"].append((kind, norm, _decided(a), _decided(b)))
        return got

    window_resolution.window_decide = checked
    return stats


def _decided(decision) -> tuple:
    best = decision.best
    return (decision.action, best.match.name if best else None,
            round(best.probability, 6) if best else None,
            tuple((p.match.name, round(p.probability, 6)) for p in decision.proposals))  # fmt: skip


def neighbours_check_print(stats: dict) -> None:
    print(f"neighbours check: {stats['names']} names in {stats['windows']} windows decided with "
          f"the cut's neighbours and with every match's: {stats['differ']} differ")  # fmt: skip
    for example in stats["examples"]:
        print(f"  {example}")
