"""Dispatch from the pending decision kind to its legal actions and its effect."""

from __future__ import annotations

from meeplezoo.envs.asian_delivery import layout as L
from meeplezoo.envs.asian_delivery import round_end, turn
from meeplezoo.envs.asian_delivery.actions import A_COMPANY, D_COMPANY
from meeplezoo.envs.asian_delivery.data import COMPANIES
from meeplezoo.envs.asian_delivery.setup import take_company
from meeplezoo.envs.asian_delivery.state import AsianDeliveryState


def legal_company(s: AsianDeliveryState) -> list[int]:
    v = s.v
    return [A_COMPANY + c for c in range(len(COMPANIES)) if v[L.G_COMPANY_FREE + c]]


def do_company(s: AsianDeliveryState, action: int) -> None:
    """Companies are chosen in turn order from the start player; after the last
    choice round 1 begins."""
    v = s.v
    p = v[L.I_CUR]
    take_company(s, p, action - A_COMPANY)
    if p + 1 < s.n:
        s.set_current(p + 1)
        return
    start_round_one(s)


def start_round_one(s: AsianDeliveryState) -> None:
    """Once every seat has a company (chosen, or dealt by ``random_companies``):
    available workers = worker level, and the start player opens the main phase."""
    v = s.v
    for q in range(s.n):
        base = L.seat(q)
        v[base + L.S_WORKERS] = v[base + L.S_TRACK + 3]
    turn.start_main_phase(s)


LEGAL = (
    legal_company,
    turn.legal_main,
    turn.legal_place,
    turn.legal_request,
    turn.legal_fulfil_area,
    turn.legal_from,
    turn.legal_to,
    turn.legal_kind,
    turn.legal_upgrade,
    round_end.legal_grow_track,
    round_end.legal_grow_marker,
)
APPLY = (
    do_company,
    turn.do_main,
    turn.do_place,
    turn.do_request,
    turn.do_fulfil_area,
    turn.do_from,
    turn.do_to,
    turn.do_kind,
    turn.do_upgrade,
    round_end.do_grow_track,
    round_end.do_grow_marker,
)
assert len(LEGAL) == len(APPLY) == D_COMPANY + 11


def legal_actions(s: AsianDeliveryState) -> list[int]:
    return LEGAL[s.v[L.I_DECISION]](s)


def apply_action(s: AsianDeliveryState, action: int) -> None:
    APPLY[s.v[L.I_DECISION]](s, action)
