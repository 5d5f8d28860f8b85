"""Each class's observation: the public table of §2.3, its own hand, and the pending decision.

Every entry is named (``layout(role).names``) and scaled into [0, 1].  A class sees
money, influence, the bag by colour, markets, Events, the Agenda, the Export card,
the Deals and every company; it sees its own hand, never the others' hands, any
deck's order or a sealed bid before the reveal (``hidden.SECRET_BIDS``).
"""

from __future__ import annotations

import operator
import struct
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from meeplezoo.envs.core.features import FeatureLayout
from meeplezoo.envs.hegemony import board, economy_trade, effects
from meeplezoo.envs.hegemony import cards as C
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony.actions import (
    MAX_FACE_UP_EVENTS,
    MAX_PEEKED_EXPORTS,
    MAX_SLOTS,
    MC,
    NUM_SEATS,
    ROLE_NAMES,
    SEAT_NAMES,
    WC,
    WORKER_KINDS,
    card_designs,
)
from meeplezoo.envs.hegemony.politics import SECRET_BIDS
from meeplezoo.envs.hegemony.state import BENEFIT_ITEMS, KINDS, NO_WORKER
from meeplezoo.envs.hegemony.turn import AGENDA_NAMES, CTX_DEFAULTS, DECISION_CODES

if TYPE_CHECKING:
    from meeplezoo.envs.hegemony.state import HegemonyState

CLASS_NAMES = D.CLASSES
PEEK_EVENTS = 5  # event_peek shows at most 5 Events (cards_vocabulary.py)
PEEK_EXPORTS = 1 + MAX_PEEKED_EXPORTS  # the current Export card and up to 3 under it


def _scale(value: float, high: float, low: float = 0.0) -> float:
    """``value`` mapped from [low, high] into [0, 1], clipped."""
    x = (value - low) / (high - low)
    return 0.0 if x < 0 else 1.0 if x > 1 else x


def _ctx_keys() -> list[str]:
    return [k for k in sorted(CTX_DEFAULTS) if k not in SECRET_BIDS]


# Scratch keys that are small bit sets (who declared For, which offers or sources were used):
# one feature per bit.  Keys that are sets of company seats count their bits (/31); every other
# key is a number (-1..254 scaled).
CTX_BITS = {"politics_for": 4, "politics_part": 4, "politics_bids_in": 4, "market_done": 4,
            "economy_buy_used": 4, "economy_prices": 4, "effects_benefits": 3,
            "politics_tax_picked": 3, "economy_export": 10, "politics_revealed": 9}
CTX_SEAT_SETS = ("economy_wages", "workers_op_before", "workers_swapped_1", "workers_swapped_2",
                 "workers_swapped_3", "workers_vacated_1", "workers_vacated_2",
                 "workers_vacated_3")


def _ctx_labels() -> list[str]:
    labels = []
    for key in _ctx_keys():
        if key in CTX_BITS:
            labels += [f"{key}:{bit}" for bit in range(CTX_BITS[key])]
        else:
            labels.append(key)
    return labels


def _ctx_numbers_of(values: tuple[int, ...]) -> list[int]:
    """Bits spread, seat sets counted, numbers kept."""
    out: list[int] = []
    for kind, value in zip(_ctx_kinds(), values):
        if kind > 0:
            out += _BIT_ROWS[kind][value & ((1 << kind) - 1)]
        elif kind < 0:
            out.append(int(value).bit_count())
        else:
            out.append(value)
    return out


@cache
def _ctx_kinds() -> tuple[int, ...]:
    """Per ctx key: its bit count (bits spread), -1 (a seat set, counted) or 0 (a number)."""
    return tuple(CTX_BITS.get(k, -1 if k in CTX_SEAT_SETS else 0) for k in _ctx_keys())


_BIT_ROWS = {w: tuple(tuple((v >> b) & 1 for b in range(w)) for v in range(1 << w))
             for w in set(CTX_BITS.values())}


def _decision_codes() -> list[int]:
    return list(DECISION_CODES)


