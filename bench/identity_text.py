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

    .venv/bin/python bench/identity_text.py                   # dev and held-out, default size
    .venv/bin/python bench/identity_text.py --sets dev --people 6 --orgs 3 --products 2
    .venv/bin/python bench/identity_text.py --show 3          # and three documents of each set
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryproject.settings")

SEEDS = {"dev": 11, "held-out": 29}
FIRST = ["Maria", "Daniel", "Ines", "Tomasz", "Amara", "Kenji", "Lucia", "Oskar", "Priya",
         "Samuel", "Yara", "Felix", "Noor", "Hugo", "Leila", "Mateo", "Signe", "Rafael",
         "Elena", "Jonas", "Aiko", "Bruno", "Carmen", "Dario"]  # fmt: skip
LAST = ["Okafor", "Reyes", "Lindqvist", "Moreau", "Haddad", "Kowalczyk", "Tanaka", "Novak",
        "Ferreira", "Achterberg", "Osei", "Varga", "Castellanos", "Nakamura", "Brennan",
        "Salonen", "Adeyemi", "Vasquez", "Holmgren", "Petrakis", "Duarte", "Ilunga",
        "Marchetti", "Sorensen"]  # fmt: skip
STEMS = ["Northwind", "Brightwater", "Kestrel", "Halcyon", "Vantor", "Quillon", "Marlow",
         "Ostrander", "Cobalt Ridge", "Silverfin", "Tamarind", "Larkspur", "Pinecrest",
         "Redshank", "Ambergate", "Foxglove"]  # fmt: skip
SECTORS = ["Robotics", "Biomedical", "Logistics", "Analytics", "Energy", "Foods", "Optics",
           "Materials"]  # fmt: skip
LEGAL = ["GmbH", "Ltd", "Inc.", "AG", "PBC", "Corporation", "S.A.", "LLC"]
PRODUCT_STEMS = ["Orion", "Nova", "Helix", "Vega", "Atlas", "Pulsar", "Lumen", "Strata"]
CITIES = ["Porto", "Leeds", "Tampere", "Graz", "Valencia", "Gdansk", "Utrecht", "Bergen",
          "Lyon", "Brno", "Cork", "Aarhus"]  # fmt: skip
JOBS = ["nurse", "software engineer", "accountant", "architect", "chemist", "pilot", "teacher",
        "data scientist", "surgeon", "lawyer", "product manager", "geologist"]  # fmt: skip
# What a product is, as notes call it ("the Z5 drone"); the `roles` shape writes it beside some
# mentions (and an organisation's trade beside some of its names), the `plain` shape never.
PRODUCT_KINDS = ["drone", "scanner", "router", "sensor", "headset", "charger", "thermostat",
                 "e-bike"]  # fmt: skip
ROLE_SHARE = 0.7
PHONES = ["+44 20 7946 0{:03d}", "+351 21 234 5{:03d}", "+49 30 9018 2{:03d}",
          "+33 1 45 67 8{:03d}"]  # fmt: skip


@dataclass
class Truth:
    key: str
    kind: str  # person | org | product
    name: str
    facts: dict = field(default_factory=dict)


@dataclass
class Doc:
    text: str
    names: dict[str, str]  # surface -> true entity key


def _half(pool: list, set_name: str) -> list:
    """The dev set's names and the held-out set's are disjoint."""
    return pool[0::2] if set_name == "dev" else pool[1::2]


