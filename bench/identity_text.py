"""Identity on text: short documents as agents write them, about fictional people, organisations
and products, each named in several documents with the variants agents use (a legal form or
none, a surname alone after the full name, 'Z-9' / 'Z 9' / 'Z9', an acronym, another case),
namesakes who are different people (another job, city and employer), and facts planted in the
sentences (phones, emails, birth and founding years, web domains). Generated here from a seed;
the dev seed and the held-out seed draw their names from disjoint halves of the pools.

Every document goes through `POST /api/v1/documents?wait=true` (the whole pipeline: chunking,
spaCy, the gate) in a throwaway tenant of the configured Neo4j, deleted at the end. Then each
entity is labelled by the mentions that point to it (the generator knows which true entity each
surface of a document names) and the script prints per set:

  unified         share of true entities named in >= 2 documents that end as one entity
  ent/true        graph entities per true entity
  namesakes       namesake pairs merged (two different people in one entity)
  pend/doc        pending SAME_AS pairs per document
  false pend      share of those pending pairs that join two different true entities (an
                  entity no true one's surface names, a city, is labelled by its name; the
                  `(r3 rule)` column labels it by its uid, as round 3 counted)
  wrong ent       graph entities holding mentions of two or more true entities (wrong merges)
  ms/doc          the POST's time per document
  unified by kind unified / tracked per kind (org, person, product), and the namesakes' own
  reached         (on a line of its own) the (document, true thing) pairs where the document's
                  thing has a mention in the graph: what extraction missed, not resolution

    .venv/bin/python bench/identity_text.py                   # dev and held-out, default size
    .venv/bin/python bench/identity_text.py --sets dev --people 6 --orgs 3 --products 2
    .venv/bin/python bench/identity_text.py --show 3          # and three documents of each set
    .venv/bin/python bench/identity_text.py --corpus crm --seed 2 --shuffle 5   # bench/corpora/

`--corpus crm|field|chat|minutes|memos|standups|clips|briefs|calls` takes its documents from one
of the generators in bench/corpora/ (written apart from the service's code: CRM notes, field
reports, chat digests, minutes, memos, stand-ups, press clips, an assistant's briefs, a voice
agent's call summaries) instead of the builtin one; `--sets` is then ignored and the run is one
set named after the corpus.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import sys
import time
import uuid
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryproject.settings")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpora import GENERATORS  # noqa: E402
from identity_text_corpus import documents  # noqa: E402

MENTIONS = """
MATCH (d:Document {tenant: $tenant})<-[:PART_OF]-(:Chunk {tenant: $tenant})
      -[m:MENTIONS]->(e:Entity {tenant: $tenant})
RETURN d.uid AS document, m.surface AS surface, e.uid AS entity, e.status AS status,
       e.name AS name, e.type AS type
"""
# Why each merged entity was merged (the gate's AutoMerge, a collective Merge), for --wrong.
MERGES = """
MATCH (m:AutoMerge|Merge {tenant: $tenant})
RETURN m.entity_uid AS entity, m.survivor_uid AS survivor, coalesce(m.reason, '') AS reason,
       m.document_uid AS document, m.name AS name, m.created_at AS at
ORDER BY at
"""
PENDING = """
MATCH (a:Entity {tenant: $tenant})-[s:SAME_AS {status: 'pending'}]->(b:Entity {tenant: $tenant})
RETURN a.uid AS a, b.uid AS b, s.score AS score, a.name AS a_name, b.name AS b_name,
       s.reason AS reason, s.evidence AS evidence
