"""Relations outside the whitelist become RELATES_TO with the intent kept in the nuance."""

from apps.ingestion.extraction.ontology import (
    FALLBACK,
    relation_from_phrase,
    relation_normalized,
)


def test_whitelisted_predicates_pass_in_any_spelling():
    assert relation_normalized("works_for", "since 2020") == ("WORKS_FOR", "since 2020")
    assert relation_normalized("Located In") == ("LOCATED_IN", "")


def test_unknown_predicates_keep_their_intent_in_the_nuance():
    assert relation_normalized("admires", "deeply") == (FALLBACK, "admires: deeply")
    assert relation_normalized("x" * 40, "y" * 600)[1].__len__() == 500


def test_parse_phrases_map_to_the_whitelist():
    assert relation_from_phrase("acquire") == ("OWNS", "")
    assert relation_from_phrase("work  for") == ("WORKS_FOR", "")
    assert relation_from_phrase("compete with") == (FALLBACK, "compete with")
