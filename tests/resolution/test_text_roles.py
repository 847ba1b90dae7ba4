"""What a note says a thing is ("the Z5 drone", "a nurse"), model numbers, surnames and birth
years as evidence (issue 34, round 4), through the real gate, model and Neo4j; each decision
asserted with its reason. The guarantees stay: a name alone never merges, NOT_SAME is permanent."""

import pytest

from apps.graph import cypher
from apps.resolution.comparisons.dates import compare_dates
from apps.resolution.comparisons.names import compare_names
from apps.resolution.comparisons.roles import compare_roles
from apps.resolution.role_words import role_near
from apps.review.services import check_review_reject
from tests.resolution.test_text_identity import note


@pytest.mark.parametrize(
    ("text", "name", "role"),
    [
        ("Priya asked about the Z5 drone rollout.", "Z5", "drone"),
        ("We ordered Helix X2, the battery pack, today.", "Helix X2", "battery pack"),
        ("Maria Okafor, a nurse from Porto, called.", "Maria Okafor", "nurse"),
        ("Yara Osei is a data scientist at Kestrel.", "Yara Osei", "data scientist"),
        ("Kestrel, a logistics firm based in Leeds, grew.", "Kestrel", "logistics firm"),
        ("The Z-9 drone flew over Leeds.", "Z-9", "drone"),
        # what the thing did or a chat filler after its name is not what it is (chat seed 3:
        # 'came' / 'lol' against 'moisture meter' kept one product's notes apart)
        ("the Fenno-52 came out in 2008.", "Fenno-52", ""),
        ("Papadakou hates the Fenno52 lol.", "Fenno52", ""),
        ("the Kestro 4 drains fast.", "Kestro 4", ""),
        ("the Kestro 4 stalled twice.", "Kestro 4", ""),
        ("Priya liked the Z5 compass.", "Z5", "compass"),
        ("Priya asked about the Z5 rollout.", "Z5", ""),  # an occasion, not a role
        ("The V-7 is made by Marlow.", "V-7", ""),
        ("We met Ines Holmgren of Tamarind in Cork.", "Ines Holmgren", ""),
        # field seed 0: one product's two notes read 'device he describes' / 'cattle collar
        # made', two roles sharing no word, against their merge; 'device' says only that it
        # is a thing, as 'model' does, and a preposition ends a role
        ("Anselm tests the Ilvo 30, a device he describes as reliable.", "Ilvo 30", ""),
        ("The Dravik6 model remains popular.", "Dravik6", ""),
        ("I inspected a Dravik-6 during the visit.", "Dravik-6", ""),
        ("At Aldermoor, the role of structural engineer is held by Ana.", "Aldermoor", ""),
        ("The Vexa-8, a soil probe, shipped.", "Vexa-8", "soil probe"),
        (
            "Nino Kapanadze is an operations manager living in Perth.",
            "Nino Kapanadze",
            "operations manager",
        ),
        ("Ana Ruiz is a training manager.", "Ana Ruiz", "training manager"),
        ("The Ilvo30, a cattle collar made by Brannoch, shipped.", "Ilvo30", "cattle collar"),
        # a roll of attendees later on its line: the next words are the writer, no one's job
        (
            "Minutes (6 Jan): attendees - Ana Ruiz, Rói Joensen, the agent, taking notes",
            "Rói Joensen",
            "",
        ),
        ("Ana Ruiz, the agent on this account, called.", "Ana Ruiz", ""),
        # a name glossed with its initials, then what it is; a title with its field
        (
            "Tomasz Wierzbicki (TW), a head of legal on the team, took notes",
            "Tomasz Wierzbicki",
            "head of legal",
        ),
        ("Ana Ruiz (AR) is a nurse.", "Ana Ruiz", "nurse"),
        ("Ana Ruiz, the regional head of sales, called.", "Ana Ruiz", "regional head of sales"),
        # a word that says how one stands to someone opens a job's name, but is none alone
        (
            "Ines Holm, a customer success lead on Ana's team, called.",
            "Ines Holm",
            "customer success lead",
        ),
        ("Ines Holm, a client services manager, called.", "Ines Holm", "client services manager"),
        ("Ines Holm, a colleague of Ana, called.", "Ines Holm", ""),
        ("Ines Holm, an old friend, called.", "Ines Holm", ""),
    ],
)
def test_the_role_is_read_from_the_words_next_to_a_mention(text, name, role):
    at = text.index(name)
    assert role_near(text, at, at + len(name)) == role


