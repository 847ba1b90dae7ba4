"""Values on entities through POST /api/v1/facts: accepted within limits, refused with the field
and limit beyond them, kept on the entity, merged without overwriting, shown escaped."""

import pytest
from django.test import Client

from apps.resolution.entity_values import MAX_VALUE_CHARS, MAX_VALUES, values_merged
from apps.tenants.models import Role

ADA = {
    "name": "Ada Lovelace",
    "type": "Person",
    "values": {"born": "1815-12-10", "email": "ada@example.org", "id:wikidata": "Q7259",
               "height_cm": 165.5, "living": False},
}  # fmt: skip


def post(client, *entities):
    return client.post("/api/v1/facts", {"entities": list(entities)}, format="json")


def test_values_are_kept_on_the_entity_and_returned(api_client):
    response = post(api_client, ADA)
    assert response.status_code == 201, response.json()
    [receipt] = response.json()["receipts"]
    entity = api_client.get(f"/api/v1/entities/{receipt['entity_uid']}").json()
    assert entity["values"] == ADA["values"]
    assert entity["value_conflicts"] == {}


@pytest.mark.parametrize(
    ("values", "field", "limit"),
    [
        ({f"k{i}": i for i in range(MAX_VALUES + 1)}, "entities[0].values", MAX_VALUES),
        ({"note": "x" * (MAX_VALUE_CHARS + 1)}, "entities[0].values.note", MAX_VALUE_CHARS),
        ({"k" * 65: 1}, "entities[0].values." + "k" * 64, 64),
        ({"tags": ["a", "b"]}, "entities[0].values.tags", None),
        ({"place": {"city": "London"}}, "entities[0].values.place", None),
        ({"born": "10 December 1815"}, "entities[0].values.born", None),
        ({"born": "1815-02-30"}, "entities[0].values.born", None),
        ({"Email": "a@b.c"}, "entities[0].values.Email", None),
        ({"id:": "Q1"}, "entities[0].values.id:", None),
        ({"n": 2**60}, "entities[0].values.n", 2**53),
        ({"email": "  "}, "entities[0].values.email", None),
    ],
)
def test_values_beyond_their_limits_are_refused_naming_field_and_limit(
    api_client, values, field, limit
):
    response = post(api_client, {"name": "Ada Lovelace", "type": "Person", "values": values})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["field"] == field, error
    assert error.get("limit") == limit
    assert api_client.get("/api/v1/entities").json()["results"] == []


def test_values_that_are_not_an_object_are_refused(api_client):
    response = post(api_client, {"name": "Ada Lovelace", "type": "Person", "values": "born 1815"})
    assert response.status_code == 400
    assert "values" in str(response.json()["error"])


def test_a_merge_adds_new_values_and_keeps_a_conflicting_one_beside_the_first():
    merged, conflicts = values_merged(
        {"email": "ada@example.org"}, {}, {"email": "countess@example.org", "phone": "+44 20"}
    )
    assert merged == {"email": "ada@example.org", "phone": "+44 20"}
    assert conflicts == {"email": ["countess@example.org"]}
    # The same conflicting value again is not repeated; the first value never moves.
    again, conflicts = values_merged(merged, conflicts, {"email": "countess@example.org"})
    assert again == merged and conflicts == {"email": ["countess@example.org"]}


def test_values_are_shown_escaped_on_the_entity_page(tenant, api_client, make_person):
    evil = "<script>alert(1)</script>"
    body = {"name": "Mallory", "type": "Person", "values": {"email": evil, "id:crm": "C-1"}}
    [receipt] = post(api_client, body).json()["receipts"]
    browser = Client()
    browser.force_login(make_person(tenant, Role.VIEWER))
    html = browser.get(f"/entities/{receipt['entity_uid']}/").content.decode()
    assert 'id="entity-values"' in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and evil not in html
    assert "id:crm" in html and "C-1" in html
