"""Where ingestion's CPU goes, for bench/ingest_throughput.py: this process's CPU by stage (each
stage's own thread's CPU, `time.thread_time`, summed over its calls) and the local Neo4j's CPU by
query (its JVM's CPU from /proc read before and after each round trip, so a query's share is
what the server spent while it ran; what it spent between queries, its commits included, is
counted apart). Hooks wrap the pipeline's functions at module level for the bench's run only.

Also the receipts as a stable text (names, actions, scores and proposals, no uids), so two runs
on different code can be diffed line by line: `--receipts FILE` and `--diff OLD`.

Stages: parse (spaCy's batch, main thread), extract (rules and short-term state, main thread),
names (the candidates' names and descriptions sent to the model, main thread's own CPU), embed
(the model's thread: chunks and names), dedup (duplicate checks, writer's thread), gate reads
(the window's key claims and index lookups, including the driver's decoding), gate decisions
(scoring and the rule), writes (the window's other queries: chunks, creates, absorbs, mentions,
relations), commit (the driver's side of it), collective (collective resolution after each
document, its queries included)."""

from __future__ import annotations

import difflib
import functools
import os
import sys
import threading
import time
from collections import defaultdict

_TICK = os.sysconf("SC_CLK_TCK")


class Neo4jClock:
    """The local Neo4j JVM's CPU seconds (utime + stime), read from /proc; None when unreadable."""

    def __init__(self) -> None:
        from apps.graph import local_neo4j

        self.path = f"/proc/{local_neo4j.status().pid}/stat"

    def __call__(self) -> float | None:
        try:
            with open(self.path) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, TypeError):
            return None
        return (int(fields[11]) + int(fields[12])) / _TICK


def query_labels() -> dict[str, str]:
    """Query text -> `module.NAME` for every query constant the project's apps define."""
    labels = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith("apps.") or module is None:
            continue
        for attr, value in vars(module).items():
            if not attr.isupper():
                continue
            label = f"{name.removeprefix('apps.')}.{attr}"
            if isinstance(value, str) and "$tenant" in value:
                labels.setdefault(value, label)
            elif isinstance(value, dict):  # a family of queries keyed by a variant (BLOCK_HITS)
                for key, query in value.items():
                    if isinstance(query, str) and "$tenant" in query:
                        labels.setdefault(query, f"{label}[{key}]")
    return labels


