"""Seat-rotated matches among agents: win rates with confidence intervals, ratings.

    # each agent against a field of one kind (the candidate's seat rotates)
    meeplezoo evaluate --env chihou_sousei_v1 --players 4 \
        --agents checkpoints/chihou_sousei_v1/ppo_league heuristic --field random --games 1000

    # round robin among agents, rated with openskill (Plackett-Luce); a single agent
    # plays every seat, and --by-role gives its win rate per company (a balance report)
    meeplezoo evaluate --env chihou_sousei_v1 --players 4 \
        --agents random heuristic checkpoints/chihou_sousei_v1/ppo_league --games 600

Agents and fields are any spec of ``training.agents.specs.FORMS`` (``random``,
``heuristic``, checkpoint or team folders, zoo names such as ``chihou_sousei_v1/ppo_league``,
played deterministically, ``NETWORK@LEVEL``, ``package.module:attribute``), several given
space- or comma-separated.  A co-win counts as a 1/k
share of a win.  Torch-free: the ``[play]`` extra (onnxruntime, openskill) runs it all.
``--address auto`` plays the games on a Ray cluster, with the same results
(``training.evaluation.cluster``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np

from meeplezoo import envs
from meeplezoo.envs.core.agents import play_game
from meeplezoo.envs.core.balance import role_labels, stats_hook
from meeplezoo.envs.core.command import run_command
from meeplezoo.envs.core.errors import ConfigError
from meeplezoo.envs.core.progress import Progress
from meeplezoo.envs.core.rewards import places, win_share, winners
from meeplezoo.envs.core.stats import wilson
from meeplezoo.envs.core.workers import default_workers
from meeplezoo.training.agents.bots import BotCache
from meeplezoo.training.agents.opponents import checkpoint_folder, spec_role
from meeplezoo.training.agents.specs import add_agents_argument
from meeplezoo.training.agents.zoo import CheckpointError
from meeplezoo.training.evaluation import cluster


def agent_label(spec: Any) -> str:
    """How results name an agent: its spec string, or a Python agent's name."""
    if isinstance(spec, str):
        return spec
    return str(getattr(spec, "name", None) or getattr(spec, "__name__", None) or repr(spec))


def _game_bots(game: Any, lineup: list[str], rng: np.random.Generator, cache: BotCache,
               roles: dict[Any, str | None]) -> list[Any]:
    """The bots of one game: each seat's own, seeded from the game's generator (networks
    shared through ``cache``); each spec's role is read from its card once."""
    bots = []
    for seat, spec in enumerate(lineup):
        seed = int(rng.integers(2**31))
        key = spec if isinstance(spec, str) else id(spec)
        if key not in roles:
            roles[key] = spec_role(spec)
        role = roles[key]
        if role is not None and role != game.seat_role(seat):
            raise ConfigError(f"{spec} plays role {role!r}; seat {seat} plays "
                              f"{game.seat_role(seat)!r}")
        bots.append(cache.bot(spec, seed, seat))
    return bots


def _play_lineups(args: tuple[tuple, list[tuple[int, list[Any]]]]) -> list[dict[str, Any]]:
    """Worker: play the given games (game index, lineup), each seeded by its index, so
    the results do not depend on how games are split over workers."""
    (env_name, config, seed, watch), games = args
    game = envs.make_game(env_name, **config)
    cache = BotCache(game)
    roles: dict[Any, str | None] = {}
    results = []
    won = 0.0
    for done, (index, lineup) in enumerate(games, 1):
        rng = np.random.default_rng([seed, index])
        bots = _game_bots(game, lineup, rng, cache, roles)
        state = play_game(game.new_initial_state(int(rng.integers(2**63 - 1))), bots)
        keys = state.rank_keys()
        results.append(
            {
                "lineup": [agent_label(spec) for spec in lineup],
                "scores": [float(s) for s in state.scores()],
                "places": places(keys),
                "winners": winners(keys),
                "roles": state.seat_roles(),
            }
        )
        if watch is not None:  # progress of long evaluations, one line per game
            won += sum(win_share(s, winners(keys)) for s, spec in enumerate(lineup)
                       if agent_label(spec) == watch)
            print(f"worker {os.getpid()}: {done}/{len(games)} games, {watch} won "
                  f"{won / done:.3f} per game so far", file=sys.stderr, flush=True)
    return results


