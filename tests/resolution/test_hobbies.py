"""A person's pastime as evidence (issue 46): read after a cue of liking or of free time in
whatever wording a note uses, compared by the words that tell which pastime, and through the
whole pipeline on the real Neo4j a name and a shared pastime are evidence beyond the name,
while a pastime named beside a person is no neighbour two namesakes share."""

import pytest

from apps.graph import cypher
from apps.resolution.comparisons.affiliations import compare_affiliation
from apps.resolution.hobby_words import hobbies_in
from tests.resolution.test_parse_evidence import ingest


@pytest.mark.parametrize(
    ("text", "hobby"),
    [
        ("AOB: Voiculescu is mad about amateur radio.", "amateur radio"),
        ("Selvaraj spends most weekends on archery.", "archery"),
        ("Rapport: Ezeudu into F1.", "f1"),
        ("Lõhmus has recently taken up collecting fountain pens.", "collecting fountain pens"),
        ("Kratochvíl mentioned his interest in growing chillies.", "growing chillies"),
        ("Verkerk once told me that amateur astronomy keeps him sane.", "amateur astronomy"),
        ("Mads is really into pottery.", "pottery"),
        ("Don't forget Bae loves trail running.", "trail running"),
        ("Small talk - golf.", "golf"),
        ("Sargsyan has been doing kitesurfing lately.", "kitesurfing"),
        ("In her spare time she enjoys the game of go.", "the game of go"),
        ("Weekends, for Dragomir, mean orienteering.", "orienteering"),
        ("Melnychuk does gardening on weekends.", "gardening"),
    ],
)
def test_a_pastime_is_read_whatever_the_wording(text, hobby):
    assert hobbies_in(text) == [hobby]


@pytest.mark.parametrize(
    "text",
    [
        "Ezeudu likes the Brisa-15 a lot.",
        "The team is interested in a demo.",
        "He moved into sales last year.",
        "Papadakou's marathon training thing came up again.",
    ],
)
def test_a_product_a_demo_or_a_move_is_no_pastime(text):
    assert hobbies_in(text) == []


def test_pastimes_compare_by_the_words_that_tell_which():
    assert compare_affiliation("hobby", "Person", "the game of go", "go").level == "same"
    assert compare_affiliation("hobby", "Person", "archery; f1", "f1").level == "same"
    assert compare_affiliation("hobby", "Person", "archery", "pottery").level == "different"
    assert compare_affiliation("hobby", "Organization", "golf", "golf").level == "missing"


WHO = """
MATCH (d:Document {tenant: $tenant})<-[:PART_OF]-(:Chunk {tenant: $tenant})
      -[:MENTIONS]->(e:Entity {tenant: $tenant, status: 'active', type: 'Person'})
RETURN d.title AS note, e.uid AS entity
"""


def test_a_name_and_a_shared_pastime_are_one_person(scope):
    first = "Ruxandra Voiculescu is mad about amateur radio."
    bare = "Ruxandra Voiculescu asked for the revised quote."
    again = "Met Ruxandra Voiculescu; she spends most weekends on amateur radio."
    other = "Ruxandra Voiculescu, a pilot, loves sea kayaking."
    for note in (first, bare, again, other):
        ingest(scope, note)
    who = {r["note"]: r["entity"] for r in cypher.read(scope, WHO)}
    assert who[first[:30]] == who[again[:30]]  # the name and one pastime
    assert who[bare[:30]] != who[first[:30]]  # a name alone never merges: it waits
    assert who[other[:30]] != who[first[:30]]  # another pastime and nothing shared
