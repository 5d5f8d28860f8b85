"""Tableau geometry: the cells a card can occupy and their orthogonal neighbours.

A tableau holds the big city at (0, 0) and at most 8 regional cards (one per
round), each placed orthogonally next to a card already there, so the card of
round r lies at Manhattan distance <= r from the big city.  Every card of a
game therefore fits in the diamond |x| + |y| <= 8 (145 cells), the proven
bound used by the action catalogue.  x grows to the right, y grows downward.
Cell 0 is the big city's cell.
"""

from __future__ import annotations

ROUNDS = 8
RADIUS = ROUNDS
MAX_CARDS = ROUNDS + 1  # big city + one card per round

CELLS: tuple[tuple[int, int], ...] = tuple(
    sorted(
        (
            (x, y)
            for x in range(-RADIUS, RADIUS + 1)
            for y in range(-RADIUS, RADIUS + 1)
            if abs(x) + abs(y) <= RADIUS
        ),
        key=lambda c: (abs(c[0]) + abs(c[1]), c[1], c[0]),
    )
)
NUM_CELLS = len(CELLS)
CELL_INDEX: dict[tuple[int, int], int] = {c: i for i, c in enumerate(CELLS)}
ORIGIN = CELL_INDEX[(0, 0)]
assert ORIGIN == 0

NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        CELL_INDEX[(x + dx, y + dy)]
        for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0))
        if (x + dx, y + dy) in CELL_INDEX
    )
    for x, y in CELLS
)


def cell_label(cell: int) -> str:
    """``(+1,-2)``: the offset of a cell from its tableau's big city."""
    x, y = CELLS[cell]
    return f"({x:+d},{y:+d})"
