"""Episode entries get vectors from a worker, as messages do: each entry with text is embedded
once (two tasks at once embed it once), and the one search finds entries by meaning as well as
by words, saying how each ranking placed them; an entry not embedded yet is still found."""

import threading

import pytest

from apps.graph import cypher
from apps.lessons.services import entry_embedding
from apps.lessons.services.episodes import check_entry_record, check_episode_open
from tests.conftest import scope_for, wait_for

STATE = """
MATCH (en:Entry {tenant: $tenant})
RETURN count(en.embedding) AS embedded,
       COUNT { MATCH (p:EntryToEmbed {tenant: $tenant}) } AS waiting,
       COUNT { MATCH (c:Entry {tenant: $tenant}) WHERE c.embed_claim IS NOT NULL } AS claimed
"""
NIGHT = [
    "The Quendrax conveyor stalled twice before midnight.",
    "Forklift batteries were swapped at the loading bay.",
    "A pallet of frozen fish was rejected for a broken seal.",
]


def episode_with(scope, texts, title="Night shift") -> str:
    episode = check_episode_open(scope, title=title)["id"]
    for text in texts:
        check_entry_record(scope, episode=episode, type="observation", text=text)
    return episode


def test_two_tasks_at_once_embed_each_entry_once(scope):
    episode = episode_with(scope, [f"Crate {i} was counted at the north gate." for i in range(30)])
    check_entry_record(scope, episode=episode, type="marker")  # no text: nothing to embed
    assert cypher.read(scope, STATE)[0] == {"embedded": 0, "waiting": 30, "claimed": 0}
    barrier, results = threading.Barrier(2), []

    def task():
        barrier.wait()
        results.append(entry_embedding.entries_embed_pending(scope, batch=4))

    threads = [threading.Thread(target=task) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert sum(r["embedded"] for r in results) == 30
    assert cypher.read(scope, STATE)[0] == {"embedded": 30, "waiting": 0, "claimed": 0}
    assert entry_embedding.entries_embed_pending(scope) == {"embedded": 0, "more": False}


def test_search_finds_entries_by_meaning_and_by_words(scope, api_client):
    episode_with(scope, NIGHT)
    entry_embedding.entries_embed_pending(scope)
    # No word in common with the entry: found by meaning only.
    q = "When were the lift truck power packs replaced?"
    found = api_client.get("/api/v1/search", {"q": q, "in": "entries"}).json()
    results = found["results"]
    assert results and "Forklift batteries" in results[0]["snippet"]
    assert results[0]["ranks"].get("meaning") == 1 and "meaning #1" in results[0]["placed"]
    assert results[0]["source"]["title"] == "Night shift"
    # Words and meaning both place the one that shares a rare word.
    words = api_client.get("/api/v1/search", {"q": "Quendrax conveyor", "in": "entries"}).json()
    first = words["results"][0]
    assert "conveyor stalled" in first["snippet"]
    assert first["ranks"]["words"] == 1 and first["ranks"]["meaning"] == 1
    assert first["placed"] == "words #1, meaning #1"
    nothing = api_client.get("/api/v1/search", {"q": "banana bread recipe", "in": "entries"})
    assert nothing.json()["results"] == []


def test_an_entry_not_embedded_yet_is_found_by_its_words(scope, api_client):
    episode_with(scope, NIGHT)
    assert cypher.read(scope, STATE)[0]["embedded"] == 0
    found = api_client.get("/api/v1/search", {"q": "frozen fish seal", "in": "entries"}).json()
    assert [r["snippet"] for r in found["results"]] == [NIGHT[2]]


def test_another_tenants_entries_are_never_found(make_tenant, make_api_client):
    theirs = scope_for(make_tenant())
    episode_with(theirs, NIGHT)
    entry_embedding.entries_embed_pending(theirs)
    ours = make_api_client(make_tenant())
    for q in ("Quendrax conveyor", "When were the lift truck power packs replaced?"):
        assert ours.get("/api/v1/search", {"q": q, "in": "entries"}).json()["results"] == []


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_embeds_recorded_entries(request, make_tenant):
    request.getfixturevalue("celery_worker")
    scope = scope_for(make_tenant())
    episode_with(scope, NIGHT)
    wait_for(lambda: cypher.read(scope, STATE)[0] == {"embedded": 3, "waiting": 0, "claimed": 0},
             timeout=300, message="the worker did not embed the entries")  # fmt: skip
