"""A tenant's match model learns from its reviewers: confirmed pairs with a level raise that
level's weight for that tenant only, and its gate scores with it; every N decisions queue the
job, and the API runs it on a real worker with progress."""

import pytest

from apps.resolution.candidates import EntityCandidate
from apps.resolution.tenant_model import match_model_learn, match_model_weights
from apps.review.services import check_review_confirm
from apps.tenants.models import Job, KeyScope
from tests.conftest import scope_for, wait_for
from tests.review.review_fixtures import ingest, pending_pairs

SURNAMES = ("Baker", "Carter", "Dalton")


def same_born_other_phone(scope, surname, *, title="doc"):
    """Two spellings of one person, one birth date, two phones: proposed for review (a
    conflicting phone forbids an automatic merge). Each surname has its own date and phones."""
    n = sum(map(ord, surname)) % 90
    born = f"19{10 + n:02d}-03-04"
    ingest(scope, f"Jonathan {surname} joined.", [EntityCandidate(
        f"Jonathan {surname}", "Person", values={"born": born, "phone": f"+44 20 7946 01{n:02d}"},
    )], title=title + "-1")  # fmt: skip
    second = ingest(scope, f"Jonathon {surname} left.", [EntityCandidate(
        f"Jonathon {surname}", "Person", values={"born": born, "phone": f"+44 20 7946 07{n:02d}"},
    )], title=title + "-2")  # fmt: skip
    assert second[0].action == "pending", second[0].reason
    return second[0]


def weight(scope, comparison, level):
    rows = match_model_weights(scope)["weights"]
    return next(w["weight"] for w in rows if (w["comparison"], w["level"]) == (comparison, level))


def test_confirmed_pairs_raise_their_levels_weight_for_that_tenant_only(make_tenant):
    mine, other = scope_for(make_tenant()), scope_for(make_tenant())
    before = weight(mine, "phone", "conflict")
    for surname in SURNAMES:
        same_born_other_phone(mine, surname)
    for pair in pending_pairs(mine):
        check_review_confirm(mine, review_uid=pair["uid"])
    learned = match_model_learn(mine)
    assert learned["confirmed"] == 3 and learned["rejected"] == 0
    assert {"phone", "born"} <= {c["comparison"] for c in learned["changes"]}
    assert weight(mine, "phone", "conflict") > before + 0.3
    assert weight(other, "phone", "conflict") == before
    assert match_model_weights(other)["learned"] is False
    # The gate scores with it: the same new pair is more probable in the tenant that learned.
    here = same_born_other_phone(mine, "Evans", title="after")
    there = same_born_other_phone(other, "Evans", title="after")
    assert here.score > there.score


def test_every_nth_decision_queues_learning(make_tenant):
    tenant = make_tenant(model_learn_every=2)
    scope = scope_for(tenant)
    for surname in SURNAMES[:2]:
        same_born_other_phone(scope, surname)
    first, second = pending_pairs(scope)
    check_review_confirm(scope, review_uid=first["uid"])
    assert not Job.objects.filter(tenant=tenant, kind="match_model.learn").exists()
    check_review_confirm(scope, review_uid=second["uid"])
    assert Job.objects.filter(tenant=tenant, kind="match_model.learn").count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_api_runs_learning_on_a_worker(make_tenant, make_api_client, celery_worker):
    tenant = make_tenant()
    scope = scope_for(tenant)
    same_born_other_phone(scope, "Baker")
    [pair] = pending_pairs(scope)
    check_review_confirm(scope, review_uid=pair["uid"])
    reader = make_api_client(tenant, scopes=[KeyScope.MEMORY_READ])
    assert reader.post("/api/v1/match-model/learn").status_code == 403
    client = make_api_client(tenant, scopes=[KeyScope.REVIEW, KeyScope.MEMORY_READ])
    queued = client.post("/api/v1/match-model/learn")
    assert queued.status_code == 202, queued.content
    job_url = queued.json()["url"]
    done = wait_for(lambda: (j := client.get(job_url).json())["status"] == "done" and j,
                    timeout=300, message="the learning job did not finish")  # fmt: skip
    assert done["result"]["confirmed"] == 1 and done["progress"]["total"] == 1
    model = client.get("/api/v1/match-model").json()
    assert model["learned"] is True and model["confirmed"] == 1
    # A new model re-scores past automatic merges: its job was queued and runs too.
    rescore = f"/api/v1/jobs/{done['result']['rescore_job']}"
    wait_for(lambda: client.get(rescore).json()["status"] == "done", timeout=300,
             message="the re-scoring job did not finish")  # fmt: skip
