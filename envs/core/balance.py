"""Seat-fixed lineups on paired deals: the seeds, the play loop with a game's stats hook, and
the per-seat summary that a game's bot report and ``training.balance`` share.

Seeding.  Game ``g`` of every lineup deals its set-up from ``deal_seed(S, g)``, and the agent
in seat ``s`` draws ``seat_seed(S, g, group, s)``.  The seed group is the seat of the one
agent that is not random play when every other seat plays random (a "one against random"
lineup), and otherwise the number of seats (the "table").  So two lineups of one group share
every seat's seed: changing one seat's agent leaves the other seats' seeds alone, unless it
moves the lineup between "one against random" and the table.  The Hegemony bot report's
match-ups are such lineups (``envs.hegemony.report``: match-up k is group k, the 4-bot table
group 4), so any lineup is paired, deal by deal and seed by seed, with its published tables.

Wins.  A seat wins a game when its rank key equals the best (``state.rank_keys()``): a shared
win counts for every winner.

Stats hook.  A ``Game`` class may name a module in its ``balance_stats`` attribute; that
module adds game-specific columns to a lineup's report from the states alone, never from the
rules' insides:

- ``watch(state)``: a small snapshot of what it follows, taken before every decision and at
  the end (it must not change the state);
- ``changes(before, after)``: a list of JSON-able events between two consecutive snapshots
  (one action, with everything that followed it automatically);
- ``game_record(state, events)``: the game's JSON-able record (at the end);
- ``seat_summary(records, seat)``: extra per-seat entries (``"breakdown"``: a name -> mean
  mapping is shown as columns and plotted stacked);
- ``lineup_summary(records)``: the lineup's extra summary (JSON-able);
- ``markdown(summary)``: extra markdown lines for a lineup's ``lineup_summary``;
- ``charts(summary)``: extra stacked bar charts as data (``{"name", "title", "ylabel",
  "categories", "series": {label: values}}``), drawn by ``training.balance``;
- ``SCORE_LABEL`` (e.g. ``"mean VP"``) and ``ROLE_LABELS`` (role -> short label).

A game without the hook reports win rates and mean scores only.

Chunks.  ``run_batches`` plays many games in chunks, here or in worker processes (or, through
a mapper handed down, on a Ray cluster: ``training.evaluation.cluster``), and gives the
results in the order of the games; the bot report, ``balance``, ``evaluate`` and ``arena``
all play their games through it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import as_completed
from types import ModuleType
from typing import Any

import numpy as np

from meeplezoo.envs.core.agents import RandomBot, StateBot, play_game
from meeplezoo.envs.core.errors import ConfigError
from meeplezoo.envs.core.game import Game, GameState
from meeplezoo.envs.core.stats import wilson
from meeplezoo.envs.core.workers import process_pool

RANDOM = "random"
HEURISTIC = "heuristic"
BotBuilder = Callable[[str, int, int], StateBot]  # (spec, seat, seed) -> the seat's bot


def deal_seed(seed: int, g: int) -> int:
    """The set-up seed of game ``g``: from ``(seed, g)`` alone."""
    return int(np.random.SeedSequence([seed, g]).generate_state(1)[0])


def seat_seed(seed: int, g: int, group: int, seat: int) -> int:
    """The seed of the agent in ``seat`` of game ``g`` of a lineup of seed group ``group``."""
    return int(np.random.SeedSequence([seed, g, group, seat]).generate_state(1)[0])


def seed_group(specs: Sequence[str]) -> int:
    """The seat of the only agent that is not random play when all others are random;
    otherwise ``len(specs)`` (the table)."""
    others = [s for s, spec in enumerate(specs) if spec != RANDOM]
    return others[0] if len(others) == 1 and len(specs) > 1 else len(specs)


def stats_hook(game: Game) -> ModuleType | None:
    """The module the game's class names in ``balance_stats`` (see the module docstring)."""
    name = getattr(game, "balance_stats", None)
    return importlib.import_module(name) if name else None


def role_labels(game: Game, hook: ModuleType | None) -> list[str]:
    """Per seat, the short label of its role (the hook's ``ROLE_LABELS``, else the role)
    where each seat plays a role of its own (Hegemony's classes); else the seat's number
    from 1 (``seat1`` is the start player), as the tables count: in a symmetric game the
    seat is what a balance report compares."""
    if not game.agents_are_roles:
        return [f"seat{s + 1}" for s in range(game.num_players)]
    labels = getattr(hook, "ROLE_LABELS", {}) if hook else {}
    return [labels.get(game.seat_role(s), game.seat_role(s)) for s in range(game.num_players)]


