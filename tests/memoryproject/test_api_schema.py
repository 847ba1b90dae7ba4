"""The OpenAPI schema against the running service: schemathesis generates requests from it (a
fixed seed, a few examples per operation, a few hundred in all) and sends them with a valid
admin key to a live server; no answer may be a 5xx, and every answer must fit the schema of its
status. Each operation also documents the error statuses it can answer."""

from __future__ import annotations

import pytest
import schemathesis
from django.core.cache import cache
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, seed, settings
from schemathesis.checks import not_a_server_error
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import response_schema_conformance

EXAMPLES_PER_OPERATION = 6
SEED = 20261130


def openapi() -> dict:
    return SchemaGenerator().get_schema(request=None, public=True)


def test_every_operation_documents_its_errors_and_the_key():
    spec = openapi()
    assert spec["components"]["securitySchemes"]["ApiKey"]["in"] == "header"
    operations = [
        (path, method, op)
        for path, item in spec["paths"].items()
        for method, op in item.items()
        if path.startswith("/api/v1/")
    ]
    assert len(operations) >= 40
    for path, method, op in operations:
        statuses = set(op["responses"])
        assert {"400", "401", "403", "429"} <= statuses, (path, method)
        assert any(s.startswith("2") for s in statuses), (path, method)
        if method in ("post", "put"):
            assert {"404", "409", "413"} <= statuses, (path, method)
        error = op["responses"]["400"]["content"]["application/json"]["schema"]
        assert error == {"$ref": "#/components/schemas/ErrorOut"}
    ids = [op["operationId"] for _, _, op in operations]
    assert len(ids) == len(set(ids))


def undocumented_answers(spec: dict) -> list[str]:
    """The /api/v1/ operations whose schema lacks a success answer with a named shape (a 2xx
    with no body, or a generic object), or the errors of a caller's input and key."""
    problems = []
    for path, item in spec["paths"].items():
        for method, op in item.items():
            if not path.startswith("/api/v1/"):
                continue
            where = f"{method.upper()} {path}"
            successes = {s: r for s, r in op["responses"].items() if s.startswith("2")}
            if not successes:
                problems.append(f"{where}: no 2xx")
            for status, answer in successes.items():
                schema = answer.get("content", {}).get("application/json", {}).get("schema", {})
                if "$ref" not in schema:
                    problems.append(f"{where} {status}: no named response schema")
            if not {"400", "401", "403"} <= set(op["responses"]):
                problems.append(f"{where}: lacks 400/401/403")
    return problems


def test_every_operation_documents_its_answer():
    assert undocumented_answers(openapi()) == []
    # The check itself, on planted omissions.
    planted = {"paths": {"/api/v1/x": {
        "get": {"responses": {"200": {"content": {"application/json": {"schema": {
            "type": "object", "additionalProperties": {}}}}}, "400": {}, "401": {}, "403": {}}},
        "post": {"responses": {"201": {"description": "no body"}, "400": {}}},
        "put": {"responses": {"400": {}, "401": {}, "403": {}}},
    }}}  # fmt: skip
    assert undocumented_answers(planted) == [
        "GET /api/v1/x 200: no named response schema",
        "POST /api/v1/x 201: no named response schema",
        "POST /api/v1/x: lacks 400/401/403",
        "PUT /api/v1/x: no 2xx",
    ]


def test_no_two_schema_components_share_a_name():
    """drf-spectacular names a component after its serializer class: two apps' `ReceiptOut`
    would become one component, and one operation would document the other's answer."""
    from drf_spectacular.drainage import GENERATOR_STATS

    GENERATOR_STATS.reset()
    openapi()
    clashes = [w for w in GENERATOR_STATS._warn_cache if "identical names" in w]
    assert clashes == []


@pytest.fixture
def live_key(tenant, make_api_client, live_server, settings):
    # Schemathesis also sends made-up keys: they must not use up the address's allowance of bad
    # keys (the server runs in this process and shares its cache with the tests after this one).
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "api_key": "1000000/hour"}
    yield {"base_url": live_server.url, "key": make_api_client(tenant).raw_key}
    cache.clear()


# Loaded at import, as schemathesis's pytest plugin needs (its fixture-based loader does not run
# on pytest 9); generating the schema needs no database.
# Only the fuzzing phase, bounded: the coverage phase alone sends hundreds of requests per
# operation, which the suite cannot afford on every run.
CONFIG = SchemathesisConfig.from_dict(
    {
        "seed": SEED,
        "generation": {"max-examples": EXAMPLES_PER_OPERATION},
        "phases": {
            "examples": {"enabled": False},
            "coverage": {"enabled": False},
            "stateful": {"enabled": False},
        },
    }
)
schema = schemathesis.openapi.from_dict(openapi(), config=CONFIG)


@pytest.mark.slow
@schema.parametrize()
@seed(SEED)
@settings(
    max_examples=EXAMPLES_PER_OPERATION,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_generated_requests_get_no_5xx_and_answers_fit_the_schema(case, live_key):
    case.call_and_validate(
        base_url=live_key["base_url"],
        headers={"Authorization": f"Api-Key {live_key['key']}"},
        checks=[not_a_server_error, response_schema_conformance],
        timeout=120,
    )
