"""The meta-game's report (``meeplezoo metagame``): what its JSON holds, read from a played
table and its equilibrium, and the Markdown a reader reads (the verdict first: each class at
the equilibrium against the bot table and the target band; then how it was found; then the
table).  Figures: ``metagame_plots``; docs/metagame.md explains every field."""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING, Any

import numpy as np

from meeplezoo.training.evaluation import metagame_solve as solve
from meeplezoo.training.evaluation.ratings import interval, resample_weights

if TYPE_CHECKING:
    from meeplezoo.training.evaluation.metagame import Metagame


def _ci(weights: np.ndarray, per_deal: np.ndarray) -> list[float]:
    return interval(weights @ per_deal)


def _mixed(per_deal: np.ndarray, mixture: solve.Mixture, k: int) -> tuple[np.ndarray,
                                                                              np.ndarray]:
    """Role ``k``'s figure per deal for each of its strategies against the others' mixture,
    and under the whole mixture: ``(n_k, deals[, ...])`` and ``(deals[, ...])``."""
    dev = solve.deviation_payoffs(per_deal, mixture, k)
    support = mixture[k] > 0
    return dev, np.tensordot(mixture[k][support], dev[support], axes=1)


def build_report(game: Metagame, eq: dict[str, Any], rounds: list[dict[str, Any]],
                 band: tuple[float, float], alpha: float, m: int, resamples: int,
                 design: str, tolerance: float) -> dict[str, Any]:
    """Everything the JSON holds (see docs/metagame.md)."""
    t = game.tensors()
    share, vp, by_source, sources = t["share"], t["vp"], t["by_source"], t["sources"]
    weights = resample_weights(game.games, resamples, game.seed) / game.games
    labels, pop = game.labels, game.pop
    played = sorted(game.records)
    payoffs = []
    for p in played:
        entry = {"profile": {lab: pop.strategies[r][i].label
                             for lab, r, i in zip(labels, game.roles, p)},
                 "index": list(p), "games": game.games}
        for key, data in (("win_share", share), ("mean_vp", vp)):
            entry[key] = {lab: float(data[(k, *p)].mean()) for k, lab in enumerate(labels)}
            entry[f"{key}_ci95"] = {lab: _ci(weights, data[(k, *p)])
                                    for k, lab in enumerate(labels)}
        payoffs.append(entry)
    mixture = eq["mixture"]
    bot = game.bot_profile()
    classes, bot_rows = {}, {}
    for k, (role, lab) in enumerate(zip(game.roles, labels)):
        dev, value = _mixed(share, mixture, k)
        _, vp_value = _mixed(vp, mixture, k)
        row = {"role": role, "win_share": float(value.mean()),
               "win_share_ci95": _ci(weights, value),
               "mean_vp": float(vp_value.mean()), "mean_vp_ci95": _ci(weights, vp_value),
               "in_band": bool(band[0] <= value.mean() <= band[1]), "strategies": {}}
        if by_source is not None:
            _, src = _mixed(by_source, mixture, k)
            row["vp_by_source"] = dict(zip(sources, (float(v) for v in src.mean(0))))
        for s, strategy in enumerate(pop.strategies[role]):
            known = not np.isnan(dev[s]).any()
            row["strategies"][strategy.label] = {
                "weight": float(mixture[k][s]),
                "win_share": float(dev[s].mean()) if known else None,
                "win_share_ci95": _ci(weights, dev[s]) if known else None,
                "gain": float(dev[s].mean() - value.mean()) if known else None}
        classes[lab] = row
        if bot is not None:
            b = share[(k, *bot)]
            bot_rows[lab] = {"win_share": float(b.mean()), "win_share_ci95": _ci(weights, b),
                             "mean_vp": float(vp[(k, *bot)].mean()),
                             "shift": float((value - b).mean()),
                             "shift_ci95": _ci(weights, value - b)}
            if by_source is not None:
                bot_rows[lab]["vp_by_source"] = dict(zip(
                    sources, (float(v) for v in by_source[(k, *bot)].mean(0))))
    means = share.mean(axis=-1)
    ranked = solve.alpharank(played, np.array([[means[(k, *p)] for k in range(len(labels))]
                                               for p in played]), pop.sizes(), alpha, m)
    order = np.argsort(-ranked["stationary"], kind="stable")
    total = int(np.prod(pop.sizes()))
    return {
        "tool": "training.metagame", "env": game.env_name, "config": game.config,
        "seed": game.seed, "games": game.games, "resamples": resamples, "band": list(band),
        "roles": [{"role": r, "label": lab} for r, lab in zip(game.roles, labels)],
        "population": {lab: [asdict(s) for s in pop.strategies[r]]
                       for r, lab in zip(game.roles, labels)},
        "design": {"profiles": design, "tolerance": tolerance if design != "all" else None,
                   "profiles_total": total, "profiles_sampled": len(played),
                   "sampled": [game.name(p) for p in played]},
        "payoffs": payoffs,
        "equilibrium": {
            "solver": eq["solver"], "payoff": "win share",
            "subgame": {lab: [pop.strategies[r][s].label for s in eq["support"][k]]
                        for k, (r, lab) in enumerate(zip(game.roles, labels))},
            "mixture": {lab: {s.label: float(mixture[k][i])
                              for i, s in enumerate(pop.strategies[r]) if mixture[k][i] > 0}
                        for k, (r, lab) in enumerate(zip(game.roles, labels))},
            "regret": dict(zip(labels, (float(g) for g in eq["gains"]))),
            "max_regret": eq["max_gain"], "nash_conv": eq["nash_conv"],
            "subgame_regret": eq["subgame_regret"],
            "unsampled_deviations": [[labels[k], pop.strategies[game.roles[k]][s].label]
                                     for k, s in eq["unknown"]],
            "classes": classes},
        "bot_table": ({"profile": game.name(bot), "classes": bot_rows} if bot is not None
                      else None),
        "alpharank": {"alpha": alpha, "m": m, "complete": ranked["complete"],
                      "profiles": [{"profile": game.name(played[i]),
                                    "mass": float(ranked["stationary"][i])} for i in order],
                      "marginals": {lab: {s.label: float(ranked["marginals"][k][i])
                                          for i, s in enumerate(pop.strategies[r])}
                                    for k, (r, lab) in enumerate(zip(game.roles, labels))}},
        "rounds": rounds,
    }


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}"