def role_table(results: list[dict[str, Any]], agent: str | None = None) -> list[dict[str, Any]]:
    """Win share per seat role (company, class), from games whose seats have roles.

    With ``agent``, only seats played by that agent count.
    """
    wins: dict[str, float] = {}
    seats: dict[str, int] = {}
    for result in results:
        if not result.get("roles"):
            continue
        for seat, role in enumerate(result["roles"]):
            if agent is not None and result["lineup"][seat] != agent:
                continue
            seats[role] = seats.get(role, 0) + 1
            wins[role] = wins.get(role, 0.0) + win_share(seat, result["winners"])
    table = []
    for role in sorted(seats, key=lambda r: -wins[r] / seats[r]):
        low, high = wilson(wins[role], seats[role])
        table.append({"role": role, "seat_games": seats[role],
                      "win_rate": float(wins[role] / seats[role]),
                      "win_rate_ci95": [float(low), float(high)]})
    return table


def play_many(
    env_name: str, config: dict, lineups: list[list[str]], seed: int,
    workers: int | cluster.Workers, watch: str | None = None, bar: Progress | None = None,
) -> list[dict[str, Any]]:
    """Play lineups, in chunks over ``workers`` (worker processes, or a Ray cluster:
    ``training.evaluation.cluster``), results in the order of the lineups; with ``watch``,
    each worker plays one chunk and prints that agent's running win share; ``bar`` counts
    the games as their chunks end (every game is seeded by its index, so the split changes
    no result).  Python agents play in this process."""
    python_agents = any(not isinstance(spec, str) for lineup in lineups for spec in lineup)
    counted = (lambda part: bar.update(len(part))) if bar is not None else None
    return cluster.play_chunks(_play_lineups, (env_name, config, seed, watch),
                       list(enumerate(lineups)), workers, counted,
                       per_worker=watch is not None, in_process=python_agents)


def versus_field(
    env_name: str,
    config: dict,
    candidate: Any,
    field: Any,
    games: int,
    seed: int = 0,
    workers: int | cluster.Workers = 1,
    progress: bool = False,
    bar: Progress | None = None,
) -> dict[str, Any]:
    """``candidate`` in the seats of its role in turn (every seat if it plays any role),
    ``field`` everywhere else.  Either may be a spec string or a Python agent (an object
    with ``act(observation, mask)`` or ``act(state)``, or a function of the observation
    and the mask).  ``progress``: each worker prints the candidate's running win share;
    ``bar``: counts the games (``play_many``)."""
    n = config["num_players"]
    game = envs.make_game(env_name, **config)
    role = spec_role(candidate)
    seats = game.role_seats(role) if role is not None else list(range(n))
    lineups = [[candidate if s == seats[g % len(seats)] else field for s in range(n)]
               for g in range(games)]
    results = play_many(env_name, config, lineups, seed, workers,
                        watch=agent_label(candidate) if progress else None, bar=bar)
    share = np.zeros(games)
    seat_share = np.zeros(n)
    seat_games = np.zeros(n)
    score = np.zeros(games)
    field_score = np.zeros(games)
    place = np.zeros(games)
    for g, result in enumerate(results):
        seat = seats[g % len(seats)]
        share[g] = win_share(seat, result["winners"])
        seat_share[seat] += share[g]
        seat_games[seat] += 1
        score[g] = result["scores"][seat]
        field_score[g] = np.mean([s for i, s in enumerate(result["scores"]) if i != seat])
        place[g] = result["places"][seat]
    low, high = wilson(float(share.sum()), games)  # plain floats: results print as numbers
    return {
        "candidate": agent_label(candidate),
        "field": agent_label(field),
        "players": n,
        "games": games,
        "win_rate": float(share.mean()),
        "win_rate_ci95": [float(low), float(high)],
        "win_rate_by_seat": [float(w / max(c, 1)) for w, c in zip(seat_share, seat_games)],
        "games_by_seat": [int(c) for c in seat_games],
        "seat_labels": seat_labels(game),
        "mean_score": float(score.mean()),
        "mean_field_score": float(field_score.mean()),
        "mean_place": float(place.mean()) + 1.0,
        "seat_share_baseline": 1.0 / n,
        "by_role": role_table(results, agent_label(candidate)),
    }


