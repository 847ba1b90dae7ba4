"""Places and registered names within one tenant (issue 34, round 5), through the real gate,
model and Neo4j, each decision asserted with its reason: a place name that no other place of
the tenant carries is one place, an organisation's name written with its legal form on both
sides is one firm, unless something says otherwise (a third carrier, a conflicting founding year
or domain, a reviewer's NOT_SAME). A person's name alone still never merges."""

from apps.graph import cypher
from apps.resolution.candidates import EntityCandidate, MentionSpan
from tests.chunks import chunk_ingest
from tests.resolution.test_text_identity import note


def test_a_city_named_in_two_notes_with_no_neighbour_in_common_is_one_place(scope):
    first = note(scope, "Maria Okafor is a nurse in Porto.",
                 ("Maria Okafor", "Person"), ("Porto", "Location"))["Porto"]  # fmt: skip
    again = note(scope, "Kestrel Labs opened an office in Porto.",
                 ("Kestrel Labs", "Organization"), ("Porto", "Location"))["Porto"]  # fmt: skip
    assert again.action in ("merged", "unchanged"), again.reason
    assert again.entity_uid == first.entity_uid
    assert "rare_name place (a place name no other place of the tenant carries)" in again.reason
    assert "context" not in again.signals, again.reason  # nothing shared: the name's rule alone


def test_a_place_name_two_places_carry_waits_for_a_reviewer(scope):
    """Two 'Springfield's already in the tenant (an agent's, say): a third mention is no sole
    carrier's, so its name is a name alone again."""
    one = note(scope, "Homer Simpson lives in Springfield.",
               ("Homer Simpson", "Person"), ("Springfield", "Location"))["Springfield"]  # fmt: skip
    cypher.write(scope, "MATCH (e:Entity {tenant: $tenant, uid: $uid}) "
                        "CREATE (:Entity {tenant: $tenant, uid: randomUUID(), name: e.name, "
                        "norm_name: e.norm_name, type: e.type, status: 'active', "
                        "created_at: datetime(), aliases: []})", uid=one.entity_uid)  # fmt: skip
    third = note(scope, "Abraham Lincoln was born near Springfield.",
                 ("Abraham Lincoln", "Person"), ("Springfield", "Location"))["Springfield"]  # fmt: skip
    assert third.action == "pending", third.reason
    assert set(third.signals) == {"name", "type"}, third.reason


def test_a_person_named_twice_with_nothing_else_still_waits(scope):
    note(scope, "Porto Silva wrote the notes.", ("Porto Silva", "Person"))
    again = note(scope, "Porto Silva is remembered.", ("Porto Silva", "Person"))["Porto Silva"]
    assert again.action == "pending" and set(again.signals) == {"name", "type"}, again.reason


def test_a_firm_named_in_full_in_notes_about_different_employees_is_one_firm(scope):
    first = note(scope, "Noor Tanaka is a pilot at Tamarind Robotics Ltd in Valencia.",
                 ("Noor Tanaka", "Person"), ("Tamarind Robotics Ltd", "Organization"),
                 ("Valencia", "Location"))["Tamarind Robotics Ltd"]  # fmt: skip
    again = note(scope, "Aiko Brennan leads the nurse team at Tamarind Robotics Ltd.",
                 ("Aiko Brennan", "Person"),
                 ("Tamarind Robotics Ltd", "Organization"))["Tamarind Robotics Ltd"]  # fmt: skip
    assert again.action in ("merged", "unchanged"), again.reason
    assert again.entity_uid == first.entity_uid
    assert "rare_name registered (a registered name (with its legal form)" in again.reason


def test_a_short_firm_name_twice_with_nothing_else_waits(scope):
    note(scope, "Noor Tanaka works at Tamarind.", ("Noor Tanaka", "Person"),
         ("Tamarind", "Organization"))  # fmt: skip
    again = note(scope, "Aiko Brennan joined Tamarind.", ("Aiko Brennan", "Person"),
                 ("Tamarind", "Organization"))["Tamarind"]  # fmt: skip
    assert again.action == "pending", again.reason
    assert set(again.signals) == {"name", "type"}, again.reason


def test_a_registered_name_with_another_founding_year_stays_apart(scope):
    note(scope, "Tamarind Robotics Ltd was founded in 1954 in Porto.",
         ("Tamarind Robotics Ltd", "Organization"), ("Porto", "Location"))  # fmt: skip
    other = note(scope, "Tamarind Robotics Ltd was founded in 1990 in Perth.",
                 ("Tamarind Robotics Ltd", "Organization"),
                 ("Perth", "Location"))["Tamarind Robotics Ltd"]  # fmt: skip
    assert other.action != "merged", other.reason
    assert "born conflict" in other.reason and "learned from text" in other.reason