def test_roles_model_numbers_surnames_and_years_compare_by_level():
    assert compare_roles("drone", "drone").level == "same"
    assert compare_roles("logistics firm", "logistics company").level == "related"
    assert compare_roles("nurse", "pilot").level == "different"
    assert compare_roles("", "pilot").level == "missing"
    # one head word qualified two ways is two jobs; a rank or no qualifier is one
    assert compare_roles("fleet manager", "category manager").level == "different"
    assert compare_roles("manager", "product manager").level == "same"
    assert compare_roles("senior engineer", "software engineer").level == "same"
    assert compare_roles("backend developer; data lead", "backend developer").level == "same"
    assert compare_names("Object", ["V-7"], ["V-8"]).level == "different"
    assert "model numbers differ (7 / 8)" in compare_names("Object", ["V-7"], ["V 8"]).detail
    assert compare_names("Object", ["Helix X2"], ["Helix-X2"]).level == "exact"
    sisters = compare_names(
        "Person", ["Priya Marchetti", "Marchetti"], ["Yara Marchetti", "Marchetti"]
    )
    assert sisters.level == "different", sisters  # their surnames alone are not a shared name
    # A lone surname against a full name is the level `surname`, whether or not the full name
    # keeps it as an alias (the order notes arrive in decides that).
    assert (
        compare_names("Person", ["Marchetti"], ["Yara Marchetti", "Marchetti"]).level == "surname"
    )
    assert compare_names("Person", ["Marchetti"], ["Yara Marchetti"]).level == "surname"
    assert compare_dates("born", "1976", "1976").level == "year"
    assert compare_dates("born", "1963", "1968").level == "year_close"
    assert compare_dates("born", "1963-04-01", "1968-04-01").level == "close"  # a whole date
    # Two years' last digits swapped are two people as often as one digit apart (namesakes born
    # 1979 and 1997 merged on it); in a whole date the swap stays a typist's slip.
    assert compare_dates("born", "1979", "1997").level == "year_close"
    assert compare_dates("born", "1979-04-01", "1997-04-01").level == "close"


def test_a_rare_model_name_with_the_same_role_merges_across_guessed_types(scope):
    first = note(scope, "Priya Duarte asked about the Z5 drone rollout.",
                 ("Priya Duarte", "Person"), ("Z5", "Object"))["Z5"]  # fmt: skip
    again = note(scope, "Field test of the Z-5 drone by Kestrel went well.",
                 ("Z-5", "Organization"), ("Kestrel", "Organization"))["Z-5"]  # fmt: skip
    assert again.action == "merged" and again.entity_uid == first.entity_uid, again.reason
    assert "one model name written two ways" in again.reason
    assert "role same ('drone' / 'drone', learned from text)" in again.reason
    assert "rare_name code" in again.reason and "role same" in again.reason


def test_a_model_name_alone_still_never_merges(scope):
    first = note(scope, "Priya Duarte asked about the Z5 rollout.",
                 ("Priya Duarte", "Person"), ("Z5", "Object"))["Z5"]  # fmt: skip
    again = note(scope, "Carmen Osei asked about the Z5 rollout.",
                 ("Carmen Osei", "Person"), ("Z5", "Object"))["Z5"]  # fmt: skip
    assert again.action == "pending" and again.matched_uid == first.entity_uid, again.reason
    assert set(again.signals) == {"name", "type"}, again.reason


def test_v7_and_v8_are_not_proposed_whatever_role_agrees(scope):
    note(scope, "Priya Duarte asked about the V-7 drone rollout.",
         ("Priya Duarte", "Person"), ("V-7", "Object"))  # fmt: skip
    other = note(scope, "Priya Duarte asked about the V-8 drone rollout.",
                 ("Priya Duarte", "Person"), ("V-8", "Object"))["V-8"]  # fmt: skip
    assert other.action == "created" and not other.proposed, other.reason
    assert "model numbers differ (8 / 7)" in other.reason


