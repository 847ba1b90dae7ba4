"""Names in notes laid out in lines (minutes, handovers, e-mail threads), on the real offline
spaCy model: a name stays on its line, without the bullet or the note's verb before it; a
person's initials and given name later in the note are that person's; a name written surname
first or as an initial and a surname is one person's (extraction/name_forms.py)."""

import pytest

from apps.ingestion.extraction.spacy_ner import SpacyExtractor
from apps.ingestion.working_memory import WorkingMemory


@pytest.fixture(scope="module")
def extractor():
    return SpacyExtractor.shared()


def read(extractor, text):
    state = WorkingMemory()
    state.begin_chunk(())
    return {e.name: e for e in extractor.extract(text, state=state).entities}


def test_a_name_ends_at_the_line_break(extractor):
    entities = read(extractor, "Thanks,\nDilan Amedi\nReply above this line to answer.")
    assert "Dilan Amedi" in entities
    assert not any("\n" in name or "Reply" in name for name in entities)


def test_no_bullet_or_opening_verb_is_part_of_a_name(extractor):
    entities = read(extractor, "• Discussed the renewal with Tomasz Wierzbicki.\n"
                               "Chasing Rói Joensen for the signed invoice.")  # fmt: skip
    assert "Rói Joensen" in entities and entities["Rói Joensen"].type == "Person"
    assert not any(name.startswith(("Chasing", "•")) for name in entities)


def test_a_note_verb_is_no_part_of_a_name_the_model_typed_a_thing(extractor):
    entities = read(extractor, "QBR prep - Met Zofia Kaczmarek today. Kaczmarek works for "
                               "Oldhaven Marine. PS Kaczmarek does golf on wknds.")  # fmt: skip
    assert entities["Zofia Kaczmarek"].type == "Person", entities
    assert not any(name.startswith("Met ") for name in entities)


def test_a_given_name_that_opens_a_line_is_kept(extractor):
    entities = read(extractor, "Grace Hopper joined the review. Will Smith called later.")
    assert {"Grace Hopper", "Will Smith"} <= set(entities)


def test_initials_name_the_person_the_note_named(extractor):
    entities = read(extractor, "Minutes: attendees Ruxandra Voiculescu, Kavitha Selvaraj. "
                               "Action items: RV to chase legal on the redlines.")  # fmt: skip
    ruxandra = entities["Ruxandra Voiculescu"]
    assert "RV" in ruxandra.aliases
    assert [m.surface for m in ruxandra.mentions] == ["Ruxandra Voiculescu", "RV"]
    assert "RV" not in entities


def test_a_role_is_read_on_the_names_own_line(extractor):
    entities = read(extractor, "Handover notes for cover, 12 Nov\n"
                               "- Kavitha Selvaraj, a site reliability engineer.")  # fmt: skip
    assert entities["Kavitha Selvaraj"].learned["role"].endswith("engineer")


def test_initials_where_a_firm_may_stand_stay_apart(extractor):
    entities = read(extractor, "Maria Lindqvist, a geologist from Utrecht, joined ML last spring.")
    assert [m.surface for m in entities["Maria Lindqvist"].mentions] == ["Maria Lindqvist"]


def test_initials_defined_after_the_name_are_the_persons(extractor):
    entities = read(extractor, "Attendees: Kavitha Selvaraj, Lwazi Mabandla (LM), the agent.")
    assert "LM" in entities["Lwazi Mabandla"].aliases


def test_a_firms_first_word_later_in_the_note_is_the_firm(extractor):
    entities = read(extractor, "Handover, Tupana Bio Ltda. (1 Aug)\n"
                               "- Tupana holds our plant extracts contract, out of Manaus.")  # fmt: skip
    firm = next(e for e in entities.values() if e.name.startswith("Tupana Bio"))
    assert firm.type == "Organization" and "Tupana" in [m.surface for m in firm.mentions]
    assert "Tupana" not in entities


def test_a_role_after_a_list_of_names_is_nobodys(extractor):
    entities = read(extractor, "Attendees: Kavitha Selvaraj, Lwazi Mabandla (LM), the agent.")
    assert "role" not in entities["Kavitha Selvaraj"].learned
    # On a roll of attendees "the night-shift lead" is one more attendee, not her job (the
    # minutes' own wording: her job, said elsewhere, conflicted with it and split her).
    alone = read(extractor, "Present: Kavitha Selvaraj, the night-shift lead")
    assert "role" not in alone["Kavitha Selvaraj"].learned
    titled = read(extractor, "Present: Dr. Sabbagh (IT director), Ana Duarte")
    assert titled["Sabbagh"].learned["role"] == "it director"


