"""Storing documents: unique per tenant by URL and content, also when agents race."""

from concurrent.futures import ThreadPoolExecutor

from apps.graph import cypher
from apps.ingestion.services import document_store, validate_document_fields
from tests.conftest import scope_for

TEXT = "Acme Corp builds pumps in Berlin. " * 20


def store(scope, content=TEXT, url=None):
    size = validate_document_fields(scope, content=content, source="s", url=url)
    return document_store(scope, content=content, source="s", url=url, size=size)


def test_racing_agents_store_one_document(tenant):
    scope = scope_for(tenant)
    with ThreadPoolExecutor(max_workers=6) as pool:
        results = list(pool.map(lambda _: store(scope), range(6)))
    assert sum(r.created for r in results) == 1
    assert len({r.uid for r in results}) == 1
    count = cypher.read(scope, "RETURN COUNT { MATCH (:Document {tenant: $tenant}) } AS n")
    assert count == [{"n": 1}]


def test_whitespace_and_unicode_forms_do_not_make_a_new_document(tenant):
    scope = scope_for(tenant)
    first = store(scope, "Café  au lait\n\nin Paris.")
    again = store(scope, "Cafe\u0301 au lait in   Paris.")
    assert again.uid == first.uid and again.duplicate_layer == "content_hash"


def test_another_tenant_may_store_the_same_document(make_tenant):
    a, b = scope_for(make_tenant()), scope_for(make_tenant())
    assert store(a, url="https://example.org/x").created
    assert store(b, url="https://example.org/x").created
