"""Found pages as evidence: chunking, the three duplicate layers, strength from goal alignment."""

from __future__ import annotations

import pytest

from apps.tasks import selectors
from apps.tasks.services.page_ingest import alignment_strength, check_pages_ingest, soft_gate
from apps.tasks.services.task_writes import check_task_create
from memoryproject.api_errors import ApplicationError

PUMPS = (
    "# Centrifugal pump overheating\n\n"
    "Centrifugal pumps overheat when they run dry or against a closed discharge valve. The "
    "liquid in the casing heats up within minutes and the seals fail soon after.\n\n"
    "Worn bearings are the second cause of pump overheating: friction raises the bearing "
    "housing temperature well above eighty degrees before the motor trips.\n\n"
    "Cavitation at low suction pressure also heats the impeller and pits its vanes."
)
CAKES = (
    "Sponge cake recipe: whisk four eggs with sugar until pale, fold in sifted flour and bake "
    "at one hundred and eighty degrees for twenty five minutes. Let it cool before cutting it "
    "into layers and filling it with cream and fresh strawberries from the market."
)


def test_linear_rule_with_soft_gate():
    assert alignment_strength(1.0, floor=0.2) == pytest.approx(0.95)
    assert alignment_strength(-0.3, floor=0.2) == pytest.approx(0.30)
    assert alignment_strength(0.5, floor=0.2) == pytest.approx(0.30 + 0.5 * 0.65)
    # Below the floor the alignment is scaled down, not dropped.
    assert alignment_strength(0.1, floor=0.2) == pytest.approx(0.30 + 0.1 * 0.5 * 0.65)
    assert soft_gate(0.1, 0.2) == pytest.approx(0.5) and soft_gate(0.3, 0.2) == 1.0


def test_pages_become_scored_chunks_and_duplicates_are_skipped(scope):
    task = check_task_create(scope, description="Find why centrifugal pumps overheat")
    first = check_pages_ingest(scope, task=task["id"], pages=[
        {"url": "https://ex.org/pumps", "content": PUMPS},
        {"url": "https://ex.org/cakes", "content": CAKES},
    ])  # fmt: skip
    created = first["created"]
    assert len(created) >= 3 and first["skipped"] == []
    pumps = [c for c in created if c["url"].endswith("pumps")]
    cake = [c for c in created if c["url"].endswith("cakes")]
    assert len(cake) == 1  # a page under 400 characters is one chunk
    assert all(0.30 <= c["strength"] <= 0.95 for c in created)
    assert min(p["strength"] for p in pumps) > cake[0]["strength"]  # kept, near the floor
    for c in created:
        assert 100 <= len(selectors.evidence_detail(scope, evidence=c["id"])["content"]) <= 500

    again = check_pages_ingest(scope, task=task["id"], pages=[
        {"url": "https://ex.org/pumps", "content": PUMPS},  # same URL
        {"url": "https://mirror.org/cakes", "content": CAKES},  # same content elsewhere
        {"url": "https://ex.org/cakes-2", "content": CAKES.replace("market", "market stall")},
    ])  # fmt: skip
    assert again["created"] == []
    assert [s["layer"] for s in again["skipped"]] == ["url", "content_hash", "semantic"]
    assert again["skipped"][2]["duplicate_of"] == cake[0]["uid"]


def test_bounds(scope):
    task = check_task_create(scope, description="t")
    with pytest.raises(ApplicationError) as refused:
        check_pages_ingest(scope, task=task["id"], pages=[{"content": "x"}] * 21)
    assert refused.value.field == "pages" and refused.value.limit == 20
    with pytest.raises(ApplicationError) as refused:
        check_pages_ingest(scope, task=task["id"], pages=[{"content": "x" * 200_001}])
    assert refused.value.field == "content"
