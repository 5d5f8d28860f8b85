"""Which catalogue actions are legal at each decision kind (as index lists).

An empty list means the decision has nothing left to ask: the state then
finishes it automatically (see ``envs/core/agenda.py``).  A list with one
entry is played automatically too, so a policy only ever sees real choices.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeplezoo.envs.necropolis_railway import actions as A
from meeplezoo.envs.necropolis_railway import data as D
from meeplezoo.envs.necropolis_railway.board import SIDE_A, STAFF, Player

if TYPE_CHECKING:
    from meeplezoo.envs.core.agenda import Item
    from meeplezoo.envs.necropolis_railway.state import NecropolisState

_COLS = range(D.COLUMNS)
_KINDS = range(len(D.MORTUARY_KINDS))


def mortuary_payment(p: Player, kind: int, baggage: bool) -> tuple[int, int, int]:
    """(from Necropolis mourners, from train mourners, money) to build ``kind``."""
    need = D.MORTUARY_MOURNERS[kind]
    from_necro = min(need, p.necro_mourners)
    need -= from_necro
    from_train = min(need, p.train_mourners) if baggage else 0
    need -= from_train
    return from_necro, from_train, need * D.MONEY_PER_MISSING_MOURNER


def build_actions(st: NecropolisState, p: Player, mode: int, kinds: range | tuple = _KINDS
                  ) -> list[int]:
    """Mortuary builds.  mode 0: mourners then money; 1: mourners only; 2: free."""
    supply = st.mortuary_supply
    free_cols = [c for c in _COLS if p.mortuary[c] == 0]
    if not free_cols:
        return []
    out = []
    for k in kinds:
        if supply[k] <= 0:
            continue
        if mode == 0:
            if mortuary_payment(p, k, st.t_baggage)[2] > p.money:
                continue
        elif mode == 1 and p.necro_mourners < D.MORTUARY_MOURNERS[k]:
            continue
        base = A.BUILD + k * D.COLUMNS
        out.extend(base + c for c in free_cols)
    return out


def hire_actions(p: Player, cost: int) -> list[int]:
    if p.staff_supply <= 0 or p.money < cost:
        return []
    return [A.HIRE + s for s in p.free_spots()]


def upgrade_actions(p: Player, free: bool) -> list[int]:
    out = []
    money = p.money
    for s in range(D.NUM_SLOTS):
        lvl = p.london[s]
        if lvl < 2 and (free or D.SLOT_COST[s][lvl] <= money):
            out.append(A.UPGRADE + s)
    return out


def rail_upgrade_actions(p: Player, discount: int, free: bool) -> list[int]:
    """Add or flip a capacity tile (cost minus ``discount``, never below 0)."""
    out = []
    money = p.money
    for kind in (0, 1):
        row = p.cars[kind]
        n = len(row)
        if n < D.CAR_POSITIONS and (free or max(0, D.ADD_COST[n] - discount) <= money):
            out.append(A.RAIL_ADD + kind)
        flip = max(0, D.FLIP_COST[kind] - discount)
        if free or flip <= money:
            base = A.RAIL_FLIP + kind * D.CAR_POSITIONS
            for pos in range(n):
                if row[pos] == SIDE_A:
                    out.append(base + pos)
    return out


def cannot_afford_anything(p: Player, st: NecropolisState) -> bool:
    """The railway 'sell' condition: no London upgrade, hire or rail tile is affordable."""
    return not (can_upgrade(p) or can_hire(p, D.HIRE_COST) or can_rail_upgrade(p, 0))


def sell_actions(p: Player, st: NecropolisState) -> list[int]:
    out = []
    for kind in (0, 1):
        row = p.cars[kind]
        room = p.capacity(kind) - D.CAR_CAP[kind][SIDE_A]
        if row and row[-1] == SIDE_A and p.cargo(kind) <= room:
            out.append(A.RAIL_SELL + kind)
    if out and not cannot_afford_anything(p, st):
        return []
    return out


def railway_actions(st: NecropolisState, p: Player, bonus_space: int) -> list[int]:
    """The Railway action (``bonus_space`` < 0) or the grey bonus space's discounted upgrade."""
    if bonus_space >= 0:
        return rail_upgrade_actions(p, D.BONUS_RAIL[bonus_space], False)
    out = rail_upgrade_actions(p, 0, False)
    if len(p.tucked) < D.MAX_TUCKED and st.t_card >= 0:
        out.append(A.RAIL_TUCK)
    out.extend(sell_actions(p, st))
    return out