def test_a_registered_name_with_another_web_domain_stays_apart(scope):
    note(scope, "Tamarind Robotics Ltd hired Noor Tanaka. Its website is tamarind.example.",
         ("Tamarind Robotics Ltd", "Organization"), ("Noor Tanaka", "Person"))  # fmt: skip
    other = note(scope, "Tamarind Robotics Ltd sells arms. Its website is tamarind-arms.example.",
                 ("Tamarind Robotics Ltd", "Organization"))["Tamarind Robotics Ltd"]  # fmt: skip
    assert other.action != "merged", other.reason
    assert "domain conflict" in other.reason, other.reason


def test_a_city_spacy_types_as_a_thing_or_a_firm_is_typed_a_place_where_a_place_stands():
    from apps.ingestion.extraction.place_names import looks_like_place

    def placed(text: str, name: str) -> bool:
        at = text.index(name)
        return looks_like_place(text, at, at + len(name))

    assert placed("Yara Osei works for Marlow at the Utrecht office.", "Utrecht")
    assert placed("Copying Tomasz Wrona on this: payroll lead, Pune office.", "Pune")
    assert placed("Ask Hannelore about it, she runs our Porto branch.", "Porto")
    assert placed("Maren Solberg works out of Kraków these days.", "Kraków")  # 'Krakow' known
    assert placed("Kestrel, a logistics firm based in Tampere, grew.", "Tampere")
    assert placed("Quarterly update from Kestrel (Aarhus).", "Aarhus")  # 'Århus' in GeoNames
    assert not placed("Reading the notes took an hour.", "Reading")  # a city, but a word here
    assert not placed("Priya asked about the Phoenix rollout.", "Phoenix")  # a product here
    assert not placed("We met Noor of Kestrel in Porto.", "Kestrel")  # no city


def test_notes_that_place_a_city_spacy_mistypes_end_with_one_place(scope, api_client):
    texts = ["Call notes. Yara Osei works for Marlow Logistics at the Utrecht office.",
             "Kestrel Analytics, a logistics firm based in Utrecht, opened a second site.",
             "Ines Brennan, a nurse from Utrecht, joined Halcyon Biomedical last spring."]  # fmt: skip
    for i, text in enumerate(texts):
        response = api_client.post("/api/v1/documents?wait=true",
                                   {"content": text, "source": f"note-{i}"}, format="json")  # fmt: skip
        assert response.status_code in (200, 201), response.json()
    rows = cypher.read(scope, "MATCH (:Chunk {tenant: $tenant})-[m:MENTIONS]->(e:Entity) "
                              "WHERE m.surface = 'Utrecht' RETURN DISTINCT e.uid AS uid, "
                              "e.type AS type")  # fmt: skip
    assert [r["type"] for r in rows] == ["Location"], rows


def test_a_firms_short_name_is_its_registered_name_when_no_other_firm_shares_it(scope):
    first = note(scope, "Oskar Reyes is an accountant at Silverfin Foods S.A. in Utrecht.",
                 ("Oskar Reyes", "Person"), ("Silverfin Foods S.A.", "Organization"),
                 ("Utrecht", "Location"))["Silverfin Foods S.A."]  # fmt: skip
    short = note(scope, "Bruno Reyes joined Silverfin Foods last spring.",
                 ("Bruno Reyes", "Person"), ("Silverfin Foods", "Organization"))["Silverfin Foods"]  # fmt: skip
    assert short.action in ("merged", "unchanged"), short.reason
    assert short.entity_uid == first.entity_uid
    assert "differ only in the legal form" in short.reason
    assert "rare_name registered (a registered name and its short form" in short.reason


