"""Jobs written as titles in agents' notes, on the real offline spaCy model: a department after
a title is part of the job, not a firm; "head of ..." keeps its field; a reading that names no
job gives way to the note's field; a name the model found once is found wherever the note
repeats it; "Izmir-based" is a place and "b. 1984" a birth year after a person's name."""

import pytest

from apps.ingestion.extraction.spacy_ner import SpacyExtractor
from apps.ingestion.working_memory import WorkingMemory
from apps.resolution.comparisons.roles import compare_roles
from apps.resolution.role_words import jobs_only


@pytest.fixture(scope="module")
def extractor():
    return SpacyExtractor.shared()


def read(extractor, text):
    state = WorkingMemory()
    state.begin_chunk(())
    return {e.name: e for e in extractor.extract(text, state=state).entities}


def test_a_department_after_a_title_is_the_job_not_a_firm(extractor):
    entities = read(extractor, "Intro'd to Lukas Oberwinkler, VP Sales. Ezeudu runs the lab.")
    assert "Sales" not in entities
    assert entities["Lukas Oberwinkler"].learned.get("role") == "vp sales"
    entities = read(extractor, "Met Dana Kowalczyk, Head of Marketing at Brisa Labs.")
    assert "Head" not in entities
    assert entities["Dana Kowalczyk"].learned.get("role") == "head of marketing"
    assert entities["Dana Kowalczyk"].learned.get("employer") == "Brisa Labs"


def test_head_of_keeps_its_field_and_a_misread_gives_way_to_the_field(extractor):
    entities = read(extractor, "Ana Duarte, director of research, joined the call.")
    assert entities["Ana Duarte"].learned.get("role") == "director of research"
    # The parse hangs "budget" on the name; the bracket says the job.
    entities = read(extractor, "Priya Raghunathan (VP Sales) - no budget till Q2.")
    assert entities["Priya Raghunathan"].learned.get("role") == "vp sales"


def test_a_name_found_once_is_found_where_the_note_repeats_it(extractor):
    entities = read(extractor, "Ardıç — head of procurement, Izmir-based. Ardıç born 1975.")
    assert entities["Izmir"].type == "Location"
    ardic = entities["Ardıç"]
    assert ardic.type == "Person"
    assert ardic.learned.get("role") == "head of procurement"
    assert ardic.learned.get("city") == "Izmir"


def test_a_birth_year_after_a_name_makes_it_a_person(extractor):
    entities = read(extractor, "Visit: Oberwinkler.\n- Bday list: Oberwinkler, b. 1984.")
    assert entities["Oberwinkler"].type == "Person"


def test_titled_jobs_are_compared_by_their_field():
    assert jobs_only("vp sales; budget") == "vp sales"
    assert compare_roles("vp sales", "facilities manager").level == "different"
    assert compare_roles("head of procurement", "director of procurement").level == "same"
    assert compare_roles("vp of sales", "vp sales").level == "same"
    assert compare_roles("vp sales", "vp marketing").level == "related"
