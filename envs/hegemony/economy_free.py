"""Economy, the free actions (our Hegemony rules page §4): Use Health (§4.1), Use Luxury
(§4.3), Receive Benefits (§4.5), Pay Off Loan (§4.6), Adjust Prices (§4.7), Adjust Wages
(§4.8), Give Bonus (§4.9), Buy Storage (§4.10); and the policy follow-ups pushed by politics:
``ADJUST_WAGES`` arg 1 (after a p2 change: lowering only, nobody committed, §5.4) and
``ADJUST_PRICES`` arg 1 (re-pricing after p4/p5/p6 or the IMF, §5.11).  The economy's basic
actions are in ``economy`` (companies, deals, Lobby) and ``economy_trade`` (the markets).

Choices the page leaves open, decided here:
- Prices are stored as ``st.prices[0]`` for MC and ``st.prices[1]`` for CC (``cls - 1``).
- The free Adjust Prices / Adjust Wages must change at least one target (``done`` is offered
  after the first change); the policy follow-ups may end at once.
- The re-pricing follow-up offers every good, as §5.11 states it (§10's table names only
  Health for p4 and Edu for p5).
- Money waiting in a Benefits area is off the table (as ``invariants`` counts it), so taking
  it is a gain from the bank.

It is the lowest of the economy modules: it also holds the names they share (the goods'
indexes, the modes of a follow-up) and the small queries on a company's workers that Strike,
Sell Company and Extra Shift use too (``economy``).
"""


from __future__ import annotations

from typing import TYPE_CHECKING

from meeplezoo.envs.core.agenda import Decision, Item, Step
from meeplezoo.envs.hegemony import board, money, storage
from meeplezoo.envs.hegemony import codes as K
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony.actions import CC, CC_SEATS, ST, blocks
from meeplezoo.envs.hegemony.board import min_wage_level
from meeplezoo.envs.hegemony.state import NO_WORKER
from meeplezoo.envs.hegemony.workers_free import gain_prosperity

if TYPE_CHECKING:
    from meeplezoo.envs.hegemony.state import HegemonyState

# agenda codes (economy owns 40-69; 40 and 41 are fixed in codes.py)
ADJUST_WAGES = K.ADJUST_WAGES  # company (or done); arg 0 free action, 1 after a p2 change
ADJUST_PRICES = K.ADJUST_PRICES  # good x step (or done); arg 0 free action, 1 re-pricing
WAGE_LEVEL = 42  # the new level of the company just chosen; arg = mode * 64 + seat
GIVE_BONUS = 52
BUY_STORAGE = 53

FREE_MODE, FOLLOW_UP = 0, 1
FOOD, LUX, HEALTH, EDU, INFLUENCE = range(5)
L3 = 2
HIGH = 2
_SEAT_BITS = 64

CTX: dict[str, int] = {
    "economy_prices": 0,  # bit per good already re-priced in this action
    "economy_wages": 0,  # bit per seat whose wage was already changed in this action
}


# -- shared small queries ----------------------------------------------------------------------
def commit_all(st: HegemonyState, seat: int) -> None:
    for k, w in enumerate(st.seat_workers[seat]):
        if w != NO_WORKER:
            st.seat_committed[seat][k] = 1


def _owned_seats(cls: int) -> range:
    return board.SEATS_OF[cls]


# Per company card: the slots whose workers its wage pays (MC: only the employee's).
_PAID_SLOTS = tuple(tuple(k for k, slot in enumerate(c.slots) if c.sector != "mc" or slot.employee)
                    for c in D.COMPANIES)
HAS_WAGES = tuple(c.wages is not None for c in D.COMPANIES)


# -- §4.1 Use Health, §4.3 Use Luxury ----------------------------------------------------------
def _can_use(good: int):
    def can(st: HegemonyState, cls: int) -> bool:
        return st.goods[cls][good] >= board.population(st, cls)
    return can


def _start_use_health(st: HegemonyState, cls: int) -> None:
    st.goods[cls][HEALTH] -= board.population(st, cls)  # before the new worker arrives
    gain_prosperity(st, cls)
    board.score(st, cls, D.USE_HEALTH_VP, "prosperity")
    st.unemployed[cls][0] += 1


def _start_use_luxury(st: HegemonyState, cls: int) -> None:
    st.goods[cls][LUX] -= board.population(st, cls)
    gain_prosperity(st, cls)


# -- §4.5 Receive Benefits ---------------------------------------------------------------------
def _can_benefits(st: HegemonyState, cls: int) -> bool:
    return any(st.benefits[cls])


def _start_benefits(st: HegemonyState, cls: int) -> None:
    """Take the whole Benefits area: money (off the table while it waits there, as the
    invariants count it, so it comes from the bank now), resources (CC: into Storage, overflow
    lost), influence (already out of the supply) and voting cubes (already out of the class's
    supply) straight into the bag; ST +1 VP."""
    area = st.benefits[cls]
    cash_, *goods, influence, cubes = area
    if cash_:
        money.gain(st, cls, cash_)
    for good, n in enumerate(goods):
        if not n:
            continue
        if cls == CC:
            storage.store(st, CC, good, n)
        else:
            st.goods[cls][good] += n
    st.influence[cls] += influence
    st.bag[cls] += cubes
    st.benefits[cls] = [0] * len(area)
    board.score(st, ST, D.BENEFITS_VP, "benefits")


