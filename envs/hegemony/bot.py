"""Heuristic bots, one per class: one-ply greedy on the class's value estimate, with a
short scripted look-ahead through the rest of the class's own compound action.

For each legal action the bot plays it on a copy of the position, then completes
the decisions that follow for its own seat (the rest of a purchase, the workers of
an assignment, ...) with a cheap default choice, up to ``LOOKAHEAD`` steps, and
scores the result with ``value``: the VP the class has now plus the rough worth of
what it holds for the rounds still to come (money, goods, workers in paid jobs,
companies, unions, legitimacy, policies in its own sections).  A new turn, another
seat's decision or the end of the chain stops the look-ahead.

It only uses what its seat can see: before looking ahead it re-draws the hidden
information (other hands, deck orders, sealed bids) with ``resample_hidden``.
"""

from __future__ import annotations

import numpy as np

from envs.hegemony import board, politics
from envs.hegemony import cards as C
from envs.hegemony import codes as K
from envs.hegemony import data as D
from envs.hegemony.actions import CC, MC, ROLE_NAMES, ST, WC, blocks, catalogue
from envs.hegemony.state import HegemonyState

LOOKAHEAD = 6
OWN_SECTION = {WC: 0, MC: 1, CC: 2}


def rounds_left(st: HegemonyState) -> float:
    """Production and scoring phases still to come, counting the current round's."""
    return float(D.ROUNDS - st.round + 1)


def _section_value(st: HegemonyState, cls: int, policies: list[int]) -> float:
    """What ``policies`` would be worth to ``cls``: end-game policy VP for the classes
    (discounted: sections still move), Agenda matches for the rounds left for the State."""
    if cls == ST:
        if st.agenda_card < 0:
            return 0.0
        target = C.AGENDAS[st.agenda_card].target
        matches = sum(1 for p in range(5) if D.SECTIONS[policies[p]] == target[f"p{p + 1}"])
        return float(matches) * rounds_left(st)
    own = sum(1 for p in range(5) if policies[p] == OWN_SECTION[cls])
    table = D.END_POLICY_VP
    if cls == MC and st.game.config["mc_policy_vp"] == "published":
        table = D.END_POLICY_VP_MC_PUBLISHED
    return 0.6 * table[own]


def bill_delta(st: HegemonyState, cls: int, policy: int) -> float:
    """How much the pending bill on ``policy`` would change ``cls``'s policy value."""
    bill = st.bills[policy]
    if bill < 0:
        return 0.0
    after = list(st.policies)
    after[policy] = bill % 3
    return _section_value(st, cls, after) - _section_value(st, cls, st.policies)


def _bills_value(st: HegemonyState, cls: int) -> float:
    """Pending bills, each taken as an even chance: the policy change and the proposer's VP."""
    v = 0.0
    for policy, bill in enumerate(st.bills):
        if bill >= 0:
            v += 0.5 * bill_delta(st, cls, policy)
            if bill // 3 == cls:
                v += 0.5 * D.BILL_PASS_VP
    return v


def _wage_income(st: HegemonyState, cls: int) -> float:
    """Wages the class's workers would earn at the next Production."""
    total = 0
    for seat in range(len(st.seat_card)):
        staffed = board.is_operational(st, seat) and board.staff_class(st, seat) == cls
        if staffed or (cls == WC and board.has_employee(st, seat)):
            total += board.wage_amount(st, seat)
    return float(total)


def _production_value(st: HegemonyState, cls: int) -> float:
    """Rough money worth per round of the class's operational companies' output."""
    worth = 0.0
    for seat in board.operational_companies(st, cls):
        company = board.card(st, seat)
        if company is None:
            continue
        units = company.production + (company.machinery if st.seat_machinery[seat] else 0)
        price = 10.0 if company.industry == 0 else 7.0
        worth += units * price - board.wage_amount(st, seat)
    return worth


def value(st: HegemonyState, cls: int) -> float:
    """Estimated final VP of ``cls``."""
    v = float(st.vp[cls])
    left = rounds_left(st) if not st.is_terminal() else 0.0
    loans = st.loans[cls] * 6.0
    if st.is_terminal():
        return v
    if cls == WC:
        pop = board.population(st, WC)
        food_need = pop * left
        food = st.goods[WC][0]
        # food up to this round's need saves a purchase at Cover Needs (foreign price + tariff)
        v += 1.4 * min(food, pop) + 1.0 * max(0.0, min(food, food_need) - pop)
        # money counts 1 VP per 10 up to 150 at the end; what the class will earn beyond that
        # is only worth spending, on Prosperity (each step scores its new space)
        income = _wage_income(st, WC) * left - 10.0 * max(0.0, food_need - food)
        projected = st.money[WC] + income
        v += st.money[WC] * (0.1 if projected < 150 else 0.04)
        # what this round's food and income tax would take in forced loans
        shortfall = 10.0 * max(0, pop - food) + 5.0 * pop - st.money[WC]
        v -= 0.15 * max(0.0, shortfall)
        step_vp = (min(st.prosperity[WC] + 1, 10) + 0.5) / max(pop, 1)
        v += step_vp * (st.goods[WC][1] + st.goods[WC][3]) + (step_vp + 2.0 / max(pop, 1)) * (
            st.goods[WC][2])
        v += 0.6 * st.influence[WC]
        v += 0.08 * _wage_income(st, WC) * left - 0.25 * board.unemployed_total(st, WC)
        v += (D.UNION_VP * left + 0.5 * left) * sum(st.unions)
        v += 0.8 * min(left, 3.0) * st.prosperity[WC]
    elif cls == MC:
        v += st.money[MC] / 15.0 + 0.6 * st.influence[MC]
        v += 0.5 * sum(st.mc_storage) + 0.8 * st.goods[MC][0] + 0.3 * sum(st.goods[MC][1:4])
        v += (_production_value(st, MC) + _wage_income(st, MC)) / 15.0 * left
        v += 1.5 * len(board.companies_of(st, MC)) + 0.5 * st.prosperity[MC]
        v -= 0.2 * board.unemployed_total(st, MC)
    elif cls == CC:
        # Capital held at each Scoring buys a Wealth level (every 25₳ or so): +3 VP per new
        # level once and its level in VP every round left, so money is worth much to CC;
        # goods are worth what they sell for, or 1/3 VP each if they stay to the end.
        rate = (left + 1.5) / 25.0
        v += (st.money[CC] + st.capital) * rate + 0.6 * st.influence[CC]
        goods = sum(st.cc_storage) + sum(st.ftz)
        v += goods * max(1.0 / 3.0, 0.5 * 6.5 * rate)
        v += (_production_value(st, CC) * rate * 0.5) * max(0.0, left - 1.0)
        v += 1.0 * len(board.companies_of(st, CC))
    else:
        low = sorted(st.legitimacy)
        v += (low[0] + low[1]) * 0.8 * left + st.money[ST] / 30.0
        v += 0.3 * sum(st.public_services) + 0.4 * st.influence[ST]
        v += 0.3 * sum(st.state_goods)
    return v - loans + _section_value(st, cls, st.policies) + _bills_value(st, cls)


