"""Simulations per second of a search with a value leaf, with and without leaf batching.

    python -m meeplezoo.training.evaluation.search_bench [--env NAME] [--batches 1,8]
        [--level expert] [--simulations N] [--root puct] [--positions 6] [--rounds 2]
        [--json FILE]

For each game's shipped network (``GAMES``; ``--env`` picks some), the information-set
search of a search level (``bots.LEVELS``, @expert by default: its simulations, root and
root settings; ``--simulations`` and ``--root`` override two of them) with the network's
prior and the network moving every seat inside the simulations, its moves remembered by
what the seat sees (``remembered``; ``--forget`` asks each anew), as ``bots.level_bot``
builds it, is timed on the same positions at each ``--batches`` value of ``leaf_batch``,
in process seconds (one core; onnxruntime runs on one thread).

The leaf is the network's own value where its card has one for the player count (what the
level's search reads, ``bots.search_leaves``: ``value.onnx``, with the seat's scoreboard
where it reads one), counted by ``CountedValue``.  A network without one gets a
**stand-in** (``StandInValue``) that makes the network call a real value would (the
policy's logits on the leaf's observation: one call per leaf, or one per batch and role
with ``.batch``) and answers 0.5: the cost is a real value's; the tree is not a real
value's search (every leaf ties), which changes where descents go, not what one costs.
Each row names its ``leaf``.

Positions: one game of the network against itself (greedy, every seat), ``--positions``
decisions with a choice taken evenly over it.  Each position is searched once per batch
size per round, the order of the batch sizes turning with the position, so a change in
the machine's load falls on every batch size alike.  The figure is all the simulations of
a batch size over all its seconds.  Beside it, the leaves valued a second: batched, two
descents that reach one new node in a batch share its evaluation (``ISMCTS``), so a batched
search values fewer leaves for its simulations, and simulations a second alone would
overstate what batching buys; ``leaves/sim`` says how many.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from meeplezoo import envs
from meeplezoo.envs.core.command import run_command
from meeplezoo.envs.core.errors import ConfigError
from meeplezoo.envs.core.game import Game, GameState
from meeplezoo.training.agents.bots import LEVELS, search_leaves
from meeplezoo.training.agents.ismcts import ISMCTS, NetworkPrior
from meeplezoo.training.agents.opponents import load, network_bot
from meeplezoo.training.agents.remembered import remembered
from meeplezoo.training.agents.zoo import tuned_level

# env, players, the shipped network (a checkpoint or a team)
GAMES: list[tuple[str, int, str]] = [
    ("chihou_sousei_v1", 4, "chihou_sousei_v1/ppo_league"),
    ("asian_delivery_v1", 4, "asian_delivery_v1/ppo_league"),
    ("necropolis_railway_v1", 2, "necropolis_railway_v1/ppo_league"),
    ("hegemony_v1", 4, "hegemony_v1/ppo_classes"),
]


class StandInValue:
    """A leaf value for a network without one: it runs the policy's forward pass on the
    leaf (the network call a value head's would be, on the same network) and answers 0.5,
    so a search's cost is measured as with a real value.  Batched as ``NetworkValue`` is:
    one call per role with ``.batch``."""

    def __init__(self, agents: Any) -> None:
        self.network = NetworkPrior(agents)
        self.leaves = 0  # states valued: the leaves the search expanded
        self.calls = 0

    def __call__(self, state: GameState, seat: int) -> float:
        self.network(state, seat)
        self.leaves += 1
        self.calls += 1
        return 0.5

    def batch(self, states: Sequence[GameState], seats: Sequence[int]) -> list[float]:
        self.network.batch(states, seats)
        self.leaves += len(states)
        self.calls += 1
        return [0.5] * len(states)


class CountedValue:
    """The network's own leaf value (``ismcts.NetworkValue``), counting the leaves it values
    and its calls as ``StandInValue`` does."""

    def __init__(self, value: Any) -> None:
        self.value = value
        self.leaves = 0
        self.calls = 0

    def __call__(self, state: GameState, seat: int) -> float:
        self.leaves += 1
        self.calls += 1
        return self.value(state, seat)

    def batch(self, states: Sequence[GameState], seats: Sequence[int]) -> list[float]:
        self.leaves += len(states)
        self.calls += 1
        return self.value.batch(states, seats)


def leaf_value(agent: Any, game: Game) -> tuple[Any, str]:
    """The network's own value where its level reads one (``bots.search_leaves``), else the
    stand-in; and which, in words."""
    value, _depth = search_leaves(agent, game)
    if value is not None:
        return CountedValue(value), "value"
    return StandInValue(agent), "stand-in"


def positions(game: Game, network: str, count: int, seed: int) -> list[GameState]:
    """``count`` decisions with a choice, evenly over one game of the network greedy in
    every seat."""
    bots = [network_bot(network, game, seat=s) for s in range(game.num_players)]
    state = game.new_initial_state(seed)
    found: list[GameState] = []
    for _ in range(game.max_decisions):
        if state.is_terminal():
            break
        if int(state.legal_mask().sum()) > 1:
            found.append(state.clone())
        state.apply(int(bots[state.current_player()].act(state)))
    if len(found) < count:
        raise ConfigError(f"{game.name}: {len(found)} decisions with a choice in the game, "
                          f"fewer than --positions {count}")
    picks = np.linspace(0, len(found) - 1, count).round().astype(int)
    return [found[i] for i in picks]


def make_search(game: Game, agent: Any, settings: dict[str, Any], leaf_batch: int,
                greedy: Any) -> ISMCTS:
    """The search of a search level (``settings``: a ``LEVELS`` entry) with a value leaf
    (``bots.level_bot``'s shape: ``greedy``, the network, moves every seat in the
    simulations; ``measure`` hands it remembered or not) at ``leaf_batch``."""

    def movers(seat: int, seed: int) -> Any:
        return greedy

    root = {k: settings[k] for k in ("considered", "c_scale", "normalise_q", "gumbel_scale",
                                     "min_evidence") if k in settings}
    return ISMCTS(game, prior=agent, value=leaf_value(agent, game)[0], opponents=movers,
                  simulations=settings["simulations"], root=settings["root"], seed=0,
                  leaf_batch=leaf_batch, **root)


def measure(env_name: str, players: int, network: str, batches: list[int], simulations: int,
            root: str, count: int, rounds: int, seed: int, level: str = "expert",
            remember: bool = True) -> dict[str, Any]:
    """Simulations per second at each batch size (module docstring)."""
    game = envs.make_game(env_name, num_players=players)
    agent = load(network)
    settings = {**tuned_level(LEVELS, level, getattr(agent, "card", None)),
                "simulations": simulations, "root": root}
    models = {k: network_bot(network, game) for k in batches}
    if remember:
        models = {k: remembered(bot) for k, bot in models.items()}
    searches = {k: make_search(game, agent, settings, k, models[k]) for k in batches}
    states = positions(game, network, count, seed)
    for k in batches:  # warm up: the first network calls of a session cost more
        searches[k].search(states[0])
        searches[k].value.leaves = searches[k].value.calls = 0
    seconds = dict.fromkeys(batches, 0.0)
    done = dict.fromkeys(batches, 0)
    for number in range(rounds):
        # each round starts with an empty memory, as a game does: a round's searches of
        # positions met before would recall every answer, which no game gives
        for model in models.values():
            if remember:
                model.answers.clear()
        for index, state in enumerate(states):
            turn = (index + number) % len(batches)
            for k in batches[turn:] + batches[:turn]:
                start = time.process_time()
                result = searches[k].search(state)
                seconds[k] += time.process_time() - start
                done[k] += result.simulations
    rates = {k: done[k] / seconds[k] for k in batches}
    leaves = {k: searches[k].value.leaves for k in batches}
    return {"env": env_name, "players": players, "network": network,
            "positions": count, "rounds": rounds, "level": level,
            "leaf": leaf_value(agent, game)[1], "remembered_moves": remember,
            "simulations": simulations, "root": root,
            "simulations_per_s": {str(k): round(rates[k], 1) for k in batches},
            "speedup": {str(k): round(rates[k] / rates[batches[0]], 2) for k in batches},
            "leaves_per_s": {str(k): round(leaves[k] / seconds[k], 1) for k in batches},
            "leaves_per_simulation": {str(k): round(leaves[k] / done[k], 2) for k in batches},
            "value_calls": {str(k): searches[k].value.calls for k in batches},
            "simulations_run": {str(k): done[k] for k in batches},
            "seconds": {str(k): round(seconds[k], 2) for k in batches}}


def line(row: dict[str, Any], batches: list[int]) -> str:
    rates = "  ".join(f"{row['simulations_per_s'][str(k)]:>9,.1f}" for k in batches)
    ratio = "  ".join(f"{row['speedup'][str(k)]:>5.2f}x" for k in batches[1:])
    leaves = "  ".join(f"{row['leaves_per_s'][str(k)]:>9,.1f}" for k in batches)
    share = "  ".join(f"{row['leaves_per_simulation'][str(k)]:>5.2f}" for k in batches)
    return (f"{row['env']:<22} {row['players']:>2}p  {rates}  {ratio}  {leaves}  {share}  "
            f"{row['leaf']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--env", action="append", default=None,
                        help="a game of GAMES (repeat for several; default: all)")
    parser.add_argument("--batches", default="1,8", help="leaf_batch values, the first the "
                        "baseline of the speed-up (default 1,8)")
    parser.add_argument("--level", choices=[k for k, v in LEVELS.items()
                                            if v["play"] == "search"], default="expert",
                        help="the search level whose settings are timed (default expert)")
    parser.add_argument("--simulations", type=int, default=None,
                        help="simulations a search (default: the level's)")
    parser.add_argument("--root", choices=("gumbel", "puct"), default=None,
                        help="the root (default: the level's)")
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--forget", action="store_true",
                        help="ask the network every opponent move anew instead of "
                             "remembering its answers (the levels' search before 2026-12-04)")
    parser.add_argument("--json", default=None, help="write the figures here too")
    args = parser.parse_args(argv)
    try:
        batches = [int(k) for k in args.batches.split(",")]
    except ValueError:
        raise ConfigError(f"--batches {args.batches!r}: integers with commas, e.g. 1,8"
                          ) from None
    if not batches or min(batches) < 1 or args.positions < 1 or args.rounds < 1:
        raise ConfigError("--batches must be 1 or more each, --positions and --rounds at "
                          "least 1")
    names = {name for name, _, _ in GAMES}
    unknown = sorted(set(args.env or []) - names)
    if unknown:
        raise ConfigError(f"--env {', '.join(unknown)}: the benchmark's games are "
                          f"{', '.join(sorted(names))}")
    chosen = [g for g in GAMES if not args.env or g[0] in args.env]
    simulations = args.simulations or LEVELS[args.level]["simulations"]
    root = args.root or LEVELS[args.level]["root"]
    if simulations < 1:
        raise ConfigError("--simulations must be at least 1")
    head = "  ".join(f"{'k=' + str(k):>9}" for k in batches)
    ratios = "  ".join(f"{'k=' + str(k):>6}" for k in batches[1:])
    shares = "  ".join(f"{'k=' + str(k):>5}" for k in batches)
    print(f"@{args.level}'s search, {root} root, {simulations} simulations a search, "
          f"{args.positions} positions x {args.rounds} rounds, opponents' moves "
          f"{'asked anew' if args.forget else 'remembered'}; simulations/s, speed-up, "
          "leaves/s, leaves/sim, the leaf (the network's value, or a stand-in)")
    print(f"{'env':<22} {'':>3}  {head}  {ratios}  {head}  {shares}  leaf")
    rows = []
    for env_name, players, network in chosen:
        row = measure(env_name, players, network, batches, simulations, root,
                      args.positions, args.rounds, args.seed, args.level, not args.forget)
        rows.append(row)
        print(line(row, batches), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(run_command(main))
