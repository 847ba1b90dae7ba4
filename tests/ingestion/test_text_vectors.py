"""The model's vectors as ingestion asks for them: on the model's thread, names from a cache."""

import threading

from apps.graph.embeddings import get_embedder
from apps.ingestion.text_vectors import TextVectors


class Counting:
    """The real model, counting the texts it is asked for and the threads that ask."""

    def __init__(self):
        self.inner, self.asked, self.threads = get_embedder(), [], set()
        self.name, self.dimensions = self.inner.name, self.inner.dimensions

    def embed(self, texts):
        self.asked += list(texts)
        self.threads.add(threading.get_ident())
        return self.inner.embed(texts)


def test_a_name_is_encoded_once_and_gets_the_models_vector():
    model = Counting()
    vectors = TextVectors(model)
    first = vectors.names_embed(["Ada Lovelace", "Acme Corp", "Ada Lovelace"])
    again = vectors.names_embed(["Acme Corp", "Grace Hopper"])
    assert model.asked == ["Ada Lovelace", "Acme Corp", "Grace Hopper"]
    assert first[0] == first[2]
    alone = get_embedder().embed(["Ada Lovelace"])[0]  # padding in a batch moves the last bits
    assert sum(a * b for a, b in zip(first[0], alone, strict=True)) > 0.9999
    assert again[0] == first[1]
    assert model.threads and threading.get_ident() not in model.threads


def test_the_cache_is_bounded_and_keeps_the_names_used_last():
    model = Counting()
    vectors = TextVectors(model, limit=2)
    vectors.names_embed(["Oslo", "Lima"])
    vectors.names_embed(["Oslo"])  # used last: kept
    vectors.names_embed(["Osaka"])  # pushes out Lima
    vectors.names_embed(["Oslo", "Lima"])
    assert model.asked == ["Oslo", "Lima", "Osaka", "Lima"]


def test_chunks_are_encoded_on_the_models_thread_and_not_cached():
    model = Counting()
    vectors = TextVectors(model)
    texts = ["A chunk about pumps.", "Another chunk.", "A chunk about pumps."]
    got = vectors.submit(texts).result(timeout=300)
    assert got[0] == got[2] and len(got) == 3
    vectors.submit(texts[:1]).result(timeout=300)
    assert model.asked == ["A chunk about pumps.", "Another chunk.", "A chunk about pumps."]
    assert threading.get_ident() not in model.threads


def test_the_models_thread_computes_on_its_own_count_of_torch_threads():
    import torch

    def fresh_threads_count() -> int:
        seen: list[int] = []
        later = threading.Thread(target=lambda: seen.append(torch.get_num_threads()))
        later.start()
        later.join(timeout=60)
        return seen[0]

    # This thread's own count may differ from a new thread's (a question embedded here by an
    # earlier test keeps one torch thread, apps/graph/embeddings.py): compare each with itself.
    mine, default = torch.get_num_threads(), fresh_threads_count()
    vectors = TextVectors(Counting(), threads=1)
    vectors.submit(["A chunk about pumps."]).result(timeout=300)
    assert vectors._thread.submit(torch.get_num_threads).result(timeout=60) == 1
    assert torch.get_num_threads() == mine and fresh_threads_count() == default
