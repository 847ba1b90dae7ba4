"""The embedding model as ingestion calls it: from one thread of its own, so a window's chunks
are encoded while the pipeline parses the window or writes the one before it (torch releases
the GIL while it computes), and the model is never entered from two threads at once (a fast
tokenizer refuses concurrent use); and with the vectors of candidates' names and descriptions
kept in a bounded cache, since the same names come back in every window of a document and
across documents (a text is encoded once while it stays among the MAX_TEXTS used last).

Chunk texts are not cached (they rarely repeat); they are embedded as before, a window at a
time. The model's thread computes on INGESTION_ENCODE_THREADS of torch's threads (1 by default,
0: torch's own, one a core): beside spaCy's parse and Neo4j on the same cores, fewer threads
waste less of them waiting on each other (docs/benchmarks/ingestion.md)."""

from __future__ import annotations

import os
import threading
from array import array
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor

from django.conf import settings

from apps.graph.embeddings import Embedder, get_embedder

MAX_TEXTS = 20_000  # float32 vectors: about 1.5 KB each with 384 dimensions, 30 MB at most


class TextVectors:
    """An embedder's calls on one thread, with a cache of the names' vectors."""

    def __init__(
        self, embedder: Embedder, limit: int = MAX_TEXTS, threads: int | None = None
    ) -> None:
        self.embedder = embedder
        self.limit = limit
        self.threads = settings.INGESTION_ENCODE_THREADS if threads is None else threads
        self._cache: OrderedDict[str, array] = OrderedDict()
        self._lock = threading.Lock()
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ingest-encode",
                                          initializer=torch_threads_set, initargs=(self.threads,))  # fmt: skip
        self.pid = os.getpid()

    def submit(self, texts: Sequence[str]) -> Future:
        """The vectors of `texts` (one call of the model, each distinct text once), computed
        on the model's thread; not cached."""
        return self._thread.submit(self._embed_distinct, list(texts))

    def names_embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Vectors of `texts`, in order, from the cache or from one call of the model for the
        texts it lacks; waits for the model's thread."""
        distinct = list(dict.fromkeys(texts))
        with self._lock:
            known = {t: self._cache[t] for t in distinct if t in self._cache}
            for text in known:
                self._cache.move_to_end(text)
        missing = [t for t in distinct if t not in known]
        if missing:
            fresh = self._thread.submit(self._embed_distinct, missing).result()
            known.update((t, array("f", v)) for t, v in zip(missing, fresh, strict=True))
            with self._lock:
                self._cache.update((t, known[t]) for t in missing)
                while len(self._cache) > self.limit:
                    self._cache.popitem(last=False)
        return [known[t].tolist() for t in texts]

    def _embed_distinct(self, texts: list[str]) -> list[list[float]]:
        distinct = list(dict.fromkeys(texts))
        vectors = dict(zip(distinct, self.embedder.embed(distinct), strict=True))
        return [vectors[t] for t in texts]


def torch_threads_set(threads: int) -> None:
    """torch's threads for the calling thread only (none when `threads` is 0). A thread keeps
    the count it set; torch also makes it the count of threads that use torch later, so that
    default is given back (from a thread of its own, which keeps the count it sets)."""
    if threads <= 0:
        return
    import torch

    default = torch.get_num_threads()  # torch's first-use setup of this thread, done before
    torch.set_num_threads(threads)
    restore = threading.Thread(target=torch.set_num_threads, args=(default,))
    restore.start()
    restore.join()


_shared: TextVectors | None = None
_shared_lock = threading.Lock()


def text_vectors() -> TextVectors:
    """The process's TextVectors over its embedder (`get_embedder`); a forked child makes its
    own (the parent's thread does not exist in it)."""
    global _shared
    embedder = get_embedder()
    with _shared_lock:
        if _shared is None or _shared.embedder is not embedder or _shared.pid != os.getpid():
            _shared = TextVectors(embedder)
        return _shared
