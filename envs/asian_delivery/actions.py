"""The fixed action catalogue (84 actions, the same for every player count).

A turn is split into small decisions by the same player; each decision kind
uses one group of the catalogue (see ``DECISIONS``).  Areas are named by their
position in the diamond (N, NW, NE, W, C, E, SW, SE, S) or ``port``.
"""

from __future__ import annotations

from meeplezoo.envs.asian_delivery.board import AREA_NAMES, NUM_AREAS, NUM_DISTRICTS, POSITION_NAMES
from meeplezoo.envs.asian_delivery.data import (
    COLOURS,
    COMPANIES,
    DAILIES_PER_PLAYER,
    KINDS,
    MARKET_SIZE,
    TRACKS,
)
from meeplezoo.envs.core.actions import ActionCatalogue

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

CATALOGUE = ActionCatalogue()
A_COMPANY = CATALOGUE.add("choose_company", [f"choose_company:{c.key}" for c in COMPANIES])
A_PASS = CATALOGUE.add("pass", ["pass"])
A_PLACE_WORKER = CATALOGUE.add("place_worker", [f"place_worker:{c}" for c in ACTION_CARDS])
A_PUT = CATALOGUE.add("put_base", [f"put_base@{a}" for a in AREA_NAMES])
A_PUT_REST = CATALOGUE.add("put_rest", ["put_rest@port"])
A_KEEP = CATALOGUE.add("keep_in_reserve", ["keep_in_reserve"])
A_MARKET = CATALOGUE.add("fulfil_market", [f"fulfil:market_slot:{k}" for k in range(MARKET_SIZE)])
A_DAILY = CATALOGUE.add("fulfil_daily", [f"fulfil:daily:{k}" for k in range(DAILIES_PER_PLAYER)])
A_AT = CATALOGUE.add("fulfil_area", [f"at@{a}" for a in AREA_NAMES])
A_FROM = CATALOGUE.add("transport_from", [f"transport_from@{a}" for a in AREA_NAMES])
A_TO = CATALOGUE.add("transport_to", [f"transport_to@{a}" for a in AREA_NAMES])
A_KIND = CATALOGUE.add("transport_kind", [f"transport_kind:{k}" for k in KINDS])
A_DONE = CATALOGUE.add("transport_done", ["transport_done"])
A_UPGRADE = CATALOGUE.add("upgrade", [f"upgrade:{c}" for c in COLOURS])
A_SKIP = CATALOGUE.add("skip", ["skip"])
A_GROW = CATALOGUE.add("grow", [f"grow:{t}" for t in TRACKS])
A_MARKER = CATALOGUE.add("marker", [f"marker@{p}" for p in POSITION_NAMES])

ACTION_NAMES: tuple[str, ...] = CATALOGUE.names
NUM_ACTIONS = CATALOGUE.size

assert A_PUT + NUM_AREAS == A_PUT_REST and A_MARKER + NUM_DISTRICTS == NUM_ACTIONS
