"""Compare two class balance reports
(``meeplezoo balance --compare a.json b.json``):
per cell and class, the shift b - a in win rate and mean score with 95% intervals.

The usual recipe is a variant against the default rules: two runs with the same cells,
``--games`` and ``--seed``, one of them with ``--option initial_p6=A`` (or
``mc_prep_arrivals=published``), then ``--compare``.  Cells are matched by name (two
reports of one cell each are matched whatever their names).

- **Paired by deal** when both reports used the same seed: game g of both dealt from the
  same seeds, so each deal is a pair and the interval is the normal approximation of the mean
  per-deal difference (``training.exploit.paired_gap``, 1.96 standard errors).  Under a
  variant the "same deal" is the same random draws; pairing only removes the deal's own
  noise from the comparison, it assumes nothing about the rules.
- **Unpaired** otherwise: Newcombe's hybrid score interval of the difference of two
  proportions (from each side's Wilson interval) for the win rate, and a Welch normal
  interval for the mean score.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from meeplezoo.envs.core.stats import usable_games, wilson, wilson_half_width
from meeplezoo.training.evaluation.exploit import paired_gap


def newcombe(wins_a: float, n_a: int, wins_b: float, n_b: int) -> tuple[float, float, float]:
    """The difference p_b - p_a and its 95% Newcombe hybrid score interval."""
    pa, pb = wins_a / n_a, wins_b / n_b
    la, ua = wilson(wins_a, n_a)
    lb, ub = wilson(wins_b, n_b)
    diff = pb - pa
    return (diff, diff - math.sqrt((pb - lb) ** 2 + (ua - pa) ** 2),
            diff + math.sqrt((ub - pb) ** 2 + (pa - la) ** 2))


def _mean_interval(diff: float, variance_of_mean: float) -> list[float]:
    half = 1.96 * math.sqrt(variance_of_mean)
    return [diff - half, diff + half]


def shift(a: list[dict[str, Any]], b: list[dict[str, Any]], seat: int,
          paired: bool) -> dict[str, Any]:
    """One class's shift from games ``a`` to games ``b`` (paired: the same ``g`` in both)."""
    if paired:
        by_g = {r["g"]: r for r in a}
        pairs = [(by_g[r["g"]], r) for r in b if r["g"] in by_g]
        wins = np.array([rb["wins"][seat] - ra["wins"][seat] for ra, rb in pairs], float)
        scores = np.array([rb["scores"][seat] - ra["scores"][seat] for ra, rb in pairs])
        gap = paired_gap(wins)
        n = len(pairs)
        var = float(scores.var(ddof=1)) / n if n > 1 else math.inf
        return {"pairs": n, "win_rate": gap["win_rate"], "win_rate_ci95": gap["win_rate_ci95"],
                "mean_score": float(scores.mean()),
                "mean_score_ci95": _mean_interval(float(scores.mean()), var)}
    wa = [r["wins"][seat] for r in a]
    wb = [r["wins"][seat] for r in b]
    diff, low, high = newcombe(sum(wa), len(wa), sum(wb), len(wb))
    sa = np.array([r["scores"][seat] for r in a])
    sb = np.array([r["scores"][seat] for r in b])
    var = sum(float(s.var(ddof=1)) / len(s) if len(s) > 1 else math.inf for s in (sa, sb))
    mean = float(sb.mean() - sa.mean())
    return {"pairs": 0, "win_rate": diff, "win_rate_ci95": [low, high], "mean_score": mean,
            "mean_score_ci95": _mean_interval(mean, var)}


def matched_cells(a: dict[str, Any], b: dict[str, Any]) -> list[tuple[str, str]]:
    """Cell names in both reports, in ``a``'s order; two single cells are matched as they
    are."""
    names_b = {c["name"] for c in b["cells"]}
    common = [(c["name"], c["name"]) for c in a["cells"] if c["name"] in names_b]
    if not common and len(a["cells"]) == len(b["cells"]) == 1:
        return [(a["cells"][0]["name"], b["cells"][0]["name"])]
    return common


