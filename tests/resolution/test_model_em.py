"""The match model estimated on a tenant's own pairs (resolution.model_em, model_estimation):
EM finds the levels' probabilities and the share of pairs that are one entity from unlabelled
pairs alone, stays near the shipped model when it has few pairs, and runs by itself once a
tenant has grown, on the real gate and Neo4j."""

import json
import random

from apps.graph import cypher
from apps.resolution.match_model import level_weight, model_params
from apps.resolution.model_em import PRIOR_CEILING, params_em
from apps.resolution.model_estimation import BLOCKED_ON, FIRST, model_estimate_due
from tests.conftest import scope_for

# A tenant whose notes read unlike the shipped assumptions: a third of its blocked pairs are
# one entity, one person's two notes mostly name no neighbour alike, and jobs agree often.
TRUE = {
    "name": ({"exact": 0.7, "surname": 0.3}, {"exact": 0.05, "different": 0.9, "surname": 0.05}),
    "role": ({"same": 0.8, "different": 0.2}, {"same": 0.05, "different": 0.95}),
    "context": ({"none": 0.7, "shared": 0.3}, {"none": 0.97, "shared": 0.03}),
}
SHARE = 0.33


def pairs(n, seed=0):
    rng = random.Random(seed)
    out, truth = [], []
    for _ in range(n):
        same = rng.random() < SHARE
        levels = {}
        for comparison, (m, u) in TRUE.items():
            dist = m if same else u
            levels[comparison] = rng.choices(list(dist), weights=list(dist.values()))[0]
        out.append(levels)
        truth.append(same)
    return out, truth


def test_em_recovers_the_share_and_the_levels_from_unlabelled_pairs():
    defaults = model_params()
    found, _ = pairs(4000)
    params = params_em(defaults, unlabelled=found, prior_pairs=20)
    assert abs(params["prior"] - SHARE) < 0.05, params["prior"]
    levels = params["comparisons"]
    assert abs(levels["context"]["levels"]["none"]["m"] - 0.7) < 0.08
    assert abs(levels["role"]["levels"]["same"]["m"] - 0.8) < 0.08
    assert levels["role"]["levels"]["same"]["u"] < 0.1
    assert params["learned"]["method"] == "em" and params["learned"]["unlabelled"] == 4000
    # the shipped model says otherwise: what moved is the data's doing
    assert abs(defaults["comparisons"]["context"]["levels"]["none"]["m"] - 0.7) > 0.08


def test_few_pairs_keep_the_shipped_model_and_the_share_stays_bounded():
    defaults = model_params()
    few, _ = pairs(3)
    params = params_em(defaults, unlabelled=few, prior_pairs=20)
    shipped = defaults["comparisons"]["role"]["levels"]["same"]["m"]
    assert abs(params["comparisons"]["role"]["levels"]["same"]["m"] - shipped) < 0.15
    same = [{"name": "exact", "role": "same"}] * 5000
    assert params_em(defaults, unlabelled=same, prior_pairs=20)["prior"] <= PRIOR_CEILING


def test_the_comparison_the_blocks_are_cut_on_keeps_its_shipped_levels():
    # Blocked pairs share names far more often than any two things do (TRUE's u: 5% exact):
    # estimated there, an identical name would weigh next to nothing.
    defaults = model_params()
    found, _ = pairs(2000, seed=2)
    shipped = level_weight(defaults, "name", "exact")
    free = params_em(defaults, unlabelled=found, prior_pairs=20)
    kept = params_em(defaults, unlabelled=found, prior_pairs=20, fixed=BLOCKED_ON)
    assert level_weight(free, "name", "exact") < shipped - 2
    assert level_weight(kept, "name", "exact") == shipped
    assert kept["comparisons"]["name"] == defaults["comparisons"]["name"]
    # the other comparisons are still the tenant's: nearer the data (0.8) than shipped
    role_m = kept["comparisons"]["role"]["levels"]["same"]["m"]
    shipped_m = defaults["comparisons"]["role"]["levels"]["same"]["m"]
    assert abs(role_m - 0.8) < abs(shipped_m - 0.8) - 0.05
    assert kept["learned"]["fixed"] == ["name"]


def test_decisions_are_labels_beside_the_unlabelled_pairs():
    defaults = model_params()
    found, truth = pairs(600, seed=1)
    confirmed = [p for p, t in zip(found, truth, strict=True) if t][:100]
    rejected = [p for p, t in zip(found, truth, strict=True) if not t][:100]
    params = params_em(defaults, unlabelled=[], confirmed=confirmed, rejected=rejected,
                       prior_pairs=20)  # fmt: skip
    assert params["learned"]["method"] == "decisions"
    assert params["comparisons"]["role"]["levels"]["same"]["m"] > 0.6


def test_a_tenant_that_has_grown_is_estimated_once_until_it_doubles(tenant, api_client):
    scope = scope_for(tenant)
    people = [{"name": f"Person {i:03d} Kowalczyk{i:03d}", "type": "Person"} for i in range(FIRST)]
    response = api_client.post("/api/v1/facts", {"entities": people}, format="json")
    assert response.status_code == 201, response.json()
    [row] = cypher.read(scope, "MATCH (mm:MatchModel {model_key: $tenant}) "
                               "RETURN mm.estimated_entities AS n, mm.params_json AS p")  # fmt: skip
    assert row["n"] >= FIRST and '"method": "em"' in row["p"]
    estimated = json.loads(row["p"])
    assert estimated["comparisons"]["name"] == model_params()["comparisons"]["name"]
    assert model_estimate_due(scope) is None  # not again until the tenant doubles


def test_an_estimate_taken_before_the_name_was_kept_out_is_taken_again(tenant, api_client):
    # A tenant estimated by an earlier release: its identical names weigh next to nothing.
    scope = scope_for(tenant)
    people = [{"name": f"Person {i:03d} Nowakowski{i:03d}", "type": "Person"} for i in range(FIRST)]
    assert api_client.post("/api/v1/facts", {"entities": people}, format="json").status_code == 201
    old = model_params() | {"learned": {"method": "em", "unlabelled": 40}}
    old = json.loads(json.dumps(old))
    old["comparisons"]["name"]["levels"]["exact"]["u"] = 0.13  # x3.5
    cypher.write(scope, "MATCH (mm:MatchModel {model_key: $tenant}) "
                        "SET mm.params_json = $p, mm.base_json = $p", p=json.dumps(old))  # fmt: skip
    assert model_estimate_due(scope) is not None  # not waiting for the tenant to double
    [row] = cypher.read(scope, "MATCH (mm:MatchModel {model_key: $tenant}) "
                               "RETURN mm.params_json AS p")  # fmt: skip
    assert json.loads(row["p"])["comparisons"]["name"] == model_params()["comparisons"]["name"]
    assert model_estimate_due(scope) is None