# -- §4.6 Pay Off Loan -------------------------------------------------------------------------
def _can_pay_off(st: HegemonyState, cls: int) -> bool:
    return st.loans[cls] > 0 and money.can_pay(st, cls, D.LOAN_REPAY)


def _start_pay_off(st: HegemonyState, cls: int) -> None:
    money.repay_loan(st, cls)


# -- §4.7 Adjust Prices ------------------------------------------------------------------------
def price_step_allowed(st: HegemonyState, good: int, step: int) -> bool:
    """§5.11, §12 #10: every step, unless ``price_high_requires_policy`` gates High to 6A
    (Food, Lux), 4C (Health) or 5C (Edu)."""
    if step < HIGH or not st.game.config["price_high_requires_policy"]:
        return True
    if good in (FOOD, LUX):
        return st.policies[5] == 0
    return st.policies[3 if good == HEALTH else 4] == 2


def drop_illegal_high_prices(st: HegemonyState) -> None:
    """Under ``price_high_requires_policy``, a High price the policies no longer allow drops to
    Mid at once (§5.11); politics calls this after p4/p5/p6 changes."""
    for row in st.prices:
        for good, step in enumerate(row):
            if not price_step_allowed(st, good, step):
                row[good] = 1


def _price_choices(st: HegemonyState, cls: int, done: int) -> list[int]:
    """(good * 3 + step) for each good not yet re-priced in this action and each allowed
    step other than its current one."""
    row = st.prices[cls - 1]
    return [good * 3 + step for good in range(4) if not done >> good & 1
            for step in range(3) if step != row[good] and price_step_allowed(st, good, step)]


def _can_adjust_prices(st: HegemonyState, cls: int) -> bool:
    return bool(_price_choices(st, cls, 0))


def _start_adjust_prices(st: HegemonyState, cls: int) -> None:
    st.ctx["economy_prices"] = 0
    st.push((ADJUST_PRICES, cls, FREE_MODE))


def _legal_prices(st: HegemonyState, item: Item) -> list[int]:
    b = blocks(item[1])
    legal = [b.price + k for k in _price_choices(st, item[1], st.ctx["economy_prices"])]
    if item[2] == FOLLOW_UP or st.ctx["economy_prices"]:
        legal.append(b.DONE)
    return legal


def _apply_prices(st: HegemonyState, item: Item, action: int) -> None:
    b = blocks(item[1])
    if action == b.DONE:
        st.ctx["economy_prices"] = 0
        st.agenda.pop()
        return
    good, step = divmod(action - b.price, 3)
    st.prices[item[1] - 1][good] = step
    st.ctx["economy_prices"] |= 1 << good


# -- §4.8 Adjust Wages (and the p2 follow-up of §5.4) ------------------------------------------
def _paid_committed(st: HegemonyState, seat: int) -> bool:
    """A worker paid by the company's wage is committed (MC: only the employee is paid)."""
    index = st.seat_card[seat]
    assert index >= 0
    committed, workers = st.seat_committed[seat], st.seat_workers[seat]
    return any(committed[k] and workers[k] != NO_WORKER for k in _PAID_SLOTS[index])


def wage_levels(st: HegemonyState, seat: int, mode: int) -> list[int]:
    """The levels the owner may move ``seat``'s wage to (§4.8 free action; §5.4 follow-up:
    lower only, never in a company with committed workers)."""
    index, current = st.seat_card[seat], st.seat_wage[seat]
    if index < 0 or not HAS_WAGES[index] or current < 0:
        return []
    low = min_wage_level(st)
    if mode == FOLLOW_UP:
        if board.any_committed(st, seat):
            return []
        return list(range(low, current))
    lowest = current if _paid_committed(st, seat) else low
    return [level for level in range(lowest, 3) if level != current]


def _wage_seats(st: HegemonyState, cls: int, mode: int, done: int) -> list[int]:
    """Own companies not yet changed in this action whose wage may move."""
    return [seat for seat in _owned_seats(cls) if board.is_present(st, seat)
            and not done >> seat & 1 and wage_levels(st, seat, mode)]


def _can_adjust_wages(st: HegemonyState, cls: int) -> bool:
    """Some own company's wage may move (stops at the first: asked every turn).  A wage below
    L3 always may (``wage_levels`` then offers the next level up), so only a company at L3 or
    above is worked out."""
    cards, face_up, wages = st.seat_card, st.seat_face_up, st.seat_wage
    for seat in _owned_seats(cls):
        index = cards[seat]
        if index < 0 or not face_up[seat] or not HAS_WAGES[index] or wages[seat] < 0:
            continue  # not present, or no wage (``wage_levels`` is empty)
        if wages[seat] < L3 or wage_levels(st, seat, FREE_MODE):
            return True
    return False


