"""Small thread pools for work a request hands off (parallel reads, task publishes): one per
name and process, made on first use, so a forked worker or web process makes its own."""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor

_pools: dict[str, tuple[int, ThreadPoolExecutor]] = {}
_lock = threading.Lock()


def thread_pool(name: str, workers: int) -> ThreadPoolExecutor:
    with _lock:
        made = _pools.get(name)
        if made is None or made[0] != os.getpid():
            made = (os.getpid(), ThreadPoolExecutor(workers, thread_name_prefix=name))
            _pools[name] = made
        return made[1]