def round_robin(
    env_name: str, config: dict, agents: list[str], games: int, seed: int = 0,
    workers: int | cluster.Workers = 1,
    bar: Progress | None = None,
) -> dict[str, Any]:
    """Random seat-shuffled lineups of the agents; openskill ratings and win shares."""
    from openskill.models import PlackettLuce

    n = config["num_players"]
    rng = np.random.default_rng(seed)
    roles = {a: spec_role(a) for a in agents}
    game = envs.make_game(env_name, **config) if any(roles.values()) else None
    lineups = []
    for _ in range(games):
        if game is not None:  # a role's checkpoint sits only in its role's seats
            lineups.append(_role_lineup(game, agents, roles, rng))
            continue
        pick = (
            list(rng.choice(agents, size=n, replace=False))
            if len(agents) >= n
            else [agents[i % len(agents)] for i in rng.permutation(n)]
        )
        lineups.append([str(a) for a in rng.permutation(pick)])
    results = play_many(env_name, config, lineups, seed, workers, bar=bar)
    model = PlackettLuce()
    ratings = {a: model.rating(name=a) for a in agents}
    wins = dict.fromkeys(agents, 0.0)
    played = dict.fromkeys(agents, 0)
    for result in results:
        lineup = result["lineup"]
        teams = [[ratings[a]] for a in lineup]
        new = model.rate(teams, ranks=result["places"])
        updates: dict[str, list] = {}
        for a, team in zip(lineup, new):
            updates.setdefault(a, []).append(team[0])
        for a, rs in updates.items():
            ratings[a].mu = float(np.mean([r.mu for r in rs]))
            ratings[a].sigma = float(np.mean([r.sigma for r in rs]))
        for seat, a in enumerate(lineup):
            played[a] += 1
            wins[a] += win_share(seat, result["winners"])
    table = []
    for a in agents:
        low, high = wilson(wins[a], played[a])
        table.append(
            {
                "agent": a,
                "mu": ratings[a].mu,
                "sigma": ratings[a].sigma,
                "ordinal": ratings[a].mu - 3 * ratings[a].sigma,
                "seat_games": played[a],
                "win_rate": float(wins[a] / max(played[a], 1)),
                "win_rate_ci95": [float(low), float(high)],
            }
        )
    table.sort(key=lambda row: row["ordinal"], reverse=True)
    return {"players": n, "games": games, "ratings": table, "by_role": role_table(results)}


def _role_lineup(game: Any, agents: list[str], roles: dict[str, str | None],
                 rng: np.random.Generator) -> list[str]:
    """One game's seats, filled in random order, each by a random agent that can play the
    seat's role (one not yet seated in this game when there is one)."""
    lineup: list[str] = [""] * game.num_players
    for seat in rng.permutation(game.num_players):
        role = game.seat_role(int(seat))
        fits = [a for a in agents if roles[a] in (None, role)]
        if not fits:
            raise ConfigError(f"no agent can play seat {seat} (role {role!r}): "
                              f"{', '.join(agents)}")
        fresh = [a for a in fits if a not in lineup] or fits
        lineup[int(seat)] = str(fresh[int(rng.integers(len(fresh)))])
    return lineup