class Profile:
    def __init__(self) -> None:
        self.stage = defaultdict(float)  # stage -> CPU seconds of its thread
        self.queries = defaultdict(lambda: [0, 0.0, 0.0])  # label -> [count, wall, Neo4j CPU]
        self.commits = [0, 0.0, 0.0]  # count, wall, Neo4j CPU
        self.neo4j = Neo4jClock()
        self.labels: dict[str, str] = {}
        self._lock = threading.Lock()

    def label(self, query: str) -> str:
        found = self.labels.get(query)
        if found is None:
            line = next((s.strip() for s in query.splitlines()
                         if s.strip() and not s.strip().startswith(("CYPHER", "//"))), "?")  # fmt: skip
            found = self.labels[query] = line[:48]
        return found

    def add_query(self, query: str, wall: float, cpu: float) -> None:
        with self._lock:
            entry = self.queries[self.label(query)]
            entry[0] += 1
            entry[1] += wall
            entry[2] += cpu

    def timed_stage(self, stage: str, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            started = time.thread_time()
            try:
                return fn(*args, **kwargs)
            finally:
                spent = time.thread_time() - started
                with self._lock:
                    self.stage[stage] += spent

        return wrapper


def profile_install() -> Profile:
    """Wrap the pipeline's stages and every round trip; returns the Profile they fill."""
    from apps.graph import cypher
    from apps.ingestion import pipeline, text_vectors
    from apps.resolution import gate_batch

    profile = Profile()
    profile.labels = query_labels()
    clock = profile.neo4j

    scoped_run = cypher.ScopedTx.run

    def run(self, query, **params):
        started, cpu = time.perf_counter(), clock() or 0.0
        try:
            return scoped_run(self, query, **params)
        finally:
            profile.add_query(query, time.perf_counter() - started, (clock() or 0.0) - cpu)

    cypher.ScopedTx.run = run
    execute = cypher._execute

    def execute_timed(scope, query, params, mode):
        started, cpu = time.perf_counter(), clock() or 0.0
        try:
            return execute(scope, query, params, mode)
        finally:
            profile.add_query(query, time.perf_counter() - started, (clock() or 0.0) - cpu)

    cypher._execute = execute_timed
    write_unit = cypher.write_unit

    def write_unit_timed(scope, work):
        mark = {}

        def marked(stx):
            result = work(stx)
            stx.end()  # what write_unit does after work; run here so the commit is what follows
            mark.update(wall=time.perf_counter(), cpu=clock() or 0.0, thread=time.thread_time())
            return result

        result = write_unit(scope, marked)
        spent = time.thread_time() - mark["thread"]
        with profile._lock:
            profile.commits[0] += 1
            profile.commits[1] += time.perf_counter() - mark["wall"]
            profile.commits[2] += (clock() or 0.0) - mark["cpu"]
            profile.stage["commit"] += spent
        return result

    cypher.write_unit = write_unit_timed
    stage = profile.timed_stage
    pipeline._window_parse = stage("parse", pipeline._window_parse)
    pipeline._window_extract = stage("extract", pipeline._window_extract)
    pipeline._candidates_embed = stage("names", pipeline._candidates_embed)
    pipeline.chunks_duplicate_layers = stage("dedup", pipeline.chunks_duplicate_layers)
    pipeline.collective_merges = stage("collective", pipeline.collective_merges)
    pipeline.window_write = stage("window", pipeline.window_write)
    tv = text_vectors.TextVectors
    tv._embed_distinct = stage("embed", tv._embed_distinct)
    for name in ("keys_claim", "matches_find_all", "neighbours_read"):
        if hasattr(gate_batch, name):
            setattr(gate_batch, name, stage("gate reads", getattr(gate_batch, name)))
    gate_batch.proposals_score = stage("gate decisions", gate_batch.proposals_score)
    gate_batch.gate_decide = stage("gate decisions", gate_batch.gate_decide)
    return profile


def profile_print(profile: Profile, process_cpu: float, neo4j_total: float | None, chunks: int):
    s = dict(profile.stage)
    window = s.pop("window", 0.0)
    inside = s.get("gate reads", 0.0) + s.get("gate decisions", 0.0) + s.get("commit", 0.0)
    s["writes"] = max(0.0, window - inside)
    s["other"] = process_cpu - sum(s.values())
    order = ["parse", "extract", "names", "embed", "dedup", "gate reads", "gate decisions",
             "writes", "commit", "collective", "other"]  # fmt: skip
    print(f"profile, this process's CPU by stage ({process_cpu:.2f} s): "
          + ", ".join(f"{k} {s.get(k, 0.0):.2f}" for k in order))  # fmt: skip
    in_queries = sum(q[2] for q in profile.queries.values())
    total = neo4j_total or 0.0
    print(f"profile, Neo4j CPU ({total:.2f} s = {total / max(1, chunks) * 1000:.0f} ms a chunk): "
          f"in queries {in_queries:.2f} s, commits {profile.commits[2]:.2f} s "
          f"({profile.commits[0]}, {profile.commits[1]:.2f} s wall), "
          f"other {total - in_queries - profile.commits[2]:.2f} s")  # fmt: skip
    print("profile, by query (count, wall s, Neo4j CPU s):")
    for label, (n, wall, cpu) in sorted(profile.queries.items(), key=lambda kv: -kv[1][2]):
        if n:
            print(f"  {label:<48} {n:>5} {wall:>7.2f} {cpu:>7.2f}")


def receipt_lines(document: int, result: dict) -> list[str]:
    """One line per entity receipt and per collective merge, without uids."""
    out = []
    for r in result.get("receipts") or ():
        if r.get("kind") != "entity":
            continue
        proposed = ";".join(
            f"{p.get('name')}={p.get('score'):.4f}" for p in r.get("proposed") or ()
        )
        score = "" if r.get("score") is None else f"{r['score']:.4f}"
        out.append(f"doc {document} {r['name']!r} {r['action']} -> {r.get('matched_name')!r} "
                   f"{score} [{proposed}]")  # fmt: skip
    for m in result.get("collective_merges") or ():
        out.append(f"doc {document} collective {m['merged_name']!r} -> {m['survivor_name']!r}")
    return out


def receipts_write(path: str, lines: list[str]) -> None:
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def receipts_diff(old_path: str, lines: list[str]) -> None:
    with open(old_path) as f:
        old = f.read().splitlines()
    diff = list(difflib.unified_diff(old, lines, old_path, "this run", lineterm="", n=0))
    print(f"receipts diff against {old_path}: {len(old)} lines before, {len(lines)} now, "
          f"{sum(1 for d in diff if d[:1] in '+-' and d[:3] not in ('+++', '---'))} differ")  # fmt: skip
    for line in diff[:200]:
        print("  " + line)
