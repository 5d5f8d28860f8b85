"""The bot report's games: each class's bot against three random classes, and the 4-bot
table, on the deals and seeds every balance table of Hegemony is paired with.

The report itself is ``meeplezoo balance --env hegemony_v1 --preset bot-report`` (``meeplezoo
hegemony-report`` is its alias): the same games, plus the bills and policies columns of
``envs.hegemony.balance_stats``, a journal and a cluster.  This module keeps the games alone,
numpy only: game ``g`` of every match-up deals the same set-up from ``(S, g)`` and seeds its
bots from ``(S, g, match-up, seat)`` (``envs.core.balance``), so the result does not depend on
the worker count (or on how games are split), and a test checks that ``balance`` plays them
game for game.  A win is a rank key equal to the best (``state.rank_keys()``): shared wins
count for everyone.
"""

from __future__ import annotations

from typing import Any

from meeplezoo import envs
from meeplezoo.envs.core import balance
from meeplezoo.envs.core.balance import deal_seed as game_seed
from meeplezoo.envs.core.balance import seat_seed as bot_seed
from meeplezoo.envs.core.progress import Progress
from meeplezoo.envs.core.stats import wilson
from meeplezoo.envs.hegemony import balance_stats
from meeplezoo.envs.hegemony.balance_stats import CLASSES

ENV = "hegemony_v1"
TABLE = 4  # the match-up index of the 4-bot table; 0..3 are "class k's bot vs 3 random"
MATCHUPS = (0, 1, 2, 3, TABLE)
__all__ = ["CLASSES", "bot_seed", "game_seed", "run_games", "wilson"]


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
