"""Set-up: build the city, deal the dailies, lay out the market, pick companies.

Rules (RULES.md, "Set-up"):
- the nine districts go at random into the diamond; the port goes to the
  lowest-numbered figure position touching no terminal district (variant
  distance_coins: always figure position 1, and every district gets coins by
  its distance);
- each player gets 3 random dailies face up (variant shared_port_dailies: the
  same three port dailies for everybody); the other dailies leave the game;
- the request deck is shuffled and 6 cards form the market;
- in turn order from the start player (seat 0) each player picks a company
  and receives 3 base resources in its port warehouse and 5 in its reserve
  (research variant random_companies: each seat is dealt a distinct company at
  random instead, and the game opens at the start player's first main decision).
"""

from __future__ import annotations

from meeplezoo.envs.asian_delivery import layout as L
from meeplezoo.envs.asian_delivery.actions import D_COMPANY
from meeplezoo.envs.asian_delivery.board import NUM_DISTRICTS, PORT, PORT_TOUCH, port_position
from meeplezoo.envs.asian_delivery.data import (
    COINS_BY_DISTANCE,
    COMPANIES,
    DAILIES_PER_PLAYER,
    DISTRICTS,
    FIXED_PORT_POSITION,
    MARKERS,
    MARKET_SIZE,
    REQUESTS,
    START_PORT,
    START_RESERVE,
)
from meeplezoo.envs.asian_delivery.state import NK, AsianDeliveryState
from meeplezoo.envs.core.rng import new_rng


def new_state(game, seed: int | None) -> AsianDeliveryState:
    s = AsianDeliveryState(game)
    s.rng = rng = new_rng(seed)
    v = s.v
    n = s.n
    for field in (L.I_CARD, L.I_REQUEST, L.I_FROM, L.I_TO, L.I_UPCOLOUR, L.I_TRACK):
        v[field] = -1
    for k in range(9):
        v[L.I_SLOT_OWNER + k] = -1
    for p in range(L.MAX_PLAYERS):
        v[L.I_COMPANY_OF + p] = -1
    for p in range(n):
        v[L.seat(p) + L.S_PRESENT] = 1

    # the city
    layout = [int(d) for d in rng.permutation(NUM_DISTRICTS)]
    for pos, d in enumerate(layout):
        v[L.I_DISTRICT_AT + pos] = d
    terminal_at = [DISTRICTS[d].terminal for d in layout]
    if s.coins:
        v[L.I_PORT_POS] = FIXED_PORT_POSITION - 1
    else:
        v[L.I_PORT_POS] = port_position(terminal_at)
    s.derive_city()
    port_pos = v[L.I_PORT_POS]
    v[L.G_PORT_POS + port_pos] = 1
    for pos, d in enumerate(layout):
        district = DISTRICTS[d]
        v[L.G_POS_COLOUR + pos * 4 + district.colour] = 1
        v[L.G_POS_TERMINAL + pos] = int(district.terminal)
        v[L.G_POS_DISTANCE + pos] = s.dist[pos]
        v[L.G_POS_PORT_ADJ + pos] = int(pos in PORT_TOUCH[port_pos])
        if s.coins:
            v[L.G_POS_COINS + pos] = COINS_BY_DISTANCE[s.dist[pos]]

    # dailies
    if s.shared_dailies:
        hands = [list(range(DAILIES_PER_PLAYER)) for _ in range(n)]
    else:
        order = [int(d) for d in rng.permutation(len(s.daily_cards))]
        hands = [order[p * DAILIES_PER_PLAYER : (p + 1) * DAILIES_PER_PLAYER] for p in range(n)]
    for p, hand in enumerate(hands):
        base = L.seat(p)
        for k, d in enumerate(hand):
            card = s.daily_cards[d]
            v[L.I_DAILY_ID + p * DAILIES_PER_PLAYER + k] = d
            v[base + L.S_DAILY_PRESENT + k] = 1
            v[base + L.S_DAILY_UP + k] = 1
            v[base + L.S_DAILY_BASE + k] = card.base
            v[base + L.S_DAILY_VP + k] = card.vp

    # the request deck and the market
    s.deck = [int(c) for c in rng.permutation(len(REQUESTS))]
    for k in range(MARKET_SIZE):
        v[L.I_MARKET + k] = -1
        draw_into_slot(s, k)

    # companies on offer (their tracks are public)
    for c, company in enumerate(COMPANIES):
        v[L.G_COMPANY_FREE + c] = 1
        for t in range(4):
            v[L.G_CO_START + c * 4 + t] = company.tracks[t][0]
            v[L.G_CO_END + c * 4 + t] = company.tracks[t][-1]
            v[L.G_CO_MARKERS + c * 4 + t] = company.markers(t)

    v[L.I_START] = 0
    v[L.seat(0) + L.S_IS_START] = 1
    v[L.I_ROUND] = 0
    v[L.G_ROUND] = 1
    v[L.I_DECISION] = D_COMPANY
    v[L.G_DECISION + D_COMPANY] = 1
    v[L.I_CUR] = 0
    v[L.seat(0) + L.S_TO_MOVE] = 1
    if s.random_companies:
        deal_companies(s)
    return s


