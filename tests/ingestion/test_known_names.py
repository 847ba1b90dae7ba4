"""Names the tenant's graph knows are matched in text by the extractor: read from the graph
(the tenant's only), kept per tenant, refreshed when forgotten or expired, and taught the names
a window writes."""

import pytest

from apps.ingestion import services
from apps.ingestion.extraction import known_names as module
from apps.ingestion.extraction.known_names import known_names, known_names_forget
from apps.ingestion.extraction.spacy_ner import SpacyExtractor
from apps.ingestion.working_memory import WorkingMemory
from apps.tenants.models import Job
from tests.conftest import scope_for

TEXT = "Engineers calibrated the VS-9 before lunch and sent it to Ohio."


@pytest.fixture
def nlp():
    return SpacyExtractor.shared().nlp


def facts(scope, name, type_, aliases=()):
    services.check_facts_submit(
        scope, entities=[{"name": name, "type": type_, "aliases": list(aliases)}], relations=[]
    )


def candidates(scope, text=TEXT):
    state = WorkingMemory()
    state.begin_chunk(())
    found = SpacyExtractor.shared().for_scope(scope).extract(text, state=state)
    return {e.name: e for e in found.entities}


def test_an_alias_the_graph_knows_is_found_under_its_entitys_name(make_tenant, nlp):
    mine, other = scope_for(make_tenant()), scope_for(make_tenant())
    assert "VS-9" not in {e.text for e in nlp(TEXT).ents}  # the model alone misses it
    facts(mine, "Vantablack Spectrometer", "Object", ["VS-9"])
    known_names_forget(mine.tenant)
    found = candidates(mine)
    entity = found["Vantablack Spectrometer"]
    assert entity.type == "Object" and [m.surface for m in entity.mentions] == ["VS-9"]
    # Another tenant's graph does not know it.
    known_names_forget(other.tenant)
    assert "Vantablack Spectrometer" not in candidates(other)


def test_the_cache_is_kept_until_forgotten_or_expired(tenant, nlp, monkeypatch):
    scope = scope_for(tenant)
    known_names_forget(scope.tenant)
    first = known_names(scope, nlp)
    facts(scope, "Quorvane Turbine", "Object", ["QT-4"])
    assert known_names(scope, nlp) is first and "QT-4" not in first.by_surface
    monkeypatch.setattr(module, "CACHE_SECONDS", 0.0)
    assert "QT-4" in known_names(scope, nlp).by_surface
    monkeypatch.undo()
    facts(scope, "Halloran Drill", "Object", ["HD-2"])
    known_names_forget(scope.tenant)
    assert "HD-2" in known_names(scope, nlp).by_surface


def test_names_a_document_writes_are_matched_in_the_next_window(tenant, nlp, monkeypatch):
    from apps.ingestion import pipeline

    scope = scope_for(tenant)
    known_names_forget(scope.tenant)
    cached = known_names(scope, nlp)  # empty, and fresh for CACHE_SECONDS
    monkeypatch.setattr(pipeline, "EMBED_BATCH", 1)
    text = ("# Lab\n\nThe Vantablack Spectrometer arrived on Monday, in a crate from the port "
            "of Rotterdam, and the whole team came to watch it being unpacked.\n\n")  # fmt: skip
    queued = services.check_document_submit(scope, content=text, source="lab")
    services.document_ingest_job_run(Job.objects.select_related("tenant").get(uid=queued["job"]))
    assert known_names(scope, nlp) is cached  # the same copy, taught the new name
    assert cached.by_surface["Vantablack Spectrometer"][0] == "Vantablack Spectrometer"


