"""The user's promoted knowledge and the tenant's episode entries in a prompt's context: given
when the question names them (facts) or matches them by words or meaning (entries), cited,
never padding a question that matches nothing, never another user's facts or another tenant's
memory, and within the budget (what did not fit is in `omitted`)."""

from apps.conversations import context
from apps.knowledge.services import knowledge_promote_chains
from apps.lessons.services import entry_embedding
from apps.lessons.services.episodes import check_entry_record, check_episode_open
from tests.conftest import scope_for
from tests.lessons.conftest import say

NIGHT = [
    "The Quendrax conveyor stalled twice before midnight.",
    "Forklift batteries were swapped at the loading bay.",
    "A pallet of frozen fish was rejected for a broken seal.",
]


def ask(scope, message, user="ann", **kw):
    return context.check_context(scope, user=user, sid="later", message=message, k=5, **kw)


def promoted(scope, user="ann"):
    for text in ["I use Go and Docker for the Nexus Protocol.", "I'm working on Nexus Protocol.",
                 "Maybe I use Rust for scripts."]:  # fmt: skip
        say(scope, user, text)
    assert knowledge_promote_chains(scope)["promoted"] == 1


def night_shift(scope, embed=True):
    episode = check_episode_open(scope, title="Night shift")["id"]
    for text in NIGHT:
        check_entry_record(scope, episode=episode, type="observation", text=text)
    if embed:
        entry_embedding.entries_embed_pending(scope)


def test_the_users_facts_join_the_context_when_the_question_names_them(scope):
    promoted(scope)
    found = ask(scope, "Which tools does the Nexus Protocol need?")
    facts = {(f["from"], f["relation"], f["to"]) for f in found["knowledge"]}
    # One hop from the node the question names, and two (through ann).
    assert ("ann", "WORKS_ON", "nexus_protocol") in facts
    assert {("ann", "USES", "go"), ("ann", "USES", "docker")} <= facts
    assert not any(to == "rust" for _, _, to in facts)  # confidence 0.4: never a step or a fact
    assert "fact:ann-WORKS_ON-nexus_protocol" in found["cited"]
    assert "Known: ann -WORKS_ON-> " in found["context"]
    weights = [(f["weight"], f["heat"]) for f in found["knowledge"]]
    assert weights == sorted(weights, reverse=True)


def test_entries_join_the_context_by_meaning_and_by_words(scope):
    night_shift(scope)
    found = ask(scope, "When were the lift truck power packs replaced?")
    assert [e["text"] for e in found["entry_hits"]] == [NIGHT[1]]
    entry = found["entry_hits"][0]
    assert entry["episode"]["title"] == "Night shift" and entry["ranks"]["meaning"] == 1
    assert f"entry:{entry['uid']}" in found["cited"]
    assert 'Episode "Night shift" #2 observation: Forklift' in found["context"]


def test_an_entry_just_recorded_is_in_the_next_context(scope):
    night_shift(scope, embed=False)  # the worker has not run: no entry has a vector
    found = ask(scope, "Why was the frozen fish pallet rejected?")
    assert NIGHT[2] in [e["text"] for e in found["entry_hits"]]


def test_a_question_that_matches_nothing_gets_no_fact_and_no_entry(scope):
    promoted(scope)
    night_shift(scope)
    found = ask(scope, "What is a good recipe for banana bread?")
    assert found["knowledge"] == [] and found["entry_hits"] == []
    assert not [c for c in found["cited"] if c.startswith(("fact:", "entry:"))]
    assert {"part": "entries", "count": 3, "reason": "below the relevance floor"} in found[
        "omitted"
    ]


def test_another_users_facts_and_another_tenants_memory_never_appear(make_tenant):
    theirs = scope_for(make_tenant())
    promoted(theirs)
    night_shift(theirs)
    ours = scope_for(make_tenant())
    promoted(ours, user="bob")
    found = ask(ours, "Which tools does the Nexus Protocol need?", user="ann")
    assert found["knowledge"] == []  # bob's facts are bob's; the other tenant's ann is not ours
    found = ask(ours, "When were the Quendrax forklift batteries swapped?", user="bob")
    assert found["entry_hits"] == []
    assert {f["from"] for f in found["knowledge"]} <= {"bob"}


def test_the_budget_is_a_ceiling_and_says_what_it_cut(scope):
    promoted(scope)
    night_shift(scope)
    question = "Did Quendrax forklift batteries and the Nexus Protocol use Go or Docker?"
    whole = ask(scope, question, token_budget=2000)
    assert whole["knowledge"] and whole["entry_hits"]
    tight = ask(scope, question, token_budget=60)
    assert tight["tokens"] <= 60
    cut = {o["part"] for o in tight["omitted"] if o["reason"] == "over the token budget"}
    assert {"knowledge", "entries"} & cut
