"""What a call transcript says as a speech recogniser writes it (issue 46): names and the
pronoun in lowercase, a caller who says who they are, years said in words; through the real
spaCy model, and on the real graph."""

from apps.ingestion.extraction.spacy_ner import SpacyExtractor
from apps.ingestion.extraction.spoken_names import speech_cased
from apps.ingestion.working_memory import WorkingMemory
from apps.resolution.text_evidence import values_in
from tests.resolution.test_text_identity import receipts_of


def read(text: str) -> dict:
    found = SpacyExtractor.shared().extract(text, state=WorkingMemory())
    return {e.name: {**e.learned, "type": e.type} for e in found.entities}


def test_lowercase_names_and_cities_are_capitalised_and_common_words_are_not():
    assert speech_cased("hi it's wanjiru kamau, i'm in") == "hi it's Wanjiru Kamau, I'm in"
    assert speech_cased("my colleague joost van der berg") == "my colleague Joost van der Berg"
    assert speech_cased("tariq al-sayed here") == "Tariq Al-Sayed here"
    # A given name the table lacks, when the speaker gives it as their name.
    assert speech_cased("hiya, emeka obi here") == "hiya, Emeka Obi here"
    # A given name before a common word, or words that are names only sometimes, stay.
    for said in ("we will mark it done", "may i ask", "grace period", "kenji here, bye",
                 "see (i) and i.e. below"):  # fmt: skip
        assert speech_cased(said).lower() == said.lower() and "Mark" not in speech_cased(said)
    assert speech_cased("may i ask") == "may I ask"
    # A large city where a place stands, unless it is a common word.
    assert speech_cased("in bergen, from cape town") == "in Bergen, from Cape Town"
    assert speech_cased("we were reading in nice weather") == "we were reading in nice weather"


def test_a_callers_first_person_is_whoever_the_caller_says_they_are():
    found = read("Agent: support line, go ahead\n"
                 "Caller: hi um it's wanjiru kamau, about the invoice\n"
                 "Agent: and what do you do there\n"
                 "Caller: i'm the lab manager so it lands on my desk\n"
                 "Agent: thanks, bye")  # fmt: skip
    assert found["Wanjiru Kamau"]["role"] == "lab manager", found
    # A label no one introduced speaks for nobody: the colleague named is not the caller.
    found = read("Agent: hello\nCaller: my colleague wanjiru kamau asked me to call\n"
                 "Caller: i'm the lab manager")  # fmt: skip
    assert "role" not in found.get("Wanjiru Kamau", {}), found


def test_what_a_caller_answers_when_asked_who_they_are_is_theirs():
    found = read("Agent: support line\nCaller: hi, this is wanjiru kamau\n"
                 "Agent: and your job title?\nCaller: um a lab manager, yeah\n"
                 "Agent: and the city on the account\nCaller: we're in nairobi, yeah\n"
                 "Agent: year of birth please\nCaller: the first of may nineteen eighty one\n"
                 "Agent: and what do you do for fun\nCaller: bouldering mostly")  # fmt: skip
    caller = found["Wanjiru Kamau"]
    assert caller["role"] == "lab manager" and caller["born"] == "1981", found
    assert caller["city"] == "Nairobi", found
    # A question the same speaker goes on with, or an answer that is no job, gives nothing.
    found = read("Caller: hi, this is wanjiru kamau\nCaller: what's your role in this?\n"
                 "Caller: the invoice is wrong")  # fmt: skip
    assert "role" not in found["Wanjiru Kamau"], found


def test_a_voicemail_is_the_words_of_whoever_leaves_it():
    found = read("Voicemail (+44 20 7946 0321): hello, tobias wendt here, i work as a sous chef "
                 "at the harbour site, call me back, bye")  # fmt: skip
    assert found["Tobias Wendt"]["role"] == "sous chef", found
    assert "Voicemail" not in found or "role" not in found["Voicemail"], found


