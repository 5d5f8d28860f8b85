"""The terms every family of card primitives reads (the interpreter's bottom layer): the
vocabulary's names of classes, owners, goods and levels; a card's amounts, company filters and
requirements (pure functions of the state); and what a class holds, gains and gives, whatever
the resource.

It sits below the interpreter's core (``effects``), which reads ``requirement`` and ``amount``
to decide whether a card can be played, and below every family module (``effects_*``); the
phase modules read its names too (``INDUSTRY_OF``, ``GOOD_OF``).  It needs only the board
queries and the money and storage rules.

Choices the vocabulary leaves open, decided here: for a class, ``media_influence`` is its
influence; ``pay`` of cubes takes own cubes out of the bag.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from meeplezoo.envs.hegemony import board, money, storage
from meeplezoo.envs.hegemony import cards as C
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony.actions import CC, MC, ST, WC
from meeplezoo.envs.hegemony.state import NO_WORKER, worker_class

if TYPE_CHECKING:
    from meeplezoo.envs.hegemony.state import HegemonyState

CLASS_OF = {"WC": WC, "MC": MC, "CC": CC, "ST": ST}
OWNER_OF = {"WC": WC, "MC": MC, "CC": CC, "public": ST}
GOOD_OF = {"food": 0, "lux": 1, "health": 2, "edu": 3}
INDUSTRY_OF = {name: i for i, name in enumerate(D.INDUSTRIES)}
LEVEL_OF = {"L1": 0, "L2": 1, "L3": 2}
BENEFIT_SLOT = {"money": 0, "food": 1, "lux": 2, "health": 3, "edu": 4, "influence": 5,
                "cubes": 6}
MEDIA = 4  # the media industry; it produces influence
EMPTY: Mapping[str, Any] = MappingProxyType({})


# -- amounts, filters and requirements (pure functions of the state) ----------------------------
def companies(st: HegemonyState, cls: int, flt: Mapping[str, Any] | None) -> list[int]:
    """Seats of the present companies matching a company filter (default owner: ``cls``)."""
    flt = flt or EMPTY
    owners = [OWNER_OF[o] for o in flt["owner"]] if "owner" in flt else [cls]
    seats = [s for owner in owners for s in board.companies_of(st, owner)]
    if "industry" in flt:
        wanted = {INDUSTRY_OF[i] for i in flt["industry"]}
        seats = [s for s in seats if D.COMPANIES[st.seat_card[s]].industry in wanted]
    if "operational" in flt:
        seats = [s for s in seats if board.is_operational(st, s) == flt["operational"]]
    if "with_wc_employee" in flt:
        seats = [s for s in seats if board.has_employee(st, s) == flt["with_wc_employee"]]
    return seats


def _unemployed(st: HegemonyState, cls: int) -> int:
    if cls == ST:
        return sum(st.unemployed[WC]) + sum(st.unemployed[MC])
    return sum(st.unemployed[cls]) if cls in (WC, MC) else 0


def _agenda_matches(st: HegemonyState) -> int:
    if not 0 <= st.agenda_card < len(C.AGENDAS):
        return 0
    target = C.AGENDAS[st.agenda_card].target
    return sum(1 for p in range(5) if target[f"p{p + 1}"] == "ABC"[st.policies[p]])


def term(st: HegemonyState, cls: int, name: str, flt: Mapping[str, Any] | None = None) -> int:
    """One ``FORMULA_TERMS`` count, for class ``cls``."""
    if name == "population":
        return board.population(st, cls) if cls in (WC, MC) else 0
    if name == "employed":
        if cls not in (WC, MC):
            return 0
        owners = {OWNER_OF[o] for o in flt["owner"]} if flt and "owner" in flt else None
        return sum(1 for seat, row in enumerate(st.seat_workers)
                   if owners is None or board.seat_owner(seat) in owners
                   for w in row if w != NO_WORKER and worker_class(w) == cls)
    if name == "unemployed":
        return _unemployed(st, cls)
    if name == "companies":
        return len(companies(st, cls, flt))
    if name == "union":
        return sum(st.unions)
    if name == "agenda_match":
        return _agenda_matches(st)
    if name == "loan":
        return st.loans[cls]
    if name == "public_company":
        return len(board.companies_of(st, ST))
    raise AssertionError(f"unknown formula term {name}")


def rounded(value: Fraction, how: str | None) -> int:
    return math.ceil(value) if how == "up" else math.floor(value)


def amount(st: HegemonyState, cls: int, value: Any, seat: int = -1) -> int:
    """An amount (int or formula) for class ``cls``; ``seat``: the company a cost share is of."""
    if isinstance(value, int):
        return value
    if "per" in value:
        x = rounded(Fraction(value.get("times", 1) * term(st, cls, value["per"],
                                                             value.get("filter")),
                              value.get("divide", 1)), value.get("round"))
        if "min" in value:
            x = max(x, value["min"])
        if "max" in value:
            x = min(x, value["max"])
        return x
    if "lookup" in value:
        return value["values"][st.policies[int(value["lookup"][1:]) - 1]]
    cost = D.COMPANIES[st.seat_card[seat]].cost if seat >= 0 else 0
    return rounded(Fraction(str(value["fraction_of_cost"])) * cost, value.get("round"))


def requirement(st: HegemonyState, cls: int, req: Mapping[str, Any]) -> bool:
    """Whether one ``REQUIREMENTS`` entry holds for class ``cls``."""
    (name, arg), = req.items()
    if name == "policy_in":
        return any(st.policies[int(s[0]) - 1] == "ABC".index(s[1]) for s in arg)
    if name == "round_at_least":
        return st.round >= arg
    if name == "unemployed_at_least":
        return _unemployed(st, cls) >= arg
    if name == "pending_bills_at_least":
        return sum(1 for b in st.bills if b >= 0) >= arg
    if name == "has_loan":
        return (st.loans[cls] > 0) == arg
    if name == "companies_at_least":
        return len(companies(st, cls, arg)) >= arg["n"]
    raise AssertionError(f"unknown requirement {name}")


# -- what a class holds, gains and gives -----------------------------------------------------------
def stock(st: HegemonyState, cls: int, res: str) -> int:
    """What ``cls`` holds of ``res`` that it could pay or give (money: cash)."""
    if res == "money":
        return money.cash(st, cls)
    if res in GOOD_OF:
        g = GOOD_OF[res]
        if cls == WC:
            return st.goods[WC][g]
        if cls == MC:
            return st.goods[MC][g] + st.mc_storage[g]
        if cls == CC:
            return st.cc_storage[g]
        return st.state_goods[g] if g < 2 else st.public_services[g - 2]
    if res == "influence" or (res == "media_influence" and cls != ST):
        return st.influence[cls]
    if res == "media_influence":
        return st.public_services[2]
    return st.bag[cls] if cls < 3 else 0  # cubes


def take(st: HegemonyState, cls: int, res: str, n: int) -> None:
    """Remove ``n`` (held) of a non-money ``res`` from ``cls``."""
    if res in GOOD_OF:
        g = GOOD_OF[res]
        if cls == MC:
            from_goods = min(n, st.goods[MC][g])
            st.goods[MC][g] -= from_goods
            st.mc_storage[g] -= n - from_goods
        elif cls == WC:
            st.goods[WC][g] -= n
        elif cls == CC:
            st.cc_storage[g] -= n
        elif g < 2:
            st.state_goods[g] -= n
        else:
            st.public_services[g - 2] -= n
    elif res == "influence" or (res == "media_influence" and cls != ST):
        st.influence[cls] -= n
    elif res == "media_influence":
        st.public_services[2] -= n
    else:  # own cubes out of the bag, back to the supply
        st.bag[cls] -= n
        st.cube_supply[cls] += n


def state_room(st: HegemonyState, good: int) -> int:
    """Room on the State board (food, lux) or in Public Services (health, edu, media 4)."""
    if good < 2:
        return max(0, storage.state_goods_cap(st, good) - st.state_goods[good])
    service = good - 2
    room = storage.public_service_cap(st, service) - st.public_services[service]
    if service == 2:
        room = min(room, board.influence_supply(st))
    return max(0, room)


def receive_good(st: HegemonyState, cls: int, good: int, n: int) -> None:
    """Goods a class gains: WC / MC Goods & Services, CC Storage then FTZ, the State's board
    or Public Services (capped); overflow is lost."""
    if n <= 0:
        return
    if cls in (WC, MC):
        st.goods[cls][good] += n
    elif cls == CC:
        storage.store(st, CC, good, n, ftz=True)
    elif good < 2:
        st.state_goods[good] += min(n, state_room(st, good))
    else:
        st.public_services[good - 2] += min(n, state_room(st, good))


def receive(st: HegemonyState, cls: int, res: str, n: int) -> None:
    """``cls`` gains ``n`` of a non-money ``res`` (influence and cubes capped by the supply)."""
    if res in GOOD_OF:
        receive_good(st, cls, GOOD_OF[res], n)
    elif res == "influence" or (res == "media_influence" and cls != ST):
        board.gain_influence(st, cls, n)
    elif res == "media_influence":
        st.public_services[2] += min(n, media_room(st))
    elif cls < 3:
        moved = max(0, min(n, st.cube_supply[cls]))
        st.cube_supply[cls] -= moved
        st.bag[cls] += moved


def media_room(st: HegemonyState) -> int:
    return state_room(st, 4)


def take_storage(st: HegemonyState, cls: int, good: int, n: int) -> None:
    if cls == MC:
        st.mc_storage[good] -= n
    else:
        st.cc_storage[good] -= n
