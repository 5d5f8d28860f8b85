"""End scoring, one function per scoring line (they also give the running estimate)."""

from __future__ import annotations

from envs.necropolis_railway import data as D
from envs.necropolis_railway.board import Player

SCORE_LINES = (
    "prestige_x_london_staff",
    "london_pairs",
    "completed_columns",
    "column_majorities",
    "overflow_coffins",
    "money",
)


def column_majority(p: Player, col: int) -> int:
    """Count of the most common coffin colour in the column."""
    counts = [0] * D.NUM_COFFIN_COLOURS
    base = col * D.ROWS
    for r in range(p.fill[col]):
        counts[p.plots[base + r]] += 1
    return max(counts)


def score_lines(p: Player) -> list[int]:
    london = p.london
    pairs = sum(1 for f in range(D.NUM_FACILITIES) if london[2 * f] == 2 and london[2 * f + 1] == 2)
    majority = 0
    for c in range(D.COLUMNS):
        if p.fill[c]:
            majority += column_majority(p, c) * D.MORTUARY_MULT[p.mortuary[c]]
    money = p.money + D.MONEY_PER_NECRO_MOURNER * p.necro_mourners
    return [
        p.prestige * p.london_workers(),
        D.PAIR_POINTS * pairs,
        D.COLUMN_POINTS * p.fill.count(D.ROWS),
        majority,
        D.OVERFLOW_POINTS * sum(p.overflow),
        money // D.MONEY_PER_POINT,
    ]


def score(p: Player) -> int:
    return sum(score_lines(p))