@cache
def layout(role: str) -> FeatureLayout:
    cls = ROLE_NAMES.index(role)
    lay = FeatureLayout()
    lay.add("decision", [AGENDA_NAMES[c] for c in _decision_codes()])
    lay.add("decision_arg")
    lay.add("ctx", _ctx_labels())
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
    lay.add("events", [f"event{k + 1}_{e.id}" for k in range(MAX_FACE_UP_EVENTS)
                       for e in C.EVENTS])
    lay.add("agenda", [f"p{p + 1}_{s}" for p in range(5) for s in D.SECTIONS])
    lay.add("hand", list(card_designs(cls)))
    # what the deciding class alone sees while it chooses among cards a card let it look at
    # (event_peek, peek_exports) or sells to a peeked Export card; zero otherwise
    lay.add("peek", [f"event{j + 1}_{e.id}" for j in range(PEEK_EVENTS) for e in C.EVENTS]
            + [f"export{j}_{g}_{size}_{x}" for j in range(PEEK_EXPORTS) for g in D.GOODS
               for size in ("small", "large") for x in ("qty", "price")])
    return lay


@cache
def _offsets(role: str) -> dict[str, int]:
    lay = layout(role)
    return {name: lay.block(name).start for name in lay.blocks()}


# -- the encoder ------------------------------------------------------------------------
# ``encode`` runs once per decision, so it does as little Python and as few numpy calls as
# it can.  The vector is three parts, in layout order: everything up to the companies is
# one list of integers (counts and tracks as they are, one-hots as rows from small tables)
# packed into an int64 buffer and scaled by precomputed vectors; then the table (companies
# to the Agenda card), kept from the last call while its inputs are unchanged; then the
# hand.  What comes from a card (a company's industry, cost and slots, a market card, a
# Deal, an Export card) is a precomputed row.  ``tests/hegemony/observation_reference.py``
# keeps the plain per-feature encoder that this one must match bit for bit.

SLOT_WIDTH = 7 + len(WORKER_KINDS)  # exists, skilled, mc_slot, employee, WC, MC, kinds, committed
SEAT_WIDTH = 17 + MAX_SLOTS * SLOT_WIDTH  # as the labels in ``layout``
MARKET_WIDTH = 1 + 5 + 6
MARKET_PLACES = (4, 3)  # the CC market's places, then the MC market's
HAND_COUNT = tuple(_scale(n, 3) for n in range(4))  # copies of a design in hand, 3 or more: 1
INF = float("inf")
FLAG = (1, 0.0, False)  # a 0/1 entry or a one-hot: written as it is


def _one_hot(size: int, at: int) -> tuple[int, ...]:
    return tuple(int(k == at) for k in range(size))


ROUND_ROWS = {r: _one_hot(D.ROUNDS, r - 1) for r in range(1, D.ROUNDS + 1)}
SECTION_ROWS = tuple(_one_hot(3, s) for s in range(3))
BILL_ROWS = tuple(_one_hot(12, b) for b in range(-1, 12))  # by bill + 1: -1 is no bill


@dataclass(frozen=True)
class _Part:
    """The scaling of a run of numbered entries: each number becomes (value - low) / span,
    then is clipped into [floor, ceiling]: [0, 1], or unbounded for flags and one-hots."""

    low: np.ndarray
    span: np.ndarray
    floor: np.ndarray
    ceiling: np.ndarray
    pack: Callable[..., bytes]  # the numbers as int64s

    @classmethod
    def of(cls, scales: list[tuple[float, float, bool]]) -> _Part:
        low = np.array([s[1] for s in scales], dtype=np.float64)
        return cls(low=low, span=np.array([s[0] for s in scales], dtype=np.float64) - low,
                   floor=np.array([0.0 if s[2] else -INF for s in scales], dtype=np.float64),
                   ceiling=np.array([1.0 if s[2] else INF for s in scales], dtype=np.float64),
                   pack=struct.Struct(f"={len(scales)}q").pack)

    def scale(self, numbers: list[int]) -> np.ndarray:
        try:  # packed as machine integers: much cheaper than numpy reading a list
            y = np.frombuffer(self.pack(*numbers), dtype=np.int64) - self.low
        except (struct.error, OverflowError):  # a non-integer or a huge number: as floats
            if len(numbers) != self.low.size:
                raise
            y = np.array(numbers, dtype=np.float64) - self.low
        y /= self.span
        np.maximum(y, self.floor, out=y)
        np.minimum(y, self.ceiling, out=y)
        return y


