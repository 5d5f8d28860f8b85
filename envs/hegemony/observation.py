"""Each class's observation: the public table of §2.3, its own hand, and the pending decision.

Every entry is named (``layout(role).names``) and scaled into [0, 1].  A class sees
money, influence, the bag by colour, markets, Events, the Agenda, the Export card,
the Deals and every company; it sees its own hand, never the others' hands, any
deck's order or a sealed bid before the reveal (``hidden.SECRET_BIDS``).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from envs.core.features import FeatureLayout
from envs.hegemony import board
from envs.hegemony import cards as C
from envs.hegemony import data as D
from envs.hegemony.actions import (
    MAX_SLOTS,
    MC,
    NUM_SEATS,
    ROLE_NAMES,
    SEAT_NAMES,
    WC,
    WORKER_KINDS,
    card_designs,
)
from envs.hegemony.state import BENEFIT_ITEMS, KINDS, NO_WORKER

if TYPE_CHECKING:
    from envs.hegemony.state import HegemonyState

CLASS_NAMES = D.CLASSES


def _scale(value: float, high: float, low: float = 0.0) -> float:
    """``value`` mapped from [low, high] into [0, 1], clipped."""
    x = (value - low) / (high - low)
    return 0.0 if x < 0 else 1.0 if x > 1 else x


def _ctx_keys() -> list[str]:
    from envs.hegemony.hidden import SECRET_BIDS
    from envs.hegemony.turn import CTX_DEFAULTS

    return [k for k in sorted(CTX_DEFAULTS) if k not in SECRET_BIDS]


def _decision_codes() -> list[int]:
    from envs.hegemony.turn import AGENDA

    return sorted(c for c in AGENDA.codes if AGENDA.is_decision(c))


@cache
def layout(role: str) -> FeatureLayout:
    cls = ROLE_NAMES.index(role)
    lay = FeatureLayout()
    from envs.hegemony.turn import AGENDA

    lay.add("decision", [AGENDA.name(c) for c in _decision_codes()])
    lay.add("decision_arg")
    lay.add("ctx", _ctx_keys())
    lay.add("round", [f"r{r}" for r in range(1, D.ROUNDS + 1)])
    lay.add("turn_pass")
    lay.add("turn_flags", ["main_done", "free_used"])
    lay.add("policy", [f"p{p + 1}_{s}" for p in range(7) for s in D.SECTIONS])
    lay.add("bill", [f"p{p + 1}_{who}_{s}" for p in range(7) for who in CLASS_NAMES
                     for s in D.SECTIONS])
    lay.add("markers_used", list(CLASS_NAMES))
    lay.add("tax_multiplier")
    for name, items in (
        ("money", CLASS_NAMES), ("loans", CLASS_NAMES), ("vp", CLASS_NAMES),
        ("influence", CLASS_NAMES), ("hand_size", CLASS_NAMES),
    ):
        lay.add(name, list(items))
    lay.add("capital")
    lay.add("influence_supply")
    lay.add("bag", list(CLASS_NAMES[:3]))
    lay.add("cube_supply", list(CLASS_NAMES[:3]))
    for who in ("WC", "MC"):
        lay.add(f"{who}_prosperity")
        lay.add(f"{who}_population")
        lay.add(f"{who}_unemployed", list(WORKER_KINDS))
        lay.add(f"{who}_goods", list(D.GOODS))
    lay.add("unions", list(D.INDUSTRIES))
    lay.add("mc_storage", list(D.GOODS))
    lay.add("cc_storage", list(D.GOODS))
    lay.add("ftz", ["food", "lux"])
    lay.add("storage_tiles", list(D.GOODS))
    lay.add("wealth")
    lay.add("prices", [f"{who}_{g}" for who in ("MC", "CC") for g in D.GOODS])
    lay.add("legitimacy", list(CLASS_NAMES[:3]))
    lay.add("legit_tokens", list(CLASS_NAMES[:3]))
    lay.add("public_services", ["health", "edu", "influence"])
    lay.add("state_goods", ["food", "lux"])
    lay.add("benefits", [f"{who}_{item}" for who in CLASS_NAMES[:3] for item in BENEFIT_ITEMS])
    lay.add("tokens", ["demonstration", "strike_left", "machinery_left"])
    seat_labels = []
    for seat in SEAT_NAMES:
        seat_labels += [f"{seat}_{x}" for x in (
            "present", "face_up", *D.INDUSTRIES, "cost", "production", "wage_L1", "wage_L2",
            "wage_L3", "wage_amount", "machinery", "strike", "operational", "full")]
        for k in range(MAX_SLOTS):
            seat_labels += [f"{seat}_slot{k + 1}_{x}" for x in (
                "exists", "skilled", "mc_slot", "employee", "WC", "MC", *WORKER_KINDS,
                "committed")]
    lay.add("companies", seat_labels)
    market_labels = [f"{m}_{x}" for m in [f"cc_market{k + 1}" for k in range(4)]
                     + [f"mc_market{k + 1}" for k in range(3)]
                     for x in ("present", *D.INDUSTRIES, "cost", "production", "slots",
                               "wage_L1", "employee", "automated")]
    lay.add("markets", market_labels)
    lay.add("deals", [f"deal{k + 1}_{x}" for k in range(2)
                      for x in ("present", "food", "lux", "cost")])
    lay.add("export", [f"{g}_{size}_{x}" for g in D.GOODS for size in ("small", "large")
                       for x in ("qty", "price")])
    lay.add("events", [f"event{k + 1}_{e.id}" for k in range(2) for e in C.EVENTS])
    lay.add("agenda", [f"p{p + 1}_{s}" for p in range(5) for s in D.SECTIONS])
    lay.add("hand", list(card_designs(cls)))
    return lay


@cache
def _offsets(role: str) -> dict[str, int]:
    lay = layout(role)
    return {name: lay.block(name).start for name in lay.blocks()}


# -- the encoder ------------------------------------------------------------------------
# ``encode`` runs once per decision, so it does as little Python per feature as it can:
# the state's numbers are gathered into one list in the fixed order of ``_Plan.index``
# and scaled by precomputed vectors; one-hots are written as index lists; what comes
# from a card (a company's industry, cost and slots, a market card, a Deal, an Export
# card) is a precomputed row.  ``tests/hegemony/observation_reference.py`` keeps the
# plain per-feature encoder that this one must match bit for bit.

SLOT_WIDTH = 7 + len(WORKER_KINDS)  # exists, skilled, mc_slot, employee, WC, MC, kinds, committed
SEAT_WIDTH = 17 + MAX_SLOTS * SLOT_WIDTH  # as the labels in ``layout``
MARKET_WIDTH = 1 + 5 + 6
MARKET_PLACES = (4, 3)  # the CC market's places, then the MC market's
HAND_COUNT = tuple(_scale(n, 3) for n in range(4))  # copies of a design in hand, 3 or more: 1


@dataclass(frozen=True)
class _Plan:
    """Where each gathered number goes in one role's vector, and how it is scaled."""

    size: int
    index: np.ndarray  # positions of the gathered numbers, in gathering order
    low: np.ndarray  # each number becomes (value - low) / span ...
    span: np.ndarray
    clipped: int  # ... clipped into [0, 1] for the first ``clipped`` numbers (not for flags)
    decision: dict[int, int]  # agenda code -> position of its one-hot
    decision_arg: int
    round: int
    policy: tuple[int, ...]  # policy p's section-A position
    bill: tuple[int, ...]  # policy p's first bill position
    companies: slice
    markets: slice
    deals: int
    export: slice
    events: int
    agenda: tuple[tuple[int, ...], ...]  # per Agenda card, the positions of its targets
    hand: int


