from apps.graph.fulltext import fulltext_terms


def test_terms_are_words_joined_by_or():
    assert fulltext_terms("Sherlock  Holmes!") == "sherlock OR holmes"


def test_operators_in_caller_text_do_not_survive():
    query = fulltext_terms('a:b AND (c OR "d") || e* ~f')
    assert ":" not in query and "(" not in query and '"' not in query and "*" not in query


def test_fuzzy_marks_long_words_only():
    assert fulltext_terms("Holmes at home", fuzzy=True) == "holmes~ OR at OR home~"


def test_the_gate_allows_short_words_one_edit_and_long_words_two():
    terms = fulltext_terms("Lindqvist Okafor at home", fuzzy=True, one_edit_below=8)
    assert terms == "lindqvist~ OR okafor~1 OR at OR home~1"


def test_empty_text_gives_empty_query():
    assert fulltext_terms("?!") == ""


def test_content_only_leaves_out_stop_words():
    assert fulltext_terms("What is my sister's cat called?", content_only=True) == (
        "sister OR cat OR called"
    )
    assert fulltext_terms("What is it?", content_only=True) == ""
