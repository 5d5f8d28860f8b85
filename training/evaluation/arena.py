"""The arena: a seat-rotated round robin of every opponent of an env, rated on an Elo scale.

    meeplezoo arena --env chihou_sousei_v1 --players 4 --games 600
    meeplezoo arena --env chihou_sousei_v1 --players 4 \\
        --agents my_pkg.agents:greedy,runs/checkpoints/chihou_sousei_v1/my_agent
    meeplezoo arena --env chihou_sousei_v1 --players 4 --paired heuristic,random
    meeplezoo arena --env necropolis_railway_v1 --players 1  # solo: mean scores
    meeplezoo arena --leaderboard --games 600 --seed 20261201   # LEADERBOARD.md
    meeplezoo arena --leaderboard --env necropolis_railway_v1 --levels hard  # its tables, +@hard

The field is the env's shipped opponents (the zoo, at that player count), ``heuristic``,
``random`` and any ``--agents``: zoo names ``<env>/<name>``, checkpoint or team folders,
``package.module:attribute`` (an object with ``act(observation, mask)``, a function of the
two, a state bot with ``act(state)``, or a class of such agents, built without arguments),
or a MaskablePPO ``.zip`` trained anywhere (exported for the run into a temporary folder, as
``training.export --model X.zip --env ENV --players N`` would; needs the train extra).  In
Python, ``run_arena`` takes such objects directly.

Schedule (the duplicate format).  Deal ``d`` seats one lineup of ``players`` agents (the
compositions are cycled: every ``players``-subset of the agents, or, with fewer agents than
seats, every agent once plus each multiset of extra seats) in a shuffled order, and is played
``players`` times, the lineup rotated one seat each time, so every agent of the lineup meets
the same cards from every seat.  The games asked for are rounded up to whole cycles of the
lineups (each lineup equally often; everyone meets everyone).  Everything about game
``(d, rotation)`` (the deal, each seat's bot seed) comes from ``(seed, d)`` alone
(``training.evaluate``'s per-game seeding), so the results do not depend on the worker
count or on how games are split, nor on whether they play here or on a Ray cluster
(``--address``, ``training.evaluation.cluster``).

Ratings.  Each game counts as all its pairwise outcomes by finishing place: for every two
seats held by different agents, the better place wins, equal places are a draw (half a win
each).  A Bradley-Terry model, P(a beats b) = 1 / (1 + 10 ** ((R_b - R_a) / 400)), is fitted
by maximum likelihood to those counts, with ``random`` held at 0 (the Elo scale's anchor).
One virtual draw per pair of agents that met keeps a clean sweep finite (a sweep's rating is
then a lower bound that grows with the games).  The pairs of one game are not independent,
so the 95% intervals come from a bootstrap over deals (each deal's games resampled together)
with the fit repeated per resample; ``random``'s interval is [0, 0] by construction.

Solo (``--players 1``): every agent plays the same deals; agents are ranked by mean score
with bootstrap intervals.  ``--paired A,B``: A and B each play every deal from the same seat
against the same field (the other agents, drawn per deal), and the difference of their win
shares and of their mean scores gets a paired bootstrap interval (``--field`` names the
opponents to draw the field from instead); the Elo table of those games follows
(``paired_ratings``).  Agents are named as every command names them
(``training.agents.specs``: separated by spaces or commas, ``--paired A B`` or ``A,B``).

The leaderboard's tables are the shipped opponents, ``heuristic`` and ``random``; ``--levels``
seats each shipped network at those difficulty levels too.  Under each table go the levels
the cards record at that player count (``meeplezoo levels --record``: each level paired
against its network alone, and its cost a decision).
"""

from __future__ import annotations

import argparse
import atexit
import json
import math
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from meeplezoo import envs
from meeplezoo.envs.core.command import run_command
from meeplezoo.envs.core.errors import ConfigError, MeepleZooError
from meeplezoo.envs.core.progress import Progress
from meeplezoo.envs.core.rewards import win_share
from meeplezoo.training.agents.opponents import agent_bot, import_agent, spec_role
from meeplezoo.training.agents.specs import SpecList, add_agents_argument, forms, is_python_spec
from meeplezoo.training.agents.zoo import checkpoint_folder, find_checkpoint, list_zoo, zoo_root
from meeplezoo.training.evaluation import cluster
from meeplezoo.training.evaluation.evaluate import _play_lineups, agent_label
from meeplezoo.training.evaluation.ratings import (
    compositions,
    deal_wins,
    fit_elo,
    interval,
    resample_weights,
    schedule,
)

