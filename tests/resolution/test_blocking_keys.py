"""Blocking keys find what the words cannot: a name that sounds alike, an acronym and its
expansion, a garbled name with the same identifier; each found match is then decided by the
model, with its reason."""

import itertools

from apps.graph import cypher
from apps.graph.fulltext import entity_words_query
from apps.resolution.blocking_keys import blocking_keys
from apps.resolution.candidates import EntityCandidate, Provenance
from apps.resolution.comparisons.person_names import _nicknamer, parsed, same_given_name
from apps.resolution.services import entities_resolve
from tests.conftest import scope_for
from tests.resolution.test_adversarial_identity import resolve

FOUND_BY_KEYS = """
CALL db.index.fulltext.queryNodes('entity_names', $q, {limit: 10}) YIELD node
WHERE node.tenant = $tenant
RETURN node.name AS name
"""


def found_by_keys(scope, kind, names, values=None):
    keys = tuple(blocking_keys(kind, names, values or {}, asked=True))
    q = entity_words_query(scope.tenant, "", type=kind, keys=keys)
    return {row["name"] for row in cypher.read(scope, FOUND_BY_KEYS, q=q)}


def test_keys_are_plain_prefixed_tokens():
    assert blocking_keys("Person", ["Maria Knight"], {}) == blocking_keys(
        "Person", ["Maria Nite"], {}
    )
    assert "acibm" in blocking_keys("Organization", ["IBM"], {})
    assert "acibm" in blocking_keys("Organization", ["International Business Machines Corp."], {})
    # A phone is keyed by its last nine digits: the local and the international form agree.
    local = blocking_keys("Person", [], {"phone": "020 7946 0001"})
    international = blocking_keys("Person", [], {"phone": "+44 20 7946 0001"})
    assert local == international and local[0].startswith("id")
    assert all(k.isalnum() and k.islower() for k in blocking_keys(
        "Person", ["Zoë O'Brien-Smith"], {"email": "Z@X.org", "id:orcid": "0000-0001"}))  # fmt: skip


def test_the_index_finds_by_sound_acronym_and_identifier_alone(scope, make_tenant):
    resolve(scope, "Maria Knight", born="1971-02-03")
    resolve(scope, "International Business Machines", "Organization")
    resolve(scope, "Qwxz Vbnm", **{"id_passport": "X1234567"})
    assert "Maria Knight" in found_by_keys(scope, "Person", ["Maria Nite"])
    assert "International Business Machines" in found_by_keys(scope, "Organization", ["IBM"])
    assert found_by_keys(scope, "Person", ["Anna Lee"], {"id:passport": "x1234567"}) == {
        "Qwxz Vbnm"
    }
    # Another tenant's entities are never found by the same keys.
    assert found_by_keys(scope_for(make_tenant()), "Person", ["Maria Nite"]) == set()


def test_a_garbled_name_with_the_same_id_and_birth_date_merges_and_says_why(scope):
    first = resolve(scope, "Katherine Okonkwo", born="1984-06-30", id_passport="P9988776")
    again = resolve(scope, "Kathy Oknkwo", born="1984-06-30", id_passport="p9988776")
    assert again.action == "merged" and again.entity_uid == first.entity_uid, again.reason
    assert "external_id exact" in again.reason and "born exact" in again.reason


def test_a_sound_alike_name_with_another_birth_date_is_not_merged(scope):
    first = resolve(scope, "Maria Knight", born="1971-02-03")
    other = resolve(scope, "Maria Nite", born="1990-11-12")
    assert other.action != "merged" and other.entity_uid != first.entity_uid
    assert "born conflict" in other.reason


def test_an_acronym_and_its_expansion_with_one_domain_merge_and_say_why(scope):
    first = resolve(scope, "IBM", "Organization", domain="ibm.com")
    long = resolve(
        scope, "International Business Machines", "Organization", url="https://www.ibm.com"
    )
    assert long.action == "merged" and long.entity_uid == first.entity_uid, long.reason
    assert "acronym" in long.reason and "domain exact" in long.reason


def _nickname_keys(name, *, asked=False):
    return {k for k in blocking_keys("Person", [name], {}, asked=asked) if k.startswith("nk")}


def test_every_pair_the_name_comparison_calls_nicknames_shares_a_key_either_way():
    """What an entity keeps and what a candidate asks with meet for every pair of given names
    same_given_name calls nicknames of one name, whichever side is stored, when the surnames
    sound alike; names it does not call so ('Maria', 'John') share none."""
    namer = _nicknamer()
    givens = sorted({n for name in list(namer._nickname_lookup)[:300]
                     for n in (name, *namer.nicknames_of(name))
                     if parsed(f"{n} Smith")[0] == n})  # as the gate compares them  # fmt: skip
    pairs = 0
    for a, b in itertools.combinations(givens, 2):
        if "nicknames" not in same_given_name(a, b):
            continue
        pairs += 1
        stored_a, stored_b = _nickname_keys(f"{a} Smith"), _nickname_keys(f"{b} Smith")
        assert stored_a & _nickname_keys(f"{b} Smith", asked=True), (a, b)
        assert stored_b & _nickname_keys(f"{a} Smith", asked=True), (a, b)
    assert pairs > 500
    assert not _nickname_keys("Maria Smith") & _nickname_keys("John Smith", asked=True)
    # Joined to the surname's sound: a William of another surname is not raised.
    assert _nickname_keys("Robert Smyth") & _nickname_keys("Bob Smith", asked=True)
    assert not _nickname_keys("Robert Jones") & _nickname_keys("Bob Smith", asked=True)
    assert _nickname_keys("Smith") == set()  # a lone word is a surname
    assert not any(k.startswith("nk") for k in blocking_keys("Organization", ["Bob Ltd"], {}))


def test_a_nickname_finds_its_person_among_many_of_one_surname(scope):
    """Sixty other Smiths, written first, match the words and the surname's sound as well as
    Robert Smith does, and fill the name index's places; 'Bob Smith' still finds him by the
    nickname key, and the model pairs them."""
    others = [EntityCandidate(f"Xq{a}{b}t Smith", "Person")
              for a, b in itertools.islice(itertools.product("bcdfghjklmnp", "aeiou"), 60)]  # fmt: skip
    entities_resolve(scope, entities=others, provenance=Provenance("test-agent"))
    robert = resolve(scope, "Robert Smith", born="1961-04-12")
    assert "Robert Smith" in found_by_keys(scope, "Person", ["Bob Smith"])
    bob = resolve(scope, "Bob Smith", born="1961-04-12")
    paired = {bob.matched_uid} | {p["uid"] for p in bob.proposed}
    assert robert.entity_uid in paired, bob.reason
    assert "nicknames of one name" in bob.reason, bob.reason
