"""Benchmark: decisions per second of random legal play through the AEC API.

    meeplezoo bench [--env NAME] [--players N] [--seconds S] [--slice S] \
        [--json FILE]

Every env and player count (or the ones asked for) is driven exactly as an
agent would drive it: ``last()`` reads the observation and the action mask at
every step, a legal action is drawn from the mask, ``step()`` plays it.
PettingZoo's ``connect_four_v3`` is driven by the same loop as the yardstick.

The yardstick and each row are measured interleaved, in short slices of process
time (the order flips every pair), until each has ``--seconds`` of it: a change
in the machine's load then hits both sides alike.  A row's ratio is the median
of its per-pair ratios (``x c4``); the pooled ratio (all its decisions over all
its time, against the yardstick's slices beside it) is shown too.  ``clone µs``
is the median time of ``clone()`` on a mid-game state, and ``bot dec/s`` the decisions per
second of the game's heuristic bot in every seat (``--bot-seconds`` of process time).
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from meeplezoo import envs
from meeplezoo.envs.core.command import run_command
from meeplezoo.envs.core.progress import Progress

CHECK_EVERY = 16  # decisions between clock reads: a read costs about 1% of a decision
WARM_UP_SECONDS = 0.2


class RandomPlay:
    """Random legal play on one env that can stop and resume mid-game, counting as it goes."""

    def __init__(self, env: Any, seed: int) -> None:
        self.env = env
        self.rng = np.random.default_rng(seed)
        self._agents: Any = None  # the running game's agent iterator
        self.decisions = 0
        self.games = 0
        self.decisions_in_games = 0  # decisions of the finished games
        self.seconds = 0.0

    def run(self, seconds: float, max_decisions: int | None = None) -> tuple[int, float]:
        """Play for ``seconds`` of process time (or ``max_decisions``); (decisions, seconds)."""
        env, rng = self.env, self.rng
        limit = math.inf if max_decisions is None else max_decisions
        done = 0
        start = time.process_time()
        deadline = start + seconds
        while done < limit:
            if self._agents is None:
                env.reset(seed=int(rng.integers(2**31)))
                self._agents = iter(env.agent_iter())
            for _agent in self._agents:
                obs, _reward, term, trunc, _info = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[rng.integers(legal.size)]))
                done += 1
                if done >= limit or (
                    done % CHECK_EVERY == 0 and time.process_time() >= deadline
                ):
                    break
            else:
                self._agents = None
                self.games += 1
                self.decisions_in_games = self.decisions + done
                if time.process_time() >= deadline:
                    break
                continue
            break
        elapsed = time.process_time() - start
        self.decisions += done
        self.seconds += elapsed
        return done, elapsed


def measure_pair(
    make_reference: Callable[[], Any],
    make_env: Callable[[], Any],
    seconds: float,
    slice_seconds: float,
    seed: int = 0,
) -> tuple[RandomPlay, RandomPlay, list[float]]:
    """Reference and env played in alternating slices; both players and per-pair ratios."""
    for make in (make_reference, make_env):  # imports, caches and memos, untimed
        RandomPlay(make(), seed + 1).run(WARM_UP_SECONDS)
    reference = RandomPlay(make_reference(), seed)
    player = RandomPlay(make_env(), seed)
    slice_seconds = min(slice_seconds, seconds)
    ratios: list[float] = []
    while min(reference.seconds, player.seconds) < seconds or 0 in (reference.games, player.games):
        first, second = (reference, player) if len(ratios) % 2 == 0 else (player, reference)
        rates = {}
        for side in (first, second):
            done, elapsed = side.run(slice_seconds)
            rates[id(side)] = done / elapsed
        ratios.append(rates[id(player)] / rates[id(reference)])
    return reference, player, ratios


def mid_game_clone_us(make_env: Callable[[], Any], decisions: int, seed: int = 7) -> float | None:
    """Median µs of ``clone()`` after ``decisions`` random decisions (None: no clone)."""
    play = RandomPlay(make_env(), seed)
    play.run(math.inf, max_decisions=max(decisions, 1))
    state = getattr(play.env.unwrapped, "state", None)
    while state is not None and hasattr(state, "is_terminal") and state.is_terminal():
        play.run(math.inf, max_decisions=1)  # landed on a game's end: one more into the next
        state = play.env.unwrapped.state
    if not callable(getattr(state, "clone", None)):
        return None
    batch, samples = 20, 15
    times = []
    for _ in range(samples):
        start = time.process_time()
        for _ in range(batch):
            state.clone()
        times.append((time.process_time() - start) / batch)
    return statistics.median(times) * 1e6


def rates(plays: list[RandomPlay]) -> dict[str, float]:
    """The players' totals, summed, as rates."""
    decisions = sum(p.decisions for p in plays)
    games = sum(p.games for p in plays)
    seconds = sum(p.seconds for p in plays)
    return {
        "decisions_per_s": decisions / seconds,
        "games_per_s": games / seconds,
        "decisions_per_game": sum(p.decisions_in_games for p in plays) / games,
        "games": games,
        "seconds": seconds,
    }


