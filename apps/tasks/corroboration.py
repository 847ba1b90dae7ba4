"""Evidence strength refined by corroboration (seed 000): evidence that independent sources say
again, by meaning, is stronger than evidence only one source gives.

Two evidence nodes agree when their SIMILAR_TO score reaches AGREEMENT (the sync already
joins only different tasks); they are independent when their URLs' hosts differ, or, without
URLs, their sources differ. With n independent agreeing sources the strength closes half of
its gap to the seed's ceiling for each: refined = ceiling - (ceiling - strength) x 0.5^n, so
it rises within [strength, ceiling] and never falls. The given `strength` stays as it was
written (evidence is immutable); the sync keeps `corroborated_by` and `corroborated_strength`
beside it. No NLI judge runs here: agreement is by meaning only, so a contradiction phrased
alike counts as agreement (the docs say so).
"""

from __future__ import annotations

from collections import defaultdict
from urllib.parse import urlsplit

# Paraphrases of one finding score 0.68 and up with all-MiniLM-L6-v2, texts on one subject
# from 0.5 (bench/similarity_threshold.py): agreement asks for a paraphrase, not a topic.
AGREEMENT = 0.68
CEILING = 0.95  # seed 000's strength ceiling (its floor, 0.30, is the page ingest's)

WRITE = """
UNWIND $rows AS row
MATCH (e:Evidence {tenant: $tenant, uid: row.uid})
SET e.corroborated_by = row.n, e.corroborated_strength = row.strength
"""


def source_of(row: dict) -> str:
    """What makes two pieces of evidence independent: the URL's host, else the source."""
    host = urlsplit(row.get("url") or "").hostname
    return (
        f"host:{host.removeprefix('www.')}"
        if host
        else f"source:{(row.get('source') or '').strip().lower()}"
    )


def refined_strength(strength: float, independent: int) -> float:
    if strength >= CEILING or independent <= 0:
        return round(strength, 4)
    return round(CEILING - (CEILING - strength) * 0.5**independent, 4)


def corroboration_changes(evidence: list[dict], pairs: dict[tuple[str, str], float]) -> list[dict]:
    """[{uid, n, strength}] for the evidence whose corroboration differs from what it holds.
    `evidence`: rows with uid, source, url, strength, corroborated_by; `pairs`: the SIMILAR_TO
    scores by (uid, uid)."""
    by_uid = {row["uid"]: row for row in evidence}
    agreeing: dict[str, set[str]] = defaultdict(set)
    for (a, b), score in pairs.items():
        if score < AGREEMENT or a not in by_uid or b not in by_uid:
            continue
        sa, sb = source_of(by_uid[a]), source_of(by_uid[b])
        if sa != sb:
            agreeing[a].add(sb)
            agreeing[b].add(sa)
    changes = []
    for uid, row in by_uid.items():
        n = len(agreeing.get(uid, ()))
        if (row.get("corroborated_by") or 0) != n:
            changes.append({"uid": uid, "n": n, "strength": refined_strength(row["strength"], n)})
    return changes
