"""The meta-game report's figures (PNG, matplotlib's Agg backend; the ``report`` extra).

- ``payoff_table.png``: the payoff table as a heat map, one row per profile played (most
  α-Rank mass first), one column per class, each cell the class's win share there;
- ``deviations.png``: per class (a row) and strategy (a column), the win share of that
  strategy against the others' equilibrium mixture (grey: a deviation not played);
- ``mixtures.png``: each class's equilibrium mixture as bars, α-Rank's mass beside them;
- ``win_share.png``: each class's win share at the equilibrium with its 95% interval, the bot
  table's beside it, the target band shaded and a fair share dashed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from meeplezoo.training.evaluation.balance_plots import distinct_colours, load_pyplot


def _heat(plt: Any, values: np.ndarray, rows: list[str], columns: list[str], title: str,
          path: Path, annotate: bool, names: list[list[str]] | None = None) -> Path:
    """A heat map of win shares (grey: NaN), each cell its percentage (and ``names[i][j]``
    above it) when ``annotate``."""
    height = max(2.5, 0.32 * len(rows) + 1.5)
    fig, ax = plt.subplots(figsize=(max(5.0, 1.1 * len(columns) + 3.5), height))
    masked = np.ma.masked_invalid(values)
    cmap = plt.get_cmap("viridis").with_extremes(bad="0.85")
    image = ax.imshow(masked, cmap=cmap, vmin=0.0, vmax=1.0, aspect="auto")
    ax.set_xticks(range(len(columns)), columns)
    ax.set_yticks(range(len(rows)), rows, fontsize=8 if len(rows) > 20 else 10)
    if annotate:
        for (i, j), v in np.ndenumerate(values):
            if not np.isnan(v):
                text = f"{100 * v:.0f}" if names is None else f"{names[i][j]}\n{100 * v:.0f}"
                ax.text(j, i, text, ha="center", va="center", fontsize=8,
                        color="white" if v < 0.5 else "black")
    fig.colorbar(image, ax=ax, label="win share")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def write_plots(report: dict[str, Any], folder: str | Path) -> list[Path]:
    """The four figures of the module docstring in ``folder``; their paths."""
    plt = load_pyplot("metagame: --plots")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    labels = [r["label"] for r in report["roles"]]
    eq, bot, band = report["equilibrium"], report["bot_table"], report["band"]
    mass = {p["profile"]: p["mass"] for p in report["alpharank"]["profiles"]}
    entries = sorted(report["payoffs"], key=lambda e: -mass.get(
        "|".join(e["profile"][lab] for lab in labels), 0.0))
    names = ["|".join(e["profile"][lab] for lab in labels) for e in entries]
    table = np.array([[e["win_share"][lab] for lab in labels] for e in entries])
    paths = [_heat(plt, table, names, labels,
                   f"{report['env']}: win share at each profile played "
                   f"({report['games']} deals each)", folder / "payoff_table.png",
                   annotate=len(names) <= 60)]
    strategies = [list(eq["classes"][lab]["strategies"]) for lab in labels]
    width = max(len(s) for s in strategies)
    deviation = np.full((len(labels), width), np.nan)
    for k, lab in enumerate(labels):
        for j, name in enumerate(strategies[k]):
            value = eq["classes"][lab]["strategies"][name]["win_share"]
            deviation[k, j] = np.nan if value is None else value
    paths.append(_heat(plt, deviation, labels, [f"#{j + 1}" for j in range(width)],
                       "each strategy against the others' equilibrium mixture",
                       folder / "deviations.png", annotate=True,
                       names=[[*n, *[""] * (width - len(n))] for n in strategies]))
    fig, axes = plt.subplots(1, len(labels), figsize=(3.2 * len(labels), 3.4), squeeze=False)
    colours = distinct_colours(plt, 2)
    for ax, lab, names_k in zip(axes[0], labels, strategies):
        x = np.arange(len(names_k))
        weights = [eq["classes"][lab]["strategies"][n]["weight"] for n in names_k]
        ranked = [report["alpharank"]["marginals"][lab][n] for n in names_k]
        ax.bar(x - 0.2, weights, 0.4, color=colours[0], label="Nash")
        ax.bar(x + 0.2, ranked, 0.4, color=colours[1], label="α-Rank")
        ax.set_xticks(x, names_k, rotation=45, ha="right", fontsize=8)
        ax.set_ylim(0, 1)
        ax.set_title(lab)
    axes[0][0].set_ylabel("probability")
    axes[0][0].legend(fontsize=8)
    fig.suptitle("equilibrium mixture per class")
    fig.tight_layout()
    fig.savefig(folder / "mixtures.png", dpi=110)
    plt.close(fig)
    paths.append(folder / "mixtures.png")
    fig, ax = plt.subplots(figsize=(1.6 * len(labels) + 3, 4))
    x = np.arange(len(labels))
    ax.axhspan(band[0], band[1], color="0.9", label=f"band {band[0]:.0%}-{band[1]:.0%}")
    ax.axhline(1 / len(labels), color="0.5", linestyle="--", linewidth=1, label="fair share")
    for offset, name, rows, colour in ((-0.15, "equilibrium", eq["classes"], colours[0]),
                                       (0.15, "bot table", (bot or {}).get("classes"),
                                        colours[1])):
        if not rows:
            continue
        values = np.array([rows[lab]["win_share"] for lab in labels])
        spans = np.array([rows[lab]["win_share_ci95"] for lab in labels])
        ax.errorbar(x + offset, values, yerr=[values - spans[:, 0], spans[:, 1] - values],
                    fmt="o", capsize=4, color=colour, label=name)
    ax.set_xticks(x, labels)
    ax.set_ylim(0, 1)
    ax.set_ylabel("win share (95% interval)")
    ax.set_title(f"{report['env']}: win share at the equilibrium")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(folder / "win_share.png", dpi=110)
    plt.close(fig)
    paths.append(folder / "win_share.png")
    return paths
