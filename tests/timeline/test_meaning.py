"""Meaning search over kinds' text values, with the real model: embed() gives vectors to what
waits, the model's name is kept per vector, a change of the text takes the vector out, nearest()
stays in its tenant and kind."""

from __future__ import annotations

import pytest

from apps.graph.embeddings import get_embedder
from apps.timeline import tasks
from apps.timeline.kinds import check_kind_declare
from apps.timeline.meaning import check_kind_embed, nearest
from apps.timeline.services import check_rows_write
from memoryproject.api_errors import ApplicationError
from tests.conftest import scope_for

MANUAL = {"name": "Manual", "key": "code",
          "values": {"title": "text", "body": "text", "notes": "text", "pages": "integer"},
          "embed": ["title", "body"]}  # fmt: skip
T1, T2 = "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"
TEXTS = {
    "m1": ("Pump maintenance", "Replace the shaft seal when the pump leaks water."),
    "m2": ("Router setup", "Connect the cable and choose a wireless password."),
    "m3": ("Bread baking", "Knead the dough and let it rise for an hour."),
}


def manual(key: str, t: str = T1, **values) -> dict:
    title, body = TEXTS.get(key, ("", ""))
    return {"kind": "Manual", "key": key, "t": t,
            "values": {"title": title, "body": body, "pages": 10, **values}}  # fmt: skip


class OtherModel:
    """Another model's name over the same vectors: what a change of model looks like."""

    name = "other-model"
    dimensions = 384

    def embed(self, texts):
        return get_embedder().embed(texts)


@pytest.fixture
def manuals(scope):
    check_kind_declare(scope, kind=MANUAL)
    check_rows_write(scope, rows=[manual(k) for k in TEXTS])
    return scope


def keys(found: dict) -> list[str]:
    return [r["key"] for r in found["results"]]


def test_embed_gives_vectors_to_what_waits_and_nearest_finds_by_meaning(manuals):
    got = check_kind_embed(manuals, kind="Manual", limit=2)
    assert (got["embedded"], got["waiting"]) == (2, 1)
    assert got["model"] == get_embedder().name
    assert check_kind_embed(manuals, kind="Manual")["waiting"] == 0
    found = nearest(manuals, kind="Manual", q="the seal of my pump is leaking")
    assert keys(found)[0] == "m1" and found["model"] == get_embedder().name
    assert found["results"][0]["text"] == "\n".join(reversed(TEXTS["m1"]))  # body, then title
    assert keys(nearest(manuals, kind="Manual", q="wifi password", limit=1)) == ["m2"]


def test_a_change_of_text_takes_the_vector_out_other_values_keep_it(manuals):
    check_kind_embed(manuals, kind="Manual")
    check_rows_write(manuals, rows=[manual("m1", T2, pages=12)])  # not text: the vector stays
    assert check_kind_embed(manuals, kind="Manual")["embedded"] == 0
    noted = check_rows_write(
        manuals, rows=[manual("m1", "2026-01-03T00:00:00Z", pages=12, notes="kept on shelf 3")]
    )  # not embedded
    assert noted[0]["status"] == "changed"
    assert check_kind_embed(manuals, kind="Manual")["embedded"] == 0
    check_rows_write(manuals, rows=[{**manual("m1", "2026-01-04T00:00:00Z"),
                                     "values": {"title": "Garden tools", "body": "Sharpen the "
                                                "blades of the hedge trimmer."}}])  # fmt: skip
    assert "m1" not in keys(nearest(manuals, kind="Manual", q="pump seal leaking water"))
    assert check_kind_embed(manuals, kind="Manual")["embedded"] == 1
    assert keys(nearest(manuals, kind="Manual", q="hedge trimmer blades", limit=1)) == ["m1"]


def test_vectors_of_another_model_are_never_compared(manuals):
    check_kind_embed(manuals, kind="Manual")
    other = check_kind_embed(manuals, kind="Manual", embedder=OtherModel())
    assert (other["embedded"], other["waiting"], other["model"]) == (3, 0, "other-model")
    # Every vector is now the other model's: the current model finds none until embed() again.
    assert keys(nearest(manuals, kind="Manual", q="pump seal")) == []
    assert keys(nearest(manuals, kind="Manual", q="pump seal", embedder=OtherModel()))[0] == "m1"
    assert check_kind_embed(manuals, kind="Manual")["embedded"] == 3
    assert keys(nearest(manuals, kind="Manual", q="pump seal"))[0] == "m1"


def test_nearest_stays_in_its_tenant(manuals, make_tenant):
    check_kind_embed(manuals, kind="Manual")
    other = scope_for(make_tenant())
    check_kind_declare(other, kind=MANUAL)
    check_rows_write(
        other,
        rows=[{**manual("x1"), "values": {"title": "Pump seals", "body": "A leaking pump seal."}}],
    )
    check_kind_embed(other, kind="Manual")
    assert keys(nearest(other, kind="Manual", q="pump seal leaking")) == ["x1"]
    assert "x1" not in keys(nearest(manuals, kind="Manual", q="pump seal leaking"))


def test_a_kind_without_embed_and_bad_embed_are_refused(scope):
    check_kind_declare(scope, kind={"name": "Room", "key": "code", "values": {"note": "text"}})
    with pytest.raises(ApplicationError) as refused:
        check_kind_embed(scope, kind="Room")
    assert refused.value.field == "embed"
    with pytest.raises(ApplicationError) as bad:
        check_kind_declare(scope, kind={**MANUAL, "embed": ["pages"]})
    assert bad.value.field == "embed"


def test_embed_and_nearest_over_the_api(tenant, api_client):
    declared = api_client.post("/api/v1/kinds", MANUAL, format="json")
    assert declared.status_code == 201 and declared.json()["kind"]["embed"] == ["body", "title"]
    assert api_client.post("/api/v1/rows", {"rows": [manual(k) for k in TEXTS]},
                           format="json").status_code == 200  # fmt: skip
    got = api_client.post("/api/v1/kinds/Manual/embed", {"limit": 10}, format="json")
    assert got.status_code == 202  # a job (tests/timeline/test_meaning_job.py): run it here
    tasks.kind_embed(got.json()["job"], 10)
    result = api_client.get(got.json()["url"]).json()["result"]
    assert result["embedded"] == 3 and result["waiting"] == 0
    found = api_client.get("/api/v1/kinds/Manual/nearest", {"q": "bake a loaf", "limit": 2})
    assert found.status_code == 200 and found.json()["results"][0]["key"] == "m3"
    assert found.json()["model"] == get_embedder().name
    too_many = api_client.post("/api/v1/kinds/Manual/embed", {"limit": 5000}, format="json")
    assert too_many.status_code == 400 and "limit" in too_many.json()["error"]["fields"]
    no_q = api_client.get("/api/v1/kinds/Manual/nearest")
    assert no_q.status_code == 400 and "q" in no_q.json()["error"]["fields"]
    assert api_client.get("/api/v1/kinds/Nope/nearest", {"q": "x"}).status_code == 404
