"""A voice assistant's phone log for a small sales and support team: speech-recognition
transcripts of calls and voicemails (speaker turns, mostly lowercase, fillers, [inaudible]) and
the assistant's short third-person call summaries, about fictional people, firms and products."""

from __future__ import annotations

import random
import re
import string
import unicodedata

from . import Doc, Note, an, cast, plan
from . import phone_logs_wording as W

ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen").split()  # fmt: skip
TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
MATE = ("m", "mf", "M", "MF", "mJ", "maJ", "mshe")
ITEM = ("x", "X", "L", "aL")


def said(n: int, dash: str = " ") -> str:
    if n < 20:
        return ONES[n]
    tens, ones = divmod(n, 10)
    return TENS[tens] + (dash + ONES[ones] if ones else "")


def year_said(rng: random.Random, year: int) -> str:
    hi, lo = divmod(year, 100)
    if hi == 19:
        short = said(lo) if lo >= 10 else "oh " + said(lo)
        return rng.choice([short, "nineteen " + short, str(year)])
    if lo == 0:
        return "two thousand"
    if lo < 10:
        return rng.choice(["two thousand and " + said(lo), "two thousand " + said(lo)])
    return rng.choice(["twenty " + said(lo), "two thousand and " + said(lo), str(year)])


def plain(s: str) -> str:
    """How a recogniser writes a name: lowercase, no accents."""
    return unicodedata.normalize("NFKD", s).encode("ascii", "ignore").decode().lower()


def mishear(rng: random.Random, s: str) -> str:
    spots = [i for i, ch in enumerate(s) if ch in "aeiou"]
    i = rng.choice(spots)
    return s[:i] + rng.choice([v for v in "aeiou" if v != s[i]]) + s[i + 1 :]


def phone(rng: random.Random) -> str:
    n = rng.randint(0, 99)
    return rng.choice([f"+44 7700 900{n:03d}", f"+1 303 555 01{n:02d}", f"0161 496 0{n:03d}",
                       f"+61 491 570 {n:03d}", f"+353 20 913 {n:04d}"])  # fmt: skip


def nth(template: str, i: int, keys) -> str:
    """A template for the i-th colleague or product of a note: its slots renamed."""
    return re.sub(r"\{(\w+)\}", lambda m: f"{{{m[1]}_{i}}}" if m[1] in keys else m[0], template)


def tidy(text: str) -> str:
    """The recogniser's other mode: capital I and sentence starts."""
    text = re.sub(r"\bi\b", "I", text)
    return re.sub(r"(^|[.?] )([a-z])", lambda m: m[1] + m[2].upper(), text)


def mess(rng: random.Random, text: str, rate: float) -> str:
    """Fillers, repeats, false starts and gaps between words (never inside a slot)."""
    toks, out = text.split(" "), []
    for n, tok in enumerate(toks):
        if re.fullmatch(r"[a-z']+", tok) and 0 < n < len(toks) - 1 and rng.random() < rate:
            out.append(rng.choice([rng.choice(W.FILLERS)] * 2 + [tok, "[inaudible]", tok + " --"]))
        out.append(tok)
    return " ".join(out)


def firm_names(rng, t, low: bool):
    f = t.facts
    heard = rng.choice([f["short"], f["short"], f["bare"]])
    written = rng.choice([f["short"], f["bare"], t.name])
    return (plain(heard) if low else heard, t.key), (written, t.key)


def item_names(rng, t, low: bool):
    stem, num = t.facts["stem"], t.facts["number"]
    if len(stem) <= 2:
        spoken = " ".join(W.LETTERS[ch] for ch in stem.lower()) + " " + said(int(num))
        heard = [spoken, stem.lower() + num] if low else [stem + num, stem + " " + said(int(num))]
        written = [stem + num, stem + "-" + num, t.name]
    else:
        s = plain(stem) if low else stem
        heard = [s + " " + said(int(num)), s + " " + said(int(num), "-"), s + " " + num]
        written = [t.name, t.name, stem + "-" + num]
    return (rng.choice(heard), t.key), (rng.choice(written), t.key)


def mate_slots(t, low: bool) -> dict:
    f = t.facts
    cased = plain if low else str
    return {"m": (cased(t.name), t.key), "mf": (cased(f["first"]), t.key), "M": (t.name, t.key),
            "MF": (f["first"], t.key), "mJ": f["job"], "maJ": an(f["job"]),
            "mshe": "she" if f["she"] else "he"}  # fmt: skip