def world(set_name: str, people: int, orgs: int, products: int, namesakes: int):
    rng = random.Random(SEEDS[set_name])
    kinds = random.Random(SEEDS[set_name] + 1000)  # apart, so both shapes draw one world
    firsts, lasts = _half(FIRST, set_name), _half(LAST, set_name)
    stems, cities = _half(STEMS, set_name), CITIES
    org_list = []
    for i in range(orgs):
        stem, sector = stems[i % len(stems)], rng.choice(SECTORS)
        base = f"{stem} {sector}"
        org_list.append(Truth(f"org{i}", "org", base, {
            "legal": rng.choice(LEGAL), "city": rng.choice(cities),
            "founded": rng.randint(1950, 2015),
            "domain": base.lower().replace(" ", "-") + ".example",
        }))  # fmt: skip
    product_list = []
    for i in range(products):
        stem = PRODUCT_STEMS[(i * 2 + (set_name != "dev")) % len(PRODUCT_STEMS)]
        letter = "ZQKRVWXJ"[(i * 2 + (set_name != "dev")) % 8]
        code = rng.randint(2, 9)
        name = f"{letter}-{code}" if i % 2 == 0 else f"{stem}-X{code}"
        product_list.append(Truth(f"prod{i}", "product", name, {"maker": rng.randrange(orgs),
                                                                "kind": kinds.choice(PRODUCT_KINDS)}))  # fmt: skip
    person_list = []
    names = rng.sample([(f, s) for f in firsts for s in lasts], people)
    for i, (first, last) in enumerate(names):
        person_list.append(_person(rng, f"person{i}", first, last, org_list, cities))
    for j in range(namesakes):  # a different person of the same name
        twin = person_list[j]
        other = _person(rng, f"person{j}b", twin.facts["first"], twin.facts["last"],
                        [o for n, o in enumerate(org_list) if n != twin.facts["employer"]],
                        [c for c in cities if c != twin.facts["city"]])  # fmt: skip
        while other.facts["job"] == twin.facts["job"]:
            other.facts["job"] = rng.choice(JOBS)
        person_list.append(other)
    return rng, person_list, org_list, product_list


def _person(rng, key, first, last, orgs: list[Truth], cities) -> Truth:
    employer = rng.choice(orgs)
    return Truth(key, "person", f"{first} {last}", {
        "first": first, "last": last, "job": rng.choice(JOBS), "city": rng.choice(cities),
        "employer": int(employer.key[3:]), "born": rng.randint(1950, 1998),
        "email": f"{first[0].lower()}.{last.lower()}@{employer.facts['domain']}",
        "phone": rng.choice(PHONES).format(rng.randrange(1000)),
    })  # fmt: skip


def _org_surface(rng, org: Truth) -> str:
    roll = rng.random()
    if roll < 0.45:
        return f"{org.name} {org.facts['legal']}"
    if roll < 0.55:
        return "".join(w[0] for w in org.name.split()).upper()
    if roll < 0.62:
        return org.name.upper()
    return org.name


def _product_surface(rng, product: Truth) -> str:
    stem, _, code = product.name.partition("-")
    return rng.choice([f"{stem}-{code}", f"{stem} {code}", f"{stem}{code}"])


class _Roles:
    """Whether a mention is written with its role: the `plain` shape never, `roles` at
    ROLE_SHARE, drawn apart from the documents' generator (both shapes write the same notes)."""

    def __init__(self, shape: str, seed: int):
        self.on, self.rng = shape == "roles", random.Random(seed + 2000)

    def __call__(self) -> bool:
        return self.on and self.rng.random() < ROLE_SHARE


_roles = _Roles("plain", 0)


def documents(set_name: str, people: int, orgs: int, products: int, namesakes: int,
              shape: str = "roles"):  # fmt: skip
    """(documents, truths, namesake pairs) of one set, in one shape (`roles` or `plain`)."""
    global _roles
    _roles = _Roles(shape, SEEDS[set_name])
    rng, persons, org_list, product_list = world(set_name, people, orgs, products, namesakes)
    docs: list[Doc] = []
    for person in persons:
        for _ in range(rng.randint(2, 5)):
            docs.append(_person_doc(rng, person, org_list, product_list))
    for org in org_list:
        for _ in range(rng.randint(1, 3)):
            docs.append(_org_doc(rng, org, persons, product_list))
    for product in product_list:
        for _ in range(rng.randint(1, 3)):
            docs.append(_product_doc(rng, product, org_list))
    rng.shuffle(docs)
    truths = {t.key: t for t in (*persons, *org_list, *product_list)}
    pairs = [(f"person{j}", f"person{j}b") for j in range(namesakes)]
    return docs, truths, pairs