class _Watcher:
    """Snapshots the state before every decision (through the bots that make them) and
    keeps the hook's events between consecutive snapshots."""

    def __init__(self, hook: ModuleType, state: GameState) -> None:
        self.hook = hook
        self.last = hook.watch(state)
        self.events: list[Any] = []

    def see(self, state: GameState) -> None:
        now = self.hook.watch(state)
        self.events += self.hook.changes(self.last, now)
        self.last = now


class _WatchedBot:
    def __init__(self, bot: StateBot, watcher: _Watcher) -> None:
        self.bot, self.watcher = bot, watcher

    def act(self, state: GameState) -> int:
        self.watcher.see(state)
        return self.bot.act(state)


def play_deal(game: Game, bots: list[StateBot], seed: int, g: int,
              hook: ModuleType | None = None) -> dict[str, Any]:
    """Game ``g`` (dealt from ``deal_seed(seed, g)``) to the end: every seat's score and
    whether it won, and the hook's ``game_record`` under ``"game"``."""
    state = game.new_initial_state(deal_seed(seed, g))
    watcher = _Watcher(hook, state) if hook else None
    if watcher:
        bots = [_WatchedBot(bot, watcher) for bot in bots]
    play_game(state, bots)
    keys = state.rank_keys()
    best = max(keys)
    record: dict[str, Any] = {"g": g, "wins": [int(k == best) for k in keys],
                              "scores": [float(s) for s in state.scores()]}
    chosen = state.seat_roles()
    if chosen is not None:  # what each seat chose or was dealt (アジアンデリバリー's company)
        record["chosen"] = list(chosen)
    if watcher:
        watcher.see(state)
        record["game"] = hook.game_record(state, watcher.events)
    return record


def basic_bot(game: Game, spec: str, seed: int) -> StateBot:
    """``random`` or ``heuristic`` (the game's scripted bot), seeded: the bots an env can
    build without ``training`` (``training.bots.make_bot`` builds these two alike)."""
    if spec == RANDOM:
        return RandomBot(seed)
    if spec == HEURISTIC:
        return game.heuristic_bot(seed)
    raise ConfigError(f"agent {spec!r}: only {RANDOM!r} and {HEURISTIC!r} play here")


def play_lineup(game: Game, specs: Sequence[str], seed: int, g: int, build: BotBuilder,
                hook: ModuleType | None = None) -> dict[str, Any]:
    """Game ``g`` of a seat-fixed lineup (one spec per seat): each seat's bot built by
    ``build`` with its seed from the lineup's seed group; ``play_deal``'s record."""
    group = seed_group(specs)
    seeds = [seat_seed(seed, g, group, s) for s in range(len(specs))]
    bots = [build(spec, s, seeds[s]) for s, spec in enumerate(specs)]
    return {**play_deal(game, bots, seed, g, hook), "seed_group": group, "seat_seeds": seeds}


CHUNK_JOBS = 16  # jobs per chunk at most: the progress moves, and a stopped run loses little
Batch = Callable[[tuple[Any, list[Any]]], list[Any]]  # (shared, chunk) -> a result per job
# (batch, shared, chunks) -> (chunk index, its results) as each chunk ends
Mapper = Callable[[Batch, Any, list[list[Any]]], Iterator[tuple[int, list[Any]]]]