def test_years_said_in_words_are_read_as_years():
    assert values_in("Caller: born nineteen ninety six, yeah") == [("born", "1996")]
    assert values_in("Caller: I was born in seventy three") == [("born", "1973")]
    assert values_in("we've been going since two thousand and nine") == [("founded", "2009")]
    assert values_in("founded twenty twelve, in Leeds") == [("founded", "2012")]
    # Numbers that are no years stay numbers.
    assert values_in("born at twenty five past two") == []
    assert values_in("we shipped two thousand units") == []


def test_a_verbs_past_opening_a_line_is_no_part_of_the_name():
    found = read("Rang Ilse Brenner about the renewal.\nSaw Priya Raman at the expo.")
    assert {"Ilse Brenner", "Priya Raman"} <= set(found), found
    assert not any(name.startswith(("Rang", "Saw")) for name in found), found


def test_a_call_transcript_and_a_typed_note_about_one_caller_are_one_person(scope, api_client):
    """The caller says their name, job and birth year in lowercase words; a typed note says
    the same in digits: one person, without a reviewer."""
    texts = ["Agent: thanks for calling\nCaller: hiya, my name is wanjiru kamau\n"
             "Caller: i was born in nineteen eighty one\nCaller: i'm the lab manager there\n"
             "Agent: cheers, bye",
             "Wanjiru Kamau (lab manager, b. 1981) wants a second analyser quoted."]  # fmt: skip
    first, again = receipts_of(api_client, texts, "Wanjiru Kamau")
    assert again["action"] == "merged", again["reason"]
    assert again["entity_uid"] == first["entity_uid"], again
    assert "born" in again["reason"] and "role same" in again["reason"], again["reason"]


def test_a_pronoun_after_a_comma_is_the_person_its_clause_just_named():
    found = read("Caller: ewa nowicka handles all that, she's the install technician, "
                 "anneke bosman handles the rota, she's the production scheduler")  # fmt: skip
    assert found["Ewa Nowicka"]["role"] == "install technician", found
    assert found["Anneke Bosman"]["role"] == "production scheduler", found
    # A speaker's label in capitals has a given name too; two in reach and no comma between
    # the last and the pronoun: no one's, never the note's first person's.
    found = read("[00:25:34] ARVID SANDELL: Arvid Sandell. I work as a recruiter.\n"
                 "[00:31:47] ARVID SANDELL: Solveig Aasland runs that side; she's our chief "
                 "of staff.")  # fmt: skip
    assert found["ARVID SANDELL"]["role"] == "recruiter", found
    assert found["Solveig Aasland"]["role"] == "chief of staff", found
    found = read("Ana Ruiz called. Maria Lopez met Anna Berg; she is the head of sales.")
    assert not any("role" in v for v in found.values()), found
    # Two people in one clause: "she" may be either, so the job is no one's.
    found = read("Maria Lopez told Anna Berg she was promoted to head of sales.")
    assert "role" not in found["Maria Lopez"] and "role" not in found["Anna Berg"], found


def test_a_former_employer_is_read_as_where_the_person_worked_not_works():
    found = read("Call with Beatriz Salgado (ex-Tessaro Packaging): asked for the spec sheet.")
    assert found["Beatriz Salgado"].get("former_employer") == "Tessaro Packaging", found
    assert "employer" not in found["Beatriz Salgado"], found
    assert found["Tessaro Packaging"]["type"] == "Organization", found
    found = read("Caller: hi this is anneke bosman\nCaller: i used to be at Kestrova Foods")
    assert found["Anneke Bosman"] == {"former_employer": "Kestrova Foods", "type": "Person"}
    found = read("Lena Fischer left Brandvik Systems in 2019 and joined Ostara Foods.")
    assert found["Lena Fischer"]["employer"] == "Ostara Foods", found
    assert found["Lena Fischer"]["former_employer"] == "Brandvik Systems", found


