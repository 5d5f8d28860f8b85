"""Queries about companies and workers that every phase module shares (§5.1, §5.2, §1.3).

Pure reads of the state, plus the few small writes that keep derived facts in step
(population is never stored: it is computed from the workers owned).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import chain
from typing import TYPE_CHECKING, Any

from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony.actions import (
    CC,
    CC_SEATS,
    COOP_SEATS,
    MC,
    MC_SEATS,
    PUBLIC_SEATS,
    ST,
    WC,
)
from meeplezoo.envs.hegemony.state import KINDS, NO_WORKER, VP_SOURCES, worker_class

if TYPE_CHECKING:
    from meeplezoo.envs.core.agenda import Item
    from meeplezoo.envs.hegemony.state import HegemonyState

SEATS_OF = {CC: CC_SEATS, MC: MC_SEATS, ST: PUBLIC_SEATS, WC: COOP_SEATS}


def seat_owner(seat: int) -> int:
    """The class whose board holds ``seat`` (public seats belong to the State)."""
    if seat < 12:
        return CC
    if seat < 20:
        return MC
    if seat < 29:
        return ST
    return WC


def card(st: HegemonyState, seat: int) -> D.CompanyCard | None:
    index = st.seat_card[seat]
    return None if index < 0 else D.COMPANIES[index]


def is_present(st: HegemonyState, seat: int) -> bool:
    """A company sits in the seat and (public companies) is face up."""
    return st.seat_card[seat] >= 0 and bool(st.seat_face_up[seat])


def slots(st: HegemonyState, seat: int) -> tuple[D.Slot, ...]:
    company = card(st, seat)
    return () if company is None else company.slots


# Per company card, read off it once (these queries run many times per decision): the slots
# that must be filled to operate (every slot of a Cooperative Farm, else every non-employee
# slot; none when automated), the non-employee slots, and the employee slot (-1 if none).
OPERATE_SLOTS = tuple(
    () if c.automated
    else tuple(range(len(c.slots))) if c.sector == "coop"
    else tuple(k for k, s in enumerate(c.slots) if not s.employee)
    for c in D.COMPANIES)
STAFF_SLOTS = tuple(tuple(k for k, s in enumerate(c.slots) if not s.employee)
                    for c in D.COMPANIES)
EMPLOYEE_SLOT = tuple(next((k for k, s in enumerate(c.slots) if s.employee), -1)
                      for c in D.COMPANIES)
assert all(sum(s.employee for s in c.slots) <= 1 for c in D.COMPANIES)


def is_operational(st: HegemonyState, seat: int) -> bool:
    """§5.2: every slot filled (MC: its MC slots); automated companies always are."""
    index = st.seat_card[seat]
    if index < 0 or not st.seat_face_up[seat]:
        return False
    workers = st.seat_workers[seat]
    for k in OPERATE_SLOTS[index]:  # noqa: SIM110  (a loop: all() of a generator is slower)
        if workers[k] == NO_WORKER:
            return False
    return True


def is_fully_operational(st: HegemonyState, seat: int) -> bool:
    """§5.2: every slot filled, the optional employee slot included (MC scoring, §8)."""
    company = card(st, seat)
    if not is_operational(st, seat) or company is None:
        return False
    return all(st.seat_workers[seat][k] != NO_WORKER for k in range(len(company.slots)))


def employee_slot(st: HegemonyState, seat: int) -> int:
    """Index of an MC company's employee slot, or -1."""
    index = st.seat_card[seat]
    return -1 if index < 0 else EMPLOYEE_SLOT[index]


def has_employee(st: HegemonyState, seat: int) -> bool:
    k = employee_slot(st, seat)
    return k >= 0 and st.seat_workers[seat][k] != NO_WORKER


def any_committed(st: HegemonyState, seat: int) -> bool:
    """Whether a worker of the company in ``seat`` is committed (asked by the card effects
    and by the free actions alike)."""
    return any(st.seat_committed[seat][k] for k, w in enumerate(st.seat_workers[seat])
               if w != NO_WORKER)


def staff_class(st: HegemonyState, seat: int) -> int:
    """The class of a company's (non-employee) workers, or -1 if it has none (§12 #21)."""
    index = st.seat_card[seat]
    if index < 0:
        return -1
    workers = st.seat_workers[seat]
    for k in STAFF_SLOTS[index]:
        if workers[k] != NO_WORKER:
            return workers[k] // KINDS
    return -1


def wage_amount(st: HegemonyState, seat: int) -> int:
    """The wage the company pays at Production (0 without a wage)."""
    company = card(st, seat)
    level = st.seat_wage[seat]
    if company is None or company.wages is None or level < 0:
        return 0
    return company.wages[level]


def companies_of(st: HegemonyState, cls: int) -> list[int]:
    """Seats holding a (face-up) company of ``cls`` (``is_present``, inlined: the evaluation
    and the turn menu ask it at every position)."""
    cards, face_up = st.seat_card, st.seat_face_up
    return [s for s in SEATS_OF[cls] if cards[s] >= 0 and face_up[s]]


def operational_companies(st: HegemonyState, cls: int) -> list[int]:
    """``cls``'s seats whose company ``is_operational`` (inlined, as ``companies_of``)."""
    cards, face_up, rows = st.seat_card, st.seat_face_up, st.seat_workers
    out = []
    for s in SEATS_OF[cls]:
        index = cards[s]
        if index >= 0 and face_up[s]:
            workers = rows[s]
            for k in OPERATE_SLOTS[index]:
                if workers[k] == NO_WORKER:
                    break
            else:
                out.append(s)
    return out


