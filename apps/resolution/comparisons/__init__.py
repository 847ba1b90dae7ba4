"""Comparisons of two records of one entity type, each into a level (`exact`, `close`,
`conflict`, ...), one module per kind of evidence. Pure functions: no graph, no model.

The Fellegi-Sunter model (`apps.resolution.match_model`) turns each level into a weight; a level
alone says nothing about how much it counts.
"""

from __future__ import annotations

from dataclasses import dataclass

MISSING = "missing"  # one side has nothing to compare: no evidence either way


@dataclass(frozen=True)
class Compared:
    comparison: str  # name | born | phone | email | domain | external_id | address | description
    level: str
    detail: str = ""  # what was compared, for the reason: "'Bob' is a nickname of 'Robert'"