def test_a_namesake_who_used_to_work_where_the_other_works_shares_no_context(scope, api_client):
    """The firm one Anneke Bosman left is the one the other works at: named beside both, it is
    no evidence that they are one person."""
    texts = ["Caller: hi this is anneke bosman\nCaller: i used to be at Kestrova Foods\n"
             "Caller: i'm the head of facilities now, in halifax",
             "Kestrova Foods called about an unpaid invoice. Anneke Bosman handles the account."]  # fmt: skip
    first, again = receipts_of(api_client, texts, "Anneke Bosman")
    assert again["entity_uid"] != first["entity_uid"], again  # merged: 'unchanged' in it
    assert again["action"] == "pending", again  # the name alone: a reviewer's
    assert "Kestrova" not in again["reason"], again["reason"]


def test_a_model_number_said_in_words_is_the_product_with_its_digits():
    found = read("Caller: hi it's about the brisa eight, it won't power on\n"
                 "Caller: it's a oyelaran one, the brisa, we have two")  # fmt: skip
    assert found.get("brisa 8", {}).get("type") == "Object", found
    assert not any(name.endswith(" 1") for name in found), found  # "a oyelaran one"
    found = read("Agent: and the model?\nCaller: the Arvo seven, it froze")
    assert found.get("Arvo 7", {}).get("type") == "Object", found
    assert "Anna 2" not in read("I met Anna Berg two days ago, Anna two weeks back"), found
    # Numbers up to ninety-nine, and a capital letter after 'the'; an error code is no product.
    found = read("Caller: the fenra forty-two froze, error forty one, and the Z twenty seven too")
    assert {"fenra 42", "Z 27"} <= set(found) and "error 41" not in found, found
    found = read("voicemail: hi it's about the arvo thirteen, from nineteen ninety")
    assert [(n.lower(), e["type"]) for n, e in found.items()] == [("arvo 13", "Object")], found


def test_a_caller_who_gives_their_name_when_asked_says_the_rest_of_themselves():
    found = read("Agent: Good morning, you're through to support\n"
                 "Caller: My title's finance controller but honestly I do everything\n"
                 "Agent: Can I just get a name for the notes\n"
                 "Caller: Noor Haddad, sorry\nAgent: bye")  # fmt: skip
    assert found["Noor Haddad"].get("role") == "finance controller", found
    # A speaker's label over her own name is no job of hers.
    found = read("Noor: noor\nMe: and your job title?\nNoor: finance controller")
    assert found["Noor"].get("role") == "finance controller", found
    # "she's a purchasing assistant", with 'purchasing' read as a verb, is still her job.
    found = read("Caller: astrid lindqvist has a couple, she's a purchasing assistant\n")
    assert found["Astrid Lindqvist"].get("role") == "purchasing assistant", found


def test_what_opens_or_labels_a_line_is_no_part_of_a_name():
    found = read("Contact update: Colleague Pieter de Wolf (head of facilities) to be copied "
                 "in. Colleague Tariq Al-Mansouri (head of customer support) too.")  # fmt: skip
    assert found["Pieter de Wolf"] == {"role": "head of facilities", "type": "Person"}, found
    assert found["Tariq Al-Mansouri"]["role"] == "head of customer support", found
    found = read("Voicemail (+44 20 7946 0321): hi, tobias wendt here, call me back")
    assert "Voicemail" not in found and "Tobias Wendt" in found, found
    found = read("Agent: And who am I speaking to\nCaller: It's Tomasz, Tomasz Wielgosz")
    assert found["Tomasz Wielgosz"]["type"] == "Person", found
    assert not any("," in name for name in found), found


def test_a_caller_who_says_their_given_name_then_their_full_name_is_one_speaker():
    found = read("Caller: Hey it's Fatima, Fatima Bennani, there's a problem with the invoice\n"
                 "Support: And the city on the account?\nCaller: Monterrey\n"
                 "Caller: I'm a plant manager over at Kaimaro")  # fmt: skip
    assert "Fatima" not in found, found  # the given name first is the full name's
    caller = found["Fatima Bennani"]
    assert caller["role"] == "plant manager" and caller["city"] == "Monterrey", found
    assert found["Monterrey"]["type"] == "Location", found
    found = read("Who: Fatima Bennani\nLocation: Monterrey\nNext: book a demo")
    assert found["Monterrey"]["type"] == "Location", found


