"""Card primitives, the company family: selling, nationalising and privatising a company,
extra production, wages, machinery tokens, storage tiles and Prosperity steps bought by a card
(§11.1), with the ``COMPANY`` decision they share.

Choices the vocabulary leaves open, decided here:
- ``set_wage`` needs a company whose wage would change (``_all``: at least one; the others
  that may change do).
- ``produce``: an owner's wage is mandatory (forced loan) for CC and public companies; an MC
  owner pays its employee only if it can, and only then adds the bonus (as Extra Shift).
- ``transfer_company`` cc_to_public: the company takes an empty public space, else the space
  of a face-down public company, whose card then leaves the game (all nine spaces hold public
  cards from set-up on).

It sits above the interpreter's core (``effects``) and below the phase modules: ``economy``
delivers a public company's extra production with ``deliver``; a sale and a Prosperity step
are phase rules, reached through the game's rules object (``st.game.rules.phase``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from meeplezoo.envs.core.agenda import Decision, Item
from meeplezoo.envs.core.rules import Primitive, spends_nothing
from meeplezoo.envs.hegemony import board, money, storage
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony.actions import (
    CC,
    CC_SEATS,
    MAX_SLOTS,
    MC,
    PUBLIC_SEATS,
    ST,
    WC,
    blocks,
)
from meeplezoo.envs.hegemony.effects import COMPANY, COUNT, MACHINERY, STORAGE_TILE
from meeplezoo.envs.hegemony.effects_terms import (
    GOOD_OF,
    LEVEL_OF,
    MEDIA,
    amount,
    companies,
    media_room,
    receive_good,
)
from meeplezoo.envs.hegemony.state import NO_WORKER, worker_class

if TYPE_CHECKING:
    from meeplezoo.envs.hegemony.state import HegemonyState

# -- companies -------------------------------------------------------------------------------------
def first_free_seat(st: HegemonyState, seats: range) -> int:
    return next((s for s in seats if st.seat_card[s] < 0), -1)


def _public_seat(st: HegemonyState) -> int:
    """Where a nationalised company goes: an empty public space, else the space of a face-down
    public company (all 9 spaces hold public cards from set-up on; our reading, see the
    report), else -1."""
    free = first_free_seat(st, PUBLIC_SEATS)
    if free >= 0:
        return free
    return next((s for s in PUBLIC_SEATS if not st.seat_face_up[s]), -1)


def _wage_target(st: HegemonyState, seat: int, level: str) -> int:
    """The level a set_wage would give ``seat``, or -1 if it cannot or would not change."""
    company = board.card(st, seat)
    if company is None or company.wages is None or not st.seat_face_up[seat]:
        return -1
    if company.sector == "mc" and board.employee_slot(st, seat) < 0:
        return -1
    least = board.min_wage_level(st)
    new = least if level == "min" else max(least, LEVEL_OF[level])
    current = st.seat_wage[seat]
    if new == current:
        return -1
    if new < current and _paid_committed(st, seat):
        return -1
    return new


def _paid_committed(st: HegemonyState, seat: int) -> bool:
    """A worker paid by the seat's wage is committed (MC: its employee)."""
    k = board.employee_slot(st, seat)
    if k >= 0:
        return bool(st.seat_workers[seat][k] != NO_WORKER and st.seat_committed[seat][k])
    return board.any_committed(st, seat)


def _wage_seats(st: HegemonyState, cls: int, nid: int) -> list[int]:
    node = st.game.rules.cards.nodes[nid]
    which, level = node["company"], node["level"]
    if which.startswith("own"):
        seats = board.companies_of(st, cls)
    elif which.startswith("public"):
        seats = board.companies_of(st, ST)
    else:  # employer_one
        seats = [s for s in range(len(st.seat_card)) if board.is_present(st, s)
                 and any(w != NO_WORKER and worker_class(w) == cls
                         for w in st.seat_workers[s])]
    return [s for s in seats if _wage_target(st, s, level) >= 0]


def _producers(st: HegemonyState, cls: int, nid: int) -> list[int]:
    return [s for s in companies(st, cls, st.game.rules.cards.nodes[nid]["company_filter"])
            if board.is_operational(st, s) and not st.seat_strike[s]]


def _machinery_seats(st: HegemonyState) -> list[int]:
    return [s for s in board.companies_of(st, CC)
            if D.COMPANIES[st.seat_card[s]].machinery and not st.seat_machinery[s]]