@dataclass(frozen=True)
class _Plan:
    """How one role's vector is put together.  The numbered part (every entry before the
    companies) is four runs: the decision (its one-hot and argument), the scratch and the
    laws (policies, bills), each kept scaled by what it is read from as it recurs (the same
    for every role: ``_RUN_MEMOS``); and the body, the rest (round and turn entries, between
    the scratch and the laws, then markers to tokens).  Then the table (companies to the Agenda
    card, ``_Table``), the hand and the peek."""

    size: int
    decision: _Part
    ctx: _Part
    laws: _Part
    body: _Part
    turn_width: int  # the body's entries before the laws
    decisions: dict[int, tuple[int, ...]]  # agenda code -> the decision block's row
    no_decision: tuple[int, ...]  # the row when this role is not the one deciding
    table: slice  # companies, markets, deals, export, events, agenda: ``_Table``
    hand: slice
    peek: slice


# How each block before the companies is scaled: (high, low, clipped into [0, 1]).
_SCALES: dict[str, tuple[float, float, bool]] = {
    "decision": FLAG, "decision_arg": (300, -1, True),
    "round": FLAG, "turn_pass": (5, 0.0, True), "turn_flags": FLAG, "policy": FLAG,
    "bill": FLAG, "markers_used": (D.BILL_MARKERS, 0.0, True), "tax_multiplier": (11, 0.0, True),
    "money": (300, 0.0, True), "loans": (10, 0.0, True), "vp": (250, -50, True),
    "influence": (D.INFLUENCE_CUBES, 0.0, True), "hand_size": (7, 0.0, True),
    "capital": (500, 0.0, True), "influence_supply": (D.INFLUENCE_CUBES, 0.0, True),
    "bag": (D.VOTING_CUBES, 0.0, True), "cube_supply": (D.VOTING_CUBES, 0.0, True),
    **{f"{who}_{name}": scale for who in ("WC", "MC") for name, scale in (
        ("prosperity", (10, 0.0, True)), ("population", (10, 0.0, True)),
        ("unemployed", (20, 0.0, True)), ("goods", (30, 0.0, True)))},
    "unions": FLAG, "mc_storage": (8, 0.0, True), "cc_storage": (24, 0.0, True),
    "ftz": (12, 0.0, True), "storage_tiles": FLAG, "wealth": (15, 0.0, True),
    "prices": (2, 0.0, False), "legitimacy": (10, 0.0, True), "legit_tokens": (6, 0.0, True),
    "public_services": (30, 0.0, True), "state_goods": (20, 0.0, True),
    "benefits": (30, 0.0, True),
}
# The tokens block mixes a flag (Demonstration) with two counts.
_TOKEN_SCALES = (FLAG, (D.STRIKE_TOKENS, 0.0, True), (D.MACHINERY_TOKENS, 0.0, True))


def _ctx_scales() -> list[tuple[float, float, bool]]:
    out: list[tuple[float, float, bool]] = []
    for kind in _ctx_kinds():
        if kind > 0:
            out += [FLAG] * kind
        else:
            out.append((31, 0.0, True) if kind < 0 else (255, -1, True))
    return out