_WAYS_OUT = ("done", "no", "pass", "end_turn", "qty:0", "bid:0")
GREEDY_OPTIONS = 12  # a continuation step with at most this many options is chosen greedily


def _default_choice(st: HegemonyState, seat: int, names: tuple[str, ...]) -> int:
    """A plausible completion of a chain: with few options the one that looks best one step
    ahead, otherwise the first legal action that is not a way out."""
    legal = st.legal_actions()
    if len(legal) <= GREEDY_OPTIONS:
        best, best_v = legal[0], -1e18
        for a in legal:
            nxt = st.clone()
            nxt.apply(a)
            v = standing(nxt, seat) + (0.0 if names[a] in _WAYS_OUT else 1e-6)
            if v > best_v:
                best, best_v = a, v
        return best
    for a in legal:
        if names[a] not in _WAYS_OUT:
            return a
    return legal[0]


RIVAL_WEIGHT = 0.5  # how much a point taken from the leading rival is worth to the bot


def standing(st: HegemonyState, cls: int) -> float:
    """What the bot maximises: its value, less part of the best rival's points (it plays to
    win, so points a demonstration or a vote take from the leader count too)."""
    rivals = max(st.vp[c] for c in range(4) if c != cls)
    return value(st, cls) - RIVAL_WEIGHT * rivals


def _declare(st: HegemonyState, seat: int, legal: list[int]) -> tuple[int, list[int]]:
    """For unless the bill hurts the class (a supporter who contributes scores +1 VP)."""
    vote = blocks(seat).vote
    policy = st.agenda[-1][2]
    worth = bill_delta(st, seat, policy)
    proposer = st.bills[policy] // 3
    if proposer != seat and st.vp[proposer] >= max(st.vp):  # a leader's bill: its +3 VP
        worth -= RIVAL_WEIGHT * D.BILL_PASS_VP
    side = vote + (1 if worth < 0 else 0)
    return side, [side]


def _votes(st: HegemonyState) -> tuple[int, int]:
    """Drawn cubes For and Against so far in the current election."""
    for_bits = st.ctx[politics.SIDE_FOR]
    votes_for = votes_against = 0
    for cls, key in zip(politics.CUBE_CLASSES, politics.DRAWN):
        if for_bits >> cls & 1:
            votes_for += st.ctx[key]
        else:
            votes_against += st.ctx[key]
    return votes_for, votes_against


def _bid(st: HegemonyState, seat: int, legal: list[int]) -> tuple[int, list[int]]:
    """Bid enough influence to swing the cubes' margin by two, when the bill is worth it."""
    policy = st.agenda[-1][2]
    stake = abs(bill_delta(st, seat, policy))
    if st.bills[policy] // 3 == seat:
        stake += D.BILL_PASS_VP
    votes_for, votes_against = _votes(st)
    for_me = st.ctx[politics.SIDE_FOR] >> seat & 1
    margin = (votes_for - votes_against) if for_me else (votes_against - votes_for)
    want = max(0, 2 - margin) if stake >= 1.5 else 0
    amount = min(want, len(legal) - 1, int(stake))
    action = blocks(seat).bid + amount
    return action, [action]


class HegemonyBot:
    """The class heuristic (``StateBot`` / ``TeacherBot`` protocol)."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, state: HegemonyState) -> int:
        return self.decide(state)[0]

    def decide(self, state: HegemonyState) -> tuple[int, list[int]]:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0], legal
        seat = state.current_player()
        names = catalogue(ROLE_NAMES[seat]).names
        code = state.agenda[-1][0]
        if code == politics.DECLARE:
            return _declare(state, seat, legal)
        if code == politics.BID:
            return _bid(state, seat, legal)
        base = state.resample_hidden(seat, self.rng)
        scores = []
        for action in legal:
            scores.append(self._score(base, seat, action, names))
        top = max(scores)
        best = [a for a, s in zip(legal, scores) if s >= top - 1e-9]
        return int(best[int(self.rng.integers(len(best)))]), best

    def _score(self, base: HegemonyState, seat: int, action: int,
               names: tuple[str, ...]) -> float:
        st = base.clone()
        st.apply(action)
        for _ in range(LOOKAHEAD):
            if st.is_terminal() or st.current_player() != seat:
                break
            if st.agenda[-1][0] == K.DECIDE_TURN:
                break
            st.apply(_default_choice(st, seat, names))
        return standing(st, seat)