def _person_doc(rng, p: Truth, orgs: list[Truth], products: list[Truth]) -> Doc:
    f = p.facts
    org = orgs[f["employer"]]
    org_s = _org_surface(rng, org)
    full = p.name if rng.random() > 0.08 else p.name.upper()
    names = {full: p.key, f["last"]: p.key, org_s: org.key}
    product = rng.choice(products) if products else None
    prod_s = _product_surface(rng, product) if product else ""
    if product:
        names[prod_s] = product.key
    first = rng.choice([
        f"{full} is a {f['job']} at {org_s} in {f['city']}.",
        f"{full}, a {f['job']} from {f['city']}, joined {org_s} last spring.",
        f"We met {full} of {org_s} in {f['city']} this morning; she works there as a "
        f"{f['job']}.",
        f"Call notes. {full} works for {org_s} at the {f['city']} office.",
    ])  # fmt: skip
    facts = rng.sample([
        f"{f['last']} was born in {f['born']}.",
        f"{f['last']} can be reached at {f['phone']}.",
        f"{f['last']} uses the address {f['email']} for the project.",
        f"{f['last']} asked about the {prod_s}{_kind(product)} rollout." if product else "",
        f"{f['last']} wants the budget review moved to {f['city']}.",
    ], 2)  # fmt: skip
    return Doc(" ".join([first, *[s for s in facts if s]]), names)


def _org_doc(rng, org: Truth, persons: list[Truth], products: list[Truth]) -> Doc:
    f = org.facts
    org_s = _org_surface(rng, org)
    staff = [p for p in persons if p.facts["employer"] == int(org.key[3:])]
    names = {org_s: org.key}
    sentences = [rng.choice([
        f"{org_s} was founded in {f['founded']} in {f['city']}.",
        f"{org_s}, {_trade(org)}based in {f['city']}, opened a second site this year.",
        f"Quarterly update from {org_s} ({f['city']}).",
    ]), rng.choice([
        f"Its website is {f['domain']}.",
        f"More at https://www.{f['domain']}/about.",
        "Revenue grew by a third.",
    ])]  # fmt: skip
    if staff:
        person = rng.choice(staff)
        names[person.name] = person.key
        sentences.append(f"{person.name} leads the {person.facts['job']} team there.")
    made = [p for p in products if p.facts["maker"] == int(org.key[3:])]
    if made:
        surface = _product_surface(rng, made[0])
        names[surface] = made[0].key
        sentences.append(f"The {surface}{_kind(made[0])} is its best seller.")
    return Doc(" ".join(sentences), names)


def _product_doc(rng, product: Truth, orgs: list[Truth]) -> Doc:
    maker = orgs[product.facts["maker"]]
    surface, maker_s = _product_surface(rng, product), _org_surface(rng, maker)
    text = rng.choice([
        f"The {surface}{_kind(product)} is made by {maker_s}. Customers praise its battery.",
        f"{maker_s} released a firmware update for the {surface}{_its(product)} on Monday.",
        f"Field test of the {surface}{_kind(product)} by {maker_s} went well in "
        f"{maker.facts['city']}.",
    ])  # fmt: skip
    return Doc(text, {surface: product.key, maker_s: maker.key})


def _kind(product: Truth) -> str:
    """' drone' after 'the Z5', when this mention is written with its role."""
    return f" {product.facts['kind']}" if _roles() else ""


def _its(product: Truth) -> str:
    return f", its {product.facts['kind']}," if _roles() else ""


def _trade(org: Truth) -> str:
    """'a robotics firm ' before 'based in', when written with its role."""
    return f"a {org.name.split()[-1].lower()} firm " if _roles() else ""


