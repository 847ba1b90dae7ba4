"""Learning m and u from decided pairs, blended with the shipped defaults as a prior."""

import json

import pytest

from apps.resolution.match_model import level_weight, model_params
from apps.resolution.model_learning import evidence_levels, params_learned, weight_changes


def test_confirmations_of_a_level_raise_its_weight_a_little_then_more():
    defaults = model_params()
    was = level_weight(defaults, "address", "similar")
    pairs = [{"name": "close", "address": "similar"}]
    few = params_learned(defaults, confirmed=pairs * 2, rejected=[], prior_pairs=20)
    many = params_learned(defaults, confirmed=pairs * 200, rejected=[], prior_pairs=20)
    assert was < level_weight(few, "address", "similar") < was + 1.0
    assert level_weight(many, "address", "similar") > level_weight(few, "address", "similar") + 1
    # The other levels of that comparison gave up their share; other comparisons kept theirs.
    assert level_weight(few, "address", "exact") < level_weight(defaults, "address", "exact")
    assert level_weight(few, "born", "exact") == level_weight(defaults, "born", "exact")
    assert sum(v["m"] for v in few["comparisons"]["address"]["levels"].values()) == pytest.approx(
        sum(v["m"] for v in defaults["comparisons"]["address"]["levels"].values())
    )
    assert few["learned"]["confirmed"] == 2 and defaults.get("learned") is None


def test_rejections_lower_a_level_under_a_stronger_prior():
    defaults = model_params()
    pairs = [{"name": "close", "address": "similar"}] * 10
    rejected = params_learned(defaults, confirmed=[], rejected=pairs, prior_pairs=20)
    confirmed = params_learned(defaults, confirmed=pairs, rejected=[], prior_pairs=20)
    was = level_weight(defaults, "name", "close")
    assert level_weight(rejected, "name", "close") < was
    assert was - level_weight(rejected, "name", "close") > 0
    assert [c["level"] for c in weight_changes(defaults, confirmed) if c["comparison"] == "address"]


def test_evidence_levels_leave_out_missing_comparisons():
    evidence = json.dumps([{"comparison": "name", "level": "exact", "weight": 8.0},
                           {"comparison": "phone", "level": "missing", "weight": 0.0}])  # fmt: skip
    assert evidence_levels(evidence) == {"name": "exact"}
    assert evidence_levels(None) == {}
