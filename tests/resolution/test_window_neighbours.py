"""The batched gate reads the neighbours of the matches it scores once per window (one query for
every entity the window's index lookups will score, each entity once), and decides as the
per-name gate does, which reads them with every match, on a small set of documents whose
names are told apart by who is named beside them."""

from apps.graph import cypher
from apps.graph.cypher import ScopedTx
from apps.resolution import gate_batch
from apps.resolution.candidates import EntityCandidate, Provenance
from apps.resolution.entity_writes import do_resolve_and_write
from apps.resolution.gate import candidates_embed
from apps.resolution.window_resolution import do_window_resolve
from tests.chunks import document_for
from tests.conftest import scope_for
from tests.review.review_fixtures import ingest

DOCUMENTS = [
    ("Northwind Robotics hired Maria Okafor in Porto; Daniel Reyes founded it.", [
        EntityCandidate("Northwind Robotics", "Organization"),
        EntityCandidate("Maria Okafor", "Person"),
        EntityCandidate("Daniel Reyes", "Person"),
        EntityCandidate("Porto", "Location"),
    ]),
    ("Globex Corporation opened an office in Oslo, run by Daniel Reyes.", [
        EntityCandidate("Globex Corporation", "Organization"),
        EntityCandidate("Oslo", "Location"),
        EntityCandidate("Daniel Reyes", "Person"),
    ]),
]  # fmt: skip
BESIDE_NORTHWIND = (("Organization", "Northwind Robotics"), ("Person", "Maria Okafor"))
WINDOW = [
    # Variants of written names, found by the indexes (not by the exact name), with context.
    EntityCandidate("Northwind Robotics GmbH", "Organization",
                    context=(("Person", "Maria Okafor"), ("Person", "Daniel Reyes"))),
    EntityCandidate("Dan Reyes", "Person", context=BESIDE_NORTHWIND),
    EntityCandidate("M. Okafor", "Person", context=(("Organization", "Northwind Robotics"),)),
    EntityCandidate("Daniel Reyes", "Person", context=(("Location", "Oslo"),)),
    EntityCandidate("Globex Corp", "Organization", context=(("Location", "Oslo"),)),
    EntityCandidate("Porto", "Location"),
]  # fmt: skip


def _decisions(receipts):
    return [(r.name, r.action, r.matched_name, tuple(p["name"] for p in r.proposed),
             None if r.score is None else round(r.score, 3), tuple(sorted(r.signals)))
            for r in receipts]  # fmt: skip


def _world(make_tenant):
    scope = scope_for(make_tenant())
    for text, entities in DOCUMENTS:
        ingest(scope, text, entities)
    return scope, Provenance(scope.actor, document_for(scope, "a third document"))


def test_neighbours_read_once_per_window_decide_as_the_per_name_gate(make_tenant, monkeypatch):
    window = candidates_embed(WINDOW)
    one_by_one, provenance = _world(make_tenant)
    expected = cypher.write_unit(one_by_one, lambda stx: do_resolve_and_write(
        stx, entities=window, relations=[], provenance=provenance))  # fmt: skip
    batched, provenance = _world(make_tenant)
    asked = []
    run = ScopedTx.run

    def spy(self, query, **params):
        if query == gate_batch.CONTEXTS_READ:
            asked.append(params["uids"])
        return run(self, query, **params)

    monkeypatch.setattr(ScopedTx, "run", spy)
    got, _ = cypher.write_unit(batched, lambda stx: do_window_resolve(
        stx, entities=window, provenance=provenance, seen={}))  # fmt: skip
    assert _decisions(got) == _decisions(expected)
    # The neighbours were compared for matches the indexes found, not only for the same name.
    variant = next(r for r in got if r.name == "Dan Reyes")
    assert "context" in variant.signals, variant.reason
    # One read for the window, each entity once: only matches whose name is identical to or a
    # variant of the candidate's (the others' neighbours count for nothing): not 'Oslo', which
    # the places' meaning lookups return beside 'Porto'.
    [uids] = asked
    assert len(uids) == len(set(uids)) > 0
    names = {row["name"] for row in cypher.read(batched, "MATCH (e:Entity {tenant: $tenant}) "
             "WHERE e.uid IN $uids RETURN e.name AS name", uids=uids)}  # fmt: skip
    assert names <= {"Northwind Robotics", "Maria Okafor", "Globex Corporation", "Daniel Reyes",
                     "Porto"}, names  # fmt: skip
    assert "Northwind Robotics" in names and "Oslo" not in names, names
