"""Measure a network's difficulty levels: strength against the network alone, and cost.

    meeplezoo levels --checkpoint necropolis_railway_v1/ppo_league --players 1 \\
        --levels hard,expert --games 400 --seed 20261303 --workers 2

For each level (``training.agents.bots.LEVELS``):

* **strength**: the level and the plain network (greedy) on the same deals, from the same
  seat, against the same field (``arena.paired``): the difference in win share, or in mean
  score alone, with a paired bootstrap interval;
* **cost**: ``--cost-games`` games in this one process, the level in a seat that turns with
  the deal; every decision with more than one legal action is timed in process seconds
  (one core), and a search's simulations are counted.  The median and the 90th percentile
  are reported, and simulations per second.  A decision with one legal action costs no
  search and is not counted.

* **Elo** (``--arena``, at 2 or more players): the levels seated in the arena's
  seat-rotated round robin with the shipped networks and the heuristic and random bots,
  rated on its Elo scale; ``--record`` adds each level's row and the table to the figures
  the two measurements above recorded for it.

``--record`` writes the figures into the checkpoint's card (``levels``: level -> player
count -> figures, with the command and commit), where the zoo and the cards show them.

``--tune LEVEL.SETTING=VALUE`` plays no games: it writes the card's own tuning of a search
level (``level_tuning``), e.g. ``--tune hard.c_scale=1.0``, as a step of its recipe.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shlex
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from meeplezoo import envs
from meeplezoo.envs.core.command import run_command
from meeplezoo.envs.core.errors import ConfigError
from meeplezoo.envs.core.workers import default_workers
from meeplezoo.training.agents.bots import LEVELS, level_settings, make_bot
from meeplezoo.training.agents.ismcts import SearchBot
from meeplezoo.training.agents.opponents import card_value_path, checkpoint_folder, read_team_card
from meeplezoo.training.agents.specs import add_agents_argument
from meeplezoo.training.agents.zoo import CARD_FILE, TEAM_FILE, card_file, gain_text
from meeplezoo.training.cli import code_commit
from meeplezoo.training.evaluation import arena
from meeplezoo.training.evaluation.level_tuning import parse_tuning, write_tuning

COST_TAG = 7_919  # keeps the cost games' deals apart from the strength games'


def decision_cost(env_name: str, players: int, spec: str, field: list[str], games: int,
                  seed: int) -> dict[str, Any]:
    """Process seconds per decision with a choice of ``spec`` over ``games`` games, the
    seat turning with the game, the other seats drawn in turn from ``field``."""
    game = envs.make_game(env_name, num_players=players)
    seconds: list[float] = []
    simulations = 0
    for number in range(games):
        seat = number % players
        bots: list[Any] = []
        for s in range(players):
            name = spec if s == seat else field[(number + s) % len(field)]
            bots.append(make_bot(name, game, seed=seed + 1_000 * number + s, seat=s))
        state = game.new_initial_state(int(np.random.default_rng(
            [seed, number, COST_TAG]).integers(2**63 - 1)))
        for _ in range(game.max_decisions):
            if state.is_terminal():
                break
            mover = state.current_player()
            bot = bots[mover]
            if mover != seat or int(state.legal_mask().sum()) == 1:
                state.apply(int(bot.act(state)))
                continue
            start = time.process_time()
            if isinstance(bot, SearchBot):
                result = bot.search.search(state)
                action, simulations = result.action, simulations + result.simulations
            else:
                action = int(bot.act(state))
            seconds.append(time.process_time() - start)
            state.apply(int(action))
    if not seconds:
        raise ConfigError(f"{spec}: no decision with a choice in {games} games: raise "
                          "--cost-games")
    total = float(np.sum(seconds))
    return {"games": games, "decisions": len(seconds),
            "median_s": round(float(np.median(seconds)), 4),
            "p90_s": round(float(np.percentile(seconds, 90)), 4),
            "simulations_per_s": round(simulations / total, 1) if simulations else None}


def level_figures(env_name: str, players: int, base: str, level: str, field: list[str],
                  games: int, cost_games: int, seed: int, workers: int,
                  progress: bool) -> dict[str, Any]:
    """One level's strength (paired against ``base`` greedy) and cost."""
    spec = f"{base}@{level}"
    strength = arena.paired(env_name, players, spec, base, games=games, seed=seed,
                            workers=workers, progress=progress, opponents=field or None)
    keep = ("games", "field", "mean_score_a", "mean_score_b", "score_difference",
            "score_difference_ci95", "win_share_a", "win_share_b", "win_share_difference",
            "win_share_difference_ci95")
    return {"strength": {k: strength[k] for k in keep if k in strength},
            "cost": decision_cost(env_name, players, spec, field or ["heuristic"],
                                  cost_games, seed),
            "settings": level_settings(base, level, envs.make_game(env_name,
                                                                   num_players=players))}