def item_slots(rng, t, low: bool) -> dict:
    heard, written = item_names(rng, t, low)
    return {"x": heard, "X": written, "L": t.facts["category"], "aL": an(t.facts["category"])}


def slot_names(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


# The slots that state a fact; a colleague or a product is numbered, named by its m_i or x_i.
STATES = {"job": "J aJ", "city": "c C", "born": "yw Y", "founded": "yw Y", "launched": "yw Y",
          "hobby": "H", "employer": "w W", "prior": "p P", "uses": "x X", "trade": "T",
          "maker": "b B"}  # fmt: skip
NUMBERED = {"mate": (MATE, ("m", "mf", "M", "MF")), "item": (ITEM, ("x", "X"))}
LISTS = {"tell": ("tell", ""), "bullets": ("tell", "- "), "fields": ("field", "")}


class Call:
    """One note being written: its slots, the facts it has to state, and how it states them."""

    def __init__(self, rng, slots: dict, facts: list[str], words: dict, low: bool) -> None:
        self.rng, self.slots, self.facts, self.words = rng, slots, facts, words
        self.note = Note()
        self.done: set[str] = set()
        self.used: set = set()
        self.left: dict[str, list[int]] = {"mate": [], "item": []}
        self.inline: dict[str, str] = {}  # fragments with slots of their own, e.g. the reason
        self.rate = rng.choice([0.02, 0.04, 0.06, 0.1])
        self.clean = not low and rng.random() < 0.6  # an engine that capitalises names and I

    def add(self, fact: str, slots: dict) -> None:
        i = sum(1 for k in self.slots if k.startswith(NUMBERED[fact][1][0] + "_"))
        self.slots.update({f"{k}_{i}": v for k, v in slots.items()})
        self.left[fact].append(i)
        if fact not in self.facts:
            self.facts.append(fact)

    def pending(self) -> list[str]:
        return [f for f in self.facts if f not in self.done]

    def indices(self, fact: str) -> list:
        return list(self.left[fact]) if fact in NUMBERED else [None]

    def ren(self, options, fact: str, i) -> list[str]:
        options = [options] if isinstance(options, str) else options
        return options if i is None else [nth(o, i, NUMBERED[fact][0]) for o in options]

    def expand(self, template: str) -> str:
        for name, fragment in self.inline.items():
            template = template.replace("{" + name + "}", fragment)
        return template.replace("{paren}", self.paren(self.pending()))

    def pick(self, options):
        fit = [o for o in options if slot_names(self.expand(o)) <= self.slots.keys()]
        fit = [o for o in fit if o not in self.used] or fit  # a second colleague, new words
        self.used.add(choice := self.rng.choice(fit) if fit else None)
        return choice

    def mark(self, template: str) -> None:
        used = slot_names(template)
        for fact in self.facts:
            if fact in NUMBERED:
                keys = NUMBERED[fact][1]
                self.left[fact] = [i for i in self.left[fact]
                                   if not any(f"{k}_{i}" in used for k in keys)]  # fmt: skip
                if not self.left[fact]:
                    self.done.add(fact)
            elif used & set(STATES[fact].split()):
                self.done.add(fact)

    def say(self, template: str) -> None:
        template = self.expand(template)
        self.note.say(template, **self.slots)
        self.mark(template)

    def turn(self, label: str, text: str) -> None:
        text = mess(self.rng, self.expand(text), self.rate)
        self.say(label + ": " + (tidy(text) if self.clean else text))

    def lines(self, kind: str) -> list[str]:
        """One line of `kind` ("say", "tell", "field") for each fact not yet stated."""
        out = []
        for fact in self.pending():
            for i in self.indices(fact):
                line = self.pick(self.ren(self.words[kind][fact], fact, i))
                if line:
                    out.append(line)
                    self.mark(self.expand(line))
            self.done.add(fact)
        return out

    def talk(self, us: str, them: str) -> None:
        """Every fact not yet stated, asked for or volunteered by `them`."""
        queue: list[str] = []
        for fact in self.pending():
            for n, i in enumerate(self.indices(fact)):
                line = self.pick(self.ren(self.words["say"][fact], fact, i))
                asked = self.words["ask"].get(fact) if n == 0 else None
                if asked and self.rng.random() < (0.85 if fact == "hobby" else 0.45):
                    answers = self.words.get("answer", self.words["say"])[fact]
                    line = self.pick(self.ren(answers, fact, i)) or line
                    self.flush(them, queue)
                    self.turn(us, self.pick(asked) + self.rng.choice(["?", "", "?"]))
                    self.turn(them, line)
                elif line:
                    queue.append(line)
                    self.mark(self.expand(line))
                    if self.rng.random() < 0.5:
                        self.flush(them, queue)
            self.done.add(fact)
        self.flush(them, queue)

    def flush(self, them: str, queue: list[str]) -> None:
        if queue:
            glue = self.rng.choice([", ", " and um ", " -- ", " and ", ", like "])
            self.turn(them, glue.join(queue))
            queue.clear()

    def paren(self, facts) -> str:
        shown = [self.words["paren"][f] for f in facts if f in self.words["paren"]][:3]
        return " (" + ", ".join(shown) + ")" if shown else ""

    def summary(self) -> None:
        self.inline["paren"] = self.paren(self.facts)
        self.say(self.pick(self.words["summary"]))
        del self.inline["paren"]

    def voicemail(self, heads) -> None:
        said = [self.pick(self.words["vm"]), "{why}", *self.lines("say"), self.pick(W.VM_END)]
        text = mess(self.rng, self.expand(", ".join(said)), self.rate)
        self.say(self.pick(heads) + (tidy(text) if self.clean else text))

    def run(self, labels, steps) -> None:
        us, them = labels or ("", "")
        for step in steps:
            if isinstance(step, tuple):
                who, options = step
                line = self.pick(options)
                if who == "vm":
                    self.voicemail(options)
                elif line is None or (who == "maybe" and self.rng.random() < 0.5):
                    continue
                elif who in ("say", "maybe"):
                    self.say(line)
                else:
                    self.turn({"us": us, "them": them}.get(who, who), line)
            elif step == "talk":
                self.talk(us, them)
            elif step == "close":
                for role, text in self.rng.choice(W.CLOSE):
                    self.turn(us if role == "us" else them, text)
            elif step in ("tell", "bullets", "fields"):
                kind, dash = LISTS[step]
                for line in self.lines(kind):
                    self.say(dash + line)
            elif step == "summary":
                self.summary()
            elif step == "log":
                parts = [self.words["log"][f] for f in self.facts if f != "mate"]
                parts += [nth("cc {M}", i, MATE) for i in self.left["mate"]]
                way = self.rng.choice(["inbound", "outbound", "callback"])
                self.say(" | ".join([way, "{N}", *parts, "{Why}", "{next}"]))
            elif step.startswith("Why="):  # what the summary gives as the reason
                self.inline["Why"] = self.expand(step[4:])
            elif step.startswith("us="):
                us = step[3:]
            elif step.startswith("them=") and (step[-1] != "?" or self.rng.random() < 0.4):
                them = step[5:].rstrip("?")


def person_call(rng, truths, key, co) -> Call:
    t = truths[key]
    f = t.facts
    low = rng.random() < 0.75
    cased = plain if low else str
    she = f["she"]
    honor = f["title"] or rng.choice(["Ms" if she else "Mr", ""])
    slots = {
        "n": (cased(t.name), key), "f": (cased(f["first"]), key), "s": (cased(f["last"]), key),
        "N": (t.name, key), "F": (f["first"], key), "S": (f["last"], key),
        "D": (" ".join(filter(None, [honor, f["last"]])), key),
        "J": f["job"], "aJ": an(f["job"]), "c": cased(f["city"]), "C": f["city"],
        "Y": f["born"], "yw": year_said(rng, f["born"]), "H": f["hobby"],
        "She": "She" if she else "He", "she": "she" if she else "he",
        "dob": rng.choice(W.DAYS) + " of " + rng.choice(W.MONTHS), "phone": phone(rng),
        "next": rng.choice(W.NEXT), "mis": mishear(rng, cased(f["last"])),
    }  # fmt: skip
    if f["last"].isalpha():
        slots["spelt"] = " ".join(plain(f["last"]))
    facts = rng.sample(["job", "city", "born", "hobby"], rng.choice([1, 2, 2, 3]))
    c = Call(rng, slots, facts, W.PERSON, low)
    for k in co:
        o = truths[k]
        if k == f["employer"]:
            slots["w"], slots["W"] = firm_names(rng, o, low)
            facts.append("employer")
        elif k == f.get("prior"):
            slots["p"], slots["P"] = firm_names(rng, o, low)
            facts.append("prior")
        elif o.kind == "product":
            slots["x"], slots["X"] = item_names(rng, o, low)
            facts.append("uses")
        else:
            c.add("mate", mate_slots(o, low))
    rng.shuffle(facts)
    why = W.USE_REASONS if "uses" in facts and rng.random() < 0.5 else W.REASONS
    c.inline["why"], c.inline["Why"] = rng.choice(why)
    c.inline["out"], c.inline["Out"] = rng.choice(W.OUT_REASONS)
    return c


def firm_call(rng, truths, key, co) -> Call:
    t = truths[key]
    f = t.facts
    low = rng.random() < 0.75
    heard, written = firm_names(rng, t, low)
    slots = {"o": heard, "O": written, "Of": (t.name, key), "c": (plain if low else str)(f["city"]),
             "C": f["city"], "Y": f["founded"], "yw": year_said(rng, f["founded"]),
             "T": f["trade"], "phone": phone(rng), "next": rng.choice(W.NEXT)}  # fmt: skip
    facts = rng.sample(["trade", "city", "founded"], rng.choice([1, 2, 2, 3]))
    c = Call(rng, slots, facts, W.FIRM, low)
    for k in co:
        o = truths[k]
        if o.kind == "person":
            c.add("mate", mate_slots(o, low))
        else:
            c.add("item", item_slots(rng, o, low))
    rng.shuffle(facts)
    c.inline["why"], c.inline["Why"] = rng.choice(W.FIRM_WHY)
    return c


def item_call(rng, truths, key, co) -> Call:
    t = truths[key]
    f = t.facts
    low = rng.random() < 0.75
    (x, X), (x2, X2) = item_names(rng, t, low), item_names(rng, t, low)
    slots = {"x": x, "X": X, "x2": x2, "X2": X2, "L": f["category"], "aL": an(f["category"]),
             "Y": f["launched"], "yw": year_said(rng, f["launched"]), "phone": phone(rng),
             "next": rng.choice(W.NEXT)}  # fmt: skip
    c = Call(rng, slots, ["launched"] if rng.random() < 0.6 else [], W.ITEM, low)
    for k in co:
        o = truths[k]
        if o.kind == "person":
            c.add("mate", mate_slots(o, low))
        else:
            slots["b"], slots["B"] = firm_names(rng, o, low)
            if len(f["stem"]) > 2:  # the stem alone is clear once the maker is named
                slots["xs"] = (plain(f["stem"]) if low else f["stem"], key)
            c.facts.append("maker")
    heard, written = rng.choice(W.ISSUES)
    c.inline["why"], c.inline["Why"] = "it " + heard, "unit " + written
    return c


KINDS = {"person": (person_call, W.PEOPLE_SCRIPTS), "org": (firm_call, W.FIRM_SCRIPTS),
         "product": (item_call, W.ITEM_SCRIPTS)}  # fmt: skip


def write(rng: random.Random, truths, key: str, co: list[str]) -> Doc:
    start, scripts = KINDS[truths[key].kind]
    c = start(rng, truths, key, co)
    fit = [name for name, (_, _, steps) in scripts.items()
           if all(s[5:] in c.slots for s in steps if isinstance(s, str) and s[:5] == "need:")]  # fmt: skip
    labels, sep, steps = scripts[rng.choice(fit)]
    if labels and rng.random() < 0.08:
        c.say(rng.choice(W.POOR))
        c.rate = 0.3
    c.run(labels, steps)
    if labels and "summary" not in steps and rng.random() < 0.3:
        c.summary()
    return c.note.doc(sep)


def sound(doc: Doc, keys: list[str]) -> bool:
    """Names every planned thing, nothing else, and no surface of one inside another's."""
    pairs = [(s.casefold(), k, s2.casefold(), k2) for s, k in doc.names.items()
             for s2, k2 in doc.names.items()]  # fmt: skip
    clash = any(k != k2 and s in s2 for s, k, s2, k2 in pairs)
    return not clash and set(doc.names.values()) == set(keys)


def documents(seed: int = 0, size: str = "default"):
    rng = random.Random(seed)
    truths, pairs = cast(rng, size, W.PEOPLE, W.FIRMS, W.PRODUCTS, W.JOBS, W.CITIES, W.HOBBIES)
    scenes = plan(rng, truths, pairs, {"person": (2, 4), "org": (1, 3), "product": (1, 3)}, 0.5)
    docs = []
    for key, co in scenes:
        for _ in range(30):  # a rare draw puts one surface inside another; draw again
            doc = write(rng, truths, key, co)
            if sound(doc, [key, *co]):
                break
        docs.append(doc)
    return docs, truths, pairs
