"""A tenant's candidates do not depend on what else is in the store or on the order its notes
came in: a small tenant's nearest entities are ranked exactly (the vector index's approximate
answer moves with other tenants' vectors), and the neighbours read beside a match are chosen
by the text, not by the order the chunks were written."""

import math
import random

from apps.graph import cypher
from apps.resolution import gate_batch, meaning_search
from apps.resolution.candidates import EntityCandidate
from apps.resolution.match_sides import CONTEXT_NAMES, CONTEXT_PARAMS
from tests.conftest import scope_for
from tests.review.review_fixtures import ingest

DIMENSIONS = 384
SMALL = 200  # below meaning_search.EXACT_POOL
CROWD = 3000  # another tenant's entities of the same type, in the same vector index

# Random directions: the hardest case for an approximate index (measured on the test Neo4j:
# the index's 20 nearest of a 200-entity tenant beside 3,000 others held 93% of the true ones).
PEOPLE = """
UNWIND range(1, $n) AS i
CREATE (:Entity {tenant: $tenant, uid: $prefix + toString(i), name: 'person ' + toString(i),
                 norm_name: 'person ' + toString(i), type: 'Person', status: 'active',
                 embedding: [j IN range(1, $dimensions) | rand() - 0.5]})
"""


def _people(scope, n: int, prefix: str) -> dict[str, list[float]]:
    # uids are global (unique across tenants): the tenant's own prefix keeps tests apart.
    cypher.write(scope, PEOPLE, n=n, prefix=f"{scope.tenant}-{prefix}", dimensions=DIMENSIONS)
    rows = cypher.read(scope, "MATCH (e:Entity {tenant: $tenant}) RETURN e.uid AS uid, "
                       "e.embedding AS embedding")  # fmt: skip
    return {row["uid"]: row["embedding"] for row in rows}


def _cosine(a, b) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True)) / math.sqrt(
        sum(x * x for x in a) * sum(y * y for y in b)
    )


def _nearest_found(scope, queries):
    candidates = [EntityCandidate("Qzx Vrrk", "Person", embedding=tuple(q)) for q in queries]
    found = cypher.read_unit(scope, lambda stx: gate_batch.matches_find_all(
        stx, scope.tenant, candidates))  # fmt: skip
    return [{m.uid for m in matches} for matches in found]


def test_a_small_tenants_nearest_are_exact_whatever_another_tenant_holds(make_tenant):
    small, crowd = scope_for(make_tenant()), scope_for(make_tenant())
    vectors = _people(small, SMALL, "s")
    _people(crowd, CROWD, "c")
    rng = random.Random(7)
    queries = [[rng.random() - 0.5 for _ in range(DIMENSIONS)] for _ in range(12)]
    for query, found in zip(queries, _nearest_found(small, queries), strict=True):
        ranked = sorted(vectors, key=lambda uid: (-_cosine(vectors[uid], query), uid))
        nearest = set(ranked[: gate_batch.MEANING_HITS])
        assert nearest <= found, sorted(nearest - found)
        assert found <= set(vectors)  # never the other tenant's


def test_a_large_tenant_asks_the_vector_index(make_tenant, monkeypatch):
    """Past EXACT_POOL entities of the type the cost of a lookup must not grow with the tenant:
    the vector index answers (its hits, whatever they are, are what the lookup returns)."""
    scope = scope_for(make_tenant())
    vectors = _people(scope, 60, "l")
    monkeypatch.setitem(meaning_search.PARAMS, "exact_pool", 50)
    query = [random.Random(3).random() - 0.5 for _ in range(DIMENSIONS)]
    by_index = {row["uid"] for row in cypher.read(scope, """
        CYPHER 25 MATCH (hit:Entity) SEARCH hit IN (VECTOR INDEX entity_embedding FOR $vector
          WHERE hit.tenant = $tenant AND hit.type = 'Person' AND hit.status = 'active' LIMIT $k)
        RETURN hit.uid AS uid""", vector=query, k=gate_batch.MEANING_HITS)}  # fmt: skip
    [found] = _nearest_found(scope, [query])
    assert len(by_index) == gate_batch.MEANING_HITS and by_index <= found <= set(vectors)


# One person (one entity: her address merges her mentions) named in more chunks than a match's
# context reads (CONTEXT_CHUNKS), each time beside someone else.
MARIA = {"email": "maria.okafor@example.org"}
NOTES = [f"Maria Okafor met {other} in Porto." for other in (
    "Daniel Reyes", "Lena Fischer", "Tomas Novak", "Aiko Tanaka", "Omar Haddad", "Ines Duarte",
    "Pavel Orlov", "Sara Lindqvist", "Kofi Mensah", "Ruth Adler")]  # fmt: skip


def _context_of_maria(scope, notes) -> list:
    for text in notes:
        other = text.removeprefix("Maria Okafor met ").removesuffix(" in Porto.")
        ingest(scope, text, [EntityCandidate("Maria Okafor", "Person", values=MARIA),
                             EntityCandidate(other, "Person"),
                             EntityCandidate("Porto", "Location")])  # fmt: skip
    [row] = cypher.read(scope, "MATCH (e:Entity {tenant: $tenant, name: 'Maria Okafor'}) "
                        "RETURN e.uid AS uid")  # fmt: skip
    [side] = cypher.read(scope, gate_batch.CONTEXTS_READ, uids=[row["uid"]], **CONTEXT_PARAMS)
    return side["side"]["context"]


def test_the_neighbours_read_beside_a_match_do_not_depend_on_the_order_of_writes(make_tenant):
    forward = _context_of_maria(scope_for(make_tenant()), NOTES)
    backward = _context_of_maria(scope_for(make_tenant()), NOTES[::-1])
    assert forward == backward
    # Porto, beside her in every chunk read, comes first; then a few of the others, by name.
    assert forward[0] == ["Location", "Porto"] and 1 < len(forward) <= CONTEXT_NAMES
