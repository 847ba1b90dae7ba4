"""Known first names (gender-guesser's list of about 40,000, offline): evidence that a name
is a person's, and which pronoun ("she", "he") it takes."""

from __future__ import annotations

import re
import threading
from functools import lru_cache

GIVEN = {"male", "female", "mostly_male", "mostly_female"}
_WORD = re.compile(r"^[A-Z][a-z'-]+$")
_lock = threading.Lock()


@lru_cache(maxsize=1)
def _detector():
    import gender_guesser.detector as gender

    with _lock:
        return gender.Detector(case_sensitive=False)


@lru_cache(maxsize=4096)
def given_name_gender(word: str) -> str | None:
    """'female' or 'male' when `word` is a known first name (mostly one or the other), else None."""
    if not _WORD.match(word):
        return None
    found = _detector().get_gender(word)
    return found.removeprefix("mostly_") if found in GIVEN else None


def opens_with_given_name(name: str) -> bool:
    words = name.split()
    return bool(words) and given_name_gender(words[0]) is not None