def necropolis_actions(st: NecropolisState, p: Player) -> list[int]:
    out = [] if st.t_hired else hire_actions(p, D.HIRE_COST)
    if not st.t_built:
        out.extend(build_actions(st, p, 0))
    if st.t_hired or st.t_built:
        out.append(A.SKIP)
    return out


# -- fast yes/no checks for the turn menu -------------------------------------------------
_NEXT_COST = [(a, b, 1 << 30) for a, b in D.SLOT_COST]  # [slot][level] -> cost of next step


def can_upgrade(p: Player) -> bool:
    money = p.money
    return any(_NEXT_COST[s][lvl] <= money for s, lvl in enumerate(p.london))


def can_hire(p: Player, cost: int) -> bool:
    return (p.staff_supply > 0 and p.money >= cost
            and (p.london_staff + p.london_vol < D.LONDON_STAFF_SPACES or 0 in p.col_worker))


def can_build(st: NecropolisState, p: Player) -> bool:
    if 0 not in p.mortuary:
        return False
    supply = st.mortuary_supply
    return any(supply[k] > 0 and mortuary_payment(p, k, st.t_baggage)[2] <= p.money
               for k in _KINDS)


def can_rail_upgrade(p: Player, discount: int) -> bool:
    money = p.money
    for kind in (0, 1):
        row = p.cars[kind]
        n = len(row)
        if n < D.CAR_POSITIONS and D.ADD_COST[n] - discount <= money:
            return True
        if SIDE_A in row and D.FLIP_COST[kind] - discount <= money:
            return True
    return False


_N_BONUS = len(D.BONUS_SPACES)
_B_COLOUR, _B_HIRE, _B_RAIL, _B_COFFINS = (D.BONUS_COLOUR, D.BONUS_HIRE, D.BONUS_RAIL,
                                         D.BONUS_COFFINS)
_C_LONDON, _C_NECRO, _C_RAIL = D.ACTION_COLOUR


def turn_actions(st: NecropolisState, p: Player) -> list[int]:
    used = st.t_used
    out = []
    discs = p.discs
    orange = discs[D.ORANGE] > 0
    if not used[0] and (orange or discs[_C_LONDON]) and can_upgrade(p):
        out.append(A.ACTION)
    if not used[1] and (orange or discs[_C_NECRO]) and (
            can_hire(p, D.HIRE_COST) or can_build(st, p)):
        out.append(A.ACTION + 1)
    if not used[2] and (orange or discs[_C_RAIL]) and (
            can_rail_upgrade(p, 0) or (len(p.tucked) < D.MAX_TUCKED and st.t_card >= 0)
            or sell_actions(p, st)):
        out.append(A.ACTION + 2)
    if not used[3]:
        spaces = st.bonus_spaces
        for b in range(_N_BONUS):
            if spaces[b] >= 0 or not (orange or discs[_B_COLOUR[b]]):
                continue
            cost = _B_HIRE[b]
            if cost >= 0:
                if not can_hire(p, cost):
                    continue
            elif _B_RAIL[b] >= 0:
                if not can_rail_upgrade(p, _B_RAIL[b]):
                    continue
            elif _B_COFFINS[b] and not any(st.bag):
                continue
            out.append(A.BONUS + b)
    level = p.prestige
    if not used[4] and level < D.PRESTIGE_MAX and sum(discs) >= D.PRESTIGE_COST[level + 1]:
        out.append(A.PRESTIGE)
    if not used[5] and p.tucked:
        usable = len(p.tucked) - (1 if st.t_tucked_now else 0)
        out.extend(A.USE_TUCKED + k for k in range(usable))
    out.append(A.END_TURN)
    return out


def pay_actions(st: NecropolisState, p: Player) -> list[int]:
    discs = p.discs
    purpose = st.pay_purpose
    if purpose == A.PURPOSE_PRESTIGE:
        total = sum(discs)
        if total <= st.pay_left:
            return []  # every disc must go: paid automatically
        return [A.PAY + c for c in range(D.NUM_DISC_COLOURS) if discs[c] > 0]
    if purpose < A.PURPOSE_BONUS:
        colour = D.ACTION_COLOUR[purpose]
    else:
        colour = D.BONUS_COLOUR[purpose - A.PURPOSE_BONUS]
    out = [A.PAY + colour] if discs[colour] > 0 else []
    if discs[D.ORANGE] > 0:
        out.append(A.PAY + D.ORANGE)
    return out