def _span(ci: list[float] | None, sign: str = "") -> str:
    return "-" if ci is None else f"{100 * ci[0]:{sign}.1f} to {100 * ci[1]:{sign}.1f}"


def markdown(report: dict[str, Any]) -> str:
    """The report a reader reads: the verdict first (each class at equilibrium against the
    bot table and the band), then how it was found, then the table itself."""
    eq, bot, design = report["equilibrium"], report["bot_table"], report["design"]
    band = report["band"]
    labels = [r["label"] for r in report["roles"]]
    how = ("every profile" if design["profiles"] == "all" else
           f"the supports' product and every profile one role away from it, supports grown "
           f"while a strategy outside gained over {100 * design['tolerance']:.1f} points")
    lines = [f"## Meta-game: {report['env']}, {report['games']} paired deals a profile, "
             f"seed {report['seed']}", ""]
    if report["games"] < 30:
        lines += [f"> **A few deals only** ({report['games']} a profile): every interval "
                  "below is wide; the issue's bar is 30 or more.", ""]
    lines += [f"Command: `{report.get('command', '')}` ({report.get('games_played', 0)} games "
              f"played by this run, {report.get('wall_time_s', 0):.0f} s, code "
              f"{report.get('code_commit', 'unknown')}).", "",
              f"Profiles played: {design['profiles_sampled']} of {design['profiles_total']} "
              f"({how}). Nash equilibrium by {eq['solver']} on the sub-game of the supports; "
              f"its regret over the whole population is {100 * eq['max_regret']:.2f} points of "
              "win share (the largest gain of one class switching alone)"
              + (f"; {len(eq['unsampled_deviations'])} deviations unplayed"
                 if eq["unsampled_deviations"] else "") + ".", "",
              f"### Each class at the equilibrium (win share %, 95% bootstrap over deals; "
              f"band {100 * band[0]:.0f}-{100 * band[1]:.0f}%)", "",
              "| class | win share | interval | bot table | shift | shift interval | VP | "
              "bot VP | band |", "|---|--:|---|--:|--:|---|--:|--:|---|"]
    for lab in labels:
        row, b = eq["classes"][lab], (bot or {}).get("classes", {}).get(lab)
        shift = "-" if b is None else f"{100 * b['shift']:+.1f}"
        bot_vp = "-" if b is None else f"{b['mean_vp']:.1f}"
        lines.append(f"| {lab} | {_pct(row['win_share'])} | {_span(row['win_share_ci95'])} | "
                     f"{_pct(b and b['win_share'])} | {shift} | "
                     f"{_span(b and b['shift_ci95'], '+')} | {row['mean_vp']:.1f} | {bot_vp} | "
                     f"{'in' if row['in_band'] else '**out**'} |")
    lines += ["", "### Each strategy against the others' equilibrium mixture (win share %)", "",
              "| class | strategy | weight | win share | interval | gain | α-Rank |",
              "|---|---|--:|--:|---|--:|--:|"]
    marginals = report["alpharank"]["marginals"]
    for lab in labels:
        for name, s in eq["classes"][lab]["strategies"].items():
            gain = "-" if s["gain"] is None else f"{100 * s['gain']:+.1f}"
            lines.append(f"| {lab} | {name} | {s['weight']:.2f} | {_pct(s['win_share'])} | "
                         f"{_span(s['win_share_ci95'])} | {gain} | {marginals[lab][name]:.2f} |")
    rank = report["alpharank"]
    lines += ["", f"### α-Rank (α {rank['alpha']:g}, m {rank['m']}"
              + ("" if rank["complete"] else "; over the played profiles only") + ")", "",
              f"| profile ({' / '.join(labels)}) | mass |", "|---|--:|",
              *(f"| {p['profile'].replace('|', ' / ')} | {p['mass']:.3f} |"
                for p in rank["profiles"][:5])]
    sources = list(next(iter(eq["classes"].values())).get("vp_by_source", {}))
    if sources:
        columns = [(lab, eq["classes"][lab]["vp_by_source"]) for lab in labels]
        if bot:
            columns = [c for lab, v in columns
                       for c in ((lab, v), (f"{lab} bots", bot["classes"][lab]["vp_by_source"]))]
        used = [s for s in sources if any(abs(v[s]) > 1e-9 for _, v in columns)]
        lines += ["", "### Mean VP by source at the equilibrium" + (" and in the bot table"
                                                                    if bot else ""), "",
                  "| source | " + " | ".join(name for name, _ in columns) + " |",
                  "|---|" + "--:|" * len(columns),
                  *(f"| {s} | " + " | ".join(f"{v[s]:.1f}" for _, v in columns) + " |"
                    for s in used)]
    if len(report["rounds"]) > 1:
        lines += ["", "### PSRO rounds", "", "| round | strategies | profiles | regret | "
                  "new best responses: gain over the previous equilibrium |",
                  "|--:|---|--:|--:|---|"]
        for r in report["rounds"]:
            brs = ", ".join(f"{lab} {b['label']} {100 * b['gain_vs_previous']:+.1f}"
                            for lab, b in r["best_responses"].items()) or "-"
            lines.append(f"| {r['round']} | {'/'.join(str(n) for n in r['sizes'].values())} | "
                         f"{r['profiles_sampled']} | {100 * r['max_regret']:.2f} | {brs} |")
    lines += ["", "### Payoff table: the profiles played (win share %, 95% interval)", "",
              f"| profile ({' / '.join(labels)}) | " + " | ".join(labels) + " |",
              "|---|" + "--:|" * len(labels)]
    for entry in report["payoffs"]:
        lines.append(f"| {' / '.join(entry['profile'][lab] for lab in labels)} | "
                     + " | ".join(f"{100 * entry['win_share'][lab]:.0f} "
                                  f"({100 * entry['win_share_ci95'][lab][0]:.0f}-"
                                  f"{100 * entry['win_share_ci95'][lab][1]:.0f})"
                                  for lab in labels) + " |")
    return "\n".join(lines)