MENTIONS = """
MATCH (d:Document {tenant: $tenant})<-[:PART_OF]-(:Chunk {tenant: $tenant})
      -[m:MENTIONS]->(e:Entity {tenant: $tenant})
RETURN d.uid AS document, m.surface AS surface, e.uid AS entity, e.status AS status,
       e.name AS name, e.type AS type
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

    docs, truths, pairs = documents(set_name, args.people, args.orgs, args.products,
                                    args.namesakes, args.shape)  # fmt: skip
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
                        print(f"    {r['action']:9} {r['name']!r} -> {r.get('matched_name')!r} "
                              f"{r['reason'][:args.receipts]}")  # fmt: skip
        mentions = cypher.read(scope, MENTIONS)
        pending = cypher.read(scope, PENDING)
    finally:
        while cypher.write(scope, "MATCH (n) WHERE n.tenant = $tenant WITH n LIMIT 5000 "
                                  "DETACH DELETE n RETURN count(*) AS n")[0]["n"]:  # fmt: skip
            pass
        tenant.delete()
    return _scored(docs, truths, pairs, names_of, mentions, pending, spent)


def _scored(docs, truths, pairs, names_of, mentions, pending, spent) -> dict:
    entities_of: dict[str, set[str]] = defaultdict(set)  # true key -> graph entities
    labels: dict[str, Counter] = defaultdict(Counter)  # graph entity -> true keys
    shown: dict[str, set[str]] = defaultdict(set)
    for row in mentions:
        key = _label(row["surface"], names_of.get(row["document"], {}))
        if key is not None:
            entities_of[key].add(row["entity"])
            labels[row["entity"]][key] += 1
            shown[key].add(f"{row['name']}/{row['type']}/{row['entity'][:4]}")
    named = Counter(k for d in docs for k in set(d.names.values()))
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
    by_kind = Counter(truths[k].kind for k in tracked)
    unified_kind = Counter(truths[k].kind for k in tracked if len(entities_of[k]) == 1)
    return {
        "documents": len(docs), "true": len(tracked), "unified": unified / max(1, len(tracked)),
        "per_true": per_true, "namesakes": f"{merged_namesakes}/{len(pairs)}",
        "false_merged": len(impure),
        "pending_per_doc": len(distinct) / max(1, len(docs)),
        "false_pending": false / len(distinct) if distinct else 0.0,
        "false_pending_r3": false_r3 / len(distinct) if distinct else 0.0,
        "ms_per_doc": 1000 * spent / max(1, len(docs)),
        "by_kind": {k: f"{unified_kind[k]}/{n}" for k, n in sorted(by_kind.items())},
        "twins": twins,
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
    parser.add_argument("--show", type=int, default=0, help="print the first N documents")
    parser.add_argument("--splits", action="store_true", help="list true entities left split")
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
    print(f"shape: {args.shape}")
    print(f"{'set':9} {'docs':>4} {'true':>4} {'unified':>7} {'ent/true':>8} {'namesakes':>9} "
          f"{'pend/doc':>8} {'false pend':>10} {'(r3 rule)':>9} {'wrong ent':>9} {'ms/doc':>7}  "
          "unified by kind")  # fmt: skip
    for name in args.sets.split(","):
        r = run_set(name.strip(), args)
        print(f"{name:9} {r['documents']:4d} {r['true']:4d} {r['unified']:7.3f} "
              f"{r['per_true']:8.2f} {r['namesakes']:>9} {r['pending_per_doc']:8.2f} "
              f"{r['false_pending']:10.3f} {r['false_pending_r3']:9.3f} {r['false_merged']:9d} {r['ms_per_doc']:7.0f}  "
              f"{r['by_kind']}", flush=True)  # fmt: skip
        if args.splits:
            for name, parts in r["split"]:
                print(f"  split {name}: {parts}")
        if args.twins:
            _twins_print(r["twins"], args.splits)


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
        print(f"  {kind:10} {'rule' if rule else 'no-twin'} {p:.3f} {pair[:160]}")


if __name__ == "__main__":
    main()
