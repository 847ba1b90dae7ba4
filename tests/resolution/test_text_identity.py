"""Text that names one thing twice makes one entity (issue 34), through the real gate, model and
Neo4j: chunks written as the pipeline writes them, with candidates typed as an extractor guesses
(type_guessed), each decision asserted with its reason. The guarantees stay: a name alone never
merges, a conflicting identifier forbids a merge, NOT_SAME is permanent."""

from apps.graph import cypher
from apps.resolution.candidates import EntityCandidate, MentionSpan
from apps.resolution.entity_values import values_load
from apps.review.services import check_review_reject
from tests.chunks import chunk_ingest


def note(scope, text: str, *named: tuple[str, str]):
    """One chunk of `text` naming each (name, type) at every place it stands, typed as NER
    guessed it; the receipts by name."""
    candidates = []
    for name, kind in named:
        spans, at = [], text.find(name)
        while at >= 0:
            spans.append(MentionSpan(name, at, at + len(name)))
            at = text.find(name, at + len(name))
        candidates.append(EntityCandidate(name, kind, mentions=tuple(spans), type_guessed=True))
    _, receipts = chunk_ingest(scope, text, candidates)
    return {r.name: r for r in receipts if r.kind == "entity"}


def entity(scope, uid: str) -> dict:
    return cypher.read(scope, "MATCH (e:Entity {tenant: $tenant, uid: $uid}) "
                              "RETURN e.name AS name, e.type AS type, e.values_json AS values, "
                              "e.value_sources_json AS sources", uid=uid)[0]  # fmt: skip


def test_anthropic_as_an_object_is_anthropic_pbc_the_organization(scope):
    first = note(scope, "Anthropic PBC builds Claude. Dario Amodei leads Anthropic PBC.",
                 ("Anthropic PBC", "Organization"), ("Claude", "Object"),
                 ("Dario Amodei", "Person"))  # fmt: skip
    again = note(scope, "Anthropic released a new Claude model. Dario Amodei presented it.",
                 ("Anthropic", "Object"), ("Claude", "Object"), ("Dario Amodei", "Person"))  # fmt: skip
    anthropic = again["Anthropic"]
    assert anthropic.action == "merged", anthropic.reason
    assert anthropic.entity_uid == first["Anthropic PBC"].entity_uid
    assert "differ only in the legal form" in anthropic.reason
    assert "type compatible (Object / Organization" in anthropic.reason
    assert "context many" in anthropic.reason
    assert entity(scope, anthropic.entity_uid)["type"] == "Organization"


def test_gpt4_as_a_person_and_gpt_4_as_an_object_are_found_and_merged_with_context(scope):
    first = note(scope, "OpenAI trained GPT4 on Azure machines.",
                 ("GPT4", "Object"), ("OpenAI", "Organization"), ("Azure", "Object"))  # fmt: skip
    again = note(scope, "GPT-4 came from OpenAI and runs on Azure.",
                 ("GPT-4", "Person"), ("OpenAI", "Organization"), ("Azure", "Object"))  # fmt: skip
    gpt = again["GPT-4"]
    assert gpt.action == "merged", gpt.reason
    assert gpt.entity_uid == first["GPT4"].entity_uid
    assert "one model name written two ways" in gpt.reason
    assert "type compatible (Person / Object" in gpt.reason


def test_a_lone_variant_of_another_type_is_proposed_never_merged(scope):
    first = note(scope, "GPT4 is a language model.", ("GPT4", "Object"))
    lone = note(scope, "Everyone talks about GPT-4.", ("GPT-4", "Person"))["GPT-4"]
    assert lone.action == "pending" and lone.matched_uid == first["GPT4"].entity_uid, lone.reason
    assert "a name alone never merges" not in lone.reason or lone.score >= 0.995


def test_acme_corporation_as_an_object_merges_on_a_domain_written_in_the_text(scope):
    first = note(scope, "Acme Corporation ships anvils. See acme.example for the catalogue.",
                 ("Acme Corporation", "Object"))  # fmt: skip
    again = note(scope, "Acme Corp opened a store in Leeds. Its website is www.acme.example.",
                 ("Acme Corp", "Organization"), ("Leeds", "Location"))  # fmt: skip
    acme = again["Acme Corp"]
    assert acme.action == "merged" and acme.entity_uid == first["Acme Corporation"].entity_uid
    assert "domain exact (domain acme.example / acme.example, learned from text)" in acme.reason
    assert "type compatible (Organization / Object" in acme.reason