def lines(level: str, players: int, figures: dict[str, Any]) -> list[str]:
    s, c = figures["strength"], figures["cost"]
    mean = ("win share", "win_share") if "win_share_a" in s else ("mean score", "mean_score")
    rate = (f", {c['simulations_per_s']:.0f} simulations/s" if c["simulations_per_s"]
            else "")
    return [f"@{level} ({players}p, {s['games']} paired deals): {gain_text(s)} over the "
            f"network ({mean[0]} {s[mean[1] + '_a']:.3f} vs {s[mean[1] + '_b']:.3f})",
            f"  cost: median {c['median_s']:.3f} s a decision with a choice (90%: "
            f"{c['p90_s']:.3f} s) over {c['decisions']} decisions in {c['games']} games"
            f"{rate}"]


def card_of(folder: Path) -> tuple[Path, str, list[int]]:
    """(the card the levels go in, the env, the player counts): a checkpoint's
    ``card.json``, or a team's ``team.json`` with the counts all its members play."""
    path = card_file(folder)
    if path.name != TEAM_FILE:
        card = json.loads(path.read_text())
        return path, str(card["env"]), list(card["player_counts"])
    _, members, env_name = read_team_card(folder)
    counts = set.intersection(*(set(json.loads((folder / sub / CARD_FILE).read_text())[
        "player_counts"]) for sub in members.values()))
    return path, env_name, sorted(counts)


def value_digests(folder: Path) -> dict[str, str]:
    """The leaf values a level reads, by path in the checkpoint (a team: each member's) ->
    the first 16 hex digits of their sha256.  A search level's figures hold only for the
    value they were measured with: stamped beside them, a later ``fit-value`` that replaces
    the value shows which figures predate it."""
    paths = [card_value_path(card.parent) for card in sorted(folder.rglob(CARD_FILE))]
    return {str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()[:16]
            for path in paths if path is not None}


def record(card_path: Path, players: int, found: dict[str, dict[str, Any]], seed: int,
           command: str, commit: str, under: str | None = None) -> None:
    """Merge the figures into the card's (or team card's) ``levels`` block; ``commit``:
    the code the games ran on (taken when they started).  With ``under`` (``arena``),
    each level's figures go under that key of the figures already recorded for it.  The
    values the levels read are stamped beside the figures (``value_digests``)."""
    card = json.loads(card_path.read_text())
    block = card.setdefault("levels", {})
    values = value_digests(card_path.parent)
    for level, figures in found.items():
        stamped = {**figures, "seed": seed, "command": command, "code_commit": commit,
                   **({"values": values} if values else {})}
        counts = block.setdefault(level, {})
        if under is None:
            counts[f"{players}p"] = stamped
        else:
            counts[f"{players}p"][under] = stamped
    card_path.write_text(json.dumps(card, indent=2, ensure_ascii=False) + "\n")


def arena_figures(out: dict[str, Any], spec: str) -> dict[str, Any]:
    """A level's row of an arena table (``arena.run_arena``) and the whole table beside it,
    so the card says whom the Elo was measured against."""
    rows = {row["agent"]: row for row in out["ratings"]}
    if spec not in rows:
        raise ConfigError(f"{spec} is not in the arena's table ({', '.join(rows)})")
    keep = ("elo", "elo_ci95", "win_share", "games")
    return {"agent": spec, **{k: rows[spec][k] for k in keep}, "table_games": out["games"],
            "table": [{"agent": row["agent"], **{k: row[k] for k in keep if k != "games"}}
                      for row in out["ratings"]]}


def run_arena_levels(args: argparse.Namespace, argv: list[str], card_path: Path,
                     env_name: str, players: int, levels: list[str]) -> int:
    """``--arena``: the levels rated in a seat-rotated round robin (``meeplezoo arena``)
    with the shipped networks and the bots, each level's row (and the table) recorded."""
    if players == 1:
        raise ConfigError("--arena rates levels against each other at 2 or more players; "
                          "alone, the paired measurement (without --arena) is the figure")
    if args.record:
        recorded = json.loads(card_path.read_text()).get("levels", {})
        missing = [level for level in levels if f"{players}p" not in recorded.get(level, {})]
        if missing:
            raise ConfigError(f"--arena --record: {card_path} records no {players}-player "
                              f"figures for {', '.join('@' + m for m in missing)}; record "
                              "them first (meeplezoo levels ... --record, without --arena)")
    base = str(args.checkpoint)
    commit = code_commit()  # now: the code may change while the games run
    specs = [f"{base}@{level}" for level in levels]
    out = arena.run_arena(env_name, players, specs, args.games, args.seed, args.workers,
                          "auto" if not args.no_progress else False)
    print(f"{env_name}, {players} players: {out['games']} games, seed {args.seed}")
    print("\n".join(arena.table_lines(out)), flush=True)
    found = {level: arena_figures(out, spec) for level, spec in zip(levels, specs)}
    command = "meeplezoo levels " + shlex.join(argv)
    if args.json:
        Path(args.json).write_text(json.dumps({**out, "command": command}, indent=2) + "\n")
    if args.record:
        record(card_path, players, found, args.seed, command, commit, under="arena")
        print(f"recorded in {card_path}")
    return 0


