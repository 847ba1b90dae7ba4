"""The generated long documents of bench/long_documents.py: topics with a company, two people and
a city each, told without headers as a report, an email thread or meeting minutes, with the
offsets of every planted topic change and of every "the company", "the firm" and "the city"
(each stands for its topic's company or city)."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

DEV_SEEDS, HELD_OUT_SEEDS = 1000, 2000

DOMAINS = {
    "Freight": [
        "{o} moves grain and timber through the port of {c} on a fleet of nine cargo vessels.",
        "The company expects freight rates on the northern routes to rise again before winter.",
        "{p} runs the dispatch office, and {sp} tracks every container that leaves the harbour.",
        "According to {q}, the firm lost two weeks of sailings when the cranes broke down.",
        "Dock workers in the city complained that the night shifts on the quay were too long.",
        "{pl} says the harbour dues charged by the city have doubled in three years.",
    ],
    "Bakeries": [
        "{o} bakes rye bread, croissants and wedding cakes in a converted mill outside {c}.",
        "The company supplies forty cafes and two schools with fresh loaves every morning.",
        "{p} trained as a pastry chef, and {sp} still tastes every new recipe before it ships.",
        "Flour prices hurt the firm last spring, {q} admitted, so the ovens run on a tighter rota.",
        "The city granted the bakery a permit to open a shop in the old market hall.",
        "{pl} wants the company to sell sourdough starter kits by mail before the holidays.",
    ],
    "Software": [
        "{o} writes scheduling software for dentists and physiotherapists across {c}.",
        "The company shipped a new release of its booking app after a long beta test.",
        "{p} leads the engineering team, and {sp} insists on code review for every change.",
        "{q} said the firm had moved its servers to a data centre on the edge of the city.",
        "Customers reported that the calendar sync failed for two days after the upgrade.",
        "{pl} plans to hire twelve developers and a security engineer for the company.",
    ],
    "Mining": [
        "{o} extracts copper and zinc from an open pit forty kilometres north of {c}.",
        "The company hauls the ore by rail to a smelter on the coast.",
        "{p} manages the pit, and {sp} reports the blasting schedule to the regulator weekly.",
        "Environmental groups in the city want the firm to line its tailings ponds, {q} said.",
        "The company spent heavily on water treatment after a spill of acid runoff.",
        "{pl} expects the copper seam to last another fifteen years at the current rate.",
    ],
    "Health": [
        "{o} operates three clinics and a small surgical ward in {c}.",
        "The company hired eleven nurses after the waiting lists grew past six months.",
        "{p} is the medical director, and {sp} signs off on every new treatment protocol.",
        "{q} said the firm had signed a contract with the city to run its vaccination centre.",
        "Patients praised the new physiotherapy wing, though parking remains a problem.",
        "{pl} says the company will open an outpatient unit for children next autumn.",
    ],
    "Wines": [
        "{o} grows riesling and pinot noir on terraced slopes above {c}.",
        "The company harvested its grapes early this year because of the heat in the valley.",
        "{p} is the winemaker, and {sp} ages the best reds in oak barrels for two years.",
        "Tourists from the city fill the tasting room every weekend, {q} said.",
        "Hail damaged a third of the vines in the lower field, and the firm claimed on insurance.",
        "{pl} hopes the company can sell its sparkling wine abroad within a few seasons.",
    ],
    "Air": [
        "{o} flies turboprops from {c} to a dozen small island airports.",
        "The company grounded two aircraft for engine inspections after a bird strike.",
        "{p} is the chief pilot, and {sp} trains every new first officer in the simulator.",
        "{q} said the firm pays the city airport a fee for every passenger it boards.",
        "Passengers complained about delays on the early morning departures to the islands.",
        "{pl} wants the company to lease a jet for a weekly route to the mainland.",
    ],
    "Textiles": [
        "{o} weaves wool blankets and upholstery fabric in a brick factory in {c}.",
        "The company dyes its yarn with plant extracts instead of synthetic colours.",
        "{p} designs the patterns, and {sp} keeps a sample of every fabric the looms produced.",
        "{q} said the firm sells most of its blankets to hotels in the city.",
        "The looms are sixty years old and need constant repair by the two mechanics.",
        "{pl} says the company will add a second shift if the hotel orders keep growing.",
    ],
}
GENERIC = [
    "Revenue rose {n} percent last year, the company said.",
    "{Sp} told staff that the company would not cut jobs this year.",
    "The firm employs {n0} people, most of them in {c}.",
    "{q} has worked for the company for {n} years.",
    "In the last quarter the city council asked the company to publish its accounts.",
    "{Sp} declined to comment on the figures.",
    "{Sp} said the results were better than anyone had expected.",
]
OPENING = "The company announced a record quarter on {day}, and its board met the next morning."
PREFIXES = ["Northwind", "Halvorsen", "Brightwater", "Calder", "Redfern", "Marlow", "Kestrel",
            "Ashby", "Whitcombe", "Duvall", "Pembroke", "Lindgren", "Castellan", "Oakridge"]  # fmt: skip
SUFFIXES = ["", " Ltd", " Inc", " Group"]
WOMEN = ["Hana", "Elif", "Chiara", "Farah", "Ingrid", "Priya", "Marta", "Sofia"]
MEN = ["Bruno", "Dmitri", "Goran", "Ivo", "Tomas", "Rafael", "Anders", "Kenji"]
LAST = ["Lindqvist", "Okafor", "Moreau", "Tanaka", "Novak", "Reyes", "Haddad", "Kowalski",
        "Brennan", "Sato", "Ferreira", "Mbeki", "Jansen", "Petrakis", "Andersen", "Varga"]  # fmt: skip
CITIES = ["Oslo", "Lisbon", "Nairobi", "Osaka", "Toronto", "Lima", "Dublin", "Porto", "Gothenburg",
          "Valencia", "Krakow", "Edinburgh", "Melbourne", "Montreal", "Seville", "Bergen"]  # fmt: skip
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
MONTHS = ["January", "February", "March", "April", "May", "June", "September", "October"]
_PLANTED = re.compile(r"\b[Tt]he (company|firm|city)\b")


@dataclass
class Document:
    kind: int  # 0 report, 1 email thread, 2 meeting minutes
    text: str = ""
    topic_starts: list[int] = field(default_factory=list)
    anaphora: list[tuple[int, str]] = field(default_factory=list)  # (offset, the entity's name)


def generated(rng: random.Random, kind: int, topics: int) -> Document:
    doc = Document(kind)
    domains = rng.sample(sorted(DOMAINS), min(topics, len(DOMAINS)))
    prefixes, cities = rng.sample(PREFIXES, len(domains)), rng.sample(CITIES, len(domains))
    people = rng.sample([(f, True) for f in WOMEN] + [(m, False) for m in MEN], 2 * len(domains))
    lasts = rng.sample(LAST, len(LAST))
    for t, domain in enumerate(domains):
        woman = people[2 * t][1]
        fill = {
            "o": prefixes[t] + " " + domain + rng.choice(SUFFIXES),
            "p": f"{people[2 * t][0]} {lasts[(2 * t) % len(lasts)]}",
            "q": f"{people[2 * t + 1][0]} {lasts[(2 * t + 1) % len(lasts)]}",
            "pl": lasts[(2 * t) % len(lasts)],
            "c": cities[t],
            "sp": "she" if woman else "he",
            "Sp": "She" if woman else "He",
            "day": rng.choice(DAYS),
        }
        _topic(rng, doc, domain, fill)
    return doc


def _topic(rng, doc: Document, domain: str, fill: dict) -> None:
    if doc.text:
        doc.text += "\n\n"
    doc.topic_starts.append(len(doc.text))  # its header or date line, if any, included
    sentences = DOMAINS[domain]
    body = sentences[1:] + rng.sample(GENERIC, 4)
    rng.shuffle(body)
    paragraphs = [([OPENING] if rng.random() < 0.3 else []) + [sentences[0]] + body[:1]]
    body = body[1:]
    while body:
        take = rng.randint(2, 3)
        paragraphs.append(body[:take])
        body = body[take:]
    subject = f"{fill['o']}: {rng.choice(['figures', 'staffing', 'plans', 'the audit'])}"
    speakers = [fill["p"].split()[0], fill["q"].split()[0]]
    for n, paragraph in enumerate(paragraphs):
        if n:
            doc.text += "\n\n"
        if doc.kind == 1 and n in (0, 2):
            sender = fill["p"] if n == 0 else fill["q"]
            doc.text += (f"From: {sender} <{sender.split()[0].lower()}@mail.example>\n"
                         f"Subject: {'Re: ' if n else ''}{subject}\n"
                         f"Date: {fill['day']}, {rng.randint(1, 28)} {rng.choice(MONTHS)} 2026\n\n")  # fmt: skip
        if doc.kind == 2 and n == 0:
            doc.text += f"{fill['day']}, {rng.randint(1, 28)} {rng.choice(MONTHS)} 2026\n\n"
        if doc.kind == 2:
            doc.text += f"{speakers[n % 2]}: "
        for sentence in paragraph:
            text = sentence.format(n=rng.randint(3, 40), n0=rng.randint(40, 900), **fill)
            for match in _PLANTED.finditer(text):
                truth = fill["c"] if match.group(1) == "city" else fill["o"]
                doc.anaphora.append((len(doc.text) + match.start(), truth))
            doc.text += text + " "
        doc.text = doc.text.rstrip()