ANCHOR = "random"
BUILT_IN = ("heuristic", "random")
LEADERBOARD_FILE = "LEADERBOARD.md"  # in the zoo's folder, beside the checkpoints it rates
# The arena also rates a MaskablePPO .zip (exported for the run): its --help says so.
ARENA_FORMS = forms(extra=["a MaskablePPO .zip trained anywhere (exported for the run; "
                           "needs the train extra)"])
# Tags that keep the arena's own random draws apart from the per-game ones ([seed, deal]).
FIELD_TAG = 2  # a paired field's draws (ratings: 1 the lineups' order, 3 the bootstrap)


@dataclass(frozen=True)
class Entrant:
    """An agent in the arena: how tables name it, and what plays (a spec string that
    worker processes can load, or a Python agent that plays in this process)."""

    label: str
    spec: Any


# -- who plays ----------------------------------------------------------------------------


def shipped(env_name: str, players: int) -> list[str]:
    """Zoo names ``<env>/<name>`` of the shipped opponents that play ``players`` seats."""
    return [entry.name for entry in list_zoo(env_name)
            if not entry.player_counts or players in entry.player_counts]


def export_zip(path: str, env_name: str, config: dict) -> str:
    """A MaskablePPO ``.zip`` trained anywhere, exported (ONNX and card, as ``training.export
    --model --env --players`` does) into a temporary folder for this run, where it plays like
    any checkpoint.  Needs the train extra; loading a ``.zip`` unpickles it (only your own)."""
    from meeplezoo.training.cli import require_training_extra

    require_training_extra("training.arena with a .zip agent")
    from meeplezoo.training.fitting.onnx import export_model

    out = Path(tempfile.mkdtemp(prefix="arena_"))
    atexit.register(shutil.rmtree, out, ignore_errors=True)
    run = {"env": env_name, "config": config, "player_counts": [config["num_players"]],
           "role": None, "command": None}
    return str(export_model(path, Path(path).stem, out, run))


def resolve(spec: Any, env_name: str, config: dict) -> Entrant:
    """An ``Entrant`` for a spec string or a Python agent (``env_name`` and ``config`` are
    the game a ``.zip`` is exported for)."""
    if not isinstance(spec, str):
        agent_bot(spec)  # refuses an object that cannot play, saying why
        return Entrant(agent_label(spec), spec)
    from meeplezoo.training.agents.bots import split_level

    base, level = split_level(spec)  # "<network>@hard": the network's entrant at that level
    if level is not None:
        inner = resolve(base, env_name, config)
        if not isinstance(inner.spec, str) or ":" in base:
            raise ConfigError(f"agent {spec!r}: levels are for networks (a checkpoint, team, "
                              f"zoo name or .zip), not a Python agent")
        return Entrant(spec, f"{inner.spec}@{level}")
    if spec.endswith(".zip") and Path(spec).is_file():
        return Entrant(spec, export_zip(spec, env_name, config))
    if spec in BUILT_IN or find_checkpoint(spec) is not None:
        return Entrant(spec, spec)  # a zoo name stays a name: workers find it too
    if is_python_spec(spec):
        return Entrant(spec, import_agent(spec))
    if spec.endswith(".zip"):
        raise ConfigError(f"agent {spec!r}: no such .zip file")
    checkpoint_folder(spec)  # neither a folder nor a zoo name: its error lists the zoo
    return Entrant(spec, spec)


def field(env_name: str, config: dict, agents: list[Any] = ()) -> list[Entrant]:
    """The arena's agents: the zoo of ``env_name`` at the config's player count, the bots,
    then ``agents``."""
    specs = [*shipped(env_name, config["num_players"]), *BUILT_IN, *agents]
    entrants = [resolve(spec, env_name, config) for spec in specs]
    unique: dict[str, Entrant] = {}
    for entrant in entrants:
        if entrant.label in unique and unique[entrant.label].spec != entrant.spec:
            raise ConfigError(f"two different agents are both named {entrant.label!r}")
        unique.setdefault(entrant.label, entrant)
    return list(unique.values())


def check_entrants(env_name: str, config: dict, entrants: list[Entrant]) -> None:
    """Refuse, before any game, an agent that cannot sit in every seat of this game."""
    from meeplezoo.training.agents.bots import make_bot

    game = envs.make_game(env_name, **config)
    roles = {game.seat_role(seat) for seat in range(game.num_players)}
    for entrant in entrants:
        role = spec_role(entrant.spec)
        if role is not None and roles != {role}:
            raise ConfigError(
                f"{entrant.label} plays only role {role!r}; the arena moves every agent "
                "through every seat: rate a team (training.export --team) instead")
        make_bot(entrant.spec, game, 0, seat=0)  # a wrong env, size or count says why


# -- playing ------------------------------------------------------------------------------


