"""The page embedding (seed 000): a position-weighted mean of the chunks' vectors, gating the
chunks' goal alignment and catching a paraphrased page whole."""

from __future__ import annotations

import numpy as np
import pytest

from apps.tasks.services.page_ingest import alignment_strength, page_embedding
from apps.tasks.services.task_writes import check_task_create
from tests.tasks.test_page_ingest import CAKES, PUMPS, check_pages_ingest


def test_earlier_chunks_weigh_more_and_the_vector_is_unit():
    first, second = np.eye(2)
    page = page_embedding(np.array([first, second]), [0, 1])
    expected = np.array([1.0, 1 / np.sqrt(2)])
    assert page == pytest.approx(expected / np.linalg.norm(expected))
    assert np.linalg.norm(page) == pytest.approx(1.0)


def test_the_page_gates_its_chunks():
    # A well-aligned chunk of an off-topic page is pulled toward the floor, and the reverse.
    assert alignment_strength(0.5, floor=0.2, gate=0.1) == pytest.approx(0.30 + 0.25 * 0.65)
    assert alignment_strength(0.1, floor=0.2, gate=0.5) == pytest.approx(0.30 + 0.1 * 0.65)


# PUMPS retold: each chunk is below the chunk layer's 0.95 to its original (0.93, 0.94 with
# all-MiniLM-L6-v2), the page as a whole above it (0.957).
RETOLD = (
    "# Why centrifugal pumps get hot\n\n"
    "A centrifugal pump overheats if it runs dry or pushes against a shut discharge valve. The "
    "fluid inside the casing warms up in minutes, and the seals give way shortly afterwards.\n\n"
    "Bearing wear is the next reason pumps overheat: friction lifts the bearing "
    "housing temperature far past eighty degrees before the motor cuts out.\n\n"
    "Cavitation under low suction pressure heats the impeller too and pits the vanes."
)


def test_a_paraphrased_page_is_skipped_whole(scope):
    task = check_task_create(scope, description="Find why centrifugal pumps overheat")
    first = check_pages_ingest(scope, task=task["id"], pages=[
        {"url": "https://ex.org/pumps", "content": PUMPS}])  # fmt: skip
    assert len(first["created"]) == 2
    again = check_pages_ingest(scope, task=task["id"], pages=[
        {"url": "https://mirror.org/pumps", "content": RETOLD},
        {"url": "https://ex.org/cakes", "content": CAKES}])  # fmt: skip
    assert [s["layer"] for s in again["skipped"]] == ["page", "page"]
    assert {s["duplicate_of"] for s in again["skipped"]} == {first["created"][0]["uid"]}
    assert [c["url"] for c in again["created"]] == ["https://ex.org/cakes"]
    # Another task has not read that page: its chunks go in.
    other = check_task_create(scope, description="Why do pumps get hot")
    theirs = check_pages_ingest(scope, task=other["id"], pages=[
        {"url": "https://third.org/pumps", "content": RETOLD}])  # fmt: skip
    assert len(theirs["created"]) == 2