def test_one_model_name_with_another_role_is_not_merged(scope):
    first = note(scope, "Priya Duarte asked about the Helix X2 headset rollout.",
                 ("Priya Duarte", "Person"), ("Helix X2", "Object"))["Helix X2"]  # fmt: skip
    again = note(scope, "Field test of the Helix X2 drone by Kestrel went well.",
                 ("Helix X2", "Object"), ("Kestrel", "Organization"))["Helix X2"]  # fmt: skip
    assert again.action != "merged" and again.entity_uid != first.entity_uid, again.reason
    assert "role different ('drone' / 'headset'" in again.reason


def test_namesakes_with_another_job_employer_and_city_stay_apart(scope):
    nurse = note(scope, "Daniel Reyes is a nurse at Porto General in Porto.",
                 ("Daniel Reyes", "Person"), ("Porto General", "Organization"),
                 ("Porto", "Location"))["Daniel Reyes"]  # fmt: skip
    pilot = note(scope, "Daniel Reyes is a pilot at Skyline Air in Bergen.",
                 ("Daniel Reyes", "Person"), ("Skyline Air", "Organization"),
                 ("Bergen", "Location"))["Daniel Reyes"]  # fmt: skip
    assert pilot.action in ("created", "pending") and pilot.entity_uid != nurse.entity_uid
    assert "role conflict ('pilot' / 'nurse'" in pilot.reason  # another job: never merged alone
    assert "context conflict" in pilot.reason


def test_two_people_sharing_a_surname_or_a_birth_year_are_not_proposed(scope):
    priya = note(scope, "Priya Marchetti is a chemist in Porto. Marchetti was born in 1976.",
                 ("Priya Marchetti", "Person"), ("Marchetti", "Person"), ("Porto", "Location"))  # fmt: skip
    hers = {priya["Priya Marchetti"].entity_uid, priya["Marchetti"].entity_uid}
    yara = note(scope, "Yara Marchetti is a geologist in Leeds. Marchetti was born in 1950.",
                ("Yara Marchetti", "Person"), ("Marchetti", "Person"),
                ("Leeds", "Location"))["Yara Marchetti"]  # fmt: skip
    # Her own note's lone "Marchetti" (a geologist, born in 1950) may be proposed: it is her.
    assert yara.action in ("created", "pending"), yara.reason
    assert not {p["uid"] for p in yara.proposed} & hers, yara.reason
    osei = note(scope, "Yara Osei was born in 1976.", ("Yara Osei", "Person"))["Yara Osei"]
    assert osei.action == "created" and not osei.proposed, osei.reason


def test_a_model_number_guessed_a_person_has_no_employer_to_conflict(scope):
    first = note(scope, "Noor Tanaka of Kestrel asked about the Helix-X2 headset rollout.",
                 ("Noor Tanaka", "Person"), ("Kestrel", "Organization"), ("Helix-X2", "Person"))  # fmt: skip
    again = note(scope, "Marlow released a firmware update for the Helix-X2, its headset, today.",
                 ("Marlow", "Organization"), ("Helix-X2", "Person"))["Helix-X2"]  # fmt: skip
    assert again.action in ("merged", "unchanged"), again.reason
    assert again.entity_uid == first["Helix-X2"].entity_uid
    assert "conflict" not in again.reason


def test_a_pair_ruled_not_same_stays_apart_whatever_role_agrees(scope):
    first = note(scope, "Priya Duarte asked about the Z5 drone rollout.",
                 ("Priya Duarte", "Person"), ("Z5", "Object"))["Z5"]  # fmt: skip
    lone = note(scope, "Carmen Osei asked about the Z5 rollout.",
                ("Carmen Osei", "Person"), ("Z5", "Object"))["Z5"]  # fmt: skip
    assert lone.action == "pending", lone.reason
    review = cypher.read(scope, "MATCH (:Entity {tenant: $tenant})-[s:SAME_AS {status: 'pending'}]->"
                                "(:Entity {tenant: $tenant}) RETURN s.uid AS uid")[0]["uid"]  # fmt: skip
    check_review_reject(scope, review_uid=review, reason="two products")
    third = note(scope, "Field test of the Z5 drone went well.", ("Z5", "Object"))["Z5"]
    assert third.entity_uid not in (first.entity_uid, lone.entity_uid), third.reason
    assert third.action == "created", third.reason