def solo_scores(
    env_name: str, config: dict, agents: list[str], games: int, seed: int = 0,
    workers: int | cluster.Workers = 1,
    bar: Progress | None = None,
) -> dict[str, dict[str, float]]:
    """Mean solo score (with its 95% interval) of each agent over the same seeded games."""
    out = {}
    for agent in agents:
        results = play_many(env_name, {**config, "num_players": 1}, [[agent]] * games, seed,
                            workers, bar=bar)
        scores = np.array([r["scores"][0] for r in results])
        half = 1.96 * scores.std(ddof=1) / math.sqrt(games) if games > 1 else 0.0
        out[agent] = {"games": games, "mean_score": float(scores.mean()),
                      "mean_score_ci95": [float(scores.mean() - half), float(scores.mean() + half)],
                      "std": float(scores.std(ddof=1)) if games > 1 else 0.0}
    return out


def evaluate_checkpoint(
    folder: str | Path,
    games: int,
    players: int | None = None,
    seed: int = 12345,
    fields: tuple[str, ...] = ("random", "heuristic"),
    workers: int | cluster.Workers | None = None,
    progress: bool = False,
    progress_style: bool | str | None = "off",
) -> dict[str, Any]:
    """The card's evaluation: the checkpoint against each field, seat-rotated.

    A checkpoint that also plays solo gets its mean solo score beside the
    fields' (same seeds).  ``progress``: each worker's running win share;
    ``progress_style``: the games counted on stderr (``envs.core.progress``).
    """
    card = json.loads((checkpoint_folder(folder) / "card.json").read_text())
    counts = card["player_counts"]
    players = players or max(counts)
    config = {**card["config"], "num_players": players}
    workers = workers or default_workers()
    result: dict[str, Any] = {}
    total = games * ((len(fields) if players > 1 else 0) + (1 + len(fields) if 1 in counts
                                                             else 0))
    with Progress(total, f"evaluate {Path(folder).name}",
                  style="off" if progress else progress_style) as bar:
        if players > 1:
            for field in fields:
                result[f"vs_{field}"] = versus_field(
                    card["env"], config, str(folder), field, games, seed, workers, progress,
                    bar=bar)
        if 1 in counts:
            result["solo"] = solo_scores(card["env"], config, [str(folder), *fields], games,
                                         seed, workers, bar=bar)
    return result


def seat_labels(game: Any) -> list[str]:
    """How the per-seat columns are headed: by the seat's role where seats have fixed roles
    (Hegemony's classes, by their short labels), else by seat number from 1, as tables
    count."""
    return role_labels(game, stats_hook(game))


def _seat_cells(r: dict[str, Any]) -> str:
    """``WC:0.89 MC:- ...``: a seat the candidate never sat in shows ``-``, not a 0."""
    labels = r.get("seat_labels") or [f"seat{s + 1}" for s in range(len(r["win_rate_by_seat"]))]
    games = r.get("games_by_seat") or [1] * len(labels)
    return " ".join(f"{label}:{w:.2f}" if n else f"{label}:-"
                    for label, w, n in zip(labels, r["win_rate_by_seat"], games))


