"""Finding clusters without a graph: components, the cut of a large one into bounded parts
(deterministic whatever order the pairs come in), and the ids."""

import random

from apps.review.cluster_finding import (
    MAX_MEMBERS,
    cluster_id_of,
    cluster_id_start,
    cluster_parts,
    components_of,
)


def pair(a, b, score):
    return {"uid": f"{a}-{b}", "a": a, "b": b, "score": score}


def test_components_join_what_pending_pairs_join():
    pairs = [pair("a", "b", 0.9), pair("c", "b", 0.8), pair("x", "y", 0.7)]
    assert sorted(sorted(c) for c in components_of(pairs)) == [["a", "b", "c"], ["x", "y"]]


def test_a_small_component_is_one_part():
    pairs = [pair("a", "b", 0.9), pair("b", "c", 0.6)]
    assert cluster_parts(["c", "b", "a"], pairs) == [["a", "b", "c"]]


def test_a_large_component_is_cut_from_its_best_connected_member_the_same_way_every_time():
    # Two dense groups of 11 and 10 (scores 0.9 inside) joined by one weak pair, and a tail.
    left = [f"l{i:02d}" for i in range(11)]
    right = [f"r{i:02d}" for i in range(10)]
    tail = [f"t{i}" for i in range(5)]
    pairs = [pair(a, b, 0.9) for group in (left, right) for i, a in enumerate(group)
             for b in group[i + 1 :]]  # fmt: skip
    pairs += [pair("l00", "r00", 0.55), pair("r09", "t0", 0.6)]
    pairs += [pair(tail[i], tail[i + 1], 0.7) for i in range(4)]
    members = left + right + tail
    parts = cluster_parts(members, pairs)
    assert all(len(p) <= MAX_MEMBERS for p in parts)
    assert sorted(u for p in parts for u in p) == sorted(members)
    # The strongest member (l00: ten pairs of 0.9 and the bridge) seeds the first part, which
    # takes its own group before the weak bridge, then the bridge's other end.
    assert parts[0] == sorted([*left, "r00"])
    for _ in range(5):
        shuffled = pairs[:]
        random.shuffle(shuffled)
        assert cluster_parts(random.sample(members, len(members)), shuffled) == parts


def test_a_cluster_id_names_its_smallest_member_and_changes_with_the_members():
    cid = cluster_id_of(["c", "a", "b"])
    assert cid == cluster_id_of(["a", "b", "c"]) and cid.startswith("a.")
    assert cluster_id_start(cid) == "a"
    assert cluster_id_of(["a", "b", "c", "d"]) != cid
    assert cluster_id_start("no-digest") is None and cluster_id_start("a.short") is None
