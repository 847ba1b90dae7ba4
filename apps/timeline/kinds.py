"""Kinds a tenant declares: a name, the key property, typed values (some of them times or text),
and relations with their target kind and whether a relation holds one target at a time.

A kind is stored as one Kind node with its spec as JSON; rows are checked against it. A kind can
be declared again with more values or relations; its key and the type of a value never change,
since States already written were checked against them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from apps.graph import cypher
from apps.graph.nodes import ENTITY_TYPES, graph_labels
from apps.graph.scope import Scope
from memoryproject.api_errors import ApplicationError, ConflictError, NotFoundError
from memoryproject.refusals import refusal_recorded

KIND_NAME = re.compile(r"^[A-Z][A-Za-z0-9_]{0,39}$")
VALUE_NAME = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
RELATION_NAME = re.compile(r"^[A-Z][A-Z0-9_]{0,39}$")
VALUE_TYPES = ("string", "number", "integer", "boolean", "time", "text")
MAX_NAME_CHARS = 40  # of a value's or relation's name (VALUE_NAME, RELATION_NAME)
MAX_VALUES = 50
MAX_RELATIONS = 20
MAX_KINDS = 100


@dataclass(frozen=True)
class Relation:
    target: str
    one: bool = False  # one target at a time: a new target closes the earlier one


@dataclass(frozen=True)
class KindSpec:
    name: str
    key: str
    type: str = "Object"  # the POLE+O type its entities take
    values: dict[str, str] = field(default_factory=dict)
    relations: dict[str, Relation] = field(default_factory=dict)
    embed: tuple[str, ...] = ()  # the text values whose text is embedded (apps/timeline/meaning)

    def as_dict(self) -> dict:
        out = {
            "name": self.name,
            "key": self.key,
            "type": self.type,
            "values": dict(self.values),
            "relations": {
                n: {"target": r.target, "one": r.one} for n, r in sorted(self.relations.items())
            },
        }
        if self.embed:
            out["embed"] = list(self.embed)
        return out

    @property
    def text_values(self) -> list[str]:
        return sorted(n for n, t in self.values.items() if t == "text")


def kind_from_dict(raw: dict) -> KindSpec:
    return KindSpec(
        name=raw["name"],
        key=raw["key"],
        type=raw.get("type", "Object"),
        values=dict(raw.get("values") or {}),
        relations={n: Relation(**r) for n, r in (raw.get("relations") or {}).items()},
        embed=tuple(raw.get("embed") or ()),
    )


def validate_kind(raw: object) -> KindSpec:
    """The kind as declared, or a 400 naming the field and the limit that broke."""
    if not isinstance(raw, dict):
        raise ApplicationError("A kind is an object.", field="kind")
    name, key, type_ = raw.get("name"), raw.get("key"), raw.get("type", "Object")
    if not isinstance(name, str) or not KIND_NAME.match(name):
        raise ApplicationError("name is a capitalised word of at most 40 letters, digits, '_'.",
                               field="name", limit=40)  # fmt: skip
    if name.lower() in {label.lower() for label in graph_labels()}:
        raise ApplicationError(f"{name} is a label of the graph's own nodes; name the kind "
                               "otherwise.", field="name", code="reserved")  # fmt: skip
    if not isinstance(key, str) or not VALUE_NAME.match(key):
        raise ApplicationError("key is a lower-case name of at most 40 characters.",
                               field="key", limit=40)  # fmt: skip
    if type_ not in ENTITY_TYPES:
        raise ApplicationError(f"type is one of {', '.join(ENTITY_TYPES)}.", field="type")
    values = raw.get("values") or {}
    if not isinstance(values, dict) or len(values) > MAX_VALUES:
        raise ApplicationError(f"values is an object of at most {MAX_VALUES} names.",
                               field="values", limit=MAX_VALUES)  # fmt: skip
    for vname, vtype in values.items():
        if not VALUE_NAME.match(str(vname)) or vname == key:
            raise ApplicationError("A value name is lower-case, at most 40, not the key.",
                                   field=f"values.{str(vname)[:40]}", limit=40)  # fmt: skip
        if vtype not in VALUE_TYPES:
            raise ApplicationError(f"A value type is one of {', '.join(VALUE_TYPES)}.",
                                   field=f"values.{vname}")  # fmt: skip
    relations = raw.get("relations") or {}
    if not isinstance(relations, dict) or len(relations) > MAX_RELATIONS:
        raise ApplicationError(f"relations is an object of at most {MAX_RELATIONS} names.",
                               field="relations", limit=MAX_RELATIONS)  # fmt: skip
    parsed = {}
    for rname, rel in relations.items():
        where = f"relations.{str(rname)[:40]}"
        if not RELATION_NAME.match(str(rname)):
            raise ApplicationError("A relation name is upper-case, at most 40.",
                                   field=where, limit=40)  # fmt: skip
        if not isinstance(rel, dict) or set(rel) - {"target", "one"}:
            raise ApplicationError("A relation is {target, one}.", field=where)
        target, one = rel.get("target"), rel.get("one", False)
        if not isinstance(target, str) or not KIND_NAME.match(target):
            raise ApplicationError("target names a kind.", field=f"{where}.target")
        if not isinstance(one, bool):
            raise ApplicationError("one is true or false.", field=f"{where}.one")
        parsed[rname] = Relation(target=target, one=one)
    unknown = set(raw) - {"name", "key", "type", "values", "relations", "embed"}
    if unknown:
        raise ApplicationError(f"Unknown field {sorted(unknown)[0][:40]}.", field="kind")
    embed = raw.get("embed") or []
    if not isinstance(embed, list) or any(
        not isinstance(n, str) or values.get(n) != "text" for n in embed
    ):
        raise ApplicationError("embed lists text values of the kind.", field="embed")
    return KindSpec(name=name, key=key, type=type_, values=dict(values), relations=parsed,
                    embed=tuple(sorted(set(embed))))  # fmt: skip


KIND_READ = """
MATCH (k:Kind {tenant: $tenant}) WHERE k.name IN $names
RETURN k.name AS name, k.spec AS spec
"""
KIND_COUNT = "MATCH (k:Kind {tenant: $tenant}) RETURN count(k) AS n"
KIND_WRITE = """
MERGE (k:Kind {tenant: $tenant, name: $name})
ON CREATE SET k.uid = randomUUID(), k.created_at = datetime()
SET k.spec = $spec, k.one_relations = $one_relations, k.updated_at = datetime()
"""


@refusal_recorded("kind")
def check_kind_declare(scope: Scope, *, kind: dict) -> dict:
    """Declare a kind, or add values and relations to one; the targets must be declared (or be
    the kind itself). Changing the key, the type or a value's type is refused (409)."""
    spec = validate_kind(kind)

    def work(stx):
        targets = {r.target for r in spec.relations.values()} - {spec.name}
        found = _specs(stx, {spec.name, *targets})
        for rname, rel in spec.relations.items():
            if rel.target != spec.name and rel.target not in found:
                raise ApplicationError(f"Kind {rel.target} is not declared.",
                                       field=f"relations.{rname}.target")  # fmt: skip
        old = found.get(spec.name)
        if old is None:
            if stx.run(KIND_COUNT)[0]["n"] >= MAX_KINDS:
                raise ApplicationError(f"A tenant declares at most {MAX_KINDS} kinds.",
                                       field="name", limit=MAX_KINDS, code="too_many")  # fmt: skip
        else:
            _check_compatible(old, spec)
        one = sorted(n for n, r in spec.relations.items() if r.one)
        stx.run(KIND_WRITE, name=spec.name, spec=json.dumps(spec.as_dict(), sort_keys=True),
                one_relations=one)  # fmt: skip
        return {"kind": spec.as_dict(), "status": "declared" if old is None else "updated"}

    return cypher.write_unit(scope, work)


