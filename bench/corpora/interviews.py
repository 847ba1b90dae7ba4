"""The interviews corpus: notes an AI research and recruiting agent keeps from interviews,
podcast episodes and panel talks, where guests describe themselves in the first person in
transcript snippets, mixed with show notes, bullet lists and key: value lines in the third."""

from __future__ import annotations

import random

from . import Doc, Note, Style, an, cast, org_note, plan, product_note
from . import interviews_things_wording as tw
from . import interviews_wording as w
from .interviews_wording import items, rows

PEOPLE = items("""
Ilse Vandermeer f, Tomasz Wierzbicki m, Amara Nwachukwu f, Rafael Quintero m
Sunniva Hallberg f, Kenji Morimoto m, Leonie Fairbairn f, Dmitri Sokolenko m
Priya Raghunathan f, Oskar Lindqvist m, Chiara Benedetti f, Tobias Achterberg m
Yasmin Haddad f, Mateus Carvalho m, Freya Dunmore f, Anselm Reuter m
Inês Albuquerque f, Kwabena Asante m, Marguerite Vautrin f, Hamid Sadeghi m
Lotte Brinkhuis f, Emeka Obiora m, Solveig Aasland f, Bastien Morel m
Halina Krawczyk f, Joaquín Echeverri m, Maren Thorsby f, Viktor Halloran m
Noor Siddiqui f, Elias Brandvold m, Catalina Restrepo f, Jonas Pietilä m
Ayumi Kuroda f, Declan Furlong m, Zsófia Kertész f, Gideon Abernethy m
Mireille Castagne f, Ruairí Colfer m, Sabine Oberhuber f, Thandiwe Mokoena f
Lukas Vrabec m, Esther Ogunleye f, Niamh Tierney f, Arvid Sandell m
Paloma Iturbe f, Fergus Lennox m, Yusuf Karadağ m, Meilin Zhou f
Anika Rautenberg f, Olumide Bakare m, Femke van Rijswijk f
""")

# stem | word | legal form | city | trade | product line
FIRMS = [
    tuple(x.strip() for x in line.split("|"))
    for line in rows("""
Korvald | Geoscience | AS | Bergen | geothermal drilling | borehole logger
Tessaline | Labs | Ltd | Leeds | clinical diagnostics | assay reader
Brenmoor | Freight | BV | Rotterdam | freight brokerage | route planner
Quillfeather | | SAS | Nantes | payroll software | payroll suite
Velmora | Coatings | S.r.l. | Bologna | specialty coatings | spray gun
Pyxwell | Acoustics | GmbH | Graz | industrial acoustics | noise monitor
Sundrift | Energy | ApS | Aarhus | wind-farm maintenance | blade inspection drone
Marrowgate | Water | Ltd | Cardiff | water treatment | water quality sensor
Lumenhaus | | GmbH | Leipzig | architectural lighting | lighting controller
Grannick | Rail Systems | AB | Malmö | rail signalling | signal controller
Ferrovale | Recycling | S.p.A. | Turin | battery recycling | cell sorter
Oakhollow | Genomics | Inc. | Ann Arbor | crop genomics | genotyping kit
Skarne | Hydrographics | Oy | Turku | marine surveying | sonar buoy
Ninefold | Imaging | Ltd | Dublin | satellite imaging | imaging payload
Kelvara | Cold Chain | sp. z o.o. | Poznań | cold-chain logistics | temperature logger
Amberlith | Games | Kft. | Budapest | tabletop games publishing | board game
Tidewright | Robotics | Pty Ltd | Hobart | aquaculture robotics | net-cleaning robot
Veldrin | Analytics | BV | Utrecht | retail analytics | footfall counter
Orrisdale | Scientific Instruments | Ltd | Glasgow | lab instrumentation | spectrometer
Zephyrine | Mobility | SAS | Lyon | e-bike fleets | cargo e-bike
Mirelune | Textiles | SA | Porto | technical textiles | heated jacket
Kestrova | Health | AB | Uppsala | remote patient monitoring | wearable patch
Duneshore | Networks | Ltd | Nairobi | rural broadband | mesh router
Arkwell | Security | GmbH | Vienna | access control | badge reader
Solvane | Agritech | Pvt Ltd | Pune | precision irrigation | irrigation controller
Quarrison | Tools | Inc. | Pittsburgh | power tools | impact driver
Ridgemark | Solar Power | LLC | Tucson | solar microgrids | battery inverter
Sablewood | | Oy | Tampere | office furniture | standing desk
""")
]

