"""A promotion rule a tenant declares in data: what one ended episode shows, without code.

    {"name": "cool-by-cause",
     "episodes": {"where": {"observation.status": "hot"}, "having": ["outcome.cause"]},
     "at_least": 3,
     "lessons": [{"id": "{observation.device}-{outcome.cause}",
                  "statement": "{observation.device} gets hot because of its {outcome.cause}",
                  "agrees": {"field": "outcome.fixed", "equals": true}, "about": "episode"}],
     "playbooks": [{"id": "cool-{observation.device}",
                    "trigger": {"status": "hot", "device": "{observation.device}"},
                    "steps": [{"do": "{outcome.step}"}]}],
     "runs": [{"playbook": "cool-{observation.device}", "succeeded": "outcome.fixed"}]}

A field is `<entry type>.<value name>` (the values of the episode's last entry of that type, so
`outcome.x` is what closed it) or `episode.title` / `episode.key`. A template is text with
`{field}` in it; a template that is one `{field}` alone keeps the value's JSON type (a trigger's
`1` stays a number). An episode the `episodes` part does not select shows nothing; a claim whose
fields the episode lacks (or holds as a list or an object) is left out for that episode.
`validate_rule` checks a rule as it is saved and names the first broken field.
"""

from __future__ import annotations

import json
import re
from typing import Any

from apps.lessons.services.lessons import MAX_STATEMENT_CHARS
from apps.lessons.services.playbooks import validate_steps, validate_trigger
from apps.lessons.services.references import KEY_PATTERN
from memoryproject.api_errors import ApplicationError

FIELD = re.compile(r"^(episode|[a-z][a-z0-9_]{0,39})\.([A-Za-z_][A-Za-z0-9_]{0,63})$")
PLACEHOLDER = re.compile(r"\{([^{}]{1,120})\}")
EPISODE_FIELDS = ("title", "key")
MAX_RULE_BYTES = 20_000
MAX_PARTS = 10  # lessons, playbooks and runs, each
MAX_WHERE = 20
MAX_TEMPLATE_CHARS = 500
CONDITIONS = ("equals", "not_equals", "in")
TOP_KEYS = {"name", "description", "episodes", "at_least", "lessons", "playbooks", "runs", "llm"}
Scalar = str | int | float | bool


def _refuse(message: str, field: str, limit: Any = None):
    raise ApplicationError(message, field=field, limit=limit)


def _keys(part: Any, field: str, allowed: set[str], required: set[str]) -> dict:
    if not isinstance(part, dict):
        _refuse(f"{field} is an object.", field)
    unknown = sorted(set(part) - allowed)
    if unknown:
        _refuse(f"{field}.{unknown[0]} is not a part of a rule; allowed: {sorted(allowed)}.",
                f"{field}.{unknown[0]}")  # fmt: skip
    for name in sorted(required - set(part)):
        _refuse(f"{field}.{name} is required.", f"{field}.{name}")
    return part


def _field(value: Any, where: str) -> str:
    if not isinstance(value, str) or not FIELD.match(value):
        _refuse(f"{where} names a field as <entry type>.<value> or episode.title: {value!r:.80}",
                where)  # fmt: skip
    if value.startswith("episode.") and value.split(".", 1)[1] not in EPISODE_FIELDS:
        _refuse(f"{where}: an episode field is one of {list(EPISODE_FIELDS)}.", where)
    return value


def _template(value: Any, where: str, *, max_chars: int = MAX_TEMPLATE_CHARS) -> str:
    if not isinstance(value, str) or not value:
        _refuse(f"{where} is a non-empty text template.", where)
    if len(value) > max_chars:
        _refuse(f"{where} is longer than {max_chars} characters.", where, max_chars)
    for name in PLACEHOLDER.findall(value):
        _field(name, where)
    return value


def _sample(value: Any) -> Any:
    """The template with every field filled by `x`: what its fixed parts allow."""
    if isinstance(value, str):
        return PLACEHOLDER.sub("x", value)
    if isinstance(value, list):
        return [_sample(v) for v in value]
    if isinstance(value, dict):
        return {k: _sample(v) for k, v in value.items()}
    return value


def _templates_in(value: Any, where: str) -> None:
    if isinstance(value, str):
        _template(value, where, max_chars=2000)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _templates_in(v, f"{where}[{i}]")
    elif isinstance(value, dict):
        for k, v in value.items():
            _templates_in(v, f"{where}.{k}")


