"""Postal addresses, external ids and dates of birth in the forms people write them, found in one
sentence (text_evidence.values_in calls this for every sentence and description).

- address: what follows "lives at", "resides at", "address:", "located at" ... to the sentence's
  end, when it holds a digit or a comma (a street and a town, not "lives at home"). No address
  parser is used: libpostal needs a 2 GB model, and usaddress and pyap know only US, Canadian or
  British forms; the addresses agents send are compared word by word anyway
  (comparisons.addresses), so the phrase that introduces one is what has to be read.
- external ids: "social security number 1234567", "SSN: 123-45-6789", "passport number X1",
  "tax id", "employee number", "customer id" -> `id:<system>` (digits and letters, upper case).
- dates of birth: "born on 14 August 1945", "born August 14, 1945", "born 14/08/1945",
  "date of birth: 1945-08-14", "DOB 14.08.1945" -> ISO. A numeric date whose day and month could
  be swapped (both <= 12 and different) is left out: a wrong date would be a conflict.
"""

from __future__ import annotations

import datetime as dt
import re

MAX_ADDRESS_CHARS = 200
_ADDRESS = re.compile(
    r"\b(?:lives|living|resides|residing|located|based|reside|live)\s+at\s+(?P<a>[^;]+?)"
    r"(?=\.(?:\s|$)|;|$)|"
    r"\b(?:postal |home |street |mailing )?address(?:\s+is|\s*:)\s*(?P<b>[^;]+?)"
    r"(?=\.(?:\s|$)|;|$)",
    re.IGNORECASE,
)
_ID_SYSTEMS = {
    "soc_sec": r"social security(?: number| no\.?| id)?|ssn",
    "passport": r"passport(?: number| no\.?)?",
    "tax": r"tax(?:payer)? (?:id|number|file number)|tfn",
    "employee": r"employee (?:id|number|no\.?)",
    "customer": r"customer (?:id|number|no\.?)",
}
_IDS = [
    (system, re.compile(rf"\b(?:{words})\s*(?:is\s+|:\s*|#\s*)?(?P<id>[A-Z0-9][A-Z0-9-]{{3,19}})\b",
                        re.IGNORECASE))
    for system, words in _ID_SYSTEMS.items()
]  # fmt: skip
_MONTHS = {m: i for i, m in enumerate(
    ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], 1)}  # fmt: skip
_MONTH = r"(?P<mon>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_BIRTH = r"\b(?:born(?:\s+on)?|date of birth\s*:?|d\.?o\.?b\.?\s*:?|birth\s*date\s*:?)\s*"
_BIRTH_DATES = [
    re.compile(_BIRTH + r"(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})\b", re.IGNORECASE),
    re.compile(
        _BIRTH + r"(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+" + _MONTH + r",?\s+(?P<y>\d{4})\b",
        re.IGNORECASE,
    ),  # fmt: skip
    re.compile(
        _BIRTH + _MONTH + r"\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?,?\s+(?P<y>\d{4})\b", re.IGNORECASE
    ),  # fmt: skip
    re.compile(_BIRTH + r"(?P<d>\d{1,2})[/.](?P<m>\d{1,2})[/.](?P<y>\d{4})\b", re.IGNORECASE),
]


def address_values_in(sentence: str) -> list[tuple[str, str]]:
    """(key, value) of the addresses, external ids and dates of birth `sentence` writes."""
    found: list[tuple[str, str]] = []
    for match in _ADDRESS.finditer(sentence):
        address = (match.group("a") or match.group("b") or "").strip().rstrip(".,;) ")
        if re.search(r"\d|,", address) and len(address) <= MAX_ADDRESS_CHARS:
            found.append(("address", address))
            break
    for system, pattern in _IDS:
        for match in pattern.finditer(sentence):
            if any(ch.isdigit() for ch in match.group("id")):
                found.append((f"id:{system}", match.group("id").upper()))
                break
    born = birth_date_in(sentence)
    if born:
        found.append(("born", born))
    return found


def birth_date_in(sentence: str) -> str | None:
    """The first date of birth written in `sentence`, as ISO; None when none is, or when a
    numeric one could be read two ways."""
    for pattern in _BIRTH_DATES:
        match = pattern.search(sentence)
        if not match:
            continue
        parts = match.groupdict()
        month = _MONTHS[parts["mon"][:3].casefold()] if parts.get("mon") else int(parts["m"])
        day = int(parts["d"])
        if parts.get("m") and "-" not in match.group(0):
            if month > 12 >= day:  # 08/14/1945, the US order
                day, month = month, day
            elif day <= 12 and month <= 12 and day != month:
                return None  # 03/04/1950: March or April
        try:
            return dt.date(int(parts["y"]), month, day).isoformat()
        except ValueError:
            return None
    return None
