"""Who a note's first person is, and what a record's labelled fields say (issue 46): a quoted
reply's writer, a transcript's speaker, a key: value record, through the real spaCy model."""

from apps.ingestion.extraction.spacy_ner import SpacyExtractor
from apps.ingestion.working_memory import WorkingMemory


def read(text: str) -> dict:
    found = SpacyExtractor.shared().extract(text, state=WorkingMemory())
    return {e.name: {**e.learned, "type": e.type} for e in found.entities}


def test_a_quoted_reply_in_the_first_person_is_its_writers():
    found = read("Ana Ruiz answered everyone at once.\nOn 3 Feb, Tomasz Wierzbicki wrote:\n"
                 "> Calls only please, I'm stuck in Gdansk.\n> As head of legal I can sign off.")  # fmt: skip
    writer = found["Tomasz Wierzbicki"]
    assert writer["role"] == "head of legal" and writer["city"] == "Gdansk", found
    assert "role" not in found["Ana Ruiz"], found
    found = read("Forwarding below.\nOn wk 22, Amara Osei wrote:\n"
                 "> I moved into the warehouse manager role in May.")  # fmt: skip
    assert found["Amara Osei"]["role"] == "warehouse manager", found


def test_a_speakers_first_person_in_a_transcript_is_the_speakers():
    found = read("Panel, 12 May. Paola Brandt moderated.\n"
                 "[00:04:10] Oskar Lindqvist: Thanks. I work as a hydrologist, mostly fieldwork.\n"
                 "[00:05:02] Q: And where are you these days?\n"
                 "(05:31) LINDQVIST: I live in Oslo now.")  # fmt: skip
    speaker = found["Oskar Lindqvist"]
    assert speaker["role"] == "hydrologist" and speaker["city"] == "Oslo", found
    assert "role" not in found["Paola Brandt"] and "city" not in found["Paola Brandt"], found
    # A speaker's name after a time stamp, in capitals, that the model reads as no name.
    found = read(
        "07:02 FOLASADE ONWU: Thanks for having me.\n07:06 FOLASADE ONWU: I work as a dentist."
    )
    assert found["Folasade Onwu"] == {"role": "dentist", "type": "Person"}, found
    # A given name the tagger made a noun speaks too; a part in the talk is nobody.
    found = read("05:40 HOST: Welcome back.\nGideon: I moved to Oslo last year.\n")
    assert found == {"Gideon": {"city": "Oslo", "type": "Person"}, "Oslo": {"type": "Location"}}
    # The label is no subject of what the turn says of others.
    found = read("[00:44:23] OSKAR LINDQVIST: Oslo.\n[00:45:16] OSKAR LINDQVIST: Honestly Dr. "
                 "Tomas Brandt deserves the credit, he's the solutions architect there.\n")  # fmt: skip
    assert "role" not in found["OSKAR LINDQVIST"], found
    # A label opens one turn: a line without one is nobody's first person.
    found = read("Oskar Lindqvist: see you Friday.\nI live in Oslo now.")
    assert "city" not in found["Oskar Lindqvist"], found


def test_a_records_labelled_fields_are_its_persons():
    found = read("name: Mireille Dufort | role: grants officer | org: Hallam Trust | "
                 "city: Dundee | b. 1983")  # fmt: skip
    person = found["Mireille Dufort"]
    assert person["type"] == "Person", found
    assert person["role"] == "grants officer" and person["city"] == "Dundee", person
    assert "Hallam Trust" in person["employer"], person