def progress_bar(total: int, enabled: bool | str | None, desc: str) -> Any:
    """The games counted on stderr (``envs.core.progress.Progress``): True a tqdm bar,
    False nothing, None or ``"auto"`` a bar on a terminal and plain lines (every 30 s, with
    the rate and the time left) otherwise."""
    return Progress(total, desc, unit="game", style=enabled)


def play_games(env_name: str, config: dict, games: list[tuple[int, list[Any]]], seed: int,
               workers: int | cluster.Workers = 1, progress: bool | str = False,
               desc: str = "") -> list[dict]:
    """Play ``(deal, lineup)`` pairs over ``workers`` (processes, or a Ray cluster:
    ``training.evaluation.cluster``); game results in the order given.

    Each game is seeded from ``(seed, deal)`` alone, so any split over workers gives the
    same results.  Python agents play in this process, in the order given (an agent that
    keeps state between games then sees them in the same order however many workers)."""
    python_agents = any(not isinstance(spec, str) for _, lineup in games for spec in lineup)
    with progress_bar(len(games), progress, desc) as bar:
        return cluster.play_chunks(_play_lineups, (env_name, config, seed, None), games,
                                   workers, lambda part: bar.update(len(part)),
                                   in_process=python_agents)


def rate(entrants: list[Entrant], lineups: list[list[int]], results: list[dict], players: int,
         seed: int, resamples: int = 1000, anchor_label: str = ANCHOR,
         deal_games: int | None = None) -> list[dict[str, Any]]:
    """The rating table: Elo with bootstrap intervals, games, seats, win share, mean score.

    The games of a deal are consecutive, ``deal_games`` of them (default ``players``: the
    round robin's rotations; ``paired``: 2, A's game and B's), and are resampled together;
    ``anchor_label`` is the agent held at 0."""
    agents = len(entrants)
    anchor = [e.label for e in entrants].index(anchor_label)
    per_deal = deal_wins(lineups, results, agents, deal_games or players)
    deals = len(per_deal)
    total = per_deal.sum(0)
    met = (total + total.T) > 0
    elo = fit_elo(total, anchor, met=met)
    weights = resample_weights(deals, resamples, seed)
    boot = fit_elo(np.einsum("bd,dij->bij", weights, per_deal), anchor, met=met)
    rows = []
    for a, entrant in enumerate(entrants):
        seats = [(g, s) for g, lineup in enumerate(lineups) for s, who in enumerate(lineup)
                 if who == a]
        shares = [win_share(s, results[g]["winners"]) for g, s in seats]
        rows.append({
            "agent": entrant.label,
            "elo": float(elo[a]),
            "elo_ci95": interval(boot[:, a]),
            "games": len({g for g, _ in seats}),
            "seats": len(seats),
            "win_share": float(np.mean(shares)) if shares else 0.0,
            "mean_score": float(np.mean([results[g]["scores"][s] for g, s in seats]))
            if seats else 0.0,
        })
    rows.sort(key=lambda row: -row["elo"])
    return rows


# -- the three modes ------------------------------------------------------------------------


def _config(players: int, options: dict | None) -> dict:
    return {"num_players": players, **(options or {})}


def run_arena(env_name: str, players: int, agents: list[Any] = (), games: int = 400,
              seed: int = 0, workers: int | cluster.Workers = 1, progress: bool | str = False,
              options: dict | None = None, resamples: int = 1000) -> dict[str, Any]:
    """The round robin (solo: every agent on the same deals), rated.

    ``games`` is rounded up to whole cycles of the lineups (``players`` games per deal,
    one deal per lineup), so every lineup plays equally often and every agent meets
    every other."""
    config = _config(players, options)
    entrants = field(env_name, config, agents)
    check_entrants(env_name, config, entrants)
    if players == 1:
        return solo(env_name, config, entrants, games, seed, workers, progress, resamples)
    lineups, results = round_robin(env_name, config, entrants, games, seed, workers, progress)
    return {"env": env_name, "players": players, "config": config, "seed": seed,
            "games": len(lineups), "deals": len(lineups) // players, "resamples": resamples,
            "ratings": rate(entrants, lineups, results, players, seed, resamples)}