@cache
def _plan(role: str) -> _Plan:
    lay = layout(role)
    blocks = lay.blocks()
    scales: list[tuple[float, float, bool]] = []
    for name, span in blocks.items():
        if name == "companies":
            break
        width = span.stop - span.start
        if name == "ctx":
            scales += _ctx_scales()
        else:
            scales += _TOKEN_SCALES if name == "tokens" else [_SCALES[name]] * width
    table = slice(blocks["companies"].start, blocks["agenda"].stop)
    if (len(scales) != table.start or table != _table_slice()
            or blocks["hand"].start != table.stop or blocks["peek"].stop != lay.size
            or blocks["companies"].stop - table.start != NUM_SEATS * SEAT_WIDTH
            or blocks["markets"].stop - blocks["markets"].start
            != sum(MARKET_PLACES) * MARKET_WIDTH
            or blocks["export"].stop - blocks["export"].start != 4 * len(D.GOODS)):
        raise AssertionError("observation layout and encoder disagree")
    ctx, laws = blocks["ctx"], slice(blocks["policy"].start, blocks["bill"].stop)
    if blocks["policy"].stop != blocks["bill"].start or ctx.start != blocks["decision_arg"].stop:
        raise AssertionError("observation layout and encoder disagree")
    codes = _decision_codes()
    plan = _Plan(
        size=lay.size,
        decision=_Part.of(scales[:ctx.start]),
        ctx=_Part.of(scales[ctx]),
        laws=_Part.of(scales[laws]),
        body=_Part.of(scales[ctx.stop:laws.start] + scales[laws.stop:]),
        turn_width=laws.start - ctx.stop,
        decisions={code: _one_hot(len(codes), k) for k, code in enumerate(codes)},
        no_decision=_one_hot(len(codes), -1),
        table=table,
        hand=blocks["hand"],
        peek=blocks["peek"],
    )
    if role != ROLE_NAMES[0]:  # the kept runs are shared: every role's must be the same
        first = _plan(ROLE_NAMES[0])
        for mine, theirs in ((plan.decision, first.decision), (plan.ctx, first.ctx),
                             (plan.laws, first.laws)):
            if not all(np.array_equal(getattr(mine, f), getattr(theirs, f))
                       for f in ("low", "span", "floor", "ceiling")):
                raise AssertionError("observation runs differ between roles")
    return plan


# The decision, scratch and laws runs, scaled, by what they are read from (shared by the roles,
# cleared when full).  Their rows are never written to.
_RUN_MEMOS: dict[str, dict[tuple, np.ndarray]] = {"decision": {}, "ctx": {}, "laws": {}}
_MEMO_LIMIT = 4096


def _kept_run(memo: dict[tuple, np.ndarray], key: tuple, part: _Part,
              numbers: Callable[[], list[int]]) -> np.ndarray:
    row = memo.get(key)
    if row is None:
        if len(memo) >= _MEMO_LIMIT:
            memo.clear()
        row = part.scale(numbers()).astype(np.float32)
        row.flags.writeable = False
        memo[key] = row
    return row


def _decision_run(plan: _Plan, code: int, arg: int) -> np.ndarray:
    """The pending decision's one-hot (``code`` -1: not this role's) and its argument."""
    row = _RUN_MEMOS["decision"].get((code, arg))
    if row is not None:
        return row
    return _kept_run(_RUN_MEMOS["decision"], (code, arg), plan.decision, lambda: [
        *(plan.decisions[code] if code >= 0 else plan.no_decision), arg])


def _ctx_run(plan: _Plan, ctx: tuple[int, ...]) -> np.ndarray:
    row = _RUN_MEMOS["ctx"].get(ctx)
    if row is not None:
        return row
    return _kept_run(_RUN_MEMOS["ctx"], ctx, plan.ctx, lambda: _ctx_numbers_of(ctx))