@cache
def _plan(role: str) -> _Plan:
    lay = layout(role)
    o = _offsets(role)
    rows: list[tuple[int, float, float]] = []  # (position, high, low)

    def add(block: str, count: int, high: float, low: float = 0.0) -> None:
        rows.extend((o[block] + k, high, low) for k in range(count))

    add("ctx", len(_ctx_keys()), 255, -1)
    add("turn_pass", 1, 5)
    for block, high, low in (("markers_used", D.BILL_MARKERS, 0.0), ("money", 300, 0.0),
                             ("loans", 10, 0.0), ("vp", 250, -50), ("influence",
                             D.INFLUENCE_CUBES, 0.0), ("hand_size", 7, 0.0)):
        add(block, 4, high, low)
    add("tax_multiplier", 1, 11)
    add("capital", 1, 500)
    add("influence_supply", 1, D.INFLUENCE_CUBES)
    add("bag", 3, D.VOTING_CUBES)
    add("cube_supply", 3, D.VOTING_CUBES)
    for who in ("WC", "MC"):
        add(f"{who}_prosperity", 1, 10)
        add(f"{who}_population", 1, 10)
        add(f"{who}_unemployed", len(WORKER_KINDS), 20)
        add(f"{who}_goods", 4, 30)
    add("mc_storage", 4, 8)
    add("cc_storage", 4, 24)
    add("ftz", 2, 12)
    add("state_goods", 2, 20)
    add("wealth", 1, 15)
    add("legitimacy", 3, 10)
    add("legit_tokens", 3, 6)
    add("public_services", 3, 30)
    add("benefits", 3 * len(BENEFIT_ITEMS), 30)
    rows.append((o["tokens"] + 1, D.STRIKE_TOKENS, 0.0))
    rows.append((o["tokens"] + 2, D.MACHINERY_TOKENS, 0.0))
    clipped = len(rows)
    add("turn_flags", 2, 1)  # flags and price steps: value / span, as they are
    add("unions", 5, 1)
    add("storage_tiles", 4, 1)
    add("prices", 8, 2)
    rows.append((o["tokens"], 1, 0.0))
    low = np.array([r[2] for r in rows], dtype=np.float64)
    span = np.array([r[1] for r in rows], dtype=np.float64) - low
    companies = lay.block("companies")
    markets = lay.block("markets")
    export = lay.block("export")
    if (companies.stop - companies.start != NUM_SEATS * SEAT_WIDTH
            or markets.stop - markets.start != sum(MARKET_PLACES) * MARKET_WIDTH
            or export.stop - export.start != 4 * len(D.GOODS)):
        raise AssertionError("observation layout and encoder widths disagree")
    return _Plan(
        size=lay.size,
        index=np.array([r[0] for r in rows], dtype=np.intp),
        low=low,
        span=span,
        clipped=clipped,
        decision={code: o["decision"] + k for k, code in enumerate(_decision_codes())},
        decision_arg=o["decision_arg"],
        round=o["round"] - 1,
        policy=tuple(o["policy"] + 3 * p for p in range(7)),
        bill=tuple(o["bill"] + 12 * p for p in range(7)),
        companies=companies,
        markets=markets,
        deals=o["deals"],
        export=export,
        events=o["events"],
        agenda=tuple(tuple(o["agenda"] + 3 * p + D.SECTIONS.index(a.target[f"p{p + 1}"])
                           for p in range(5)) for a in C.AGENDAS),
        hand=o["hand"],
    )