def test_what_a_recogniser_writes_without_accents_or_capitals_is_still_read():
    # A given name heard without its accent is the table's accented one, and the label over a
    # turn, written with it, is the person the recogniser named without.
    found = read("Samir: hi samir here and i've got elodie marchand with me\n"
                 "Élodie: hello, yeah, office manager here\n"
                 "Caller: joaquin ferraro runs one")  # fmt: skip
    assert found["Elodie Marchand"].get("role") == "office manager", found
    assert "Élodie" not in found and "Joaquin Ferraro" in found, found
    # A surname with its accent, typed a firm, is still the person named in full before it.
    found = read("Re: Glenrock Print Ltd, talked to Tiago Bragança (CTO). Don't forget "
                 "Bragança loves road cycling.")  # fmt: skip
    assert "Bragança" not in found and found["Tiago Bragança"]["role"] == "cto", found
    # Common words the model typed a person, in a note all in lower case, are no one.
    found = read("new voicemail, 0161 496 0070: hi it's about the zolta three, bye")
    assert set(found) == {"zolta 3"}, found


def test_a_call_logs_labels_and_party_words_are_nobodys_name():
    # A field labelled with a person's part holds a person, whatever the model typed it.
    found = read("Caller: Ama Owusu. He is in Lagos.")
    assert found["Ama Owusu"] == {"type": "Person", "city": "Lagos"}, found
    # A given name the tagger made a common noun stays with its surname.
    found = read("Caller: Tomasz Wielgosz. He is in Lagos.")
    assert found["Tomasz Wielgosz"]["city"] == "Lagos" and "Wielgosz" not in found, found
    # "Caller's" is the caller's, not a firm's; a firm's possessive stays a firm.
    found = read("Caller's Brisa-8 keeps beeping. Caller: Noor Haddad, from Lyon.")
    assert "Caller" not in found and "maker" not in found["Brisa-8"], found
    assert read("Amazon's Kindle broke.")["Amazon"]["type"] == "Organization"
    # "Colleague" before a name is no part of it, given name known or not.
    found = read("Colleague Ama Owusu, ops lead, to be copied in.")
    assert found == {"Ama Owusu": {"type": "Person", "role": "ops lead"}}, found
    # A firm's trade name after the label (a firm may call) keeps the model's type.
    assert (
        read("Customer: Corvane Analytics. Asked for a quote.")["Corvane Analytics"]["type"]
        == "Organization"
    )


def test_who_answers_the_phone_and_whom_a_caller_works_for_is_a_firm():
    assert read("Them: good afternoon Halvik, how can I help")["Halvik"]["type"] == "Organization"
    assert read("Them: hi you're through to Frostvik")["Frostvik"]["type"] == "Organization"
    found = read("Voicemail: hey it's noor haddad, it's for Polvani, that's who I work for, bye")
    assert found["Noor Haddad"]["employer"] == "Polvani", found
    assert found["Polvani"]["type"] == "Organization", found


def test_a_firm_named_by_its_first_word_before_its_full_name_is_that_firm():
    found = SpacyExtractor.shared().extract(
        "Caller: hiya, Frostvik here, accounts calling about an unpaid invoice\n"
        "Summary: Frostvik Cold Chain AB (refrigerated storage, est. 2017, Malmö).",
        state=WorkingMemory(),
    )
    firms = {e.name: [m.surface for m in e.mentions] for e in found.entities
             if e.type == "Organization"}  # fmt: skip
    assert firms == {"Frostvik Cold Chain AB": ["Frostvik", "Frostvik Cold Chain AB"]}, firms
