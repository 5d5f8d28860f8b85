"""The bot report: how the class heuristics fare against random play and against each other.

    python -m envs.hegemony.report --games 1000 --workers 2 --seed S [--option K=V ...]
                                   [--json FILE]

Plays (a) each class's bot against three random classes and (b) the 4-bot table, and
prints markdown tables: per class the win rate with a 95% Wilson interval, the mean VP
and the mean VP by source (``state.VP_SOURCES``).  Game ``g`` of every match-up deals
the same set-up from ``(S, g)`` and seeds its bots from ``(S, g, match-up, seat)``, so
the result does not depend on the worker count (or on how games are split).  A win is
a rank key equal to the best (``state.rank_keys()``): shared wins count for everyone.
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import envs
from envs.core.agents import RandomBot, StateBot, play_game
from envs.core.game import parse_options
from envs.core.stats import wilson
from envs.hegemony.bot import HegemonyBot
from envs.hegemony.state import VP_SOURCES

ENV = "hegemony_v0"
TABLE = 4  # the match-up index of the 4-bot table; 0..3 are "class k's bot vs 3 random"
MATCHUPS = (0, 1, 2, 3, TABLE)
CLASSES = ("WC", "MC", "CC", "ST")  # short class names, seat order (``ROLE_NAMES``)


def matchup_name(matchup: int) -> str:
    return "4 bots" if matchup == TABLE else f"{CLASSES[matchup]} bot vs 3 random"


def game_seed(seed: int, g: int) -> int:
    """The set-up seed of game ``g``: from ``(seed, g)`` alone."""
    return int(np.random.SeedSequence([seed, g]).generate_state(1)[0])


def bot_seed(seed: int, g: int, matchup: int, seat: int) -> int:
    return int(np.random.SeedSequence([seed, g, matchup, seat]).generate_state(1)[0])


def play_one(config: dict[str, Any], seed: int, g: int, matchup: int) -> dict[str, Any]:
    """One game of a match-up: every seat's VP, VP by source and whether it won."""
    game = envs.make_game(ENV, **config)
    bots: list[StateBot] = []
    for seat in range(4):
        s = bot_seed(seed, g, matchup, seat)
        bots.append(HegemonyBot(s) if matchup in (seat, TABLE) else RandomBot(s))
    state = play_game(game.new_initial_state(game_seed(seed, g)), bots)
    keys = state.rank_keys()
    best = max(keys)
    return {"g": g, "matchup": matchup, "wins": [int(k == best) for k in keys],
            "vp": [int(v) for v in state.vp],
            "sources": [[int(v) for v in row] for row in state.vp_sources]}


def _batch(args: tuple[dict[str, Any], int, list[tuple[int, int]]]) -> list[dict[str, Any]]:
    config, seed, jobs = args
    return [play_one(config, seed, g, m) for g, m in jobs]


def run_games(config: dict[str, Any], seed: int, games: int, workers: int,
              matchups: tuple[int, ...] = MATCHUPS) -> list[dict[str, Any]]:
    """Every (game, match-up) result, sorted by match-up then game."""
    jobs = [(g, m) for m in matchups for g in range(games)]
    n_chunks = max(1, workers) * 8
    chunks = [(config, seed, jobs[k::n_chunks]) for k in range(n_chunks)]
    results: list[dict[str, Any]] = []
    if workers <= 1:
        for chunk in chunks:
            results += _batch(chunk)
    else:
        with ProcessPoolExecutor(workers) as pool:
            for part in pool.map(_batch, chunks):
                results += part
    return sorted(results, key=lambda r: (r["matchup"], r["g"]))


@dataclass
class ClassStats:
    """One class's record in one match-up."""

    games: int = 0
    wins: int = 0
    vp: float = 0.0
    sources: list[float] = field(default_factory=lambda: [0.0] * len(VP_SOURCES))

    def add(self, result: dict[str, Any], cls: int) -> None:
        self.games += 1
        self.wins += result["wins"][cls]
        self.vp += result["vp"][cls]
        self.sources = [a + b for a, b in zip(self.sources, result["sources"][cls])]

    def summary(self) -> dict[str, Any]:
        n = max(self.games, 1)
        low, high = wilson(self.wins, self.games)
        return {"games": self.games, "wins": self.wins, "win_rate": self.wins / n,
                "wilson_low": low, "wilson_high": high, "mean_vp": self.vp / n,
                "mean_sources": {name: v / n for name, v in zip(VP_SOURCES, self.sources)}}


def summarise(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Per match-up, per class: ``ClassStats.summary``; the solo match-ups keep only the
    bot's class (its random rivals' numbers are in the JSON for reference)."""
    out: dict[str, Any] = {}
    for m in sorted({r["matchup"] for r in results}):
        stats = [ClassStats() for _ in range(4)]
        for r in results:
            if r["matchup"] == m:
                for cls in range(4):
                    stats[cls].add(r, cls)
        out[matchup_name(m)] = {CLASSES[c]: stats[c].summary() for c in range(4)}
    return out


def _used_sources(rows: list[dict[str, Any]]) -> list[str]:
    """The VP sources that are non-zero for some row (keeps the tables narrow)."""
    return [s for s in VP_SOURCES if any(abs(r["mean_sources"][s]) > 1e-9 for r in rows)]


def _table(title: str, rows: list[tuple[str, dict[str, Any]]]) -> list[str]:
    sources = _used_sources([r for _, r in rows])
    head = ["class", "games", "win rate", "95% Wilson", "mean VP", *sources]
    lines = [f"### {title}", "", "| " + " | ".join(head) + " |",
             "|" + "---|" * len(head)]
    for label, r in rows:
        cells = [label, str(r["games"]), f"{r['win_rate']:.1%}",
                 f"{r['wilson_low']:.1%}-{r['wilson_high']:.1%}", f"{r['mean_vp']:.1f}",
                 *(f"{r['mean_sources'][s]:.1f}" for s in sources)]
        lines.append("| " + " | ".join(cells) + " |")
    return [*lines, ""]


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
    for m in matchups:  # one at a time, each reported as it ends (a long run shows progress)
        part = run_games(config, args.seed, args.games, args.workers, (m,))
        results += part
        print(f"<!-- {matchup_name(m)}: {len(part)} games done after "
              f"{time.perf_counter() - start:.0f} s -->\n{markdown(summarise(part))}", flush=True)
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
    raise SystemExit(main())
