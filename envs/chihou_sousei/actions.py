"""The fixed action catalogue (same size for every player count).

Cell-based actions use the offset of a cell from its tableau's big city
(see ``board``): ``place@(+1,-2)`` puts the picked card there, ``from@``
chooses the card a token leaves (forced-move source, migration source, an
event's source), ``to@`` chooses the card a token arrives on (forced-move
target, an event's target) and ``event@`` chooses which adjacent card's event
resolves next.  ``tableau:+k`` (only with ``forced_move_any_player``) chooses
whose tableau a forced move happens in, ``+0`` being your own, ``+1`` the next
player clockwise.
"""

from __future__ import annotations

from envs.chihou_sousei.board import NUM_CELLS, cell_label

ROW_SLOTS = 5  # players + 1 cards, at most 5
MAX_PLAYERS = 4

PICK = 0  # pick:i, i = row slot from the left
PLACE = PICK + ROW_SLOTS  # place@cell for cells 1..144 (never the big city's)
FROM = PLACE + NUM_CELLS - 1  # from@cell for cells 0..144
TO = FROM + NUM_CELLS  # to@cell for cells 0..144
EVENT = TO + NUM_CELLS  # event@cell for cells 1..144
TABLEAU = EVENT + NUM_CELLS - 1  # tableau:+k
INCREASE = TABLEAU + MAX_PLAYERS
SKIP = INCREASE + 1
NUM_ACTIONS = SKIP + 1


def _names() -> tuple[str, ...]:
    names = [f"pick:{i}" for i in range(ROW_SLOTS)]
    names += [f"place@{cell_label(c)}" for c in range(1, NUM_CELLS)]
    names += [f"from@{cell_label(c)}" for c in range(NUM_CELLS)]
    names += [f"to@{cell_label(c)}" for c in range(NUM_CELLS)]
    names += [f"event@{cell_label(c)}" for c in range(1, NUM_CELLS)]
    names += [f"tableau:+{k}" for k in range(MAX_PLAYERS)]
    names += ["increase", "skip"]
    assert len(names) == NUM_ACTIONS
    return tuple(names)


ACTION_NAMES = _names()