def test_a_domain_that_spells_one_name_is_never_given_to_another_by_its_sentence():
    from apps.resolution.candidates import EntityCandidate, MentionSpan
    from apps.resolution.text_evidence import candidates_with_text_values

    text = (
        "Silverfin Foods, based in Aarhus, opened a site. Its website is silverfin-foods.example."
    )

    def named(name, kind):
        at = text.index(name)
        return EntityCandidate(name, kind, mentions=(MentionSpan(name, at, at + len(name)),),
                               type_guessed=True)  # fmt: skip

    firm, city = candidates_with_text_values(
        [named("Silverfin Foods", "Person"), named("Aarhus", "Object")], text, source="c1"
    )
    assert firm.values == {"text:domain": "silverfin-foods.example"}
    assert city.values == {}


def test_another_job_forbids_a_persons_automatic_merge_whatever_else_agrees():
    from apps.resolution.comparisons.records import Record, records_compare
    from apps.resolution.match_model import match_score

    shared = (("Organization", "Skyline Air"), ("Person", "Ines Duarte"), ("Location", "Bergen"))
    nurse = Record(("Daniel Reyes",), {"text:role": "nurse"}, "Person", True, shared)
    pilot = Record(("Daniel Reyes",), {"text:role": "pilot"}, "Person", True, shared)
    scored = match_score(records_compare("Person", nurse, pilot))
    assert "role" in scored.forbidden and not scored.may_merge, scored.as_dict()
    drone = Record(("Helix X2",), {"text:role": "drone"}, "Object", True, shared)
    pack = Record(("Helix X2",), {"text:role": "battery pack"}, "Object", True, shared)
    assert "role" not in match_score(records_compare("Object", drone, pack)).forbidden


def test_where_namesakes_carry_a_name_shared_context_alone_merges_nothing():
    from apps.resolution.comparisons.records import Record, records_compare
    from apps.resolution.match_model import match_score

    shared = (("Organization", "Skyline Air"), ("Person", "Ines Duarte"))
    bare = Record(("Daniel Reyes",), {}, "Person", True, shared)
    known = Record(("Daniel Reyes",), {"text:role": "pilot"}, "Person", True, shared)
    compared = records_compare("Person", bare, known)
    assert match_score(compared).may_merge  # one carrier: the context corroborates
    alone = match_score(compared, name_shared=True)
    assert not alone.may_merge and alone.probability == match_score(compared).probability
    told = Record(("Daniel Reyes",), {"text:role": "pilot"}, "Person", True, shared)
    assert match_score(records_compare("Person", told, known), name_shared=True).may_merge


def test_two_jobs_keep_people_apart_but_a_misread_word_is_no_job():
    from apps.resolution.comparisons.records import Record, records_compare

    def role_level(mine: str, theirs: str) -> str:
        found = records_compare("Person", Record(["Lwazi Mabandla"], {"text:role": mine}),
                                Record(["Lwazi Mabandla"], {"text:role": theirs}))  # fmt: skip
        return next(c.level for c in found if c.comparison == "role")

    assert role_level("internal auditor", "fleet manager") == "conflict"
    assert role_level("beekeeper", "welder") == "conflict"  # unlisted jobs end like jobs
    # "HR sheet: Mabandla", "Mabandla to chase ...": the parse's misreadings are no evidence.
    assert role_level("sheet", "fleet manager") == "missing"
    assert role_level("fleet manager", "chase") == "missing"
    assert role_level("fleet manager", "fleet manager") == "same"
    # An entity keeps what every merged note said: a misreading beside a job hid the job, and
    # two namesakes' entities merged on a shared birth year with no role compared.
    assert role_level("category manager; sheet", "fleet manager; minutes attendees") == "conflict"
    assert role_level("category manager; sheet", "category manager") == "same"


