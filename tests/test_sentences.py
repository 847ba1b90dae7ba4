"""Where sentences end: one rule for chunking, the reviewer's quoted sentence and summaries."""

from memoryproject.sentences import sentence_at, sentence_spans, sentences

TEXT = 'Holmes met Watson. "Come at once!" said he. The pump, e.g. the old one, ran at 3.5 bar.'


def test_a_sentence_ends_before_a_capital_or_a_digit_only():
    assert [TEXT[a:b] for a, b in sentence_spans(TEXT)] == [
        "Holmes met Watson.",
        '"Come at once!" said he.',
        "The pump, e.g. the old one, ran at 3.5 bar.",
    ]


def test_spans_of_a_range_stay_inside_it():
    start = TEXT.index("The pump")
    assert sentence_spans(TEXT, start, len(TEXT)) == [(start, len(TEXT))]


def test_lines_end_sentences_too_and_blanks_are_dropped():
    assert sentences("ok\n\nfine then. Next one\n") == ["ok", "fine then.", "Next one"]
    assert sentences("") == []


def test_the_sentence_that_holds_an_offset():
    assert sentence_at(TEXT, TEXT.index("said")) == '"Come at once!" said he.'
    assert sentence_at(TEXT, len(TEXT) + 5) == "The pump, e.g. the old one, ran at 3.5 bar."


def test_an_initial_or_a_title_before_a_name_ends_no_sentence():
    text = "Menabrea wrote in 1842. Its designer, C. Babbage, lectured. Dr. Watson came. Neither did I. We left."
    assert sentences(text) == [
        "Menabrea wrote in 1842.",
        "Its designer, C. Babbage, lectured.",
        "Dr. Watson came.",
        "Neither did I.",
        "We left.",
    ]
    assert sentence_at(text, text.index("C. Babbage")) == "Its designer, C. Babbage, lectured."


def test_a_number_after_no_and_a_heading_above_end_no_quoted_sentence():
    text = "# The Engine\nLondon completed a working Difference Engine No. 2 in 1991. It ran."
    assert sentence_at(text, text.index("London")) == (
        "London completed a working Difference Engine No. 2 in 1991."
    )
    assert sentence_at(text, text.index("It ran")) == "It ran."
    assert sentence_at(text, 2) == "# The Engine"
    assert sentences("No. I left.") == ["No.", "I left."]
