"""The page "Review trends": a pair proposed today shows in today's bar and in the P(same)
histogram, its decision in the same day's bars, and the numbers are in the tables."""

from __future__ import annotations

import pytest
from django.test import Client

from apps.review.services import check_review_reject
from apps.review.trend_selectors import review_trends
from apps.tenants.models import Role
from memoryproject.bar_plots import bar_plot
from tests.conftest import scope_for
from tests.review.review_fixtures import anthropic_pair, pending_pairs

pytestmark = pytest.mark.django_db


def test_bars_are_scaled_to_a_round_top_and_keep_their_numbers():
    plot = bar_plot(["a", "b"], {"x": [3, 7], "y": [0, 1]})
    assert plot["ticks"][-1]["text"] == "10" and plot["legend"][1]["series"] == "y"
    tallest = max(plot["bars"], key=lambda b: b["h"])
    assert tallest["value"] == 7 and tallest["h"] == pytest.approx(0.7 * 208, abs=0.2)
    assert plot["rows"] == [{"label": "a", "values": [3, 0]}, {"label": "b", "values": [7, 1]}]
    assert bar_plot(["a"], {"x": [0]})["empty"] is True


def test_a_proposed_then_rejected_pair_shows_in_the_days_and_the_histogram(tenant, make_person):
    scope = scope_for(tenant)
    anthropic_pair(scope)
    [pair] = pending_pairs(scope)
    trends = review_trends(scope, days=7)
    assert len(trends["days"]) == 7 and trends["days"][-1]["proposed"] == 1
    assert trends["pending"] == 1 and sum(b["pairs"] for b in trends["histogram"]) == 1

    client = Client()
    person = make_person(tenant, Role.VIEWER)
    client.login(username=person.username, password=person.raw_password)
    html = client.get("/review/trends/").content.decode()
    assert 'id="review-histogram"' in html and 'data-value="1"' in html
    assert "No pair was proposed" not in html

    check_review_reject(scope_for(tenant, actor="person:r", kind="person"), review_uid=pair["uid"])
    after = review_trends(scope, days=7)
    assert after["days"][-1]["rejected"] == 1 and after["pending"] == 0
