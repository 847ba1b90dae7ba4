from apps.graph.rank_fusion import rrf_fuse


def test_rrf_fuses_by_place():
    fused = rrf_fuse({"vector": ["a", "b", "c"], "words": ["c", "a"]})
    assert [f["uid"] for f in fused] == ["a", "c", "b"]
    assert fused[0]["ranks"] == {"vector": 1, "words": 2}


def test_rrf_breaks_ties_by_uid():
    fused = rrf_fuse({"vector": ["b", "a"], "words": ["a", "b"]})
    assert [f["uid"] for f in fused] == ["a", "b"]
    assert fused[0]["score"] == fused[1]["score"]