def load_actions(p: Player) -> list[int]:
    free = p.coffin_capacity() - sum(p.train)
    waiting = p.waiting
    if free <= 0 or sum(waiting) <= free:
        return []
    colours = [c for c in range(D.NUM_COFFIN_COLOURS) if waiting[c] > 0]
    if len(colours) < 2:
        return []
    return [A.LOAD + c for c in colours]


def bury_actions(p: Player) -> list[int]:
    cols = [c for c in _COLS if p.col_worker[c] and p.fill[c] < D.ROWS]
    if not cols:
        return []
    out = []
    train = p.train
    for k in range(D.NUM_COFFIN_COLOURS):
        if train[k] > 0:
            base = A.BURY + k * D.COLUMNS
            out.extend(base + c for c in cols)
    return out


def dismiss_actions(p: Player, rate: int) -> list[int]:
    if p.money >= rate * p.staff_count():
        return []
    out = [A.DISMISS] if p.london_staff > 0 else []
    out.extend(A.DISMISS + 1 + c for c in _COLS if p.col_worker[c] == STAFF)
    return out


def discard_actions(p: Player) -> list[int]:
    if sum(p.discs) <= D.HOLD_LIMIT:
        return []
    return [A.DISCARD + c for c in range(D.NUM_DISC_COLOURS) if p.discs[c] > 0]


def century_actions(st: NecropolisState, p: Player) -> list[int]:
    out = upgrade_actions(p, True)
    out.extend(rail_upgrade_actions(p, 0, True))
    if p.staff_supply > 0:
        out.extend(A.HIRE + s for s in p.free_spots())
    out.extend(build_actions(st, p, 1))
    out.append(A.SKIP)
    return out


def final_actions(st: NecropolisState, p: Player) -> list[int]:
    out = hire_actions(p, D.HIRE_COST)
    out.extend(build_actions(st, p, 0))
    out.append(A.SKIP)
    return out


# -- dispatch: decision kind -> legal(state, item) -------------------------------------------
_TAKE_ALL = [A.TAKE + k for k in range(D.ROW_SIZE)]
_END_STATION = [A.END_TURN, A.SKIP]  # the end move: take the station's actions, or decline


def _income_disc(st: NecropolisState, item: Item) -> list[int]:
    supply = st.disc_supply
    return [A.GAIN + i for i, c in enumerate(D.INCOME_DISC_COLOURS) if supply[c] > 0]


def _turn(st: NecropolisState, item: Item) -> list[int]:
    if item[2] == A.TURN_END_STATION:
        return _END_STATION
    return turn_actions(st, st.players[item[1]])


def _perk(st: NecropolisState, item: Item) -> list[int]:
    perks = st.players[item[1]].perks
    return [A.PERK + k for k in range(len(D.PERKS)) if not perks[k]]


_BY_KIND = {
    A.K_TAKE: lambda st, item: _TAKE_ALL,
    A.K_TURN: _turn,
    A.K_PAY: lambda st, item: pay_actions(st, st.players[item[1]]),
    A.K_LONDON: lambda st, item: upgrade_actions(st.players[item[1]], False),
    A.K_NECRO: lambda st, item: necropolis_actions(st, st.players[item[1]]),
    A.K_RAIL: lambda st, item: railway_actions(st, st.players[item[1]], item[2]),
    A.K_BONUS_HIRE: lambda st, item: hire_actions(st.players[item[1]], item[2]),
    A.K_PERK: _perk,
    A.K_VOLUNTEER: lambda st, item: [A.VOLUNTEER + s for s in st.players[item[1]].free_spots()],
    A.K_FREE_MORT: lambda st, item: build_actions(st, st.players[item[1]], 2, (item[2],)),
    A.K_INCOME_DISC: _income_disc,
    A.K_LOAD: lambda st, item: load_actions(st.players[item[1]]),
    A.K_BURY: lambda st, item: bury_actions(st.players[item[1]]),
    A.K_DISMISS: lambda st, item: dismiss_actions(st.players[item[1]], item[2]),
    A.K_DISCARD: lambda st, item: discard_actions(st.players[item[1]]),
    A.K_CENTURY: lambda st, item: century_actions(st, st.players[item[1]]),
    A.K_FINAL: lambda st, item: final_actions(st, st.players[item[1]]),
}
LEGAL = [_BY_KIND[k] for k in range(A.NUM_DECISIONS)]  # legal(state, item) by decision kind
