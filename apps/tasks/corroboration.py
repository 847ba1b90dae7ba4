"""Evidence strength refined by corroboration (seed 000): evidence that independent sources say
again, by meaning, is stronger than evidence only one source gives.

Two evidence nodes agree when their SIMILAR_TO score reaches AGREEMENT (the sync already
joins only different tasks); they are independent when their URLs' hosts differ, or, without
URLs, their sources differ. With n independent agreeing sources the strength closes half of
its gap to the seed's ceiling for each: refined = ceiling - (ceiling - strength) x 0.5^n, so
it rises within [strength, ceiling] and never falls. The given `strength` stays as it was
written (evidence is immutable); the sync keeps `corroborated_by` and `corroborated_strength`
beside it. Agreement by meaning alone counts a contradiction worded alike as agreement: with
CORROBORATION_LLM_URL set, a judge behind the one chat client reads each agreeing independent
pair once ("supports", "contradicts" or "neither", kept on the SIMILAR_TO edge as `verdict`)
and only "supports" counts; a pair it could not judge yet counts by meaning.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from urllib.parse import urlsplit

from django.conf import settings

from memoryproject.chat_completions import ChatEndpoint, ChatFailed, chat_complete_json

logger = logging.getLogger(__name__)

# Paraphrases of one finding score 0.68 and up with all-MiniLM-L6-v2, texts on one subject
# from 0.5 (bench/similarity_threshold.py): agreement asks for a paraphrase, not a topic.
AGREEMENT = 0.68
CEILING = 0.95  # seed 000's strength ceiling (its floor, 0.30, is the page ingest's)

MAX_JUDGED = 100  # pairs a sync asks the judge about; the rest wait for the next sync
VERDICTS = ("supports", "contradicts", "neither")
JUDGE_SCHEMA = {
    "type": "object",
    "properties": {"verdict": {"type": "string", "enum": list(VERDICTS)}},
    "required": ["verdict"],
    "additionalProperties": False,
}
JUDGE_SYSTEM = (
    "You compare two findings from different sources. Answer whether the second supports the "
    "first (says the same thing), contradicts it, or neither. Answer as JSON."
)
CONTENTS = """
MATCH (e:Evidence {tenant: $tenant}) WHERE e.uid IN $uids
RETURN e.uid AS uid, e.content AS content
"""
VERDICT_WRITE = """
UNWIND $pairs AS p
MATCH (a:Evidence {tenant: $tenant, uid: p.a})-[r:SIMILAR_TO]->(b:Evidence {tenant: $tenant, uid: p.b})
SET r.verdict = p.verdict, r.verdict_model = p.model
"""
WRITE = """
UNWIND $rows AS row
MATCH (e:Evidence {tenant: $tenant, uid: row.uid}) USING INDEX SEEK e:Evidence(uid)
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


def judge_endpoint() -> ChatEndpoint | None:
    if not settings.CORROBORATION_LLM_URL:
        return None
    return ChatEndpoint(settings.CORROBORATION_LLM_URL.rstrip("/"),
                        settings.CORROBORATION_LLM_MODEL,
                        api_key=settings.CORROBORATION_LLM_API_KEY)  # fmt: skip


def independent_pairs(evidence: list[dict], pairs: dict[tuple[str, str], float]) -> list:
    """The (a, b) pairs of evidence that agree by meaning and come from independent sources."""
    by_uid = {row["uid"]: row for row in evidence}
    return [(a, b) for (a, b), score in sorted(pairs.items())
            if score >= AGREEMENT and a in by_uid and b in by_uid
            and source_of(by_uid[a]) != source_of(by_uid[b])]  # fmt: skip


def verdicts_ask(endpoint: ChatEndpoint, evidence: list[dict], todo: list) -> tuple[list, int]:
    """The judge's verdicts [{a, b, verdict, model}] for up to MAX_JUDGED pairs, and how many
    it could not be asked about (they count by meaning until a later sync)."""
    content = {row["uid"]: row.get("content") or "" for row in evidence}
    found, failed = [], 0
    for a, b in todo[:MAX_JUDGED]:
        user = (
            f"First finding:\n{content.get(a, '')[:4000]}\n\n"
            f"Second finding:\n{content.get(b, '')[:4000]}"
        )
        try:
            answer = chat_complete_json(endpoint, system=JUDGE_SYSTEM, user=user,
                                        schema=JUDGE_SCHEMA, schema_name="verdict")  # fmt: skip
        except ChatFailed as exc:
            logger.warning("corroboration judge: %s", exc)
            failed += 1
            continue
        verdict = answer.get("verdict") if isinstance(answer, dict) else None
        if verdict not in VERDICTS:
            failed += 1
            continue
        found.append({"a": a, "b": b, "verdict": verdict, "model": endpoint.model})
    return found, failed


def corroboration_changes(
    evidence: list[dict], pairs: dict[tuple[str, str], float], verdicts: dict | None = None
) -> list[dict]:
    """[{uid, n, strength}] for the evidence whose corroboration differs from what it holds.
    `evidence`: rows with uid, source, url, strength, corroborated_by; `pairs`: the SIMILAR_TO
    scores by (uid, uid); `verdicts`: the judge's by pair (only "supports" counts; a pair
    without one counts by meaning)."""
    by_uid = {row["uid"]: row for row in evidence}
    agreeing: dict[str, set[str]] = defaultdict(set)
    for a, b in independent_pairs(evidence, pairs):
        if (verdicts or {}).get((a, b), "supports") != "supports":
            continue
        agreeing[a].add(source_of(by_uid[b]))
        agreeing[b].add(source_of(by_uid[a]))
    changes = []
    for uid, row in by_uid.items():
        n = len(agreeing.get(uid, ()))
        if (row.get("corroborated_by") or 0) != n:
            changes.append({"uid": uid, "n": n, "strength": refined_strength(row["strength"], n)})
    return changes
