"""An entity's numeric values over time, as bar plots (memoryproject/bar_plots.py, the module
of /review/trends/): one plot per numeric value of its States, one bar per State (oldest first),
labelled with the time the State began. Pure: takes `entity_timeline()`'s states."""

from __future__ import annotations

from memoryproject.bar_plots import bar_plot

MAX_PLOTS = 4


def _number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def value_plots(states: list[dict]) -> list[dict]:
    """[{name, plot}] for the first MAX_PLOTS value names that are numbers in some State; a
    State without the value counts 0 in its bar (and says so in the table: no value)."""
    names: list[str] = []
    for state in states:
        for name, value in (state.get("values") or {}).items():
            if _number(value) and name not in names:
                names.append(name)
    labels = [str(s["valid_from"])[5:16].replace("T", " ") for s in states]
    plots = []
    for name in names[:MAX_PLOTS]:
        values = [(s.get("values") or {}).get(name) for s in states]
        plot = bar_plot(labels, {name: [v if _number(v) else 0 for v in values]})
        for row, value in zip(plot["rows"], values, strict=True):
            row["values"] = [value if _number(value) else "no value"]
        plots.append({"name": name, "plot": plot})
    return plots