def test_a_lone_surname_of_a_known_person_is_a_person_and_a_known_place_stays_one(make_tenant):
    # The small model types a lone surname a firm or a place: it was then no candidate for the
    # person, and wrongly a firm the colleague named beside it "works for".
    mine, other = scope_for(make_tenant()), scope_for(make_tenant())
    text = (
        "Anahit - sales engineer. lives in Aarhus. born 1983. Sargsyan and Ilze Kalnina "
        "(backend developer) are on the same team. Sargsyan moved to Georgia."
    )
    known_names_forget(other.tenant)
    assert candidates(other, text)["Sargsyan"].type != "Person"  # the model alone
    facts(mine, "Anahit Sargsyan", "Person")
    facts(mine, "Georgia Lindqvist", "Person")
    known_names_forget(mine.tenant)
    found = candidates(mine, text)
    assert found["Sargsyan"].type == "Person", found
    assert "employer" not in found["Ilze Kalnina"].learned, found
    assert found["Georgia"].type == "Location", found  # a country's name, whoever bears it


def test_a_known_firm_named_without_its_legal_form_is_found_whole(make_tenant):
    # The small model keeps 'Thermal' of 'Cindral Thermal' (a thing); the tenant knows the firm
    # as 'Cindral Thermal Inc.': its name without the legal form is the firm, over NER's part.
    mine, other = scope_for(make_tenant()), scope_for(make_tenant())
    text = "Spoke w/ Azzouni, VP Sales at Cindral Thermal. Based Raleigh."
    known_names_forget(other.tenant)
    # A tenant that never met it now reads it whole too: 'Cindral', a word no English text
    # uses, opens the proper noun after it (proper_nouns._rare_before_name).
    assert candidates(other, text)["Cindral Thermal"].type == "Organization"
    facts(mine, "Cindral Thermal Inc.", "Organization")
    known_names_forget(mine.tenant)
    found = candidates(mine, text)
    firm = found["Cindral Thermal"]  # its own name: the gate compares it with the registered one
    assert firm.type == "Organization" and [m.surface for m in firm.mentions] == [
        "Cindral Thermal"
    ], found
    assert "Thermal" not in found and found["Azzouni"].learned.get("employer") == (
        "Cindral Thermal"
    ), found


def test_a_registered_name_kept_as_an_alias_is_found_without_its_legal_form(make_tenant):
    # chat seed 3: the entity 'Pelagos' carries 'Pelagos Shipping S.A.' as an alias; "Pelagos
    # Shipping's paralegal" was cut to the known 'Pelagos' and a thing 'Shipping'.
    mine = scope_for(make_tenant())
    facts(mine, "Pelagos", "Organization", ["Pelagos Shipping S.A."])
    known_names_forget(mine.tenant)
    found = candidates(mine, "Pelagos Shipping's paralegal, Taras Melnychuk, was cc'd.")
    assert "Shipping" not in found, found
    assert found["Pelagos Shipping"].type == "Organization", found
    assert found["Taras Melnychuk"].learned.get("employer") == "Pelagos Shipping", found


ENTITIES = """
MATCH (e:Entity {tenant: $tenant, status: 'active'})
RETURN e.name AS name, coalesce(e.aliases, []) AS aliases
"""


def test_a_registered_name_a_merge_added_is_matched_from_the_next_document(make_tenant):
    # The cache is rebuilt from the graph at most every CACHE_SECONDS: a firm's registered name
    # that a merge made an alias is learned at once, like a created entity's name.
    from apps.graph import cypher

    mine = scope_for(make_tenant())
    known_names_forget(mine.tenant)
    for content in (
        "Pelagos (Piraeus) came up: founded 1957, does shipping.",
        "Legal name: Pelagos Shipping S.A., in Piraeus since 1957.",
        "Pelagos Shipping's paralegal, Taras Melnychuk, was cc'd on the thread.",
    ):
        found = services.check_document_submit(
            mine, content=content, source="test", title=content[:30], wait=True
        )
        assert found["status"] == "done", found  # fmt: skip
    names = {r["name"]: r["aliases"] for r in cypher.read(mine, ENTITIES)}
    assert "Shipping" not in names, names
    firms = [n for n, aliases in names.items() if "Pelagos Shipping S.A." in (n, *aliases)]
    assert len(firms) == 1 and "Pelagos Shipping" not in names, names


