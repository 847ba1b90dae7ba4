"""A small, honest first-run data set for the demo tenant, written through the same services the
API calls: documents (extracted and agent-sent facts) whose entities leave real pending reviews,
a conversation with its summary, an episode that ended, a promotion rule declared in data and the
lesson it promotes from the episode.

It only ever fills an empty tenant, and only once (an audit entry records it), so a second
`make run`, a tenant someone already uses, or one whose demo data was erased, is left as it is."""

from __future__ import annotations

import time
from dataclasses import replace

from apps.conversations.services import check_message_append
from apps.conversations.summaries import session_summarize
from apps.graph import cypher
from apps.graph.scope import Scope
from apps.ingestion.services import check_document_submit, check_facts_submit
from apps.lessons.services.episodes import (
    check_entry_record,
    check_episode_close,
    check_episode_open,
)
from apps.lessons.services.promotion import check_promote
from apps.lessons.services.promotion_rules import check_promotion_rule_save
from apps.tenants.auth import scope_for_system
from apps.tenants.models import AuditEvent, KeyScope, Tenant
from apps.tenants.selectors import tenant_stats
from apps.tenants.services import audit_record

ACTOR = "agent:demo"
FILLED = "demo.data_filled"
ENGINE = "A mechanical general-purpose computer designed by Charles Babbage, never completed."
BABBAGE = "English mathematician and engineer who designed the Difference and Analytical Engines."
LOVELACE = "English mathematician who wrote the first published program for the Analytical Engine."

DOCUMENTS = [
    (
        "The Analytical Engine",
        "# The Analytical Engine\n\n"
        "Charles Babbage designed the Analytical Engine in London in 1837. The machine was to "
        "read its program from punched cards, an idea taken from the Jacquard loom.\n\n"
        "Ada Lovelace translated an article on the engine by Luigi Menabrea and added her own "
        "notes. Her Note G describes how the engine could compute Bernoulli numbers.",
    ),
    (
        "The Difference Engine",
        "# The Difference Engine\n\n"
        "Charles Babbage began the Difference Engine in 1822 with funding from the British "
        "government. Joseph Clement built its parts in his workshop in London.\n\n"
        "The Science Museum in London completed a working Difference Engine No. 2 in 1991.",
    ),
]

# Agent-sent facts (POST /facts): each with the text it was read from. The second names the
# same engine and the same man differently; the gate is not sure enough to merge them alone, so
# a reviewer gets to decide.
FACTS = [
    (
        "Babbage's Analytical Engine was programmed with punched cards. Ada Lovelace wrote the "
        "first program for the Analytical Engine.",
        [
            {"name": "Analytical Engine", "type": "Object", "description": ENGINE},
            {"name": "Charles Babbage", "type": "Person", "description": BABBAGE},
            {"name": "Ada Lovelace", "type": "Person", "description": LOVELACE},
        ],
        [
            {"subject": "Charles Babbage", "predicate": "DESIGNED", "object": "Analytical Engine"},
            {"subject": "Ada Lovelace", "predicate": "PROGRAMMED", "object": "Analytical Engine"},
        ],
    ),
    (
        "The Babbage Analytical Engine was described by Menabrea in 1842. Its designer, "
        "C. Babbage, lectured on it in Turin.",
        [
            {"name": "Babbage Analytical Engine", "type": "Object", "description": ENGINE},
            {"name": "C. Babbage", "type": "Person", "description": BABBAGE},
            {"name": "Turin", "type": "Location", "description": "A city in northern Italy."},
        ],
        [
            {
                "subject": "C. Babbage",
                "predicate": "DESIGNED",
                "object": "Babbage Analytical Engine",
            },
            {"subject": "C. Babbage", "predicate": "VISITED", "object": "Turin"},
        ],
    ),
]