def test_an_email_whose_domain_spells_the_employer_gives_the_employer_its_domain(scope):
    """Two notes about different people name 'Cobalt Ridge Optics' beside nothing alike; each
    writes an address at cobalt-ridge-optics.example, so the firm's own domain agrees."""
    first = note(scope, "Priya Marchetti joined Cobalt Ridge Optics LLC in Porto. Write to "
                 "p.marchetti@cobalt-ridge-optics.example.",
                 ("Priya Marchetti", "Person"), ("Cobalt Ridge Optics LLC", "Organization"),
                 ("Porto", "Location"))  # fmt: skip
    again = note(scope, "Carmen Holmgren works for Cobalt Ridge Optics in Cork. Her address is "
                 "c.holmgren@cobalt-ridge-optics.example.",
                 ("Carmen Holmgren", "Person"), ("Cobalt Ridge Optics", "Organization"),
                 ("Cork", "Location"))  # fmt: skip
    firm = again["Cobalt Ridge Optics"]
    assert firm.action == "merged", firm.reason
    assert firm.entity_uid == first["Cobalt Ridge Optics LLC"].entity_uid
    assert "domain exact (domain cobalt-ridge-optics.example" in firm.reason
    assert "learned from text" in firm.reason
    # The people keep their own addresses; neither gets the other's.
    carmen = values_load(entity(scope, again["Carmen Holmgren"].entity_uid)["values"])
    assert carmen["text:email"] == "c.holmgren@cobalt-ridge-optics.example"


def test_a_domain_that_spells_no_name_named_in_the_note_is_nobodys():
    from apps.resolution.text_evidence import candidates_with_text_values

    text = "Ines Varga of Halcyon Foods wrote from ines@gmail.example about Vega-X3."
    found = candidates_with_text_values(
        [EntityCandidate("Halcyon Foods", "Organization", type_guessed=True),
         EntityCandidate("Vega-X3", "Object", type_guessed=True)], text, source="c1",
    )  # fmt: skip
    assert all("text:domain" not in c.values for c in found)


def test_a_phone_written_in_two_notes_merges_and_is_kept_as_learned_with_its_chunk(scope):
    first = note(scope, "Maria Okafor can be reached at +44 20 7946 0958 after six.",
                 ("Maria Okafor", "Person"))  # fmt: skip
    again = note(scope, "Spoke to Maria Okafor today. Her number is +44 20 7946 0958.",
                 ("Maria Okafor", "Person"))  # fmt: skip
    maria = again["Maria Okafor"]
    assert maria.action in ("merged", "unchanged") and "phone exact" in maria.reason, maria.reason
    assert (
        maria.entity_uid == first["Maria Okafor"].entity_uid and "learned from text" in maria.reason
    )
    stored = entity(scope, maria.entity_uid)
    assert values_load(stored["values"]) == {"text:phone": "+442079460958"}
    chunk = cypher.read(scope, "MATCH (c:Chunk {tenant: $tenant})-[:MENTIONS]->"
                               "(:Entity {tenant: $tenant, uid: $uid}) "
                               "RETURN c.uid AS uid ORDER BY c.created_at LIMIT 1",
                        uid=maria.entity_uid)[0]["uid"]  # fmt: skip
    assert values_load(stored["sources"]) == {"text:phone": chunk}


def test_a_phone_in_the_text_never_outranks_a_stated_one(scope):
    from apps.resolution.services import entities_resolve
    from tests.resolution.test_adversarial_identity import AGENT

    [stated] = entities_resolve(scope, provenance=AGENT, entities=[EntityCandidate(
        "Blue Heron Bakery", "Organization", values={"phone": "+44 113 496 0000"},
        description="A bakery; orders on +1 503 555 0199.")])  # fmt: skip
    kept = values_load(entity(scope, stated.entity_uid)["values"])
    assert kept == {"phone": "+44 113 496 0000"}


def test_namesakes_with_another_employer_and_city_stay_apart(scope):
    nurse = note(scope, "Daniel Reyes is a nurse at Porto General in Porto.",
                 ("Daniel Reyes", "Person"), ("Porto General", "Organization"),
                 ("Porto", "Location"))  # fmt: skip
    pilot = note(scope, "Daniel Reyes flies for Skyline Air out of Bergen.",
                 ("Daniel Reyes", "Person"), ("Skyline Air", "Organization"),
                 ("Bergen", "Location"))["Daniel Reyes"]  # fmt: skip
    assert pilot.action in ("created", "pending"), pilot.reason
    assert pilot.entity_uid != nurse["Daniel Reyes"].entity_uid
    assert "context conflict (organizations differ" in pilot.reason


def test_the_same_name_with_agreeing_context_merges(scope):
    first = note(scope, "Daniel Reyes is a nurse at Porto General in Porto.",
                 ("Daniel Reyes", "Person"), ("Porto General", "Organization"),
                 ("Porto", "Location"))  # fmt: skip
    again = note(scope, "Daniel Reyes of Porto General wants the rota changed.",
                 ("Daniel Reyes", "Person"), ("Porto General", "Organization"))["Daniel Reyes"]  # fmt: skip
    assert again.action in ("merged", "unchanged"), again.reason
    assert again.entity_uid == first["Daniel Reyes"].entity_uid
    assert "context shared (named beside 'Porto General')" in again.reason