def tune(args: argparse.Namespace, argv: list[str], card_path: Path) -> int:
    """``--tune``: the card's tuning written (``level_tuning.write_tuning``); no games."""
    measured = [flag for flag, given in (("--arena", args.arena), ("--record", args.record),
                                         ("--json", args.json)) if given]
    if measured:
        raise ConfigError(f"--tune plays no games, so {' and '.join(measured)} has nothing "
                          "to measure; tune first, then measure with meeplezoo levels ... "
                          "--record")
    changes = parse_tuning(args.tune, LEVELS)
    for line in write_tuning(card_path, changes, LEVELS, "meeplezoo levels " + shlex.join(argv),
                             code_commit()):
        print(line)
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(prog="meeplezoo levels", description=__doc__.split(
        "\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--checkpoint", required=True,
                        help="a checkpoint or team (folder or zoo name)")
    parser.add_argument("--players", type=int, default=None,
                        help="player count (default: the card's first)")
    parser.add_argument("--levels", default="hard,expert",
                        help="comma-separated, of " + ", ".join(
                            k for k in LEVELS if k != "medium") + " (medium is the plain "
                        "network: the measure)")
    add_agents_argument(parser, "--field", default=["heuristic"],
                        what="the opponents the other seats are drawn from (default "
                             "heuristic)")
    parser.add_argument("--games", type=int, default=400, help="paired deals a level")
    parser.add_argument("--cost-games", type=int, default=4,
                        help="games timed on this one process a level")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=default_workers(),
                        help=f"worker processes for the strength games (default "
                             f"{default_workers()}; the cost games are timed in this one "
                             "process whatever it says)")
    parser.add_argument("--arena", action="store_true",
                        help="rate the levels instead in a seat-rotated round robin with "
                        "the shipped networks and the bots (meeplezoo arena; --games games "
                        "in all): with --record, each level's Elo and its table join the "
                        "figures already recorded for it")
    parser.add_argument("--record", action="store_true",
                        help="write the figures into the checkpoint's card")
    parser.add_argument("--json", default=None, help="also write the figures here")
    parser.add_argument("--tune", nargs="+", default=None, metavar="LEVEL.SETTING=VALUE",
                        help="play no games: write the card's own tuning of a search level "
                        "(its level_overrides), e.g. hard.c_scale=1.0, or "
                        "hard.c_scale=default to remove one, as a step of its reproduce "
                        "list; measure the tuned level after with --record")
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    folder = checkpoint_folder(args.checkpoint)
    card_path, env_name, counts = card_of(folder)
    if args.tune is not None:
        return tune(args, argv, card_path)
    players = args.players or counts[0]
    if players not in counts:
        raise ConfigError(f"--players {players}: {args.checkpoint} plays {counts}")
    levels = [name.strip() for name in args.levels.split(",") if name.strip()]
    unknown = [name for name in levels if name not in LEVELS or name == "medium"]
    if unknown or not levels:
        raise ConfigError(f"--levels {args.levels!r}: choose from "
                          f"{', '.join(k for k in LEVELS if k != 'medium')} (medium is the "
                          "plain network, the measure)")
    if args.games < 2 or args.cost_games < 1 or args.workers < 1:
        raise ConfigError("--games must be at least 2, --cost-games and --workers at least 1")
    field = [] if players == 1 else args.field
    if players > 1 and not field:
        raise ConfigError("--field: name at least one opponent (e.g. heuristic)")
    if args.arena:
        return run_arena_levels(args, argv, card_path, env_name, players, levels)
    base = str(args.checkpoint)
    commit = code_commit()  # now: the code may change while the games run
    found = {}
    for level in levels:
        found[level] = level_figures(env_name, players, base, level, field, args.games,
                                     args.cost_games, args.seed, args.workers,
                                     not args.no_progress)
        print("\n".join(lines(level, players, found[level])), flush=True)
    command = "meeplezoo levels " + shlex.join(argv)
    if args.json:
        Path(args.json).write_text(json.dumps({"players": players, "levels": found,
                                               "seed": args.seed, "command": command},
                                              indent=2) + "\n")
    if args.record:
        record(card_path, players, found, args.seed, command, commit)
        print(f"recorded in {card_path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(run_command(main))