def test_a_known_firm_shouted_in_capitals_is_the_firm(make_tenant):
    # minutes seed 0: "TUPANA is where Selvaraj sits" made a thing that waited for a reviewer
    # beside the firm 'Tupana Bio Ltda'; in the other case a known firm's name is the firm.
    mine, other = scope_for(make_tenant()), scope_for(make_tenant())
    text = "TUPANA is where Selvaraj sits, in case anyone asks. QUILLON too."
    known_names_forget(other.tenant)
    assert candidates(other, text).get("TUPANA", None) is None or (
        candidates(other, text)["TUPANA"].type != "Organization"
    )
    facts(mine, "Tupana Bio Ltda", "Organization", ["Tupana"])
    facts(mine, "Quillon", "Organization")
    facts(mine, "Ana Ruiz", "Person")
    known_names_forget(mine.tenant)
    found = candidates(mine, text)
    firm = found["Tupana Bio Ltda"]  # under the known entity's name, as an alias is
    assert firm.type == "Organization" and [m.surface for m in firm.mentions] == ["TUPANA"]
    assert found["Quillon"].type == "Organization", found
    # a person's name and a short acronym are matched as written only
    known = known_names(mine, SpacyExtractor.shared().nlp)
    assert known._shouted("Ana Ruiz") == "" and known._shouted("Tupana") == "TUPANA"


def test_a_known_persons_word_an_earlier_note_made_a_thing_is_a_persons_again(make_tenant):
    # 'Tõnis' was typed a thing in the first note that named him, before his full name was
    # known: that thing's name no longer types every later 'Tõnis'.
    mine = scope_for(make_tenant())
    facts(mine, "Tõnis", "Object")
    facts(mine, "Tõnis Lõhmus", "Person")
    known_names_forget(mine.tenant)
    assert candidates(mine, "Tõnis called about the broken pump again.")["Tõnis"].type == "Person"


def test_a_full_name_a_note_typed_a_thing_is_the_persons_once_a_person_carries_it(make_tenant):
    # field seed 1: "Some background on Tõnis Lõhmus follows." typed him a thing; the thing,
    # updated last, kept the surface and typed every later note's 'Tõnis Lõhmus' a thing.
    mine = scope_for(make_tenant())
    facts(mine, "Tõnis Lõhmus", "Person")
    facts(mine, "Tõnis Lõhmus", "Object")
    known_names_forget(mine.tenant)
    found = candidates(mine, "I met Tõnis Lõhmus again this morning.")
    assert found["Tõnis Lõhmus"].type == "Person", found


def test_a_given_name_and_a_surname_alone_in_one_note_are_the_known_person(make_tenant):
    scope = scope_for(make_tenant())
    facts(scope, "Taras Melnychuk", "Person")
    known_names_forget(scope.tenant)
    found = candidates(scope, "Q: who is Taras? A: a marketing lead based in Kuching. "
                              "Melnychuk's crochet thing came up again.")  # fmt: skip
    assert "Taras Melnychuk" in found
    assert {m.surface for m in found["Taras Melnychuk"].mentions} == {"Taras", "Melnychuk"}
    # Another lone name beside them: which halves go together is not known.
    found = candidates(scope, "Taras met Melnychuk and Petrenko in Kuching.")
    assert "Taras Melnychuk" not in found


def test_a_known_firm_said_in_lowercase_by_a_transcript_is_the_firm(make_tenant):
    # phonelog: a recogniser writes "at ardentis security", which the model reads as nouns.
    mine, other = scope_for(make_tenant()), scope_for(make_tenant())
    text = "Caller: i used to be at ardentis security, and we run a summit health scheme"
    known_names_forget(other.tenant)
    assert "Ardentis Security Inc." not in candidates(other, text)
    facts(mine, "Ardentis Security Inc.", "Organization")
    facts(mine, "Summit Health", "Organization")
    known_names_forget(mine.tenant)
    found = candidates(mine, text)
    firm = found["Ardentis Security"]  # as "at Ardentis Security" is: the firm's base name
    assert firm.type == "Organization" and [m.surface for m in firm.mentions] == [
        "ardentis security"
    ]
    # A name of common words only is matched as written: lowercase, it says anything.
    assert "Summit Health" not in found, found