def test_a_name_alone_still_never_merges_whatever_type_agrees(scope):
    first = note(scope, "Ada Lovelace wrote the notes.", ("Ada Lovelace", "Person"))
    again = note(scope, "Ada Lovelace is remembered.", ("Ada Lovelace", "Person"))["Ada Lovelace"]
    assert again.action == "pending" and again.matched_uid == first["Ada Lovelace"].entity_uid
    assert set(again.signals) == {"name", "type"}, again.reason


def test_a_learned_phone_in_conflict_forbids_the_merge_context_would_make(scope):
    note(scope, "Northwind Robotics GmbH builds arms with Kestrel Labs; call +49 30 901820.",
         ("Northwind Robotics GmbH", "Organization"), ("Kestrel Labs", "Organization"))  # fmt: skip
    other = note(scope, "Northwind Robotics GmbH, partner of Kestrel Labs, is on +1 202 555 0143.",
                 ("Northwind Robotics GmbH", "Organization"),
                 ("Kestrel Labs", "Organization"))["Northwind Robotics GmbH"]  # fmt: skip
    assert other.action != "merged", other.reason
    assert "phone conflict" in other.reason and "learned from text" in other.reason


def test_a_pair_ruled_not_same_is_never_merged_by_context(scope):
    text = "Anthropic PBC builds Claude. Dario Amodei leads Anthropic PBC."
    pbc = note(scope, text, ("Anthropic PBC", "Organization"), ("Claude", "Object"),
               ("Dario Amodei", "Person"))["Anthropic PBC"].entity_uid  # fmt: skip
    lone = note(scope, "Anthropic is hiring.", ("Anthropic", "Object"))["Anthropic"]
    assert lone.action == "pending", lone.reason
    review = cypher.read(scope, "MATCH (:Entity {tenant: $tenant})-[s:SAME_AS {status: 'pending'}]->"
                                "(:Entity {tenant: $tenant}) RETURN s.uid AS uid")[0]["uid"]  # fmt: skip
    check_review_reject(scope, review_uid=review, reason="two companies")
    again = note(scope, "Anthropic released a new Claude model. Dario Amodei presented it.",
                 ("Anthropic", "Object"), ("Claude", "Object"), ("Dario Amodei", "Person"))  # fmt: skip
    anthropic = again["Anthropic"]
    assert anthropic.entity_uid != pbc and anthropic.matched_uid != pbc, anthropic.reason
    assert pbc not in [p["uid"] for p in anthropic.proposed]


def test_the_entity_page_history_shows_the_gates_own_merge(scope):
    from apps.review.selectors import merge_history

    first = note(scope, "Maria Okafor can be reached at +44 20 7946 0958 after six.",
                 ("Maria Okafor", "Person"))["Maria Okafor"]  # fmt: skip
    note(scope, "Dr. M. Okafor is on +44 20 7946 0958 too.", ("M. Okafor", "Person"))
    [row] = merge_history(scope, uid=first.entity_uid)
    assert row["automatic"] and row["merged_name"] == "M. Okafor" and row["status"] == "done"
    assert row["actor"].startswith("the gate")


def test_each_pending_pair_keeps_its_own_reason(scope):
    note(scope, "Ada Lovelace wrote the notes.", ("Ada Lovelace", "Person"))
    note(scope, "Ada Lovelace is remembered.", ("Ada Lovelace", "Person"))
    third = note(scope, "Ada Lovelace, again.", ("Ada Lovelace", "Person"))["Ada Lovelace"]
    assert third.action == "pending" and len(third.proposed) == 2 and third.reason.count("P(") == 2
    reasons = cypher.read(scope, "MATCH (:Entity {tenant: $tenant, uid: $uid})-[s:SAME_AS]->"
                                 "(:Entity {tenant: $tenant}) RETURN s.reason AS reason",
                          uid=third.entity_uid)  # fmt: skip
    assert len(reasons) == 2 and all(r["reason"].count("P(same)") == 1 for r in reasons)


