"""Learning curves of the shipped recipes (issue 45 item 4): strength against steps or rounds.

    python -m meeplezoo.training.evaluation.curves docs/curves/*.json   # -> docs/curves/*.png

Each game's ``docs/curves/<env>.json`` holds figures already measured and recorded elsewhere
(RULES.md, docs/training.md, docs/results/, the cards, the commit messages that shipped
them): no game is played here.  A file is ``{env, title, panels, levelled, note?}``; a panel
is ``{title, x_label, y_label, series, bar?, share?}`` (``bar``: the issue's target, drawn as
a dashed line; ``share``: a seat's fair share); a series is ``{label, source, points}``, and
a point ``{x, y?, low?, high?, note?}`` (``low``/``high``: its 95% interval, or the range
that was recorded where no single figure was).  ``levelled`` says in a sentence whether the
curve has levelled off, for docs/training.md.  Drawn with matplotlib (the ``report``
extra), one PNG per game, a panel per x axis.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

PANEL_KEYS = {"title", "x_label", "y_label", "series", "bar", "share"}
TOP_KEYS = {"env", "title", "panels", "levelled", "note"}


def number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def problems(data: dict[str, Any]) -> list[str]:
    """What is wrong with a curve file's data (empty: well-formed)."""
    found = []
    if set(data) - TOP_KEYS:
        found.append(f"unknown keys {sorted(set(data) - TOP_KEYS)}")
    for key in ("env", "title", "levelled"):
        if not isinstance(data.get(key), str) or not data[key].strip():
            found.append(f"{key}: a non-empty string")
    panels = data.get("panels")
    if not isinstance(panels, list) or not panels:
        return [*found, "panels: a non-empty list"]
    for p, panel in enumerate(panels, 1):
        where = f"panel {p}"
        if set(panel) - PANEL_KEYS:
            found.append(f"{where}: unknown keys {sorted(set(panel) - PANEL_KEYS)}")
        for key in ("title", "x_label", "y_label"):
            if not isinstance(panel.get(key), str) or not panel[key]:
                found.append(f"{where}: {key} missing")
        for key in ("bar", "share"):
            if key in panel and not number(panel[key]):
                found.append(f"{where}: {key} is not a number")
        if not isinstance(panel.get("series"), list) or not panel["series"]:
            found.append(f"{where}: no series")
            continue
        for s, series in enumerate(panel["series"], 1):
            at = f"{where}, series {s}"
            if not series.get("label") or not series.get("source"):
                found.append(f"{at}: a label and a source (where the figures are recorded)")
            points = series.get("points")
            if not isinstance(points, list) or not points:
                found.append(f"{at}: no points")
                continue
            for k, point in enumerate(points, 1):
                if not number(point.get("x")):
                    found.append(f"{at}, point {k}: x is not a number")
                has_y = number(point.get("y"))
                has_range = number(point.get("low")) and number(point.get("high"))
                if not has_y and not has_range:
                    found.append(f"{at}, point {k}: neither y nor low/high")
                if has_range and point["low"] > point["high"]:
                    found.append(f"{at}, point {k}: low above high")
                if has_y and has_range and not point["low"] <= point["y"] <= point["high"]:
                    found.append(f"{at}, point {k}: y outside its interval")
    return found


def load(path: str | Path) -> dict[str, Any]:
    """A curve file, checked."""
    data = json.loads(Path(path).read_text())
    wrong = problems(data)
    if wrong:
        raise ValueError(f"{path}: {'; '.join(wrong)}")
    return data


def draw(data: dict[str, Any], out: str | Path) -> Path:
    """The curves of one game as a PNG: one panel per x axis, intervals as bars, the
    issue's bar dashed."""
    from meeplezoo.training.evaluation.balance_plots import load_pyplot

    plt = load_pyplot("curves")
    panels = data["panels"]
    fig, axes = plt.subplots(1, len(panels), figsize=(6.4 * len(panels), 6.2), squeeze=False)
    for ax, panel in zip(axes[0], panels, strict=True):
        for series in panel["series"]:
            points = sorted(series["points"], key=lambda p: p["x"])
            with_y = [p for p in points if number(p.get("y"))]
            line = ax.plot([p["x"] for p in with_y], [p["y"] for p in with_y], marker="o",
                           label=series["label"], linestyle="-" if len(with_y) > 1 else "none")
            colour = line[0].get_color()
            for p in points:
                if number(p.get("low")):
                    ax.vlines(p["x"], p["low"], p["high"], colors=colour, linewidth=2.5,
                              alpha=0.45)
        if "bar" in panel:
            ax.axhline(panel["bar"], color="black", linestyle="--", linewidth=1,
                       label=f"the bar ({panel['bar']:g})")
        if "share" in panel:
            ax.axhline(panel["share"], color="grey", linestyle=":", linewidth=1,
                       label=f"a seat's fair share ({panel['share']:g})")
        xs = [p["x"] for series in panel["series"] for p in series["points"]]
        if all(float(x).is_integer() for x in xs) and max(xs) <= 50:  # rounds, teams
            ax.set_xticks(range(int(min(xs)), int(max(xs)) + 1))
        ax.set_title(panel["title"], fontsize=9)
        ax.set_xlabel(panel["x_label"], fontsize=9)
        ax.set_ylabel(panel["y_label"], fontsize=9)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=1,
                  frameon=False)  # below the panel: never over a point
    fig.suptitle(data["title"], fontsize=11)
    fig.tight_layout()
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=100)
    plt.close(fig)
    return out


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m meeplezoo.training.evaluation.curves",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", help="curve files (default: docs/curves/*.json); "
                                                 "each PNG is written beside its file")
    args = parser.parse_args(argv)
    for path in args.files or sorted(str(p) for p in Path("docs/curves").glob("*.json")):
        print(draw(load(path), Path(path).with_suffix(".png")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