def test_a_common_word_beside_two_namesakes_is_no_shared_neighbour():
    from apps.resolution.comparisons.context import compare_context

    email = compare_context("Person", [("Object", "Email")], [("Object", "Email")])
    assert email.level == "missing"
    firm = compare_context("Person", [("Organization", "Apple")], [("Organization", "Apple")])
    assert firm.level == "shared"
    hobby = compare_context("Person", [("Object", "crochet")], [("Object", "crochet")])
    assert hobby.level == "shared"  # a rarer word still says something


def test_a_roll_of_attendees_gives_no_one_the_next_attendees_job():
    from apps.ingestion.extraction.spacy_ner import SpacyExtractor
    from apps.ingestion.working_memory import WorkingMemory
    from apps.resolution.text_evidence import candidates_with_text_values

    text = ("Present: Kavitha Selvaraj, the night-shift lead\n"
            "* Selvaraj joined — site reliability engineer, dialling in from Rosario.")  # fmt: skip
    found = SpacyExtractor.shared().extract(text, state=WorkingMemory())
    values = {c.name: c.values for c in candidates_with_text_values(list(found.entities), text,
                                                                     source="x")}  # fmt: skip
    assert values["Kavitha Selvaraj"]["text:role"] == "site reliability engineer"


def test_a_lone_given_name_is_the_level_given_whatever_notes_came_first():
    # minutes seed 3: 'Harpreet' alone met the entity one note had left as 'Harpreet Dhillon'
    # (alias 'Harpreet'): `exact`, x260, and a shared firm merged two namesakes. Without the
    # alias it was `similar`; now both are `given`, and a firm beside it is not enough.
    from apps.resolution.comparisons.records import Record, records_compare
    from apps.resolution.match_model import match_score

    with_alias = compare_names("Person", ["Harpreet"], ["Harpreet Dhillon", "Harpreet"])
    assert with_alias.level == "given", with_alias
    assert compare_names("Person", ["Harpreet Dhillon"], ["Harpreet"]).level == "given"
    assert compare_names("Person", ["Dhillon"], ["Harpreet Dhillon"]).level == "surname"
    assert compare_names("Person", ["Harpreet"], ["Harpreet"]).level == "exact"

    firm = (("Organization", "Minatomi Precision"),)
    lone = Record(("Harpreet",), {}, "Person", True, firm)
    full = Record(("Harpreet Dhillon", "Harpreet"), {}, "Person", True, firm)
    assert match_score(records_compare("Person", lone, full)).probability < 0.995
    job = {"text:role": "head of legal"}
    lone = Record(("Harpreet",), job, "Person", True, firm)
    full = Record(("Harpreet Dhillon", "Harpreet"), job, "Person", True, firm)
    assert match_score(records_compare("Person", lone, full)).probability >= 0.995


def test_a_year_on_a_line_of_a_note_without_stops_is_the_person_named_on_that_line():
    from apps.ingestion.extraction.spacy_ner import SpacyExtractor
    from apps.ingestion.working_memory import WorkingMemory
    from apps.resolution.text_evidence import candidates_with_text_values

    def values(text):
        found = SpacyExtractor.shared().extract(text, state=WorkingMemory())
        return {c.name: c.values for c in candidates_with_text_values(list(found.entities), text,
                                                                      source="x")}  # fmt: skip

    found = values("+ Dagny Ismail (firmware developer) is out thu-fri\n"
                   "not great: Ioana Raghunathan, now a support engineer, wrote the runbook\n"
                   "not great: yob 1997 (Raghunathan, for the badge form)")  # fmt: skip
    assert found["Ioana Raghunathan"].get("text:born") == "1997", found
    assert "text:born" not in found["Dagny Ismail"], found
    assert not any("1997" in name for name in found), found  # 'yob 1997' is no product
    # "b." ends no sentence: the year is the person's on that line
    found = values("- Ngozi Nowak: blocked on creds\n- Nowak b. 1984\n- Dagny Ismail: fine")
    assert found["Ngozi Nowak"].get("text:born") == "1984", found
    # a bracket right after the year names whose it is, on a line with another person first
    found = values("Chat 2024-03-02: Ismail Okoro (site nurse) thanked Dagny. born 1979 (Nowak).")
    assert "text:born" not in found["Ismail Okoro"], found
    assert any(v.get("text:born") == "1979" for n, v in found.items() if "Nowak" in n), found
