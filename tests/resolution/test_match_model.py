"""The Fellegi-Sunter model with its shipped parameters: weights, the prior, term frequency of
names, and the two rules no weight can buy (a conflict forbids, a name alone never merges)."""

import math

from apps.resolution.comparisons import Compared
from apps.resolution.comparisons.records import Record, records_compare
from apps.resolution.match_model import (
    DESCRIPTION_CAP_BITS,
    level_weight,
    match_score,
    model_params,
    name_tf_adjustment,
    part_words,
)


def score(a_names, a_values, b_names, b_values, *, semantic=None, tf_bits=0.0, kind="Person"):
    compared = records_compare(kind, Record(a_names, a_values), Record(b_names, b_values),
                               semantic=semantic)  # fmt: skip
    return match_score(compared, name_tf_bits=tf_bits)


def test_the_parameters_say_where_they_come_from():
    params = model_params()
    assert params["held_out"] == "febrl3" and "febrl3" not in params["estimated_on"]
    assert params["comparisons"]["name"]["estimated"] is True
    assert params["comparisons"]["phone"]["estimated"] is False  # FEBRL has no phones
    assert 0 < params["prior"] < 0.5
    for spec in params["comparisons"].values():
        for mu in spec["levels"].values():
            assert 0 < mu["m"] <= 1 and 0 < mu["u"] <= 1


def test_a_weight_is_log2_m_over_u_and_agreement_outweighs_disagreement():
    mu = model_params()["comparisons"]["born"]["levels"]["exact"]
    assert level_weight(model_params(), "born", "exact") == math.log2(mu["m"] / mu["u"])
    for comparison in ("name", "born", "external_id", "address"):
        disagree = "different" if comparison in ("name", "address") else "conflict"
        assert level_weight(model_params(), comparison, "exact") > 0
        assert level_weight(model_params(), comparison, disagree) < 0


def test_a_name_alone_never_may_merge_however_identical_or_rare():
    alone = score(["Ada Lovelace"], {}, ["Ada Lovelace"], {}, tf_bits=5.0)
    assert not alone.corroborated and not alone.may_merge
    assert alone.probability < 0.995


def test_name_and_identifiers_reach_an_automatic_merge():
    values = {"born": "1815-12-10", "id:wikidata": "Q7259"}
    same = score(["Ada Lovelace"], values, ["Augusta Ada King"], values)
    assert same.may_merge and same.probability >= 0.995


def test_a_conflicting_birth_date_forbids_a_merge_whatever_else_agrees():
    found = score(["Ada Lovelace"], {"born": "1815-12-10", "id:wikidata": "Q7259",
                                     "email": "ada@example.org"},
                  ["Ada Lovelace"], {"born": "1852-11-27", "id:wikidata": "Q7259",
                                     "email": "ada@example.org"})  # fmt: skip
    assert found.probability >= 0.995  # the arithmetic would merge...
    assert found.forbidden == ("born",) and not found.may_merge  # ...the rule does not


def test_a_conflicting_phone_or_id_forbids_too():
    phones = score(["Acme"], {"phone": "+44 20 7946 0958", "address": "1 High St, Leeds"},
                   ["Acme"], {"phone": "+33 1 42 68 53 00", "address": "1 High St, Leeds"},
                   kind="Organization")  # fmt: skip
    assert phones.forbidden == ("phone",) and not phones.may_merge
    ids = score(["Ada Lovelace"], {"id:wikidata": "Q7259"}, ["Ada Lovelace"], {"id:wikidata": "Q1"})
    assert ids.forbidden == ("external_id",) and ids.probability < 0.5


def test_descriptions_are_weak_evidence():
    found = score(["Ada Lovelace"], {}, ["Ada Lovelace"], {}, semantic=0.99)
    [description] = [p for p in found.parts if p.compared.comparison == "description"]
    assert 0 < description.weight <= DESCRIPTION_CAP_BITS
    assert not found.may_merge or found.probability < 0.995
    apart = score(["Ada Lovelace"], {}, ["Ada Lovelace"], {}, semantic=0.13)
    assert apart.probability < found.probability and not apart.corroborated


