"""Uids that sort in the order this process made them (UUIDv7's layout, RFC 9562).

Resolution breaks ties between equal scores by uid; with random uids the same documents in the
same order could end in different clusters. Time-ordered uids make the older entity or pair win
a tie, the same way on every run.
"""

from __future__ import annotations

import os
import threading
import time

_lock = threading.Lock()
_last = {"ms": 0, "counter": 0}


def ordered_uid() -> str:
    """A 32-hex-digit uid: milliseconds, a counter within the millisecond, then 62 random bits."""
    with _lock:
        ms = max(time.time_ns() // 1_000_000, _last["ms"])
        counter = _last["counter"] + 1 if ms == _last["ms"] else 0
        if counter > 0xFFF:  # 4,096 in one millisecond: borrow the next one
            ms, counter = ms + 1, 0
        _last.update(ms=ms, counter=counter)
    random_bits = int.from_bytes(os.urandom(8), "big") & ((1 << 62) - 1)
    value = (ms << 80) | (0x7 << 76) | (counter << 64) | (0b10 << 62) | random_bits
    return f"{value:032x}"