def _laws_run(plan: _Plan, policies: list[int], bills: list[int]) -> np.ndarray:
    """The policy and bill one-hots (the laws change a few times a round)."""
    key = (tuple(policies), tuple(bills))
    row = _RUN_MEMOS["laws"].get(key)
    if row is not None:
        return row
    return _kept_run(_RUN_MEMOS["laws"], key, plan.laws, lambda: [
        *SECTION_ROWS[policies[0]], *SECTION_ROWS[policies[1]], *SECTION_ROWS[policies[2]],
        *SECTION_ROWS[policies[3]], *SECTION_ROWS[policies[4]], *SECTION_ROWS[policies[5]],
        *SECTION_ROWS[policies[6]],
        *BILL_ROWS[bills[0] + 1], *BILL_ROWS[bills[1] + 1], *BILL_ROWS[bills[2] + 1],
        *BILL_ROWS[bills[3] + 1], *BILL_ROWS[bills[4] + 1], *BILL_ROWS[bills[5] + 1],
        *BILL_ROWS[bills[6] + 1]])


@cache
def _ctx_getter() -> Callable[[dict[str, int]], tuple[int, ...]]:
    return operator.itemgetter(*_ctx_keys())


def encode(st: HegemonyState, player: int) -> np.ndarray:
    """``player``'s features, a fresh array the caller may keep."""
    plan = _plan(ROLE_NAMES[player])
    code, arg = -1, -1  # not this role's decision; the argument -1 scales to 0
    if st.agenda:
        top, seat, item_arg = st.agenda[-1]
        if seat == player and top in plan.decisions:
            code, arg = top, item_arg
    try:
        ctx = _ctx_getter()(st.ctx)
    except KeyError:  # a hand-made state may lack scratch keys: they read as 0
        ctx = tuple(st.ctx.get(key, 0) for key in _ctx_keys())
    kept = _kept_for(st)
    table, employed, tokens_left = kept.table.read(st)
    hands, policies, unemployed, goods = st.hands, st.policies, st.unemployed, st.goods
    benefits, prices = st.benefits, st.prices
    wc_owned = employed[WC] + sum(unemployed[WC]) + sum(st.unions)  # board.workers_owned
    mc_owned = employed[MC] + sum(unemployed[MC])
    y = plan.body.scale([
        *ROUND_ROWS[st.round], st.turn_pass, st.main_done, st.free_used,
        *st.markers_used, D.tax_multiplier(policies[2], policies[3], policies[4]),
        *st.money, *st.loans, *st.vp, *st.influence,
        len(hands[0]), len(hands[1]), len(hands[2]), len(hands[3]),
        st.capital, board.influence_supply(st), *st.bag, *st.cube_supply,
        st.prosperity[WC], board.population_of(wc_owned), *unemployed[WC], *goods[WC],
        st.prosperity[MC], board.population_of(mc_owned), *unemployed[MC], *goods[MC],
        *st.unions, *st.mc_storage, *st.cc_storage, *st.ftz, *st.storage_tiles, st.wealth,
        *prices[0], *prices[1], *st.legitimacy, *st.legit_tokens, *st.public_services,
        *st.state_goods, *benefits[0], *benefits[1], *benefits[2],
        st.demonstration, *tokens_left,
    ])
    turn = plan.turn_width
    hand = kept.hands.read(hands[player], player, plan.hand.stop - plan.hand.start)
    peek = _peek(st, player, plan.peek.stop - plan.peek.start)
    return np.concatenate((_decision_run(plan, code, arg), _ctx_run(plan, ctx), y[:turn],
                           _laws_run(plan, policies, st.bills), y[turn:], table, hand, peek),
                          dtype=np.float32)


def peeked(st: HegemonyState, player: int) -> tuple[list[int], list[int]]:
    """The Events and Export cards ``player`` is looking at for its pending decision (top
    first), or two empty lists: what ``hidden.resample_hidden`` keeps for that viewer."""
    if not st.agenda or st.agenda[-1][1] != player or st.agenda[-1][0] not in _peek_codes():
        return [], []
    code, _seat, arg = st.agenda[-1]
    if code == effects.PEEK:
        k = min(st.game.rules.cards.nodes[arg]["k"], len(st.event_deck))
        return st.event_deck[len(st.event_deck) - k:][::-1], []
    if code == effects.PEEK_SWAP:
        return [st.event_deck[st.ctx[effects.PEEKED]]], []
    if code == economy_trade.EXPORT_CARD:
        return [], list(economy_trade._peek_cards(st))
    if code == economy_trade.SELL_FOREIGN and st.ctx.get("economy_export_card", -1) >= 0:
        return [], [st.ctx["economy_export_card"]]
    return [], []


