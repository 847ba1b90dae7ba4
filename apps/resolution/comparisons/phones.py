"""Phone numbers, normalised (`phonenumbers`) to E.164 when they carry a country code, else
compared by their last nine digits (a local number against its international form)."""

from __future__ import annotations

import re

import phonenumbers

from apps.resolution.comparisons import MISSING, Compared

_LOCAL_DIGITS = 9


def phone_normal(value: object) -> str:
    text = str(value or "").strip()
    if not text:
        return ""
    try:
        number = phonenumbers.parse(text, None)
        return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)
    except phonenumbers.NumberParseException:
        return re.sub(r"\D", "", text)


def compare_phones(a: object, b: object) -> Compared:
    na, nb = phone_normal(a), phone_normal(b)
    if not na or not nb:
        return Compared("phone", MISSING)
    shown = f"phone {a} / {b}"
    if na == nb or na[-_LOCAL_DIGITS:] == nb[-_LOCAL_DIGITS:]:
        return Compared("phone", "exact", shown)
    return Compared("phone", "conflict", shown)