def draw_into_slot(s: AsianDeliveryState, k: int) -> None:
    """Refill market slot ``k`` from the deck (reshuffling the discards when
    the deck is empty); with neither, the slot stays empty."""
    v = s.v
    if not s.deck and s.discard:
        s.deck = [int(c) for c in s.rng.permutation(s.discard)]
        s.discard = []
    colour_block = L.G_MARKET_COLOUR + k * 4
    old = v[L.I_MARKET + k]
    if old >= 0:
        v[colour_block + REQUESTS[old].colour] = 0
    if s.deck:
        cid = s.deck.pop()
        card = REQUESTS[cid]
        v[L.I_MARKET + k] = cid
        v[L.G_MARKET_PRESENT + k] = 1
        v[colour_block + card.colour] = 1
        v[L.G_MARKET_BASE + k] = card.base
        v[L.G_MARKET_ADV + k] = card.advanced
        v[L.G_MARKET_VP + k] = card.vp
    else:
        v[L.I_MARKET + k] = -1
        v[L.G_MARKET_PRESENT + k] = 0
        v[L.G_MARKET_BASE + k] = 0
        v[L.G_MARKET_ADV + k] = 0
        v[L.G_MARKET_VP + k] = 0
    v[L.G_DECK] = len(s.deck)
    v[L.G_DISCARD] = len(s.discard)


def take_company(s: AsianDeliveryState, p: int, c: int) -> None:
    """Player ``p`` takes company ``c``: tracks at their start, 11 markers on the
    board, 3 base resources in the port warehouse and 5 in the reserve."""
    v = s.v
    base = L.seat(p)
    company = COMPANIES[c]
    v[L.I_COMPANY_OF + p] = c
    v[base + L.S_COMPANY + c] = 1
    v[L.G_COMPANY_FREE + c] = 0
    for t in range(4):
        track = company.tracks[t]
        v[L.I_TRACK_STEP + p * 4 + t] = 0
        v[base + L.S_TRACK + t] = track[0]
        v[base + L.S_TRACK_NEXT + t] = track[1] if len(track) > 1 else track[0]
        v[base + L.S_TRACK_MARKERS + t] = len(track) - 1
    v[base + L.S_MARKERS_ON_BOARD] = MARKERS
    v[base + L.S_WH + PORT * NK] += START_PORT
    v[base + L.S_RESERVE] += START_RESERVE
    v[L.I_RECEIVED + p] += START_PORT + START_RESERVE


def deal_companies(s: AsianDeliveryState) -> None:
    """Variant random_companies: deal each seat a distinct company at random (the
    state's rng, after the market), so a company agents never choose still gets
    played; then round 1 begins exactly as after the last choice."""
    for p, c in enumerate(s.rng.permutation(len(COMPANIES))[: s.n]):
        take_company(s, p, int(c))
    s.game.start_round_one(s)  # the rules module sits above this one
