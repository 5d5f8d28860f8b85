"""The fixed action catalogue (84 actions, the same for every player count).

A turn is split into small decisions by the same player; each decision kind
uses one group of the catalogue (see ``DECISIONS``).  Areas are named by their
position in the diamond (N, NW, NE, W, C, E, SW, SE, S) or ``port``.
"""

from __future__ import annotations

from envs.asian_delivery.board import AREA_NAMES, NUM_AREAS, NUM_DISTRICTS, POSITION_NAMES
from envs.asian_delivery.data import (
    COLOURS,
    COMPANIES,
    DAILIES_PER_PLAYER,
    KINDS,
    MARKET_SIZE,
    TRACKS,
)

ACTION_CARDS = ("fulfil", "transport", "upgrade")
FULFIL, TRANSPORT, UPGRADE = range(3)

# Decision kinds (the pending decision is one-hot in the observation)
DECISIONS = (
    "choose_company",  # set-up: pick a company, in turn order
    "main",  # your turn: place a worker ("pass" is never legal: only forced passes)
    "place_base",  # put base resources from your reserve into warehouses
    "choose_request",  # a fulfil action: which request (or skip)
    "fulfil_area",  # ... in which area to pay for it
    "transport_from",  # a transport action: the source area (or skip)
    "transport_to",  # ... the adjacent destination
    "transport_kind",  # ... one resource at a time, or done
    "upgrade",  # an upgrade action: the colour (or skip)
    "grow_track",  # round end: the track to take an interest marker from
    "grow_marker",  # ... the district to put it on
)
(
    D_COMPANY,
    D_MAIN,
    D_PLACE,
    D_REQUEST,
    D_FULFIL_AREA,
    D_FROM,
    D_TO,
    D_KIND,
    D_UPGRADE,
    D_GROW_TRACK,
    D_GROW_MARKER,
) = range(len(DECISIONS))

_names: list[str] = []


def _group(names: list[str]) -> int:
    start = len(_names)
    _names.extend(names)
    return start


A_COMPANY = _group([f"choose_company:{c.key}" for c in COMPANIES])
A_PASS = _group(["pass"])
A_PLACE_WORKER = _group([f"place_worker:{c}" for c in ACTION_CARDS])
A_PUT = _group([f"put_base@{a}" for a in AREA_NAMES])
A_PUT_REST = _group(["put_rest@port"])
A_KEEP = _group(["keep_in_reserve"])
A_MARKET = _group([f"fulfil:market_slot:{k}" for k in range(MARKET_SIZE)])
A_DAILY = _group([f"fulfil:daily:{k}" for k in range(DAILIES_PER_PLAYER)])
A_AT = _group([f"at@{a}" for a in AREA_NAMES])
A_FROM = _group([f"transport_from@{a}" for a in AREA_NAMES])
A_TO = _group([f"transport_to@{a}" for a in AREA_NAMES])
A_KIND = _group([f"transport_kind:{k}" for k in KINDS])
A_DONE = _group(["transport_done"])
A_UPGRADE = _group([f"upgrade:{c}" for c in COLOURS])
A_SKIP = _group(["skip"])
A_GROW = _group([f"grow:{t}" for t in TRACKS])
A_MARKER = _group([f"marker@{p}" for p in POSITION_NAMES])

ACTION_NAMES: tuple[str, ...] = tuple(_names)
NUM_ACTIONS = len(ACTION_NAMES)

assert A_PUT + NUM_AREAS == A_PUT_REST and A_MARKER + NUM_DISTRICTS == NUM_ACTIONS
