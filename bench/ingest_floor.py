"""The floor of `ingest_throughput.py --floor`: what the pipeline's ratio cannot go below on this
machine with spaCy as the extractor, over the same chunks, without Neo4j, extraction or gate:

  (i)   the embedding model alone (the bench's baseline): its wall time and the CPU seconds of
        the process meanwhile (all threads: how many cores the model alone uses);
  (ii)  the model encoding the chunks on its thread (the pipeline's `TextVectors`, every window
        queued at once so it never waits) while this thread parses the same chunks with spaCy
        in the pipeline's windows;
  (iii) (ii) plus the names' and descriptions' encoding the pipeline does: each window's
        candidates' texts not encoded before in the run (the pipeline's cache), queued on the
        model's thread after the window's parse.

Each repetition runs (i), (ii), (iii) in turn, so their ratios are measured minutes apart at
most; the load average is printed with each. `cpu_seconds` adds the local Neo4j's CPU (its
JVM is another process) to the pipeline's account: on a machine of N cores the model alone
keeps busy, the pipeline's time is at least its CPU (this process and Neo4j) over N, so
pipeline CPU / model CPU is a floor of the ratio whatever the overlap."""

from __future__ import annotations

import os
import time

WINDOW = 32  # the pipeline's window (apps.ingestion.pipeline.EMBED_BATCH)


def names_per_window(docs: list[str], extractor) -> list[list[str]]:
    """The texts the pipeline encodes for candidates, per window of each document in order:
    each entity's `embedding_text()` and description, each text only the first time the run
    meets it (later ones come from the pipeline's cache). Extracted here without the tenant's
    known names (no Neo4j), so the set is close to, not exactly, the pipeline's."""
    from apps.ingestion.chunking import chunk_document, document_outline
    from apps.ingestion.working_memory import WorkingMemory

    seen: set[str] = set()
    windows: list[list[str]] = []
    for text in docs:
        chunks = chunk_document(text)
        state = WorkingMemory(document_outline(text))
        for start in range(0, len(chunks), WINDOW):
            window = chunks[start : start + WINDOW]
            fresh: list[str] = []
            for chunk, doc in zip(
                window, extractor.parse_window([c.text for c in window]), strict=True
            ):
                state.begin_chunk(chunk.section_path)
                for entity in extractor.extract(chunk.text, state=state, parsed=doc).entities:
                    for t in (
                        entity.embedding_text(),
                        entity.description.strip() and entity.description,
                    ):
                        if t and t not in seen:
                            seen.add(t)
                            fresh.append(t)
            windows.append(fresh)
    return windows


def neo4j_cpu() -> float | None:
    """CPU seconds the local Neo4j (`manage.py neo4j start`, this data dir) has used so far;
    None when it is not local or not readable."""
    from apps.graph import local_neo4j

    pid = local_neo4j.status().pid
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except (OSError, TypeError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def _timed(fn) -> tuple[float, float, tuple[float, float]]:
    """Wall seconds, process CPU seconds (every thread) and the 1-minute load before/after."""
    load = os.getloadavg()[0]
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu, (load, os.getloadavg()[0])


def floor_measure(embedder, extractor, chunk_windows: list[list[str]], names: list[list[str]] | None,
                  repeats: int = 3) -> list[dict]:  # fmt: skip
    """(i), (ii), (iii) in turn, `repeats` times; each a dict of wall, cpu, load per mode."""
    from apps.ingestion.text_vectors import TextVectors

    chunks = [c for w in chunk_windows for c in w]

    def alone():
        embedder.embed(chunks)

    def beside(with_names: bool):
        def run():
            vectors = TextVectors(embedder)  # a thread of its own, no cache carried over
            queued = [vectors.submit(w) for w in chunk_windows]
            for k, window in enumerate(chunk_windows):
                extractor.parse_window(window)
                if with_names and names[k]:
                    queued.append(vectors.submit(names[k]))
            for future in queued:
                future.result()
            vectors._thread.shutdown()

        return run

    runs = []
    for _ in range(repeats):
        runs.append({"i": _timed(alone), "ii": _timed(beside(False)),
                     "iii": _timed(beside(True)) if names is not None else None})  # fmt: skip
    return runs


def floor_print(runs: list[dict], names: list[list[str]] | None) -> None:
    if names is not None:
        print(f"floor: {sum(map(len, names))} candidate texts encoded for the first time (iii)")
    for n, run in enumerate(runs, 1):
        wall_i, cpu_i, load_i = run["i"]
        line = (f"floor run {n}: (i) model alone {wall_i:.2f} s wall, {cpu_i:.2f} s CPU = "
                f"{cpu_i / wall_i:.2f} cores (load {load_i[0]:.1f}-{load_i[1]:.1f})")  # fmt: skip
        for mode in ("ii", "iii"):
            if run[mode] is None:
                continue
            wall, cpu, load = run[mode]
            line += (f"; ({mode}) {wall:.2f} s = {wall / wall_i:.2f}x, {cpu / wall:.2f} cores, "
                     f"CPU {cpu:.2f} s = {cpu / cpu_i:.2f}x (load {load[0]:.1f}-{load[1]:.1f})")  # fmt: skip
        print(line)
    for mode in ("ii", "iii"):
        for what, at in (("time", 0), ("CPU", 1)):
            ratios = sorted(r[mode][at] / r["i"][at] for r in runs if r[mode] is not None)
            if ratios:
                print(f"floor ({mode}) / (i), {what}: " + ", ".join(f"{x:.2f}x" for x in ratios)
                      + f" (median {ratios[len(ratios) // 2]:.2f}x)")  # fmt: skip
