"""Answers of the whole-graph algorithms kept until the graph they read changes.

An answer without `at` is filed in Django's cache under the tenant, the graph's stamp and version
(apps/graph/graph_version.py) read before computing, and the question. A write commits its change
and the raised version together, so an answer computed while a write ran is filed under the old
version and never given once the new one is read. A write that deletes, and a graph made again
under the tenant's id, give the graph a new stamp: nothing filed before is given again. Answers at a time are not kept: a relation's
window closed later changes what held then without a write this counter sees.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from django.core.cache import cache

from apps.graph.graph_version import graph_stamp_and_version, graph_stamp_read
from apps.graph.scope import Scope

KEPT_SECONDS = 24 * 3600


def _key(scope: Scope, stamp: str, version: int, question: dict) -> str:
    text = json.dumps(question, sort_keys=True, default=str)
    digest = hashlib.sha256(text.encode()).hexdigest()[:32]
    return f"insights:{scope.tenant}:{stamp}:{version}:{digest}"


def kept_answer_stamped(
    scope: Scope, question: dict, compute: Callable[[], Any]
) -> tuple[Any, bool, str]:
    """(answer, kept, stamp): the answer filed for `question` at the graph's current stamp and
    version, or `compute()` filed there now. `question` names everything the answer depends on."""
    stamp, version = graph_stamp_and_version(scope)
    key = _key(scope, stamp, version, question)
    answer = cache.get(key)
    if answer is not None:
        return answer, True, stamp
    answer = compute()
    cache.set(key, answer, KEPT_SECONDS)
    return answer, False, stamp


def kept_answer(scope: Scope, question: dict, compute: Callable[[], Any]) -> tuple[Any, bool]:
    """(answer, kept): kept_answer_stamped without the stamp."""
    answer, kept, _stamp = kept_answer_stamped(scope, question, compute)
    return answer, kept


def kept_only(scope: Scope, question: dict) -> Any | None:
    """The answer filed for `question` at the graph's current stamp and version, or None: never
    computes and never writes (for a view that shows what is known and must stay fast)."""
    stamp, version = graph_stamp_read(scope)
    if stamp is None:
        return None
    return cache.get(_key(scope, stamp, version, question))
