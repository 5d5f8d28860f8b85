"""The main phase: turns, worker placement, base placement and the three actions.

Each public ``legal_*`` function lists the legal actions of one decision kind;
each ``do_*`` function plays one.  Forced steps resolve on their own: a player
without workers passes (the only pass: the draft names no voluntary one), and
an action step where nothing is possible ends the placement (the draft: "the
action is simply wasted").
"""

from __future__ import annotations

from array import array

from meeplezoo.envs.asian_delivery import layout as L
from meeplezoo.envs.asian_delivery.actions import (
    A_AT,
    A_DAILY,
    A_DONE,
    A_FROM,
    A_KEEP,
    A_KIND,
    A_MARKET,
    A_PLACE_WORKER,
    A_PUT,
    A_PUT_REST,
    A_SKIP,
    A_TO,
    A_UPGRADE,
    D_FROM,
    D_FULFIL_AREA,
    D_KIND,
    D_MAIN,
    D_PLACE,
    D_REQUEST,
    D_TO,
    D_UPGRADE,
    FULFIL,
    TRANSPORT,
)
from meeplezoo.envs.asian_delivery.board import NUM_AREAS, NUM_DISTRICTS, PORT
from meeplezoo.envs.asian_delivery.data import (
    COIN_VP,
    DAILIES_PER_PLAYER,
    MARKET_SIZE,
    REQUESTS,
    SLOT_ACTIONS,
    SLOT_GAIN,
    SLOTS,
    WAREHOUSE,
)
from meeplezoo.envs.asian_delivery.data import (
    TRANSPORT as T_TRANSPORT,
)
from meeplezoo.envs.asian_delivery.setup import draw_into_slot
from meeplezoo.envs.asian_delivery.state import NK, AsianDeliveryState, mask_of

CAT_REQUEST, CAT_STEPS, CAT_INTEREST, CAT_COINS = 0, 1, 2, 3
# no voluntary pass: ``pass`` stays in the catalogue but is never legal
_MAIN_LEGAL = [A_PLACE_WORKER, A_PLACE_WORKER + 1, A_PLACE_WORKER + 2]
_ALL_AREAS = tuple(range(NUM_AREAS))
_PORT_ONLY = (PORT,)
_ZERO_PLACED = array("i", [0] * NUM_DISTRICTS)


# -- turn order ------------------------------------------------------------------------
def start_main_phase(s: AsianDeliveryState) -> None:
    """Round start: nobody has passed; the start player acts first."""
    v = s.v
    for p in range(s.n):
        v[L.seat(p) + L.S_PASSED] = 0
    next_turn(s, v[L.I_START], include_self=True)


def next_turn(s: AsianDeliveryState, after: int, include_self: bool = False) -> None:
    """Give the turn to the next player clockwise who has not passed.

    A player with no worker left must pass, so it is passed on the spot.
    When everybody has passed the round ends.
    """
    v = s.v
    n = s.n
    for k in range(0 if include_self else 1, n + 1):
        q = (after + k) % n
        base = L.seat(q)
        if v[base + L.S_PASSED]:
            continue
        if v[base + L.S_WORKERS] == 0:
            v[base + L.S_PASSED] = 1
            continue
        s.set_current(q)
        s.set_decision(D_MAIN)
        return
    s.game.end_round(s)  # the round-end rules sit above the turn (the game wires them)


def legal_main(s: AsianDeliveryState) -> list[int]:
    """Place a worker; never empty: a card is never full between turns, and a
    player without workers was passed by ``next_turn`` before being asked."""
    return _MAIN_LEGAL


def do_main(s: AsianDeliveryState, action: int) -> None:
    v = s.v
    p = v[L.I_CUR]
    base = L.seat(p)
    card = action - A_PLACE_WORKER
    slot = v[L.G_OCCUPANCY + card]  # the leftmost empty slot
    v[L.G_OCCUPANCY + card] = slot + 1
    v[L.I_SLOT_OWNER + card * SLOTS + slot] = p
    v[base + L.S_WORKERS] -= 1
    s.set_onehot(L.I_CARD, L.G_CARD, card)
    v[L.G_ACTIONS_LEFT] = SLOT_ACTIONS[slot]
    gain = SLOT_GAIN[slot]
    v[base + L.S_RESERVE] += gain  # gained base joins the reserve, placed from there
    v[L.I_GAIN_TO_PLACE] = gain  # ... all of it before the actions
    v[L.I_RECEIVED + p] += gain
    if v[base + L.S_RESERVE] > 0:
        s.set_decision(D_PLACE)
    else:
        start_action(s)