PRODUCTS = items("""
Orlix, Trelline, Quorra, Nimbra, Pellix, Zantor, Ombrel, Fennick, Lyrax, Tundro,
Axiel, Ostrix, Glimra, Vesko, Dorran, Sylphe, Brakka, Idrion
""")

JOBS = items("""
hydrogeologist, platform lead, finance director, data engineer
UX researcher, sales lead, procurement manager, field technician
bioinformatician, supply chain analyst, product designer, security engineer
chief of staff, operations manager, recruiter, clinical trial coordinator
acoustics engineer, grant writer, robotics engineer, marine biologist
growth marketer, solutions architect, quality engineer, embedded developer
economist, data scientist, in-house lawyer, customer success lead
technical writer, site reliability engineer, logistics planner, research chemist
patent attorney, community manager
""")

CITIES = items("""
Bergen, Leeds, Rotterdam, Nantes, Bologna, Graz, Aarhus, Cardiff
Leipzig, Malmö, Turin, Ann Arbor, Turku, Dublin, Poznań, Budapest
Hobart, Utrecht, Glasgow, Lyon, Porto, Uppsala, Nairobi, Vienna
Pune, Pittsburgh, Tampere, Tucson, Tallinn, Ljubljana, Kraków, Montréal
Accra, Osaka, Bilbao, Valparaíso
""")

HOBBIES = items("""
bouldering, sea kayaking, restoring old radios, choir singing, brewing cider
trail running, birdwatching, online chess, woodturning, baking sourdough
fencing, amateur astronomy, growing chillies, open-water swimming, bookbinding
cyclocross, pottery, dinghy sailing, mushroom foraging, tango
fly fishing, beekeeping
""")

SCENES = {"person": (2, 3), "org": (1, 2), "product": (1, 2)}
MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def clock(rng: random.Random, force: bool = False):
    """How a note stamps its turns: not at all (unless `force`), or one of three ways."""
    kind = rng.randrange(1 if force else 0, 4)

    def stamp(sec: int) -> str:
        m, s = divmod(sec, 60)
        if kind == 1:
            return f"[{m // 60:02d}:{m % 60:02d}:{s:02d}] "
        return f"({m}:{s:02d}) " if kind == 2 else f"{m:02d}:{s:02d} "

    return stamp if kind else None


class Talk:
    """Turns a shape's "> " and "? " lines into labelled, maybe time-stamped turns."""

    def __init__(self, rng: random.Random, host: str, stamp) -> None:
        self.rng, self.host, self.stamp = rng, host, stamp
        self.sec = rng.randint(40, 2400)

    def line(self, text: str) -> str:
        if text[:2] not in ("> ", "? "):
            return text
        pre = ""
        if self.stamp:
            pre = self.stamp(self.sec)
            self.sec += self.rng.randint(6, 150)
        return pre + ("{L}" if text[0] == ">" else self.host) + ": " + text[2:]


def date(rng: random.Random, year: int) -> str:
    day, month = rng.randint(1, 28), rng.randint(1, 12)
    if rng.random() < 0.5:
        return f"{year}-{month:02d}-{day:02d}"
    return f"{day} {MONTHS[month - 1]} {year}"


def firm(rng: random.Random, t) -> tuple[str, str]:
    f = t.facts
    return rng.choice([t.name, f["bare"], f["bare"], f["short"]]), t.key


def acronym(t) -> str | None:
    words = t.facts["bare"].split()
    return "".join(x[0] for x in words).upper() if len(words) >= 3 else None


def product(rng: random.Random, t) -> tuple[str, str]:
    s, n = t.facts["stem"], t.facts["number"]
    return rng.choice([f"{s} {n}", f"{s}-{n}", f"{s}{n}"]), t.key


def names(rng: random.Random, t) -> dict:
    """Every way a note may write a person: slots P (intro), Pn, F, S, D, I, U, SU, FU, f."""
    f, k, full = t.facts, t.key, t.name
    if f["title"]:
        honor = "Dr."
    else:
        honor = rng.choice(["Ms." if f["she"] else "Mr.", ""])
    return {
        "P": (f"Dr. {full}" if f["title"] and rng.random() < 0.6 else full, k),
        "Pn": (full, k),
        "F": (f["first"], k),
        "S": (f["last"], k),
        "D": (f"{honor} {f['last']}".strip(), k),
        "I": (f"{f['first'][0]}. {f['last']}", k),
        "U": (full.upper(), k),
        "SU": (f["last"].upper(), k),
        "FU": (f["first"].upper(), k),
        "f": (f["first"].lower(), k),
    }