def compare(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Per matched cell, per class: both sides' win rates and mean scores, and the shift."""
    if a["env"] != b["env"]:
        raise SystemExit(f"balance: the reports are of different envs ({a['env']}, {b['env']})")
    paired = a["seed"] == b["seed"]
    out: dict[str, Any] = {"paired": paired, "cells": {}}
    for name_a, name_b in matched_cells(a, b):
        games_a = [r for r in a["results"] if r["cell"] == name_a]
        games_b = [r for r in b["results"] if r["cell"] == name_b]
        rows = {}
        for seat, label in enumerate(a["summary"][name_a]["classes"]):
            rows[label] = {"a": a["summary"][name_a]["classes"][label],
                           "b": b["summary"][name_b]["classes"][label],
                           "shift": shift(games_a, games_b, seat, paired)}
        out["cells"][f"{name_a} -> {name_b}" if name_a != name_b else name_a] = rows
    return out


def _options(report: dict[str, Any]) -> str:
    options = {k: v for k, v in report["config"].items() if k != "num_players"}
    return str(options or "default")


NO_SCORE_INTERVAL = ("none: a mean score's interval needs two games or more on each side "
                     "(one has no spread to measure)")


def _score_interval(s: dict[str, Any]) -> str:
    """A mean score shift's interval, or ``none (...)`` where one game a side has no spread
    (``NO_SCORE_INTERVAL`` says so under the table)."""
    low, high = s["mean_score_ci95"]
    if math.isfinite(low) and math.isfinite(high):
        return f"{low:+.1f} to {high:+.1f}"
    return f"none ({s['pairs']} deal)" if s["pairs"] else "none (1 game)"


def compare_markdown(a: dict[str, Any], b: dict[str, Any], name_a: str = "a",
                     name_b: str = "b") -> str:
    """A table per matched cell: per class, a, b, the shift b - a with its interval."""
    result = compare(a, b)
    how = ("paired by deal (same seed)" if result["paired"]
           else "unpaired (different seeds: Newcombe / Welch intervals)")
    lines = [f"## Shift from {name_a} (options {_options(a)}, seed {a['seed']}) to {name_b} "
             f"(options {_options(b)}, seed {b['seed']}): {how}", ""]
    usable = usable_games()
    fewest = min((min(r["a"]["games"], r["b"]["games"]) for rows in result["cells"].values()
                  for r in rows.values()), default=None)
    if fewest is not None and fewest < usable:
        lines += [f"> **Warning: too few games.** The cells rest on {fewest} "
                  f"game{'s' * (fewest != 1)} or more a side: each side's win rate is within "
                  f"±{100 * wilson_half_width(fewest):.0f} points, so a small shift may be "
                  f"chance. {usable} games per cell bring each side within "
                  f"±{100 * wilson_half_width(usable):.0f} points.", ""]
    if not result["cells"]:
        lines.append("(no cell of the same name in both reports)")
    for cell, rows in result["cells"].items():
        lines += [f"### {cell}", "", "| class | win a | win b | shift b - a | 95% interval "
                  "| score a | score b | shift | 95% interval |",
                  "|---|---|---|---|---|---|---|---|---|"]
        for label, row in rows.items():
            s = row["shift"]
            lines.append(
                f"| {label} | {row['a']['win_rate']:.1%} | {row['b']['win_rate']:.1%} "
                f"| {s['win_rate']:+.1%} | {s['win_rate_ci95'][0]:+.1%} to "
                f"{s['win_rate_ci95'][1]:+.1%} | {row['a']['mean_score']:.1f} "
                f"| {row['b']['mean_score']:.1f} | {s['mean_score']:+.1f} "
                f"| {_score_interval(s)} |")
        if any(not math.isfinite(r["shift"]["mean_score_ci95"][0]) for r in rows.values()):
            lines += ["", NO_SCORE_INTERVAL]
        lines.append("")
    return "\n".join(lines)


# Policy against its bot: cells of one report that differ in one seat only.
RATIO_RESAMPLES = 4000


def ratio_interval(a: np.ndarray, b: np.ndarray, seed: int = 0) -> list[float]:
    """95% percentile-bootstrap interval of mean(a) / mean(b) over paired deals (resampled
    together); ``inf`` where a resample's ``b`` never wins."""
    rng = np.random.default_rng(seed)
    picks = rng.integers(len(a), size=(RATIO_RESAMPLES, len(a)))
    num, den = a[picks].mean(axis=1), b[picks].mean(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratios = np.where(den > 0, num / np.where(den > 0, den, 1), np.inf)
    return [float(np.quantile(ratios, q, method="inverted_cdf")) for q in (0.025, 0.975)]


def strength(report: dict[str, Any]) -> list[dict[str, Any]]:
    """Per class policy cell (``CLASS+bots``, ``CLASS+random``) whose baseline cell is in the
    same report (``bots``, ``bot:CLASS+random``): the class's win rate with the policy and
    with its bot in the same seats, on the same deals (same seed group, so the same
    opponents' seeds), their ratio with a bootstrap interval and the paired difference."""
    cells = {c["name"]: c for c in report["cells"]}
    rows = []
    for name in cells:
        label, _, field = name.partition("+")
        labels = list(report["summary"][name]["classes"])
        if label not in labels or field not in ("bots", "random"):
            continue  # not a CLASS+bots / CLASS+random cell (a bot:... one, or a custom name)
        baseline = "bots" if field == "bots" else f"bot:{label}+random"
        if baseline not in cells or cells[baseline]["seed_group"] != cells[name]["seed_group"]:
            continue
        seat = labels.index(label)
        by_g = {r["g"]: r for r in report["results"] if r["cell"] == baseline}
        pairs = [(r, by_g[r["g"]]) for r in report["results"]
                 if r["cell"] == name and r["g"] in by_g]
        policy = np.array([p["wins"][seat] for p, _ in pairs], float)
        bot = np.array([b["wins"][seat] for _, b in pairs], float)
        gap = paired_gap(policy - bot)
        rows.append({"class": label, "cell": name, "baseline": baseline, "pairs": len(pairs),
                     "bot_wins": int(bot.sum()),
                     "policy": report["summary"][name]["classes"][label],
                     "bot": report["summary"][baseline]["classes"][label],
                     **win_ratio(policy, bot),
                     "difference": gap["win_rate"], "difference_ci95": gap["win_rate_ci95"]})
    return rows


def win_ratio(policy: np.ndarray, bot: np.ndarray) -> dict[str, Any]:
    """``ratio`` (policy's wins over its bot's) and ``ratio_ci95``: ``inf`` where only the
    bot never wins, None where neither ever does (0 / 0 says nothing)."""
    if not bot.any() and not policy.any():
        return {"ratio": None, "ratio_ci95": [None, None]}
    return {"ratio": float(policy.mean() / bot.mean()) if bot.any() else math.inf,
            "ratio_ci95": ratio_interval(policy, bot)}


def times(ratio: float | None, suffix: str = "") -> str:
    """A ratio as the tables print it: ``2.02x``, ``∞`` (the bot never won), ``-`` (neither
    did)."""
    if ratio is None or math.isnan(ratio):
        return "-"
    return "∞" if math.isinf(ratio) else f"{ratio:.2f}{suffix}"


def ci_times(interval: list[float | None]) -> str:
    """``1.20-3.45``, ``1.20-∞``; ``-`` where neither side ever won."""
    return "-" if interval[0] is None else f"{times(interval[0])}-{times(interval[1])}"


def strength_markdown(report: dict[str, Any]) -> list[str]:
    """The ``strength`` rows as a table (none when the report lacks the baselines)."""
    rows = strength(report)
    if not rows:
        return []
    lines = ["### Each class's policy against its own bot in the same seats (paired deals)",
             "", "| class | others | bot wins | policy wins | ratio | 95% bootstrap "
             "| difference | 95% interval |", "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        others = r["cell"].partition("+")[2]
        lines.append(
            f"| {r['class']} | {others} | {r['bot']['win_rate']:.1%} "
            f"| {r['policy']['win_rate']:.1%} | {times(r['ratio'], 'x')} "
            f"| {ci_times(r['ratio_ci95'])} "
            f"| {r['difference']:+.1%} | {r['difference_ci95'][0]:+.1%} to "
            f"{r['difference_ci95'][1]:+.1%} |")
    return [*lines, "", *_unbounded_notes(rows)]


def _unbounded_notes(rows: list[dict[str, Any]]) -> list[str]:
    """Why a row's ratio or its interval has no bound or no value, one line each: never an
    ``∞`` or a ``-`` left unexplained."""
    notes = []
    for r in rows:
        where = f"{r['class']} ({r['cell']}, {r['pairs']} deals)"
        bot_wins = r["bot_wins"]
        if r["ratio"] is None:
            notes.append(f"- {where}: no ratio: neither the policy nor the bot won a game.")
        elif math.isinf(r["ratio"]):
            notes.append(f"- {where}: ratio ∞: the bot won no game, so the policy's wins "
                         "have nothing to be divided by; more deals give it a bound.")
        elif math.isinf(r["ratio_ci95"][1]):
            notes.append(f"- {where}: interval up to ∞: the bot won {bot_wins} game"
                         f"{'s' * (bot_wins != 1)}, so some resamples hold none of its wins "
                         "and the ratio there has no bound; more deals narrow it.")
        if r["pairs"] > 1 and r["difference_ci95"][0] == r["difference_ci95"][1]:
            notes.append(f"- {where}: the difference's interval has no width: every deal "
                         "ended alike, which says nothing beyond these deals.")
    return [*notes, ""] if notes else []