def round_robin(env_name: str, config: dict, entrants: list[Entrant], games: int, seed: int,
                workers: int | cluster.Workers = 1, progress: bool | str = False,
                desc: str = "") -> tuple[list[list[int]], list[dict]]:
    """The round robin's games, ``games`` rounded up to whole cycles of the lineups: each
    game's lineup (agent indices, seat by seat) and result, deal by deal (``players``
    consecutive games a deal)."""
    players = config["num_players"]
    cycle = len(compositions(len(entrants), players))
    deals = math.ceil(games / players / cycle) * cycle
    lineups = schedule(len(entrants), players, deals, seed)
    played = [(g // players, [entrants[a].spec for a in lineup])
              for g, lineup in enumerate(lineups)]
    results = play_games(env_name, config, played, seed, workers, progress,
                         desc or f"{env_name} {players}p")
    return lineups, results


def solo(env_name: str, config: dict, entrants: list[Entrant], games: int, seed: int,
         workers: int | cluster.Workers = 1, progress: bool | str = False,
         resamples: int = 1000) -> dict[str, Any]:
    """Every agent plays the same ``games`` deals alone; ranked by mean score."""
    scores = solo_scores(env_name, config, entrants, games, seed, workers, progress)
    weights = resample_weights(games, resamples, seed) / games
    rows = [{"agent": entrant.label, "mean_score": float(scores[a].mean()),
             "mean_score_ci95": interval(weights @ scores[a]), "games": games}
            for a, entrant in enumerate(entrants)]
    rows.sort(key=lambda row: -row["mean_score"])
    return {"env": env_name, "players": 1, "config": config, "seed": seed, "games": games,
            "deals": games, "resamples": resamples, "scores": rows}


def solo_scores(env_name: str, config: dict, entrants: list[Entrant], games: int, seed: int,
                workers: int | cluster.Workers = 1, progress: bool | str = False,
                desc: str = "") -> np.ndarray:
    """Each agent's score on each of the same ``games`` deals, played alone: ``(agents,
    games)``.  A deal's game depends on its number alone, not on who else plays."""
    played = [(deal, [entrant.spec]) for entrant in entrants for deal in range(games)]
    results = play_games(env_name, config, played, seed, workers, progress,
                         desc or f"{env_name} solo")
    return np.array([r["scores"][0] for r in results]).reshape(len(entrants), games)


def paired(env_name: str, players: int, first: Any, second: Any, agents: list[Any] = (),
           games: int = 400, seed: int = 0, workers: int | cluster.Workers = 1,
           progress: bool | str = False,
           options: dict | None = None, resamples: int = 1000,
           opponents: list[Any] | None = None,
           seats: list[int] | None = None) -> dict[str, Any]:
    """``first`` and ``second`` on the same deals, from the same seat, against the same
    field, drawn per deal from ``opponents`` (default: the arena's other agents); paired
    bootstrap intervals on the differences.  ``seats``: the seats the two take, deal by
    deal in turn (default every seat): a team that differs only in one role's network
    plays identical games from the other roles' seats, which only dilute the difference."""
    config = _config(players, options)
    a, b = resolve(first, env_name, config), resolve(second, env_name, config)
    if a.label == b.label and a.spec != b.spec:
        raise ConfigError(f"two different agents are both named {a.label!r}")
    if opponents:
        others = [resolve(spec, env_name, config) for spec in opponents]
    else:
        others = [e for e in field(env_name, config, agents)
                  if e.label not in (a.label, b.label)]
    if players > 1 and not others:
        others = [resolve(ANCHOR, env_name, config)]
    check_entrants(env_name, config, [a, b, *others])
    seats, lineups = paired_field(others, players, games, seed, seats)
    outcomes, played_by = {}, {}
    for entrant in (a, b):
        results, shares, scores = play_seated(env_name, config, entrant, seats, lineups,
                                              seed, workers, progress)
        played_by[entrant.label], outcomes[entrant.label] = results, (shares, scores)
    out = {"env": env_name, "players": players, "config": config, "seed": seed,
           "games": games, "a": a.label, "b": b.label, "resamples": resamples,
           "field": sorted({e.label for lineup in lineups for e in lineup}),
           **differences(outcomes[a.label], outcomes[b.label], players, seed, resamples)}
    if players > 1:
        out.update(paired_ratings(a, b, seats, lineups, played_by, players, seed, resamples))
    return out


def paired_field(others: list[Entrant], players: int, games: int, seed: int,
                 seats: list[int] | None = None) -> tuple[list[int], list[list[Entrant]]]:
    """The seats and fields of a paired comparison: deal ``d`` seats the agent compared at
    ``d % players`` (or at ``seats[d % len(seats)]``) among ``players - 1`` opponents drawn
    from ``others`` by ``(seed, d)``: the field does not depend on ``seats``."""
    allowed = list(range(players)) if seats is None else list(seats)
    bad = [s for s in allowed if not 0 <= s < players]
    if not allowed or bad:
        raise ConfigError(f"seats {allowed}: a paired comparison's seats are 0 to "
                          f"{players - 1}, at least one")
    seats = [allowed[deal % len(allowed)] for deal in range(games)]
    lineups = []
    for deal in range(games):
        rng = np.random.default_rng([seed, deal, FIELD_TAG])
        picks = rng.choice(len(others), size=players - 1,
                           replace=len(others) < players - 1) if others else []
        lineups.append([others[int(p)] for p in picks])
    return seats, lineups


def play_seated(env_name: str, config: dict, entrant: Entrant, seats: list[int],
                lineups: list[list[Entrant]], seed: int,
                workers: int | cluster.Workers = 1, progress: bool | str = False,
                ) -> tuple[list[dict], np.ndarray, np.ndarray]:
    """``entrant`` in each deal's seat among that deal's field (``paired_field``): the
    games' results, and its win share and score deal by deal.  Its games depend on the
    deals, seats and field alone, so two agents' are paired whenever those are the same."""
    played = [(deal, [e.spec for e in lineup[:seat]] + [entrant.spec]
               + [e.spec for e in lineup[seat:]])
              for deal, (seat, lineup) in enumerate(zip(seats, lineups))]
    results = play_games(env_name, config, played, seed, workers, progress,
                         f"{entrant.label} {config['num_players']}p")
    return (results, np.array([win_share(s, r["winners"]) for s, r in zip(seats, results)]),
            np.array([r["scores"][s] for s, r in zip(seats, results)]))


def differences(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray],
                players: int, seed: int, resamples: int = 1000) -> dict[str, Any]:
    """A's and B's (win shares, scores) on the same deals, compared: the mean of each, their
    differences, and paired bootstrap intervals (deals resampled); win shares at two or more
    players."""
    (share_a, score_a), (share_b, score_b) = a, b
    weights = resample_weights(len(score_a), resamples, seed) / len(score_a)
    out = {"mean_score_a": float(score_a.mean()), "mean_score_b": float(score_b.mean()),
           "score_difference": float((score_a - score_b).mean()),
           "score_difference_ci95": interval(weights @ (score_a - score_b)),
           "deals_differing": int(np.sum(score_a != score_b))}
    if players > 1:
        out.update({"win_share_a": float(share_a.mean()), "win_share_b": float(share_b.mean()),
                    "win_share_difference": float((share_a - share_b).mean()),
                    "win_share_difference_ci95": interval(weights @ (share_a - share_b))})
    return out


