"""The shape of a saved 地方創生 position (``ChihouSouseiState._to_dict``).

Loading checks a save against this before anything is rebuilt, so types,
lengths and ranges are refused here with the field's name; what depends on
several fields at once (where each card is, whose turn it is, what the
pending decision needs) is left to ``ChihouSouseiState.check_invariants``.
Cells are saved as ``[x, y]`` offsets from the big city; the schema bounds
each coordinate by the board's radius and loading refuses a pair outside the
diamond.  Cards are saved by their key, the big city as ``"big_city"``.
"""

from __future__ import annotations

from envs.chihou_sousei.board import MAX_CARDS, NEIGHBOURS, RADIUS, ROUNDS
from envs.chihou_sousei.data import CARD_KEYS, MAX_POWER, NUM_CARDS
from envs.chihou_sousei.state import (
    BIG_CITY_KEY,
    DECISION_NAMES,
    EMPTY,
    START_TOKENS,
    TOTAL_TOKENS,
)
from envs.core.game import TERMINAL
from envs.core.schema import RNG_STATE, Bool, Int, List, Nullable, Record, Str, Tuple

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
