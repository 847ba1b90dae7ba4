"""Ingestion throughput: N documents of about 2 KB (or of --size bytes) through the whole
pipeline (chunking, the embedding model, spaCy extraction with the short-term state, duplicate
checks, the resolution gate and one Neo4j transaction per window of 32 chunks) against the
embedding model alone on the same chunks, in one run. Prints both rates, their ratio, spaCy's
parse alone on the same chunks (the pipeline overlaps it with the model's work), and the peak
RSS of this process, which does what a worker does (both models and the pipeline).

    .venv/bin/python bench/ingest_throughput.py [--documents 10] [--size 2000] [--seed 7]
    .venv/bin/python bench/ingest_throughput.py --documents 1 --size 200000   # one 200 KB document
    .venv/bin/python bench/ingest_throughput.py --components   # and each spaCy component's time
    .venv/bin/python bench/ingest_throughput.py --floor   # and the floor (bench/ingest_floor.py)
    .venv/bin/python bench/ingest_throughput.py --receipts after.txt --diff before.txt
    .venv/bin/python bench/ingest_throughput.py --warmup 0   # time a cold Neo4j too
    .venv/bin/python bench/ingest_throughput.py --check-neighbours   # bench/ingest_neighbours_check.py

Prints a profile (bench/ingest_profile.py): this process's CPU by stage and the local Neo4j's
CPU by query; `--receipts FILE` keeps the run's decisions (no uids) and `--diff OLD` compares
them with another run's, so a change of cost can show it changed no decision.

Uses the configured Neo4j (`make run`'s, or NEO4J_LOCAL_PORT / NEO4J_BOLT_URL) in a throwaway
tenant that is deleted at the end (its row in the configured relational database too).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryproject.settings")

FIRST = ["Ada", "Bruno", "Chiara", "Dmitri", "Elif", "Farah", "Goran", "Hana", "Ivo", "Jun"]
LAST = ["Lindqvist", "Okafor", "Moreau", "Tanaka", "Novak", "Reyes", "Haddad", "Kowalski"]
ORGS = ["Acme Corp", "Globex Corporation", "Initech", "Umbrella Holdings", "Stark Industries",
        "Wayne Enterprises", "Tyrell Corporation", "Cyberdyne Systems"]  # fmt: skip
PLACES = ["London", "Berlin", "Nairobi", "Lisbon", "Osaka", "Toronto", "Lima", "Oslo"]
SENTENCES = [
    "{p} joined {o} in {c} after years of work on water pumps and irrigation.",
    "{o} is based in {c}, where {p} leads a team of forty engineers.",
    "The company opened a second office in {c2} and hired {p2} to run it.",
    "{p} met {p2} at a conference in {c} to discuss the new turbine design.",
    "{o} acquired {o2} for an undisclosed sum, according to {p}.",
    "Critics in {c2} say the project is late, but {p2} expects it to finish by spring.",
    "{p2} works for {o2} and visits {c} every month to check the prototypes.",
    "Engineers at {o} tested the pump in {c2} during the dry season.",
]


def document(rng: random.Random, index: int, size: int = 2000) -> str:
    """About `size` characters in a few sections, with names that recur across documents."""
    parts, length = [f"# Report {index}\n"], 0
    section = 0
    while length < size:
        section += 1
        parts.append(f"\n## Section {section}\n")
        for _ in range(3):
            p = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
            p2 = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
            fill = dict(p=p, p2=p2, o=rng.choice(ORGS), o2=rng.choice(ORGS),
                        c=rng.choice(PLACES), c2=rng.choice(PLACES))  # fmt: skip
            paragraph = " ".join(rng.choice(SENTENCES).format(**fill) for _ in range(3))
            paragraph += f" (ref {index}-{section}-{rng.randint(0, 10**6)})"
            parts.append("\n" + paragraph + "\n")
            length += len(paragraph)
    return "".join(parts)


def tenants_delete(cypher, scope_class, tenants) -> None:
    """The bench's throwaway tenants, their graph and their rows."""
    for tenant in tenants:
        cypher.write(scope_class(tenant=tenant.uid, actor="bench", actor_kind="system"),
                     "MATCH (n) WHERE n.tenant = $tenant DETACH DELETE n")  # fmt: skip
        tenant.delete()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--documents", type=int, default=10)
    parser.add_argument("--size", type=int, default=2000, help="characters per document")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--components", action="store_true",
                        help="also time each spaCy component alone over the chunks")  # fmt: skip
    parser.add_argument("--floor", action="store_true",
                        help="also measure the floor: the model alone, beside spaCy's parse, "
                             "and with the names' encoding, 3 times in turn (ingest_floor.py)")  # fmt: skip
    parser.add_argument("--receipts", help="write the run's decisions (one line each) here")
    parser.add_argument("--diff", help="compare the run's decisions with this --receipts file")
    parser.add_argument("--no-profile", action="store_true", help="no hooks, no profile")
    parser.add_argument("--warmup", type=int, default=1,
                        help="passes of other documents through the pipeline, untimed, each "
                             "in a throwaway tenant kept until the end: a Neo4j just started "
                             "spends 2-6x the CPU a warm one does (its JIT compiles the queries), "
                             "and the timed run meets a database that holds another tenant, as a "
                             "service does")  # fmt: skip
    parser.add_argument("--check-neighbours", action="store_true",
                        help="decide each window twice, with the cut's neighbours and every "
                             "match's, and count the names decided otherwise (no timing)")  # fmt: skip
    args = parser.parse_args()

    import django
    from django.conf import settings

    django.setup()
    from apps.graph import cypher
    from apps.graph.cypher import count_round_trips
    from apps.graph.embeddings import get_embedder
    from apps.graph.schema import schema_install
    from apps.graph.scope import Scope
    from apps.ingestion.chunking import chunk_document
    from apps.ingestion.extraction.spacy_ner import SpacyExtractor
    from apps.ingestion.pipeline import document_ingest
    from apps.ingestion.services import document_store, validate_document_fields
    from apps.ingestion.text_vectors import text_vectors

    schema_install()
    rng = random.Random(args.seed)
    docs = [document(rng, i, args.size) for i in range(args.documents)]
    from django.core.management import call_command

    from apps.tenants.services import tenant_create

    call_command("migrate", verbosity=0)  # a throwaway tenant row: the gate's merges audit
    slug = f"bench-{uuid.uuid4().hex[:10]}"
    tenant = tenant_create(slug=slug, name=slug)
    scope = Scope(tenant=tenant.uid, actor="bench", actor_kind="system")
    embedder, extractor = get_embedder(), SpacyExtractor.shared()
    embedder.embed(["warm up"])  # load both models before timing
    extractor.nlp("Warm up.")

    warm_tenants = []
    for run in range(args.warmup):  # another seed's documents: the same shapes, other names
        warm = tenant_create(slug=f"{slug}-w{run}", name=f"{slug}-w{run}")
        warm_tenants.append(warm)
        warm_scope = Scope(tenant=warm.uid, actor="bench", actor_kind="system")
        try:
            for text in [document(random.Random(args.seed + 1000 + run), i, args.size)
                         for i in range(args.documents)]:  # fmt: skip
                size = validate_document_fields(warm_scope, content=text, source="bench", url=None)
                stored = document_store(warm_scope, content=text, source="bench", size=size)
                document_ingest(warm_scope, document_uid=stored.uid, extractor=extractor)
        except BaseException:
            tenants_delete(cypher, Scope, [tenant, *warm_tenants])
            raise

    chunks = [c.text for text in docs for c in chunk_document(text)]
    import torch  # only now: imported before django.setup(), it made the model ~3x slower
    from ingest_floor import neo4j_cpu

    embed_threads = torch.get_num_threads()
    started, cpu = time.perf_counter(), time.process_time()
    embedder.embed(chunks)
    embed_seconds, embed_cpu = time.perf_counter() - started, time.process_time() - cpu
    started = time.perf_counter()  # spaCy alone, in the pipeline's windows: the other floor
    for start in range(0, len(chunks), 32):
        extractor.parse_window(chunks[start : start + 32])
    parse_seconds = time.perf_counter() - started
    if args.components:  # each component's pipe over all chunks, in the pipeline's order
        parsed, spent = [extractor.nlp.make_doc(c) for c in chunks], {}
        for name, component in extractor.nlp.pipeline:
            started = time.perf_counter()
            parsed = list(component.pipe(parsed, batch_size=32))
            spent[name] = time.perf_counter() - started
        print("spaCy components: " + ", ".join(f"{k} {v:.3f} s" for k, v in spent.items()))
    if args.floor:
        from ingest_floor import WINDOW, floor_measure, floor_print, names_per_window

        windows = [[c.text for c in cs[s : s + WINDOW]] for cs in map(chunk_document, docs)
                   for s in range(0, len(cs), WINDOW)]  # fmt: skip
        names = names_per_window(docs, extractor)
        floor_print(floor_measure(get_embedder(), extractor, windows, names), names)

    totals = {"chunks_written": 0, "entities_created": 0, "entities_merged": 0,
              "entities_pending": 0, "entities_unchanged": 0, "relations": 0, "duplicates_skipped": 0}  # fmt: skip
    collective = 0  # pending pairs merged once scored again (collective resolution)
    from ingest_profile import (
        profile_install,
        profile_print,
        receipt_lines,
        receipts_diff,
        receipts_write,
    )

    profile = None if args.no_profile else profile_install()
    lines: list[str] = []
    if args.check_neighbours:
        from ingest_neighbours_check import neighbours_check_install, neighbours_check_print

        checked = neighbours_check_install()
    try:
        started, cpu, neo4j_started = time.perf_counter(), time.process_time(), neo4j_cpu()
        with count_round_trips() as trips:
            for index, text in enumerate(docs):
                size = validate_document_fields(scope, content=text, source="bench", url=None)
                stored = document_store(scope, content=text, source="bench", size=size)
                result = document_ingest(scope, document_uid=stored.uid, extractor=extractor)
                lines += receipt_lines(index, result)
                for key in totals:
                    totals[key] += result[key]
                collective += len(result.get("collective_merges") or ())
        pipeline_seconds, pipeline_cpu = time.perf_counter() - started, time.process_time() - cpu
        neo4j_seconds = neo4j_cpu() - neo4j_started if neo4j_started is not None else None
    finally:
        tenants_delete(cypher, Scope, [tenant, *warm_tenants])

    kb = sum(len(t.encode()) for t in docs) / 1024
    print(f"documents: {len(docs)} ({kb:.0f} KB, {len(chunks)} chunks, "
          f"{len(chunks) / len(docs):.1f} per document)")  # fmt: skip
    print(f"embedding model alone: {embed_seconds:.2f} s = {len(docs) / embed_seconds:.2f} docs/s, "
          f"{len(chunks) / embed_seconds:.1f} chunks/s")  # fmt: skip
    print(f"spaCy parse alone:     {parse_seconds:.2f} s = {parse_seconds / embed_seconds:.2f}x "
          "the embedding model's time")  # fmt: skip
    print(f"whole pipeline:        {pipeline_seconds:.2f} s = "
          f"{len(docs) / pipeline_seconds:.2f} docs/s, {len(chunks) / pipeline_seconds:.1f} chunks/s")  # fmt: skip
    print(f"ratio (pipeline time / embedding time): {pipeline_seconds / embed_seconds:.2f}x "
          f"(the model alone on torch's {embed_threads} threads, in the pipeline on "
          f"{settings.INGESTION_ENCODE_THREADS or embed_threads}: INGESTION_ENCODE_THREADS)")  # fmt: skip
    print(f"CPU seconds: model alone {embed_cpu:.2f} s over {embed_seconds:.2f} s wall = "
          f"{embed_cpu / embed_seconds:.2f} cores (load {os.getloadavg()[0]:.1f}); pipeline: "
          f"this process {pipeline_cpu:.2f} s" + (f" + Neo4j {neo4j_seconds:.2f} s = "
          f"{(pipeline_cpu + neo4j_seconds) / embed_cpu:.2f}x the model alone's CPU"
          if neo4j_seconds is not None else f" = {pipeline_cpu / embed_cpu:.2f}x the model's"))  # fmt: skip
    print(f"Neo4j round trips: {trips[0]} = {trips[0] / len(chunks):.1f} per chunk")
    print(
        "written: "
        + ", ".join(f"{k}={v}" for k, v in totals.items())
        + f", collective_merges={collective}"
    )
    print(f"candidate texts the pipeline encoded: {len(text_vectors()._cache)}")
    if profile is not None:
        profile_print(profile, pipeline_cpu, neo4j_seconds, len(chunks))
    print(f"Neo4j CPU per chunk: {(neo4j_seconds or 0) / len(chunks) * 1000:.1f} ms; entities "
          f"created per chunk {totals['entities_created'] / len(chunks):.2f}, pending "
          f"{totals['entities_pending'] / len(chunks):.2f}")  # fmt: skip
    if args.check_neighbours:
        neighbours_check_print(checked)
    if args.receipts:
        receipts_write(args.receipts, lines)
        print(f"receipts: {len(lines)} lines in {args.receipts}")
    if args.diff:
        receipts_diff(args.diff, lines)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(f"peak RSS of this process (models + pipeline, as a worker): {peak:.0f} MiB")


if __name__ == "__main__":
    main()
