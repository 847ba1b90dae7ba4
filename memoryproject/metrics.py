"""The process's Prometheus metrics (prometheus_client), served at /metrics (memoryproject/
metrics_view.py). Counters here are counted where the thing happens; what lives in a store
(jobs, queue depth) is read when /metrics is asked. Names start with `anamnesis_`."""

from __future__ import annotations

from prometheus_client import Counter, Histogram

REQUESTS = Counter(
    "anamnesis_http_requests_total", "HTTP requests by route, method and status",
    ["route", "method", "status"],
)  # fmt: skip
REQUEST_SECONDS = Histogram(
    "anamnesis_http_request_seconds", "HTTP request latency by route and method",
    ["route", "method"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)  # fmt: skip
QUERY_TIMEOUTS = Counter(
    "anamnesis_query_timeouts_total", "Bounded graph reads the database stopped, by name",
    ["name"],
)  # fmt: skip
REFUSED_WRITES = Counter(
    "anamnesis_refused_writes_total", "Writes refused (each kept as a WriteFailure), by kind and code",
    ["kind", "reason"],
)  # fmt: skip
GATE_DECISIONS = Counter(
    "anamnesis_gate_decisions_total", "Identity gate decisions by action", ["action"]
)
EXTRACTOR_SCHEMA_FAILURES = Counter(
    "anamnesis_extractor_schema_failures_total",
    "Extractor answers that broke the schema (the chain's or entry's promotion stopped), by extractor",
    ["extractor"],
)  # fmt: skip
GRAPH_ROUND_TRIPS = Counter("anamnesis_graph_round_trips_total", "Cypher round trips sent to Neo4j")
