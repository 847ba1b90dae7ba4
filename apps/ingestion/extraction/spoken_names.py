"""People's names as a speech recogniser writes them ("hi it's marcus ellery, i'm the ..."):
lowercase, which the small NER model reads as nouns. A known given name followed by a word
English rarely uses ("kenji matsuura", "pieter de wolf"), or two rare words a speaker gives
as their name ("this is wanjiru kamau"), are capitalised before the parse, and so is the
pronoun 'i', every offset unchanged, so the parse reads the note as a typed one."""

from __future__ import annotations

import re
from functools import lru_cache

from wordfreq import zipf_frequency

from apps.ingestion.extraction.place_names import is_city, placed_here
from apps.ingestion.given_names import given_name_gender

# wordfreq's scale: 'marcus' 4.1, 'tariq' 3.1; 'mark' 5.2, 'will' 6.4 (words before names)
GIVEN_MAX_ZIPF = 4.5
# 'ellery' 2.6, 'brennan' 3.7, 'garcia' 3.9; what follows a given name in speech is commoner
# ('said' 6.0, 'here' 6.0) or a verb's past ('emailed' 3.5, 'rang' 3.7), told apart below
SURNAME_MAX_ZIPF = 4.0
RARE_ZIPF = 3.5  # two words this rare a speaker gives as their name: 'kamau' 2.1, 'zhou' 3.4
# A city said after 'in', 'from' ('turin' 3.3, 'bristol' 4.0), not one that is a common word
# ('reading' 5.1, 'nice' 5.4, 'mobile' 4.9)
CITY_MAX_ZIPF = 4.3
FILLERS = frozenset("um uh erm er hmm mm ah uhm mhm".split())
PARTICLES = frozenset("de van von der den da di du la le al el bin ter".split())
_PRONOUN = re.compile(r"(?<![\w(.'-])i(?=['’](?:m|ve|ll|d)\b|\s)")  # not "(i)", "i.e."
# How a speaker gives their name ("my name is ...", "it's ...", "... here", "... speaking"),
# read here and by pronoun_mentions (who a labelled turn's speaker is).
INTRO_WORDS = r"\b(?:my name is|name's|this is|it's|it is|i'm|i am)"
INTRO_AFTER = re.compile(r"\W{0,2}(?:here|speaking|calling)\b", re.I)
_INTRO_CUE = re.compile(INTRO_WORDS + r"\W+(?:(?:um|uh|erm|er)\W+)?$", re.I)
_WORD = re.compile(r"[^\W\d_](?:[^\W\d_]|['-](?=[^\W\d_]))*")  # 'al-mansouri', "o'neill"


def speech_cased(text: str, past: frozenset[str] = frozenset()) -> str:
    """`text` with each lowercase given name + surname capitalised (the particles between
    stay lowercase), each large city said where a place stands, and the pronoun 'i'; a text
    without any comes back as it was. `past`: verbs' irregular past forms ('rang')."""
    return spoken_people(text, past)[0]


@lru_cache(maxsize=64)  # parse_window, then extract, case one chunk's text
def spoken_people(text: str, past: frozenset[str] = frozenset()) -> tuple[str, tuple]:
    """`speech_cased(text)`, and the (start, end) of each person's name it capitalised: a
    person's, whatever type the model gives it ("my name is wanjiru kamau" reads as a firm)."""
    words = list(_WORD.finditer(text))
    chars = list(text)
    for pronoun in _PRONOUN.finditer(text):
        chars[pronoun.start()] = "I"
    people = []
    for first, last in _name_words(text, words, past):
        people.append((words[first].start(), words[last].end()))
        for word in (words[first], words[last]):
            _capitalised(chars, word)
    for first, last in _city_words(text, words):
        for word in words[first : last + 1]:
            _capitalised(chars, word)
    return "".join(chars), tuple(people)


def _capitalised(chars: list[str], word) -> None:
    chars[word.start()] = word.group()[0].upper()
    for hyphen in re.finditer(r"-(\w)", word.group()):  # 'al-mansouri' -> 'Al-Mansouri'
        chars[word.start() + hyphen.start(1)] = hyphen.group(1).upper()


def _city_words(text: str, words: list) -> list[tuple[int, int]]:
    """Lowercase runs of one or two words that name a large city (GeoNames) where the words
    around say a place stands ("i'm out in bergen", "calling from cape town")."""
    found, i = [], 0
    while i < len(words):
        for end in (i + 1, i):
            if end >= len(words) or not all(w.group().islower() for w in words[i : end + 1]):
                continue
            said = text[words[i].start() : words[end].end()]
            if (
                (" " in said or zipf_frequency(said, "en") < CITY_MAX_ZIPF)
                and is_city(said.title())
                and placed_here(text, words[i].start(), words[end].end())
            ):
                found.append((i, end))
                i = end
                break
        i += 1
    return found


def _name_words(text: str, words: list, past: frozenset[str]) -> list[tuple[int, int]]:
    """The first and last word's indexes of each lowercase name: a known given name and the surname after
    it, or two rare words a speaker gives as their name ("this is wanjiru kamau", "emeka
    chukwuma here"), whether or not the table knows the given name."""
    found, i = [], 0
    while i < len(words) - 1:
        end = _surname_end(text, words, i, past)
        if end is None and _rare(words[i]) and _rare(words[i + 1]) and _spaced(text, words, i + 1):
            after = text[words[i + 1].end() : words[i + 1].end() + 12]
            introduced = _INTRO_CUE.search(text, max(0, words[i].start() - 24), words[i].start())
            end = i + 1 if introduced or INTRO_AFTER.match(after) else None
        if end is None:
            i += 1
            continue
        found.append((i, end))
        i = end + 1
    return found


def _rare(word) -> bool:
    said = word.group()
    return (said.islower() and len(said) > 1 and said not in FILLERS
            and zipf_frequency(said, "en") < RARE_ZIPF)  # fmt: skip


def _surname_end(text: str, words: list, i: int, past: frozenset[str]) -> int | None:
    """The index of the surname that follows a lowercase given name at `i`, if one does."""
    given = words[i].group()
    if not given.islower() or zipf_frequency(given, "en") >= GIVEN_MAX_ZIPF:
        return None
    if not given_name_gender(given.capitalize()):
        return None
    j = i + 1
    while j < len(words) - 1 and words[j].group() in PARTICLES and _spaced(text, words, j):
        j += 1
    if not _spaced(text, words, j):
        return None
    surname = words[j].group()
    limit = 5.0 if j > i + 1 else SURNAME_MAX_ZIPF  # 'de wolf': a particle vouches for the word
    if not surname.islower() or len(surname) < 2 or zipf_frequency(surname, "en") >= limit:
        return None
    return None if surname in past or _verb_past(surname) else j


def _verb_past(word: str) -> bool:
    """'emailed', 'phoned': a common word with -ed ('ahmed' is no 'ahm' + -ed)."""
    return (
        word.endswith("ed")
        and max(zipf_frequency(word[:-2], "en"), zipf_frequency(word[:-1], "en")) >= RARE_ZIPF
    )


def _spaced(text: str, words: list, j: int) -> bool:
    """Word `j` follows word `j - 1` after a single space (not across a comma or a line)."""
    return text[words[j - 1].end() : words[j].start()] == " "
