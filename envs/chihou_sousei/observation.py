"""Observation layout: named features, scales and the per-card vectors.

The vector is egocentric: 4 seat blocks (you, then the others clockwise,
zero-padded to 4 players), then one global block, then the cell-aligned plane
of your own tableau: one block ``own_board@(x,y)`` per cell of the diamond, in
``board.CELLS`` order (the order of the ``place@``/``from@``/``to@``/``event@``
actions), holding occupied, tokens, colour one-hot (zero for the big city),
frontier (an empty cell next to one of your cards: a legal placement spot),
the tokens on your cards next to the cell, and per colour how many of your
cards of that colour are next to the cell.  Seat blocks and every seat's plane
are kept up to date incrementally by the state (a token move rewrites a few
entries), so building an observation is a few slice copies.

Scales (values are divided by them and clipped to [0, 1]):
tokens on a card / 24, a seat's total tokens / 48, icon totals / 8,
population score (+8) / 48, industry score / 24, region score / 8,
total score (+8) / 64, tokens still to migrate / 3, pending events / 4,
stock / 48, deck cards left / 43, remaining deck composition / the count of
that category in the full deck.  Coordinates x, y of a cell are (offset + 8) / 16.
Own-board plane: tokens on the card / 24, tokens on the adjacent own cards / 24,
adjacent own cards of a colour / 4; occupied, colour and frontier are 0/1.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from meeplezoo.envs.chihou_sousei.actions import MAX_PLAYERS, ROW_SLOTS
from meeplezoo.envs.chihou_sousei.board import CELLS, MAX_CARDS, NUM_CELLS, RADIUS, cell_label
from meeplezoo.envs.chihou_sousei.data import (
    COLOUR,
    COLOURS,
    EVENT,
    EVENTS,
    ICONS,
    INDUSTRIES,
    MAX_POWER,
    NUM_CARDS,
    POWER,
)
from meeplezoo.envs.core.features import FeatureLayout

DECISIONS = (
    "pick",
    "bonus",
    "forced_move_source",
    "forced_move_target",
    "place",
    "migrate",
    "event_order",
    "event_source",
    "event_target",
)

TOKEN_SCALE = 24.0
SEAT_TOKENS_SCALE = 48.0
ICON_SCALE = 8.0
STOCK_SCALE = 48.0

CARD_LABELS = (
    [f"colour_{c}" for c in COLOURS]
    + ["power"]
    + [f"icon_{i}" for i in INDUSTRIES]
    + [f"event_{e}" for e in EVENTS]
)
CARD_F = len(CARD_LABELS)  # 17
SLOT_LABELS = ["present", "x", "y", "tokens", *CARD_LABELS]
SLOT_F = len(SLOT_LABELS)  # 21
S_PRESENT, S_X, S_Y, S_TOKENS, S_CARD = 0, 1, 2, 3, 4
SUMMARY_LABELS = (
    [f"icons_{i}" for i in INDUSTRIES]
    + ["score_population", "score_industry", "score_region", "score_total"]
    + ["tokens_total", "tokens_max_card", "cards"]
    + ["is_start_player", "has_start_marker", "placed_this_round"]
    + [f"pick_position_{j}" for j in range(MAX_PLAYERS)]
)
PICKED_OFF = MAX_CARDS * SLOT_F  # 189
SUMMARY_OFF = PICKED_OFF + 1 + CARD_F  # 207
SEAT_F = SUMMARY_OFF + len(SUMMARY_LABELS)  # 224
(
    SUM_ICONS,
    SUM_POP,
    SUM_IND,
    SUM_REGION,
    SUM_TOTAL,
    SUM_TOKENS,
    SUM_MAX,
    SUM_CARDS,
    SUM_START,
    SUM_MARKER,
    SUM_PLACED,
    SUM_PICKPOS,
) = (SUMMARY_OFF + i for i in (0, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13))

ROW_LABELS = ["present", "taken", "rightmost", *CARD_LABELS]
ROW_F = len(ROW_LABELS)  # 20
DECK_LABELS = (
    [f"colour_{c}" for c in COLOURS]
    + [f"power_{p}" for p in range(1, MAX_POWER + 1)]
    + [f"icon_{i}" for i in INDUSTRIES]
    + [f"event_{e}" for e in EVENTS]
)

PLANE_LABELS = (
    ["occupied", "tokens"]
    + [f"colour_{c}" for c in COLOURS]
    + ["frontier", "adjacent_tokens"]
    + [f"adjacent_same_colour_{c}" for c in COLOURS]
)
PLANE_F = len(PLANE_LABELS)  # 10 per cell
P_OCC, P_TOKENS, P_COLOUR, P_FRONTIER, P_ADJ_TOKENS, P_ADJ_COLOUR = 0, 1, 2, 5, 6, 7
PLACE_CARD_F = P_FRONTIER  # occupied, tokens, colour: the entries a card sets on its cell
PLANE_SIZE = NUM_CELLS * PLANE_F  # 1450
NEIGHBOUR_SCALE = 4.0


def _build_layout() -> FeatureLayout:
    layout = FeatureLayout()
    for k in range(MAX_PLAYERS):
        seat = "me" if k == 0 else f"seat+{k}"
        for slot in range(MAX_CARDS):
            name = "big_city" if slot == 0 else f"card{slot}"
            layout.add(f"{seat}.{name}", SLOT_LABELS)
        layout.add(f"{seat}.picked", ["has", *CARD_LABELS])
        layout.add(f"{seat}.summary", SUMMARY_LABELS)
    layout.add("decision", list(DECISIONS))
    layout.add("progress", ["round", "stock", "deck_left"])
    for slot in range(ROW_SLOTS):
        layout.add(f"row{slot}", ROW_LABELS)
    layout.add("bonus", ["forced_move_left", "increase_left"])
    layout.add("forced_move_tableau", [f"seat+{k}" for k in range(MAX_PLAYERS)])
    layout.add("forced_move_source", ["x", "y", "present"])
    layout.add("placed_card", ["x", "y", "present"])
    layout.add("migration_left")
    layout.add("event", [f"kind_{e}" for e in EVENTS] + ["x", "y", "present"])
    layout.add("events_pending")
    layout.add("deck_remaining", DECK_LABELS)
    for cell in range(NUM_CELLS):
        layout.add(f"own_board@{cell_label(cell)}", PLANE_LABELS)
    return layout


LAYOUT = _build_layout()
OBS_SIZE = LAYOUT.size
GLOBAL_OFF = MAX_PLAYERS * SEAT_F
assert LAYOUT.block("decision").start == GLOBAL_OFF
DECISION_OFF = GLOBAL_OFF
PROGRESS_OFF = LAYOUT.block("progress").start
ROW_OFF = LAYOUT.block("row0").start
BONUS_OFF = LAYOUT.block("bonus").start
FM_TABLEAU_OFF = LAYOUT.block("forced_move_tableau").start
FM_SOURCE_OFF = LAYOUT.block("forced_move_source").start
PLACED_OFF = LAYOUT.block("placed_card").start
MIGRATION_OFF = LAYOUT.block("migration_left").start
EVENT_OFF = LAYOUT.block("event").start
PENDING_OFF = LAYOUT.block("events_pending").start
DECK_OFF = LAYOUT.block("deck_remaining").start
PLANE_OFF = LAYOUT.block(f"own_board@{cell_label(0)}").start
assert DECK_OFF + len(DECK_LABELS) == PLANE_OFF
assert PLANE_OFF + PLANE_SIZE == OBS_SIZE


def _card_vector(card: int) -> np.ndarray:
    vec = np.zeros(CARD_F, np.float32)
    vec[COLOUR[card]] = 1.0
    vec[3] = POWER[card] / MAX_POWER
    vec[4:7] = ICONS[card]
    vec[7 + EVENT[card]] = 1.0
    return vec


CARD_VEC = np.stack([_card_vector(c) for c in range(NUM_CARDS)])
ROW_VEC = np.zeros((NUM_CARDS, ROW_F), np.float32)
ROW_VEC[:, 0] = 1.0
ROW_VEC[:, 3:] = CARD_VEC
PICKED_VEC = np.zeros((NUM_CARDS, 1 + CARD_F), np.float32)
PICKED_VEC[:, 0] = 1.0
PICKED_VEC[:, 1:] = CARD_VEC


def _deck_vector(card: int) -> np.ndarray:
    vec = np.zeros(len(DECK_LABELS), np.float32)
    vec[COLOUR[card]] = 1.0
    vec[3 + POWER[card] - 1] = 1.0
    vec[6:9] = ICONS[card]
    vec[9 + EVENT[card]] = 1.0
    return vec


_DECK_RAW = np.stack([_deck_vector(c) for c in range(NUM_CARDS)])
DECK_FULL = _DECK_RAW.sum(axis=0)
DECK_VEC = _DECK_RAW / np.maximum(DECK_FULL, 1.0)  # a full deck sums to 1 per entry

# per (card, cell): a whole slot vector with tokens 0
COORD = [((x + RADIUS) / (2 * RADIUS), (y + RADIUS) / (2 * RADIUS)) for x, y in CELLS]
TOKEN_FEAT = [min(t / TOKEN_SCALE, 1.0) for t in range(81)]
BIG_SLOT = np.zeros(SLOT_F, np.float32)
BIG_SLOT[S_PRESENT] = 1.0
BIG_SLOT[S_X] = BIG_SLOT[S_Y] = 0.5


SLOT_VECTORS_MEMO = "chihou_sousei.slot_vectors"  # the game's memo, at most cards x cells


def slot_vector(game: Any, card: int, cell: int) -> np.ndarray:
    """A tableau slot's entries (read-only: memoised on the game by card and cell, which say
    it all)."""
    vectors = game.memo(SLOT_VECTORS_MEMO)
    vec = vectors.get((card, cell))
    if vec is None:
        vec = np.zeros(SLOT_F, np.float32)
        vec[S_PRESENT] = 1.0
        vec[S_X], vec[S_Y] = COORD[cell]
        vec[S_CARD:] = CARD_VEC[card]
        vec.flags.writeable = False
        vectors[(card, cell)] = vec
    return vec


# own-board plane entries of a card: occupied + colour one-hot (the big city has no colour)
PLANE_CARD = np.zeros((NUM_CARDS + 1, PLANE_F), np.float32)
PLANE_CARD[:, P_OCC] = 1.0
for _card in range(NUM_CARDS):
    PLANE_CARD[_card, P_COLOUR + COLOUR[_card]] = 1.0


def clip01(value: float) -> float:
    return 0.0 if value < 0.0 else 1.0 if value > 1.0 else value


# ``caches.write_summary`` writes icons..cards as one slice, in this order
assert tuple(range(SUM_ICONS + 3, SUM_ICONS + 11)) == (
    SUM_POP,
    SUM_IND,
    SUM_REGION,
    SUM_TOTAL,
    SUM_TOKENS,
    SUM_MAX,
    SUM_CARDS,
    SUM_START,
)
