"""The short-term state behind one interface, kept by the rules (`WorkingMemory`) or returned
by the LLM (`LlmState`, the fake chat endpoint): the same chunks resolve alike; a state the LLM
returns replaces the active entities and the branch, its `boundary` resets the next chunk, and an
answer that fails the schema leaves the rules' state and is counted."""

import json

import pytest

from apps.ingestion.extraction.llm import LlmExtractor
from apps.ingestion.llm_state import LlmState, state_checked
from apps.ingestion.working_memory import NamedSpan, WorkingMemory, read_chunk

TEXT = "Acme Corp builds pumps in Berlin. We assume that demand grows."


def spans(text, *named):
    return [NamedSpan(s, text.index(s), text.index(s) + len(s), t) for s, t in named]


@pytest.mark.parametrize("make", [WorkingMemory, LlmState])
def test_both_states_resolve_the_same_chunks_alike(make):
    state = make()
    state.begin_chunk(("Firms",))
    read_chunk(state, TEXT, spans(TEXT, ("Acme Corp", "Organization"), ("Berlin", "Location")))
    assert state.begin_chunk(("Firms",)) is False
    reading = read_chunk(state, "The company grew. This assumption held.", [])
    assert [(r.phrase, r.target) for r in reading.references] == [
        ("The company", "Acme Corp"), ("This assumption", "We assume that demand grows.")]  # fmt: skip
    assert state.begin_chunk(("Other",)) is True
    assert state.view().active_entities == ()


def returned(active, branch=None, boundary=False):
    return {"active_entities": [{"name": n, "type": t} for n, t in active],
            "unresolved_references": [], "current_argument_branch": branch,
            "boundary": boundary}  # fmt: skip


def answer(state=None):
    body = {"entities": [{"name": "Acme Corp", "type": "Organization", "aliases": [],
                          "description": ""}], "relations": []}  # fmt: skip
    if state is not None:
        body["state"] = state
    return body


def test_the_llm_returns_the_state_and_it_is_adopted(chat_server):
    chat_server.answers = [answer(returned([("Globex Corporation", "Organization")],
                                           "Globex will buy Acme.", boundary=False))]  # fmt: skip
    state = LlmState()
    state.begin_chunk(())
    LlmExtractor(url=chat_server.url, model="m").extract(TEXT, state=state)
    body = chat_server.requests[0]["body"]
    schema = body["response_format"]["json_schema"]["schema"]
    assert "state" in schema["required"] and schema["properties"]["state"]["required"] == [
        "active_entities", "unresolved_references", "current_argument_branch", "boundary"]  # fmt: skip
    assert state.adopted == 1 and state.fallbacks == 0
    assert state.view().active_entities == (("Globex Corporation", "Organization"),)
    assert state.view().branch == "Globex will buy Acme."
    state.begin_chunk(())
    reading = read_chunk(state, "The company said so.", [])
    assert reading.references[0].target == "Globex Corporation"
    # The state it returned goes back to it with the next chunk.
    chat_server.answers = [answer(returned([], None, boundary=True))]
    LlmExtractor(url=chat_server.url, model="m").extract("More text.", state=state)
    sent = json.loads(chat_server.requests[1]["body"]["messages"][1]["content"])
    assert {"name": "Globex Corporation", "type": "Organization"} in sent["context"][
        "active_entities"
    ]
    assert state.begin_chunk(()) is True  # the boundary it saw resets the next chunk


@pytest.mark.parametrize("bad", [
    None, "state", {"active_entities": []},
    returned([("Acme Corp", "Planet")]),
    {**returned([]), "boundary": "yes"},
    {**returned([]), "extra": 1},
    returned([("x" * 201, "Organization")]),
])  # fmt: skip
def test_a_state_that_fails_the_schema_falls_back_to_rules_and_is_counted(chat_server, bad):
    assert state_checked(bad) is None
    chat_server.answers = [answer(bad)]
    state = LlmState()
    state.begin_chunk(())
    LlmExtractor(url=chat_server.url, model="m").extract(TEXT, state=state)
    assert state.fallbacks == 1 and state.adopted == 0
    assert ("Acme Corp", "Organization") in state.view().active_entities  # the rules' reading
    assert state.view().branch == "We assume that demand grows."


def test_the_pipeline_counts_the_llm_state(chat_server, scope):
    from apps.ingestion import pipeline
    from apps.ingestion.services import document_store, validate_document_fields

    chat_server.answers = [answer("broken")]  # the first chunk's state fails the schema
    chat_server.answer = answer(returned([("Acme Corp", "Organization")]))
    content = "# A\n\n" + TEXT + "\n\n# B\n\nAcme Corp hired staff in Berlin last year.\n"
    size = validate_document_fields(scope, content=content, source="test", url=None)
    stored = document_store(scope, content=content, source="test", size=size)
    extractor = LlmExtractor(url=chat_server.url, model="m")
    result = pipeline.document_ingest(scope, document_uid=stored.uid, extractor=extractor)
    assert result["total"] >= 1 and result["failures"] == 0
    assert result["state"] == {"kind": "llm", "adopted": result["total"] - 1, "fallbacks": 1}
    rules = pipeline.document_ingest(scope, document_uid=stored.uid)
    assert rules["state"] == {"kind": "rules"}