"""


def _label(surface: str, names: dict[str, str]) -> str | None:
    if surface in names:
        return names[surface]
    low = surface.casefold()
    for known in sorted(names, key=len, reverse=True):  # "Dr. Okafor", "Okafor's"
        if known.casefold() in low or low in known.casefold() and len(low) >= 3:
            return names[known]
    return None


def run_set(set_name: str, args) -> dict:
    from rest_framework.test import APIClient

    from apps.graph import cypher
    from apps.graph.scope import Scope
    from apps.tenants import services

    if args.corpus == "builtin":
        docs, truths, pairs = documents(set_name, args.people, args.orgs, args.products,
                                        args.namesakes, args.shape)  # fmt: skip
    else:
        docs, truths, pairs = GENERATORS[args.corpus](seed=args.seed)
    if args.shuffle:
        docs = list(docs)
        random.Random(args.shuffle).shuffle(docs)
    for doc in docs[: args.show]:
        print("  |", doc.text)
    slug = f"bench-text-{uuid.uuid4().hex[:8]}"
    tenant = services.tenant_create(slug=slug, name=slug)
    _, raw = services.api_key_issue(tenant=tenant, name="bench", scopes=["memory:write"])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Api-Key {raw}")
    scope = Scope(tenant=tenant.uid, actor="bench", actor_kind="system")
    names_of: dict[str, dict[str, str]] = {}
    spent = 0.0
    try:
        for i, doc in enumerate(docs):
            body = {"content": doc.text, "source": f"agent-note-{i}", "title": f"note {i}"}
            started = time.perf_counter()
            response = client.post("/api/v1/documents?wait=true", body, format="json",
                                   HTTP_HOST="localhost")  # fmt: skip
            spent += time.perf_counter() - started
            assert response.status_code in (200, 201), (response.status_code, response.content)
            names_of[response.json()["document"]] = doc.names
            if args.receipts:
                print("  |", doc.text)
                for r in (response.json().get("result") or {}).get("receipts") or ():
                    if r.get("kind") == "entity":
                        truth = _label(r["name"], doc.names) or "-"
                        proposed = ",".join(p["uid"][-6:] for p in r.get("proposed") or ())
                        print(f"    {r['action']:9} [{truth}] {r['name']!r} -> "
                              f"{r.get('matched_name')!r} {(r.get('entity_uid') or '')[-6:]} "
                              f"{'~' + proposed + ' ' if proposed else ''}"
                              f"{r['reason'][:args.receipts]}")  # fmt: skip
        if args.reresolve:  # what the job of POST /api/v1/resolution/reresolve does
            from apps.review.tenant_reresolution import tenant_reresolve

            done = tenant_reresolve(scope)
            print(f"  re-resolved: {done['passes']} passes, {done['merges']} merges")
        mentions = cypher.read(scope, MENTIONS)
        pending = cypher.read(scope, PENDING)
        merges = cypher.read(scope, MERGES)
    finally:
        while cypher.write(scope, "MATCH (n) WHERE n.tenant = $tenant WITH n LIMIT 5000 "
                                  "DETACH DELETE n RETURN count(*) AS n")[0]["n"]:  # fmt: skip
            pass
        tenant.delete()
    found = _scored(docs, truths, pairs, names_of, mentions, pending, spent)
    found["fingerprint"], found["clusters"] = _fingerprint(docs, names_of, mentions)
    # Each merge with the true entity its mention names (a gate's merge: the document's
    # surface), so the wrong one among an entity's merges shows; a collective merge: '?'.
    found["wrong"] = [(sorted(found["labels"][uid]), [
        f"[{_label(m['name'] or '', names_of.get(m['document'], {})) or '?'}] {m['reason']}"
        for m in merges if uid in (m["survivor"], m["entity"])]) for uid in found["impure"]]  # fmt: skip
    return found


def _fingerprint(docs, names_of, mentions) -> tuple[str, list]:
    """The clusters as sets of (document text, surface), hashed: two runs that fed the same
    documents in different orders (--shuffle) end in the same clusters when these match; and
    the clusters themselves (to say which differ)."""
    text_of = _texts(docs, names_of)
    groups: dict[str, set] = defaultdict(set)
    for row in mentions:
        groups[row["entity"]].add((text_of.get(row["document"], ""), row["surface"]))
    flat = sorted(sorted(g) for g in groups.values())
    return hashlib.sha256(repr(flat).encode()).hexdigest()[:12], flat


def _texts(docs, names_of) -> dict:
    by_names = {id(d.names): d.text for d in docs}
    return {uid: by_names.get(id(names), "") for uid, names in names_of.items()}


def _scored(docs, truths, pairs, names_of, mentions, pending, spent) -> dict:
    entities_of: dict[str, set[str]] = defaultdict(set)  # true key -> graph entities
    labels: dict[str, Counter] = defaultdict(Counter)  # graph entity -> true keys
    shown: dict[str, set[str]] = defaultdict(set)
    for row in mentions:
        key = _label(row["surface"], names_of.get(row["document"], {}))
        if key is not None:
            entities_of[key].add(row["entity"])
            labels[row["entity"]][key] += 1
            # the uid's tail: ordered uids share their first characters (the time)
            shown[key].add(f"{row['name']}/{row['type']}/{row['entity'][-4:]}")
    named = Counter(k for d in docs for k in set(d.names.values()))
    # Each (document, true thing) the document names, and those one of its mentions reached:
    # what extraction missed, apart from what resolution split.
    wanted = {(uid, k) for uid, names in names_of.items() for k in set(names.values())}
    reached = {(row["document"], _label(row["surface"], names_of.get(row["document"], {})))
               for row in mentions} & wanted  # fmt: skip
    tracked = [k for k in truths if named[k] >= 2]
    unified = sum(1 for k in tracked if len(entities_of[k]) == 1)
    per_true = sum(len(entities_of[k]) for k in tracked) / max(1, len(tracked))
    merged_namesakes = sum(1 for a, b in pairs if entities_of[a] & entities_of[b])
    # Wrong merges: graph entities whose mentions name two or more true entities.
    impure = [uid for uid, keys in labels.items() if len(keys) > 1]

    def label(uid, by_name=False):
        if labels.get(uid):
            return labels[uid].most_common(1)[0][0]
        return f"other:{name_of.get(uid, uid).casefold()}" if by_name else f"other:{uid}"

    # An entity no true entity's surface names (a city, a weekday) is labelled by its uid
    # (round 3: two 'Cork' entities count as a false pair) and, in `false pend`, by its name.
    name_of = {row["entity"]: row["name"] for row in mentions}
    distinct = {frozenset((r["a"], r["b"])) for r in pending}
    false_r3 = sum(1 for pair in distinct if len({label(u) for u in pair}) > 1)
    false = sum(1 for pair in distinct if len({label(u, True) for u in pair}) > 1)
    # The twin rule (apps/resolution/twin_reads.py, docs/concepts/twins.md): each pending pair's
    # P(same), whether the rule's other conditions hold, and whether it joins two different true
    # entities (None when a side holds no labelled mention: a city, a weekday, an extractor's
    # fragment, which the generator does not name).
    from apps.resolution.twin_reads import pair_is_twin

    scored = {frozenset((r["a"], r["b"])): r for r in pending}
    twins = []
    for r in scored.values():
        sides = {label(r["a"]), label(r["b"])}
        wrong = None if any(x.startswith("other:") for x in sides) else len(sides) > 1
        twins.append((r["score"] or 0.0, wrong, pair_is_twin(1.0, r["evidence"]),
                      f"{r['a_name']} [{label(r['a'])}] ~ {r['b_name']} [{label(r['b'])}]: "
                      f"{r['reason']}"))  # fmt: skip
    twins.sort(key=lambda t: t[0])
    # Namesakes apart from the other kinds too: a bare mention of a name two people carry may
    # rightly wait for a reviewer, so a change can cost these alone.
    twinned = {k for pair in pairs for k in pair}

    def kinds(k):
        return (truths[k].kind, "namesake") if k in twinned else (truths[k].kind,)

    by_kind = Counter(kind for k in tracked for kind in kinds(k))
    unified_kind = Counter(kind for k in tracked if len(entities_of[k]) == 1 for kind in kinds(k))
    return {
        "documents": len(docs), "true": len(tracked), "unified": unified / max(1, len(tracked)),
        "per_true": per_true, "namesakes": f"{merged_namesakes}/{len(pairs)}",
        "reached": (len(reached), len(wanted)),
        "false_merged": len(impure),
        "pending_per_doc": len(distinct) / max(1, len(docs)),
        "false_pending": false / len(distinct) if distinct else 0.0,
        "false_pending_r3": false_r3 / len(distinct) if distinct else 0.0,
        "ms_per_doc": 1000 * spent / max(1, len(docs)),
        "by_kind": {k: f"{unified_kind[k]}/{n}" for k, n in sorted(by_kind.items())},
        "twins": twins,
        "impure": impure,
        "labels": {uid: {truths[k].name + "/" + k: n for k, n in keys.items()}
                   for uid, keys in labels.items()},
        "split": sorted((truths[k].name, sorted(shown[k])) for k in tracked
                        if len(entities_of[k]) != 1),
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="dev,held-out", help="comma-separated: dev, held-out")
    parser.add_argument("--people", type=int, default=12)
    parser.add_argument("--orgs", type=int, default=6)
    parser.add_argument("--products", type=int, default=4)
    parser.add_argument("--namesakes", type=int, default=2)
    parser.add_argument("--shape", default="roles", choices=("roles", "plain"),
                        help="roles: some mentions say what a product or firm is ('the Z5 "
                             "drone'); plain: round 3's notes, never")  # fmt: skip
    parser.add_argument("--corpus", default="builtin", choices=["builtin", *GENERATORS],
                        help="builtin: identity_text_corpus.py (dev, held-out); else one set from "
                             "bench/corpora/, --sets ignored")  # fmt: skip
    parser.add_argument("--seed", type=int, default=0, help="the bench/corpora generator's seed")
    parser.add_argument("--shuffle", type=int, default=0,
                        help="0: post in generated order; N: shuffled with random.Random(N)")  # fmt: skip
    parser.add_argument("--orders", type=int, default=0,
                        help="N: each set in N orders (generated, then --shuffle 1..N-1), each "
                             "into a tenant of its own, and how many cluster sets they end in "
                             "(the goal: one)")  # fmt: skip
    parser.add_argument("--show", type=int, default=0, help="print the first N documents")
    parser.add_argument("--reresolve", action="store_true",
                        help="re-resolve the whole tenant after the last document (the job)")  # fmt: skip
    parser.add_argument("--splits", action="store_true", help="list true entities left split")
    parser.add_argument("--wrong", action="store_true",
                        help="list entities holding two true entities, with why they merged")  # fmt: skip
    parser.add_argument(
        "--orders-shown",
        type=int,
        default=6,
        help="with --orders: how many differing clusters to name",
    )
    parser.add_argument(
        "--twins",
        action="store_true",
        help="per P(same) threshold: pending pairs at or above it, how many false",
    )
    parser.add_argument("--receipts", type=int, default=0,
                        help="print each document's entity receipts, reasons cut to N characters")  # fmt: skip
    args = parser.parse_args()

    import django

    django.setup()
    from django.core.management import call_command

    from apps.graph.schema import schema_install

    call_command("migrate", verbosity=0)
    schema_install()
    print("goals: unified >= 0.90, namesakes merged 0, pending/doc <= 0.20, false pending <= 0.50")
    print(f"shape: {args.shape}" if args.corpus == "builtin"
          else f"corpus: {args.corpus}, seed {args.seed}")  # fmt: skip
    if args.shuffle:
        print(f"documents shuffled with random.Random({args.shuffle})")
    print(f"{'set':9} {'docs':>4} {'true':>4} {'unified':>7} {'ent/true':>8} {'namesakes':>9} "
          f"{'pend/doc':>8} {'false pend':>10} {'(r3 rule)':>9} {'wrong ent':>9} {'ms/doc':>7}  "
          "unified by kind")  # fmt: skip
    for name in args.sets.split(",") if args.corpus == "builtin" else [args.corpus]:
        if args.orders:
            _orders_run(name.strip(), args)
            continue
        r = run_set(name.strip(), args)
        print(f"{name:9} {r['documents']:4d} {r['true']:4d} {r['unified']:7.3f} "
              f"{r['per_true']:8.2f} {r['namesakes']:>9} {r['pending_per_doc']:8.2f} "
              f"{r['false_pending']:10.3f} {r['false_pending_r3']:9.3f} {r['false_merged']:9d} {r['ms_per_doc']:7.0f}  "
              f"{r['by_kind']}  clusters {r['fingerprint']}", flush=True)  # fmt: skip
        got, of = r["reached"]
        print(f"  reached: {got} of {of} ({got / max(1, of):.3f}) (document, true thing) pairs "
              "have a mention in the graph", flush=True)  # fmt: skip
        for labels, reasons in r["wrong"] if args.wrong else ():
            print(f"  wrong {labels}")
            for reason in reasons:
                print(f"    merged: {reason[:1200]}")
        if args.splits:
            for name, parts in r["split"]:
                print(f"  split {name}: {parts}")
        if args.twins:
            _twins_print(r["twins"], args.splits)


def _orders_run(name: str, args) -> None:
    """The set fed in `args.orders` orders: a line each, then whether they end alike."""
    runs = []
    for order in range(args.orders):
        args.shuffle = order
        r = run_set(name, args)
        runs.append(r)
        print(f"{name:9} order {order}: unified {r['unified']:.3f}, ent/true {r['per_true']:.2f}, "
              f"namesakes {r['namesakes']}, pend/doc {r['pending_per_doc']:.2f}, "
              f"clusters {r['fingerprint']}", flush=True)  # fmt: skip
    for order, r in enumerate(runs[1:], 1):  # what order 0 groups otherwise, by surfaces
        mine = {repr(c) for c in runs[0]["clusters"]}
        theirs = {repr(c) for c in r["clusters"]}
        only = [sorted({s for _, s in c}) for c in runs[0]["clusters"] if repr(c) not in theirs]
        other = [sorted({s for _, s in c}) for c in r["clusters"] if repr(c) not in mine]
        if only or other:
            print(f"  order 0 vs {order}: {len(only)} cluster(s) of order 0 not in order {order} "
                  f"(surfaces {only[:args.orders_shown]}); {len(other)} of order {order} not in "
                  f"order 0 (surfaces {other[:args.orders_shown]})")  # fmt: skip
    unified = [r["unified"] for r in runs]
    print(f"{name:9} {args.orders} orders: {len({r['fingerprint'] for r in runs})} cluster "
          f"set(s) (goal 1), unified {min(unified):.3f}-{max(unified):.3f}", flush=True)  # fmt: skip


def _twins_print(twins: list[tuple], show: bool) -> None:
    """Pending pairs the twin rule shows once, at each P(same) threshold: how many, how many join
    two different true entities (false), how many of the true pairs it keeps; pairs whose sides
    the generator does not name are counted apart (unlabelled)."""
    print(f"  {'P >=':>6} {'twins':>5} {'false':>5} {'unlabelled':>10} {'true kept':>9}")
    true_total = sum(1 for _, false, _, _ in twins if false is False)
    for threshold in (0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95):
        shown = [false for p, false, rule, _ in twins if p >= threshold and rule]
        kept = sum(1 for false in shown if false is False)
        print(f"  {threshold:6.2f} {len(shown):5d} {sum(1 for f in shown if f):5d} "
              f"{sum(1 for f in shown if f is None):10d} {kept:4d}/{true_total:<4d}")  # fmt: skip
    for p, false, rule, pair in twins if show else ():
        kind = "unlabelled" if false is None else "FALSE" if false else "true"
        print(f"  {kind:10} {'rule' if rule else 'no-twin'} {p:.3f} {pair[:900]}")


if __name__ == "__main__":
    main()
