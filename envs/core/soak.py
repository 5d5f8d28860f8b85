"""Many seeded random games of one env, with the invariants checked after every step.

    meeplezoo soak --env hegemony_v1 --games 10000 --workers 2

Each game ``g`` is seeded from ``--seed`` and ``g`` alone, so the result does not depend
on the worker count, and a failing game is replayed by its seed.  Prints the games
played, decisions (mean, max), truncations (a game that reaches the env's decision cap)
and every crash with its seed; exits 1 if any game crashed or was truncated.
"""

from __future__ import annotations

import argparse
import time
import traceback
from typing import Any

import numpy as np

from meeplezoo import envs
from meeplezoo.envs.core.command import run_command
from meeplezoo.envs.core.game import parse_options
from meeplezoo.envs.core.progress import Progress
from meeplezoo.envs.core.workers import default_workers, process_pool

CHUNK_GAMES = 25  # games per worker task at most (beyond the 8 tasks per worker)


def play_one(name: str, config: dict[str, Any], seed: int) -> tuple[int, int, str]:
    """(seed, decisions, error or "" / "truncated") of one random game."""
    game = envs.make_game(name, **config)
    rng = np.random.default_rng([seed, 1])
    state = game.new_initial_state(seed)
    steps = 0
    try:
        state.check_invariants()
        while not state.is_terminal():
            if steps >= game.max_decisions:
                return seed, steps, "truncated"
            legal = np.flatnonzero(state.legal_mask())
            if legal.size == 0:
                return seed, steps, f"no legal action at decision '{state.decision_name()}'"
            state.apply(int(legal[rng.integers(legal.size)]))
            state.check_invariants()
            steps += 1
    except Exception:
        return seed, steps, traceback.format_exc(limit=4)
    return seed, steps, ""


def _batch(args: tuple[str, dict[str, Any], list[int]]) -> list[tuple[int, int, str]]:
    name, config, seeds = args
    return [play_one(name, config, seed) for seed in seeds]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", required=True, choices=envs.list_envs())
    parser.add_argument("--players", type=int)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0, help="game g uses seed SEED + g")
    parser.add_argument("--workers", type=int, default=default_workers(),
                        help=f"worker processes (default {default_workers()})")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args(argv)
    config = parse_options(args.option)
    if args.players is not None:
        config["num_players"] = args.players
    seeds = [args.seed + g for g in range(args.games)]
    # chunks of about CHUNK_GAMES games: the progress moves, and no result depends on them
    n_chunks = max(max(1, args.workers) * 8, -(-len(seeds) // CHUNK_GAMES))
    chunks = [(args.env, config, seeds[k::n_chunks]) for k in range(n_chunks)]
    start = time.perf_counter()
    results: list[tuple[int, int, str]] = []
    with Progress(len(seeds), f"soak {args.env}") as progress:
        if args.workers <= 1:
            for _, _, part in chunks:
                for seed in part:
                    results.append(play_one(args.env, config, seed))
                    progress.update()
        else:
            with process_pool(args.workers) as pool:
                for part in pool.map(_batch, chunks):
                    results += part
                    progress.update(len(part))
    elapsed = time.perf_counter() - start
    steps = np.array([r[1] for r in results])
    crashes = [r for r in results if r[2] and r[2] != "truncated"]
    truncated = [r for r in results if r[2] == "truncated"]
    print(f"{args.env} {config or ''}: {len(results)} games in {elapsed:.0f} s, decisions "
          f"mean {steps.mean():.0f} max {steps.max()}, truncated {len(truncated)}, "
          f"crashed {len(crashes)}")
    for seed, step, error in sorted(crashes)[:10]:
        print(f"--- seed {seed}, decision {step}:\n{error}")
    return 1 if crashes or truncated else 0


if __name__ == "__main__":
    raise SystemExit(run_command(main))
