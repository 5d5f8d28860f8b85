"""Workers, companies built and staffed: Build Company (§3.7), and staffing a company from
one class's unemployed workers (``STAFF``: a company CC builds, a public company revealed by
p1, a company a card builds for a class).

Every compound choice is a chain of small decisions (rules page §14, §12 #39), each offered
only if the rest of the chain can still be completed:

- Build Company: a ``market`` card, a ``wage`` level (when the company has one), then the staff:
  MC's own MC workers (sources as in Assign Workers) and an optional WC employee; CC a
  ``class`` (or ``no``) whose unemployed fill every slot, then ``STAFF``.
- ``STAFF`` (pushed by ``push_staffing``, also for p1 reveals and cards): skilled slots and, while
  any are unemployed, unskilled workers in U slots are placed by force [P FAQ]; a U slot with no
  unskilled worker left asks the decider for a skilled ``industry``.

Card modifiers (§11.1, read with ``effects_basic``): price modifiers through
``effects_basic.can_afford_purchase`` / ``pay_purchase``, ``industry_filter``, and
``search_deck`` (a ``deck_card`` of the own deck instead of a market card; ``effects_basic``
shuffles the deck after).

It sits above ``workers``, whose slot matching it uses and whose ``ASSIGN_SLOT`` /
``ASSIGN_END`` steps finish a build; ``politics`` staffs a revealed public company through it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeplezoo.envs.core.agenda import Decision, Item, Step
from meeplezoo.envs.hegemony import board, effects_basic
from meeplezoo.envs.hegemony import codes as K
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony.actions import CC, CC_SEATS, MAX_SLOTS, MC, MC_SEATS, WC, blocks
from meeplezoo.envs.hegemony.effects_terms import INDUSTRY_OF
from meeplezoo.envs.hegemony.state import KINDS, worker
from meeplezoo.envs.hegemony.workers import (
    ASSIGN_END,
    ASSIGN_SLOT,
    INDUSTRY_COUNT,
    NO,
    begin_action,
    can_fill,
    class_slots,
    place,
    slot_req,
    worker_counts,
)

if TYPE_CHECKING:
    from meeplezoo.envs.hegemony.state import HegemonyState

# Agenda codes (codes.WORKERS is 20-39; STAFF = 20 is fixed in codes.py)
BUILD_CARD = 24      # decision: which market card to build
BUILD_WAGE = 25      # decision: the new company's wage level (arg: seat)
BUILD_EMPLOYEE = 26  # decision: MC's optional WC employee (arg: seat)
BUILD_CLASS = 27     # decision: which class staffs CC's new company, or none (arg: seat)

STAFF_CLASS_STRIDE = 64  # STAFF arg = cls * 64 + seat
OWN_SEATS = {MC: MC_SEATS, CC: CC_SEATS}


# -- staffing from the unemployed (STAFF) ---------------------------------------------------------
def _staff_plan(st: HegemonyState, seat: int, cls: int,
                ) -> tuple[list[tuple[int, int]], list[int], list[int]]:
    """(forced placements (slot, kind), U slots still to choose, unemployed counts left):
    skilled slots take their kind, U slots unskilled workers while any are left [P FAQ]."""
    card = D.COMPANIES[st.seat_card[seat]]
    counts = list(st.unemployed[cls])
    forced: list[tuple[int, int]] = []
    open_slots: list[int] = []
    empty = [k for k in class_slots(card, cls) if st.seat_workers[seat][k] == NO]
    for k in empty:
        req = slot_req(card.slots[k])
        if req is not None:
            forced.append((k, req))
            counts[req] -= 1
    for k in empty:
        if slot_req(card.slots[k]) is None:
            if counts[0] > 0:
                forced.append((k, 0))
                counts[0] -= 1
            else:
                open_slots.append(k)
    return forced, open_slots, counts


def can_staff(st: HegemonyState, seat: int, cls: int) -> bool:
    """Whether ``cls``'s unemployed workers can fill every slot of the (empty) company in
    ``seat`` that the class may work in."""
    card = board.card(st, seat)
    if card is None or cls not in (WC, MC):
        return False
    slots = class_slots(card, cls)
    if not slots or any(st.seat_workers[seat][k] != NO for k in slots):
        return False
    return can_fill([slot_req(card.slots[k]) for k in slots], st.unemployed[cls])


def push_staffing(st: HegemonyState, decider: int, seat: int, cls: int, *,
                  built: bool = False) -> None:
    """Push the STAFF decision that fills every slot of ``seat`` from ``cls``'s unemployed
    workers (committed); ``decider`` picks the skilled workers for U slots when no unskilled
    one is left.  ``built``: the company was just built (the §3.6 published variant then
    re-checks the Demonstration token after a WC staffing).  The caller checked ``can_staff``."""
    if built and cls == WC:
        st.ctx["workers_built_wc"] = 1
    st.push((K.STAFF, decider, cls * STAFF_CLASS_STRIDE + seat))


def _place_forced(st: HegemonyState, seat: int, cls: int,
                  forced: list[tuple[int, int]]) -> None:
    for k, kind in forced:
        st.unemployed[cls][kind] -= 1
        place(st, seat, k, worker(cls, kind))


def _legal_staff(st: HegemonyState, item: Item) -> list[int]:
    cls, seat = divmod(item[2], STAFF_CLASS_STRIDE)
    _forced, open_slots, counts = _staff_plan(st, seat, cls)
    if not open_slots:
        return []  # nothing to choose: ``finish`` places the forced workers
    first = blocks(item[1]).industry
    return [first + i for i in range(INDUSTRY_COUNT) if counts[1 + i] > 0]


def _apply_staff(st: HegemonyState, item: Item, action: int) -> None:
    cls, seat = divmod(item[2], STAFF_CLASS_STRIDE)
    forced, open_slots, _counts_left = _staff_plan(st, seat, cls)
    _place_forced(st, seat, cls, forced)
    kind = 1 + action - blocks(item[1]).industry
    st.unemployed[cls][kind] -= 1
    place(st, seat, open_slots[0], worker(cls, kind))
    if len(open_slots) == 1:
        st.agenda.pop()


def _finish_staff(st: HegemonyState, item: Item) -> None:
    cls, seat = divmod(item[2], STAFF_CLASS_STRIDE)
    forced, _open, _counts_left = _staff_plan(st, seat, cls)
    _place_forced(st, seat, cls, forced)


# -- Build Company (§3.7) ------------------------------------------------------------------------
def min_wage(st: HegemonyState) -> int:
    """The lowest legal wage level under p2 (§5.4)."""
    return D.MIN_WAGE_LEVEL[st.policies[1]]


def _market(st: HegemonyState, cls: int) -> list[int]:
    return st.mc_market if cls == MC else st.cc_market


def free_seat(st: HegemonyState, cls: int) -> int:
    """The first empty company space of the class (-1 at its limit: MC 8, CC 12)."""
    for seat in OWN_SEATS[cls]:
        if st.seat_card[seat] < 0:
            return seat
    return -1


# ``search_deck``: the ``deck_card`` block lists the sector's companies in ``D.COMPANIES`` order.
DECK_CARDS = {cls: tuple(c.index for c in D.COMPANIES if c.sector == sector)
              for cls, sector in ((MC, "mc"), (CC, "cc"))}
DECK_OFFSET = {cls: {index: k for k, index in enumerate(cards)}
               for cls, cards in DECK_CARDS.items()}


def _deck(st: HegemonyState, cls: int) -> list[int]:
    return st.mc_deck if cls == MC else st.cc_deck


def _buildable(st: HegemonyState, cls: int, first: bool = False) -> list[int]:
    """Market positions the class can build now: affordable without a loan and, for MC, with
    its required MC workers available (unemployed or movable).  Under a card: its price
    modifiers (``effects_basic.can_afford_purchase``), its ``industry_filter``, and with
    ``search_deck`` the ``deck_card`` offsets of the own deck's companies instead.  ``first``:
    one is enough (the order then is not the offered one)."""
    if free_seat(st, cls) < 0:
        return []
    mods = effects_basic.active_mods(st)
    industries = mods.get("industry_filter")
    allowed = None if industries is None else {INDUSTRY_OF[n] for n in industries}
    movable: list[list[int]] = []  # MC's workers by kind, movable ones too: found when needed

    def ok(index: int) -> bool:
        card = D.COMPANIES[index]
        if allowed is not None and card.industry not in allowed:
            return False
        if not effects_basic.can_afford_purchase(st, cls, card.cost):
            return False
        if cls != MC:
            return True
        reqs = [slot_req(s) for s in card.slots if s.mc]
        if can_fill(reqs, st.unemployed[MC]):  # the movable workers only add to them
            return True
        if not movable:
            movable.append(worker_counts(st, MC))
        return can_fill(reqs, movable[0])

    if mods.get("search_deck"):
        indexes = set(_deck(st, cls))
        if first:
            return [0] if any(ok(index) for index in indexes) else []
        return sorted({DECK_OFFSET[cls][index] for index in indexes if ok(index)})
    if first:
        return [0] if any(ok(index) for index in _market(st, cls)) else []
    return [k for k, index in enumerate(_market(st, cls)) if ok(index)]


def _can_build(st: HegemonyState, cls: int) -> bool:
    return bool(_buildable(st, cls, first=True))


def _start_build(st: HegemonyState, cls: int) -> None:
    begin_action(st)
    st.push((BUILD_CARD, cls, 0), (ASSIGN_END, cls, 0))


def _legal_build_card(st: HegemonyState, item: Item) -> list[int]:
    b = blocks(item[1])
    first = b.deck_card if effects_basic.mod(st, "search_deck") else b.market
    return [first + k for k in _buildable(st, item[1])]


def place_company(st: HegemonyState, seat: int, index: int) -> None:
    """Put a company card, empty and face up, in ``seat`` (its wage is set afterwards)."""
    st.seat_card[seat] = index
    st.seat_face_up[seat] = 1
    st.seat_wage[seat] = -1
    st.seat_workers[seat] = [NO] * MAX_SLOTS
    st.seat_committed[seat] = [0] * MAX_SLOTS
    st.seat_machinery[seat] = 0
    st.seat_strike[seat] = 0


def _apply_build_card(st: HegemonyState, item: Item, action: int) -> None:
    """Pay (CC: Revenue, then Capital; never a loan), place the card in the first empty seat
    and ask for the wage, then the staff.  The market is not refilled until Preparation."""
    cls = item[1]
    if effects_basic.mod(st, "search_deck"):  # one copy out of the deck (shuffled when it ends)
        index = DECK_CARDS[cls][action - blocks(cls).deck_card]
        _deck(st, cls).remove(index)
    else:
        index = _market(st, cls).pop(action - blocks(cls).market)
    card = D.COMPANIES[index]
    effects_basic.pay_purchase(st, cls, card.cost)
    seat = free_seat(st, cls)

    place_company(st, seat, index)
    st.agenda.pop()
    follow: list[Item] = []
    if card.wages is not None:
        follow.append((BUILD_WAGE, cls, seat))
    if cls == MC:
        follow += [(ASSIGN_SLOT, MC, seat * MAX_SLOTS + k)
                   for k, s in enumerate(card.slots) if s.mc]
        if any(s.employee for s in card.slots):
            follow.append((BUILD_EMPLOYEE, MC, seat))
    elif not card.automated:
        follow.append((BUILD_CLASS, CC, seat))
    if follow:
        st.push(*follow)


def _legal_build_wage(st: HegemonyState, item: Item) -> list[int]:
    first = blocks(item[1]).wage
    return [first + level for level in range(min_wage(st), len(D.WAGE_LEVELS))]


def _apply_build_wage(st: HegemonyState, item: Item, action: int) -> None:
    st.seat_wage[item[2]] = action - blocks(item[1]).wage
    st.agenda.pop()


def _employee_kinds(st: HegemonyState, seat: int) -> list[int]:
    """WC kinds MC may hire for the employee slot: the industry for a skilled slot; for a U
    slot an unskilled worker if one is unemployed, else any skilled one."""
    k = board.employee_slot(st, seat)
    req = slot_req(board.slots(st, seat)[k])
    unemployed = st.unemployed[WC]
    if req is not None:
        return [req] if unemployed[req] else []
    if unemployed[0]:
        return [0]
    return [kind for kind in range(1, KINDS) if unemployed[kind]]


def _legal_build_employee(st: HegemonyState, item: Item) -> list[int]:
    b = blocks(MC)
    return [b.from_unemployed + kind for kind in _employee_kinds(st, item[2])] + [b.NO]


def _apply_build_employee(st: HegemonyState, item: Item, action: int) -> None:
    b = blocks(MC)
    seat = item[2]
    if action != b.NO:
        kind = action - b.from_unemployed
        st.unemployed[WC][kind] -= 1
        place(st, seat, board.employee_slot(st, seat), worker(WC, kind))
        st.ctx["workers_built_wc"] = 1
    st.agenda.pop()


def _class_action(cls: int) -> int:
    return getattr(blocks(cls), "class")


def _legal_build_class(st: HegemonyState, item: Item) -> list[int]:
    b = blocks(CC)
    first = _class_action(CC)
    return [first + c for c in (WC, MC) if can_staff(st, item[2], c)] + [b.NO]


def _apply_build_class(st: HegemonyState, item: Item, action: int) -> None:
    st.agenda.pop()
    if action != blocks(CC).NO:
        push_staffing(st, CC, item[2], action - _class_action(CC), built=True)


# -- the plug-in tables (turn.py) ---------------------------------------------------------------
CODES: dict[int, Decision | Step] = {
    K.STAFF: Decision("staff_company", _legal_staff, _apply_staff, _finish_staff),
    BUILD_CARD: Decision("build_card", _legal_build_card, _apply_build_card),
    BUILD_WAGE: Decision("build_wage", _legal_build_wage, _apply_build_wage),
    BUILD_EMPLOYEE: Decision("build_employee", _legal_build_employee, _apply_build_employee),
    BUILD_CLASS: Decision("build_staff_class", _legal_build_class, _apply_build_class),
}
assert all(code in K.WORKERS for code in CODES)

BASIC = {
    "build_company": (_can_build, _start_build),
}