def test_values_are_read_from_the_sentence_that_names_their_owner():
    from apps.resolution.text_evidence import candidates_with_text_values

    text = ("Kestrel Analytics Inc. was founded in 2010 in Lyon. Its website is kestrel.example. "
            "Elena Castellanos joined in 2019. Castellanos was born in 1978 and is on "
            "+49 30 9018 2416.")  # fmt: skip

    def named(name, kind, *surfaces):
        spans = tuple(MentionSpan(s, text.index(s), text.index(s) + len(s)) for s in surfaces)
        return EntityCandidate(name, kind, mentions=spans)

    org, city, person = candidates_with_text_values([
        named("Kestrel Analytics Inc.", "Organization", "Kestrel Analytics Inc."),
        named("Lyon", "Location", "Lyon"),
        named("Elena Castellanos", "Person", "Elena Castellanos", "Castellanos was"),
    ], text, source="chunk-1")  # fmt: skip
    assert org.values == {"text:founded": "2010", "text:domain": "kestrel.example"}
    assert city.values == {}
    assert person.values == {"text:born": "1978", "text:phone": "+493090182416"}
    assert person.value_sources == {"text:born": "chunk-1", "text:phone": "chunk-1"}


def test_learned_values_are_marked_on_the_pages_rows():
    from apps.resolution.entity_values import values_rows

    rows = values_rows({"text:phone": "+442079460958", "email": "m@example.org"}, {})
    assert [(r["key"], r["learned"]) for r in rows] == [("email", False), ("text:phone", True)]


def test_initials_beside_the_name_they_stand_for_share_no_neighbour(scope):
    # Minutes write an attendee's initials beside their name: 'TB' named beside 'Thanakorn
    # Boonmee' is that person twice, not a neighbour two notes' 'TB's share (two namesakes').
    note(scope, "Minutes. TB to chase the PO. Thanakorn Boonmee, a buyer in Hanoi, chaired.",
         ("TB", "Organization"), ("Thanakorn Boonmee", "Person"), ("Hanoi", "Location"))  # fmt: skip
    again = note(scope, "Minutes. TB to book the hangar. Thanakorn Boonmee, a pilot in Perth, "
                        "chaired.", ("TB", "Organization"), ("Thanakorn Boonmee", "Person"),
                 ("Perth", "Location"))["TB"]  # fmt: skip
    assert again.action == "pending", again.reason
    assert "context" not in again.signals, again.reason


def receipts_of(api_client, texts: list[str], name: str) -> list[dict]:
    """Each text posted as a note, in order; the receipts of `name`'s mentions, in order."""
    found = []
    for i, text in enumerate(texts):
        response = api_client.post("/api/v1/documents?wait=true",
                                   {"content": text, "source": f"note-{i}"}, format="json")  # fmt: skip
        assert response.status_code == 201, response.json()
        found += [r for r in response.json()["result"]["receipts"] if r.get("name") == name]
    return found


def test_a_value_another_fragment_shares_keeps_a_mention_from_the_one_it_contradicts(
    scope, api_client
):
    """Standups seed 0: the Tabriz Jordi Watanabe's colleagues are named beside a 'Jordi
    Watanabe (Pécs)', and a fragment pending beside him is the Pécs one. The colleagues alone
    merged the Pécs mention into the Tabriz entity; the city says it is the other one's."""
    texts = ["ticket PLAT-2559: Dr Jordi Watanabe, our release manager in Tabriz, needs a "
             "reviewer. Haruka Okonkwo is waiting on legal sign-off. Levan Hwang is OOO.",
             "EOD update\n* Jordi Watanabe has the budget numbers",
             "retro\nstop: Jordi Watanabe @ Pécs picks up the flaky e2e tests today",
             "S9 retro\nwent well: Okonkwo, Haruka is reviewing the API contract\nwent well: "
             "Jordi Watanabe (Pécs) pushed the hotfix\nwent well: Levan Hwang fixed the pager"]  # fmt: skip
    jordi = receipts_of(api_client, texts, "Jordi Watanabe")
    tabriz, pecs, last = jordi[0], jordi[2], jordi[-1]
    assert pecs["action"] == "pending" and pecs["entity_uid"] != tabriz["entity_uid"], pecs
    assert last["action"] == "pending" and last["entity_uid"] != tabriz["entity_uid"], last
    assert "context many (named beside 'Haruka Okonkwo', 'Levan Hwang')" in last["reason"]
    assert "city agrees with another match, not with this one" in last["reason"], last["reason"]


def test_a_speakers_own_words_in_a_transcript_join_them_to_a_note_about_them(scope, api_client):
    """Interview transcripts give a guest's job in the first person; a later note in the third
    person names the same job: one person, without a reviewer."""
    texts = ["Ep. 12, raw.\n[00:03:10] Q: What do you do?\n[00:03:15] Oskar Lindqvist: I work "
             "as a hydrologist, mostly fieldwork.\n[00:04:02] Q: Thanks.",
             "Follow-up: Oskar Lindqvist, the hydrologist, agreed to a second episode."]  # fmt: skip
    first, again = receipts_of(api_client, texts, "Oskar Lindqvist")
    assert again["action"] == "merged", again["reason"]
    assert again["entity_uid"] == first["entity_uid"], again
    assert "role same ('hydrologist' / 'hydrologist'" in again["reason"], again["reason"]