def company_targets(st: HegemonyState, cls: int, nid: int) -> list[int]:
    """The seats a COMPANY decision of node ``nid`` offers."""
    node = st.game.rules.cards.nodes[nid]
    op = node["op"]
    if op == "sell_company":
        return [s for s in companies(st, cls, node.get("filter"))
                if board.seat_owner(s) == cls and not board.any_committed(st, s)]
    if op == "transfer_company":
        if node["direction"] == "public_to_cc":
            if first_free_seat(st, CC_SEATS) < 0:
                return []
            return [s for s in board.companies_of(st, ST)
                    if money.can_pay(st, CC, amount(st, cls, node["price"], s))]
        if _public_seat(st) < 0:
            return []
        return [s for s in board.companies_of(st, CC)
                if money.can_pay(st, ST, amount(st, cls, node["price"], s))]
    if op == "produce":
        return _producers(st, cls, nid)
    if op == "set_wage":
        return _wage_seats(st, cls, nid)
    raise AssertionError(f"no company targets for {op}")


def _can_company(st: HegemonyState, cls: int, nid: int) -> bool:
    return bool(company_targets(st, cls, nid))


def _do_company(st: HegemonyState, cls: int, nid: int) -> None:
    node = st.game.rules.cards.nodes[nid]
    if node["op"] == "set_wage" and node["company"].endswith("_all"):
        for seat in _wage_seats(st, cls, nid):
            st.seat_wage[seat] = _wage_target(st, seat, node["level"])
        return
    st.push((COMPANY, cls, nid))


def _legal_company(st: HegemonyState, item: Item) -> list[int]:
    company = blocks(item[1]).company
    return [company + s for s in company_targets(st, item[1], item[2])]


def _apply_company(st: HegemonyState, item: Item, action: int) -> None:
    cls, nid = item[1], item[2]
    seat = action - blocks(cls).company
    node = st.game.rules.cards.nodes[nid]
    op = node["op"]
    st.agenda.pop()
    if op == "sell_company":
        cost = D.COMPANIES[st.seat_card[seat]].cost
        st.game.rules.phase["sell_company"](st, cls, seat)
        price = math.floor(Fraction(str(node["price_factor"])) * cost)
        if price < cost:
            money.pay(st, cls, cost - price)
        elif price > cost:
            money.gain(st, cls, price - cost)
    elif op == "transfer_company":
        price = amount(st, cls, node["price"], seat)
        if node["direction"] == "public_to_cc":
            money.pay(st, CC, price, ST)
            move_company(st, seat, first_free_seat(st, CC_SEATS))
            storage.discard_state_excess(st)  # #47: the State's cap lost the company
        else:
            money.pay(st, ST, price, CC)
            st.seat_machinery[seat] = 0
            to = _public_seat(st)
            if st.seat_card[to] >= 0:  # a face-down public card makes room: it leaves the game
                st.company_discard.append(st.seat_card[to])
                st.seat_card[to] = -1
            move_company(st, seat, to)
    elif op == "produce":
        produce(st, seat, node["wage_payer"])
    else:  # set_wage, one company
        st.seat_wage[seat] = _wage_target(st, seat, node["level"])


def move_company(st: HegemonyState, seat: int, to: int) -> None:
    """Move a company with its workers, commitment, wage and tokens to an empty seat."""
    for field in ("seat_card", "seat_wage", "seat_machinery", "seat_strike", "seat_face_up"):
        values = getattr(st, field)
        values[to] = values[seat]
    st.seat_workers[to] = st.seat_workers[seat]
    st.seat_committed[to] = st.seat_committed[seat]
    st.seat_workers[seat] = [NO_WORKER] * MAX_SLOTS
    st.seat_committed[seat] = [0] * MAX_SLOTS
    st.seat_card[seat], st.seat_wage[seat], st.seat_face_up[seat] = -1, -1, 0
    st.seat_machinery[seat] = st.seat_strike[seat] = 0
    st.seat_face_up[to] = 1


def produce(st: HegemonyState, seat: int, wage_payer: str) -> None:
    """One extra production of an operational company, delivered as at Production (§6.1)."""
    company = board.card(st, seat)
    assert company is not None
    owner = board.seat_owner(seat)
    output = company.production
    wage = board.wage_amount(st, seat)
    if company.sector == "cc" and st.seat_machinery[seat]:
        output += company.machinery
    if company.sector == "mc":
        if board.has_employee(st, seat) and wage_payer != "none":
            if wage_payer == "state":
                money.pay(st, ST, wage, WC, forced=True)
                output += company.bonus
            elif money.can_pay(st, MC, wage):  # as Extra Shift: the bonus only if paid
                money.pay(st, MC, wage, WC)
                output += company.bonus
    elif wage_payer != "none" and wage > 0:
        staff = board.staff_class(st, seat)
        payer = ST if wage_payer == "state" else owner
        if staff >= 0 and staff != payer:
            money.pay(st, payer, wage, staff, forced=True)
    deliver(st, owner, company.industry, output)


