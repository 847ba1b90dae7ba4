"""Jobs, places and labels in agents' notes, on the real offline spaCy model: a department
after a title is part of the job, not a firm; "head of ..." keeps its field; a reading that
names no job gives way to the note's field; a name the model found once is found wherever the
note repeats it; "Izmir-based" and "data engineer, Tampere." are places; "b. 1984" is a birth
year after a person's name; "Lunch w/" and "Contact:" name no one; a verb before a registered
name is not part of it."""

from apps.ingestion.extraction.proper_nouns import adjacent_people_joined, names_repeated
from apps.ingestion.working_memory import NamedSpan
from apps.resolution.comparisons.roles import compare_roles
from apps.resolution.role_words import jobs_only
from tests.ingestion import test_note_layout_names as notes

extractor, read = notes.extractor, notes.read  # the notes' fixture and reader


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
    # The field is the word right after 'of', not a later one the parse hung there.
    entities = read(extractor, "Korvald Freight AS sent Iliescu, their head of legal, "
                               "insyead of the usual rep.")  # fmt: skip
    assert entities["Iliescu"].learned.get("role") == "head of legal"
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


def test_a_name_the_model_split_in_one_line_is_whole_where_it_found_it_whole(extractor):
    # The model read "Hafiz" a firm on the first line and "Hafiz Ndlovu" a person on the third
    # (seen in a note); the whole name takes the parts it holds, and the surname is its alias.
    text = (
        "infra lead Tomasz Ilunga: PR #88 merged\nIlunga loves trail running\nTomasz Ilunga b. 1987"
    )
    spans = [NamedSpan("Tomasz", 11, 17, "Organization"), NamedSpan("Ilunga", 40, 46, "Object"),
             NamedSpan("Tomasz Ilunga", 67, 80, "Person")]  # fmt: skip
    assert [text[s.start : s.end] for s in spans] == ["Tomasz", "Ilunga", "Tomasz Ilunga"]
    found = names_repeated(text, spans)
    assert [(s.surface, s.start, s.type) for s in found] == [
        ("Tomasz Ilunga", 11, "Person"), ("Ilunga", 40, "Object"), ("Tomasz Ilunga", 67, "Person"),
    ]  # fmt: skip
    # a longer name the note holds is never cut to a shorter one found elsewhere
    text = "Met Tomasz Ilunga-Berg today. Tomasz Ilunga is someone else."
    spans = [
        NamedSpan("Tomasz Ilunga-Berg", 4, 22, "Person"),
        NamedSpan("Tomasz", 30, 36, "Person"),
    ]
    found = names_repeated(text, spans)
    assert [(s.surface, s.start) for s in found] == [("Tomasz Ilunga-Berg", 4), ("Tomasz", 30)]


def test_a_surname_alone_the_tagger_missed_is_the_persons_named_in_full():
    text = "attendees: Oren Katzav (OK), me; Katzav (site manager) gave the update; Will to check"
    spans = [NamedSpan("Oren Katzav", 11, 22, "Person")]
    found = names_repeated(text, spans)
    assert [(s.surface, s.start, s.type) for s in found] == [
        ("Oren Katzav", 11, "Person"), ("Katzav", 33, "Person"),
    ]  # fmt: skip
    # a surname two people of the note carry is nobody's alone
    text = "Oren Katzav and Dalia Katzav met; Katzav will call"
    spans = [NamedSpan("Oren Katzav", 0, 11, "Person"), NamedSpan("Dalia Katzav", 16, 28, "Person")]
    assert names_repeated(text, spans) == spans


