"""The JSON renderer answers even for text that cannot be UTF-8 (stored before the checks)."""

from __future__ import annotations

import json

from apps.graph import cypher
from memoryproject.api_renderers import SafeJSONRenderer
from tests.conftest import scope_for


def test_utf8_as_usual_and_escaped_only_when_it_must():
    assert SafeJSONRenderer().render({"a": "é"}) == '{"a":"é"}'.encode()
    escaped = SafeJSONRenderer().render({"a": "é \ud800"})
    assert escaped == b'{"a":"\\u00e9 \\ud800"}'
    assert json.loads(escaped) == {"a": "é \ud800"}


def test_a_playbook_stored_with_a_lone_surrogate_before_the_checks_still_reads(tenant, api_client):
    eps = []
    for _ in range(3):
        ep = api_client.post("/api/v1/episodes", {}, format="json").json()["id"]
        api_client.post(f"/api/v1/episodes/{ep}/close", {"outcome": {"ok": 1}}, format="json")
        eps.append(ep)
    body = {"key": "old", "trigger": {"a": 1}, "steps": [{"do": "x"}], "supported_by": eps}
    assert api_client.post("/api/v1/playbooks", body, format="json").status_code == 201
    # What a write accepted before the input checks left in the graph (no service writes it now).
    cypher.write(
        scope_for(tenant),
        "MATCH (v:PlaybookVersion {tenant: $tenant, key: 'old'}) SET v.steps = $steps",
        steps='[{"do": "\\ud800"}]',
    )
    for path in ("/api/v1/playbooks", "/api/v1/playbooks/old"):
        response = api_client.get(path)
        assert response.status_code == 200, path
    listed = json.loads(api_client.get("/api/v1/playbooks").content)
    # Read back through stored_json_loads: the lone surrogate becomes U+FFFD, never a 500.
    assert listed["results"][0]["steps"] == [{"do": "\ufffd"}]