def split_jobs(jobs: Sequence[Any], workers: int, size: int | None = None) -> list[list[Any]]:
    """``jobs`` in consecutive chunks of ``size`` (default: about four per worker, at most
    ``CHUNK_JOBS``)."""
    if size is None:
        size = min(CHUNK_JOBS, -(-len(jobs) // (4 * max(1, workers))))
    size = max(1, size)
    return [list(jobs[start:start + size]) for start in range(0, len(jobs), size)]


def map_chunks(batch: Batch, shared: Any, chunks: list[list[Any]],
               workers: int) -> Iterator[tuple[int, list[Any]]]:
    """``(k, batch((shared, chunks[k])))`` as each chunk ends: here, in order, when
    ``workers <= 1``, else in a pool of ``workers`` processes (``envs.core.workers``: a run
    stopped by Ctrl-C, SIGTERM or an error kills them)."""
    if workers <= 1 or len(chunks) <= 1:
        for k, chunk in enumerate(chunks):
            yield k, batch((shared, chunk))
        return
    with process_pool(min(workers, len(chunks))) as pool:
        futures = {pool.submit(batch, (shared, chunk)): k for k, chunk in enumerate(chunks)}
        for future in as_completed(futures):
            yield futures[future], future.result()


def run_batches(batch: Batch, shared: Any, jobs: Sequence[Any], workers: int,
                on_chunk: Callable[[list[Any]], None] | None = None, *,
                size: int | None = None, mapper: Mapper | None = None) -> list[Any]:
    """``batch((shared, chunk))`` over ``jobs`` in chunks (``split_jobs``), in ``workers``
    processes when ``workers > 1`` (or as ``mapper`` plays them: a Ray cluster's tasks,
    ``training.evaluation.cluster``); the results in the order of ``jobs``.  ``on_chunk``
    sees each chunk's results as soon as it is done (a progress bar counts them, a journal
    keeps them).  Every game must be seeded by its own number, so the split changes no
    result."""
    if size is None and workers <= 1 and on_chunk is None and mapper is None:
        size = len(jobs)  # nobody waits for a chunk: one, and each network loads once
    chunks = split_jobs(jobs, workers, size)
    mapped = (map_chunks(batch, shared, chunks, workers) if mapper is None
              else mapper(batch, shared, chunks))
    parts: list[list[Any] | None] = [None] * len(chunks)
    for k, part in mapped:
        parts[k] = part
        if on_chunk is not None:
            on_chunk(part)
    missing = sum(len(chunk) for chunk, part in zip(chunks, parts) if part is None)
    if missing:  # never a partial result as a whole one
        raise RuntimeError(f"{missing} of {len(jobs)} jobs came back with no result")
    return [result for part in parts if part is not None for result in part]


def seat_row(records: list[dict[str, Any]], seat: int,
             hook: ModuleType | None = None) -> dict[str, Any]:
    """One seat's record over a lineup's games: games, wins, win rate with its 95% Wilson
    interval, mean score, and the hook's ``seat_summary``."""
    row = rate_row(sum(r["wins"][seat] for r in records), len(records),
                   sum(r["scores"][seat] for r in records))
    if hook and records:
        row.update(hook.seat_summary([r["game"] for r in records], seat))
    return row


def rate_row(wins: int, games: int, total_score: float) -> dict[str, Any]:
    """A table row of ``wins`` in ``games``: games, wins, win rate with its 95% Wilson
    interval, mean score (0 games: rates of 0)."""
    low, high = wilson(wins, games)
    n = max(games, 1)
    return {"games": games, "wins": wins, "win_rate": wins / n, "wilson_low": low,
            "wilson_high": high, "mean_score": total_score / n}


def chosen_rows(records: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per thing a seat chose or was dealt in play (``GameState.seat_roles``: a company),
    over every seat of a lineup's games: seat-games, wins, win rate with its 95% Wilson
    interval and mean score, the most winning first; empty for a game without such choices.
    With the same agent in every seat it is that choice's strength under that play."""
    tally: dict[str, tuple[int, int, float]] = {}
    for r in records:
        for seat, key in enumerate(r.get("chosen") or ()):
            won, games, score = tally.get(key, (0, 0, 0.0))
            tally[key] = (won + r["wins"][seat], games + 1, score + r["scores"][seat])
    rows = {key: rate_row(*counts) for key, counts in tally.items()}
    return dict(sorted(rows.items(), key=lambda kv: -kv[1]["win_rate"]))


def used_breakdown(rows: list[dict[str, Any]]) -> list[str]:
    """The breakdown entries that are non-zero for some row (keeps the tables narrow)."""
    names = next((list(r["breakdown"]) for r in rows if "breakdown" in r), [])
    return [s for s in names if any(abs(r["breakdown"][s]) > 1e-9 for r in rows)]


def seat_table(title: str, rows: list[tuple[str, dict[str, Any]]],
               score_label: str = "mean score",
               extra: tuple[str, Callable[[str], str]] | None = None,
               first: str = "class") -> list[str]:
    """A markdown table, one row per (label, ``seat_row``); ``extra`` is an optional
    (column name, label -> cell) column after the label, ``first`` the label's column."""
    names = used_breakdown([r for _, r in rows])
    head = [first, *([extra[0]] if extra else []), "games", "win rate", "95% Wilson",
            score_label, *names]
    lines = [f"### {title}", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for label, r in rows:
        cells = [label, *([extra[1](label)] if extra else []), str(r["games"]),
                 f"{r['win_rate']:.1%}", f"{r['wilson_low']:.1%}-{r['wilson_high']:.1%}",
                 f"{r['mean_score']:.1f}", *(f"{r['breakdown'][s]:.1f}" for s in names)]
        lines.append("| " + " | ".join(cells) + " |")
    return [*lines, ""]
