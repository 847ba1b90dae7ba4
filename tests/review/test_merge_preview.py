"""The pair page's "what a merge changes" is computed by the merge's own plan: its counts are
the counts the merge then reports, for a pair with moved, combined and dropped edges."""

import pytest

from apps.review.selectors import pair_detail
from apps.review.services import check_review_confirm
from tests.review.review_fixtures import anthropic_pair, pending_pairs

pytestmark = pytest.mark.django_db


def test_preview_counts_equal_the_merge_result(scope):
    anthropic_pair(scope)
    (review,) = pending_pairs(scope)
    change = pair_detail(scope, uid=review["uid"])["change"]

    result = check_review_confirm(scope, review_uid=review["uid"])

    assert result["moved"] == change["edges_moved"]
    assert result["combined"] == change["relations_combined"] >= 1  # both BUILD Claude
    assert result["dropped"] == change["edges_dropped"] >= 1  # the SAME_AS between the two
    assert sum(t["n"] for t in change["by_type"]) == change["edges_moved"]
    assert result["aliases_absorbed"] == change["aliases_absorbed"]
