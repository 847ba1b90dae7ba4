"""Episode boundaries found in the text itself, for documents whose headers do not mark them
(a transcript, an email thread, a scanned report): where the short-term state resets.

Two signals, read chunk by chunk in the order the pipeline reads them:

- explicit cues at the start of a chunk's lines: a line that is only a date ("3 March 2026",
  "2026-03-03", "Tuesday, March 3, 2026"), or a "Subject:" whose subject (without "Re:" or
  "Fwd:") differs from the last one, force a boundary; a new sender ("From:") or a new speaker
  ("Name: ..." opening a line) is a weak cue that halves the depth the topic shift needs;
- a topic shift between consecutive chunks, TextTiling's depth score over the chunk vectors the
  pipeline computes anyway: the similarity across a gap is the cosine between the mean vector of
  the BLOCK chunks before it and of the BLOCK chunks after it; the gap's depth is how far that
  similarity falls below the nearest peak on each side. A gap deeper than THRESHOLD (measured on
  the dev documents of bench/long_documents.py, checked on held-out ones) that is the deepest
  within one chunk either side, MIN_EPISODE chunks or more after the last boundary, is one.

Vectors arrive a window at a time (`feed`), so the chunks after a gap are those of the window
known so far: the gap before a window's last chunk, with fewer than BLOCK chunks after it, is
decided by its cues alone (docs/benchmarks/long-documents.md measures what the windows cost). Headers stay the first signal: the pipeline resets
on a new section path whatever this module says.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

BLOCK = 2  # chunks on each side of a gap
THRESHOLD = 0.25  # depth of a topic shift (bench/long_documents.py: the best of the dev sweep)
MIN_EPISODE = 2  # chunks at least between two boundaries found by depth
WEAK = 0.5  # share of THRESHOLD a gap needs after a weak cue (a new sender or speaker)
KEEP = 16  # vectors and similarities kept from earlier windows (peaks are sought that far)

_MONTHS = (
    "jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    "sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)
_DAY = r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?"
_DATE_LINE = re.compile(
    r"^\s*" + _DAY + r"(?:\d{4}-\d{2}-\d{2}|\d{1,2}\s+(?:" + _MONTHS + r")\.?,?\s+"
    r"\d{4}|(?:" + _MONTHS + r")\.?\s+\d{1,2},?\s+\d{4})\s*$",
    re.IGNORECASE,
)
_SUBJECT = re.compile(r"^\s*subject:\s*((?:(?:re|fwd?|aw|wg)\s*:\s*)*)(.*?)\s*$", re.IGNORECASE)
_FROM = re.compile(r"^\s*from:\s*(.+?)\s*$", re.IGNORECASE)
_SPEAKER = re.compile(r"^\s*([A-Z][\w.'-]*(?: [A-Z][\w.'-]*){0,2}):\s+\S")
_HEADER_LINE = re.compile(r"^\s*(?:from|to|cc|bcc|date|sent|subject):", re.IGNORECASE)
_NOT_SPEAKERS = {"subject", "from", "to", "cc", "date", "sent", "re", "note", "notes", "http"}


class TextBoundaries:
    """Decides, chunk by chunk, where a document without headers changes episode."""

    def __init__(
        self,
        threshold: float = THRESHOLD,
        block: int = BLOCK,
        min_episode: int = MIN_EPISODE,
        cues: bool = True,
        shifts: bool = True,
        weak: float = WEAK,
    ) -> None:
        self.threshold, self.block, self.min_episode = threshold, block, min_episode
        self.weak = weak
        self._carried = (False, False)
        self._after_headers = False
        self.cues, self.shifts = cues, shifts
        self._vectors: list[np.ndarray] = []  # the last KEEP chunks' unit vectors
        self._offset = 0  # the document position of self._vectors[0]
        self._last_boundary = 0
        self._subject: str | None = None
        self._sender: str | None = None
        self._speaker: str | None = None
        self.depths: dict[int, float] = {}  # position -> depth of the gap before it (tests)

    def feed(self, texts: Sequence[str], vectors: Sequence[Sequence[float]]) -> list[bool]:
        """For each chunk of the next window, in order: True when an episode starts with it."""
        start = self._offset + len(self._vectors)
        for vector in vectors:
            v = np.asarray(vector, dtype=np.float32)
            self._vectors.append(v / (np.linalg.norm(v) or 1.0))
        sims = self._similarities()
        out = []
        for i, text in enumerate(texts):
            position = start + i
            strong, weak, headers = self._cue(text) if self.cues else (False, False, False)
            # A chunk of header lines alone is unlike any text around it: only its cues count,
            # for it and for the chunk after it.
            quiet, self._after_headers = self._after_headers or headers, headers
            # A gap with fewer than BLOCK chunks known after it (a window's last chunk) looks
            # deeper than it is: only its cues count.
            known = position + self.block <= self._offset + len(self._vectors)
            found = strong
            if (not found and not quiet and known and self.shifts
                    and position - self._last_boundary >= self.min_episode):  # fmt: skip
                depth = self._depth(sims, position)
                self.depths[position] = depth
                need = self.threshold * (self.weak if weak else 1.0)
                found = depth >= need and all(
                    depth >= self._depth(sims, p) for p in (position - 1, position + 1)
                )
            if found and position > 0:
                self._last_boundary = position
            out.append(bool(found and position > 0))
        drop = max(0, len(self._vectors) - KEEP)
        self._vectors, self._offset = self._vectors[drop:], self._offset + drop
        return out

    def _similarities(self) -> dict[int, float]:
        """Similarity across each known gap (the gap before position p), blocks cut at the
        document's start and at the last chunk known."""
        known = np.stack(self._vectors) if self._vectors else np.zeros((0, 1))
        sims = {}
        for j in range(1, len(known)):
            left = known[max(0, j - self.block) : j].mean(axis=0)
            right = known[j : j + self.block].mean(axis=0)
            denominator = float(np.linalg.norm(left) * np.linalg.norm(right)) or 1.0
            sims[self._offset + j] = float(left @ right) / denominator
        return sims

    def _depth(self, sims: dict[int, float], position: int) -> float:
        if position not in sims:
            return 0.0
        here = sims[position]
        return _peak(sims, position, -1) - here + _peak(sims, position, 1) - here

    def _cue(self, text: str) -> tuple[bool, bool, bool]:
        """(a cue that forces a boundary, a weak cue, the chunk is header lines only) for the
        chunk; a cue in the second half of a chunk (a header block or a date line the chunker
        joined to the text above it) counts for the next chunk."""
        first, second = self._carried, (False, False)
        offset, only_headers = 0, True
        for line in text.splitlines(keepends=True):
            before, offset = offset, offset + len(line)
            bare = line.rstrip("\r\n")
            cue = self._cue_line(bare)
            only_headers &= not bare.strip() or bool(_HEADER_LINE.match(bare)) or cue[0]
            half = first if before <= len(text) - offset else second
            half = (half[0] or cue[0], half[1] or cue[1])
            first, second = (half, second) if before <= len(text) - offset else (first, half)
        if only_headers:  # a header block alone: its cues are its own
            first, second = (first[0] or second[0], first[1] or second[1]), (False, False)
        self._carried = second
        return first[0], first[1], only_headers

    def _cue_line(self, line: str) -> tuple[bool, bool]:
        """The line's cue; the subject, sender and speaker seen last are remembered."""
        if _DATE_LINE.match(line):
            return True, False
        subject = _SUBJECT.match(line)
        if subject:
            topic = subject.group(2).lower()
            before, self._subject = self._subject, topic
            return before is not None and topic != before, False
        sender = _FROM.match(line)
        if sender:
            who = sender.group(1).lower()
            before, self._sender = self._sender, who
            return False, before is not None and who != before
        speaker = _SPEAKER.match(line)
        if speaker and speaker.group(1).lower() not in _NOT_SPEAKERS:
            who = speaker.group(1).lower()
            before, self._speaker = self._speaker, who
            return False, before is not None and who != before
        return False, False


def _peak(sims: dict[int, float], position: int, step: int) -> float:
    """The highest similarity reached climbing from `position` in direction `step`."""
    best, p = sims[position], position + step
    while p in sims and sims[p] >= best:
        best, p = sims[p], p + step
    return best