def pronouns(she: bool, prefix: str = "") -> dict:
    words = ("she", "her", "her") if she else ("he", "his", "him")
    out = dict(zip(("he", "his", "him"), words, strict=True))
    out |= {k.capitalize(): v.capitalize() for k, v in out.items()}
    return {prefix + k: v for k, v in out.items()}


def mate(rng: random.Random, t) -> dict:
    """Slots naming a colleague in a firm's or a product's note."""
    n = names(rng, t)
    job = t.facts["job"]
    stamp = clock(rng)
    return {"N": n["P"], "Nf": n["F"], "NU": rng.choice([n["U"], n["F"], n["SU"]]),
            "NJ": job, "aNJ": an(job), "NC": t.facts["city"],
            "ts": stamp(rng.randint(60, 3000)) if stamp else "",
            **pronouns(t.facts["she"], "N")}  # fmt: skip


def org_extra(rng: random.Random) -> dict:
    sec = rng.randint(30, 1800)
    return {"ep": rng.randint(3, 180), "t0": f"[00:{sec // 60:02d}:{sec % 60:02d}] ",
            "t1": f"[00:{sec // 60 + 1:02d}:{sec % 60:02d}] "}  # fmt: skip


STYLE = Style(org=tw.ORG, org_more=tw.ORG_MORE, staff=tw.STAFF, makes=tw.MAKES, item=tw.ITEM,
              by=tw.BY, item_more=tw.ITEM_MORE, users=tw.USERS, firm=firm, product=product,
              mate=mate, org_extra=org_extra)  # fmt: skip


def clashes(note: Note, surface: str, key: str) -> bool:
    s = surface.casefold()
    return any(k != key and (s in o.casefold() or o.casefold() in s) for o, k in note.names.items())


def add_acronym(rng: random.Random, note: Note, t, odds: float) -> None:
    """Now and then the acronym of a firm this note has already named in full."""
    ac = acronym(t)
    full = [s for s, k in note.names.items() if k == t.key and s.startswith(t.facts["bare"])]
    if ac and full and rng.random() < odds and not clashes(note, ac, t.key):
        line = rng.choice(w.ACRONYM)
        note.say(line, AC=(ac, t.key), Ef=(t.facts["bare"], t.key))


def companion(rng: random.Random, truths, t, other: str, co, base: dict, spoken: bool):
    """Lines (and their slots) that bring `other` into a note about person `t`."""
    o = truths[other]
    f = t.facts
    slots = dict(base)
    if o.kind == "person":
        n = names(rng, o)
        slots |= {"M": n["P"], "Mf": n["F"], "MJ": o.facts["job"], "aMJ": an(o.facts["job"]),
                  "MC": o.facts["city"], **pronouns(o.facts["she"], "M")}  # fmt: skip
        table = w.COLLEAGUE
    elif other == f["employer"]:
        slots |= {"Eb": firm(rng, o), "EC": o.facts["city"], "EY": o.facts["founded"],
                  "Tc": cap(o.facts["trade"])}  # fmt: skip
        table = w.EMPLOYER
    elif o.kind == "org":
        slots |= {"B": firm(rng, o), "n": rng.randint(2, 9)}
        table = w.PRIOR
    else:
        slots |= {"X": product(rng, o), "Xs": (o.facts["stem"], other)}
        table = w.USES
        if o.facts["maker"] == f["employer"] and f["employer"] in co:
            slots["Eb"] = firm(rng, truths[f["employer"]])
            table = w.USES_OWN
    mode = "t" if spoken and rng.random() < 0.65 else "s"
    return rng.choice(table[mode]).split("\n"), slots, mode


