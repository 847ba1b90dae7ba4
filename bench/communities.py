"""Communities refresh: the documents of bench/ingest_throughput.py (names that recur across
documents, so the entity graph is connected) ingested into a throwaway tenant, then
`communities_refresh` timed twice (the second replaces the first's run), and one global answer
and one community's detail timed. Prints the graph's size, the communities written and times.

    .venv/bin/python bench/communities.py [--documents 10] [--size 2000] [--seed 7]

Uses the configured Neo4j (NEO4J_LOCAL_PORT / NEO4J_BOLT_URL); the tenant is deleted at the end.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryproject.settings")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--documents", type=int, default=10)
    parser.add_argument("--size", type=int, default=2000, help="characters per document")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    import django

    django.setup()
    from bench_tenant import bench_tenant
    from ingest_throughput import document

    from apps.graph import cypher
    from apps.graph.scope import Scope
    from apps.ingestion.extraction.spacy_ner import SpacyExtractor
    from apps.ingestion.pipeline import document_ingest
    from apps.ingestion.services import document_store, validate_document_fields
    from apps.insights import community_selectors
    from apps.insights.communities import communities_refresh
    from apps.tenants.models import KeyScope

    rng = random.Random(args.seed)
    docs = [document(rng, i, args.size) for i in range(args.documents)]
    tenant, _, scope = bench_tenant()
    scope = Scope(tenant=scope.tenant, actor="bench", actor_kind="system",
                  permissions=frozenset({KeyScope.MEMORY_WRITE}))  # fmt: skip
    extractor = SpacyExtractor.shared()
    try:
        for text in docs:
            size = validate_document_fields(scope, content=text, source="bench", url=None)
            stored = document_store(scope, content=text, source="bench", size=size)
            document_ingest(scope, document_uid=stored.uid, extractor=extractor)
        size = cypher.read(scope, "MATCH (e:Entity {tenant: $tenant, status: 'active'}) "
                           "RETURN count(e) AS entities, "
                           "sum(COUNT { (e)-[:RELATED_TO]->() }) AS relations")[0]  # fmt: skip
        print(f"graph: {size['entities']} entities, {size['relations']} relations "
              f"from {len(docs)} documents")  # fmt: skip
        for attempt in (1, 2):
            started = time.perf_counter()
            counts = communities_refresh(scope)
            print(f"refresh {attempt}: {time.perf_counter() - started:.2f} s: "
                  f"{counts['communities']} communities, {counts['members']} members, "
                  f"{counts['singletons']} lone entities, {counts['documents']} documents, "
                  f"replaced {counts['replaced']}")  # fmt: skip
        started = time.perf_counter()
        answer = community_selectors.communities_answer(scope, q="Who builds water pumps?")
        print(f"global answer: {1000 * (time.perf_counter() - started):.0f} ms "
              f"({len(answer['communities'])} summaries)")  # fmt: skip
        if answer["communities"]:
            started = time.perf_counter()
            community_selectors.community_detail(scope, uid=answer["communities"][0]["uid"])
            print(f"one community's detail: {1000 * (time.perf_counter() - started):.0f} ms")
            print(f"best summary: {answer['communities'][0]['summary'][:300]}")
    finally:
        cypher.write(scope, "MATCH (n) WHERE n.tenant = $tenant DETACH DELETE n")
        tenant.delete()


if __name__ == "__main__":
    main()
