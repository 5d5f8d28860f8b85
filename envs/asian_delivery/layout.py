"""Where every number of a state lives, and how the observation is read from it.

The whole numeric state is one flat ``array('i')`` (``state.v``), laid out as

    [0]                      always 0 (padding seats gather from here)
    the global features      seen by everyone (decision, context, city, market)
    seat 0 .. seat 4 blocks  per-player features (public), padded to 5 seats
    internal fields          bookkeeping the observation does not show directly

The engine reads and writes ``v`` by these offsets; an observation is one
gather (global part, then the viewer's seat block, then the others in seat
order) times a per-entry scale, clipped to 1.  One-hot features are stored as
0/1 entries, so no encoding work happens per step.  Everything here is
computed once at import.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from meeplezoo.envs.asian_delivery.actions import ACTION_CARDS, DECISIONS
from meeplezoo.envs.asian_delivery.board import AREA_NAMES, NUM_PORT_POSITIONS, POSITION_NAMES
from meeplezoo.envs.asian_delivery.data import (
    COLOURS,
    COMPANIES,
    DAILIES_PER_PLAYER,
    KINDS,
    MARKERS,
    MARKET_SIZE,
    REQUESTS,
    ROUNDS,
    TRACKS,
)
from meeplezoo.envs.core.features import FeatureLayout

MAX_PLAYERS = 5
BREAKDOWN = (
    "request_vp",  # printed VP of fulfilled requests and dailies
    "step_bonus",  # +1 per step from the port
    "interest_bonus",  # +1 per own interest marker in the area
    "coins",  # variant distance_coins
    "interim_majority",
    "final_majority",
    "district_majority",
)

# scale maxima (a feature is value / max, clipped to 1)
MAX_VP = 150
MAX_DISTRICT_STOCK = 8
MAX_PORT_STOCK = 15
MAX_RESERVE = 10
MAX_COMPLETED = 10
MAX_TRACK = (8, 7, 7, 5)  # warehouse, transport, stock, workers
MAX_TRACK_MARKERS = 5
MAX_DISTANCE_FEATURE = 4
MAX_COINS = 4
MAX_CARD_BASE = 4
MAX_CARD_ADVANCED = 2
MAX_CARD_VP = 10
MAX_DAILY = 3
MAX_DISTRICT_MARKERS = 7  # 9 markers are placed in a game; more than 7 on one district is clipped


class _Section:
    """Allocates named blocks inside one section of ``v``."""

    def __init__(self, start: int) -> None:
        self.start = start
        self.size = 0
        self.blocks: list[tuple[str, list[str], list[float]]] = []

    def add(self, name: str, labels: Sequence[str] | int = 1, maximum: float | Sequence = 1) -> int:
        if isinstance(labels, int):
            labels = [""] if labels == 1 else [str(i) for i in range(labels)]
        labels = list(labels)
        if isinstance(maximum, (int, float)):
            maximum = [maximum] * len(labels)
        self.blocks.append((name, labels, [1.0 / m for m in maximum]))
        offset = self.start + self.size
        self.size += len(labels)
        return offset


def _grid(rows: Sequence[str], cols: Sequence[str]) -> list[str]:
    return [f"{r}:{c}" for r in rows for c in cols]


# -- global features -------------------------------------------------------------
_g = _Section(1)
G_DECISION = _g.add("decision", DECISIONS)
G_ACTIONS_LEFT = _g.add("ctx.actions_left", 1, 3)
G_CARD = _g.add("ctx.action_card", ACTION_CARDS)
G_PLACED = _g.add("ctx.placed_here_this_turn", POSITION_NAMES, 2)
G_REQUEST = _g.add(
    "ctx.request",
    [f"market_slot:{k}" for k in range(MARKET_SIZE)]
    + [f"daily:{k}" for k in range(DAILIES_PER_PLAYER)],
)
G_FROM = _g.add("ctx.transport_from", AREA_NAMES)
G_TO = _g.add("ctx.transport_to", AREA_NAMES)
G_MOVED = _g.add("ctx.transport_moved", 1, MAX_TRACK[1])
G_UPCOLOUR = _g.add("ctx.upgrade_colour", COLOURS)
G_GROW_LEFT = _g.add("ctx.growth_markers_left", 1, 2)
G_TRACK = _g.add("ctx.grow_track", TRACKS)
G_ROUND = _g.add("round", [str(r + 1) for r in range(ROUNDS)])
G_OCCUPANCY = _g.add("action_card_workers", ACTION_CARDS, 3)
G_POS_COLOUR = _g.add("city.colour", _grid(POSITION_NAMES, COLOURS))
G_POS_TERMINAL = _g.add("city.terminal", POSITION_NAMES)
G_POS_DISTANCE = _g.add("city.distance", POSITION_NAMES, MAX_DISTANCE_FEATURE)
G_POS_PORT_ADJ = _g.add("city.port_adjacent", POSITION_NAMES)
G_POS_COINS = _g.add("city.coins", POSITION_NAMES, MAX_COINS)
G_PORT_POS = _g.add("city.port_position", [str(p + 1) for p in range(NUM_PORT_POSITIONS)])
G_MARKET_PRESENT = _g.add("market.present", MARKET_SIZE)
G_MARKET_COLOUR = _g.add("market.colour", _grid([str(k) for k in range(MARKET_SIZE)], COLOURS))
G_MARKET_BASE = _g.add("market.base", MARKET_SIZE, MAX_CARD_BASE)
G_MARKET_ADV = _g.add("market.advanced", MARKET_SIZE, MAX_CARD_ADVANCED)
G_MARKET_VP = _g.add("market.vp", MARKET_SIZE, MAX_CARD_VP)
G_DECK = _g.add("deck_size", 1, len(REQUESTS))
G_DISCARD = _g.add("discard_size", 1, len(REQUESTS))
G_COMPANY_FREE = _g.add("company_free", [c.key for c in COMPANIES])
_company_track_labels = _grid([c.key for c in COMPANIES], TRACKS)
G_CO_START = _g.add("company_track.start", _company_track_labels, list(MAX_TRACK) * 5)
G_CO_END = _g.add("company_track.end", _company_track_labels, list(MAX_TRACK) * 5)
G_CO_MARKERS = _g.add("company_track.markers", _company_track_labels, MAX_TRACK_MARKERS)
GLOBAL_SIZE = _g.size

# -- per-seat features (relative offsets inside a seat block) ------------------------
_s = _Section(0)
S_PRESENT = _s.add("present")
S_TO_MOVE = _s.add("to_move")
S_IS_START = _s.add("start_player")
S_PASSED = _s.add("passed")
S_COMPANY = _s.add("company", [c.key for c in COMPANIES])
S_TRACK = _s.add("track_value", TRACKS, MAX_TRACK)
S_TRACK_NEXT = _s.add("track_next_value", TRACKS, MAX_TRACK)
S_TRACK_MARKERS = _s.add("track_markers_left", TRACKS, MAX_TRACK_MARKERS)
S_WORKERS = _s.add("workers_available", 1, 5)
S_RESERVE = _s.add("reserve_base", 1, MAX_RESERVE)
S_VP = _s.add("vp", 1, MAX_VP)
S_COMPLETED = _s.add("completed", COLOURS, MAX_COMPLETED)
S_COMPLETED_TOTAL = _s.add("completed_total", 1, 2 * MAX_COMPLETED)
S_DAILY_PRESENT = _s.add("daily.present", DAILIES_PER_PLAYER)
S_DAILY_UP = _s.add("daily.face_up", DAILIES_PER_PLAYER)
S_DAILY_BASE = _s.add("daily.base", DAILIES_PER_PLAYER, MAX_DAILY)
S_DAILY_VP = _s.add("daily.vp", DAILIES_PER_PLAYER, MAX_DAILY)
S_WH = _s.add(
    "warehouse",
    _grid(AREA_NAMES, KINDS),
    [MAX_DISTRICT_STOCK] * (len(POSITION_NAMES) * len(KINDS)) + [MAX_PORT_STOCK] * len(KINDS),
)
S_MARKERS = _s.add("markers", POSITION_NAMES, MAX_DISTRICT_MARKERS)
S_MARKERS_ON_BOARD = _s.add("markers_on_company_board", 1, MARKERS)
SEAT_SIZE = _s.size
SEAT_BASE = 1 + GLOBAL_SIZE
NKINDS = len(KINDS)

# -- internal fields (not observed) ---------------------------------------------------
INTERNAL_BASE = SEAT_BASE + MAX_PLAYERS * SEAT_SIZE
_i = _Section(INTERNAL_BASE)
I_DECISION = _i.add("decision")
I_CUR = _i.add("current_player")
I_START = _i.add("start_player")
I_ROUND = _i.add("round")  # 0-based
I_OVER = _i.add("game_over")
I_CARD = _i.add("card")  # action card being resolved, -1
I_REQUEST = _i.add("request")  # chosen request: 0..5 market slot, 6..8 daily, -1
I_FROM = _i.add("from")
I_TO = _i.add("to")
I_UPCOLOUR = _i.add("upgrade_colour")
I_TRACK = _i.add("track")
I_GROWER = _i.add("growers_done")  # players who finished growing this round end
I_PORT_POS = _i.add("port_position")
I_MARKET = _i.add("market_card", MARKET_SIZE)  # request ids, -1 empty
I_DISTRICT_AT = _i.add("district_at", len(POSITION_NAMES))
I_SLOT_OWNER = _i.add("slot_owner", 9)  # 3 cards x 3 slots: seat or -1
I_COMPANY_OF = _i.add("company_of", MAX_PLAYERS)
I_TRACK_STEP = _i.add("track_step", MAX_PLAYERS * len(TRACKS))  # markers removed per track
I_RECEIVED = _i.add("received", MAX_PLAYERS)  # resources taken from the supply
I_RETURNED = _i.add("returned", MAX_PLAYERS)  # resources paid back to the supply
I_BREAKDOWN = _i.add("breakdown", MAX_PLAYERS * len(BREAKDOWN))
I_DAILY_ID = _i.add("daily_id", MAX_PLAYERS * DAILIES_PER_PLAYER)
# base gained by the placement being resolved and not yet placed: while it is
# above 0 the placement step cannot end with keep_in_reserve
I_GAIN_TO_PLACE = _i.add("gain_to_place")
STATE_SIZE = INTERNAL_BASE + _i.size
NB = len(BREAKDOWN)
NT = len(TRACKS)

# (name, labels) of every block of each section, in order: the saved-state
# schema (``schema.py``) gives each entry of ``v`` its range from these
Blocks = tuple[tuple[str, tuple[str, ...]], ...]
GLOBAL_BLOCKS: Blocks = tuple((name, tuple(labels)) for name, labels, _ in _g.blocks)
SEAT_BLOCKS: Blocks = tuple((name, tuple(labels)) for name, labels, _ in _s.blocks)
INTERNAL_BLOCKS: Blocks = tuple((name, tuple(labels)) for name, labels, _ in _i.blocks)


def seat(p: int) -> int:
    """Offset of seat ``p``'s block."""
    return SEAT_BASE + p * SEAT_SIZE


