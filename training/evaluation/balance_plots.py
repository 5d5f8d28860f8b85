"""The class balance report's figures (PNG, matplotlib's Agg backend; the ``report`` extra).

- ``win_rates.png``: per class, one bar per cell with its 95% Wilson interval as whiskers;
- ``<cell>_breakdown.png``: per class, the mean score stacked by source (negative sources
  below zero), when the game's stats hook gives a breakdown;
- ``<cell>_<chart>.png``: the hook's own stacked charts (Hegemony: the passed bills per class
  by the section they moved to, and the policies' sections at the end).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from meeplezoo import envs
from meeplezoo.envs.core import balance


def load_pyplot(what: str = "balance: --plots") -> Any:
    """matplotlib's pyplot on the Agg backend; without matplotlib, ``what`` (the command and
    its option) says which extra to install."""
    try:
        import matplotlib
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise SystemExit(f"{what} needs matplotlib: pip install -e '.[report]'") from exc
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def distinct_colours(plt: Any, count: int) -> list[Any]:
    """``count`` colours, no two alike: tab10's, else tab20's, else those of tab20, tab20b and
    tab20c together, else evenly spaced along a full-spectrum map (a cycle would repeat)."""
    if count <= 10:
        return [plt.get_cmap("tab10")(k) for k in range(count)]
    if count <= 20:
        return [plt.get_cmap("tab20")(k) for k in range(count)]
    if count <= 60:
        return [plt.get_cmap(name)(k) for name in ("tab20", "tab20b", "tab20c")
                for k in range(20)][:count]
    from matplotlib.colors import LinearSegmentedColormap

    spectrum = LinearSegmentedColormap.from_list("spectrum", plt.get_cmap("turbo").colors,
                                                 N=count)
    return [spectrum(k) for k in range(count)]


def slug(name: str) -> str:
    """A file name part for a cell name (``bot:WC+random`` -> ``bot_WC_random``)."""
    return re.sub(r"[^A-Za-z0-9]+", "_", name).strip("_") or "cell"


def win_rate_chart(report: dict[str, Any], path: Path) -> Path:
    """Grouped bars: per class, each cell's win rate with its Wilson whiskers."""
    plt = load_pyplot()
    cells = list(report["summary"])
    labels = list(report["summary"][cells[0]]["classes"])
    width = 0.8 / len(cells)
    colours = distinct_colours(plt, len(cells))
    fig, ax = plt.subplots(figsize=(max(6.0, 1.2 * len(labels) * max(1, len(cells)) ** 0.5), 4))
    for k, cell in enumerate(cells):
        rows = report["summary"][cell]["classes"]
        rates = [rows[c]["win_rate"] for c in labels]
        errors = [[rows[c]["win_rate"] - rows[c]["wilson_low"] for c in labels],
                  [rows[c]["wilson_high"] - rows[c]["win_rate"] for c in labels]]
        xs = [i - 0.4 + width * (k + 0.5) for i in range(len(labels))]
        ax.bar(xs, rates, width, yerr=errors, capsize=2, label=cell, color=colours[k])
    ax.set_xticks(range(len(labels)), labels)
    ax.set_ylabel("win rate (95% Wilson interval)")
    ax.set_ylim(0, 1)
    ax.set_title(f"{report['env']}: win rate per class, {report['games']} games per cell")
    ax.legend(fontsize="small", bbox_to_anchor=(1.01, 1), loc="upper left")
    fig.tight_layout()
    fig.savefig(path, format="png", dpi=120)
    plt.close(fig)
    return path


def stacked_chart(chart: dict[str, Any], path: Path) -> Path:
    """Stacked bars of ``chart["series"]`` (label -> one value per category); negative
    values stack below zero."""
    plt = load_pyplot()
    categories = chart["categories"]
    fig, ax = plt.subplots(figsize=(max(6.0, 0.9 * len(categories) + 2), 4.5))
    up = [0.0] * len(categories)
    down = [0.0] * len(categories)
    colours = distinct_colours(plt, len(chart["series"]))
    for k, (label, values) in enumerate(chart["series"].items()):
        bottoms = [d if v < 0 else u for v, u, d in zip(values, up, down)]
        ax.bar(range(len(categories)), values, 0.6, bottom=bottoms, label=label,
               color=colours[k])
        up = [u + max(v, 0.0) for u, v in zip(up, values)]
        down = [d + min(v, 0.0) for d, v in zip(down, values)]
    ax.axhline(0, color="black", linewidth=0.6)
    ax.set_xticks(range(len(categories)), categories, rotation=20 if len(categories) > 4 else 0)
    ax.set_ylabel(chart["ylabel"])
    ax.set_title(chart["title"])
    ax.legend(fontsize="small", bbox_to_anchor=(1.01, 1), loc="upper left")
    fig.tight_layout()
    fig.savefig(path, format="png", dpi=120)
    plt.close(fig)
    return path


def breakdown_chart(cell: str, rows: dict[str, Any], score_label: str) -> dict[str, Any] | None:
    """The classes' mean score by source as a stacked chart (the sources some class scored)."""
    if not all("breakdown" in r for r in rows.values()):
        return None
    sources = balance.used_breakdown(list(rows.values()))
    return {"name": "breakdown", "title": f"{cell}: {score_label} by source",
            "ylabel": score_label, "categories": list(rows),
            "series": {s: [r["breakdown"][s] for r in rows.values()] for s in sources}}


def write_plots(report: dict[str, Any], folder: str | Path) -> list[Path]:
    """Every figure of a report into ``folder``; the paths written."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    game = envs.make_game(report["env"], **report["config"])
    hook = balance.stats_hook(game)
    score_label = getattr(hook, "SCORE_LABEL", "mean score")
    paths = [win_rate_chart(report, out / "win_rates.png")]
    for cell, entry in report["summary"].items():
        charts = [breakdown_chart(cell, entry["classes"], score_label)]
        if hook and "game" in entry:
            charts += [{**c, "title": f"{cell}: {c['title']}"} for c in hook.charts(entry["game"])]
        for chart in filter(None, charts):
            paths.append(stacked_chart(chart, out / f"{slug(cell)}_{chart['name']}.png"))
    return paths
