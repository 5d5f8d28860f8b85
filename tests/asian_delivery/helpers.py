"""Helpers for setting up positions in the rule tests."""

from __future__ import annotations

from meeplezoo.envs.asian_delivery import layout as L
from meeplezoo.envs.asian_delivery.actions import ACTION_NAMES, D_MAIN, D_PLACE, D_UPGRADE
from meeplezoo.envs.asian_delivery.board import PORT
from meeplezoo.envs.asian_delivery.data import COMPANIES, REQUESTS
from meeplezoo.envs.asian_delivery.game import AsianDeliveryGame
from meeplezoo.envs.asian_delivery.state import NK, AsianDeliveryState

KIND = {"base": 0, "red": 1, "blue": 2, "yellow": 3, "green": 4}
COMPANY = {c.key: i for i, c in enumerate(COMPANIES)}


def act(s: AsianDeliveryState, *names: str) -> None:
    """Play actions by name (checked for legality by ``apply``)."""
    for name in names:
        s.apply(ACTION_NAMES.index(name))


def legal(s: AsianDeliveryState) -> set[str]:
    return {ACTION_NAMES[a] for a in s.legal_actions()}


def started(
    n: int = 4, seed: int = 0, companies: list[str] | None = None, **options
) -> AsianDeliveryState:
    """A game after the company choice: round 1, seat 0 to place a worker."""
    s = AsianDeliveryGame(n, **options).new_initial_state(seed)
    keys = companies or [c.key for c in COMPANIES][:n]
    for key in keys:
        act(s, f"choose_company:{key}")
    assert s.v[L.I_DECISION] == D_MAIN and s.current_player() == 0
    return s


def wh(s: AsianDeliveryState, p: int, area: int, kind: str = "base") -> int:
    return s.v[L.seat(p) + L.S_WH + area * NK + KIND[kind]]


def set_wh(s: AsianDeliveryState, p: int, area: int, kind: str, count: int) -> None:
    """Set a warehouse count, keeping the supply bookkeeping consistent."""
    at = L.seat(p) + L.S_WH + area * NK + KIND[kind]
    s.v[L.I_RECEIVED + p] += count - s.v[at]
    s.v[at] = count


def clear_warehouses(s: AsianDeliveryState, p: int) -> None:
    for area in range(PORT + 1):
        for kind in KIND:
            set_wh(s, p, area, kind, 0)
    s.v[L.I_RECEIVED + p] -= s.v[L.seat(p) + L.S_RESERVE]
    s.v[L.seat(p) + L.S_RESERVE] = 0
    s._mask = None


def _write_slot(s: AsianDeliveryState, k: int, cid: int) -> None:
    v = s.v
    old = v[L.I_MARKET + k]
    if old >= 0:
        v[L.G_MARKET_COLOUR + k * 4 + REQUESTS[old].colour] = 0
    card = REQUESTS[cid]
    v[L.I_MARKET + k] = cid
    v[L.G_MARKET_PRESENT + k] = 1
    v[L.G_MARKET_COLOUR + k * 4 + card.colour] = 1
    v[L.G_MARKET_BASE + k] = card.base
    v[L.G_MARKET_ADV + k] = card.advanced
    v[L.G_MARKET_VP + k] = card.vp


def request_id(name: str) -> int:
    return next(i for i, r in enumerate(REQUESTS) if r.name == name)


def set_market(s: AsianDeliveryState, k: int, name: str) -> int:
    """Put the request called ``name`` into market slot ``k``; the card it
    replaces goes where the named card was (deck or another slot)."""
    cid = request_id(name)
    v = s.v
    current = v[L.I_MARKET + k]
    if current == cid:
        return cid
    slots = [v[L.I_MARKET + j] for j in range(6)]
    if cid in slots:
        _write_slot(s, slots.index(cid), current)
    elif current >= 0:
        s.deck[s.deck.index(cid)] = current
    else:
        s.deck.remove(cid)
        v[L.G_DECK] = len(s.deck)
    _write_slot(s, k, cid)
    s._mask = None
    return cid


def place_gained_at_port(s: AsianDeliveryState) -> None:
    """Finish a placement step: the base gained by this placement goes into the
    port warehouse (it must be placed), the set-up reserve is kept."""
    while s.v[L.I_GAIN_TO_PLACE] > 0:
        act(s, "put_base@port")
    if s.v[L.I_DECISION] == D_PLACE:
        act(s, "keep_in_reserve")


def spend_workers(s: AsianDeliveryState) -> None:
    """Every player places its remaining workers on the upgrade card (gained
    base into the port) and forgoes the upgrades, until the main phase is over
    (there is no voluntary pass: a player passes when its workers run out)."""
    while s.v[L.I_DECISION] == D_MAIN and not s.is_terminal():
        act(s, "place_worker:upgrade")
        place_gained_at_port(s)
        while s.v[L.I_DECISION] == D_UPGRADE:
            act(s, "skip")


def finish_round(s: AsianDeliveryState) -> None:
    """Workers spent as in ``spend_workers``; growth takes the first legal
    choices; stops at the next round's first turn (or the end of the game)."""
    spend_workers(s)
    while not s.is_terminal() and s.v[L.I_DECISION] != D_MAIN:
        s.apply(s.legal_actions()[0])


def workers(s: AsianDeliveryState, p: int) -> int:
    return s.v[L.seat(p) + L.S_WORKERS]


def reserve(s: AsianDeliveryState, p: int) -> int:
    return s.v[L.seat(p) + L.S_RESERVE]


def vp(s: AsianDeliveryState, p: int) -> int:
    return s.v[L.seat(p) + L.S_VP]
