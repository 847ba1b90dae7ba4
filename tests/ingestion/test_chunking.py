"""Chunking keeps 100-500 characters, cuts at headers, blank lines and sentences, and keeps each
chunk's place in the outline."""

from apps.ingestion.chunking import (
    MAX_CHARS,
    MIN_CHARS,
    chunk_document,
    document_outline,
)

SENTENCE = "Acme Corp builds bridges across the northern rivers every single summer. "
DOC = (
    "# Handbook\n\nA short intro.\n\n"
    "## Bridges\n\n" + SENTENCE * 20 + "\n\nA tiny tail.\n\n"
    "## Roads\n### Gravel\n\n" + SENTENCE * 3 + "\n\n"
    "### Tar\n\n" + SENTENCE * 2 + "\n\n" + SENTENCE * 2 + "\n"
)


def test_chunks_stay_within_bounds_and_are_slices_of_the_text():
    chunks = chunk_document(DOC)
    assert len(chunks) >= 5
    for chunk in chunks:
        assert chunk.text == DOC[chunk.start : chunk.end]
        assert len(chunk.text) <= MAX_CHARS
        assert len(chunk.text) >= MIN_CHARS, chunk
    assert [c.position for c in chunks] == list(range(len(chunks)))


def test_long_sections_split_at_sentence_boundaries():
    bridges = [c for c in chunk_document(DOC) if c.section_path == ("Handbook", "Bridges")]
    assert len(bridges) >= 3
    for chunk in bridges[:-1]:
        assert chunk.text.rstrip().endswith(".")


def test_each_chunk_keeps_its_section_path():
    paths = [c.section_path for c in chunk_document(DOC)]
    assert ("Handbook", "Bridges") in paths
    assert ("Handbook", "Roads", "Gravel") in paths
    assert ("Handbook", "Roads", "Tar") in paths
    assert paths == sorted(paths, key=paths.index)  # reading order


def test_a_small_tail_joins_its_own_section_not_the_next():
    chunks = chunk_document(DOC)
    tail = next(c for c in chunks if "A tiny tail." in c.text)
    assert tail.section_path == ("Handbook", "Bridges")
    assert "## Roads" not in tail.text


def test_a_header_travels_with_the_text_under_it():
    chunks = chunk_document(DOC)
    gravel = next(c for c in chunks if "### Gravel" in c.text)
    assert SENTENCE.strip() in gravel.text
    assert all(c.text.strip() not in ("## Roads", "### Gravel") for c in chunks)


def test_short_pages_are_one_chunk_and_empty_pages_none():
    assert [c.text for c in chunk_document("Just a note about Acme.")] == [
        "Just a note about Acme."
    ]
    assert chunk_document("  \n\n\t ") == []


def test_a_sentence_longer_than_the_cap_is_cut_at_whitespace():
    word_soup = ("lorem " * 300).strip()
    chunks = chunk_document(word_soup)
    assert all(len(c.text) <= MAX_CHARS for c in chunks)
    assert " ".join(c.text for c in chunks).split() == word_soup.split()


def test_the_outline_lists_headers_in_order():
    outline = document_outline(DOC)
    assert [(e.level, e.title) for e in outline] == [
        (1, "Handbook"), (2, "Bridges"), (2, "Roads"), (3, "Gravel"), (3, "Tar"),
    ]  # fmt: skip
