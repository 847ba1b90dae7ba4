"""A firm split into fragments for the cluster review tests, built through ingestion and the
gate: each fragment is named in a document of its own, hired someone there (a relation and a
mention of its own), and is left pending against one or more of the others."""

from __future__ import annotations

from apps.graph import cypher
from apps.resolution.candidates import EntityCandidate, RelationCandidate
from tests.review.review_fixtures import ANTHROPIC, ingest

# Pending pairs the gate leaves (none is close enough to merge on its own): AI-Anthropic,
# Labs-Anthropic, Labs-AI, Inc-Anthropic, Inc-AI, Safety-AI, Studio-AI.
FIRM = ("Anthropic", "Anthropic AI", "Anthropic Labs", "Anthropic Inc", "Anthropic Safety",
        "Anthropic Studio")  # fmt: skip
# Eight more variants: a component of 14, more than one cluster holds.
MORE = ("Anthropic Corp", "Anthropic Ltd", "Anthropic LLC", "Anthropic Group", "Anthropic Systems",
        "Anthropic Cloud", "Anthropic Data", "Anthropic Tech")  # fmt: skip
# One person per fragment, none like another (two alike would be a pair of their own).
PEOPLE = ("Ada Byron", "Bob Moses", "Cyd Charisse", "Dee Snider", "Eve Arden", "Fay Wray",
          "Gus Grissom", "Hal Holbrook", "Ike Turner", "Joe Louis", "Kay Starr", "Lon Chaney",
          "Mae West", "Ned Rorem")  # fmt: skip
# Two phones that differ: evidence against the pair, a conflicting value in the cluster.
PHONES = {"Anthropic": "+1 415 555 0100", "Anthropic Labs": "+44 20 7946 0958"}


def firm_fragments(scope, names=FIRM) -> dict[str, str]:
    """Each name's entity uid; every fragment after the first is pending, not created."""
    uids = {}
    for i, name in enumerate(names):
        values = {"phone": PHONES[name]} if name in PHONES else {}
        receipts = ingest(
            scope, f"{name} hired {PEOPLE[i]} last year.",
            [EntityCandidate(name, "Organization", description=ANTHROPIC, values=values),
             EntityCandidate(PEOPLE[i], "Person", description="An engineer.")],
            [RelationCandidate(0, "HIRED", 1, confidence=0.8)], title=f"about {name}",
        )  # fmt: skip
        assert i == 0 or receipts[0].action == "pending", (name, receipts[0].reason)
        uids[name] = receipts[0].entity_uid
    return uids


def entity_states(scope) -> dict[str, str]:
    rows = cypher.read(
        scope, "MATCH (e:Entity {tenant: $tenant, type: 'Organization'}) "
        "RETURN e.name AS name, e.status AS status",
    )  # fmt: skip
    return {r["name"]: r["status"] for r in rows}
