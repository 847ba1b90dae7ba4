"""The batched gate of a window decides as the per-name gate does: two tenants with the same
graph, the same window of candidates, one through `do_resolve_and_write` (a query or more per
name), the other through `do_window_resolve` (a few queries for the window)."""

from apps.graph import cypher
from apps.graph.cypher import count_round_trips
from apps.resolution.candidates import EntityCandidate, Provenance
from apps.resolution.entity_writes import do_resolve_and_write
from apps.resolution.gate import candidates_embed
from apps.resolution.window_resolution import do_window_resolve
from tests.chunks import document_for
from tests.conftest import scope_for
from tests.review.review_fixtures import ingest

PUMPS = "An engineering company in Lisbon that builds water pumps for irrigation."
EXISTING = [
    EntityCandidate("Acme Corporation", "Organization", description=PUMPS),
    EntityCandidate("Ada Lovelace", "Person", values={"email": "ada@example.org"}),
    EntityCandidate("Charles Babbage", "Person"),
    EntityCandidate("Lisbon", "Location"),
]
WINDOW = [
    EntityCandidate("Acme Corp", "Organization", description=PUMPS),
    EntityCandidate("Ada Lovelace", "Person", values={"email": "ada@example.org"}),  # by email
    EntityCandidate("Charles Babbage", "Person"),  # a name alone: pending
    EntityCandidate("Globex Corp", "Organization", description="A maker of turbines in Oslo."),
    # Sorted after 'globex corp': the entity the window has just created is its match.
    EntityCandidate(
        "Globex Corporation", "Organization", description="A maker of turbines in Oslo."
    ),  # fmt: skip
    EntityCandidate("Oslo", "Location"),
    EntityCandidate("Lisbon", "Location"),
    EntityCandidate("Oslo", "Location"),  # the same name twice: one decision
    EntityCandidate("Nowhere", "Planet"),  # refused
]


def _decisions(receipts):
    return [(r.name, r.action, r.matched_name, tuple(p["name"] for p in r.proposed),
             None if r.score is None else round(r.score, 3)) for r in receipts]  # fmt: skip


def _world(make_tenant):
    scope = scope_for(make_tenant())
    ingest(scope, "Acme Corporation hired Ada Lovelace and Charles Babbage in Lisbon.", EXISTING)
    return scope, Provenance(scope.actor, document_for(scope, "a second document"))


def test_the_batched_gate_decides_as_the_per_name_gate(make_tenant):
    window = candidates_embed(WINDOW)
    one_by_one, provenance = _world(make_tenant)
    expected = cypher.write_unit(one_by_one, lambda stx: do_resolve_and_write(
        stx, entities=window, relations=[], provenance=provenance))  # fmt: skip
    batched, provenance = _world(make_tenant)
    seen: dict = {}
    with count_round_trips() as trips:
        got, entity_of = cypher.write_unit(batched, lambda stx: do_window_resolve(
            stx, entities=window, provenance=provenance, seen=seen))  # fmt: skip
    assert _decisions(got) == _decisions(expected)
    actions = {r.name: r.action for r in got}
    assert actions["Charles Babbage"] == "pending" and actions["Nowhere"] == "refused"
    # Two lookups and the neighbours of what they found, one create, one absorb, one values
    # write at most, the version bump.
    assert trips[0] <= 8, trips[0]
    # The window's names are known for the document's next windows, with their entities.
    assert seen[("Location", "oslo")] == entity_of[5] == entity_of[7]


def test_a_name_the_document_already_resolved_goes_to_the_same_entity(make_tenant):
    """Within one document one name is one entity: `seen` holds what earlier windows resolved,
    and an entity merged away or renamed since is not taken."""
    scope, provenance = _world(make_tenant)
    first = candidates_embed([EntityCandidate("Zed Quill", "Person")])
    seen: dict = {}
    _, entity_of = cypher.write_unit(scope, lambda stx: do_window_resolve(
        stx, entities=first, provenance=provenance, seen=seen))  # fmt: skip
    assert seen == {("Person", "zed quill"): entity_of[0]}
    again, _ = cypher.write_unit(scope, lambda stx: do_window_resolve(
        stx, entities=first, provenance=provenance, seen=seen))  # fmt: skip
    assert again[0].action == "unchanged" and again[0].entity_uid == entity_of[0]
    assert "already named so" in again[0].reason
    stale = {("Person", "zed quill"): "no-such-entity"}
    other, _ = cypher.write_unit(scope, lambda stx: do_window_resolve(
        stx, entities=first, provenance=provenance, seen=stale))  # fmt: skip
    assert other[0].action == "pending"  # a name alone never merges


def test_the_window_keeps_a_persons_name_parse_and_reads_kept_ones_instead_of_parsing(
    make_tenant, monkeypatch
):
    """As the per-name gate: a worker that did not write an entity reads its name's parse with
    the match, and the persons the window creates keep theirs."""
    from apps.resolution.comparisons import person_names

    scope, provenance = _world(make_tenant)  # Ada Lovelace, written with her parse
    monkeypatch.setattr(person_names, "_parses", {})  # a worker that parsed nothing yet
    parsed_here = []
    parse = person_names._parse
    monkeypatch.setattr(person_names, "_parse", lambda n: parsed_here.append(n) or parse(n))
    window = candidates_embed([
        EntityCandidate("A. Lovelace", "Person", values={"email": "ada@example.org"}),
        EntityCandidate("Dr. Grace Brewster Hopper", "Person"),
    ])  # fmt: skip
    got, entity_of = cypher.write_unit(scope, lambda stx: do_window_resolve(
        stx, entities=window, provenance=provenance, seen={}))  # fmt: skip
    assert got[0].matched_name == "Ada Lovelace", got[0].reason
    assert "Ada Lovelace" not in parsed_here, parsed_here
    [kept] = cypher.read(
        scope, "MATCH (e:Entity {tenant: $tenant, uid: $uid}) RETURN e.name_parsed AS parsed",
        uid=entity_of[1],
    )  # fmt: skip
    assert kept["parsed"] == person_names.parse_stored("Dr. Grace Brewster Hopper")
