"""Entity and pair uids sort in the order they were made, so resolution's ties (broken by uid)
go the same way on every run of the same documents."""

import threading
import uuid

from apps.graph.ordered_uids import ordered_uid


def test_uids_sort_in_the_order_they_were_made_and_are_version_7_uuids():
    made = [ordered_uid() for _ in range(20_000)]  # several per millisecond
    assert made == sorted(made) and len(set(made)) == len(made)
    assert all(len(u) == 32 and uuid.UUID(hex=u).version == 7 for u in made[:100])


def test_threads_never_get_the_same_uid():
    got: list[str] = []

    def make():
        got.extend(ordered_uid() for _ in range(2_000))

    threads = [threading.Thread(target=make) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(got)) == 8_000