def paired_ratings(a: Entrant, b: Entrant, seats: list[int], lineups: list[list[Entrant]],
                   played_by: dict[str, list[dict]], players: int, seed: int,
                   resamples: int) -> dict[str, Any]:
    """The Elo table of a paired run's own games (A's and B's, every pair of seats, as the
    round robin rates them): A and B never meet, so they are rated through the field they
    both met, with a bootstrap over deals (a deal's two games together).  Held at 0:
    ``random`` where it played, else the first of the field (the result says which:
    ``anchor``)."""
    entrants: dict[str, Entrant] = {}
    for entrant in (a, b, *(e for lineup in lineups for e in lineup)):
        entrants.setdefault(entrant.label, entrant)
    index = {label: k for k, label in enumerate(entrants)}
    order, results = [], []
    for deal, (seat, lineup) in enumerate(zip(seats, lineups)):
        for entrant in (a, b):
            whole = [*lineup[:seat], entrant, *lineup[seat:]]
            order.append([index[e.label] for e in whole])
            results.append(played_by[entrant.label][deal])
    field_labels = [label for label in entrants if label not in (a.label, b.label)]
    anchor = ANCHOR if ANCHOR in entrants else (field_labels or [a.label])[0]
    return {"anchor": anchor,
            "ratings": rate(list(entrants.values()), order, results, players, seed, resamples,
                            anchor_label=anchor, deal_games=2)}


# -- output ---------------------------------------------------------------------------------


def table_lines(result: dict[str, Any]) -> list[str]:
    """A Markdown table of an arena result (ratings, or solo scores)."""
    if result["players"] == 1:
        lines = ["| agent | mean score | 95% interval | games |", "| --- | ---: | --- | ---: |"]
        lines += [f"| `{r['agent']}` | {r['mean_score']:.1f} | {r['mean_score_ci95'][0]:.1f} "
                  f"to {r['mean_score_ci95'][1]:.1f} | {r['games']} |" for r in result["scores"]]
        return lines
    lines = ["| agent | Elo | 95% interval | games | win share |",
             "| --- | ---: | --- | ---: | ---: |"]
    lines += [f"| `{r['agent']}` | {r['elo']:.0f} | {r['elo_ci95'][0]:.0f} to "
              f"{r['elo_ci95'][1]:.0f} | {r['games']} | {r['win_share']:.3f} |"
              for r in result["ratings"]]
    return lines


