from apps.graph.marginal_relevance import mmr_order


def test_the_closest_comes_first_then_what_says_something_else():
    query = [1.0, 0.0, 0.0]
    near_alike = [[0.80, 0.60, 0.0], [0.79, 0.613, 0.0], [0.78, 0.626, 0.0]]  # one crowd
    other = [0.77, 0.0, 0.638]  # the least close, but unlike the crowd
    order = mmr_order(query, [*near_alike, other], weight=0.85)
    assert order[:2] == [0, 3]
    assert sorted(order) == [0, 1, 2, 3]


def test_weight_one_keeps_the_plain_ranking_and_empty_gives_nothing():
    vectors = [[0.1, 1.0], [1.0, 0.0], [1.0, 0.2]]
    assert mmr_order([1.0, 0.0], vectors, weight=1.0) == [1, 2, 0]
    assert mmr_order([1.0, 0.0], []) == []
