"""What each comparison of a scored pair added to or took from the match, in words a reviewer
reads ("same birth date: strong evidence for (+9.1)"), from the evidence stored on the pair.

The strength follows the weight (log2 of the odds factor): under 1 bit is weak, under 3.3 bits
(x10) is some, under 6.6 bits (x100) is strong, beyond is very strong.
"""

from __future__ import annotations

import re

from apps.resolution.match_model import FORBIDDING

# The slip a comparison names at the end of its detail: "born 1965-03-01 / 1956-03-01 (two
# adjacent digits swapped)".
_SLIP = re.compile(r"\(([^()]+)\)$")

PHRASES = {
    ("name", "exact"): "same name",
    ("name", "close"): "names nearly the same",
    ("name", "variant"): "name variants (nickname, initials or order)",
    ("name", "similar"): "names somewhat alike",
    ("name", "different"): "names differ",
    ("born", "exact"): "same {date}",
    ("born", "close"): "{date}s nearly the same{slip}",
    ("born", "conflict"): "{date}s differ",
    ("born", "year"): "same year of the {date}",
    ("born", "year_close"): "years of the {date} one digit apart",
    ("phone", "exact"): "same phone",
    ("phone", "conflict"): "phones differ",
    ("email", "exact"): "same email",
    ("email", "conflict"): "emails differ",
    ("domain", "exact"): "same web domain",
    ("domain", "conflict"): "web domains differ",
    ("external_id", "exact"): "same external id",
    ("external_id", "typo"): "external ids a typo apart{slip}",
    ("external_id", "conflict"): "external ids differ",
    ("address", "exact"): "same address",
    ("address", "close"): "addresses nearly the same",
    ("address", "similar"): "addresses partly alike",
    ("address", "different"): "addresses differ",
    ("description", "high"): "descriptions alike",
    ("description", "medium"): "descriptions somewhat alike",
    ("description", "low"): "descriptions little alike",
    ("description", "unrelated"): "descriptions unrelated",
}


def strength(weight: float) -> str:
    size = abs(weight)
    if size < 0.05:
        return "no evidence either way"
    word = ("weak" if size < 1 else "some" if size < 3.3 else "strong" if size < 6.6
            else "very strong")  # fmt: skip
    return f"{word} evidence {'for' if weight > 0 else 'against'}"


def evidence_words(comparison: str, level: str, weight: float, detail: str = "") -> str:
    """One comparison in a reviewer's words, with its weight in bits."""
    date = "founding date" if detail.startswith("founded") else "birth date"
    slip = _SLIP.search(detail)
    phrase = PHRASES.get((comparison, level), f"{comparison}: {level}").format(
        date=date, slip=f" ({slip.group(1)})" if slip else ""
    )
    words = f"{phrase}: {strength(weight)} ({weight:+.1f})"
    if FORBIDDING.get(comparison) == level:
        words += "; forbids an automatic merge"
    return words


def evidence_rows(evidence: list[dict] | None, signals: dict[str, float]) -> list[dict]:
    """Rows for the review page, strongest first: from the stored evidence (comparison, level,
    weight, detail), or for a pair stored before evidence was kept, from its weights alone."""
    if evidence:
        rows = [{"comparison": e["comparison"], "weight": e["weight"],
                 "words": evidence_words(e["comparison"], e["level"], e["weight"],
                                         e.get("detail") or ""),
                 "detail": e.get("detail") or ""} for e in evidence]  # fmt: skip
    else:
        rows = [{"comparison": c, "weight": w, "words": f"{c}: {strength(w)} ({w:+.1f})",
                 "detail": ""} for c, w in signals.items()]  # fmt: skip
    for row in rows:
        row["direction"] = "for" if row["weight"] > 0 else "against" if row["weight"] < 0 else ""
    return sorted(rows, key=lambda r: -abs(r["weight"]))