@cache
def _peek_codes() -> frozenset[int]:
    """The decisions during which a peek shows cards (see ``peeked``)."""
    return frozenset((effects.PEEK, effects.PEEK_SWAP, economy_trade.EXPORT_CARD,
                      economy_trade.SELL_FOREIGN))


def _peek(st: HegemonyState, player: int, width: int) -> np.ndarray:
    events, exports = peeked(st, player)
    if not events and not exports:  # the usual case: a shared zero row (it is only copied)
        # a zero row per width, never written to, kept on the game (``Game.memo``; a thread
        # of the same game that races only stores an equal row)
        zeros = st.game.memo("hegemony.no_peek")
        row = zeros.get(width)
        if row is None:
            row = zeros[width] = np.zeros(width, dtype=np.float32)
        return row
    row = np.zeros(width, dtype=np.float32)
    for j, event in enumerate(events[:PEEK_EVENTS]):
        row[j * len(C.EVENTS) + event] = 1.0
    start = PEEK_EVENTS * len(C.EVENTS)
    for j, export in enumerate(exports[:PEEK_EXPORTS]):
        row[start + j * 4 * len(D.GOODS):start + (j + 1) * 4 * len(D.GOODS)] = \
            _EXPORT_ROWS[export]
    return row


class _Hands:
    """Each seat's hand features, kept while its hand is unchanged."""

    def __init__(self) -> None:
        self.last: dict[int, tuple[list[int], np.ndarray]] = {}

    def read(self, hand: list[int], seat: int, designs: int) -> np.ndarray:
        kept = self.last.get(seat)
        if kept is not None and kept[0] == hand and kept[1].size == designs:
            return kept[1]
        row = np.zeros(designs, dtype=np.float32)
        for design in set(hand):
            row[design] = HAND_COUNT[min(hand.count(design), 3)]
        self.last[seat] = (list(hand), row)
        return row


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
_DEAL_ROWS = np.array([(1.0, _scale(d.food, 8), _scale(d.lux, 12), _scale(d.cost, 80))
                       for d in D.DEALS], dtype=np.float32)
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


# -- the table, kept between calls ------------------------------------------------------------
SEAT_FIELDS = ("seat_card", "seat_workers", "seat_face_up", "seat_wage", "seat_machinery",
               "seat_strike", "seat_committed")
CARD_FIELDS = ("cc_market", "mc_market", "deals", "export", "events", "agenda_card")


@cache
def _table_slice() -> slice:
    """The table's place in the vector: the same for every role (only the hand differs)."""
    lay = layout(ROLE_NAMES[0])
    return slice(lay.block("companies").start, lay.block("agenda").stop)