def test_two_one_word_people_side_by_side_are_one_persons_name():
    # the model missed the full name; the tagger and a later surname found its two halves
    text = "* Lindiwe Osei (moved to the data team) shipped it\n* Osei (born 1981) is away"
    spans = [NamedSpan("Lindiwe", 2, 9, "Person"), NamedSpan("Osei", 10, 14, "Person"),
             NamedSpan("Osei", 53, 57, "Person")]  # fmt: skip
    assert [text[s.start : s.end] for s in spans] == ["Lindiwe", "Osei", "Osei"]
    found = adjacent_people_joined(text, spans)
    assert [(s.surface, s.start) for s in found] == [("Lindiwe Osei", 2), ("Osei", 53)]
    # the tenant knew the surname (a known span, named): the given name before it still joins
    spans[1] = NamedSpan("Osei", 10, 14, "Person", "Osei")
    assert adjacent_people_joined(text, spans)[0].surface == "Lindiwe Osei"
    # a comma, an 'and' or a firm between them keeps two
    text = "Lindiwe, Osei and Kofi Mensah; Lindiwe Acme"
    spans = [NamedSpan("Lindiwe", 0, 7, "Person"), NamedSpan("Osei", 9, 13, "Person"),
             NamedSpan("Kofi Mensah", 18, 29, "Person"), NamedSpan("Lindiwe", 31, 38, "Person"),
             NamedSpan("Acme", 39, 43, "Organization")]  # fmt: skip
    assert adjacent_people_joined(text, spans) == spans


def test_a_word_of_a_persons_full_name_is_theirs_where_no_place_stands(extractor):
    # 'Dallas' is a city and the model typed the lone word a place; the note named the person
    text = (
        "log 3-Feb-25: call w/ Dallas Abara\nAbara, who lives in Ipoh, takes the release"
        " checklist today\nDallas (born 1979) asked about the pension scheme"
    )
    entities = read(extractor, text)
    assert "Dallas" not in entities
    assert "Dallas" in entities["Dallas Abara"].aliases
    # where a place stands, the city stays a place
    entities = read(extractor, "Met Dallas Abara at the fair. Abara moved to Dallas in 2020.")
    assert entities["Dallas"].type == "Location"


def test_a_founded_firms_name_is_whole_though_the_tagger_read_its_first_word_a_verb(extractor):
    # 'Tessaro' is a verb to the tagger: one run stopped after it, the founding gave the whole
    entities = read(
        extractor,
        "wk 3 notes. Tessaro Logistics GmbH (est. 1994) quoted again. chase Tessaro about the invoice.",
    )
    assert entities["Tessaro Logistics GmbH"].type == "Organization"
    assert "Tessaro" in entities["Tessaro Logistics GmbH"].aliases  # not 'chase Tessaro'
    assert set(entities) == {"Tessaro Logistics GmbH"}


def test_a_city_based_firm_is_a_firm_in_that_city_not_a_hyphenated_persons_name(extractor):
    entities = read(extractor, "update (9 May): Medellin-based Corvix Analytics sent the renewal.")
    assert entities["Corvix Analytics"].type == "Organization"
    assert entities["Corvix Analytics"].learned.get("city") == "Medellin"
    assert entities["Medellin"].type == "Location"
    # a given name's lower-case half still makes one person's name
    assert read(extractor, "Seo-yeon Bae called back.")["Seo-yeon Bae"].type == "Person"


def test_initials_a_note_gave_a_person_are_that_persons_throughout_the_note(extractor):
    text = (
        "Attendees: Kwame Ofori (KO), Lena Brandt, me (notes)\n"
        "1. Lena Brandt, a buyer on KO's team, took notes.\n2. budget sign-off for KO by Friday"
    )
    entities = read(extractor, text)
    assert "KO" not in entities  # not a firm 'KO', nor Lena Brandt's employer
    assert "KO" in entities["Kwame Ofori"].aliases
    assert "employer" not in entities["Lena Brandt"].learned
    # initials nobody was given in the note stay what they were where no person stands
    entities = read(extractor, "Kwame Ofori moved to KO Logistics Ltd in May.")
    assert "KO Logistics Ltd" in entities


def test_a_given_name_no_list_knows_is_found_and_typed_by_the_note(extractor):
    # the tagger made 'Yewande' a verb; the bracket's job says a person's name
    entities = read(extractor, "stop: Yewande Adeyemi [hardware buyer] has the budget numbers")
    assert entities["Yewande Adeyemi"].type == "Person"
    assert entities["Yewande Adeyemi"].learned.get("role") == "hardware buyer"
    # the model typed the full name a place; the note calls her by the given name alone
    text = (
        "3/02 log: spoke to Temitope Balogun re onboarding\n"
        "Temitope, now a payroll clerk, will demo on friday\nhobby: chess (Temitope Balogun)"
    )
    entities = read(extractor, text)
    assert set(entities) == {"Temitope Balogun"}, entities
    assert entities["Temitope Balogun"].type == "Person"
    assert entities["Temitope Balogun"].learned.get("role") == "payroll clerk"


