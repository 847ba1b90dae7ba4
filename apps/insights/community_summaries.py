"""The summary of one community: extractive by default (no network), an LLM's behind the one
chat client when COMMUNITY_LLM_URL is set.

Extractive: the community's most central members (PageRank on the refresh's projection), its
strongest relations inside, and the most representative sentences of the chunks that name its
members: the chunks nearest the centroid of their vectors (vector centrality), from each the
first sentence naming a member. The LLM reads the same material and answers a strict schema
(SUMMARY_SCHEMA); an answer that fails the check, or no answer, falls back to the extractive
summary and is counted by the caller."""

from __future__ import annotations

import numpy as np
from django.conf import settings

from memoryproject.chat_completions import ChatEndpoint, ChatFailed, chat_complete_json
from memoryproject.sentences import sentences

NAMED_BY = 3  # a community is named by its most central members
SUMMARY_MEMBERS = 5
SENTENCES = 3
MAX_SENTENCE = 300
MAX_SUMMARY = 2000
MAX_TITLE = 200
SUMMARY_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["title", "summary"],
    "properties": {"title": {"type": "string"}, "summary": {"type": "string"}},
}
SYSTEM = (
    "You summarise one community of a knowledge graph: its central entities, the relations "
    "between them and passages of the documents that name them. Answer with a short title and a "
    "summary of at most five sentences that says what holds the community together. Use only "
    "the material given."
)


def representative_passages(chunks: list[dict], names: list[str], *, limit: int = SENTENCES
                            ) -> list[dict]:  # fmt: skip
    """The `limit` chunks nearest the centroid of the chunks' vectors (the most typical of
    the community), each as {uid, document, sentence}: its first sentence naming a member (its
    first sentence when none does)."""
    usable = [c for c in chunks if c.get("embedding")]
    if not usable:
        return []
    vectors = np.asarray([c["embedding"] for c in usable], dtype=float)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True) + 1e-12
    centroid = vectors.mean(axis=0)
    scores = vectors @ centroid
    order = sorted(range(len(usable)), key=lambda i: (-round(float(scores[i]), 9),
                                                      usable[i]["uid"]))  # fmt: skip
    lowered = [n.lower() for n in names if n]
    found = []
    for i in order[:limit]:
        chunk = usable[i]
        said = sentences(chunk["text"]) or [chunk["text"]]
        sentence = next((s for s in said if any(n in s.lower() for n in lowered)), said[0])
        found.append({"uid": chunk["uid"], "document": chunk["document"],
                      "sentence": sentence.strip()[:MAX_SENTENCE]})  # fmt: skip
    return found


def _relation_text(relation: dict) -> str:
    return f"{relation['s']} {relation['p'].lower().replace('_', ' ')} {relation['o']}"


def extractive_summary(members: list[dict], relations: list[dict], passages: list[dict]) -> str:
    """Central members, strongest relations, representative sentences, as one text."""
    parts = [", ".join(m["name"] for m in members[:SUMMARY_MEMBERS]) + "."]
    if relations:
        parts.append("; ".join(_relation_text(r) for r in relations) + ".")
    parts += [p["sentence"] for p in passages]
    return " ".join(parts)[:MAX_SUMMARY]


def community_name(members: list[dict]) -> str:
    return ", ".join(m["name"] for m in members[:NAMED_BY])


def summary_endpoint() -> ChatEndpoint | None:
    if not settings.COMMUNITY_LLM_URL:
        return None
    return ChatEndpoint(settings.COMMUNITY_LLM_URL.rstrip("/"), settings.COMMUNITY_LLM_MODEL,
                        api_key=settings.COMMUNITY_LLM_API_KEY)  # fmt: skip


def summary_checked(answer) -> dict | None:
    """{title, summary} when `answer` holds to SUMMARY_SCHEMA and its limits, else None."""
    if not isinstance(answer, dict) or set(answer) != {"title", "summary"}:
        return None
    title, summary = answer["title"], answer["summary"]
    if not isinstance(title, str) or not isinstance(summary, str):
        return None
    if not summary.strip() or len(summary) > MAX_SUMMARY or len(title) > MAX_TITLE:
        return None
    return {"title": title.strip(), "summary": summary.strip()}


def llm_summary(endpoint: ChatEndpoint, members: list[dict], relations: list[dict],
                passages: list[dict]) -> dict | None:  # fmt: skip
    """The LLM's {title, summary} of the material, or None (not asked, or not an answer)."""
    user = "\n".join(
        ["Entities (most central first):", *(f"- {m['name']} ({m['type']})" for m in members),
         "Relations:", *(f"- {_relation_text(r)}" for r in relations),
         "Passages:", *(f"- {p['sentence']}" for p in passages)]
    )  # fmt: skip
    try:
        answer = chat_complete_json(endpoint, system=SYSTEM, user=user, schema=SUMMARY_SCHEMA,
                                    schema_name="community_summary")  # fmt: skip
    except ChatFailed:
        return None
    return summary_checked(answer)
