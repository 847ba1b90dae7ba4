"""How spaCy reads a note. Its line breaks are sentence boundaries, set before the parser runs
(the parser keeps boundaries set before it): agents write notes as headings, bullets and
"Attendees: ..." lines, and the small model parsed a bullet into the line above it, so that
line's names took the next line's job, place and description ("someone from legal\n- Boonmee
joined, fleet manager, from Chiang Mai" gave the attendee above Boonmee the city Chiang Mai).
A line break stays inside a sentence only where prose was wrapped: the line before ends in a
word or a comma, the next one starts with a lower-case word, and that word would not have fit
on the line before within the note's widest line (a wrapping editor moves only a word that does
not fit: "Haruka is into beekeeping\noffsite in Girona tbc" is two lines, and Girona was not
Haruka's city). A bracket opened after a word
on its line opens no sentence, nor does what follows it on that line: the model made "Ximena"
a sentence of its own in "Ximena (was moved to a mobile developer role) still chasing it", so
the bracket's job was nobody's.

And a weekday's short name stays one word: the tokenizer read "Wed" as "we'd", so "Standup
notes, Wed 3 Sep" named an entity 'We'."""

from __future__ import annotations

COMPONENT = "line_sentences"


def line_sentences(doc):
    """The component: each token after a line break opens a sentence, but in wrapped prose."""
    width = max((len(line) for line in doc.text.splitlines()), default=0)
    for token in doc[1:]:
        gap = doc[token.i - 1]
        if token.is_space or "\n" not in gap.text_with_ws:
            continue
        last = gap if not gap.is_space else doc[gap.i - 1] if gap.i else None
        wrapped = (
            last is not None
            and "\n\n" not in gap.text_with_ws
            and (last.text[-1:].isalnum() or last.text == ",")
            and token.text[:1].islower()
            and _line_length(doc.text, gap.idx) + 1 + len(token.text) > width
        )
        if not wrapped:
            token.is_sent_start = True
    for token in doc[1:-1]:
        last = doc[token.i - 1]
        if _legal_stop(last) and token.text[:1].isupper() and not _legal_stop(token):
            token.is_sent_start = True
    _brackets_inside(doc)
    return doc


def _line_length(text: str, at: int) -> int:
    """The length of the line holding offset `at`, its trailing spaces left out."""
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    return len(text[start : end if end >= 0 else len(text)].rstrip())


def _brackets_inside(doc) -> None:
    for token in doc[1:]:
        last = doc[token.i - 1]
        if token.text != "(" or "\n" in last.text_with_ws or last.is_punct:
            continue
        inside = token.i
        while inside < len(doc) and "\n" not in doc[inside].text_with_ws:
            doc[inside].is_sent_start = False
            if doc[inside].text == ")":
                if inside + 1 < len(doc):
                    doc[inside + 1].is_sent_start = False
                break
            inside += 1


# Legal forms the tokenizer keeps their stop in ("GmbH.", "Inc."): one ending a sentence ended
# no sentence, and the parse hung the firm on the next sentence's subject ("X works for Kestrel
# Labs GmbH. Ruth Bader joined Y." gave Ruth Bader both firms and X none).
_LEGAL_ABBREVIATIONS = frozenset(
    "inc ltd co corp gmbh llc plc ag sa s.a bv b.v nv n.v oy ab srl spa s.p.a kk k.k pty pte "
    "sas s.a.s lp llp".split()
)


def _legal_stop(token) -> bool:
    text = token.text
    return (
        text.endswith(".")
        and bool(token.whitespace_)
        and text[:-1].casefold() in _LEGAL_ABBREVIATIONS
    )


def note_parser(nlp):
    """`nlp` reading notes as the module docstring says (once)."""
    # spaCy imported here, with the model: imported with the app it pulled torch in before
    # django.setup(), and the embedding model then took 20% more CPU (bench/ingest_throughput).
    from spacy.language import Language

    if not Language.has_factory(COMPONENT):
        Language.component(COMPONENT, func=line_sentences)
    if COMPONENT not in nlp.pipe_names and "parser" in nlp.pipe_names:
        nlp.add_pipe(COMPONENT, before="parser")
    rules = nlp.tokenizer.rules or {}
    if "Wed" in rules or "wed" in rules:
        nlp.tokenizer.rules = {k: v for k, v in rules.items() if k not in ("Wed", "wed")}
    return nlp
