"""End scoring, one function per scoring line (they also give the running estimate)."""

from __future__ import annotations

from meeplezoo.envs.necropolis_railway import data as D
from meeplezoo.envs.necropolis_railway.board import Player

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


def london_pairs(levels: list[int] | tuple[int, ...]) -> int:
    """Facilities whose slots are all on tile B (the memo's "fully upgraded pair"; a
    facility with more than 2 slots in the data file needs all of them)."""
    return sum(1 for slots in D.FACILITY_SLOTS if all(levels[s] == 2 for s in slots))


def score_lines(p: Player) -> list[int]:
    pairs = london_pairs(p.london)
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
