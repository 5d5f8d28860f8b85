"""The rules object: from the pending decision kind to its legal actions and its effect."""

from __future__ import annotations

from meeplezoo.envs.asian_delivery import layout as L
from meeplezoo.envs.asian_delivery import round_end, turn
from meeplezoo.envs.asian_delivery.actions import A_COMPANY, D_COMPANY, DECISIONS
from meeplezoo.envs.asian_delivery.data import COMPANIES
from meeplezoo.envs.asian_delivery.setup import take_company
from meeplezoo.envs.asian_delivery.state import AsianDeliveryState
from meeplezoo.envs.core.rules import Choice, Rules


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


# per decision kind (``actions.DECISIONS``, in order): its legal actions and its effect
_BY_DECISION = (
    (legal_company, do_company),
    (turn.legal_main, turn.do_main),
    (turn.legal_place, turn.do_place),
    (turn.legal_request, turn.do_request),
    (turn.legal_fulfil_area, turn.do_fulfil_area),
    (turn.legal_from, turn.do_from),
    (turn.legal_to, turn.do_to),
    (turn.legal_kind, turn.do_kind),
    (turn.legal_upgrade, turn.do_upgrade),
    (round_end.legal_grow_track, round_end.do_grow_track),
    (round_end.legal_grow_marker, round_end.do_grow_marker),
)
assert len(_BY_DECISION) == len(DECISIONS) == D_COMPANY + 11


def build_rules() -> Rules:
    """The game's rules object: one ``Choice`` per decision kind, by its number (the game
    builds it once, ``AsianDeliveryGame.build_rules``; every state reads it there)."""
    return Rules(choices=tuple(Choice(name, legal, apply)
                               for name, (legal, apply) in zip(DECISIONS, _BY_DECISION)))
