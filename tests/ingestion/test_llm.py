"""The LLM extractor against the fake OpenAI-compatible endpoint (the `chat_server` fixture):
the request carries the strict schema and the document's state; the answer is checked again."""

import json

import pytest

from apps.ingestion.extraction import ExtractionFailed
from apps.ingestion.extraction.llm import LlmExtractor
from apps.ingestion.working_memory import WorkingMemory

TEXT = "Sherlock Holmes admires Irene Adler. Holmes works for Scotland Yard."


def test_the_request_carries_schema_state_and_key(chat_server):
    chat_server.answer = {"entities": [], "relations": []}
    state = WorkingMemory()
    state.begin_chunk(("Cases", "Bohemia"))
    LlmExtractor(url=chat_server.url, model="m1", api_key="sekret").extract(TEXT, state=state)
    request = chat_server.requests[0]
    assert request["path"] == "/v1/chat/completions" and request["auth"] == "Bearer sekret"
    fmt = request["body"]["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["strict"] is True
    schema = fmt["json_schema"]["schema"]["properties"]
    assert "RELATES_TO" in schema["relations"]["items"]["properties"]["predicate"]["enum"]
    assert schema["entities"]["items"]["properties"]["type"]["enum"][0] == "Person"
    sent = json.loads(request["body"]["messages"][1]["content"])
    assert sent["chunk"] == TEXT and sent["context"]["section"] == ["Cases", "Bohemia"]


def test_answers_are_checked_and_unknown_relations_keep_their_intent(chat_server):
    chat_server.answer = {
        "entities": [
            {"name": "Sherlock Holmes", "type": "Person", "aliases": ["Holmes"], "description": "detective"},
            {"name": "Irene Adler", "type": "Person", "aliases": [], "description": ""},
            {"name": "Scotland Yard", "type": "Organization", "aliases": [], "description": ""},
            {"name": "Baker Street", "type": "Planet", "aliases": [], "description": ""},
        ],
        "relations": [
            {"subject": "Sherlock Holmes", "predicate": "ADMIRES", "object": "Irene Adler",
             "confidence": 0.8, "nuance": "after the photograph"},
            {"subject": "Holmes", "predicate": "WORKS_FOR", "object": "Scotland Yard",
             "confidence": 2.5, "nuance": ""},
            {"subject": "Sherlock Holmes", "predicate": "KNOWS", "object": "Moriarty",
             "confidence": 0.5, "nuance": ""},
        ],
    }  # fmt: skip
    state = WorkingMemory()
    state.begin_chunk(())
    found = LlmExtractor(url=chat_server.url, model="m").extract(TEXT, state=state)
    entities = {e.name: e for e in found.entities}
    assert set(entities) == {"Sherlock Holmes", "Irene Adler", "Scotland Yard"}  # no Planet
    assert entities["Sherlock Holmes"].description == "detective"
    assert [m.surface for m in entities["Sherlock Holmes"].mentions] == [
        "Sherlock Holmes",
        "Holmes",
    ]
    triples = {(found.entities[r.subject].name, r.predicate, r.nuance, r.confidence)
               for r in found.relations}  # fmt: skip
    assert triples == {
        ("Sherlock Holmes", "RELATES_TO", "ADMIRES: after the photograph", 0.8),
    }


def test_a_broken_endpoint_or_answer_fails_the_chunk(chat_server):
    state = WorkingMemory()
    state.begin_chunk(())
    chat_server.answer = "not json at all"
    with pytest.raises(ExtractionFailed):
        LlmExtractor(url=chat_server.url, model="m").extract(TEXT, state=state)
    chat_server.status, chat_server.answer = 500, {}
    with pytest.raises(ExtractionFailed):
        LlmExtractor(url=chat_server.url, model="m").extract(TEXT, state=state)


def test_the_pipeline_uses_the_llm_when_settings_say_so(chat_server, settings, scope):
    from apps.ingestion.extraction import default_extractor

    settings.INGESTION_EXTRACTOR = "llm"
    settings.INGESTION_LLM_URL = chat_server.url
    settings.INGESTION_LLM_MODEL = "fake-model"
    assert default_extractor().name == "llm:fake-model"