# -- placing base resources ----------------------------------------------------------------
def legal_place(s: AsianDeliveryState) -> list[int]:
    """Where one base may go; ``keep_in_reserve`` only once the gained base is
    placed (only the set-up base may wait in the reserve)."""
    v = s.v
    base = L.seat(v[L.I_CUR])
    wh = base + L.S_WH
    cap = v[base + L.S_TRACK + WAREHOUSE]
    legal = []
    for d in range(NUM_DISTRICTS):
        if v[L.G_PLACED + d] <= v[L.G_POS_TERMINAL + d]:  # 1, or 2 with a terminal icon
            start = wh + d * NK
            total = sum(v[start : start + NK])
            if 0 < total < cap:
                legal.append(A_PUT + d)
    legal += (A_PUT + PORT, A_PUT_REST)
    if v[L.I_GAIN_TO_PLACE] == 0:
        legal.append(A_KEEP)
    return legal


def do_place(s: AsianDeliveryState, action: int) -> None:
    v = s.v
    p = v[L.I_CUR]
    base = L.seat(p)
    if action == A_KEEP:
        finish_placing(s)
        return
    if action == A_PUT_REST:
        v[base + L.S_WH + PORT * NK] += v[base + L.S_RESERVE]
        v[base + L.S_RESERVE] = 0
        finish_placing(s)
        return
    area = action - A_PUT
    v[base + L.S_WH + area * NK] += 1
    v[base + L.S_RESERVE] -= 1
    if v[L.I_GAIN_TO_PLACE] > 0:  # base is fungible: the first placed count as gained
        v[L.I_GAIN_TO_PLACE] -= 1
    if area != PORT:
        v[L.G_PLACED + area] += 1
    if v[base + L.S_RESERVE] == 0:
        finish_placing(s)


def finish_placing(s: AsianDeliveryState) -> None:
    s.v[L.G_PLACED : L.G_PLACED + NUM_DISTRICTS] = _ZERO_PLACED
    s.v[L.I_GAIN_TO_PLACE] = 0
    start_action(s)


# -- the action steps --------------------------------------------------------------------------
_CARD_DECISION = (D_REQUEST, D_FROM, D_UPGRADE)


def start_action(s: AsianDeliveryState) -> None:
    """Open the next action of the placement, or end the turn when none is left
    or nothing is possible (the remaining actions are wasted)."""
    v = s.v
    if v[L.G_ACTIONS_LEFT] > 0:
        s.set_decision(_CARD_DECISION[v[L.I_CARD]])
        legal = _LEGAL_START[v[L.I_CARD]](s)
        if len(legal) > 1:
            s._mask = mask_of(s.game, legal)
            return
    end_turn(s)


def end_turn(s: AsianDeliveryState) -> None:
    """After the actions: a full action card sends all its workers to the stock."""
    v = s.v
    card = v[L.I_CARD]
    if v[L.G_OCCUPANCY + card] == SLOTS:
        v[L.G_OCCUPANCY + card] = 0
        for k in range(SLOTS):
            v[L.I_SLOT_OWNER + card * SLOTS + k] = -1
    s.set_onehot(L.I_CARD, L.G_CARD, -1)
    s.set_onehot(L.I_UPCOLOUR, L.G_UPCOLOUR, -1)
    v[L.G_ACTIONS_LEFT] = 0
    next_turn(s, v[L.I_CUR])


def skip(s: AsianDeliveryState) -> None:
    """Forgo the remaining actions of this placement."""
    s.v[L.G_ACTIONS_LEFT] = 0
    end_turn(s)


def action_done(s: AsianDeliveryState) -> None:
    s.v[L.G_ACTIONS_LEFT] -= 1
    start_action(s)