def _id_template(value: Any, where: str) -> str:
    _template(value, where, max_chars=120)
    if not KEY_PATTERN.match(_sample(value)):
        _refuse(f"{where} must give an id of letters, digits and _ . : - (at most 120).", where)
    return value


def _condition(value: Any, where: str) -> dict:
    part = _keys(value, where, {"field", *CONDITIONS}, {"field"})
    _field(part["field"], f"{where}.field")
    ops = [op for op in CONDITIONS if op in part]
    if len(ops) != 1:
        _refuse(f"{where} has exactly one of {list(CONDITIONS)}.", where)
    wanted = part[ops[0]]
    choices = wanted if ops[0] == "in" else [wanted]
    if ops[0] == "in" and (not isinstance(wanted, list) or not 0 < len(wanted) <= MAX_WHERE):
        _refuse(f"{where}.in is a list of 1 to {MAX_WHERE} values.", f"{where}.in", MAX_WHERE)
    if not all(isinstance(c, Scalar) for c in choices):
        _refuse(f"{where}.{ops[0]} compares with a string, a number or a boolean.",
                f"{where}.{ops[0]}")  # fmt: skip
    return part


def _parts(rule: dict, name: str) -> list:
    parts = rule.get(name, [])
    if not isinstance(parts, list) or len(parts) > MAX_PARTS:
        _refuse(f"{name} is a list of at most {MAX_PARTS}.", name, MAX_PARTS)
    return parts


def validate_rule(rule: Any) -> dict:
    """The rule as it will be stored, or an ApplicationError naming the first broken field."""
    if not isinstance(rule, dict):
        _refuse("A rule is an object.", "rule")
    if len(json.dumps(rule)) > MAX_RULE_BYTES:
        _refuse(f"A rule is at most {MAX_RULE_BYTES} bytes of JSON.", "rule", MAX_RULE_BYTES)
    _keys(rule, "rule", TOP_KEYS, {"name"})
    if not isinstance(rule["name"], str) or not KEY_PATTERN.match(rule["name"]):
        _refuse("name is letters, digits and _ . : - (at most 120).", "name")
    description = rule.get("description", "")
    if not isinstance(description, str) or len(description) > 2000:
        _refuse("description is text of at most 2000 characters.", "description", 2000)
    at_least = rule.get("at_least")
    if at_least is not None and (
        not isinstance(at_least, int) or isinstance(at_least, bool) or not 1 <= at_least <= 1000
    ):
        _refuse("at_least is a whole number from 1 to 1000.", "at_least", 1000)
    episodes = _keys(rule.get("episodes", {}), "episodes", {"where", "having"}, set())
    where = episodes.get("where", {})
    if not isinstance(where, dict) or len(where) > MAX_WHERE:
        _refuse(f"episodes.where is an object of at most {MAX_WHERE} fields.", "episodes.where")
    for name, wanted in where.items():
        _field(name, f"episodes.where.{name}")
        for value in wanted if isinstance(wanted, list) else [wanted]:
            if not isinstance(value, Scalar):
                _refuse("episodes.where compares with strings, numbers or booleans.",
                        f"episodes.where.{name}")  # fmt: skip
    having = episodes.get("having", [])
    if not isinstance(having, list) or len(having) > MAX_WHERE:
        _refuse(f"episodes.having is a list of at most {MAX_WHERE} fields.", "episodes.having")
    for i, name in enumerate(having):
        _field(name, f"episodes.having[{i}]")
    lessons, playbooks, runs = (_parts(rule, n) for n in ("lessons", "playbooks", "runs"))
    if "llm" in rule:  # a model says what each episode shows (llm_rule.py)
        from apps.lessons.services.llm_rule import validate_llm_part

        if lessons or playbooks or runs:
            _refuse("An llm rule lets the model say the lessons, playbooks and runs; give "
                    "llm or them, not both.", "llm")  # fmt: skip
        validate_llm_part(rule["llm"])
        return rule
    if not (lessons or playbooks or runs):
        _refuse("A rule shows at least one lesson, playbook or run.", "lessons")
    for i, part in enumerate(lessons):
        at = f"lessons[{i}]"
        _keys(part, at, {"id", "statement", "agrees", "about"}, {"id", "statement", "agrees"})
        _id_template(part["id"], f"{at}.id")
        _template(part["statement"], f"{at}.statement", max_chars=MAX_STATEMENT_CHARS)
        _condition(part["agrees"], f"{at}.agrees")
        if part.get("about", "episode") not in ("episode", "none"):
            _refuse(f'{at}.about is "episode" (its entities) or "none".', f"{at}.about")
    for i, part in enumerate(playbooks):
        at = f"playbooks[{i}]"
        _keys(part, at, {"id", "trigger", "steps"}, {"id", "trigger", "steps"})
        _id_template(part["id"], f"{at}.id")
        _templates_in(part["trigger"], f"{at}.trigger")
        _templates_in(part["steps"], f"{at}.steps")
        validate_trigger(_sample(part["trigger"]), field=f"{at}.trigger")
        try:
            validate_steps(_sample(part["steps"]))
        except ApplicationError as exc:
            _refuse(f"{at}.steps: {exc.message}", f"{at}.steps", exc.limit)
    for i, part in enumerate(runs):
        at = f"runs[{i}]"
        _keys(part, at, {"playbook", "succeeded"}, {"playbook", "succeeded"})
        _id_template(part["playbook"], f"{at}.playbook")
        if isinstance(part["succeeded"], dict):
            _condition(part["succeeded"], f"{at}.succeeded")
        else:
            _field(part["succeeded"], f"{at}.succeeded")
    return rule


