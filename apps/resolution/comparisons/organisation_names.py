"""Names of organisations and other things: legal forms normalised (`cleanco`: 'Acme Inc.' is
'ACME'), an acronym against its expansion ('IBM', 'International Business Machines')."""

from __future__ import annotations

import functools

import jellyfish
from cleanco import basename
from rapidfuzz import fuzz
from unidecode import unidecode
from wordfreq import zipf_frequency

from apps.resolution.comparisons import Compared
from apps.resolution.comparisons.text_forms import comparable

CLOSE_JW = 0.92
SIMILAR_RATIO = 85
_MORE_FORMS = {"pbc", "spc", "cic", "bv", "nv", "oy", "ab", "as", "sarl", "srl", "spa", "sac",
               "saa", "cjsc", "ojsc", "pjsc", "jsc"}  # fmt: skip
# Trades that end a firm's name ("Silverfin Foods", "Vantor Logistics"): no person's surname
# is one of these plural or sector nouns.
TRADE_WORDS = {"foods", "robotics", "analytics", "logistics", "energy", "optics", "materials",
               "biomedical", "systems", "technologies", "labs", "laboratories", "pharma",
               "pharmaceuticals", "industries", "solutions", "software", "ventures", "motors",
               "airlines", "media", "networks", "dynamics", "therapeutics", "biosciences",
               "semiconductors", "electronics", "textiles", "chemicals", "engineering",
               "consulting", "insurance", "airways", "shipping", "freight", "mining",
               "agri", "agritech", "fintech", "biotech", "devices", "instruments", "digital",
               "thermal", "print", "printing", "aerial", "aerospace", "aviation", "automotive",
               "marine", "medical", "health", "healthcare", "retail", "trading", "telecom",
               "security", "power", "renewables", "solar", "minerals", "metals", "plastics",
               "packaging", "apparel", "beverages", "brewing", "construction", "design",
               "studios", "games", "farms", "cloud", "data", "capital", "interactive",
               "manufacturing", "machinery", "tools", "supplies", "services", "industrial",
               "water", "bio", "electric", "chemical", "utilities", "transport"}  # fmt: skip
_GLUE = {"of", "and", "the", "for", "de", "du", "der", "und", "la", "le", "y", "et"}


@functools.lru_cache(maxsize=20000)
def legal_base(name: str) -> str:
    """The name without its legal form(s): 'Acme Holdings, Inc.' -> 'acme holdings'."""
    text = unidecode(name)
    base = comparable(basename(basename(text))) or comparable(text)
    words = base.split()
    letters = len(words)
    while letters > 1 and len(words[letters - 1]) == 1:
        letters -= 1
    if len(words) - letters >= 2 and "".join(words[letters:]) in _MORE_FORMS:
        words = words[:letters]  # "S.A.C.": a form written in dotted letters
    while len(words) > 1 and words[-1] in _MORE_FORMS:  # forms cleanco does not know
        words.pop()
    return " ".join(words)


def acronym(name: str) -> str:
    words = [w for w in legal_base(name).split() if w not in _GLUE]
    return "".join(w[0] for w in words) if len(words) >= 2 else ""


def _is_acronym_of(short: str, long: str) -> bool:
    token = comparable(short).replace(" ", "")
    return 2 <= len(token) <= 8 and " " not in comparable(short) and token == acronym(long)


def compare_organisation_name(a: str, b: str, *, legal_forms: bool = True) -> Compared:
    ca, cb = comparable(a), comparable(b)
    if ca and ca == cb:
        return Compared("name", "exact", f"'{a}' = '{b}'")
    if legal_forms:
        ba, bb = legal_base(a), legal_base(b)
        if ba and ba == bb:
            return Compared("name", "variant", f"'{a}' and '{b}' differ only in the legal form")
        if _is_acronym_of(a, b) or _is_acronym_of(b, a):
            return Compared("name", "variant", f"'{a}' / '{b}': an acronym and its expansion")
        if short_name_of(a, b) or short_name_of(b, a):
            short, full = (a, b) if short_name_of(a, b) else (b, a)
            return Compared("name", "variant", f"'{short}' is the first word of '{full}'")
    else:
        ba, bb = ca, cb
        if sorted(ca.split()) == sorted(cb.split()):
            return Compared("name", "variant", f"'{a}' and '{b}': the same words in another order")
    jw = jellyfish.jaro_winkler_similarity(ba, bb)
    if jw >= CLOSE_JW:
        return Compared("name", "close", f"'{a}' ~ '{b}' (Jaro-Winkler {jw:.2f})")
    ratio = fuzz.token_set_ratio(ba, bb)
    if ratio >= SIMILAR_RATIO:
        return Compared("name", "similar", f"'{a}' resembles '{b}' (tokens {ratio:.0f}%)")
    return Compared("name", "different", f"'{a}' and '{b}' are different names")


SHORT_NAME_LETTERS = 4
_COMMON_ZIPF = 4.0  # wordfreq's scale: 'apple' 4.9, 'summit' 4.2; 'pellucid' 1.9


@functools.lru_cache(maxsize=20000)
def short_name_of(short: str, full: str) -> bool:
    """Whether `short` is one word that opens `full`'s name of two or three words with a legal
    form or ending in a trade ('Pellucid' of 'Pellucid Labs Ltd', 'Cindral' of 'Cindral
    Thermal'): how notes shorten a firm. A common word ('Summit', 'Apple') is many firms'
    first word."""
    word, base = comparable(short), legal_base(full)
    words = base.split()
    return (" " not in word and len(word) >= SHORT_NAME_LETTERS and 2 <= len(words) <= 3
            and words[0] == word and (base != comparable(full) or trade_named(full))
            and zipf_frequency(word, "en") < _COMMON_ZIPF)  # fmt: skip


def trade_named(name: str) -> bool:
    """A firm's name of two or more words ending in a trade ('Tellurion Systems'): a name a
    firm chose to be told apart by, unlike a lone word ('Tellurion')."""
    words = legal_base(name).split()
    return len(words) >= 2 and words[-1] in TRADE_WORDS