def test_a_firm_created_under_its_short_name_is_known_by_the_registered_name_it_was_given(scope):
    """A note named the firm short, then by its registered name (one entity, created as
    'Arqueta', with 'Arqueta S.A.C' as an alias): later notes naming it either way are that
    firm, as when it had been created under the registered name."""
    first = note(scope, "Luana Reyes is interviewing at Arqueta in Arequipa. Legal name: "
                 "Arqueta S.A.C", ("Luana Reyes", "Person"), ("Arqueta", "Organization"),
                 ("Arequipa", "Location"), ("Arqueta S.A.C", "Organization"))  # fmt: skip
    firm = first["Arqueta"].entity_uid
    assert first["Arqueta S.A.C"].entity_uid == firm, first["Arqueta S.A.C"].reason
    formed = note(scope, "Tomas Novak signed with Arqueta S.A.C. last week.",
                  ("Tomas Novak", "Person"), ("Arqueta S.A.C.", "Organization"))["Arqueta S.A.C."]  # fmt: skip
    assert formed.entity_uid == firm, formed.reason
    assert "rare_name registered (a registered name (with its legal form)" in formed.reason
    short = note(scope, "Ines Duarte visited Arqueta on Monday.",
                 ("Ines Duarte", "Person"), ("Arqueta", "Organization"))["Arqueta"]  # fmt: skip
    assert short.entity_uid == firm, short.reason
    assert "rare_name registered (a registered name and its short form" in short.reason


def test_a_short_name_two_registered_firms_share_waits_for_a_reviewer(scope):
    note(scope, "Oskar Reyes is an accountant at Silverfin Foods S.A. in Utrecht.",
         ("Oskar Reyes", "Person"), ("Silverfin Foods S.A.", "Organization"))  # fmt: skip
    inc = note(scope, "Maria Okafor is a chemist at Silverfin Foods Inc in Boston.",
               ("Maria Okafor", "Person"),
               ("Silverfin Foods Inc", "Organization"))["Silverfin Foods Inc"]  # fmt: skip
    assert inc.action == "pending", inc.reason  # two legal forms: two registered names
    short = note(scope, "Bruno Reyes joined Silverfin Foods last spring.",
                 ("Bruno Reyes", "Person"), ("Silverfin Foods", "Organization"))["Silverfin Foods"]  # fmt: skip
    assert short.action == "pending", short.reason
    assert "rare_name" not in short.signals, short.reason


def test_the_entity_page_shows_the_automatic_merge_of_a_place_not_never_merged(tenant,
                                                                               make_person):  # fmt: skip
    from django.test import Client

    from apps.tenants.models import Role
    from tests.conftest import scope_for

    scope = scope_for(tenant)
    first = note(scope, "Maria Okafor is a nurse in Porto.",
                 ("Maria Okafor", "Person"), ("Porto", "Location"))["Porto"]  # fmt: skip
    note(scope, "Kestrel Labs opened an office in Porto.",
         ("Kestrel Labs", "Organization"), ("Porto", "Location"))  # fmt: skip
    person = make_person(tenant, Role.REVIEWER)
    client = Client()
    client.login(username=person.username, password=person.raw_password)
    extras = client.get(f"/entities/{first.entity_uid}/review-extras/")
    assert extras.status_code == 200
    html = extras.content.decode()
    assert "Never merged" not in html and "the gate, for" in html, html


def test_a_tenant_that_switches_sole_names_off_keeps_every_name_alone_for_a_reviewer(tenant):
    """`sole_name_merges` 0: the strict rule for places and registered firms too."""
    from tests.conftest import scope_for

    tenant.settings = {**tenant.settings, "sole_name_merges": 0}
    tenant.save()
    strict = scope_for(tenant)
    note(strict, "Maria Okafor is a nurse in Porto.", ("Maria Okafor", "Person"),
         ("Porto", "Location"))  # fmt: skip
    again = note(strict, "Kestrel Labs opened an office in Porto.",
                 ("Kestrel Labs", "Organization"), ("Porto", "Location"))["Porto"]  # fmt: skip
    assert again.action == "pending", again.reason
    assert "rare_name" not in again.signals, again.reason
    note(strict, "Noor Tanaka is a pilot at Tamarind Robotics Ltd.", ("Noor Tanaka", "Person"),
         ("Tamarind Robotics Ltd", "Organization"))  # fmt: skip
    firm = note(strict, "Aiko Brennan joined Tamarind Robotics Ltd.", ("Aiko Brennan", "Person"),
                ("Tamarind Robotics Ltd", "Organization"))["Tamarind Robotics Ltd"]  # fmt: skip
    assert firm.action == "pending", firm.reason


