"""Hobbies: what a note says a person does for pleasure ("Voiculescu is mad about amateur radio",
"spends most weekends on archery", "Ezeudu into F1", "has recently taken up collecting fountain
pens", "Personal: F1"), learned as the value `text:hobby` (text_evidence) and compared as a tie
of the person (comparisons.affiliations): two notes naming one pastime of one name are evidence
beyond the name, and a pastime of no other entity's (as a neighbour) is no shared context.

A hobby is read after a cue of liking or of free time, from English as notes write it, not from
any one template: the words after the cue up to punctuation, a line's end or a word that ends a
noun phrase, at most MAX_WORDS words. Compared by their words without the generic ones ('the
game of go' / 'go'), `same` when one is shared; a pastime of one side that the other lacks
says little (people have several), so `different` weighs mildly."""

from __future__ import annotations

import re

MAX_WORDS = 4
MAX_HOBBY_CHARS = 60
_CUES = re.compile(
    r"\b(?:(?:is|'s|are|was|got|really|big|very|quite|seriously|totally|obsessed)\s+"
    r"(?:really\s+|very\s+|quite\s+|big\s+|seriously\s+)?into"
    r"|(?:mad|crazy|passionate|nuts|keen|fanatical)\s+(?:about|on)|big\s+on|hooked\s+on"
    r"|loves|enjoys|likes|adores|both\s+like|(?:love|passion|fondness)\s+(?:of|for)|fan\s+of"
    r"|interest(?:ed)?\s+in|hobb(?:y|ies)(?:\s+(?:is|are|include))?\s*[:=-]?"
    r"|(?:weekends?|evenings|free\s+time|spare\s+time|days\s+off)\s+(?:on|doing|to|for|are\s+for)"
    r"|(?:weekends?|evenings),?\s+for\s+[\w-]+,\s+means?"
    r"|(?:took|taken|taking|takes)\s+up|been\s+doing|plays|playing"
    r"|personal\s*[:=-]|small\s+talk\s*[:=-]|rapport\s*[:=-]\s*[\w-]+\s+into)\s+",
    re.IGNORECASE,
)
# The pastime written before its cue: "does gardening on weekends", "astronomy keeps him sane".
_BEFORE_CUES = re.compile(
    r"\b(?:does|do|goes)\s+([a-z][a-z' -]{1,40}?|[A-Z]\w{0,3}\d?)\s+(?:on|at|most|every)\s+"
    r"(?:the\s+)?(?:weekends?|wknds?|evenings|saturdays|sundays)"
    r"|\b([a-z][a-z' -]{1,40}?)\s+keeps\s+(?:him|her|them|me)\s+sane",
)
# Words that end the hobby's phrase: prepositions and time words after it, conjunctions, verbs.
_ENDS = frozenset(
    "on at in with since for from to as and or but lately recently these nowadays again "
    "twice weekly every each most when while which who that -> is was are were has have "
    "keeps kept -".split()
)
# Words before a pastime written ahead of its cue, which it does not include.
_OPENS = _ENDS | frozenset("that me him her them told said says mentioned once he she".split())
# Words that say nothing of which pastime: articles, possessives, generic nouns.
_GENERIC = frozenset(
    "the a an his her their my our its some of game games sport sports playing bit lot "
    "little hobby hobbies thing things stuff".split()
)
_WORD = re.compile(r"[^\W_][\w'&+-]*")
# What no pastime is, though a cue may precede it ("interested in a demo", "likes the Z-9").
_NOT_HOBBIES = frozenset(
    "demo deck quote call meeting pricing price offer contract deal product tool tools it this "
    "that them him her you us me one".split()
)


def hobbies_in(text: str) -> list[str]:
    """The hobbies one sentence or line of a note gives, lower case."""
    found = [_phrase(text[cue.end() : cue.end() + 120].split()) for cue in _CUES.finditer(text)]
    for cue in _BEFORE_CUES.finditer(text):
        words = (cue.group(1) or cue.group(2)).split()
        start = len(words)
        while start > 0 and len(words) - start < MAX_WORDS - 1 and words[start - 1] not in _OPENS:
            start -= 1  # "told me that amateur astronomy keeps him sane": the words after 'that'
        found.append(_phrase(words[start:]))
    return [h for h in dict.fromkeys(found) if h]


def _phrase(tokens: list[str]) -> str:
    """The hobby's words opening `tokens`; a capitalised word only as the whole of it ('F1')
    ("likes the Brisa-15", "interested in Nimbra": a product, no pastime)."""
    words = []
    for n, token in enumerate(tokens):
        word = token.strip(".,;:!?()\"'").casefold()
        if not word or word in _ENDS or not _WORD.fullmatch(word) or word[0].isdigit():
            break
        if token[:1].isupper() and n > 0:
            return ""
        words.append(word)
        if token[-1:] in ".,;:!?)" or len(words) >= MAX_WORDS:
            break
    if len(words) > 1 and tokens[0][:1].isupper():
        return ""
    kept = [w for w in words if w not in _GENERIC]
    if not kept or set(kept) & _NOT_HOBBIES:
        return ""
    return " ".join(words)[:MAX_HOBBY_CHARS]


def hobby_words(value: str) -> frozenset[str]:
    """A hobby's words that tell which pastime it is ('the game of go' -> {'go'})."""
    return frozenset(w for w in _WORD.findall(value.casefold()) if w not in _GENERIC)


def hobbies_alike(a: str, b: str) -> bool:
    return bool(hobby_words(a) & hobby_words(b))