def paired_lines(result: dict[str, Any]) -> list[str]:
    a, b = result["a"], result["b"]
    lines = [f"{a} vs {b}: {result['games']} deals, same seat and field "
             f"({', '.join(result['field']) or 'none'})"]
    if "win_share_a" in result:
        low, high = result["win_share_difference_ci95"]
        lines.append(f"  win share {result['win_share_a']:.3f} vs {result['win_share_b']:.3f}: "
                     f"difference {result['win_share_difference']:+.3f} "
                     f"(95% CI {low:+.3f} to {high:+.3f})")
    low, high = result["score_difference_ci95"]
    lines.append(f"  mean score {result['mean_score_a']:.2f} vs {result['mean_score_b']:.2f}: "
                 f"difference {result['score_difference']:+.2f} "
                 f"(95% CI {low:+.2f} to {high:+.2f}); {result['deals_differing']} deals differ")
    if result.get("ratings"):
        lines += ["", f"Elo over these {2 * result['games']} games ({result['anchor']} = 0; "
                  f"{a} and {b} rated through the field they both met):", "",
                  *table_lines(result)]
    return lines


def level_lines(env_name: str, players: int) -> list[str]:
    """The difficulty levels the shipped cards record at this player count (``meeplezoo
    levels --record``) as a table: each level against its own network alone on the same
    deals, and what a decision costs.  No recorded level: no lines."""
    from meeplezoo.training.agents.zoo import gain_text

    rows = []
    for entry in list_zoo(env_name):
        for level, counts in sorted(entry.levels.items()):
            figures = counts.get(f"{players}p")
            if not isinstance(figures, dict):
                continue
            strength, cost = figures["strength"], figures["cost"]
            rate = cost.get("simulations_per_s")  # None: a level that does not search
            rows.append(f"| `{entry.name}@{level}` | {gain_text(strength)} | "
                        f"{strength['games']} | {', '.join(strength['field']) or 'none'} | "
                        f"{cost['median_s']:.3f} | {'-' if rate is None else f'{rate:.0f}'} | "
                        f"{figures['seed']}, {figures['code_commit']} |")
    if not rows:
        return []
    return ["", "Levels recorded in the cards (`meeplezoo levels`: each level and its network "
            "alone on the same deals, from the same seat, against the same field; 95% "
            "intervals by paired bootstrap; cost in process seconds a decision with a choice "
            "on one core):", "",
            "| level | over the network alone | deals | field | median s a decision | "
            "simulations/s | seed, code |",
            "| --- | --- | ---: | --- | ---: | ---: | --- |", *rows]


def leaderboard_text(results: list[dict[str, Any]], command: str, seed: int,
                     commit: str, without: list[str], took: str = "") -> str:
    """LEADERBOARD.md: the command, then one table per env and player count."""
    lines = [
        "# Leaderboard",
        "",
        "Every env and player count with a shipped opponent: the shipped opponents, the "
        "heuristic bot and random play in a seat-rotated round robin "
        "(`training/evaluation/arena.py`). Regenerate with:",
        "",
        f"    {command}",
        "",
        f"Seed {seed}, code commit {commit}"
        + (f"; the run took {took}" if took else "")
        + ". Elo: a Bradley-Terry fit to every pair of seats "
        "in every game, ordered by finishing place (a draw counts half), with random = 0; "
        "200 Elo is about 3 to 1 odds between two seats. One virtual draw per pair of agents "
        "keeps a clean sweep finite, so where random almost never finishes ahead of an agent "
        "its distance from random is a floor, and the gaps between the other agents are the "
        "measurement. 95% intervals: bootstrap over deals "
        f"({results[0]['resamples'] if results else 0} resamples). Each deal is played once "
        "per rotation of its lineup; games counts the games an agent sat in (twice in one "
        "game when the lineup needs more seats than there are agents), win share its wins "
        "per seat (a co-win shared), beside a seat's fair 1/players. Solo tables rank the "
        "mean score over the same deals.",
    ]
    for result in results:
        count = "solo" if result["players"] == 1 else f"{result['players']} players"
        lines += ["", f"## `{result['env']}`, {count}", "",
                  f"Games: {result['games']} ({result['deals']} deals).", "",
                  *table_lines(result), *level_lines(result["env"], result["players"])]
    if without:
        lines += ["", "No shipped opponent yet (no table): "
                  + ", ".join(f"`{name}`" for name in without) + "."]
    return "\n".join(lines) + "\n"