def test_a_firms_first_word_is_that_registered_firm_whichever_came_first(scope):
    short = note(scope, "Noor Tanaka works at Pellmora.", ("Noor Tanaka", "Person"),
                 ("Pellmora", "Organization"))["Pellmora"]  # fmt: skip
    full = note(scope, "Aiko Brennan is a chemist at Pellmora Labs Ltd in Leeds.",
                ("Aiko Brennan", "Person"),
                ("Pellmora Labs Ltd", "Organization"))["Pellmora Labs Ltd"]  # fmt: skip
    assert full.entity_uid == short.entity_uid, full.reason
    assert "'Pellmora' is the first word of 'Pellmora Labs Ltd'" in full.reason
    assert "rare_name registered (a registered name and its short form" in full.reason
    again = note(scope, "Ines Duarte met the Pellmora team.", ("Ines Duarte", "Person"),
                 ("Pellmora", "Organization"))["Pellmora"]  # fmt: skip
    assert again.entity_uid == short.entity_uid, again.reason
    first = note(scope, "Lena Park works at Quorvane.", ("Lena Park", "Person"),
                 ("Quorvane", "Organization"))["Quorvane"]  # fmt: skip
    trade = note(scope, "Ana Ruiz is a buyer at Quorvane Robotics.", ("Ana Ruiz", "Person"),
                 ("Quorvane Robotics", "Organization"))["Quorvane Robotics"]  # fmt: skip
    assert trade.entity_uid == first.entity_uid, trade.reason
    assert "a firm's trade name and its first word" in trade.reason


def test_a_trade_name_both_sides_carry_as_an_alias_is_that_firm(scope):
    # The tenant's known names give a note's 'Quorvane Robotics' the entity's own name
    # 'Quorvane' (the surface an alias): the trade name both carry still tells the firm.
    first = note(scope, "Lena Park works at Quorvane.", ("Lena Park", "Person"),
                 ("Quorvane", "Organization"))["Quorvane"]  # fmt: skip
    note(scope, "Ana Ruiz is a buyer at Quorvane Robotics.", ("Ana Ruiz", "Person"),
         ("Quorvane Robotics", "Organization"))  # fmt: skip
    text = "Tomas Novak joined Quorvane Robotics."
    at = text.index("Quorvane Robotics")
    known = EntityCandidate("Quorvane", "Organization", aliases=("Quorvane Robotics",),
                            mentions=(MentionSpan("Quorvane Robotics", at, at + 17),),
                            type_guessed=True)  # fmt: skip
    _, receipts = chunk_ingest(scope, text, [known])
    assert receipts[0].entity_uid == first.entity_uid, receipts[0].reason
    assert "a firm's trade name no other organisation" in receipts[0].reason


def test_a_first_word_two_registered_firms_open_with_waits_for_a_reviewer(scope):
    note(scope, "Oskar Reyes is an accountant at Pellmora Labs Ltd in Utrecht.",
         ("Oskar Reyes", "Person"), ("Pellmora Labs Ltd", "Organization"))  # fmt: skip
    note(scope, "Maria Okafor is a buyer at Pellmora Capital GmbH in Bonn.",
         ("Maria Okafor", "Person"), ("Pellmora Capital GmbH", "Organization"))  # fmt: skip
    short = note(scope, "Bruno Reyes joined Pellmora last spring.", ("Bruno Reyes", "Person"),
                 ("Pellmora", "Organization"))["Pellmora"]  # fmt: skip
    assert short.action in ("pending", "created"), short.reason
    assert "rare_name" not in short.signals, short.reason
    common = note(scope, "Ana Ruiz works at Summit.", ("Ana Ruiz", "Person"),
                  ("Summit", "Organization"))["Summit"]  # fmt: skip
    full = note(scope, "Lena Park works at Summit Labs Ltd.", ("Lena Park", "Person"),
                ("Summit Labs Ltd", "Organization"))["Summit Labs Ltd"]  # fmt: skip
    assert full.entity_uid != common.entity_uid, full.reason  # a common word opens many firms


def test_a_registered_name_described_two_ways_is_one_firm(scope):
    """What a note says a firm is describes it, as a description does: the same registered
    name, legal form and all, said to be a boatyard in one note and 'the invoice dispute' in
    another is still that name's one firm."""
    first = note(scope, "Brakstad Marine AS, a boat-building company in Alesund, sent a quote.",
                 ("Brakstad Marine AS", "Organization"))["Brakstad Marine AS"]  # fmt: skip
    again = note(scope, "Call log - Brakstad Marine AS, the invoice dispute.",
                 ("Brakstad Marine AS", "Organization"))["Brakstad Marine AS"]  # fmt: skip
    assert again.action in ("merged", "unchanged"), again.reason
    assert "role" not in again.signals, again.reason  # neither against it nor stopping it
    assert again.entity_uid == first.entity_uid
    assert "rare_name registered (a registered name (with its legal form)" in again.reason
