"""Recall of old answers in long histories: prints figures, asserts nothing.

    .venv/bin/python bench/conversations_recall.py                 # 8 users x 5,000 messages
    .venv/bin/python bench/conversations_recall.py --long-users 20 --short-users 400

Users with `--long-messages` (5,000) messages each, and users with `--short-messages` (50).
Every user has facts planted among everyday filler (each fact once, in words of its own); a
question asks for each fact in other words (a paraphrase: few or no words in common). In the
long histories every planted fact is older than the newest 200 messages, so only the full-text
and vector paths can find it, never the exact comparison over the newest. Each question goes
through check_context(k=10); recall@10 is the share of questions whose planted message is
among the message hits, and p50/p95 are of its server time without the question's embedding.

Filler messages are distinct everyday sentences (no two messages of any users share one),
bulk-loaded with the model's vector of their own text, as are the planted facts; the filler's
vectors are kept in the data dir, so only a first run at a size embeds them. Uses the
configured Neo4j and a tenant of its own, deleted at the end (unless --keep).
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

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402

from apps.conversations import context  # noqa: E402
from apps.conversations.input_limits import owner_key  # noqa: E402
from apps.graph import cypher  # noqa: E402
from apps.graph.connection import graph_connect  # noqa: E402
from apps.graph.embeddings import get_embedder  # noqa: E402
from apps.graph.schema import schema_install  # noqa: E402
from apps.graph.scope import Scope  # noqa: E402
from bench.conversations import LOAD_MESSAGES, LOAD_NEXT, WIPE, pct  # noqa: E402

# (fact as the user said it, question in other words); {x} is filled per user.
FACTS = [
    ("My sister adopted a tabby kitten and called it {name}.",
     "What is my sibling's cat's name?"),
    ("We booked flights to {city} to celebrate our wedding anniversary.",
     "Where are my spouse and I travelling for the yearly celebration of our marriage?"),
    ("The doctor confirmed I am allergic to {food}.",
     "Which food makes my body react badly?"),
    ("I left the car on level {n} of the garage by the stadium.",
     "Where did I park my vehicle?"),
    ("I signed the offer from {company} and begin there on Monday.",
     "Which employer hired me recently?"),
    ("The wifi password at home is {name}{n}.",
     "What do I type to get on the house internet?"),
    ("I lent my bicycle to {name} from next door.",
     "Which neighbour borrowed my bike?"),
    ("My daughter's piano recital is at {n} pm in the school hall.",
     "What time does my kid play music on stage?"),
    ("The landlord raised the rent to {n}00 dollars a month.",
     "How much do I owe for the apartment every month now?"),
    ("My passport expires in {month}, so I must renew it.",
     "When does my travel document run out?"),
    ("Grandma's birthday party will be held in {city}.",
     "In which town is the celebration for my grandmother?"),
    ("I started learning {language} with an online tutor.",
     "Which foreign tongue am I studying?"),
]  # fmt: skip
SLOTS = {
    "name": ["Biscuit", "Pepper", "Juniper", "Marlow", "Tansy", "Olive", "Rocco", "Sable"],
    "city": ["Lisbon", "Kyoto", "Valparaiso", "Tallinn", "Marrakesh", "Hobart", "Bergen"],
    "food": ["peanuts", "shellfish", "sesame", "kiwi fruit", "buckwheat", "celery"],
    "n": [str(i) for i in range(2, 10)],
    "company": ["Northwind", "Helix Labs", "Bramble & Co", "Quarry Analytics", "Lumen Freight"],
    "month": ["March", "August", "November", "January", "June"],
    "language": ["Portuguese", "Korean", "Finnish", "Swahili", "Turkish", "Dutch"],
}
# Everyday chat and work filler, from templates whose slots give far more distinct sentences
# than a history holds: every filler message of a user is a sentence of its own (no repeats,
# so no single sentence near a question can take several places), with its own model vector.
FILLER = [
    ("{person} {work_verb} the {work_thing} {when}.",
     {"work_verb": ["reviewed", "rewrote", "signed off", "presented", "sent back", "questioned",
                    "finished", "postponed", "shared", "printed", "updated", "archived"],
      "work_thing": ["budget draft", "sprint plan", "supplier contract", "quarterly slides",
                     "hiring memo", "test report", "release notes", "safety checklist",
                     "invoice batch", "migration plan", "customer survey", "audit findings",
                     "roadmap", "training deck", "onboarding guide", "pricing sheet"]}),
    ("Can you {task} the {doc} about {topic}?",
     {"task": ["summarise", "shorten", "proofread", "translate", "outline", "check",
               "reformat", "draft a reply to"],
      "doc": ["email", "notes", "thread", "report", "minutes", "proposal", "ticket", "memo"],
      "topic": ["the server outage", "the office move", "the new printer", "the team offsite",
                "the tax forms", "the conference talk", "the data export", "the code review",
                "the vendor delay", "the holiday rota", "the parking permits",
                "the coffee machine", "the fire drill", "the intern projects"]}),
    ("It was {weather} {place} {when}.",
     {"weather": ["windy", "foggy", "humid", "freezing", "sunny but cold", "pouring",
                  "oddly warm", "grey and drizzly", "stormy", "clear and bright"],
      "place": ["on the walk to work", "at the bus stop", "by the river", "in the car park",
                "at the market", "on the bridge", "outside the office", "in the park"]}),
    ("I {errand} {when}, {aside}.",
     {"errand": ["picked up the dry cleaning", "paid the electricity bill", "returned my library books",
                 "fixed the squeaky door", "took out the recycling", "bought new light bulbs",
                 "mowed the lawn", "washed the windows", "sorted the mail", "ironed my shirts",
                 "emptied the dishwasher", "changed the bed sheets"],
      "aside": ["which took longer than expected", "finally", "before lunch", "in a hurry",
                "with the radio on", "between two calls", "while it was quiet"]}),
    ("{owner} {device} {fault} {when} and {result}.",
     {"owner": ["The", "My", "Our"],
      "device": ["laptop", "printer", "router", "projector", "phone", "dishwasher", "kettle",
                 "headset", "monitor", "badge reader"],
      "fault": ["froze", "kept beeping", "lost its connection", "would not start",
                "overheated", "reset itself"],
      "result": ["I restarted it", "IT is looking at it", "I gave up on it", "it works again",
                 "I filed a ticket", "nobody knows why"]}),
    ("{viewers} watched a {media} about {subject} {when}.",
     {"viewers": ["We", "I", "My wife and I", "My son and I", "My flatmate"],
      "media": ["documentary", "film", "series", "short video", "lecture"],
      "subject": ["deep sea creatures", "medieval castles", "jazz musicians", "glaciers",
                  "the space race", "urban gardening", "ancient Rome", "chess champions",
                  "bee colonies", "mountain railways", "desert nomads", "old typewriters"]}),
]  # fmt: skip
WHO = ["Priya", "Tom", "My manager", "My sister-in-law", "My colleague", "Our manager", "The new hire", "Legal", "Finance", "The client", "Mei",
       "Jonas", "The contractor", "Aisha", "Our lead", "Marco", "The auditor"]  # fmt: skip
WHEN = ["this morning", "yesterday", "on Monday", "after lunch", "late last night", "on Friday",
        "before the standup", "last week", "at noon", "over the weekend", "on Tuesday",
        "early today", "right after the call", "on Thursday evening"]  # fmt: skip


def filler_sentences(rng: random.Random, n: int) -> list[str]:
    """`n` distinct filler sentences."""
    out: set[str] = set()
    while len(out) < n:
        template, slots = rng.choice(FILLER)
        fill = {k: rng.choice(v) for k, v in slots.items()}
        out.add(template.format(person=rng.choice(WHO), when=rng.choice(WHEN), **fill))
    return sorted(out)


class FillerPool:
    """Distinct filler sentences with their model vectors (made once, kept in the data dir so a
    second run does not embed them again). Each is given once: no two messages of any users
    share a filler sentence (nor its vector, which would also crowd the vector index's graph
    with duplicates no real history has)."""

    def __init__(self, rng: random.Random, size: int) -> None:
        import hashlib

        import numpy as np

        self.texts = filler_sentences(rng, size)
        rng.shuffle(self.texts)
        digest = hashlib.sha256("\n".join(self.texts).encode()).hexdigest()[:16]
        cache = Path(os.environ.get("ANAMNESIS_DATA_DIR", ".local")) / f"bench-filler-{digest}.npy"
        if cache.exists():
            self.vectors = np.load(cache)
        else:
            self.vectors = np.array(get_embedder().embed(self.texts), dtype=np.float32)
            np.save(cache, self.vectors)
        self.next = 0
        self.order = list(range(len(self.texts)))

    def deal(self, rng: random.Random) -> None:
        """Hand the sentences out in an order of `rng` (the run's seed; the pool's own seed only
        makes the sentences, so runs of several seeds share one embedding of the pool)."""
        rng.shuffle(self.order)

    def draw(self, n: int) -> list[tuple[str, list[float]]]:
        picked = self.order[self.next : self.next + n]
        self.next += n
        return [(self.texts[i], self.vectors[i].tolist()) for i in picked]


def plant(rng: random.Random, count: int) -> list[tuple[str, str]]:
    """`count` distinct facts of one user, as (said, asked)."""
    chosen = rng.sample(FACTS, count)
    out = []
    for said, asked in chosen:
        fill = {k: rng.choice(v) for k, v in SLOTS.items()}
        out.append((said.format(**fill), asked))
    return out


def load_user(scope, pool, rng, user: str, total: int, sessions: int, facts, *, old_from: int):
    """`total` messages over `sessions` sessions (the last session the newest); the facts go
    at random places among messages 1..old_from (counted over the whole history, oldest
    first). Returns [(question, planted text)]."""
    places = rng.sample(range(1, old_from + 1), len(facts))
    planted = dict(zip(places, facts, strict=True))
    vectors = get_embedder().embed([said for said, _ in facts])
    by_text = {said: v for (said, _), v in zip(facts, vectors, strict=True)}
    per = total // sessions
    key = owner_key(scope.tenant, user)
    filler = iter(pool.draw(per * sessions - len(facts)))
    rows, index = [], 0
    for s in range(sessions):
        for no in range(1, per + 1):
            index += 1
            if index in planted:
                text = planted[index][0]
                vector = by_text[text]
            else:
                text, vector = next(filler)
            rows.append({"user": user, "sid": f"s{s}", "no": no, "role": "user", "text": text,
                         "owner": key, "vector": vector})  # fmt: skip
    for start in range(0, len(rows), 1000):
        part = rows[start : start + 1000]
        cypher.write(scope, LOAD_MESSAGES, rows=part)
        cypher.write(scope, LOAD_NEXT, rows=[r for r in part if r["no"] > 1])
    return [(asked, said) for said, asked in facts]


# Where the planted message stands among all of the user's messages by exact similarity to the
# question (a full scan, for the report only): what no index can do better than.
EXACT_PLACE = """
MATCH (m:Message {tenant: $tenant, user: $user}) WHERE m.embedding IS NOT NULL
WITH m.text AS text, vector.similarity.cosine(m.embedding, $vector) AS score
ORDER BY score DESC
WITH collect(text) AS texts
RETURN [i IN range(0, size(texts) - 1) WHERE texts[i] = $said][0] + 1 AS place, texts[0] AS first
"""


def ask(scope, user: str, sid: str, questions, *, k: int, misses: list, by_words: list):
    times, found = [], 0
    for question, said in questions:
        result = context.check_context(scope, user=user, sid=sid, message=question, k=k,
                                       token_budget=2000)  # fmt: skip
        times.append(result["timings"]["server_ms"])
        hit = [m for m in result["message_hits"] if m["text"] == said]
        found += bool(hit)
        if hit and "words" in hit[0]["ranks"]:
            by_words.append((question, said))
        if not hit:
            exact = cypher.read(scope, EXACT_PLACE, user=user, said=said,
                                vector=get_embedder().embed([question])[0])[0]  # fmt: skip
            misses.append((user, question, said, exact["place"], exact["first"],
                           [m["text"] for m in result["message_hits"][:2]]))  # fmt: skip
    return times, found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--long-users", type=int, default=8)
    ap.add_argument("--long-messages", type=int, default=5_000)
    ap.add_argument("--short-users", type=int, default=100)
    ap.add_argument("--short-messages", type=int, default=50)
    ap.add_argument("--facts", type=int, default=6, help="planted facts (questions) per user")
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--warmup", type=int, default=30, help="context calls not counted")
    ap.add_argument("--seed", type=int, default=11, help="facts, their places, questions, order")
    ap.add_argument("--filler-seed", type=int, default=11, help="the filler sentences")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--exact-scan", type=int, default=None,
                    help="compare exactly with all messages of a user who has at most this many "
                         "(settings.CONTEXT_EXACT_SCAN_MESSAGES; 0: always the vector index)")  # fmt: skip
    ap.add_argument("--index-depth", type=int, default=None,
                    help=f"places read from the vector index (default {context.INDEX_DEPTH})")  # fmt: skip
    ap.add_argument("--message-floor", type=float, default=None,
                    help="context_floors.MESSAGE_FLOOR for this run (0: no floor)")  # fmt: skip
    args = ap.parse_args()
    if args.message_floor is not None:
        from apps.conversations import context_floors

        context_floors.MESSAGE_FLOOR = args.message_floor
    if args.exact_scan is not None:
        settings.CONTEXT_EXACT_SCAN_MESSAGES = args.exact_scan
    if args.index_depth is not None:
        context.INDEX_DEPTH = args.index_depth

    rng = random.Random(args.seed)
    graph_connect()
    schema_install()
    scope = Scope(tenant=f"bench-{uuid.uuid4().hex[:8]}", actor="bench", actor_kind="system")
    pool = FillerPool(random.Random(args.filler_seed),
                      args.long_users * (args.long_messages - args.facts)
                      + args.short_users * (args.short_messages - args.facts))  # fmt: skip
    pool.deal(rng)
    started = time.perf_counter()
    asks: dict[str, list] = {"long": [], "short": []}
    for u in range(args.long_users):
        user = f"long-{u}"
        facts = plant(rng, args.facts)
        questions = load_user(scope, pool, rng, user, args.long_messages, 5, facts,
                              old_from=args.long_messages - 200)  # fmt: skip
        asks["long"].append((user, questions))
    for u in range(args.short_users):
        user = f"short-{u}"
        facts = plant(rng, args.facts)
        questions = load_user(scope, pool, rng, user, args.short_messages, 1, facts,
                              old_from=args.short_messages)  # fmt: skip
        asks["short"].append((user, questions))
    total = args.long_users * args.long_messages + args.short_users * args.short_messages
    print(f"tenant {scope.tenant}: {args.long_users} users x {args.long_messages} messages, "
          f"{args.short_users} users x {args.short_messages}; {total} messages loaded in "
          f"{time.perf_counter() - started:.0f} s")  # fmt: skip
    schema_install()  # waits until the indexes have caught up with the load

    try:
        # Warm-up calls on other users' sessions (plans cached, as on a server in use).
        for i in range(args.warmup):
            users = asks["short" if i % 2 else "long"]
            user, questions = users[i % len(users)]
            context.check_context(scope, user=user, sid="warm", message=questions[0][0], k=args.k)
        # Interleaved, so both kinds see the same machine.
        figures = {"long": ([], 0, 0), "short": ([], 0, 0)}
        order = [("long", x) for x in asks["long"]] + [("short", x) for x in asks["short"]]
        rng.shuffle(order)
        misses: list = []
        words = {"long": [], "short": []}
        for kind, (user, questions) in order:
            times, found = ask(scope, user, "ask", questions, k=args.k, misses=misses,
                               by_words=words[kind])  # fmt: skip
            t, f, n = figures[kind]
            figures[kind] = (t + times, f + found, n + len(questions))
        print(f"exact comparison with all messages of users with at most "
              f"{settings.CONTEXT_EXACT_SCAN_MESSAGES}, else {context.INDEX_DEPTH} places of the "
              f"vector index; seed {args.seed}, filler seed {args.filler_seed}")  # fmt: skip
        for kind, (times, found, n) in figures.items():
            messages = args.long_messages if kind == "long" else args.short_messages
            print(f"{kind} histories ({messages} messages): recall@{args.k} {found}/{n} = "
                  f"{found / n:.3f} ({len(words[kind])} of them also found by words); "
                  f"context server time p50 {pct(times, 50):.1f} ms, "
                  f"p95 {pct(times, 95):.1f} ms")  # fmt: skip
        for question, said in words["long"]:
            print(f"  by words too: {question!r} -> {said!r}")
        long_p95, short_p95 = pct(figures["long"][0], 95), pct(figures["short"][0], 95)
        print(f"p95 long / short: {long_p95 / short_p95:.2f} (goal <= 1.5; recall goal >= 0.9)")
        for user, question, said, place, first, got in misses:
            print(f"  missed for {user}: {question!r} -> {said!r}\n"
                  f"    exact place {place} (first {first!r}); given first {got}")  # fmt: skip
    finally:
        if not args.keep:
            while cypher.write(scope, WIPE)[0]["n"]:
                pass


if __name__ == "__main__":
    main()