# --- what one episode shows -----------------------------------------------------------------


class Missing(Exception):
    """The episode lacks a field a claim needs: that claim is left out for it."""


def episode_fields(episode: dict) -> dict[str, Any]:
    """Every field a rule can name, from one episode as `episode_get` gives it."""
    fields: dict[str, Any] = {
        "episode.title": episode.get("title"),
        "episode.key": episode.get("key"),
    }
    for entry in episode.get("entries", []):  # in order: the last entry of a type wins
        for name, value in (entry.get("values") or {}).items():
            fields[f"{entry['type']}.{name}"] = value
    return {k: v for k, v in fields.items() if isinstance(v, Scalar)}


def _render(value: Any, fields: dict) -> Any:
    if isinstance(value, str):
        alone = PLACEHOLDER.fullmatch(value)
        if alone:
            return _value(alone.group(1), fields)
        return PLACEHOLDER.sub(lambda m: _text(_value(m.group(1), fields)), value)
    if isinstance(value, list):
        return [_render(v, fields) for v in value]
    if isinstance(value, dict):
        return {k: _render(v, fields) for k, v in value.items()}
    return value


def _value(name: str, fields: dict) -> Any:
    if name not in fields:
        raise Missing(name)
    return fields[name]


def _text(value: Any) -> str:
    return json.dumps(value) if isinstance(value, bool) else str(value)


def _holds(condition: dict, fields: dict) -> bool:
    value = _value(condition["field"], fields)
    if "in" in condition:
        return any(_same(value, c) for c in condition["in"])
    if "equals" in condition:
        return _same(value, condition["equals"])
    return not _same(value, condition["not_equals"])


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b or (
        not isinstance(a, bool) and not isinstance(b, bool)
        and isinstance(a, int | float) and isinstance(b, int | float) and a == b
    )  # fmt: skip


def selected(rule: dict, fields: dict) -> bool:
    episodes = rule.get("episodes", {})
    if any(name not in fields for name in episodes.get("having", [])):
        return False
    for name, wanted in episodes.get("where", {}).items():
        choices = wanted if isinstance(wanted, list) else [wanted]
        if name not in fields or not any(_same(fields[name], c) for c in choices):
            return False
    return True


def claims_of(rule: dict, episode: dict) -> list[dict]:
    """The claims one ended episode shows under a declared rule (see the module docstring)."""
    fields = episode_fields(episode)
    if not selected(rule, fields):
        return []
    about = [a["id"] for a in episode.get("about", [])]
    claims: list[dict] = []
    for part in rule.get("lessons", []):
        try:
            claims.append({
                "lesson": _text(_render(part["id"], fields)),
                "statement": _text(_render(part["statement"], fields)),
                "agrees": _holds(part["agrees"], fields),
                "about": about if part.get("about", "episode") == "episode" else [],
            })  # fmt: skip
        except Missing:
            continue
    for part in rule.get("playbooks", []):
        try:
            claims.append({
                "playbook": _text(_render(part["id"], fields)),
                "trigger": _render(part["trigger"], fields),
                "steps": _render(part["steps"], fields),
            })  # fmt: skip
        except Missing:
            continue
    for part in rule.get("runs", []):
        try:
            judged = part["succeeded"]
            succeeded = (
                _holds(judged, fields) if isinstance(judged, dict) else _value(judged, fields)
            )
            if isinstance(succeeded, bool):
                claims.append({"ran": _text(_render(part["playbook"], fields)),
                               "succeeded": succeeded})  # fmt: skip
        except Missing:
            continue
    return claims
