"""Benchmark: decisions per second of random legal play through the AEC API.

    python -m envs.bench [--env NAME] [--players N] [--seconds S] [--json FILE]

Every env and player count (or the ones asked for) is driven exactly as an
agent would drive it: ``last()`` reads the observation and the action mask at
every step, a legal action is drawn from the mask, ``step()`` plays it.  In the
same run PettingZoo's ``connect_four_v3`` is driven by the same loop, as the
yardstick, and each row reports its ratio to it.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import envs


def measure(make_env: Callable[[], Any], seconds: float, seed: int = 0) -> dict[str, float]:
    """Play random legal games for about ``seconds``; count decisions and games."""
    env = make_env()
    rng = np.random.default_rng(seed)
    decisions = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        env.reset(seed=int(rng.integers(2**31)))
        for _agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(legal.size)]))
            decisions += 1
        games += 1
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    return {
        "decisions_per_s": decisions / elapsed,
        "games_per_s": games / elapsed,
        "decisions_per_game": decisions / games,
        "games": games,
        "seconds": elapsed,
    }


def yardstick(seconds: float) -> dict[str, float]:
    from pettingzoo.classic import connect_four_v3

    return measure(connect_four_v3.env, seconds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", choices=envs.list_envs(), help="one env (default: all)")
    parser.add_argument("--players", type=int, help="one player count (default: all)")
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    args = parser.parse_args(argv)

    names = [args.env] if args.env else envs.list_envs()
    rows: list[dict[str, Any]] = []
    base = yardstick(args.seconds)
    rows.append({"env": "connect_four_v3 (yardstick)", "players": 2, **base})
    for name in names:
        game_cls = envs.game_class(name)
        counts = range(game_cls.min_players, game_cls.max_players + 1)
        if args.players is not None:
            if args.players not in counts:
                parser.error(f"{name} takes {counts.start} to {counts.stop - 1} players")
            counts = [args.players]
        for n in counts:
            result = measure(lambda n=n, name=name: envs.make(name, num_players=n), args.seconds)
            rows.append({"env": name, "players": n, **result})
    for row in rows:
        row["ratio_to_connect_four"] = row["decisions_per_s"] / base["decisions_per_s"]

    header = (
        f"{'env':32} {'players':>7} {'decisions/s':>12} {'games/s':>9} {'dec/game':>9} {'x c4':>6}"
    )
    print(header)
    print("-" * len(header))
    for row in rows:
        print(
            f"{row['env']:32} {row['players']:>7} {row['decisions_per_s']:>12,.0f} "
            f"{row['games_per_s']:>9.1f} {row['decisions_per_game']:>9.1f} "
            f"{row['ratio_to_connect_four']:>6.2f}"
        )
    if args.json:
        meta = {
            "python": platform.python_version(),
            "machine": platform.machine(),
            "seconds_per_measurement": args.seconds,
        }
        with open(args.json, "w") as fh:
            json.dump({"meta": meta, "rows": rows}, fh, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
