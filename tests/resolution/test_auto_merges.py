"""Re-scoring an automatic merge from its stored levels: the model it was merged with gives the
same probability back; a model where a level counts less lowers it; a level the model does not
know counts nothing, and a conflict still forbids."""

import copy
import json

from apps.resolution.auto_merges import evidence_rescored
from apps.resolution.comparisons import Compared
from apps.resolution.match_model import match_score, model_params

LEVELS = [Compared("name", "exact", "'Ada Lovelace' = 'ada lovelace'"),
          Compared("born", "exact", "born 1815-12-10 / 1815-12-10")]  # fmt: skip


def stored(scored) -> str:
    return json.dumps(scored.as_dict()["parts"])


def test_the_same_model_gives_the_same_probability_and_a_weaker_level_less():
    defaults = model_params()
    merged = match_score(LEVELS, name_tf_bits=1.5, params=defaults)
    again = evidence_rescored(stored(merged), defaults, tf_bits=1.5)
    assert abs(again.probability - merged.probability) < 1e-9 and again.may_merge
    weaker = copy.deepcopy(defaults)
    born = weaker["comparisons"]["born"]["levels"]["exact"]
    born["u"] = born["m"] / 2
    assert evidence_rescored(stored(merged), weaker, tf_bits=1.5).probability < merged.probability


def test_unknown_levels_count_nothing_and_a_conflict_still_forbids():
    defaults = model_params()
    parts = [{"comparison": "name", "level": "exact", "weight": 9.0},
             {"comparison": "shoe_size", "level": "exact", "weight": 30.0},
             {"comparison": "phone", "level": "conflict", "weight": -3.0},
             {"comparison": "born", "level": "exact", "weight": 7.0}]  # fmt: skip
    scored = evidence_rescored(json.dumps(parts), defaults)
    assert [p.compared.comparison for p in scored.parts] == ["name", "phone", "born"]
    assert scored.forbidden == ("phone",) and not scored.may_merge
    assert evidence_rescored(None, defaults).parts == ()