def _check_compatible(old: KindSpec, new: KindSpec) -> None:
    if old.key != new.key or old.type != new.type:
        raise ConflictError("The key and type of a kind never change.", field="key")
    for vname, vtype in old.values.items():
        if vname in new.values and new.values[vname] != vtype:
            raise ConflictError("The type of a value never changes.", field=f"values.{vname}")
    for rname, rel in old.relations.items():
        if rname in new.relations and new.relations[rname].target != rel.target:
            raise ConflictError("The target of a relation never changes.",
                                field=f"relations.{rname}")  # fmt: skip


def _specs(stx, names: set[str]) -> dict[str, KindSpec]:
    rows = stx.run(KIND_READ, names=sorted(names))
    return {r["name"]: kind_from_dict(json.loads(r["spec"])) for r in rows}


def kinds_get(scope: Scope, *, names: set[str]) -> dict[str, KindSpec]:
    rows = cypher.read(scope, KIND_READ, names=sorted(names))
    return {r["name"]: kind_from_dict(json.loads(r["spec"])) for r in rows}


def kind_get(scope: Scope, *, name: str) -> KindSpec:
    found = kinds_get(scope, names={name})
    if name not in found:
        raise NotFoundError("No such kind.", field="kind")
    return found[name]


def kinds_list(scope: Scope) -> list[dict]:
    rows = cypher.read(
        scope, "MATCH (k:Kind {tenant: $tenant}) RETURN k.spec AS spec ORDER BY k.name LIMIT 200"
    )
    return [json.loads(r["spec"]) for r in rows]