@cache
def _ctx_getter() -> Callable[[dict[str, int]], tuple[int, ...]]:
    return operator.itemgetter(*_ctx_keys())


def encode(st: HegemonyState, player: int) -> np.ndarray:
    plan = _plan(ROLE_NAMES[player])
    x = np.zeros(plan.size, dtype=np.float32)
    try:
        ctx = _ctx_getter()(st.ctx)
    except KeyError:  # a hand-made state may lack scratch keys: they read as 0
        ctx = tuple(st.ctx.get(key, 0) for key in _ctx_keys())
    block, employed = _company_block(st)
    x[plan.companies] = block
    hands, policies, unemployed, goods = st.hands, st.policies, st.unemployed, st.goods
    benefits, prices = st.benefits, st.prices
    wc_owned = employed[WC] + sum(unemployed[WC]) + sum(st.unions)  # board.workers_owned
    mc_owned = employed[MC] + sum(unemployed[MC])
    numbers = [
        *ctx, st.turn_pass, *st.markers_used, *st.money, *st.loans, *st.vp, *st.influence,
        len(hands[0]), len(hands[1]), len(hands[2]), len(hands[3]),
        D.tax_multiplier(policies[2], policies[3], policies[4]), st.capital,
        board.influence_supply(st), *st.bag, *st.cube_supply,
        st.prosperity[WC], D.population(wc_owned), *unemployed[WC], *goods[WC],
        st.prosperity[MC], D.population(mc_owned), *unemployed[MC], *goods[MC],
        *st.mc_storage, *st.cc_storage, *st.ftz, *st.state_goods, st.wealth,
        *st.legitimacy, *st.legit_tokens, *st.public_services,
        *benefits[0], *benefits[1], *benefits[2],
        board.strike_tokens_left(st), board.machinery_left(st),
        st.main_done, st.free_used, *st.unions, *st.storage_tiles, *prices[0], *prices[1],
        st.demonstration,
    ]
    y = np.array(numbers, dtype=np.float64)
    y -= plan.low
    y /= plan.span
    head = y[:plan.clipped]
    np.maximum(head, 0.0, out=head)
    np.minimum(head, 1.0, out=head)
    x[plan.index] = y

    ones = [plan.round + st.round, *[a + s for a, s in zip(plan.policy, policies)],
            *[b + bill for b, bill in zip(plan.bill, st.bills) if bill >= 0]]
    at: list[int] = []  # positions and values of the rest
    values: list[float] = []
    if st.agenda:
        code, seat, arg = st.agenda[-1]
        if seat == player and code in plan.decision:
            ones.append(plan.decision[code])
            at.append(plan.decision_arg)
            values.append(_scale(arg, 100, -1))
    for k, event in enumerate(st.events[:2]):
        ones.append(plan.events + len(C.EVENTS) * k + event)
    if st.agenda_card >= 0:
        ones += plan.agenda[st.agenda_card]
    for k, deal in enumerate(st.deals[:2]):
        base = plan.deals + 4 * k
        at += (base, base + 1, base + 2, base + 3)
        values += _DEAL_ROWS[deal]
    hand = hands[player]
    for design in set(hand):
        at.append(plan.hand + design)
        values.append(HAND_COUNT[min(hand.count(design), 3)])
    x[ones] = 1.0
    if at:
        x[at] = values
    if st.export >= 0:
        x[plan.export] = _EXPORT_ROWS[st.export]
    places = [k for k in range(min(len(st.cc_market), MARKET_PLACES[0]))]
    places += [MARKET_PLACES[0] + k for k in range(min(len(st.mc_market), MARKET_PLACES[1]))]
    if places:
        market_cards = st.cc_market[:MARKET_PLACES[0]] + st.mc_market[:MARKET_PLACES[1]]
        x[plan.markets].reshape(-1, MARKET_WIDTH)[places] = _MARKET_ROWS[market_cards]
    return x