def env_sections(results: list[dict[str, Any]], command: str, seed: int,
                 commit: str, took: str = "") -> list[str]:
    """One env's tables, each saying how it was rated (an update of one env keeps the rest
    of the file, which may come from another commit or seed)."""
    lines: list[str] = []
    for result in results:
        count = "solo" if result["players"] == 1 else f"{result['players']} players"
        lines += [f"## `{result['env']}`, {count}", "",
                  f"Games: {result['games']} ({result['deals']} deals). Rated by `{command}` "
                  f"at code commit {commit} (seed {seed}"
                  + (f"; the run took {took}" if took else "") + ").", "",
                  *table_lines(result), *level_lines(result["env"], result["players"]), ""]
    return lines


NOTE_PREFIX = "Note:"  # a hand-written paragraph under a table that regenerating keeps


def _sections(text: str) -> dict[str, list[str]]:
    """Each ``## `env`, count`` heading's lines, up to the next heading."""
    found: dict[str, list[str]] = {}
    heading = None
    for line in text.split("\n"):
        if line.startswith("## "):
            heading = line
            found[heading] = []
        elif heading is not None:
            found[heading].append(line)
    return found


def keep_notes(old: str, new: str) -> str:
    """``new`` with every ``Note:`` line of ``old`` put back under the same heading, after
    its ``Games:`` line: notes written by hand survive a regenerated table."""
    notes = {h: [ln for ln in lines if ln.startswith(NOTE_PREFIX)]
             for h, lines in _sections(old).items()}
    out: list[str] = []
    heading = None
    for line in new.split("\n"):
        out.append(line)
        if line.startswith("## "):
            heading = line
        elif heading and line.startswith("Games:") and notes.get(heading):
            out += ["", *notes[heading]]
    return "\n".join(out)


def replace_env_sections(text: str, env_name: str, sections: list[str]) -> str:
    """``text`` (a LEADERBOARD.md) with ``env_name``'s sections, and those of any retired
    version of it, replaced by ``sections``, in env order; every other line is kept."""
    family = env_name.rsplit("_v", 1)[0]
    lines = text.rstrip("\n").split("\n")
    kept: list[str] = []
    skipping = False
    insert_at = None
    for line in lines:
        if line.startswith("## `"):
            name = line[4:].split("`", 1)[0]
            skipping = name.rsplit("_v", 1)[0] == family
            if insert_at is None and (skipping or name > env_name):
                insert_at = len(kept)  # where the env's tables go: its old place, or in order
        elif line.startswith("No shipped opponent yet"):
            skipping = False
            if insert_at is None:
                insert_at = len(kept)
        if not skipping:
            kept.append(line)
    if insert_at is None:
        insert_at = len(kept)
        sections = ["", *sections]
    return "\n".join([*kept[:insert_at], *sections, *kept[insert_at:]]).rstrip("\n") + "\n"


