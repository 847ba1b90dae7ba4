"""Splits a document into chunks of about 100-500 characters that keep their place in the outline.

Blocks are cut at markdown headers and blank lines; consecutive small blocks of one section are
merged, oversized ones are split at sentence boundaries (a hard cut at whitespace when a single
sentence is too long). Each chunk is a slice of the original text, so offsets stay meaningful.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memoryproject.sentences import sentence_spans

MIN_CHARS = 100
MAX_CHARS = 500
SHORT_PAGE_CHARS = 400

_HEADER = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t#]*$")
_BLANK = re.compile(r"^[ \t]*$")


@dataclass(frozen=True)
class TextChunk:
    position: int
    text: str
    start: int  # offsets into the document's content
    end: int
    section_path: tuple[str, ...]


@dataclass(frozen=True)
class OutlineEntry:
    level: int
    title: str
    start: int


@dataclass
class _Block:
    start: int
    end: int
    path: tuple[str, ...]
    header: bool = False


def document_outline(content: str) -> list[OutlineEntry]:
    """The document's headers in order: the fixed anchor of its short-term state."""
    entries, offset = [], 0
    for line in content.splitlines(keepends=True):
        match = _HEADER.match(line.rstrip("\r\n"))
        if match:
            entries.append(OutlineEntry(len(match.group(1)), match.group(2).strip(), offset))
        offset += len(line)
    return entries


def chunk_document(content: str) -> list[TextChunk]:
    """Chunks in reading order; empty or whitespace content has none."""
    if not content.strip():
        return []
    blocks = _blocks(content)
    if len(content.strip()) < SHORT_PAGE_CHARS:
        first, last = blocks[0], blocks[-1]
        return [_chunk(content, 0, first.start, last.end, _common_path(blocks))]
    pieces = [
        _Block(s, e, block.path, block.header)
        for block in blocks
        for s, e in ([(block.start, block.end)] if block.header else _split_long(content, block))
    ]
    groups = _merge_small(pieces)
    return [_chunk(content, i, g.start, g.end, g.path) for i, g in enumerate(groups)]


def _chunk(content: str, position: int, start: int, end: int, path) -> TextChunk:
    return TextChunk(position, content[start:end], start, end, tuple(path))


def _blocks(content: str) -> list[_Block]:
    """Blocks of non-blank lines, a header line always standing alone, trimmed to their text."""
    blocks: list[_Block] = []
    stack: list[tuple[int, str]] = []
    current: _Block | None = None
    offset = 0
    for line in content.splitlines(keepends=True):
        bare = line.rstrip("\r\n")
        header = _HEADER.match(bare)
        if header or _BLANK.match(bare):
            current = None
        if header:
            level = len(header.group(1))
            stack = [(lv, t) for lv, t in stack if lv < level] + [(level, header.group(2).strip())]
            path = tuple(t for _, t in stack)
            blocks.append(_Block(offset, offset + len(bare), path, header=True))
        elif not _BLANK.match(bare):
            lead = len(bare) - len(bare.lstrip())
            if current is None:
                current = _Block(offset + lead, offset + len(bare), tuple(t for _, t in stack))
                blocks.append(current)
            else:
                current.end = offset + len(bare.rstrip())
        offset += len(line)
    return blocks


def _common_path(blocks: list[_Block]) -> tuple[str, ...]:
    paths = [b.path for b in blocks]
    shortest = min(paths, key=len)
    prefix = []
    for i, title in enumerate(shortest):
        if any(p[i] != title for p in paths):
            break
        prefix.append(title)
    return tuple(prefix)


def _join(group: _Block, block: _Block) -> _Block:
    # Headers alone carry no text of their own: the group takes the section of what follows.
    path = block.path if group.header else _common_path([group, block])
    return _Block(group.start, block.end, path, group.header and block.header)


def _merge_small(pieces: list[_Block]) -> list[_Block]:
    """Join a group under MIN_CHARS (or made of headers only) with the next piece, and a small
    piece with the group of its own section before it, while the result stays within MAX_CHARS."""
    groups: list[_Block] = []
    for piece in pieces:
        last = groups[-1] if groups else None
        small_last = last is not None and (last.header or last.end - last.start < MIN_CHARS)
        small_tail_of_section = (
            last is not None
            and not piece.header
            and piece.end - piece.start < MIN_CHARS
            and last.path == piece.path
        )
        if (small_last or small_tail_of_section) and piece.end - last.start <= MAX_CHARS:
            groups[-1] = _join(last, piece)
        else:
            groups.append(piece)
    if len(groups) > 1:
        prev, tail = groups[-2], groups[-1]
        if tail.end - tail.start < MIN_CHARS and tail.end - prev.start <= MAX_CHARS:
            groups[-2:] = [_join(prev, tail)]
    return groups


def _split_long(content: str, block: _Block) -> list[tuple[int, int]]:
    start, end = block.start, block.end
    if end - start <= MAX_CHARS:
        return [(start, end)]
    pieces: list[tuple[int, int]] = []
    for s, e in sentence_spans(content, start, end):
        for hs, he in _hard_cut(content, s, e):
            if pieces and he - pieces[-1][0] <= MAX_CHARS:
                pieces[-1] = (pieces[-1][0], he)
            else:
                pieces.append((hs, he))
    # Avoid a tiny last piece: lend it to the previous one when that stays within bounds.
    if len(pieces) > 1 and pieces[-1][1] - pieces[-1][0] < MIN_CHARS:
        ps, _ = pieces[-2]
        if pieces[-1][1] - ps <= MAX_CHARS:
            pieces[-2:] = [(ps, pieces[-1][1])]
    return pieces


def _hard_cut(content: str, start: int, end: int) -> list[tuple[int, int]]:
    """A sentence longer than MAX_CHARS is cut at the last whitespace before the cap."""
    pieces = []
    while end - start > MAX_CHARS:
        cut = content.rfind(" ", start + MIN_CHARS, start + MAX_CHARS)
        cut = cut if cut > start else start + MAX_CHARS
        pieces.append((start, cut))
        start = cut + 1 if content[cut : cut + 1] == " " else cut
    pieces.append((start, end))
    return pieces
