"""Small statistics the reports share (evaluation, arena, bot tables)."""

from __future__ import annotations

import math

USABLE_HALF_WIDTH = 0.10  # a table's win rates mean something within 10 points of the truth


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (``successes`` of ``n``)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def wilson_half_width(n: int, z: float = 1.96) -> float:
    """Half the width of the widest 95% Wilson interval on ``n`` games (a 50% rate): how far
    a win rate on ``n`` games may be from the truth."""
    if n <= 0:
        return 0.5
    return z * math.sqrt(0.25 / n + z * z / (4 * n * n)) / (1 + z * z / n)


def games_for_half_width(half_width: float, z: float = 1.96) -> int:
    """The fewest games whose every 95% Wilson interval is at most ``half_width`` wide on
    each side (0.10: within 10 points), for warning that a table rests on too few."""
    if not 0 < half_width < 0.5:
        raise ValueError(f"half_width {half_width}: give a share between 0 and 0.5")
    n = max(1, math.floor((z / half_width) ** 2 / 4) - 10)  # just below the answer
    while wilson_half_width(n, z) > half_width:
        n += 1
    return n


def usable_games() -> int:
    """The fewest games whose every 95% Wilson interval is within ``USABLE_HALF_WIDTH`` of its
    rate (93 for 10 points): below it, the reports warn that a cell has too few games."""
    return games_for_half_width(USABLE_HALF_WIDTH)