def test_a_name_typed_a_product_that_writes_is_a_person(extractor):
    entities = read(extractor, "On wk 22, Aroha Paewai wrote:")
    assert entities["Aroha Paewai"].type == "Person"
    firm = read(extractor, "On Monday, Vantor Logistics wrote back about the quote.")
    assert all(e.type != "Person" for e in firm.values())


def test_a_name_is_never_half_a_hyphenated_word(extractor):
    entities = read(extractor, "Met Mei-Ling Tsao from Hewlett-Packard in Cluj-Napoca.")
    assert {"Mei-Ling Tsao", "Cluj-Napoca"} <= set(entities)
    assert not {"Ling Tsao", "Napoca", "Ling"} & set(entities)
    lower = read(extractor, "She is an ex-Google engineer, a Paris-based one.")
    assert not any("-" in name for name in lower)


def test_a_first_name_typed_a_place_is_the_person_named_before(extractor):
    entities = read(extractor, "Attendees — Chidubem Okonkwo, someone from finance\n"
                               "• Chidubem Okonkwo (plant chemist) spoke for their side.\n"
                               "Action items:\n- Chidubem to send the figures by Friday.")  # fmt: skip
    assert "Chidubem" in entities["Chidubem Okonkwo"].aliases
    assert "Chidubem" not in entities


def test_a_first_name_that_is_a_known_place_stays_a_place(extractor):
    entities = read(extractor, "Georgia Whitfield joined the call. She grew up in Georgia.")
    assert "Georgia" not in entities["Georgia Whitfield"].aliases
    assert entities["Georgia"].type == "Location"


def test_a_bracket_left_open_ends_a_name(extractor):
    entities = read(extractor, "• Item 3: Dravik (Tallinn), contract up for renewal.")
    assert "Dravik" in entities and not any("(" in name for name in entities)
    assert entities["Tallinn"].type == "Location"


def test_headings_and_quarters_name_nothing(extractor):
    entities = read(extractor, "Subj: Q2 numbers\nMinutes (May 4), board: present: "
                               "Ilse Vandermeer, Tomás Reyes.\nAttendees: the agent.")  # fmt: skip
    assert set(entities) == {"Ilse Vandermeer", "Tomás Reyes"}


def test_a_name_ends_before_the_lower_case_words_and_the_birth_year_run_into_it(extractor):
    # The model ran these into the names: each was an entity of its own, apart from its thing.
    entities = read(extractor, "Acct update: Quick sync w/ Haruka Tsukimoto (regional sales "
                               "director). Tsukimoto: Quillo 4 renewal due. Rami Azzouni = COO.")  # fmt: skip
    assert "Quillo 4" in entities and "Quillo 4 renewal due" not in entities, entities
    entities = read(extractor, "Inês Valadares b. 1976 joined Velamar.")
    assert "Inês Valadares" in entities, entities


def test_a_notes_weekday_and_its_user_name_nothing(extractor):
    # Each was an entity in every note that dated itself or quoted the user, and a pending pair
    # with the last note's ("Thu" = "Thu", "User" = "User").
    entities = read(extractor, "Standup notes, Thu 25 Feb: Notes on Nordhavn Fintech. User "
                               "said Ilze Kalnina replied. Conversation (Mon): User's cousin "
                               "Ayu Setiawati is visiting.")  # fmt: skip
    assert not {"Thu", "Mon", "User"} & set(entities), entities
    assert {"Ilze Kalnina", "Ayu Setiawati"} <= set(entities), entities


def test_a_full_name_misspelt_in_the_same_note_is_the_same_person(extractor):
    entities = read(extractor, "Present: Thandiwe Nkosi, Pieter Mulder.\n"
                               "- Thandiwe Nkosii (site chemist) raised the budget question.")  # fmt: skip
    # The model types the first an Object, the second a Person: one person.
    thandiwe = entities["Thandiwe Nkosi"]
    assert thandiwe.type == "Person" and thandiwe.aliases == ("Thandiwe Nkosii",)
    # Two known first names are two people, however alike the rest.
    apart = read(extractor, "Maria Lopez called. Mario Lopez did not.")
    assert {"Maria Lopez", "Mario Lopez"} <= set(apart)