# -- fulfil --------------------------------------------------------------------------------------
def _payable_areas(s: AsianDeliveryState, p: int, k: int) -> list[int]:
    v = s.v
    wh = L.seat(p) + L.S_WH
    colour, need_base, need_adv, _ = s.request_of(p, k)
    if colour < 0:
        areas = _PORT_ONLY if s.shared_dailies else _ALL_AREAS
        return [a for a in areas if v[wh + a * NK] >= need_base]
    return [
        a
        for a in s.colour_positions[colour]
        if v[wh + a * NK] >= need_base and v[wh + a * NK + 1 + colour] >= need_adv
    ]


def legal_request(s: AsianDeliveryState) -> list[int]:
    v = s.v
    p = v[L.I_CUR]
    base = L.seat(p)
    wh = base + L.S_WH
    legal = []
    for k in range(MARKET_SIZE):
        cid = v[L.I_MARKET + k]
        if cid < 0:
            continue
        card = REQUESTS[cid]
        c = card.colour
        for a in s.colour_positions[c]:
            if v[wh + a * NK] >= card.base and v[wh + a * NK + 1 + c] >= card.advanced:
                legal.append(A_MARKET + k)
                break
    best_base = -1
    areas = _PORT_ONLY if s.shared_dailies else _ALL_AREAS
    for a in areas:
        if v[wh + a * NK] > best_base:
            best_base = v[wh + a * NK]
    for k in range(DAILIES_PER_PLAYER):
        if v[base + L.S_DAILY_UP + k] and v[base + L.S_DAILY_BASE + k] <= best_base:
            legal.append(A_DAILY + k)
    legal.append(A_SKIP)
    return legal


def do_request(s: AsianDeliveryState, action: int) -> None:
    if action == A_SKIP:
        skip(s)
        return
    s.set_onehot(L.I_REQUEST, L.G_REQUEST, action - A_MARKET)
    s.set_decision(D_FULFIL_AREA)


def legal_fulfil_area(s: AsianDeliveryState) -> list[int]:
    v = s.v
    return [A_AT + a for a in _payable_areas(s, v[L.I_CUR], v[L.I_REQUEST])]


def do_fulfil_area(s: AsianDeliveryState, action: int) -> None:
    """Pay the request in the area; score VP + steps (or a coin) + own markers there."""
    v = s.v
    p = v[L.I_CUR]
    base = L.seat(p)
    k = v[L.I_REQUEST]
    area = action - A_AT
    colour, need_base, need_adv, vp = s.request_of(p, k)
    at = base + L.S_WH + area * NK
    v[at] -= need_base
    if need_adv:
        v[at + 1 + colour] -= need_adv
    v[L.I_RETURNED + p] += need_base + need_adv
    s.gain_vp(p, CAT_REQUEST, vp)
    if area != PORT:
        if s.coins:
            if v[L.G_POS_COINS + area] > 0:
                v[L.G_POS_COINS + area] -= 1
                s.gain_vp(p, CAT_COINS, COIN_VP)
        else:
            s.gain_vp(p, CAT_STEPS, s.dist[area])
        markers = v[base + L.S_MARKERS + area]
        if markers:
            s.gain_vp(p, CAT_INTEREST, markers)
    if k < MARKET_SIZE:
        cid = v[L.I_MARKET + k]
        s.completed[p].append(cid)
        v[base + L.S_COMPLETED + colour] += 1
        v[base + L.S_COMPLETED_TOTAL] += 1
        draw_into_slot(s, k)
    else:
        v[base + L.S_DAILY_UP + k - MARKET_SIZE] = 0
    s.set_onehot(L.I_REQUEST, L.G_REQUEST, -1)
    action_done(s)


# -- transport -----------------------------------------------------------------------------------
def _has_room(s: AsianDeliveryState, wh: int, cap: int, area: int) -> bool:
    if area == PORT:
        return True
    v = s.v
    start = wh + area * NK
    return sum(v[start : start + NK]) < cap


