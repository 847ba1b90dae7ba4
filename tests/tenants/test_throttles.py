"""Throttles: per key, per address without a key, bad keys and failed logins; 429 in the API's
error shape (pages keep HTML). The tests set low rates; the defaults never get in the way."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient


@pytest.fixture
def low_rates(settings):
    # Per day: a test's few requests fall in one window however slow the machine is.
    settings.THROTTLE_RATES = {
        **settings.THROTTLE_RATES, "key": "3/day", "anonymous": "3/day",
        "login": "2/day", "api_key": "2/day",
    }  # fmt: skip
    cache.clear()
    yield settings.THROTTLE_RATES
    cache.clear()


def throttled(response) -> None:
    assert response.status_code == 429, response.content[:300]
    assert response.json()["error"]["code"] == "throttled"
    assert int(response["Retry-After"]) > 0


def test_requests_per_key(low_rates, tenant, make_api_client):
    client, other = make_api_client(tenant), make_api_client(tenant)
    for _ in range(3):
        assert client.get("/api/v1/stats").status_code == 200
    throttled(client.get("/api/v1/stats"))
    assert other.get("/api/v1/stats").status_code == 200  # another key has its own count


def test_requests_without_a_key_per_address(low_rates, db):
    anonymous = APIClient()
    for _ in range(3):
        assert anonymous.get("/api/v1/stats").status_code in (401, 403)
    throttled(anonymous.get("/api/v1/stats"))
    elsewhere = APIClient(REMOTE_ADDR="10.0.0.9")
    assert elsewhere.get("/api/v1/stats").status_code in (401, 403)


def test_bad_keys_per_address(low_rates, tenant, api_client):
    guesser = APIClient()
    guesser.credentials(HTTP_AUTHORIZATION="Api-Key abcdefgh.not-a-key")
    for _ in range(2):
        assert guesser.get("/api/v1/stats").status_code in (401, 403)
    throttled(guesser.get("/api/v1/stats"))
    throttled(api_client.get("/api/v1/stats"))  # even a good key, from this address, waits
    good_elsewhere = APIClient(REMOTE_ADDR="10.0.0.9")
    good_elsewhere.credentials(HTTP_AUTHORIZATION=f"Api-Key {api_client.raw_key}")
    assert good_elsewhere.get("/api/v1/stats").status_code == 200


def test_failed_logins_per_address_and_username(low_rates, tenant, make_person):
    person = make_person(tenant)
    client = Client()
    for _ in range(2):
        wrong = client.post("/accounts/login/", {"username": person.username, "password": "x"})
        assert wrong.status_code == 200 and b"didn't match" in wrong.content
    blocked = client.post(
        "/accounts/login/", {"username": person.username, "password": person.raw_password}
    )
    assert blocked.status_code == 429 and b"Too many failed attempts" in blocked.content
    assert blocked["Content-Type"].startswith("text/html")
    assert "_auth_user_id" not in client.session
    other = make_person(tenant)
    fine = client.post("/accounts/login/", {"username": other.username,
                                            "password": other.raw_password})  # fmt: skip
    assert fine.status_code == 302