class _Table:
    """The table's features for the last state read, with copies of what they were read
    from.  A changed seat is re-read alone (its row from ``_seat_features``); the market, Deal,
    Export, Event and Agenda part is re-read whole when any of it changes.  Keyed by value, so
    any state may ask."""

    def __init__(self) -> None:
        self.seats: list | None = None  # copies of the ``SEAT_FIELDS``
        self.cards: list | None = None  # copies of the ``CARD_FIELDS``
        self.block = np.zeros(_table_slice().stop - _table_slice().start, dtype=np.float32)
        self.seat_rows = self.block[:NUM_SEATS * SEAT_WIDTH].reshape(NUM_SEATS, SEAT_WIDTH)
        self.employed = (0, 0)  # WC and MC workers in companies (``board.employed_workers``)
        self.tokens_left = (0, 0)  # strike and machinery tokens left (``board``'s)

    def read(self, st: HegemonyState) -> tuple[np.ndarray, tuple[int, int], tuple[int, int]]:
        """The table's features, the employed WC / MC workers and the strike and machinery
        tokens left.  The array is updated in place by the next read: ``encode`` copies it at
        once (one per state and thread: ``_kept_for``)."""
        seats = [st.seat_card, st.seat_workers, st.seat_face_up, st.seat_wage,
                 st.seat_machinery, st.seat_strike, st.seat_committed]  # as SEAT_FIELDS
        cards = [st.cc_market, st.mc_market, st.deals, st.export, st.events, st.agenda_card]
        if seats != self.seats:
            self._read_seats(st, seats)
        if cards != self.cards:
            self._read_cards(st, self.block)
            self.cards = [list(st.cc_market), list(st.mc_market), list(st.deals), st.export,
                          list(st.events), st.agenda_card]
        return self.block, self.employed, self.tokens_left

    def _read_seats(self, st: HegemonyState, seats: list) -> None:
        old = self.seats
        changed: Iterable[int]
        if old is None:
            changed = range(NUM_SEATS)
            self.employed = _employed(st.seat_workers)
            self.seats = [_copy(now) for now in seats]
        else:
            marked: set[int] = set()
            for f, now in enumerate(seats):
                before = old[f]
                if now == before:
                    continue
                diff = [seat for seat in range(NUM_SEATS) if now[seat] != before[seat]]
                marked.update(diff)
                if f == 1:  # workers moved: the employed counts follow the changed seats
                    gone = _employed([before[seat] for seat in diff])
                    came = _employed([now[seat] for seat in diff])
                    self.employed = (self.employed[0] - gone[0] + came[0],
                                     self.employed[1] - gone[1] + came[1])
                nested = isinstance(now[0], list)
                for seat in diff:  # the copy follows the changed seats only
                    before[seat] = list(now[seat]) if nested else now[seat]
            changed = marked
        self.tokens_left = (board.strike_tokens_left(st), board.machinery_left(st))
        rows = self.seat_rows
        for seat in changed:
            rows[seat] = _seat_features(st, seat)

    def _read_cards(self, st: HegemonyState, block: np.ndarray) -> None:
        start = NUM_SEATS * SEAT_WIDTH
        block[start:] = 0.0
        markets = block[start:start + sum(MARKET_PLACES) * MARKET_WIDTH].reshape(
            -1, MARKET_WIDTH)
        cc, mc = st.cc_market[:MARKET_PLACES[0]], st.mc_market[:MARKET_PLACES[1]]
        if cc or mc:
            places = [*range(len(cc)), *range(MARKET_PLACES[0], MARKET_PLACES[0] + len(mc))]
            markets[places] = _MARKET_ROWS[cc + mc]
        start += sum(MARKET_PLACES) * MARKET_WIDTH
        for k, deal in enumerate(st.deals[:2]):
            block[start + 4 * k:start + 4 * k + 4] = _DEAL_ROWS[deal]
        start += 8
        if st.export >= 0:
            block[start:start + 4 * len(D.GOODS)] = _EXPORT_ROWS[st.export]
        start += 4 * len(D.GOODS)
        for k, event in enumerate(st.events[:MAX_FACE_UP_EVENTS]):
            block[start + len(C.EVENTS) * k + event] = 1.0
        start += MAX_FACE_UP_EVENTS * len(C.EVENTS)
        if st.agenda_card >= 0:
            target = C.AGENDAS[st.agenda_card].target
            block[[start + 3 * p + D.SECTIONS.index(target[f"p{p + 1}"])
                   for p in range(5)]] = 1.0


# A seat's features by what they are read from (card, face up, wage level, machinery, strike
# token, workers, committed flags): a company's row is mostly at rest between its changes and
# few positions recur, so each is worked out once.  The rows are never written to.  Kept on
# the game (``Game.memo``, never module-level: two games in two threads never meet): each row
# is a pure function of its key, so threads of one game that race only store equal rows (a
# dict assignment or ``clear`` is atomic under the GIL).
SEAT_MEMO = "hegemony.seat_rows"
_SEAT_MEMO_LIMIT = 16384
_NO_SEAT = np.zeros(SEAT_WIDTH, dtype=np.float32)


