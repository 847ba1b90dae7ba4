"""The LLM extractor against a local fake OpenAI-compatible endpoint started by the test: the
request carries the strict schema and the document's state; the answer is checked again."""

import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from apps.ingestion.extraction import ExtractionFailed
from apps.ingestion.extraction.llm import LlmExtractor
from apps.ingestion.working_memory import WorkingMemory


class FakeEndpoint:
    def __init__(self):
        self.requests, self.answer, self.status = [], {}, 200
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                endpoint.requests.append({"path": self.path, "body": body,
                                          "auth": self.headers.get("Authorization")})  # fmt: skip
                content = (
                    endpoint.answer
                    if isinstance(endpoint.answer, str)
                    else json.dumps(endpoint.answer)
                )
                payload = json.dumps({"choices": [{"message": {"content": content}}]}).encode()
                self.send_response(endpoint.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args):
                pass

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()


@pytest.fixture
def endpoint():
    fake = FakeEndpoint()
    yield fake
    fake.close()


TEXT = "Sherlock Holmes admires Irene Adler. Holmes works for Scotland Yard."


def test_the_request_carries_schema_state_and_key(endpoint):
    endpoint.answer = {"entities": [], "relations": []}
    state = WorkingMemory()
    state.begin_chunk(("Cases", "Bohemia"))
    LlmExtractor(url=endpoint.url, model="m1", api_key="sekret").extract(TEXT, state=state)
    request = endpoint.requests[0]
    assert request["path"] == "/v1/chat/completions" and request["auth"] == "Bearer sekret"
    fmt = request["body"]["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["strict"] is True
    schema = fmt["json_schema"]["schema"]["properties"]
    assert "RELATES_TO" in schema["relations"]["items"]["properties"]["predicate"]["enum"]
    assert schema["entities"]["items"]["properties"]["type"]["enum"][0] == "Person"
    sent = json.loads(request["body"]["messages"][1]["content"])
    assert sent["chunk"] == TEXT and sent["context"]["section"] == ["Cases", "Bohemia"]


def test_answers_are_checked_and_unknown_relations_keep_their_intent(endpoint):
    endpoint.answer = {
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
    found = LlmExtractor(url=endpoint.url, model="m").extract(TEXT, state=state)
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


def test_a_broken_endpoint_or_answer_fails_the_chunk(endpoint):
    state = WorkingMemory()
    state.begin_chunk(())
    endpoint.answer = "not json at all"
    with pytest.raises(ExtractionFailed):
        LlmExtractor(url=endpoint.url, model="m").extract(TEXT, state=state)
    endpoint.status, endpoint.answer = 500, {}
    with pytest.raises(ExtractionFailed):
        LlmExtractor(url=endpoint.url, model="m").extract(TEXT, state=state)


def test_the_pipeline_uses_the_llm_when_settings_say_so(endpoint, settings, scope):
    from apps.ingestion.extraction import default_extractor

    settings.INGESTION_EXTRACTOR = "llm"
    settings.INGESTION_LLM_URL = endpoint.url
    settings.INGESTION_LLM_MODEL = "fake-model"
    assert default_extractor().name == "llm:fake-model"