def legal_from(s: AsianDeliveryState) -> list[int]:
    v = s.v
    base = L.seat(v[L.I_CUR])
    wh = base + L.S_WH
    cap = v[base + L.S_TRACK + WAREHOUSE]
    totals = [sum(v[wh + a * NK : wh + a * NK + NK]) for a in range(NUM_AREAS)]
    legal = []
    for a in range(NUM_AREAS):
        if totals[a] > 0:
            for b in s.neigh[a]:
                if b == PORT or totals[b] < cap:
                    legal.append(A_FROM + a)
                    break
    legal.append(A_SKIP)
    return legal


def do_from(s: AsianDeliveryState, action: int) -> None:
    if action == A_SKIP:
        skip(s)
        return
    s.set_onehot(L.I_FROM, L.G_FROM, action - A_FROM)
    s.set_decision(D_TO)


def legal_to(s: AsianDeliveryState) -> list[int]:
    v = s.v
    base = L.seat(v[L.I_CUR])
    wh = base + L.S_WH
    cap = v[base + L.S_TRACK + WAREHOUSE]
    return [A_TO + b for b in s.neigh[v[L.I_FROM]] if _has_room(s, wh, cap, b)]


def do_to(s: AsianDeliveryState, action: int) -> None:
    s.set_onehot(L.I_TO, L.G_TO, action - A_TO)
    s.v[L.G_MOVED] = 0
    s.set_decision(D_KIND)


def legal_kind(s: AsianDeliveryState) -> list[int]:
    v = s.v
    start = L.seat(v[L.I_CUR]) + L.S_WH + v[L.I_FROM] * NK
    legal = [A_KIND + r for r in range(NK) if v[start + r] > 0]
    if v[L.G_MOVED] > 0:
        legal.append(A_DONE)
    return legal


def do_kind(s: AsianDeliveryState, action: int) -> None:
    """Move one resource; the transport ends at its capacity, when the source is
    empty, when the destination is full, or on ``transport_done``."""
    v = s.v
    if action != A_DONE:
        base = L.seat(v[L.I_CUR])
        wh = base + L.S_WH
        src, dst = v[L.I_FROM], v[L.I_TO]
        kind = action - A_KIND
        v[wh + src * NK + kind] -= 1
        v[wh + dst * NK + kind] += 1
        moved = v[L.G_MOVED] + 1
        v[L.G_MOVED] = moved
        if (
            moved < v[base + L.S_TRACK + T_TRANSPORT]
            and sum(v[wh + src * NK : wh + src * NK + NK]) > 0
            and _has_room(s, wh, v[base + L.S_TRACK + WAREHOUSE], dst)
        ):
            return
    s.set_onehot(L.I_FROM, L.G_FROM, -1)
    s.set_onehot(L.I_TO, L.G_TO, -1)
    v[L.G_MOVED] = 0
    action_done(s)


# -- upgrade ---------------------------------------------------------------------------------------
def legal_upgrade(s: AsianDeliveryState) -> list[int]:
    v = s.v
    if v[L.seat(v[L.I_CUR]) + L.S_WH + PORT * NK] == 0:
        return [A_SKIP]
    chosen = v[L.I_UPCOLOUR]
    if chosen >= 0:  # all upgrades of one placement are of one colour
        return [A_UPGRADE + chosen, A_SKIP]
    return [A_UPGRADE, A_UPGRADE + 1, A_UPGRADE + 2, A_UPGRADE + 3, A_SKIP]


def do_upgrade(s: AsianDeliveryState, action: int) -> None:
    if action == A_SKIP:
        skip(s)
        return
    v = s.v
    p = v[L.I_CUR]
    colour = action - A_UPGRADE
    port = L.seat(p) + L.S_WH + PORT * NK
    v[port] -= 1
    v[port + 1 + colour] += 1
    v[L.I_RETURNED + p] += 1
    v[L.I_RECEIVED + p] += 1
    if v[L.I_UPCOLOUR] < 0:
        s.set_onehot(L.I_UPCOLOUR, L.G_UPCOLOUR, colour)
    action_done(s)


_LEGAL_START = {FULFIL: legal_request, TRANSPORT: legal_from, 2: legal_upgrade}
