"""How the console shows a tenant's settings to a person: a group, a label, a unit and a
sentence of help for every setting of TENANT_DEFAULTS (tests/tenants/test_settings_labels.py
checks none is missing). The rules and bounds are apps/tenants/tenant_settings.py."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Label:
    group: str
    label: str
    unit: str
    help: str


MATCHING, LIMITS, CONVERSATIONS, LESSONS, KNOWLEDGE, GRAPH = (
    "Matching and review", "Limits of a request", "Conversations", "Episodes, lessons and playbooks",
    "Knowledge promotion", "Graph and work graph",
)  # fmt: skip
GROUPS = [MATCHING, LIMITS, CONVERSATIONS, LESSONS, KNOWLEDGE, GRAPH, "Other"]

LABELS = {
    "merge_threshold": Label(MATCHING, "Merge on its own at", "P(same)",
        "Two entities this likely the same merge without a reviewer."),
    "review_threshold": Label(MATCHING, "Ask a reviewer from", "P(same)",
        "Pairs from here up to the merge level wait in the review queue; below, they stay apart."),
    "model_learn_every": Label(MATCHING, "Relearn the match model every", "decisions",
        "The tenant's match model is refitted after this many review decisions."),
    "model_prior_pairs": Label(MATCHING, "Weight of the shipped model", "decided pairs",
        "The shipped model counts as this many decided pairs when the tenant's model learns."),
    "sole_name_merges": Label(MATCHING, "A sole place or registered firm name merges", "0 or 1",
        "1: a place, or a firm's name with its legal form, that no other entity of the tenant "
        "carries is one entity without more evidence. 0: it waits for a reviewer like any name."),
    "max_document_bytes": Label(LIMITS, "Largest document", "bytes",
        "A bigger upload is refused with 413."),
    "max_inline_document_bytes": Label(LIMITS, "Largest document ingested at once", "bytes",
        "Up to this size `POST /documents?wait=true` ingests in the request; bigger ones queue."),
    "max_message_chars": Label(LIMITS, "Longest conversation message", "characters",
        "A longer message is refused, naming this limit."),
    "max_facts_per_request": Label(LIMITS, "Facts per request", "entities and relations",
        "The most entities plus relations one facts request may carry."),
    "summarize_waiting": Label(CONVERSATIONS, "Summarise after", "messages",
        "A summary job starts when this many messages are neither summarised nor kept as they are."),
    "summary_keep_last": Label(CONVERSATIONS, "Keep verbatim", "newest messages",
        "The newest messages a conversation's context gives as they are, outside the summary."),
    "lesson_threshold": Label(LESSONS, "Episodes a lesson needs", "episodes",
        "A lesson is drawn once this many closed episodes agree."),
    "playbook_needs": Label(LESSONS, "Episodes a playbook needs", "episodes",
        "Used when the caller does not say how many."),
    "playbook_needs_floor": Label(LESSONS, "Fewest episodes a caller may ask for", "episodes",
        "A caller's smaller `needs` is raised to this."),
    "knowledge_promotion_minutes": Label(KNOWLEDGE, "Promote knowledge every", "minutes",
        "How often hot conversation chains are promoted into knowledge."),
    "knowledge_heat_threshold": Label(KNOWLEDGE, "Heat a chain needs", "0 to 1",
        "Chains at least this hot are promoted."),
    "knowledge_extractor": Label(KNOWLEDGE, "Knowledge extractor", "",
        "How facts are read from conversations: rules, or an LLM (KNOWLEDGE_LLM_URL)."),
    "entry_extractor": Label(LESSONS, "Entry extractor", "",
        "How rows are read from the text of episode entries."),
    "graph_memory_mb": Label(GRAPH, "Memory of one graph algorithm", "MB",
        "A graph algorithm (communities, centrality) needing more is refused, not run."),
    "similar_to_threshold": Label(GRAPH, "Link similar work at", "cosine",
        "Work-graph nodes at least this similar are linked by SIMILAR_TO."),
    "similarity_settle_seconds": Label(GRAPH, "Wait before linking similar work", "seconds",
        "SIMILAR_TO links are synced once writes have paused this long."),
    "evidence_ga_floor": Label(GRAPH, "Goal-alignment floor", "0 to 1",
        "Evidence whose goal alignment is below this loses strength over time."),
}  # fmt: skip


def label_for(name: str, fallback_help: str = "") -> Label:
    """The setting's label; a setting added without one shows its name in words."""
    if name in LABELS:
        return LABELS[name]
    return Label("Other", name.replace("_", " ").capitalize(), "", fallback_help)