# -- the query memo of one legality check ------------------------------------------------------
# While a decision's legal actions are computed the position stands still: the checks only set
# money or the active card aside for a moment, and no check moves a worker or a company.  So the
# costlier pure queries of workers and seats (``employed_workers``, ``workers._slot_sources``)
# are kept meanwhile in the state's ``query_memo`` (``HegemonyState``), made when the check
# starts and dropped when it ends (``legality_memo``), so nothing is kept between positions.
# It lives on the state, never at module level: a check running in another thread, on another
# state, has its own.


def legality_memo(legal: Callable[[HegemonyState, Item], Any],
                  ) -> Callable[[HegemonyState, Item], Any]:
    """``legal`` (a decision's legal actions, or its ``choice``) with the query memo kept for
    its state while it runs (nested: the outer one's)."""
    def legal_memoised(st: HegemonyState, item: Item) -> Any:
        if st.query_memo is not None:
            return legal(st, item)
        st.query_memo = {}
        try:
            return legal(st, item)
        finally:
            st.query_memo = None

    legal_memoised.__name__ = legal.__name__
    legal_memoised.__doc__ = legal.__doc__
    return legal_memoised


def employed_workers(st: HegemonyState, cls: int) -> int:
    memo = st.query_memo
    if memo is not None:
        key = ("employed", cls)
        n = memo.get(key)
        if n is None:
            n = memo[key] = _count_employed(st, cls)
        return n
    return _count_employed(st, cls)


def _count_employed(st: HegemonyState, cls: int) -> int:
    low, high = cls * KINDS, cls * KINDS + KINDS  # the class's worker codes
    n = 0
    for w in chain.from_iterable(st.seat_workers):  # one flat loop: cheaper than two nested
        if low <= w < high:
            n += 1
    return n


def workers_owned(st: HegemonyState, cls: int) -> int:
    """Every worker of the class: employed, unemployed and in unions (§1.3)."""
    total = employed_workers(st, cls) + sum(st.unemployed[cls])
    if cls == WC:
        total += sum(st.unions)
    return total


def population(st: HegemonyState, cls: int) -> int:
    """The population track value, recomputed from the workers owned (§1.3)."""
    return population_of(workers_owned(st, cls))


_POPULATION = tuple(D.population(n) for n in range(64))  # by workers owned


def population_of(workers: int) -> int:
    """``D.population`` read from a table (asked by several checks of every turn menu)."""
    return _POPULATION[workers] if 0 <= workers < len(_POPULATION) else D.population(workers)


def unemployed_total(st: HegemonyState, cls: int) -> int:
    return sum(st.unemployed[cls])


def influence_supply(st: HegemonyState) -> int:
    """Influence cubes left in the supply (§1.1: 35 in all)."""
    used = sum(st.influence) + st.public_services[2] + sum(b[5] for b in st.benefits)
    return D.INFLUENCE_CUBES - used


def gain_influence(st: HegemonyState, cls: int, amount: int) -> int:
    """Give ``cls`` up to ``amount`` influence, capped by the supply (§12 #42); returns the gain."""
    gained = max(0, min(amount, influence_supply(st)))
    st.influence[cls] += gained
    return gained


def strike_tokens_left(st: HegemonyState) -> int:
    return D.STRIKE_TOKENS - sum(st.seat_strike)


def machinery_left(st: HegemonyState) -> int:
    return D.MACHINERY_TOKENS - sum(st.seat_machinery)


def kind_counts(st: HegemonyState, cls: int) -> list[int]:
    """Unemployed workers of ``cls`` by kind (a copy)."""
    return list(st.unemployed[cls][:KINDS])


def unemploy_workers(st: HegemonyState, seat: int) -> None:
    """Every worker of the seat goes to its class's Unemployed area, not committed."""
    for k, w in enumerate(st.seat_workers[seat]):
        if w != NO_WORKER:
            st.unemployed[worker_class(w)][w % KINDS] += 1
            st.seat_workers[seat][k] = NO_WORKER
            st.seat_committed[seat][k] = 0


def clear_company(st: HegemonyState, seat: int) -> None:
    """Empty the seat of workers and tokens (a sale, a public company turned face down);
    the caller decides where the card goes."""
    unemploy_workers(st, seat)
    st.seat_machinery[seat] = 0
    st.seat_strike[seat] = 0


_SOURCE_INDEX = {name: k for k, name in enumerate(VP_SOURCES)}


def score(st: HegemonyState, cls: int, points: int, source: str) -> None:
    """``cls`` gains (or loses) ``points`` VP, booked under ``source`` (one of VP_SOURCES)."""
    st.vp[cls] += points
    st.vp_sources[cls][_SOURCE_INDEX[source]] += points


def min_wage_level(st: HegemonyState) -> int:
    """The lowest legal wage level under the current p2 section (§5.4): 0 = L1."""
    return D.MIN_WAGE_LEVEL[st.policies[1]]


def price(st: HegemonyState, cls: int, good: int) -> int:
    """MC's or CC's current selling price of ``good`` (§5.11)."""
    return D.PRICE_STEPS[good][st.prices[cls - 1][good]]