def _print_field(rows: list[dict[str, Any]]) -> None:
    print(f"{'agent':44} {'field':10} {'games':>6} {'win':>7} {'95% CI':>15} {'by seat':>28}")
    for r in rows:
        ci = f"[{r['win_rate_ci95'][0]:.3f},{r['win_rate_ci95'][1]:.3f}]"
        seats = _seat_cells(r)
        print(
            f"{r['candidate'][-44:]:44} {r['field']:10} {r['games']:>6} "
            f"{r['win_rate']:>7.3f} {ci:>15} {seats:>28}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Seat-rotated evaluation and ratings")
    parser.add_argument("--env", required=True, choices=envs.list_envs())
    parser.add_argument("--players", type=int, required=True)
    add_agents_argument(parser, "--agents", required=True,
                        what="the agents to evaluate (a round robin among them, or each "
                             "against --field)")
    add_agents_argument(parser, "--field",
                        what="play each agent against this field (every other seat) instead "
                             "of a round robin; several fields: each agent against each")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    cluster.add_arguments(parser)
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="game option, e.g. population_scoring=mode",
    )
    parser.add_argument("--by-role", action="store_true",
                        help="also print win rates per seat role (e.g. company)")
    parser.add_argument("--json", metavar="FILE", help="write the results as JSON")
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="--progress: a line per game of a --field evaluation as it ends, "
                             "with the agent's running win share; --no-progress: none; "
                             "default: a bar on a terminal, else a line on stderr every 30 s "
                             "with the games, games/s and the time left")
    args = parser.parse_args(argv)
    try:
        return _run_cli(args)
    except (ConfigError, CheckpointError, ValueError, cluster.GamesLost) as exc:  # not a crash
        raise SystemExit(f"evaluate: {exc}") from None


def _run_cli(args: argparse.Namespace) -> int:
    from meeplezoo.training.cli import parse_options

    try:
        config = {"num_players": args.players, **parse_options(args.option)}
    except ConfigError as exc:
        raise SystemExit(f"--option: {exc}") from None
    try:
        envs.make_game(args.env, **config)
    except ConfigError as exc:
        raise SystemExit(str(exc)) from None
    args.workers = cluster.workers_from(args)  # a missing Ray or a wrong --address: said now
    watch = bool(args.progress) and bool(args.field)  # --progress: the per-game lines
    total = args.games * (1 if args.players > 1 and not args.field else len(args.agents)
                          * (len(args.field) if args.field and args.players > 1 else 1))
    with Progress(total, f"evaluate {args.env}",
                  style="off" if args.progress is False or watch else "auto") as bar:
        return _play_and_print(args, config, watch, bar)


def _play_and_print(args: argparse.Namespace, config: dict[str, Any], watch: bool,
                    bar: Progress) -> int:
    if args.players == 1:  # solo: nobody to beat, so agents compare by mean score
        out = solo_scores(args.env, config, args.agents, args.games, args.seed, args.workers,
                          bar=bar)
        print(f"{'agent':44} {'games':>6} {'mean score':>11} {'95% CI':>19}")
        for agent, r in out.items():
            ci = f"[{r['mean_score_ci95'][0]:.1f},{r['mean_score_ci95'][1]:.1f}]"
            print(f"{agent[-44:]:44} {r['games']:>6} {r['mean_score']:>11.2f} {ci:>19}")
    elif args.field:
        out: Any = [
            versus_field(args.env, config, a, field, args.games, args.seed, args.workers,
                         progress=watch, bar=bar)
            for a in args.agents for field in args.field
        ]
        _print_field(out)
    else:
        out = round_robin(args.env, config, args.agents, args.games, args.seed, args.workers,
                          bar=bar)
        print(f"{'agent':44} {'ordinal':>8} {'mu':>7} {'sigma':>6} {'games':>6} {'win':>6}")
        for r in out["ratings"]:
            print(
                f"{r['agent'][-44:]:44} {r['ordinal']:>8.2f} {r['mu']:>7.2f} "
                f"{r['sigma']:>6.2f} {r['seat_games']:>6} {r['win_rate']:>6.3f}"
            )
    if args.by_role:
        rows = out[0]["by_role"] if isinstance(out, list) else out["by_role"]
        if not rows:
            print("(this game's seats have no roles)")
        print(f"{'role':24} {'seat games':>10} {'win':>7} {'95% CI':>15}")
        for r in rows:
            ci = f"[{r['win_rate_ci95'][0]:.3f},{r['win_rate_ci95'][1]:.3f}]"
            print(f"{r['role']:24} {r['seat_games']:>10} {r['win_rate']:>7.3f} {ci:>15}")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(run_command(main))