def _start_adjust_wages(st: HegemonyState, cls: int) -> None:
    st.ctx["economy_wages"] = 0
    st.push((ADJUST_WAGES, cls, FREE_MODE))


def _legal_wages(st: HegemonyState, item: Item) -> list[int]:
    b = blocks(item[1])
    legal = [b.company + seat
             for seat in _wage_seats(st, item[1], item[2], st.ctx["economy_wages"])]
    if item[2] == FOLLOW_UP or st.ctx["economy_wages"]:
        legal.append(b.DONE)
    return legal


def _apply_wages(st: HegemonyState, item: Item, action: int) -> None:
    b = blocks(item[1])
    if action == b.DONE:
        st.ctx["economy_wages"] = 0
        st.agenda.pop()
        return
    seat = action - b.company
    st.push((WAGE_LEVEL, item[1], item[2] * _SEAT_BITS + seat))


def _legal_wage_level(st: HegemonyState, item: Item) -> list[int]:
    mode, seat = divmod(item[2], _SEAT_BITS)
    b = blocks(item[1])
    return [b.wage + level for level in wage_levels(st, seat, mode)]


def _apply_wage_level(st: HegemonyState, item: Item, action: int) -> None:
    """Set the level; a raise by the free action commits every worker there (§4.8, §5.3)."""
    mode, seat = divmod(item[2], _SEAT_BITS)
    level = action - blocks(item[1]).wage
    if mode == FREE_MODE and level > st.seat_wage[seat]:
        commit_all(st, seat)
    st.seat_wage[seat] = level
    st.ctx["economy_wages"] |= 1 << seat
    st.agenda.pop()


# -- §4.9 Give Bonus ---------------------------------------------------------------------------
def _bonus_seats(st: HegemonyState, first: bool = False) -> list[int]:
    """CC's operational companies with a worker not committed (``first``: stop at one)."""
    if not money.can_pay(st, CC, D.GIVE_BONUS):
        return []
    seats = []
    for seat in CC_SEATS:
        if board.is_operational(st, seat) and any(
                w != NO_WORKER and not st.seat_committed[seat][k]
                for k, w in enumerate(st.seat_workers[seat])):
            seats.append(seat)
            if first:
                break
    return seats


def _can_bonus(st: HegemonyState, cls: int) -> bool:
    return bool(_bonus_seats(st, first=True))


def _start_bonus(st: HegemonyState, cls: int) -> None:
    st.push((GIVE_BONUS, CC, 0))


def _legal_bonus(st: HegemonyState, item: Item) -> list[int]:
    b = blocks(CC)
    return [b.company + seat for seat in _bonus_seats(st)]


def _apply_bonus(st: HegemonyState, item: Item, action: int) -> None:
    """Pay 5 to the class of the company's workers, then commit them (§4.9)."""
    seat = action - blocks(CC).company
    money.pay(st, CC, D.GIVE_BONUS, board.staff_class(st, seat))
    commit_all(st, seat)
    st.agenda.pop()


# -- §4.10 Buy Storage -------------------------------------------------------------------------
def _storage_goods(st: HegemonyState) -> list[int]:
    if sum(st.storage_tiles) >= D.STORAGE_TILES or not money.can_pay(st, CC,
                                                                    D.STORAGE_TILE_COST):
        return []
    return [good for good in range(4) if not st.storage_tiles[good]]


def _can_storage(st: HegemonyState, cls: int) -> bool:
    return bool(_storage_goods(st))


def _start_storage(st: HegemonyState, cls: int) -> None:
    st.push((BUY_STORAGE, CC, 0))


def _legal_storage(st: HegemonyState, item: Item) -> list[int]:
    b = blocks(CC)
    return [b.resource + good for good in _storage_goods(st)]


def _apply_storage(st: HegemonyState, item: Item, action: int) -> None:
    money.pay(st, CC, D.STORAGE_TILE_COST)
    st.storage_tiles[action - blocks(CC).resource] = 1
    st.agenda.pop()


# -- the tables turn.py joins ------------------------------------------------------------------
CODES: dict[int, Decision | Step] = {
    ADJUST_WAGES: Decision("adjust_wages", _legal_wages, _apply_wages),
    ADJUST_PRICES: Decision("adjust_prices", _legal_prices, _apply_prices),
    WAGE_LEVEL: Decision("adjust_wages_level", _legal_wage_level, _apply_wage_level),
    GIVE_BONUS: Decision("give_bonus", _legal_bonus, _apply_bonus),
    BUY_STORAGE: Decision("buy_storage", _legal_storage, _apply_storage),
}

FREE = {
    "use_health": (_can_use(HEALTH), _start_use_health),
    "use_luxury": (_can_use(LUX), _start_use_luxury),
    "receive_benefits": (_can_benefits, _start_benefits),
    "pay_off_loan": (_can_pay_off, _start_pay_off),
    "adjust_prices": (_can_adjust_prices, _start_adjust_prices),
    "adjust_wages": (_can_adjust_wages, _start_adjust_wages),
    "give_bonus": (_can_bonus, _start_bonus),
    "buy_storage": (_can_storage, _start_storage),
}
