"""A saved 地方創生 position: its fields (``save_fields``, ``load_fields``) and
their shape (``state_schema``).

Loading checks a save against the schema before anything is rebuilt, so types,
lengths and ranges are refused here with the field's name; what depends on
several fields at once (where each card is, whose turn it is, what the
pending decision needs) is left to ``invariants.check_position``.
Cells are saved as ``[x, y]`` offsets from the big city; the schema bounds
each coordinate by the board's radius and loading refuses a pair outside the
diamond.  Cards are saved by their key, the big city as ``"big_city"``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meeplezoo.envs.chihou_sousei.board import (
    CELL_INDEX,
    CELLS,
    MAX_CARDS,
    NEIGHBOURS,
    NUM_CELLS,
    RADIUS,
    ROUNDS,
)
from meeplezoo.envs.chihou_sousei.data import BIG_CITY, CARD_ID, CARD_KEYS, MAX_POWER, NUM_CARDS
from meeplezoo.envs.chihou_sousei.decisions import DECISION_NAMES, EMPTY, START_TOKENS, TOTAL_TOKENS
from meeplezoo.envs.core.errors import CorruptStateError
from meeplezoo.envs.core.game import TERMINAL
from meeplezoo.envs.core.rng import rng_from_dict, rng_to_dict
from meeplezoo.envs.core.schema import RNG_STATE, Bool, Int, List, Nullable, Record, Str, Tuple

if TYPE_CHECKING:
    from meeplezoo.envs.chihou_sousei.state import ChihouSouseiState

BIG_CITY_KEY = "big_city"  # a big city's card key in a save
MAX_NEIGHBOURS = max(len(nbs) for nbs in NEIGHBOURS)  # events pending after one placement

CARD = Str(CARD_KEYS)
CELL = Tuple([Int(-RADIUS, RADIUS), Int(-RADIUS, RADIUS)])


def state_schema(num_players: int) -> Record:
    """Every field of a saved position for ``num_players`` players."""
    n = num_players
    row_size = n + 1  # cards revealed per round
    seat = Int(0, n - 1)
    seat_or_none = Int(EMPTY, n - 1)
    tableau_entry = Record({
        "at": CELL,
        "card": Str((*CARD_KEYS, BIG_CITY_KEY)),
        # every tableau keeps at least its starting tokens, so one card holds
        # at most what the other tableaus leave over
        "tokens": Int(0, TOTAL_TOKENS - START_TOKENS * (n - 1)),
    })
    return Record({
        "rng": RNG_STATE,
        "round": Int(0, ROUNDS),
        "start_player": seat,
        "start_marker": seat_or_none,
        "stock": Int(0, TOTAL_TOKENS - START_TOKENS * n),
        # a row is drawn at the start of each of the rounds
        "deck": List(CARD, (NUM_CARDS - ROUNDS * row_size, NUM_CARDS - row_size)),
        "row": List(CARD, (0, row_size)),
        "taken_by": List(seat_or_none, (0, row_size)),
        "discard": List(CARD, (0, ROUNDS * (row_size - n))),
        "picked": List(Nullable(CARD), n),
        "tableaus": List(List(tableau_entry, (1, MAX_CARDS)), n),
        "decision": Str(DECISION_NAMES),
        "player": Int(TERMINAL, n - 1),
        "pick_index": Int(0, n),
        "forced_move_left": Bool(),
        "increase_left": Bool(),
        "forced_move_tableau": seat_or_none,
        "forced_move_source": Nullable(CELL),
        "migration_index": Int(0, n - 1),
        "placed": Nullable(CELL),
        "migration_left": Int(0, MAX_POWER),
        "pending_events": List(CELL, (0, MAX_NEIGHBOURS)),
        "event_card": Nullable(CELL),
    })


def save_fields(state: ChihouSouseiState) -> dict[str, Any]:
    """The position's fields, JSON-safe (the caches are never saved)."""

    def xy(cell: int) -> list[int] | None:
        return list(CELLS[cell]) if cell >= 0 else None

    def key(card: int) -> str | None:
        return None if card < 0 else BIG_CITY_KEY if card == BIG_CITY else CARD_KEYS[card]

    return {
        "rng": rng_to_dict(state.rng),
        "round": state.round,
        "start_player": state.start,
        "start_marker": state.marker,
        "stock": state.stock,
        "deck": [key(c) for c in state.deck],
        "row": [key(c) for c in state.row],
        "taken_by": list(state.taken),
        "discard": [key(c) for c in state.discard],
        "picked": [key(c) for c in state.picked],
        "tableaus": [
            [
                {"at": xy(c), "card": key(state.grid[s][c]), "tokens": state.tokens[s][c]}
                for c in state.cells[s]
            ]
            for s in range(state.n)
        ],
        "decision": DECISION_NAMES[state.decision],
        "player": state.player,
        "pick_index": state.pick_index,
        "forced_move_left": state.fm_left,
        "increase_left": state.inc_left,
        "forced_move_tableau": state.fm_seat,
        "forced_move_source": xy(state.fm_src),
        "migration_index": state.mig_index,
        "placed": xy(state.placed),
        "migration_left": state.need,
        "pending_events": [xy(c) for c in state.pending],
        "event_card": xy(state.ev_cell),
    }


def load_fields(state: ChihouSouseiState, data: dict[str, Any]) -> None:
    """Set ``state``'s position fields from a save that ``state_schema``
    accepted; a cell outside the diamond is refused here, the rest is left
    to ``invariants.check_position``."""

    def card(key: str | None) -> int:
        return EMPTY if key is None else BIG_CITY if key == BIG_CITY_KEY else CARD_ID[key]

    def cell(xy: list[int] | None, field: str) -> int:
        if xy is None:
            return EMPTY
        index = CELL_INDEX.get((xy[0], xy[1]))
        if index is None:
            raise CorruptStateError(
                f"field state.{field}: {xy} lies outside the board (|x| + |y| <= {RADIUS})"
            )
        return index

    n = state.n
    state.rng = rng_from_dict(data["rng"], "state.rng")
    state.round = data["round"]
    state.start = data["start_player"]
    state.marker = data["start_marker"]
    state.stock = data["stock"]
    state.deck = [card(k) for k in data["deck"]]
    state.row = [card(k) for k in data["row"]]
    state.taken = list(data["taken_by"])
    state.discard = [card(k) for k in data["discard"]]
    state.picked = [card(k) for k in data["picked"]]
    state.grid = [[EMPTY] * NUM_CELLS for _ in range(n)]
    state.tokens = [[0] * NUM_CELLS for _ in range(n)]
    state.cells = [[] for _ in range(n)]
    for s, tableau in enumerate(data["tableaus"]):
        for i, entry in enumerate(tableau):
            c = cell(entry["at"], f"tableaus[{s}][{i}].at")
            state.grid[s][c] = card(entry["card"])
            state.tokens[s][c] = entry["tokens"]
            state.cells[s].append(c)
    state.decision = DECISION_NAMES.index(data["decision"])
    state.player = data["player"]
    state.pick_index = data["pick_index"]
    state.fm_left = data["forced_move_left"]
    state.inc_left = data["increase_left"]
    state.fm_seat = data["forced_move_tableau"]
    state.fm_src = cell(data["forced_move_source"], "forced_move_source")
    state.mig_index = data["migration_index"]
    state.placed = cell(data["placed"], "placed")
    state.need = data["migration_left"]
    state.pending = [
        cell(xy, f"pending_events[{i}]") for i, xy in enumerate(data["pending_events"])
    ]
    state.ev_cell = cell(data["event_card"], "event_card")