def _build_names() -> list[str]:
    layout = FeatureLayout()
    for name, labels, _ in _g.blocks:
        layout.add(name, labels if labels != [""] else 1)
    for k in range(MAX_PLAYERS):
        prefix = "me" if k == 0 else f"seat+{k}"
        for name, labels, _ in _s.blocks:
            layout.add(f"{prefix}.{name}", labels if labels != [""] else 1)
    return layout.names


FEATURE_NAMES: list[str] = _build_names()
OBS_SIZE = len(FEATURE_NAMES)
_SCALE = np.array(
    [s for _, _, sc in _g.blocks for s in sc] + [s for _, _, sc in _s.blocks for s in sc] * 5,
    dtype=np.float32,
)
assert _SCALE.size == OBS_SIZE == GLOBAL_SIZE + MAX_PLAYERS * SEAT_SIZE


def gather_index(player: int, num_players: int) -> np.ndarray:
    """Indices into ``v`` of ``player``'s observation (egocentric, padded)."""
    parts = [np.arange(1, 1 + GLOBAL_SIZE)]
    for k in range(MAX_PLAYERS):
        if k < num_players:
            start = seat((player + k) % num_players)
            parts.append(np.arange(start, start + SEAT_SIZE))
        else:
            parts.append(np.zeros(SEAT_SIZE, dtype=np.int64))
    return np.concatenate(parts).astype(np.intp)


GATHER = {
    n: [gather_index(p, n) for p in range(n)] for n in range(3, MAX_PLAYERS + 1)
}


def observe(v, player: int, num_players: int) -> np.ndarray:
    """The float32 observation of ``player`` read from the state vector ``v``."""
    obs = np.frombuffer(v, dtype=np.int32).take(GATHER[num_players][player]).astype(np.float32)
    obs *= _SCALE
    np.minimum(obs, 1.0, out=obs)
    return obs
