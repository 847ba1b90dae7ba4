"""Long plain documents: episode boundaries found in the text, and the descriptions they help.

Generates long documents without headers, three kinds: plain reports, email threads (a
"From:/Subject:/Date:" block per message, replies "Re:" within a topic) and meeting minutes (a
date line per meeting, "Name:" turns). Each document runs through several topics, each with a
company, two people and a city of its own, with "the company", "the firm" and "the city"
throughout and pronouns between them; some topics say "the company" before they name it.
Prints, per set (dev seeds, then held-out seeds):
- boundary precision, recall and F1 against the planted topic changes (a boundary is the chunk a
  new topic starts in), for the depth thresholds swept on the dev set and the threshold chosen
  there, checked on the held-out set;
- the share of planted descriptions the short-term state resolves to the right entity (spaCy
  extraction, the real model's chunk vectors), with boundaries from the text and without (the
  state then resets only at section headers, which these documents lack);
- with --ingest, the whole pipeline's time on the held-out documents with and without text
  boundaries (alternating runs, each in a fresh tenant of the configured Neo4j, deleted after).

    .venv/bin/python bench/long_documents.py [--documents 12] [--topics 8] [--ingest]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryproject.settings")
from long_document_texts import DEV_SEEDS, HELD_OUT_SEEDS, generated  # noqa: E402

THRESHOLDS = [0.04, 0.06, 0.08, 0.10, 0.12, 0.14, 0.16, 0.20, 0.25]
WINDOW = 32  # the pipeline's window (EMBED_BATCH): vectors reach the boundaries a window at a time


def boundaries_found(chunks, vectors, **options) -> set[int]:
    from apps.ingestion.text_boundaries import TextBoundaries

    finder, found = TextBoundaries(**options), set()
    for s in range(0, len(chunks), WINDOW):
        flags = finder.feed([c.text for c in chunks[s : s + WINDOW]], vectors[s : s + WINDOW])
        found |= {s + i for i, flag in enumerate(flags) if flag}
    return found


def planted(chunks, topic_starts) -> set[int]:
    """The first chunk of each topic after the first: the chunk its text (its header or date
    line included) starts in, or the next one when it starts in the second half of that chunk
    (a short header the chunker joined to the text above it)."""
    out = set()
    for t in topic_starts[1:]:
        chunk = next(c for c in chunks if c.end > t)
        out.add(chunk.position + (t - chunk.start > chunk.end - t))
    return out


def scores(pairs) -> tuple[float, float, float]:
    tp = sum(len(f & p) for f, p in pairs)
    found, truth = sum(len(f) for f, _ in pairs), sum(len(p) for _, p in pairs)
    precision, recall = tp / (found or 1), tp / (truth or 1)
    return precision, recall, 2 * precision * recall / ((precision + recall) or 1)


def same_entity(target: str | None, truth: str) -> bool:
    if not target:
        return False
    a, b = target.lower().removeprefix("the "), truth.lower()
    return a in b or b in a


def anaphora_right(extractor, doc, chunks, parsed, shifts) -> tuple[int, int]:
    """(right, planted): descriptions the state resolved to the planted entity."""
    from apps.ingestion.working_memory import WorkingMemory

    state, targets = WorkingMemory(), {}
    for chunk, parse in zip(chunks, parsed, strict=True):
        state.begin_chunk(chunk.section_path, boundary=chunk.position in shifts)
        for ref in extractor.extract(chunk.text, state=state, parsed=parse).references:
            targets[chunk.start + ref.start] = ref.target
    right = sum(same_entity(targets.get(at), truth) for at, truth in doc.anaphora)
    return right, len(doc.anaphora)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--documents", type=int, default=12, help="per set (dev, held-out)")
    parser.add_argument("--topics", type=int, default=8, help="topics per document")
    parser.add_argument("--ingest", action="store_true", help="also time the whole pipeline")
    parser.add_argument("--repeats", type=int, default=2, help="timed runs of each variant")
    parser.add_argument("--ingest-only", action="store_true", help="only time the pipeline")
    args = parser.parse_args()

    import django

    django.setup()
    from apps.graph.embeddings import get_embedder
    from apps.ingestion.chunking import chunk_document
    from apps.ingestion.extraction.spacy_ner import SpacyExtractor

    embedder, extractor = get_embedder(), SpacyExtractor.shared()
    if args.ingest_only:
        texts = [generated(random.Random(HELD_OUT_SEEDS + i), i % 3, args.topics).text
                 for i in range(args.documents)]  # fmt: skip
        ingest_times(texts, extractor, args.repeats)
        return
    sets = {}
    for name, seeds in (("dev", DEV_SEEDS), ("held-out", HELD_OUT_SEEDS)):
        docs = [generated(random.Random(seeds + i), i % 3, args.topics)
                for i in range(args.documents)]  # fmt: skip
        rows = []
        for doc in docs:
            chunks = chunk_document(doc.text)
            vectors = embedder.embed([c.text for c in chunks])
            parsed = extractor.parse_window([c.text for c in chunks])
            rows.append((doc, chunks, vectors, parsed, planted(chunks, doc.topic_starts)))
        sets[name] = rows
        n_chunks = sum(len(r[1]) for r in rows)
        kb = sum(len(d.text) for d in docs) / 1024
        print(f"{name}: {len(docs)} documents, {kb:.0f} KB, {n_chunks} chunks, "
              f"{sum(len(r[4]) for r in rows)} planted topic changes")  # fmt: skip

    best = None
    print("\ndepth threshold sweep (dev): threshold  P  R  F1 (all kinds | reports only)")
    for threshold in THRESHOLDS:
        pairs = [(boundaries_found(c, v, threshold=threshold), p) for _, c, v, _, p in sets["dev"]]
        reports = [pair for pair, row in zip(pairs, sets["dev"], strict=True) if row[0].kind == 0]
        p, r, f = scores(pairs)
        print(f"  {threshold:.2f}  {p:.3f} {r:.3f} {f:.3f} | F1 {scores(reports)[2]:.3f}")
        if best is None or f > best[1]:
            best = (threshold, f)
    print(f"chosen on dev: threshold {best[0]:.2f} (F1 {best[1]:.3f})")

    kinds = ("report", "thread", "minutes")
    for name, rows in sets.items():
        print(f"\n{name} at threshold {best[0]:.2f}:")
        found = {id(row): boundaries_found(row[1], row[2], threshold=best[0]) for row in rows}
        for label, options in (("depth + cues", {}), ("cues only", {"shifts": False}),
                               ("depth only", {"cues": False})):  # fmt: skip
            pairs = [(boundaries_found(c, v, threshold=best[0], **options), p)
                     for _, c, v, _, p in rows]  # fmt: skip
            per_kind = "  ".join(
                f"{kinds[k]} F1 {scores([x for x, r in zip(pairs, rows, strict=True) if r[0].kind == k])[2]:.3f}"
                for k in range(3)
            )  # fmt: skip
            p, r, f = scores(pairs)
            print(f"  boundaries, {label}: P {p:.3f} R {r:.3f} F1 {f:.3f}  ({per_kind})")
        for label, use in (("with text boundaries", True), ("without (today)", False)):
            right = total = 0
            for row in rows:
                doc, chunks, _, parsed, _ = row
                r, t = anaphora_right(
                    extractor, doc, chunks, parsed, found[id(row)] if use else set()
                )
                right, total = right + r, total + t
            print(f"  anaphora right, {label}: {right}/{total} = {right / total:.3f}")

    if args.ingest:
        ingest_times([row[0].text for row in sets["held-out"]], extractor, args.repeats)


def ingest_times(texts, extractor, repeats) -> None:
    from apps.graph import cypher
    from apps.graph.schema import schema_install
    from apps.graph.scope import Scope
    from apps.ingestion import pipeline
    from apps.ingestion.services import document_store, validate_document_fields

    schema_install()
    spent = {True: [], False: []}
    # A first run warms the caches (the spaCy matcher of known names, Neo4j's page cache) and
    # is not counted; then the variants alternate, off first, on the same documents.
    for run in range(-1, 2 * repeats):
        on = run % 2 == 1
        pipeline.TEXT_BOUNDARIES = on
        from apps.tenants import services as tenant_services

        slug = f"bench-{uuid.uuid4().hex[:10]}"  # a tenant row: collective merges audit
        row = tenant_services.tenant_create(slug=slug, name=slug, settings={})
        scope = Scope(tenant=row.uid, actor="bench", actor_kind="system")
        try:
            started = time.perf_counter()
            for text in texts:
                size = validate_document_fields(scope, content=text, source="bench", url=None)
                stored = document_store(scope, content=text, source="bench", size=size)
                pipeline.document_ingest(scope, document_uid=stored.uid, extractor=extractor)
            if run >= 0:
                spent[on].append(time.perf_counter() - started)
        finally:
            cypher.write(scope, "MATCH (n) WHERE n.tenant = $tenant DETACH DELETE n")
    pipeline.TEXT_BOUNDARIES = True
    off, on = min(spent[False]), min(spent[True])
    print(f"\ningestion of the held-out documents (best of {repeats}, after a warm-up run): without text boundaries "
          f"{off:.2f} s, with {on:.2f} s = {on / off:.3f}x  (all runs: off "
          f"{[round(s, 2) for s in spent[False]]}, on {[round(s, 2) for s in spent[True]]})")  # fmt: skip


if __name__ == "__main__":
    main()
