"""Each comparison of a pair in a reviewer's words, with what it did to the odds."""

from apps.resolution.evidence_words import evidence_rows, evidence_words


def test_words_say_what_was_compared_which_way_and_how_strongly():
    assert evidence_words("born", "exact", 7.63, "born 1990-01-02 / 1990-01-02") == (
        "same birth date: very strong evidence for (+7.6)"
    )
    assert evidence_words("born", "conflict", -4.2, "founded 2016 / 2021") == (
        "founding dates differ: strong evidence against (-4.2); forbids an automatic merge"
    )
    # A typing slip is named, and does not forbid a merge.
    assert evidence_words("born", "close", 3.1, "born 1965-03-01 / 1956-03-01 (two adjacent "
                          "digits swapped)") == (
        "birth dates nearly the same (two adjacent digits swapped): some evidence for (+3.1)"
    )  # fmt: skip
    assert evidence_words("external_id", "typo", 9.2, "id:ssn 2860658 / 2860568 (two adjacent "
                          "characters swapped)") == (
        "external ids a typo apart (two adjacent characters swapped): very strong evidence for "
        "(+9.2)"
    )  # fmt: skip
    assert (
        evidence_words("born", "close", 3.1)
        == "birth dates nearly the same: some evidence for (+3.1)"
    )
    assert evidence_words("external_id", "conflict", -13.0, "id:ssn 2860658 / 9595082") == (
        "external ids differ: very strong evidence against (-13.0); forbids an automatic merge"
    )
    assert evidence_words("description", "high", 0.6) == (
        "descriptions alike: weak evidence for (+0.6)"
    )
    assert evidence_words("address", "similar", 2.0) == (
        "addresses partly alike: some evidence for (+2.0)"
    )


def test_rows_come_strongest_first_and_old_pairs_fall_back_to_weights():
    rows = evidence_rows(
        [{"comparison": "name", "level": "close", "weight": 7.8, "detail": "x"},
         {"comparison": "phone", "level": "conflict", "weight": -12.3, "detail": ""}],
        {},
    )  # fmt: skip
    assert [r["comparison"] for r in rows] == ["phone", "name"]
    assert rows[0]["direction"] == "against" and rows[1]["direction"] == "for"
    assert rows[0]["words"].startswith("phones differ: very strong evidence against (-12.3)")
    [old] = evidence_rows(None, {"name": 3.0})
    assert old["words"] == "name: some evidence for (+3.0)"
