"""Test-only reference: the observation encoder as it was before the fast rewrite.

``test_observation`` checks that ``envs.hegemony.observation.encode`` gives exactly these
values, bit for bit.  It reads the state through ``board`` as the original did, so a rule
change there that the fast encoder does not follow shows up as a mismatch.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from meeplezoo.envs.hegemony import board
from meeplezoo.envs.hegemony import cards as C
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony.actions import MAX_SLOTS, MC, NUM_SEATS, ROLE_NAMES, WC, WORKER_KINDS
from meeplezoo.envs.hegemony.observation import CTX_BITS, CTX_SEAT_SETS, layout, peeked
from meeplezoo.envs.hegemony.state import BENEFIT_ITEMS, NO_WORKER

if TYPE_CHECKING:
    from meeplezoo.envs.hegemony.state import HegemonyState


def _scale(value: float, high: float, low: float = 0.0) -> float:
    """``value`` mapped from [low, high] into [0, 1], clipped."""
    x = (value - low) / (high - low)
    return 0.0 if x < 0 else 1.0 if x > 1 else x


def _ctx_keys() -> list[str]:
    from meeplezoo.envs.hegemony.hidden import SECRET_BIDS
    from meeplezoo.envs.hegemony.turn import CTX_DEFAULTS

    return [k for k in sorted(CTX_DEFAULTS) if k not in SECRET_BIDS]


def _decision_codes() -> list[int]:
    from meeplezoo.envs.hegemony.rules import build_rules

    agenda = build_rules().agenda
    return sorted(c for c in agenda.codes if agenda.is_decision(c))


@cache
def _offsets(role: str) -> dict[str, int]:
    lay = layout(role)
    return {name: lay.block(name).start for name in lay.blocks()}


def encode(st: HegemonyState, player: int) -> np.ndarray:
    role = ROLE_NAMES[player]
    lay = layout(role)
    o = _offsets(role)
    x = np.zeros(lay.size, dtype=np.float32)
    f: list[tuple[int, float]] = []  # (index, value), written at the end
    if st.agenda:
        code, seat, arg = st.agenda[-1]
        codes = _decision_codes()
        if seat == player and code in codes:
            f.append((o["decision"] + codes.index(code), 1.0))
            f.append((o["decision_arg"], _scale(arg, 300, -1)))
    k = 0
    for key in _ctx_keys():  # small bit sets one feature per bit, seat sets counted
        value = st.ctx.get(key, 0)
        if key in CTX_BITS:
            for bit in range(CTX_BITS[key]):
                f.append((o["ctx"] + k, float(value >> bit & 1)))
                k += 1
        elif key in CTX_SEAT_SETS:
            f.append((o["ctx"] + k, _scale(bin(value).count("1"), 31)))
            k += 1
        else:
            f.append((o["ctx"] + k, _scale(value, 255, -1)))
            k += 1
    f.append((o["round"] + st.round - 1, 1.0))
    f.append((o["turn_pass"], _scale(st.turn_pass, 5)))
    f.append((o["turn_flags"], float(st.main_done)))
    f.append((o["turn_flags"] + 1, float(st.free_used)))
    for p, s in enumerate(st.policies):
        f.append((o["policy"] + 3 * p + s, 1.0))
    for p, bill in enumerate(st.bills):
        if bill >= 0:
            f.append((o["bill"] + 12 * p + bill, 1.0))
    for c in range(4):
        f.append((o["markers_used"] + c, _scale(st.markers_used[c], D.BILL_MARKERS)))
        f.append((o["money"] + c, _scale(st.money[c], 300)))
        f.append((o["loans"] + c, _scale(st.loans[c], 10)))
        f.append((o["vp"] + c, _scale(st.vp[c], 250, -50)))
        f.append((o["influence"] + c, _scale(st.influence[c], D.INFLUENCE_CUBES)))
        f.append((o["hand_size"] + c, _scale(len(st.hands[c]), 7)))
    f.append((o["tax_multiplier"], _scale(D.tax_multiplier(*st.policies[2:5]), 11)))
    f.append((o["capital"], _scale(st.capital, 500)))
    f.append((o["influence_supply"], _scale(board.influence_supply(st), D.INFLUENCE_CUBES)))
    for c in range(3):
        f.append((o["bag"] + c, _scale(st.bag[c], D.VOTING_CUBES)))
        f.append((o["cube_supply"] + c, _scale(st.cube_supply[c], D.VOTING_CUBES)))
    for c, who in ((WC, "WC"), (MC, "MC")):
        f.append((o[f"{who}_prosperity"], _scale(st.prosperity[c], 10)))
        f.append((o[f"{who}_population"], _scale(board.population(st, c), 10)))
        for k in range(len(WORKER_KINDS)):
            f.append((o[f"{who}_unemployed"] + k, _scale(st.unemployed[c][k], 20)))
        for g in range(4):
            f.append((o[f"{who}_goods"] + g, _scale(st.goods[c][g], 30)))
    for i in range(5):
        f.append((o["unions"] + i, float(st.unions[i])))
    for g in range(4):
        f.append((o["mc_storage"] + g, _scale(st.mc_storage[g], 8)))
        f.append((o["cc_storage"] + g, _scale(st.cc_storage[g], 24)))
        f.append((o["storage_tiles"] + g, float(st.storage_tiles[g])))
        f.append((o["prices"] + g, st.prices[0][g] / 2))
        f.append((o["prices"] + 4 + g, st.prices[1][g] / 2))
    for g in range(2):
        f.append((o["ftz"] + g, _scale(st.ftz[g], 12)))
        f.append((o["state_goods"] + g, _scale(st.state_goods[g], 20)))
    f.append((o["wealth"], _scale(st.wealth, 15)))
    for c in range(3):
        f.append((o["legitimacy"] + c, _scale(st.legitimacy[c], 10)))
        f.append((o["legit_tokens"] + c, _scale(st.legit_tokens[c], 6)))
        f.append((o["public_services"] + c, _scale(st.public_services[c], 30)))
        for k in range(len(BENEFIT_ITEMS)):
            f.append((o["benefits"] + len(BENEFIT_ITEMS) * c + k, _scale(st.benefits[c][k], 30)))
    f.append((o["tokens"], float(st.demonstration)))
    f.append((o["tokens"] + 1, _scale(board.strike_tokens_left(st), D.STRIKE_TOKENS)))
    f.append((o["tokens"] + 2, _scale(board.machinery_left(st), D.MACHINERY_TOKENS)))
    _companies(st, o["companies"], f)
    _markets(st, o["markets"], f)
    for k, deal in enumerate(st.deals[:2]):
        d = D.DEALS[deal]
        base = o["deals"] + 4 * k
        f += [(base, 1.0), (base + 1, _scale(d.food, 8)), (base + 2, _scale(d.lux, 12)),
              (base + 3, _scale(d.cost, 80))]
    if st.export >= 0:
        offers = C.EXPORTS[st.export].offers
        for g, good in enumerate(D.GOODS):
            for size, (qty, price) in enumerate(offers[good]):
                base = o["export"] + 4 * g + 2 * size
                f += [(base, _scale(qty, 8)), (base + 1, _scale(price, 80))]
    for k, event in enumerate(st.events[:4]):
        f.append((o["events"] + len(C.EVENTS) * k + event, 1.0))
    if st.agenda_card >= 0:
        target = C.AGENDAS[st.agenda_card].target
        for p in range(5):
            f.append((o["agenda"] + 3 * p + D.SECTIONS.index(target[f"p{p + 1}"]), 1.0))
    for design in set(st.hands[player]):
        f.append((o["hand"] + design, _scale(st.hands[player].count(design), 3)))
    events, exports = peeked(st, player)  # the cards a peek shows the deciding class
    for j, event in enumerate(events):
        f.append((o["peek"] + len(C.EVENTS) * j + event, 1.0))
    start = o["peek"] + 5 * len(C.EVENTS)
    for j, export in enumerate(exports):
        offers = C.EXPORTS[export].offers
        for g, good in enumerate(D.GOODS):
            for size, (qty, price) in enumerate(offers[good]):
                base = start + 16 * j + 4 * g + 2 * size
                f += [(base, _scale(qty, 8)), (base + 1, _scale(price, 80))]
    for index, value in f:
        x[index] = value
    return x


SEAT_WIDTH = 17 + MAX_SLOTS * (7 + len(WORKER_KINDS))  # as the labels in ``layout``


def _companies(st: HegemonyState, start: int, f: list[tuple[int, float]]) -> None:
    for seat in range(NUM_SEATS):
        index = st.seat_card[seat]
        if index < 0:
            continue
        c = D.COMPANIES[index]
        base = start + seat * SEAT_WIDTH
        level = st.seat_wage[seat]
        f += [(base, 1.0), (base + 1, float(st.seat_face_up[seat])),
              (base + 2 + c.industry, 1.0), (base + 7, _scale(c.cost, 50)),
              (base + 8, _scale(c.production, 10))]
        if level >= 0:
            f += [(base + 9 + level, 1.0), (base + 12, _scale(board.wage_amount(st, seat), 40))]
        f += [(base + 13, float(st.seat_machinery[seat])), (base + 14, float(st.seat_strike[seat])),
              (base + 15, float(board.is_operational(st, seat))),
              (base + 16, float(board.is_fully_operational(st, seat)))]
        for k, slot in enumerate(c.slots[:MAX_SLOTS]):
            sb = base + 17 + k * (7 + len(WORKER_KINDS))
            f += [(sb, 1.0), (sb + 1, float(slot.skill is not None)), (sb + 2, float(slot.mc)),
                  (sb + 3, float(slot.employee))]
            w = st.seat_workers[seat][k]
            if w != NO_WORKER:
                f += [(sb + 4 + w // 6, 1.0), (sb + 6 + w % 6, 1.0),
                      (sb + 6 + len(WORKER_KINDS), float(st.seat_committed[seat][k]))]


MARKET_WIDTH = 1 + 5 + 6


def _markets(st: HegemonyState, start: int, f: list[tuple[int, float]]) -> None:
    for k, index in enumerate([*st.cc_market[:4], None, None, None, None][:4]
                              + [*st.mc_market[:3], None, None, None][:3]):
        if index is None:
            continue
        c = D.COMPANIES[index]
        base = start + k * MARKET_WIDTH
        f += [(base, 1.0), (base + 1 + c.industry, 1.0), (base + 6, _scale(c.cost, 50)),
              (base + 7, _scale(c.production, 10)), (base + 8, _scale(len(c.slots), 3)),
              (base + 9, _scale(c.wages[0] if c.wages else 0, 30)),
              (base + 10, float(any(s.employee for s in c.slots))),
              (base + 11, float(c.automated))]

