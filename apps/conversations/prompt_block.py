"""One compact text block for a prompt, within a token budget, each line citing its source.

Tokens are estimated at four characters each (the usual ratio for English with GPT-style
tokenizers); the block never exceeds the estimate of the budget. Lines go in order of use to a
model: the session's summary, the passages of documents (each cited: document, section,
offsets), the user's related messages, the user's promoted knowledge (facts), the
episode entries, the entities, their neighbours, and earlier traces. A line
that does not fit is cut at a word; what does not fit at all is left out, and `omitted` says so.
"""

from __future__ import annotations

import math

CHARS_PER_TOKEN = 4
MAX_LINE_CHARS = 400
MAX_PASSAGE_CHARS = 600  # a chunk is at most 500 characters (ingestion.chunking), with its title


def estimate_tokens(text: str) -> int:
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def _lines(found: dict) -> list[tuple[str, str]]:
    lines: list[tuple[str, str]] = []
    summary = found.get("summary")
    if summary:
        lines.append((f"summary:{summary['uid']}", f"Summary up to #{summary['upto']}: "
                      f"{summary['text']}"))  # fmt: skip
    for p in found.get("passages", []):
        section = " > ".join(p["section_path"])
        where = f" ({section})" if section else ""
        lines.append((f"passage:{p['uid']}", f"\"{p['document']['title']}\"{where} "
                      f"[{p['start']}-{p['end']}]: {p['text']}"))  # fmt: skip
    for m in found["messages"]:
        lines.append((f"message:{m['uid']}", f"[{m['sid']}#{m['no']}] {m['role']}: {m['text']}"))
    for f in found.get("knowledge", []):
        lines.append((f"fact:{f['from']}-{f['relation']}-{f['to']}",
                      f"Known: {f['from_name'] or f['from']} -{f['relation']}-> "
                      f"{f['to_name'] or f['to']} (weight {f['weight']}, "
                      f"confidence {round(f['confidence'], 2)})"))  # fmt: skip
    for e in found.get("entries", []):
        title = e["episode"]["title"] or e["episode"]["uid"]
        lines.append((f"entry:{e['uid']}", f"Episode \"{title}\" #{e['seq']} {e['type']}: "
                      f"{e['text']}"))  # fmt: skip
    for e in found["entities"]:
        about = f" - {e['description']}" if e.get("description") else ""
        notes = "".join(f"; possibly the same as {t['name']} (P={t['p']:.2f}, pending review "
                        f"{t['pair']})" for t in e.get("twins", ()))  # fmt: skip
        # Two entities of a pending pair below the twin rule are two lines, maybe alike: the
        # first says the second may be it.
        notes += "".join(f"; may be the {t['name']} ({t['type']}) below (P={t['p']:.2f}, "
                         f"pending review {t['pair']})" for t in e.get("pending", ()))  # fmt: skip
        lines.append((f"entity:{e['uid']}", f"{e['name']} ({e['type']}){about}{notes}"))
        for t in e.get("twins", ()):
            for f in t.get("facts", ()):
                lines.append((f"entity:{t['uid']}", f"(twin's) {f['from']} -{f['predicate']}-> "
                              f"{f['to']} (weight {f['weight']}, "
                              f"confidence {f['confidence']})"))  # fmt: skip
    for n in found["neighbours"]:
        lines.append(
            (
                f"entity:{n['uid']}",
                f"{n['from']} -{n['predicate']}-> {n['to']} (weight {n['weight']}, "
                f"confidence {n['confidence']})",
            )
        )
    for t in found["traces"]:
        asked = f": {t['question']}" if t.get("question") else ""
        lines.append((f"trace:{t['uid']}", f"Earlier context call at {t['at']}{asked}"))
    return lines


def prompt_block(found: dict, *, token_budget: int) -> dict:
    """{"text", "tokens", "cited", "omitted"}: `cited` lists the sources of the lines given, in
    order; `omitted` the lines the budget had no room for, by part."""
    budget_chars = token_budget * CHARS_PER_TOKEN
    out: list[str] = []
    cited: list[str] = []
    used = 0
    lines = _lines(found)
    for number, (source, body) in enumerate(lines, start=1):
        tag = f"[{number}] "
        longest = MAX_PASSAGE_CHARS if source.startswith("passage:") else MAX_LINE_CHARS
        body = body if len(body) <= longest else body[: longest - 1] + "…"
        room = budget_chars - used - len(tag) - 1
        if room < 24:
            break
        if len(body) > room:
            body = body[: room - 1].rsplit(" ", 1)[0] + "…"
        line = tag + body
        out.append(line)
        cited.append(source)
        used += len(line) + 1
    sources = "\n".join(f"[{i}] {s}" for i, s in enumerate(cited, start=1))
    text = "\n".join(out)
    # The sources list travels with the block only when it still fits.
    if sources and estimate_tokens(text + "\nSources:\n" + sources) <= token_budget:
        text = text + "\nSources:\n" + sources
    left: dict[str, int] = {}
    for source, _body in lines[len(cited) :]:
        part = (
            "neighbours"
            if source.startswith("entity:") and "->" in _body
            else (_PARTS[source.split(":", 1)[0]])
        )
        left[part] = left.get(part, 0) + 1
    omitted = [{"part": part, "count": n, "reason": "over the token budget"}
               for part, n in left.items()]  # fmt: skip
    return {"text": text, "tokens": estimate_tokens(text), "cited": cited, "omitted": omitted}


_PARTS = {"summary": "summary", "passage": "passages", "message": "messages",
          "fact": "knowledge", "entry": "entries", "entity": "entities",
          "trace": "traces"}  # fmt: skip