def test_a_birth_year_after_a_name_makes_it_a_person(extractor):
    entities = read(extractor, "Visit: Oberwinkler.\n- Bday list: Oberwinkler, b. 1984.")
    assert entities["Oberwinkler"].type == "Person"


def test_titled_jobs_are_compared_by_their_field():
    assert jobs_only("vp sales; budget") == "vp sales"
    assert compare_roles("vp sales", "facilities manager").level == "different"
    assert compare_roles("head of procurement", "director of procurement").level == "same"
    assert compare_roles("vp of sales", "vp sales").level == "same"
    assert compare_roles("vp sales", "vp marketing").level == "related"


def test_a_given_name_written_with_its_accents_opens_a_persons_name(extractor):
    entities = read(extractor, "I met Tõnis Lõhmus again this morning. Lõhmus's year of birth "
                               "is 1997. Lõhmus holds the position of plant director.")  # fmt: skip
    assert entities["Tõnis Lõhmus"].type == "Person"
    assert entities["Tõnis Lõhmus"].learned.get("role") == "plant director"


def test_a_job_said_of_a_subject_named_in_apposition(extractor):
    entities = read(
        extractor, "Our contact Tõnis Lõhmus is a research chemist; he lives in Utrecht."
    )
    assert entities["Tõnis Lõhmus"].learned.get("role") == "research chemist"
    entities = read(extractor, "Zelenka has its head office in Brno. The firm's operations "
                               "manager, Kadri Saarsalu, answered most questions.")  # fmt: skip
    assert entities["Kadri Saarsalu"].learned.get("role") == "operations manager"
    assert entities["Zelenka"].type == "Organization"


def test_a_head_office_makes_a_firm_and_a_city_after_in_a_place(extractor):
    entities = read(extractor, "Velamar is headquartered in Valencia.")
    assert entities["Velamar"].type == "Organization"
    assert entities["Valencia"].type == "Location"
    assert entities["Velamar"].learned.get("city") == "Valencia"


def test_labels_typed_people_name_no_one_and_a_city_in_a_field_is_a_place(extractor):
    entities = read(extractor, "Lunch w/ Dr. Bae (data engineer) in Tampere.\n"
                               "Contact: Dr. Sabbagh | IT director | Galway.")  # fmt: skip
    assert "Lunch" not in entities and "Contact" not in entities
    assert {"Bae", "Sabbagh"} <= set(entities)
    entities = read(extractor, "Inbound from Seo-yeon Bae — data engineer, Tampere.")
    assert entities["Tampere"].type == "Location"
    assert entities["Seo-yeon Bae"].learned.get("city") == "Tampere"


def test_a_person_looped_in_or_with_someone_is_a_person_and_a_code_is_no_one(extractor):
    entities = read(extractor, "Loop in Linh Vuong next time - VP Sales.")
    assert entities["Linh Vuong"].type == "Person"
    entities = read(extractor, "Loaner Lirra32 is with Ruxandra until month end.")
    assert entities["Ruxandra"].type == "Person"
    assert all(e.type != "Person" for n, e in entities.items() if "Lirra32" in n)


def test_a_verb_before_a_registered_name_is_not_part_of_it(extractor):
    entities = read(extractor, "• Discussed Aduramo Power Ltd, the grid battery vendor.")
    assert "Aduramo Power Ltd" in entities
    assert entities["Aduramo Power Ltd"].type == "Organization"


def test_a_plus_between_two_names_is_and(extractor):
    entities = read(extractor, "Nwakaego + Kenji Morisawa (CFO) both on the deal.")
    assert "Nwakaego + Kenji Morisawa" not in entities
    assert entities["Kenji Morisawa"].type == "Person"
    assert entities["Kenji Morisawa"].learned.get("role") == "cfo"
    assert "Nwakaego" in entities