def test_a_name_before_a_colon_is_kept_and_a_dotted_legal_form_makes_a_firm(extractor):
    entities = read(extractor, "- thread about Quellara S.A.C.: mining services, since 2007.\n"
                               "Notes on Brisvane Fintech: payments.\n"
                               "Open Points: send the deck.")  # fmt: skip
    assert entities["Quellara S.A.C."].type == "Organization"
    assert entities["Brisvane Fintech"].type == "Organization"
    assert set(entities) == {"Quellara S.A.C.", "Brisvane Fintech"}  # a label opening a line


def test_a_bullet_line_is_its_own_sentence_and_a_label_before_a_name_is_no_job(extractor):
    # The small model parsed a bullet into the line above: the attendee listed there took the
    # bullet's city, and the labels "attendees -", "HR sheet:", "New face:" were read as jobs.
    entities = read(extractor, "steering group sync - minutes\n"
                               "attendees - Thanakorn Boonmee (TB), Folarin Oyebanji, someone from legal\n"
                               "• Boonmee joined — fleet manager, dialling in from Chiang Mai.")  # fmt: skip
    assert "city" not in entities["Folarin Oyebanji"].learned, entities["Folarin Oyebanji"].learned
    assert entities["Folarin Oyebanji"].description == "someone from legal"
    assert entities["Thanakorn Boonmee"].learned.get("role") == "fleet manager"
    sheet = read(extractor, "Thanakorn Boonmee owns the account — category manager, works "
                            "from Almaty. HR sheet: Boonmee, born 1971.")  # fmt: skip
    assert sheet["Thanakorn Boonmee"].learned.get("role") == "category manager"
    face = read(extractor, "Attendees: Folarin Oyebanji, two from finance\n"
                           "1. New face: Folarin, a people partner out of Rosario.")  # fmt: skip
    assert face["Folarin Oyebanji"].learned.get("role") != "face"
    assert face["Folarin Oyebanji"].description == "two from finance"


def test_a_legal_form_makes_the_capitalised_words_before_it_one_firm(extractor):
    # The small model read 'Atlasia' a place and 'Textiles' a thing: neither met the firm again.
    entities = read(extractor, "Atlasia Textiles SARL released the Vexa-8 in 2020.\n"
                               "Met Brennholt Messtechnik GmbH at the fair.")  # fmt: skip
    assert entities["Atlasia Textiles SARL"].type == "Organization", entities
    assert entities["Brennholt Messtechnik GmbH"].type == "Organization", entities
    assert not {"Atlasia", "Textiles", "Met Brennholt Messtechnik"} & set(entities)
    # A form cleanco does not list, and a firm whose name NER read as a person's.
    forms = read(extractor, "Vardan Tech CJSC makes the Belto 3. Talked to Zubrava LLC in Lviv.")
    assert forms["Vardan Tech CJSC"].type == "Organization", forms
    assert forms["Zubrava LLC"].type == "Organization", forms
    assert not {"CJSC", "Zubrava"} & set(forms), forms


def test_wed_is_a_weekday_and_a_lower_case_word_names_nothing(extractor):
    # The tokenizer read "Wed" as "we'd" (an entity 'We'); NER typed "crochet" a person.
    entities = read(extractor, "Standup notes, Wed 3 Sep: Shirin Farahmandi — marketing lead.\n"
                               "side note: crochet (ask Ayu about it).")  # fmt: skip
    assert set(entities) == {"Shirin Farahmandi", "Ayu"}, entities


def test_a_given_name_alone_the_model_missed_is_a_person_unless_a_place_stands_there(extractor):
    # 'Taras' was typed a thing, and met the namesakes' full names only as a thing would.
    entities = read(extractor, "Q: who is Taras? A: their tennis partner, based in Kuching.")
    assert entities["Taras"].type == "Person", entities
    assert read(extractor, "Flew to Taras on Monday.").get("Taras", None) is None or (
        read(extractor, "Flew to Taras on Monday.")["Taras"].type != "Person"
    )


