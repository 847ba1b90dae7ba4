"""How many active entities a tenant has of one type, and how many distinct names they bear:
the reference of the name's term-frequency adjustment (match_model.name_tf_adjustment).

Counting reads every entity of the type, so the answer is kept per process for CACHE_SECONDS:
the ratio it feeds moves slowly, and a decision must not cost a scan of the tenant.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from apps.graph.cypher import ScopedTx

CACHE_SECONDS = 300.0

TYPE_COUNTS = """
MATCH (e:Entity {tenant: $tenant})
WHERE e.type = $type AND e.status = 'active'
RETURN count(e) AS entities, count(DISTINCT e.norm_name) AS names
"""


@dataclass(frozen=True)
class TypeCounts:
    entities: int
    names: int


_cache: dict[tuple[str, str], tuple[float, TypeCounts]] = {}
_lock = threading.Lock()


def type_name_counts(stx: ScopedTx, entity_type: str) -> TypeCounts:
    key = (stx.scope.tenant, entity_type)
    now = time.monotonic()
    with _lock:
        cached = _cache.get(key)
    if cached and now - cached[0] < CACHE_SECONDS:
        return cached[1]
    row = stx.run(TYPE_COUNTS, type=entity_type)[0]
    counts = TypeCounts(entities=int(row["entities"]), names=int(row["names"]))
    with _lock:
        _cache[key] = (now, counts)
    return counts
