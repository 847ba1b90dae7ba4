"""A kept answer (no `at`) is given again while the graph is as it was, and never after a write
it should see: a chunk's entities and relations, a merge, its undo, an episode about entities.
Data is written through the real services."""

import pytest

from apps.graph.graph_version import graph_version
from apps.insights import selectors
from apps.lessons.services.episodes import check_episode_open
from apps.resolution.candidates import EntityCandidate, RelationCandidate
from apps.review.services import check_merge_undo, check_review_confirm
from tests.conftest import scope_for
from tests.insights.known_graph import T1, known_graph_write
from tests.review.review_fixtures import anthropic_pair, ingest, pending_pairs


def _sizes(scope, **kwargs):
    answer = selectors.graph_groups(scope, limit=100, members=100, **kwargs)
    return answer["kept"], answer["nodes"], sorted(g["size"] for g in answer["groups"])


@pytest.mark.slow
def test_kept_until_a_write_merge_or_undo_changes_the_graph(tenant):
    scope = scope_for(tenant)
    anthropic_pair(scope)  # Anthropic, Claude, Dario; Anthropic AI, Google (pending pair)
    first = _sizes(scope)
    assert first == (False, 5, [5])
    assert _sizes(scope) == (True, 5, [5])  # nothing changed: the same answer, not computed
    important = selectors.graph_important(scope)
    assert not important["kept"] and selectors.graph_important(scope)["kept"]

    ingest(scope, "Mistral trains models in Paris.",
           [EntityCandidate("Mistral", "Organization", description="A French AI company."),
            EntityCandidate("Paris", "Location", description="The capital of France.")],
           [RelationCandidate(0, "LOCATED_IN", 1)])  # fmt: skip
    assert _sizes(scope) == (False, 7, [2, 5])
    assert not selectors.graph_important(scope)["kept"]

    version = graph_version(scope)
    pair = pending_pairs(scope)[0]["uid"]
    merge = check_review_confirm(scope, review_uid=pair)
    assert graph_version(scope) > version
    assert _sizes(scope) == (False, 6, [2, 4])
    assert _sizes(scope)[0]
    check_merge_undo(scope, merge_uid=merge["merge_uid"])
    assert _sizes(scope) == (False, 7, [2, 5])


@pytest.mark.slow
def test_records_answers_see_a_new_episode_and_answers_at_a_time_are_never_kept(tenant):
    scope = scope_for(tenant)
    prefix = known_graph_write(scope)
    assert _sizes(scope, records=True)[:2] == (False, 12)
    assert _sizes(scope, records=True)[0]
    check_episode_open(scope, title="C meets D", about=[prefix + "C1", prefix + "D1"])
    kept, nodes, sizes = _sizes(scope, records=True)
    assert (kept, nodes) == (False, 13) and 4 in sizes  # C1, C2, D1 and the episode
    assert not selectors.graph_groups(scope, at=T1)["kept"]
    assert not selectors.graph_groups(scope, at=T1)["kept"]


def test_another_tenants_write_keeps_this_tenants_answer(make_tenant):
    mine, other = scope_for(make_tenant()), scope_for(make_tenant())
    known_graph_write(mine)
    assert not selectors.graph_groups(mine)["kept"]
    ingest(other, "Mistral trains models.",
           [EntityCandidate("Mistral", "Organization", description="A French AI company.")])  # fmt: skip
    assert selectors.graph_groups(mine)["kept"]