def test_a_word_and_its_number_is_a_product_and_a_notes_shortened_verbs_name_nothing(extractor):
    entities = read(extractor, "Zelenka Motors released the Presk 7 in 2023. Bday list: Lukas "
                               "Oberwinkler, b. 1984. Intro'd to Obinna Ezeudu.")  # fmt: skip
    assert entities["Presk 7"].type == "Object", entities  # NER read a firm
    assert not {"Bday", "Intro'd"} & set(entities), entities


def test_a_surname_of_several_words_typed_a_place_is_the_person_and_a_month_names_nothing(
    extractor,
):
    # minutes seed 1: "Te Awhitu" (after "Rangi Te Awhitu") was a place, and the next name's
    # city; "the agent" (who writes the note) was a job, "January" a thing.
    entities = read(extractor, "Mins, onboarding meeting January 19:\n"
                               "1. Rangi Te Awhitu, the agent, raised the budget question.\n"
                               "2. Te Awhitu brought Yonatan, a project engineer.")  # fmt: skip
    assert set(entities) == {"Rangi Te Awhitu", "Yonatan"}, entities
    assert "city" not in entities["Yonatan"].learned
    assert "role" not in entities["Rangi Te Awhitu"].learned


def test_a_name_written_surname_first_is_one_person_with_their_ties(extractor):
    entities = read(extractor, "- Lindqvist, Maja, based in Gothenburg: on leave until Monday\n"
                               "- account manager Haugen, Tobias from Brekkefjord: no update")  # fmt: skip
    maja, tobias = entities["Maja Lindqvist"], entities["Tobias Haugen"]
    assert maja.type == tobias.type == "Person"
    assert maja.learned.get("city") == "Gothenburg"
    assert tobias.learned.get("employer") == "Brekkefjord"
    assert tobias.learned.get("role") == "account manager"
    assert not {"Lindqvist", "Maja", "Haugen", "Tobias"} & set(entities)


def test_a_comma_between_two_people_or_after_a_word_joins_no_name(extractor):
    entities = read(extractor, "Thanks, Maria. Met Trinh, Novak and Obi in Lyon, France. "
                               "On 9 Dec, Tsao wrote back; Ferreira, Mon 3 Feb. "
                               "Okafor, Lindqvist: both on leave.")  # fmt: skip
    assert not any("," in name or " " in name for name in entities), entities
    assert "Maria" in entities


def test_an_initial_and_a_surname_is_a_person(extractor):
    entities = read(extractor, "- K. Østergaard (data engineer) pushed the hotfix\n"
                               "- ping N. Obradović re the invoice")  # fmt: skip
    assert entities["K. Østergaard"].type == "Person"
    assert entities["K. Østergaard"].learned.get("role") == "data engineer"
    assert entities["N. Obradović"].type == "Person"


def test_a_bullet_of_another_script_is_no_part_of_a_name(extractor):
    entities = read(extractor, "Δ Vellacourt Shipping Oy renewed the contract\n"
                               "Δ Quillon 7 shipped late again")  # fmt: skip
    assert "Vellacourt Shipping Oy" in entities
    assert not any(name.startswith("Δ") for name in entities)


def test_a_place_of_work_or_a_negated_phrase_is_no_job(extractor):
    entities = read(extractor, "- Tobias Haugen (Gothenburg office) is out on Friday\n"
                               "- account manager Kavitha Selvaraj: no update")  # fmt: skip
    assert "role" not in entities["Tobias Haugen"].learned, entities["Tobias Haugen"].learned
    assert entities["Kavitha Selvaraj"].learned.get("role") == "account manager"


def test_a_legal_form_with_its_stop_ends_the_sentence(extractor):
    # "GmbH." kept its stop and ended no sentence: the parse hung the firm on the next
    # sentence's subject, who took both firms as employers, and the one who works there none.
    entities = read(extractor, "Tomasz Nowak works for Kestrel Labs GmbH. Ruth Bader joined "
                               "Ana Ruiz LLC.")  # fmt: skip
    assert entities["Tomasz Nowak"].learned.get("employer") == "Kestrel Labs GmbH."
    assert entities["Ruth Bader"].learned.get("employer") == "Ana Ruiz LLC"
    # Two legal forms in a row are one firm's, within one sentence.
    entities = read(extractor, "Mia Holt joined Kestrel Co. Ltd. in May.")
    assert entities["Mia Holt"].learned.get("employer") == "Kestrel Co. Ltd."