def test_a_verb_between_two_names_or_before_one_is_no_part_of_a_name(extractor):
    # minutes seed 3: "Oyebanji brought Selvaraj" and "Forwarding Adaeze Umeadi's note" were
    # read as people of those names, each a fragment no note names again.
    from apps.ingestion.extraction.note_words import ran_together_split
    from apps.ingestion.working_memory import NamedSpan

    text = "FO signed for it; Oyebanji brought Selvaraj, a warehouse manager."
    at = text.index("Oyebanji")
    parts = ran_together_split(NamedSpan("Oyebanji brought Selvaraj", at, at + 25, "Person"))
    assert [(p.surface, text[p.start : p.end]) for p in parts] == [
        ("Oyebanji", "Oyebanji"), ("Selvaraj", "Selvaraj")
    ]  # fmt: skip
    for kept in ("Ludwig van Beethoven", "José Ortega y Gasset"):
        assert [p.surface for p in ran_together_split(NamedSpan(kept, 0, len(kept), "Person"))] \
            == [kept]  # fmt: skip
    firm = NamedSpan("Bank of Kigali", 0, 14, "Organization")
    assert ran_together_split(firm) == [firm]
    entities = read(extractor, "Forwarding Adaeze Umeadi's note below.")
    assert "Forwarding Adaeze Umeadi" not in entities and "Adaeze Umeadi" in entities, entities
    entities = read(extractor, "Sterling Okafor called about the renewal.")
    assert "Sterling Okafor" in entities, entities  # a given name stays
    # typed a thing by the model: cut when a given name follows ("Marketing Solutions" stays)
    entities = read(extractor, "Subject: renewal\nForwarding Harpreet Dhillon's note below.")
    assert "Forwarding Harpreet Dhillon" not in entities and "Harpreet Dhillon" in entities
    # or whose note the line forwards (the model's work of art, a person by the next line)
    text = "RE: RE: pilot timeline\nForwarding Chukwuemeka Obi's note below.\nOn Monday, Obi wrote:"
    entities = read(extractor, text)
    assert "Forwarding Chukwuemeka Obi" not in entities, entities
    assert "Chukwuemeka Obi" in entities, entities
    entities = read(extractor, "Mei-Ling Tsao wrote back on Friday.")
    assert "Mei-Ling Tsao" in entities, entities


def test_a_job_no_list_knows_before_a_name_is_the_job_where_the_parse_ties_them(extractor):
    # 'hydrologist', 'cartographer', 'sommelier' are on no list of job words: before the name,
    # the parse says they modify it. A noun the name only writes about is no job of theirs.
    entities = read(extractor, "Spoke to the hydrologist Sunniva Aakre about the survey.")
    assert entities["Sunniva Aakre"].learned.get("role") == "hydrologist"
    entities = read(extractor, "Saw the cartographer Ines Holm and the sommelier Tomas Ruiz.")
    assert entities["Ines Holm"].learned.get("role") == "cartographer"
    assert entities["Tomas Ruiz"].learned.get("role") == "sommelier"
    for text in ("Read the paper Sunniva Aakre wrote.", "The number Tomas Ruiz gave was wrong.",
                 "Our hydrologist Sunniva Aakre sent the survey."):  # fmt: skip
        assert not any(e.learned.get("role") for e in read(extractor, text).values()), text


def test_a_job_given_in_a_clause_the_person_is_the_subject_of(extractor):
    entities = read(extractor, "Catalina Ferreyra moved to Rosario last year to join Brumwell "
                               "Foods as an agronomist.")  # fmt: skip
    assert entities["Catalina Ferreyra"].learned.get("role") == "agronomist"
    entities = read(extractor, "Tomas Ruiz agreed to stay on as interim plant director.")
    assert entities["Tomas Ruiz"].learned.get("role") == "interim plant director"
    # The one asked joins, not the one asking; what a product is sold as is no one's job.
    entities = read(extractor, "Catalina Ferreyra asked Tomas Ruiz to join Brumwell Foods as "
                               "an agronomist.")  # fmt: skip
    assert entities["Catalina Ferreyra"].learned.get("role") is None
    entities = read(extractor, "Tomas Ruiz is trying to sell the Vexa 8 as a premium product.")
    assert entities["Tomas Ruiz"].learned.get("role") is None