# -- rows read off the cards -------------------------------------------------------------
def _market_row(c: D.CompanyCard) -> list[float]:
    row = [0.0] * MARKET_WIDTH
    row[0] = 1.0
    row[1 + c.industry] = 1.0
    row[6], row[7] = _scale(c.cost, 50), _scale(c.production, 10)
    row[8], row[9] = _scale(len(c.slots), 3), _scale(c.wages[0] if c.wages else 0, 30)
    row[10], row[11] = float(any(s.employee for s in c.slots)), float(c.automated)
    return row


def _export_row(index: int) -> list[float]:
    row = [0.0] * (4 * len(D.GOODS))
    offers = C.EXPORTS[index].offers
    for g, good in enumerate(D.GOODS):
        for size, (qty, price) in enumerate(offers[good]):
            row[4 * g + 2 * size], row[4 * g + 2 * size + 1] = _scale(qty, 8), _scale(price, 80)
    return row


def _seat_row(c: D.CompanyCard) -> list[float]:
    """The part of a company seat's features printed on its card."""
    row = [0.0] * SEAT_WIDTH
    row[0] = 1.0
    row[2 + c.industry] = 1.0
    row[7], row[8] = _scale(c.cost, 50), _scale(c.production, 10)
    for k, slot in enumerate(c.slots[:MAX_SLOTS]):
        sb = 17 + k * SLOT_WIDTH
        row[sb:sb + 4] = [1.0, float(slot.skill is not None), float(slot.mc), float(slot.employee)]
    return row


