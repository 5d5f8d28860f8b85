"""The bot report: how the class heuristics fare against random play and against each other.

    meeplezoo hegemony-report --games 1000 --workers 2 --seed S [--option K=V ...]
                                   [--json FILE]

Plays (a) each class's bot against three random classes and (b) the 4-bot table, and
prints markdown tables: per class the win rate with a 95% Wilson interval, the mean VP
and the mean VP by source (``state.VP_SOURCES``).  Game ``g`` of every match-up deals
the same set-up from ``(S, g)`` and seeds its bots from ``(S, g, match-up, seat)``, so
the result does not depend on the worker count (or on how games are split).  A win is
a rank key equal to the best (``state.rank_keys()``): shared wins count for everyone.

The seeds, the play loop and the per-class rows are ``envs.core.balance``'s, which
``meeplezoo balance`` shares: there, any agents per class (trained policies,
teams)
play these same deals, and ``--preset bots --preset bot:all+random`` replays these match-ups
with the bills and policies columns of ``envs.hegemony.balance_stats`` added.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from meeplezoo import envs
from meeplezoo.envs.core import balance
from meeplezoo.envs.core.balance import deal_seed as game_seed
from meeplezoo.envs.core.balance import seat_seed as bot_seed
from meeplezoo.envs.core.command import run_command
from meeplezoo.envs.core.game import parse_options
from meeplezoo.envs.core.progress import Progress
from meeplezoo.envs.core.stats import wilson
from meeplezoo.envs.hegemony import balance_stats
from meeplezoo.envs.hegemony.balance_stats import CLASSES

ENV = "hegemony_v1"
TABLE = 4  # the match-up index of the 4-bot table; 0..3 are "class k's bot vs 3 random"
MATCHUPS = (0, 1, 2, 3, TABLE)
__all__ = ["CLASSES", "bot_seed", "game_seed", "markdown", "run_games", "summarise", "wilson"]


def matchup_name(matchup: int) -> str:
    return "4 bots" if matchup == TABLE else f"{CLASSES[matchup]} bot vs 3 random"


def matchup_specs(matchup: int) -> list[str]:
    """The seats' agents: the bot where ``matchup`` is the seat or the table, else random
    (so the lineup's seed group, ``envs.core.balance.seed_group``, is ``matchup``)."""
    return [balance.HEURISTIC if matchup in (seat, TABLE) else balance.RANDOM
            for seat in range(4)]


def play_one(config: dict[str, Any], seed: int, g: int, matchup: int) -> dict[str, Any]:
    """One game of a match-up: every seat's VP, whether it won, and the stats hook's record
    (VP by source, bills, policies at the end)."""
    game = envs.make_game(ENV, **config)
    record = balance.play_lineup(game, matchup_specs(matchup), seed, g,
                                 lambda spec, _seat, s: balance.basic_bot(game, spec, s),
                                 balance_stats)
    assert record["seed_group"] == matchup
    return {"matchup": matchup, **record}


def _batch(args: tuple[tuple[dict[str, Any], int], list[tuple[int, int]]]
           ) -> list[dict[str, Any]]:
    (config, seed), jobs = args
    return [play_one(config, seed, g, m) for g, m in jobs]


def run_games(config: dict[str, Any], seed: int, games: int, workers: int,
              matchups: tuple[int, ...] = MATCHUPS,
              progress: Progress | None = None) -> list[dict[str, Any]]:
    """Every (game, match-up) result, sorted by match-up then game; ``progress`` counts the
    games as their chunks end (the split changes no result: every game is seeded alone)."""
    jobs = [(g, m) for m in matchups for g in range(games)]
    counted = (lambda part: progress.update(len(part))) if progress is not None else None
    results = balance.run_batches(_batch, (config, seed), jobs, workers, counted)
    return sorted(results, key=lambda r: (r["matchup"], r["g"]))


def summarise(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Per match-up, per class: ``envs.core.balance.seat_row`` (with VP by source as its
    breakdown); the solo match-ups' tables keep only the bot's class (its random rivals'
    numbers are in the JSON for reference)."""
    out: dict[str, Any] = {}
    for m in sorted({r["matchup"] for r in results}):
        games = [r for r in results if r["matchup"] == m]
        out[matchup_name(m)] = {CLASSES[c]: balance.seat_row(games, c, balance_stats)
                                for c in range(4)}
    return out


def _table(title: str, rows: list[tuple[str, dict[str, Any]]]) -> list[str]:
    return balance.seat_table(title, rows, balance_stats.SCORE_LABEL)


def markdown(summary: dict[str, Any]) -> str:
    """(a) one row per class, its bot against three random classes; (b) the 4-bot table."""
    lines: list[str] = []
    solo = [(cls, summary[matchup_name(c)][cls]) for c, cls in enumerate(CLASSES)
            if matchup_name(c) in summary]
    if solo:
        lines += _table("Each class's bot against three random classes", solo)
    if matchup_name(TABLE) in summary:
        table = summary[matchup_name(TABLE)]
        lines += _table("4-bot table (all four classes played by the bot)",
                        [(cls, table[cls]) for cls in CLASSES])
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games per match-up")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--matchups", default="WC,MC,CC,ST,table",
                        help="which match-ups to play (class names and/or 'table')")
    parser.add_argument("--json", metavar="FILE", help="also write summary and games as JSON")
    args = parser.parse_args(argv)
    config = parse_options(args.option)
    wanted = [w.strip() for w in args.matchups.split(",") if w.strip()]
    index = {**{name: k for k, name in enumerate(CLASSES)}, "table": TABLE}
    unknown = [w for w in wanted if w not in index]
    if unknown:
        parser.error(f"unknown match-ups {unknown}; choose from {sorted(index)}")
    matchups = tuple(sorted({index[w] for w in wanted}))
    start = time.perf_counter()
    results: list[dict[str, Any]] = []
    with Progress(args.games * len(matchups), "hegemony-report") as progress:
        for m in matchups:  # one at a time, each printed as it ends
            part = run_games(config, args.seed, args.games, args.workers, (m,), progress)
            results += part
            print(f"<!-- {matchup_name(m)}: {len(part)} games done after "
                  f"{time.perf_counter() - start:.0f} s -->\n{markdown(summarise(part))}",
                  flush=True)
    elapsed = time.perf_counter() - start
    summary = summarise(results)
    print(f"## Hegemony bot report: {args.games} games per match-up, seed {args.seed}, "
          f"options {config or 'default'} ({elapsed:.0f} s)\n")
    print(markdown(summary))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"games": args.games, "seed": args.seed, "config": config,
                       "summary": summary, "results": results}, f)
    return 0


if __name__ == "__main__":
    raise SystemExit(run_command(main))