def _seat_features(st: HegemonyState, seat: int) -> np.ndarray:
    index = st.seat_card[seat]
    if index < 0:
        return _NO_SEAT
    key = (index, st.seat_face_up[seat], st.seat_wage[seat], st.seat_machinery[seat],
           st.seat_strike[seat], tuple(st.seat_workers[seat]), tuple(st.seat_committed[seat]))
    rows = st.game.memo(SEAT_MEMO)
    row = rows.get(key)
    if row is None:
        if len(rows) >= _SEAT_MEMO_LIMIT:
            rows.clear()
        row = rows[key] = _seat_row_of(st, seat, index)
    return row


def _seat_row_of(st: HegemonyState, seat: int, index: int) -> np.ndarray:
    """The seat's features: the card's printed part (``_SEAT_ROWS``) and what sits on it."""
    row = _SEAT_ROWS[index].copy()
    face_up = st.seat_face_up[seat]
    level = st.seat_wage[seat]
    workers = st.seat_workers[seat]
    at = [1, 13, 14]
    values: list[float] = [face_up, st.seat_machinery[seat], st.seat_strike[seat]]
    if level >= 0:
        at += (9 + level, 12)
        values += (1.0, _WAGE_AMOUNT[index][level])
    automated, needed, n_slots = _OPERATES[index]
    operational = bool(face_up) and (automated or all(workers[k] != NO_WORKER for k in needed))
    at += (15, 16)
    values += (operational, operational and all(
        workers[k] != NO_WORKER for k in range(n_slots)))
    committed = st.seat_committed[seat]
    for k in range(min(n_slots, MAX_SLOTS)):
        w = workers[k]
        if w != NO_WORKER:
            sb = 17 + k * SLOT_WIDTH
            at += (sb + 4 + w // KINDS, sb + 6 + w % KINDS, sb + 6 + len(WORKER_KINDS))
            values += (1.0, 1.0, committed[k])
    row[at] = values
    row.flags.writeable = False
    return row


def _copy(field: list) -> list:
    """A copy of a seat field, two deep for the per-slot ones."""
    return [list(v) for v in field] if field and isinstance(field[0], list) else list(field)


def _employed(rows: list[list[int]]) -> tuple[int, int]:
    """WC and MC workers in these seats' slots (``board.employed_workers``)."""
    wc = mc = 0
    for row in rows:
        for w in row:
            if 0 <= w < KINDS:
                wc += 1
            elif KINDS <= w < 2 * KINDS:
                mc += 1
    return wc, mc


class StateMemo:
    """What ``encode`` keeps between calls for one game (``HegemonyState._obs_memo``): the
    table and hands last read from it.  Several games encoded in turn (a vectorised trainer's
    environments) would otherwise each find the other's table and re-read most of it.  Used
    only by the thread that made it; a copy or a pickle starts empty (its arrays are views of
    one block, which a copy would not keep) and a clone starts without one."""

    def __init__(self) -> None:
        self.table = _Table()
        self.hands = _Hands()
        self.thread = threading.get_ident()

    def __deepcopy__(self, memo: dict) -> StateMemo:
        return StateMemo()

    def __reduce__(self) -> tuple:
        return StateMemo, ()


class _Kept(threading.local):
    """The memo of a state read by another thread than its memo's: one per game and thread
    (``Game.memo``; the memos are not shared between threads, so threaded callers cannot
    interleave their updates)."""

    def __init__(self) -> None:
        self.table = _Table()
        self.hands = _Hands()


def _kept_for(st: HegemonyState) -> StateMemo | _Kept:
    """The state's own memo (made at its first encoding), or its game's for this thread."""
    memo = st.__dict__.get("_obs_memo")
    if memo is None:
        memo = st._obs_memo = StateMemo()
    elif memo.thread != threading.get_ident():
        return st.game.memo("hegemony.kept", _Kept)
    return memo