def leaderboard(games: int, seed: int, workers: int | cluster.Workers, progress: bool | str,
                command: str,
                resamples: int = 1000, path: Path | None = None,
                env_names: list[str] | None = None, update: bool = False,
                allow_dirty: bool = False, levels: list[str] = ()) -> str:
    """Rate every env (of ``env_names``, default all) and player count that has a shipped
    opponent; write ``path`` (default: LEADERBOARD.md in the zoo's folder).  Each of
    ``levels`` seats every shipped network of the table at that level too
    (``<name>@<level>``)."""
    from meeplezoo.training.agents.bots import LEVELS
    from meeplezoo.training.cli import code_commit

    unknown = [level for level in levels if level not in LEVELS]
    if unknown:
        raise ConfigError(f"--levels {','.join(unknown)}: unknown level; the levels are "
                          f"{', '.join(LEVELS)}")

    commit = code_commit()
    if commit.endswith("+dirty") and not allow_dirty:
        raise SystemExit("--leaderboard: the working tree has uncommitted changes under "
                         "meeplezoo/, envs/ or training/, so the ratings could not name the "
                         "code that made them; commit first (or give --allow-dirty, and the "
                         "file says +dirty)")
    started = time.perf_counter()
    results, without = [], []
    for env_name in env_names or envs.list_envs():
        shipped = list_zoo(env_name)
        counts = sorted({count for entry in shipped for count in entry.player_counts})
        if not counts:
            without.append(env_name)
        for players in counts:
            at_levels = [f"{entry.name}@{level}" for level in levels for entry in shipped
                         if players in entry.player_counts]
            results.append(run_arena(env_name, players, at_levels, games, seed, workers,
                                     progress, resamples=resamples))
    path = path or zoo_root() / LEADERBOARD_FILE
    took = f"{time.perf_counter() - started:.0f} s with {cluster.workers_of(workers)}"
    if update:  # only these envs' sections change; the rest of the file stays as it is
        text = path.read_text()
        for env_name in env_names or []:
            mine = [r for r in results if r["env"] == env_name]
            if mine:
                text = replace_env_sections(text, env_name,
                                            env_sections(mine, command, seed, commit, took))
    else:
        text = leaderboard_text(results, command, seed, commit, without, took)
    if path.exists():  # the same env's hand-written notes stay (``Note:`` lines)
        text = keep_notes(path.read_text(), text)
    path.write_text(text)
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Seat-rotated round robin of an env's opponents, rated on an Elo scale "
                    "(random = 0) with bootstrap intervals")
    parser.add_argument("--env", choices=envs.list_envs())
    parser.add_argument("--players", type=int)
    add_agents_argument(parser, "--agents", default=[], forms=ARENA_FORMS,
                        what="agents to rate beside the env's shipped opponents, heuristic "
                             "and random")
    parser.add_argument("--games", type=int, default=400,
                        help="games per table (rounded up to whole cycles of the lineups: "
                             "every lineup plays equally often)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bootstrap", type=int, default=1000, metavar="RESAMPLES")
    cluster.add_arguments(parser)
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="progress bar (default: a bar when stderr is a terminal, else a "
                             "line every 30 s with games/s and the time left; --no-progress: "
                             "none)")
    parser.add_argument("--paired", nargs="+", action=SpecList, metavar="AGENT",
                        help="two agents, A and B (--paired A B or --paired A,B), on the same "
                             "deals, seats and field; interval on the difference (the forms "
                             "of --agents)")
    add_agents_argument(parser, "--field", forms=ARENA_FORMS,
                        what="--paired: the opponents to draw the field from (default: the "
                             "arena's other agents)")
    parser.add_argument("--leaderboard", action="store_true",
                        help="rate every env with a shipped opponent into checkpoints/"
                             f"{LEADERBOARD_FILE}; with --env, that env only, replacing its "
                             "tables (and a retired version's) and keeping the rest")
    parser.add_argument("--levels", default="", metavar="LEVEL,...",
                        help="--leaderboard: also seat every shipped network at these "
                             "difficulty levels (e.g. hard: a search a decision, so the "
                             "tables take far longer)")
    parser.add_argument("--allow-dirty", action="store_true",
                        help="--leaderboard from a working tree with uncommitted changes "
                             "(refused otherwise; the file then names the commit +dirty)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="game option, e.g. population_scoring=mode")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    args = parser.parse_args(argv)
    progress = "auto" if args.progress is None else args.progress  # auto: bar or lines
    agents = args.agents
    levels = [level for level in args.levels.split(",") if level]
    if levels and not args.leaderboard:
        parser.error("--levels is for --leaderboard; name one agent at a level with "
                     "--agents NAME@LEVEL")
    from meeplezoo.training.cli import parse_options

    try:
        options = parse_options(args.option)
        if args.leaderboard:
            if args.players or agents or args.paired or args.field or options:
                parser.error("--leaderboard rates the shipped opponents of every env (or of "
                             "--env only): give it only --env, --levels, --games, --seed, "
                             "--bootstrap and --workers or --address")
            where = cluster.workers_from(args)  # a missing Ray or a wrong --address: said now
            only = f"--env {args.env} " if args.env else ""
            at = f"--levels {args.levels} " if levels else ""
            command = (f"meeplezoo arena --leaderboard {only}{at}--games "
                       f"{args.games} --seed {args.seed} --bootstrap {args.bootstrap}")
            print(leaderboard(args.games, args.seed, where, progress, command,
                              args.bootstrap, env_names=[args.env] if args.env else None,
                              update=bool(args.env), allow_dirty=args.allow_dirty,
                              levels=levels), end="")
            print(f"wrote {zoo_root() / LEADERBOARD_FILE}", file=sys.stderr)
            return 0
        if args.env is None or args.players is None:
            parser.error("--env and --players are required (or --leaderboard)")
        if args.field and not args.paired:
            parser.error("--field is the field of --paired")
        where = cluster.workers_from(args)
        if args.paired:
            pair = args.paired
            if len(pair) != 2:
                parser.error(f"--paired takes two agents, A B or A,B; got {len(pair)}: "
                             f"{' '.join(pair)}")
            opponents = args.field or []
            out = paired(args.env, args.players, pair[0], pair[1], agents, args.games,
                         args.seed, where, progress, options, args.bootstrap,
                         opponents)
            print("\n".join(paired_lines(out)))
        else:
            out = run_arena(args.env, args.players, agents, args.games, args.seed,
                            where, progress, options, args.bootstrap)
            print(f"{args.env}, {args.players} player(s): {out['games']} games, seed "
                  f"{args.seed}")
            print("\n".join(table_lines(out)))
    except (MeepleZooError, ValueError) as exc:
        raise SystemExit(f"training.arena: {exc}") from None
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(run_command(main))
