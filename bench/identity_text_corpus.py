"""The generator of bench/identity_text.py: short notes about fictional people, organisations
and products, each named in several notes with agents' variants, namesakes, and facts planted in
the sentences. Seeded; the dev and held-out sets draw names from disjoint halves of the pools."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

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