def person_note(rng: random.Random, note: Note, truths, key: str, co: list[str]) -> None:
    t = truths[key]
    f = t.facts
    emp = truths[f["employer"]]
    trade = emp.facts["trade"]
    year = rng.randint(2019, 2025)
    lines = rng.choice(w.SHAPES).split("\n")
    if lines[0].startswith("@"):
        label, host, stamps = lines.pop(0)[1:].split()
        stamp = clock(rng, stamps == "+") if stamps != "-" else None
    else:
        host, label = rng.choice(w.LABELS)
        stamp = clock(rng)
    n = names(rng, t)
    dated = any("{dt}" in x or "{yr}" in x for x in lines)
    plain = {"J": f["job"], "aJ": an(f["job"]), "C": f["city"], "Y": f["born"], "H": f["hobby"],
             "yy": f"{f['born'] % 100:02d}", "A": year - f["born"], "T": trade}  # fmt: skip
    said = {
        "iJ": rng.choice(w.I_JOB),
        "iC": rng.choice(w.I_CITY),
        "iY": rng.choice(w.I_BORN + (w.I_AGE if dated else [])),
        "iH": rng.choice(w.I_HOBBY),
    }
    said = {k: v.format(**plain) for k, v in said.items()}
    said |= {k.upper(): cap(v) for k, v in said.items()}
    named = f["employer"] in co
    base = {**n, **plain, **said, **pronouns(f["she"]),
            "L": n.get(label, label), "Jc": cap(f["job"]), "aJc": cap(an(f["job"])),
            "Hc": cap(f["hobby"]), "yr": year, "dt": date(rng, year), "ep": rng.randint(3, 180),
            "n": rng.randint(1, 3), "m": rng.randint(12, 95), "q": rng.randint(1, 4),
            "E": firm(rng, emp) if named else rng.choice(w.WORKS_AT).format(T=trade, aT=an(trade)),
            "Ek": firm(rng, emp) if named else rng.choice(w.WORKS_AT_KV).format(T=trade)}  # fmt: skip
    spoken = [i for i, x in enumerate(lines) if x[:2] in ("> ", "? ")]
    cut = spoken[-1] + 1 if spoken else len(lines)
    said_part = [(x, base) for x in lines[:cut]]
    summary = [(x, base) for x in lines[cut:]]
    shape_names_employer = any("{E}" in x or "{Ek}" in x for x in lines)
    for other in co:
        if other == f["employer"] and shape_names_employer and rng.random() < 0.5:
            continue
        block, slots, mode = companion(rng, truths, t, other, co, base, bool(spoken))
        (said_part if mode == "t" else summary).extend((x, slots) for x in block)
    noise = rng.choice(w.NOISE)
    after = [i + 1 for i, (x, _) in enumerate(said_part) if x[:2] == "> "]
    if noise[:2] == "? ":  # an interjection, so not right before a question
        after = [i for i in after if i == len(said_part) or said_part[i][0][:2] != "? "]
    if after and rng.random() < 0.45:
        said_part.insert(rng.choice(after), (noise, base))
    if rng.random() < 0.35:
        summary.append((rng.choice(w.TAIL), base))
    talk = Talk(rng, host, stamp)
    for line, slots in said_part + summary:
        note.say(talk.line(line), **slots)
    for other in co:
        if truths[other].kind == "org":
            add_acronym(rng, note, truths[other], 0.4)


def firm_note(rng: random.Random, note: Note, truths, key: str, co: list[str]) -> None:
    year = rng.randint(2019, 2025)
    head = rng.choice(tw.ORG_HEAD)
    if head:
        note.say(head, dt=date(rng, year), ep=rng.randint(3, 180))
    org_note(rng, note, truths, key, co, STYLE)
    add_acronym(rng, note, truths[key], 0.5)


def item_note(rng: random.Random, note: Note, truths, key: str, co: list[str]) -> None:
    t = truths[key]
    year = rng.randint(max(2019, t.facts["launched"]), 2025)
    head = rng.choice(tw.ITEM_HEAD)
    if head:
        note.say(head, dt=date(rng, year), ep=rng.randint(3, 180))
    product_note(rng, note, truths, key, co, STYLE)
    maker = truths[t.facts["maker"]]
    if maker.key in co and rng.random() < 0.6:
        note.say(
            rng.choice(tw.STEM), Mb=(maker.facts["short"], maker.key), Xs=(t.facts["stem"], key)
        )


WRITERS = {"person": person_note, "org": firm_note, "product": item_note}


def documents(seed: int = 0, size: str = "default"):
    rng = random.Random(seed)
    truths, pairs = cast(rng, size, PEOPLE, FIRMS, PRODUCTS, JOBS, CITIES, HOBBIES)
    docs: list[Doc] = []
    for key, co in plan(rng, truths, pairs, SCENES, co_odds=0.6):
        note = Note()
        WRITERS[truths[key].kind](rng, note, truths, key, co)
        docs.append(note.doc("\n"))
    return docs, truths, pairs