def test_a_level_that_disagrees_is_never_evidence_for_whatever_a_tenant_learned():
    # A tenant's EM run on noisy notes weighed 'unrelated' descriptions x1.72 for: alone beside
    # the name it let one namesake's note merge into the other.
    learned = model_params() | {"comparisons": {**model_params()["comparisons"], "description": {
        "levels": {"high": {"m": 0.3, "u": 0.2}, "medium": {"m": 0.2, "u": 0.2},
                   "low": {"m": 0.2, "u": 0.3}, "unrelated": {"m": 0.3, "u": 0.1743}}}}}  # fmt: skip
    compared = records_compare("Person", Record(["Folarin Oyebanji"], {}),
                               Record(["Folarin Oyebanji"], {}), semantic=0.1)  # fmt: skip
    found = match_score(compared, params=learned)
    [description] = [p for p in found.parts if p.compared.comparison == "description"]
    assert description.compared.level == "unrelated" and description.weight == 0.0
    assert not found.corroborated and not found.may_merge
    close = records_compare("Person", Record(["Folarin Oyebanji"], {}),
                            Record(["Folarin Oyebanji"], {}), semantic=0.99)  # fmt: skip
    assert match_score(close, params=learned).corroborated  # agreeing levels keep their weight


def test_a_level_that_agrees_never_counts_against_whatever_a_tenant_learned():
    # A tenant's EM run weighed "only a city named beside both" /1.45: two notes naming one
    # person beside the same city read as a reason to keep them apart.
    learned = model_params() | {"comparisons": {**model_params()["comparisons"], "context": {
        "levels": {**model_params()["comparisons"]["context"]["levels"],
                   "place": {"m": 0.05, "u": 0.0725}}}}}  # fmt: skip
    near = [("Location", "Almaty")]
    compared = records_compare("Person", Record(["Tomas Vela"], {}, context=near),
                               Record(["Tomas Vela"], {}, context=near))  # fmt: skip
    found = match_score(compared, params=learned)
    [context] = [p for p in found.parts if p.compared.comparison == "context"]
    assert context.compared.level == "place" and context.weight == 0.0
    assert (
        found.probability
        == match_score(
            [c for c in compared if c.comparison != "context"], params=learned
        ).probability
    )


def test_an_identical_name_counts_less_where_it_is_common():
    young = name_tf_adjustment(same_name_count=1, entity_count=1, distinct_names=1)
    common = name_tf_adjustment(same_name_count=40, entity_count=2000, distinct_names=1900)
    rare = name_tf_adjustment(same_name_count=1, entity_count=2000, distinct_names=800)
    assert young == 0.0  # a name as common as any other adds nothing
    assert common < -5 + 0.01 and rare > 1
    values = {"address": "6 tullaroop street, willaroo"}
    assert score(["John Smith"], values, ["John Smith"], values, tf_bits=common).probability < (
        score(["John Smith"], values, ["John Smith"], values, tf_bits=rare).probability
    )


def test_each_part_reads_in_words():
    found = score(["Ada Lovelace"], {"born": "1815-12-10"}, ["Ada Lovelace"],
                  {"born": "1852-11-27"})  # fmt: skip
    words = {p.compared.comparison: part_words(p) for p in found.parts}
    assert words["name"].startswith("name exact") and ": for, odds x" in words["name"]
    assert "born conflict" in words["born"] and ": against, odds /" in words["born"]
    assert words["phone"] == "phone: not on both sides, no evidence"
    assert found.as_dict()["forbidden"] == ["born"]
    assert {p["comparison"] for p in found.as_dict()["parts"]} == {"name", "born"}


def test_an_unknown_level_is_an_error_not_a_silent_zero():
    try:
        match_score([Compared("name", "telepathic")])
    except KeyError:
        return
    raise AssertionError("an unknown level must not score")