CONVERSATION = [
    ("user", "Who wrote the first program for a computer?"),
    ("assistant", "Ada Lovelace, in her notes on the Analytical Engine, published in 1843."),
    ("user", "What did her program compute?"),
    ("assistant", "Bernoulli numbers, step by step, in Note G."),
    ("user", "Was the Analytical Engine ever built?"),
    ("assistant", "No. Charles Babbage never completed it; only parts of it were made."),
    ("user", "And the Difference Engine?"),
    ("assistant", "The Science Museum in London built a working Difference Engine No. 2 in 1991."),
]
CONVERSATION_USER, CONVERSATION_SID = "grace", "history-of-computing"
# One episode is enough in a demo: the rule asks for one (`at_least`), a real tenant's for more.
DEMO_RULE = {
    "name": "explain-by-table",
    "description": "An explanation the student understood teaches how to explain.",
    "episodes": {"having": ["outcome.understood", "outcome.method"]},
    "at_least": 1,
    "lessons": [
        {
            "id": "show-the-{outcome.method}",
            "statement": "Explain an early program by walking through its {outcome.method} "
            "of operations.",
            "agrees": {"field": "outcome.understood", "equals": True},
            "about": "episode",
        }
    ],
}

HAS_DATA = """
RETURN COUNT { MATCH (n:Document {tenant: $tenant}) } + COUNT { MATCH (n:Entity {tenant: $tenant}) }
     + COUNT { MATCH (n:Session {tenant: $tenant}) } + COUNT { MATCH (n:Episode {tenant: $tenant}) }
     AS nodes
"""
ENTITY_UID = "MATCH (e:Entity {tenant: $tenant, name: $name}) RETURN e.uid AS uid LIMIT 1"


def demo_scope(tenant: Tenant) -> Scope:
    """The seeder writes memory as an agent would, with no right beyond reading and writing it."""
    return scope_for_system(tenant, ACTOR, {KeyScope.MEMORY_READ, KeyScope.MEMORY_WRITE})


def tenant_has_data(scope: Scope) -> bool:
    return cypher.read(scope, HAS_DATA)[0]["nodes"] > 0


def demo_data_fill(*, tenant: Tenant) -> dict:
    """Fill an empty tenant with the demo data set; a tenant with any memory is left untouched.
    Returns what was written ({"filled": False} when the tenant had data)."""
    scope = demo_scope(tenant)
    if AuditEvent.objects.filter(tenant=tenant, action=FILLED).exists() or tenant_has_data(scope):
        return {"filled": False}
    started = time.monotonic()
    documents = [
        check_document_submit(scope, content=text, source="demo", title=title, wait=True)
        for title, text in DOCUMENTS
    ]
    for text, entities, relations in FACTS:
        check_facts_submit(scope, entities=entities, relations=relations, source_text=text)
    _conversation(scope)
    lesson = _episode_and_lesson(scope)
    stats = tenant_stats(scope)
    audit_record(
        scope,
        action=FILLED,
        details={k: stats[k] for k in ("documents", "entities", "messages", "pending_reviews")},
    )
    return {
        "filled": True,
        "documents": len(documents) + len(FACTS),
        "pending_reviews": stats["pending_reviews"],
        "lesson": lesson,
        "seconds": time.monotonic() - started,
    }


def _conversation(scope: Scope) -> None:
    for role, text in CONVERSATION:
        by = CONVERSATION_USER if role == "user" else "agent:demo"
        check_message_append(
            scope, user=CONVERSATION_USER, sid=CONVERSATION_SID, role=role, text=text, by=by
        )
    # The summarizer keeps the newest messages out of the summary; a short demo keeps two.
    short = replace(scope, settings={**scope.settings, "summary_keep_last": 2})
    session_summarize(short, user=CONVERSATION_USER, sid=CONVERSATION_SID)


def _entity(scope: Scope, name: str) -> str:
    rows = cypher.read(scope, ENTITY_UID, name=name)
    return rows[0]["uid"] if rows else ""


def _episode_and_lesson(scope: Scope) -> str:
    engine = _entity(scope, "Analytical Engine")
    about = [engine] if engine else []
    opened = check_episode_open(
        scope, key="demo-bernoulli", title="Explain Note G to a student", about=about
    )
    first = check_entry_record(
        scope,
        episode=opened["id"],
        type="observation",
        text="The student asked what the first program computed.",
        cites=[{"kind": "entity", "id": engine}] if engine else [],
    )
    check_episode_close(
        scope,
        episode=opened["id"],
        outcome={"understood": True, "method": "table"},
        text="Walking through Note G's table, row by row, made it clear.",
        cites=[{"kind": "entry", "id": first["id"]}],
    )
    check_promotion_rule_save(scope, rule=DEMO_RULE)
    promoted = check_promote(scope, rule=DEMO_RULE["name"])
    return promoted["lessons"][0]["id"]
