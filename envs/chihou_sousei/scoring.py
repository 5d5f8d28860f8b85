"""Final scoring: population, industry and region bonuses (pure functions).

They take plain lists so the engine, the observation's score-so-far features
and the bot all share one implementation.
"""

from __future__ import annotations

from collections.abc import Sequence

from meeplezoo.envs.chihou_sousei.board import NEIGHBOURS
from meeplezoo.envs.chihou_sousei.data import BIG_CITY, COLOUR


def population_k(counts: Sequence[int], mode: bool) -> int:
    """The counted size k: the largest count, or (``mode``) the most frequent
    non-zero count, the larger one on a tie of frequencies."""
    if not mode:
        return max(counts, default=0)
    freq: dict[int, int] = {}
    for c in counts:
        if c:
            freq[c] = freq.get(c, 0) + 1
    if not freq:
        return 0
    return max(freq, key=lambda c: (freq[c], c))


def population_score(counts: Sequence[int], mode: bool = False) -> int:
    """k x (cards holding exactly k tokens) - 1 per card holding none."""
    k = population_k(counts, mode)
    return k * counts.count(k) - counts.count(0)  # k == 0 scores only the empty cards


def industry_scores(totals: Sequence[Sequence[int]]) -> list[int]:
    """Per industry, every player tied for the most icons scores that many."""
    scores = [0] * len(totals)
    for column in zip(*totals):  # one industry's icon count per seat
        best = max(column)
        if best > 0:
            for seat, count in enumerate(column):
                if count == best:
                    scores[seat] += best
    return scores


def group_size(grid: Sequence[int], start: int) -> int:
    """Size of the same-coloured group holding the regional card at ``start``
    (the engine's incremental region score: a new card only grows its own group)."""
    colour = COLOUR[grid[start]]
    seen = {start}
    stack = [start]
    while stack:
        cell = stack.pop()
        for nb in NEIGHBOURS[cell]:
            other = grid[nb]
            if nb not in seen and 0 <= other < BIG_CITY and COLOUR[other] == colour:
                seen.add(nb)
                stack.append(nb)
    return len(seen)


def region_score(grid: Sequence[int], cells: Sequence[int]) -> int:
    """Size of the largest orthogonally connected group of same-coloured
    regional cards (the big city has no colour and joins no group)."""
    best = 0
    seen: set[int] = set()
    for start in cells:
        card = grid[start]
        if card == BIG_CITY or start in seen:
            continue
        colour = COLOUR[card]
        seen.add(start)
        stack = [start]
        size = 0
        while stack:
            cell = stack.pop()
            size += 1
            for nb in NEIGHBOURS[cell]:
                other = grid[nb]
                if nb not in seen and 0 <= other < BIG_CITY and COLOUR[other] == colour:
                    seen.add(nb)
                    stack.append(nb)
        best = max(best, size)
    return best
