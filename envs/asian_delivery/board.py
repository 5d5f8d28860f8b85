"""Geometry of the city of Hotan: the diamond of nine districts and the port.

The nine district boards lie in rows of 1, 2, 3, 2, 1 (hex adjacency: left and
right neighbours in the row, two neighbours in the row above and below).  In
half-hex units a cell of row ``r`` sits at column ``x``; two cells touch when
they share a row and ``|dx| == 2`` or sit in adjacent rows with ``|dx| == 1``.

The port goes to one of the ten perimeter positions numbered 1..10 in the
draft's figure (1 right of the top district, clockwise down the right side,
6 left of the bottom district, up the left side to 10)::

        (10) N (1)
      (9) NW NE (2)
    (8) W  C  E (3)
      (7) SW SE (4)
        (6) S (5)

Areas are indexed 0..8 for the district positions (N, NW, NE, W, C, E, SW, SE,
S) and 9 for the port.  Every table for every port position is computed once
at import.
"""

from __future__ import annotations

from collections import deque

POSITION_NAMES = ("N", "NW", "NE", "W", "C", "E", "SW", "SE", "S")
CELLS = ((0, 0), (1, -1), (1, 1), (2, -2), (2, 0), (2, 2), (3, -1), (3, 1), (4, 0))
PORT_CELLS = (  # figure positions 1..10
    (0, 2), (1, 3), (2, 4), (3, 3), (4, 2), (4, -2), (3, -3), (2, -4), (1, -3), (0, -2),
)
NUM_DISTRICTS = len(CELLS)
PORT = NUM_DISTRICTS  # area index of the port
NUM_AREAS = NUM_DISTRICTS + 1
AREA_NAMES = (*POSITION_NAMES, "port")
NUM_PORT_POSITIONS = len(PORT_CELLS)


def _touch(a: tuple[int, int], b: tuple[int, int]) -> bool:
    dr, dx = abs(a[0] - b[0]), abs(a[1] - b[1])
    return (dr == 0 and dx == 2) or (dr == 1 and dx == 1)


DISTRICT_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(j for j in range(NUM_DISTRICTS) if _touch(CELLS[i], CELLS[j]))
    for i in range(NUM_DISTRICTS)
)
# districts touched by the port at each figure position
PORT_TOUCH: tuple[tuple[int, ...], ...] = tuple(
    tuple(j for j in range(NUM_DISTRICTS) if _touch(cell, CELLS[j])) for cell in PORT_CELLS
)


def _neighbours(port_pos: int) -> tuple[tuple[int, ...], ...]:
    touch = PORT_TOUCH[port_pos]
    table = [
        DISTRICT_NEIGHBOURS[i] + ((PORT,) if i in touch else ()) for i in range(NUM_DISTRICTS)
    ]
    table.append(touch)
    return tuple(table)


def _distances(neigh: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    dist = [-1] * NUM_AREAS
    dist[PORT] = 0
    queue = deque([PORT])
    while queue:
        a = queue.popleft()
        for b in neigh[a]:
            if dist[b] < 0:
                dist[b] = dist[a] + 1
                queue.append(b)
    return tuple(dist)


# NEIGHBOURS[port_pos][area] -> adjacent areas (the port included)
NEIGHBOURS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    _neighbours(p) for p in range(NUM_PORT_POSITIONS)
)
# DISTANCE[port_pos][area] -> steps from the port along the shortest path (port = 0)
DISTANCE: tuple[tuple[int, ...], ...] = tuple(_distances(n) for n in NEIGHBOURS)
MAX_DISTANCE = max(max(d) for d in DISTANCE)


def port_position(terminal_at: list[bool]) -> int:
    """Index (0 = figure position 1) of the highest-priority port position
    that touches no district with a terminal icon.

    ``terminal_at[i]`` says whether the district at position ``i`` has one.
    With at most three terminals a free position always exists (positions 3
    and 8 touch one district each); with more, position 1 is the fallback.
    """
    for pos in range(NUM_PORT_POSITIONS):
        if not any(terminal_at[d] for d in PORT_TOUCH[pos]):
            return pos
    return 0
