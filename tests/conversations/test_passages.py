"""Passages of stored documents in context: found by words and by meaning, cited, kept to the
tenant, below the floor not given at all, not repeated by the entity lines; and the session's
messages appended just before a context call are in it (read your writes)."""

from apps.conversations import context
from apps.graph import cypher
from apps.ingestion import services
from tests.conftest import scope_for
from tests.conversations.test_messages import say

FOUNDING = (
    "# Company history\n\n## Origins\n\n"
    "Quendrax Logistics was founded in 1988 in Tallinn, in a rented garage by the docks. "
    "Its first customers were fishing cooperatives along the Baltic coast.\n\n"
    "## Today\n\nThe company employs two hundred people and runs a fleet of electric vans.\n"
)
STORMS = "Our cat is terrified of thunderstorms and hides under the bed whenever it thunders."
CATERING = (
    "# Offsite planning\n\nThe team will meet in the old mill for two days of workshops. "
    "Velmarin Osk is allergic to peanuts, so keep them off the catering order for the "
    "whole week.\n"
)


def ingest(scope, content, title):
    found = services.check_document_submit(
        scope, content=content, source="test", title=title, wait=True
    )
    assert found["status"] == "done", found
    return found["document"]


def ask(scope, message, **kw):
    return context.check_context(scope, user="ann", sid=kw.pop("sid", "main"), message=message,
                                 k=kw.pop("k", 5), **kw)  # fmt: skip


def test_a_passage_is_found_by_words_and_cited(scope):
    document = ingest(scope, FOUNDING, "History of Quendrax")
    found = ask(scope, "In which year did Quendrax Logistics start out?")
    first = found["passages"][0]
    assert "1988" in first["text"] and "words" in first["ranks"]
    assert first["document"] == {"uid": document, "title": "History of Quendrax",
                                 "source": "test"}  # fmt: skip
    assert first["section_path"][0] == "Company history"
    assert FOUNDING[first["start"] : first["end"]] == first["text"]
    assert f"passage:{first['uid']}" in found["cited"]
    assert "1988" in found["context"] and "History of Quendrax" in found["context"]
    touched = cypher.read(
        scope,
        "MATCH (t:ReasoningTrace {tenant: $tenant, uid: $uid})-[r:TOUCHED {kind: 'passage'}]->"
        "(c:Chunk) RETURN c.uid AS uid",
        uid=found["trace"],
    )
    assert first["uid"] in {row["uid"] for row in touched}


def test_a_passage_is_found_by_meaning_without_a_word_in_common(scope):
    ingest(scope, STORMS, "Pets")
    found = ask(scope, "Is the kitty scared during lightning?")
    assert [p["text"] for p in found["passages"]] == [STORMS]
    assert found["passages"][0]["ranks"] == {"meaning": 1}


def test_another_tenants_passage_never_appears(make_tenant):
    ours, theirs = scope_for(make_tenant()), scope_for(make_tenant())
    ingest(theirs, FOUNDING, "Their history")
    found = ask(ours, "In which year did Quendrax Logistics start out?")
    assert found["passages"] == []
    assert "1988" not in found["context"]


def test_a_question_that_matches_nothing_gets_no_passage_and_says_so(scope):
    ingest(scope, FOUNDING, "History of Quendrax")
    ingest(scope, CATERING, "Offsite")
    found = ask(scope, "What's a good recipe for banana bread?", token_budget=1000)
    assert found["passages"] == []
    assert {"part": "passages", "reason": "below the relevance floor"} in [
        {k: o[k] for k in ("part", "reason")} for o in found["omitted"]
    ]
    assert found["tokens"] < 100  # the budget is a ceiling, not a target


def test_a_relation_said_by_a_passage_is_not_given_twice(scope):
    text = "Orla Quennell works for Brightwater Mills as their head of safety."
    services.check_facts_submit(
        scope,
        entities=[{"name": "Orla Quennell", "type": "Person"},
                  {"name": "Brightwater Mills", "type": "Organization"}],
        relations=[{"subject": "Orla Quennell", "predicate": "WORKS_FOR",
                    "object": "Brightwater Mills"}],
        source_text=text,
    )  # fmt: skip
    found = ask(scope, "Who employs Orla Quennell?")
    assert [p["text"] for p in found["passages"]] == [text]
    assert "Orla Quennell" in [e["name"] for e in found["entity_hits"]]
    assert not any(n["predicate"] == "WORKS_FOR" for n in found["neighbours"])
    assert {"part": "neighbours", "count": 1, "reason": "said by a passage given"} in found[
        "omitted"
    ]
    assert "-WORKS_FOR->" not in found["context"]


def test_messages_appended_just_before_are_in_the_context(scope):
    """No worker has embedded them and the word index may lag: they are read directly."""
    say(scope, "My locker code at the gym is 4471, remember it.")
    say(scope, "Also, the dentist moved my appointment to Thursday.")
    found = ask(scope, "What is the code of my locker?")
    texts = [m["text"] for m in found["message_hits"]]
    assert "My locker code at the gym is 4471, remember it." in texts
    assert "4471" in found["context"]
