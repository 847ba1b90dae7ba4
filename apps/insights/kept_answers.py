"""Answers of the whole-graph algorithms kept until the graph they read changes.

An answer without `at` is filed in Django's cache under the tenant, the tenant's graph version
(apps/graph/graph_version.py) read before computing, and the question. A write commits its change
and the raised version together, so an answer computed while a write ran is filed under the old
version and never given once the new one is read. Answers at a time are not kept: a relation's
window closed later changes what held then without a write this counter sees.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from django.core.cache import cache

from apps.graph.graph_version import graph_version
from apps.graph.scope import Scope

KEPT_SECONDS = 24 * 3600


def _key(scope: Scope, version: int, question: dict) -> str:
    text = json.dumps(question, sort_keys=True, default=str)
    digest = hashlib.sha256(text.encode()).hexdigest()[:32]
    return f"insights:{scope.tenant}:{version}:{digest}"


def kept_answer(scope: Scope, question: dict, compute: Callable[[], Any]) -> tuple[Any, bool]:
    """(answer, kept): the answer filed for `question` at the current graph version, or
    `compute()` filed there now. `question` names everything the answer depends on."""
    key = _key(scope, graph_version(scope), question)
    answer = cache.get(key)
    if answer is not None:
        return answer, True
    answer = compute()
    cache.set(key, answer, KEPT_SECONDS)
    return answer, False


def kept_only(scope: Scope, question: dict) -> Any | None:
    """The answer filed for `question` at the current graph version, or None: never computes
    (for a view that shows what is known and must stay fast)."""
    return cache.get(_key(scope, graph_version(scope), question))