def deliver(st: HegemonyState, owner: int, industry: int, output: int) -> None:
    """Output of a company of ``owner`` goes where Production puts it (§6.1)."""
    if owner == ST:
        if industry == MEDIA:
            st.public_services[2] += min(output, media_room(st))
        else:
            receive_good(st, ST, industry, output)
    elif industry == MEDIA:
        board.gain_influence(st, owner, output)
    elif owner == WC:
        st.goods[WC][industry] += output
    else:
        storage.store(st, owner, industry, output, ftz=owner == CC)


def _can_machinery(st: HegemonyState, cls: int, nid: int) -> bool:
    return money.can_pay(st, cls, amount(st, cls, st.game.rules.cards.nodes[nid]["cost"]))


def _do_machinery(st: HegemonyState, cls: int, nid: int) -> None:
    node = st.game.rules.cards.nodes[nid]
    money.pay(st, cls, amount(st, cls, node["cost"]))
    st.ctx[COUNT] = min(node["n"], board.machinery_left(st))
    if st.ctx[COUNT]:
        st.push((MACHINERY, cls, nid))


def _legal_machinery(st: HegemonyState, item: Item) -> list[int]:
    company = blocks(item[1]).company
    return [company + s for s in _machinery_seats(st)]  # none: the tokens are lost (§5.6)


def _apply_machinery(st: HegemonyState, item: Item, action: int) -> None:
    st.seat_machinery[action - blocks(item[1]).company] = 1
    st.ctx[COUNT] -= 1
    if st.ctx[COUNT] <= 0:
        st.agenda.pop()


def _tile_goods(st: HegemonyState, nid: int) -> list[int]:
    if sum(st.storage_tiles) >= D.STORAGE_TILES:
        return []
    res = st.game.rules.cards.nodes[nid]["resource"]
    goods = range(4) if res == "choice" else (GOOD_OF[res],)
    return [g for g in goods if not st.storage_tiles[g]]


def _can_storage(st: HegemonyState, cls: int, nid: int) -> bool:
    cost = st.game.rules.cards.nodes[nid].get("cost", 0)
    return bool(_tile_goods(st, nid)) and money.can_pay(st, cls, cost)


def _do_storage(st: HegemonyState, cls: int, nid: int) -> None:
    money.pay(st, cls, st.game.rules.cards.nodes[nid].get("cost", 0))
    st.push((STORAGE_TILE, cls, nid))


def _legal_storage_tile(st: HegemonyState, item: Item) -> list[int]:
    resource = blocks(item[1]).resource
    return [resource + g for g in _tile_goods(st, item[2])]


def _apply_storage_tile(st: HegemonyState, item: Item, action: int) -> None:
    st.storage_tiles[action - blocks(item[1]).resource] = 1
    st.agenda.pop()


def _can_prosperity(st: HegemonyState, cls: int, nid: int) -> bool:
    node = st.game.rules.cards.nodes[nid]
    return money.can_pay(st, cls, amount(st, cls, node.get("cost", 0)))


def _do_prosperity(st: HegemonyState, cls: int, nid: int) -> None:
    node = st.game.rules.cards.nodes[nid]
    money.pay(st, cls, amount(st, cls, node.get("cost", 0)))
    for _ in range(node["steps"]):
        st.game.rules.phase["gain_prosperity"](st, cls)


# -- the tables ------------------------------------------------------------------------------
def _priced_cost(st: HegemonyState, cls: int, nid: int) -> int:
    """A ``machinery`` or ``prosperity`` node with a ``cost`` costs that amount."""
    node = st.game.rules.cards.nodes[nid]
    return amount(st, cls, node["cost"]) if "cost" in node else 0


def _priced(node: Mapping[str, Any]) -> bool:
    return "cost" in node


def _storage_cost(st: HegemonyState, cls: int, nid: int) -> int:
    """A storage tile costs its printed ``cost`` (none if it names none)."""
    return st.game.rules.cards.nodes[nid].get("cost", 0)


def _storage_costs(node: Mapping[str, Any]) -> bool:
    return node.get("cost", 0) != 0


# each primitive: its check, its effect and its declared cost (core.rules.Primitive;
# ``spends_nothing``: it declares no cost)
PRIMITIVES = {
    "sell_company": spends_nothing(_can_company, _do_company),
    "transfer_company": spends_nothing(_can_company, _do_company),
    "produce": spends_nothing(_can_company, _do_company),
    "set_wage": spends_nothing(_can_company, _do_company),
    "machinery": Primitive(_can_machinery, _do_machinery, _priced_cost, _priced),
    "storage": Primitive(_can_storage, _do_storage, _storage_cost, _storage_costs),
    "prosperity": Primitive(_can_prosperity, _do_prosperity, _priced_cost, _priced),
}
CODES: dict[int, Decision] = {
    COMPANY: Decision("effects_company", _legal_company, _apply_company),
    STORAGE_TILE: Decision("effects_storage_tile", _legal_storage_tile, _apply_storage_tile),
    MACHINERY: Decision("effects_machinery", _legal_machinery, _apply_machinery),
}