_MARKET_ROWS = np.array([_market_row(c) for c in D.COMPANIES], dtype=np.float32)
_EXPORT_ROWS = np.array([_export_row(k) for k in range(len(C.EXPORTS))], dtype=np.float32)
_DEAL_ROWS = tuple((1.0, _scale(d.food, 8), _scale(d.lux, 12), _scale(d.cost, 80))
                   for d in D.DEALS)
_SEAT_ROWS = np.array([_seat_row(c) for c in D.COMPANIES], dtype=np.float32)
# Per card, what ``board.is_operational`` / ``is_fully_operational`` read: whether it is
# automated, the slots that must be filled to operate, and how many slots it has.
_OPERATES = tuple(
    (c.automated,
     tuple(range(len(c.slots))) if c.sector == "coop"
     else tuple(k for k, s in enumerate(c.slots) if not s.employee),
     len(c.slots))
    for c in D.COMPANIES)
_WAGE_AMOUNT = tuple(tuple(_scale(w, 40) for w in c.wages) if c.wages else (0.0, 0.0, 0.0)
                     for c in D.COMPANIES)


# -- the company seats, memoised on their inputs ------------------------------------------
_COMPANY_FIELDS = ("seat_card", "seat_workers", "seat_face_up", "seat_wage", "seat_machinery",
                   "seat_strike", "seat_committed")
# The last inputs seen (copies), the seats' block and the employed workers per class.  A
# company changes in about one decision in five, so most observations copy the block.
_memo: tuple[list, np.ndarray, tuple[int, int]] | None = None


def _company_block(st: HegemonyState) -> tuple[np.ndarray, tuple[int, int]]:
    """Every seat's features (``NUM_SEATS * SEAT_WIDTH``, not to be written to) and the
    WC / MC workers employed anywhere."""
    global _memo
    inputs = [getattr(st, name) for name in _COMPANY_FIELDS]
    memo = _memo
    if memo is not None and memo[0] == inputs:
        return memo[1], memo[2]
    block, employed = _companies(st)
    _memo = ([list(st.seat_card), [list(r) for r in st.seat_workers], list(st.seat_face_up),
              list(st.seat_wage), list(st.seat_machinery), list(st.seat_strike),
              [list(r) for r in st.seat_committed]], block, employed)
    return block, employed


def _companies(st: HegemonyState) -> tuple[np.ndarray, tuple[int, int]]:
    block = np.zeros((NUM_SEATS, SEAT_WIDTH), dtype=np.float32)
    cards = st.seat_card
    seats = [seat for seat in range(NUM_SEATS) if cards[seat] >= 0]
    if seats:
        block[seats] = _SEAT_ROWS[[cards[seat] for seat in seats]]
    flat = block.reshape(-1)
    at: list[int] = []
    values: list[float] = []
    for seat in seats:
        index = cards[seat]
        base = seat * SEAT_WIDTH
        face_up = st.seat_face_up[seat]
        level = st.seat_wage[seat]
        workers = st.seat_workers[seat]
        at += (base + 1, base + 13, base + 14)
        values += (face_up, st.seat_machinery[seat], st.seat_strike[seat])
        if level >= 0:
            at += (base + 9 + level, base + 12)
            values += (1.0, _WAGE_AMOUNT[index][level])
        automated, needed, n_slots = _OPERATES[index]
        operational = bool(face_up) and (
            automated or all(workers[k] != NO_WORKER for k in needed))
        at += (base + 15, base + 16)
        values += (operational, operational and all(
            workers[k] != NO_WORKER for k in range(n_slots)))
        committed = st.seat_committed[seat]
        for k in range(min(n_slots, MAX_SLOTS)):
            w = workers[k]
            if w != NO_WORKER:
                sb = base + 17 + k * SLOT_WIDTH
                at += (sb + 4 + w // 6, sb + 6 + w % 6, sb + 6 + len(WORKER_KINDS))
                values += (1.0, 1.0, committed[k])
    if at:
        flat[at] = values
    employed = [0, 0, 0]  # board.employed_workers of WC and MC, in one pass
    for row in st.seat_workers:
        for w in row:
            if w != NO_WORKER and w < 2 * KINDS:
                employed[w // KINDS] += 1
    return block.reshape(-1), (employed[WC], employed[MC])
