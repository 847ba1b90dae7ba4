"""Known first names (gender-guesser's list of about 40,000, offline): evidence that a name
is a person's, and which pronoun ("she", "he") it takes."""

from __future__ import annotations

import re
import threading
from functools import lru_cache

from unidecode import unidecode

GIVEN = {"male", "female", "mostly_male", "mostly_female"}
_WORD = re.compile(r"^[^\W\d_][^\W\d_'-]+$")  # any script's letters: 'Inês', 'Vojtěch'
_lock = threading.Lock()


@lru_cache(maxsize=1)
def _detector():
    import gender_guesser.detector as gender

    with _lock:
        return gender.Detector(case_sensitive=False)


@lru_cache(maxsize=4096)
def given_name_gender(word: str) -> str | None:
    """'female' or 'male' when `word` is a known first name (mostly one or the other), else None."""
    if not _WORD.match(word) or not word[0].isupper() or not word[1:].islower():
        return None
    found = _detector().get_gender(word)
    if found not in GIVEN:  # the list writes most names without their accents: 'Vojtech'
        found = _detector().get_gender(unidecode(word))
    if found not in GIVEN:  # and some only with them: 'Joaquín', 'Tõnis' as typed or heard
        found = _unaccented().get(unidecode(word).casefold(), "")
    return found.removeprefix("mostly_") if found in GIVEN else None


@lru_cache(maxsize=1)
def _unaccented() -> dict[str, str]:
    """The list's accented names by their plain form ('joaquin' -> 'male'), where the plain
    form is no name of its own and the accented forms agree."""
    detector, found = _detector(), {}
    for name in detector.names:
        plain = unidecode(name).casefold()
        if plain != name and plain not in detector.names:
            gender = detector.get_gender(name.title())
            found[plain] = gender if found.get(plain, gender) == gender else ""
    return found


def opens_with_given_name(name: str) -> bool:
    words = name.split()
    return bool(words) and given_name_gender(words[0]) is not None
