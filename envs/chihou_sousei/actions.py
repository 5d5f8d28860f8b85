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

from meeplezoo.envs.chihou_sousei.board import NUM_CELLS, cell_label
from meeplezoo.envs.core.actions import ActionCatalogue

ROW_SLOTS = 5  # players + 1 cards, at most 5
MAX_PLAYERS = 4

CATALOGUE = ActionCatalogue()
PICK = CATALOGUE.add("pick", [f"pick:{i}" for i in range(ROW_SLOTS)])  # i = row slot from the left
# place@cell for cells 1..144 (never the big city's)
PLACE = CATALOGUE.add("place", [f"place@{cell_label(c)}" for c in range(1, NUM_CELLS)])
FROM = CATALOGUE.add("from", [f"from@{cell_label(c)}" for c in range(NUM_CELLS)])  # cells 0..144
TO = CATALOGUE.add("to", [f"to@{cell_label(c)}" for c in range(NUM_CELLS)])  # cells 0..144
EVENT = CATALOGUE.add("event", [f"event@{cell_label(c)}" for c in range(1, NUM_CELLS)])
TABLEAU = CATALOGUE.add("tableau", [f"tableau:+{k}" for k in range(MAX_PLAYERS)])
INCREASE = CATALOGUE.add("increase", ["increase"])
SKIP = CATALOGUE.add("skip", ["skip"])
NUM_ACTIONS = CATALOGUE.size
ACTION_NAMES = CATALOGUE.names