def bot_decisions_per_s(name: str, players: int, seconds: float, seed: int = 11) -> float | None:
    """Decisions per second of the game's heuristic bot in every seat, over whole games,
    for ``seconds`` of process time (None: the game has no bot).  Each game is seeded from
    ``seed`` and its number, so two runs time the same decisions."""
    game = envs.make_game(name, num_players=players)
    try:
        game.heuristic_bot(seed)
    except NotImplementedError:
        return None
    decisions, spent, g = 0, 0.0, 0
    while spent < seconds:
        state = game.new_initial_state(seed + g)
        bots = [game.heuristic_bot(seed + 100 * g + s) for s in range(players)]
        start = time.process_time()
        while not state.is_terminal() and spent + time.process_time() - start < seconds:
            state.apply(bots[state.current_player()].act(state))
            decisions += 1
        spent += time.process_time() - start
        g += 1
    return decisions / spent if spent else None


def yardstick() -> Any:
    from pettingzoo.classic import connect_four_v3

    return connect_four_v3.env()


def bench_row(
    name: str, players: int, seconds: float, slice_seconds: float, bot_seconds: float = 0.0
) -> tuple[dict[str, Any], RandomPlay]:
    """One env row, measured against its own interleaved yardstick slices."""
    reference, play, ratios = measure_pair(
        yardstick, lambda: envs.make(name, num_players=players), seconds, slice_seconds
    )
    row = {"env": name, "players": players, **rates([play])}
    row["reference_decisions_per_s"] = reference.decisions / reference.seconds
    row["ratio_to_connect_four"] = statistics.median(ratios)
    row["ratio_pooled"] = row["decisions_per_s"] / row["reference_decisions_per_s"]
    row["ratio_pairs"] = len(ratios)
    row["ratio_min"], row["ratio_max"] = min(ratios), max(ratios)
    row["clone_us"] = mid_game_clone_us(
        lambda: envs.make(name, num_players=players), int(row["decisions_per_game"]) // 2
    )
    if bot_seconds > 0:
        row["bot_decisions_per_s"] = bot_decisions_per_s(name, players, bot_seconds)
    return row, reference


def print_table(rows: list[dict[str, Any]]) -> None:
    header = (
        f"{'env':28} {'players':>7} {'decisions/s':>12} {'games/s':>9} {'dec/game':>9} "
        f"{'x c4':>6} {'pooled':>7} {'pairs':>5} {'clone µs':>9} {'bot dec/s':>10}"
    )
    print(header)
    print("-" * len(header))
    for row in rows:
        ratio = row.get("ratio_to_connect_four")
        pooled = row.get("ratio_pooled")
        clone = row.get("clone_us")
        bot = row.get("bot_decisions_per_s")
        print(
            f"{row['env']:28} {row['players']:>7} {row['decisions_per_s']:>12,.0f} "
            f"{row['games_per_s']:>9.1f} {row['decisions_per_game']:>9.1f} "
            f"{'' if ratio is None else f'{ratio:.2f}':>6} "
            f"{'' if pooled is None else f'{pooled:.2f}':>7} "
            f"{row.get('ratio_pairs', ''):>5} "
            f"{'' if clone is None else f'{clone:.1f}':>9} "
            f"{'' if bot is None else f'{bot:,.0f}':>10}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", choices=envs.list_envs(), help="one env (default: all)")
    parser.add_argument("--players", type=int, help="one player count (default: all)")
    parser.add_argument("--seconds", type=float, default=3.0, help="process time per side")
    parser.add_argument("--slice", type=float, default=0.25, help="process time per slice")
    parser.add_argument("--bot-seconds", type=float, default=2.0,
                        help="process time of the heuristic-bot column per row (0: none)")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    args = parser.parse_args(argv)
    if args.bot_seconds < 0:
        parser.error("--bot-seconds must be 0 or more")
    if args.seconds <= 0 or args.slice <= 0:
        parser.error("--seconds and --slice must be positive")

    names = [args.env] if args.env else envs.list_envs()
    rows: list[dict[str, Any]] = []
    references: list[RandomPlay] = []
    cases = []
    for name in names:
        game_cls = envs.game_class(name)
        counts = range(game_cls.min_players, game_cls.max_players + 1)
        if args.players is not None:
            if args.players not in counts:
                parser.error(f"{name} takes {counts.start} to {counts.stop - 1} players")
            counts = [args.players]
        cases += [(name, n) for n in counts]
    with Progress(len(cases), "bench", unit="row") as progress:
        for name, n in cases:
            row, reference = bench_row(name, n, args.seconds, args.slice, args.bot_seconds)
            rows.append(row)
            references.append(reference)
            progress.update()
    # the yardstick row: every yardstick slice of the run
    rows.insert(0, {"env": "connect_four_v3 (yardstick)", "players": 2, **rates(references)})

    print_table(rows)
    if args.json:
        meta = {
            "python": platform.python_version(),
            "machine": platform.machine(),
            "clock": "process_time",
            "seconds_per_side": args.seconds,
            "slice_seconds": args.slice,
        }
        with open(args.json, "w") as fh:
            json.dump({"meta": meta, "rows": rows}, fh, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(run_command(main))
