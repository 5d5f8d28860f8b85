"""Production (§6), Scoring (§8) and Game End (§9) of our Hegemony rules page.

The round pushes three fixed steps: ``PRODUCTION_PHASE``, ``SCORING_PHASE`` and, after
round 5, ``GAME_END``.  Each runs automatically and pushes the few decisions it needs:

- §6.0 strikes (tokens at L3 or on non-operational companies are removed) and the
  Demonstration, whose VP losses WC splits one VP at a time (``demonstration_losses``,
  ``class`` block) among MC, CC and ST, each capped by its empty company spaces.  The VP
  are handed out in class order (each split has one path); when the losses cover every
  cap, nothing is left to choose and they are applied at once.
- §6.1 production in reverse turn order ST, CC, MC, WC; then everyone stands up
  (``workers.stand_up``) and the strike tokens return.
- §6.2 Cover Needs, MC then WC: each eats its own food, then buys the shortfall one unit
  at a time from a source it chooses (``cover_needs``, ``source`` block).  Only
  affordable sources are offered; if none is, the cheapest is used with a forced loan
  (§12 #27, #29, #35).
- §6.3 the IMF check and intervention (§12 #13/#38, #41, #45); the income tax of the
  round keeps the p2 section from before the intervention (it rides in the ``TAXES``
  item's arg, so no scratch state has to survive the policy follow-ups).
- §6.4 taxes, CC, MC, WC, all into the Treasury with forced loans.
- §8 scoring: WC unions, MC prosperity, CC wealth, then the State (Event penalties, the
  pair of an "any two" Event chosen by ST with ``class`` decisions, Legitimacy VP,
  halving and tokens, the Agenda, remembered in ``st.last_agenda``).
- §9 game end: loans, policy VP, stored resources and money; ``rank_keys`` gives the
  tie-breaks of §9.5.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeplezoo.envs.core.agenda import Decision, Item, Step, count_down
from meeplezoo.envs.hegemony import board, cards, money, politics, storage, workers, workers_free
from meeplezoo.envs.hegemony import codes as K
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony.actions import (
    CC,
    CC_SEATS,
    COOP_SEATS,
    MC,
    MC_SEATS,
    NUM_SEATS,
    PUBLIC_SEATS,
    ST,
    WC,
    blocks,
)
from meeplezoo.envs.hegemony.state import NO_WORKER, worker_class

if TYPE_CHECKING:
    from meeplezoo.envs.hegemony.state import HegemonyState

# Agenda codes (production.py owns 100-119; the first three are fixed in codes.py).
PRODUCTION_PHASE = K.PRODUCTION_PHASE  # 100 step: §6.0, then pushes the rest of §6
SCORING_PHASE = K.SCORING_PHASE  # 101 step: §8 for WC, MC, CC and the Event penalties
GAME_END = K.GAME_END  # 102 step: §9
DEMONSTRATION = 103  # decision (WC): one VP of demonstration losses; arg packs left and caps
PRODUCE = 104  # step: §6.1
COVER_NEEDS = 105  # step (the class): eat own food, push BUY_FOOD for the shortfall
BUY_FOOD = 106  # decision (the buyer): one unit of food from a source; arg = units left
IMF_CHECK = 107  # step: §6.3 check (and intervention steps 1-2)
IMF_FINISH = 108  # step: §6.3 intervention steps 3-4
TAXES = 109  # step: §6.4; arg = p2 section for the income tax rate
EVENT_PENALTY = 110  # decision (ST): a class of an "any two" penalty; arg 0 or 1 + first class
SCORE_STATE = 111  # step: §8 State steps 2-4

L3 = len(D.WAGE_LEVELS) - 1
MEDIA = D.INDUSTRIES.index("media")
FOOD = D.RESOURCES.index("food")
FOREIGN = 3  # offset of source:foreign in the ``source`` block (cc, mc, state, foreign)
SOURCE_CC, SOURCE_MC, SOURCE_STATE = 0, 1, 2
LOSS_TARGETS = (MC, CC, ST)  # §6.0: who shares the Demonstration losses
OWN_SECTION = {WC: 0, MC: 1, CC: 2}  # §9.2: WC counts A, MC B, CC C
END_POLICIES = 5  # policies 1-5 count for end-game VP, Agenda and tie-breaks
CC_PUBLISHED_LOAN_VP = 5  # §9.1 variant cc_end_loans = "published": -5 VP per loan
_CAP_BITS = 4  # a Demonstration cap is at most 12 (CC company spaces)

CTX: dict[str, int] = {}
BASIC: dict = {}
FREE: dict = {}


# -- small shared pieces -----------------------------------------------------------------------
def class_block(cls: int) -> int:
    """First index of the ``class`` block in ``cls``'s catalogue (``class`` is a keyword)."""
    return getattr(blocks(cls), "class")


def change_legitimacy(st: HegemonyState, cls: int, delta: int) -> None:
    """Move ``cls``'s Legitimacy track by ``delta``, clamped to 1-10 (§8 bounds, §12 #23)."""
    value = st.legitimacy[cls] + delta
    st.legitimacy[cls] = min(D.LEGITIMACY_MAX, max(D.LEGITIMACY_MIN, value))


def price(st: HegemonyState, seller: int, good: int) -> int:
    """MC's or CC's selling price of ``good`` (``st.prices`` holds MC's row, then CC's)."""
    return D.PRICE_STEPS[good][st.prices[seller - MC][good]]


def agenda_matches(st: HegemonyState, agenda: int) -> int:
    """Policies 1-5 whose current section matches Agenda card ``agenda`` (§8 ST step 4)."""
    target = cards.AGENDAS[agenda].target
    return sum(1 for p in range(END_POLICIES)
               if st.policies[p] == D.SECTIONS.index(target[f"p{p + 1}"]))


# -- §6.0 strikes and the Demonstration --------------------------------------------------------
def _production_phase(st: HegemonyState, item: Item) -> None:
    st.push((PRODUCE, ST, 0), (COVER_NEEDS, MC, 0), (COVER_NEEDS, WC, 0), (IMF_CHECK, ST, 0))
    resolve_strikes(st)
    start_demonstration(st)  # its decision (if any) goes on top: it runs before production


def resolve_strikes(st: HegemonyState) -> None:
    """§6.0 step 1: a token on a company at L3, or on a non-operational one, is removed."""
    for seat in range(NUM_SEATS):
        if st.seat_strike[seat] and (st.seat_wage[seat] == L3
                                     or not board.is_operational(st, seat)):
            st.seat_strike[seat] = 0


def demonstration_caps(st: HegemonyState) -> list[int]:
    """Empty company spaces of MC, CC and ST: each one's cap on Demonstration losses."""
    used = (len(board.companies_of(st, MC)), len(board.companies_of(st, CC)),
            len(board.companies_of(st, ST)))
    spaces = (D.COMPANY_SPACES["mc"], D.COMPANY_SPACES["cc"], D.COMPANY_SPACES["public"])
    return [max(0, space - n) for space, n in zip(spaces, used)]


def start_demonstration(st: HegemonyState) -> None:
    """§6.0 step 2: WC takes back the token for +1 influence and splits X VP of losses."""
    if not st.demonstration:
        return
    st.demonstration = 0
    board.gain_influence(st, WC, 1)
    losses = board.unemployed_total(st, WC) + sum(st.unions)
    caps = demonstration_caps(st)
    if losses >= sum(caps):  # every cap fills whatever WC chooses; the excess is lost
        for cls, cap in zip(LOSS_TARGETS, caps):
            board.score(st, cls, -cap, "demonstration")
    elif losses > 0:
        st.push((DEMONSTRATION, WC, _pack(losses, caps)))


def _pack(left: int, caps: list[int]) -> int:
    arg = left
    for k, cap in enumerate(caps):
        arg |= cap << (8 + _CAP_BITS * k)
    return arg


def _unpack(arg: int) -> tuple[int, list[int]]:
    mask = (1 << _CAP_BITS) - 1
    return arg & 0xFF, [arg >> (8 + _CAP_BITS * k) & mask for k in range(len(LOSS_TARGETS))]


def _legal_demonstration(st: HegemonyState, item: Item) -> list[int]:
    """Targets in class order MC, CC, ST (a class passed over is closed, so each split has
    exactly one path), each offered only while it and the later ones can still take every
    VP left: the excess is lost only when no capacity is left (§6.0)."""
    left, caps = _unpack(item[2])
    if not left:
        return []
    base = class_block(WC)
    return [base + cls for k, cls in enumerate(LOSS_TARGETS)
            if caps[k] > 0 and sum(caps[k:]) >= left]


def _apply_demonstration(st: HegemonyState, item: Item, action: int) -> None:
    """One VP of loss to the chosen class (scores may go negative, §12 #16)."""
    cls = action - class_block(WC)
    left, caps = _unpack(item[2])
    board.score(st, cls, -1, "demonstration")
    chosen = LOSS_TARGETS.index(cls)
    caps = [0] * chosen + caps[chosen:]
    caps[chosen] -= 1
    if left == 1:
        st.agenda.pop()
    else:
        st.agenda[-1] = (DEMONSTRATION, WC, _pack(left - 1, caps))


# -- §6.1 Produce Goods & Services -------------------------------------------------------------
def _output(st: HegemonyState, seat: int) -> tuple[int, int]:
    """(industry, base production + machinery bonus) of the company in ``seat``."""
    company = D.COMPANIES[st.seat_card[seat]]
    bonus = company.machinery if st.seat_machinery[seat] else 0
    return company.industry, company.production + bonus


def _pay_wage(st: HegemonyState, payer: int, seat: int) -> None:
    """The company's flat wage, once, to the class of its workers (§5.4); mandatory."""
    wage = board.wage_amount(st, seat)
    if wage:
        money.pay(st, payer, wage, to=board.staff_class(st, seat), forced=True)


def _to_state(st: HegemonyState, industry: int, amount: int) -> None:
    """Public output: Health / Edu / Media Influence into Public Services up to their caps
    (Media also by the influence supply, §1.1); Food / Lux onto the State board (§5.11)."""
    if industry < 2:
        room = storage.state_goods_cap(st, industry) - st.state_goods[industry]
        st.state_goods[industry] += max(0, min(amount, room))
        return
    service = industry - 2
    room = storage.public_service_cap(st, service) - st.public_services[service]
    if industry == MEDIA:
        room = min(room, board.influence_supply(st))
    st.public_services[service] += max(0, min(amount, room))


def _produce(st: HegemonyState, item: Item) -> None:
    produce_state(st)
    produce_cc(st)
    produce_mc(st)
    produce_wc(st)
    workers.stand_up(st)  # union members stay committed
    st.seat_strike[:] = [0] * NUM_SEATS  # §5.5: all tokens return to supply


def produce_state(st: HegemonyState) -> None:
    for seat in PUBLIC_SEATS:
        if board.is_operational(st, seat) and not st.seat_strike[seat]:
            _pay_wage(st, ST, seat)
            _to_state(st, *_output(st, seat))


def produce_cc(st: HegemonyState) -> None:
    """Wage, then base + machinery into Storage, then the FTZ; Media becomes influence."""
    for seat in CC_SEATS:
        if board.is_operational(st, seat) and not st.seat_strike[seat]:
            _pay_wage(st, CC, seat)
            industry, amount = _output(st, seat)
            if industry == MEDIA:
                board.gain_influence(st, CC, amount)
            else:
                storage.store(st, CC, industry, amount, ftz=True)


def produce_mc(st: HegemonyState) -> None:
    """Base output always; the employee's wage and bonus only if present and not struck."""
    for seat in MC_SEATS:
        if not board.is_operational(st, seat):
            continue
        company = D.COMPANIES[st.seat_card[seat]]
        amount = company.production
        k = board.employee_slot(st, seat)
        if k >= 0 and st.seat_workers[seat][k] != NO_WORKER and not st.seat_strike[seat]:
            wage = board.wage_amount(st, seat)
            if wage:
                money.pay(st, MC, wage, to=worker_class(st.seat_workers[seat][k]), forced=True)
            amount += company.bonus
        if company.industry == MEDIA:
            board.gain_influence(st, MC, amount)
        else:
            storage.store(st, MC, company.industry, amount)


def produce_wc(st: HegemonyState) -> None:
    """Cooperative Farms feed WC's Goods & Services; +1 influence per union and per strike."""
    for seat in COOP_SEATS:
        if board.is_operational(st, seat):
            st.goods[WC][FOOD] += D.COMPANIES[st.seat_card[seat]].production
    board.gain_influence(st, WC, sum(st.unions) + sum(st.seat_strike))


# -- §6.2 Cover Needs --------------------------------------------------------------------------
def _cover_needs(st: HegemonyState, item: Item) -> None:
    """Eat Food = Population: Goods & Services first, then (MC) Storage (§12 #29)."""
    cls = item[1]
    need = board.population(st, cls)
    eaten = min(need, st.goods[cls][FOOD])
    st.goods[cls][FOOD] -= eaten
    need -= eaten
    if cls == MC:
        eaten = min(need, st.mc_storage[FOOD])
        st.mc_storage[FOOD] -= eaten
        need -= eaten
    if need:
        st.push((BUY_FOOD, cls, need))


def food_offers(st: HegemonyState, buyer: int) -> list[tuple[int, int]]:
    """(source offset, unit price) of every source holding food for ``buyer`` (§6.2)."""
    offers = []
    if st.cc_storage[FOOD]:
        offers.append((SOURCE_CC, price(st, CC, FOOD)))
    if buyer == WC and st.mc_storage[FOOD]:
        offers.append((SOURCE_MC, price(st, MC, FOOD)))
    if st.state_goods[FOOD]:
        offers.append((SOURCE_STATE, D.STATE_GOODS_PRICE[FOOD]))
    offers.append((FOREIGN, D.FOREIGN_BASE[FOOD] + D.FOREIGN_TARIFF[st.policies[5]][FOOD]))
    return offers


def _legal_buy_food(st: HegemonyState, item: Item) -> list[int]:
    """Affordable sources; none affordable: the cheapest ones (a forced loan pays, §12 #35)."""
    buyer = item[1]
    offers = food_offers(st, buyer)
    cash = money.cash(st, buyer)
    chosen = [k for k, unit in offers if unit <= cash]
    if not chosen:
        cheapest = min(unit for _, unit in offers)
        chosen = [k for k, unit in offers if unit == cheapest]
    base = blocks(buyer).source
    return [base + k for k in chosen]


def _apply_buy_food(st: HegemonyState, item: Item, action: int) -> None:
    """Buy one unit and eat it at once; the money goes where §3.4 sends it."""
    buyer = item[1]
    source = action - blocks(buyer).source
    if source == SOURCE_CC:
        st.cc_storage[FOOD] -= 1
        money.pay(st, buyer, price(st, CC, FOOD), to=CC, forced=True)
    elif source == SOURCE_MC:
        st.mc_storage[FOOD] -= 1
        money.pay(st, buyer, price(st, MC, FOOD), to=MC, forced=True)
    elif source == SOURCE_STATE:
        st.state_goods[FOOD] -= 1
        money.pay(st, buyer, D.STATE_GOODS_PRICE[FOOD], to=ST, forced=True)
    else:  # base to the supply, tariff to the Treasury (§3.4)
        money.pay(st, buyer, D.FOREIGN_BASE[FOOD], forced=True)
        money.pay(st, buyer, D.FOREIGN_TARIFF[st.policies[5]][FOOD], to=ST, forced=True)
    count_down(st.agenda, item)


# -- §6.3 IMF ----------------------------------------------------------------------------------
def _imf_check(st: HegemonyState, item: Item) -> None:
    """ST repays down to N - 1 loans when it can; otherwise the IMF intervenes."""
    p2_before = st.policies[1]
    threshold = D.IMF_LOAN_THRESHOLD[st.policies[0]]
    due = st.loans[ST] - (threshold - 1)
    if due > 0:
        if not money.can_pay(st, ST, due * D.IMF_REPAY):
            intervene(st, p2_before)
            return
        for _ in range(due):
            money.repay_loan(st, ST, D.IMF_REPAY)
    st.push((TAXES, ST, p2_before))


def discard_bills(st: HegemonyState) -> None:
    """Intervention step 1: every pending bill's marker returns, +1 influence each, gained
    in turn order WC, MC, CC, ST while the supply lasts (§12 #45)."""
    returned = [0, 0, 0, 0]
    for policy, bill in enumerate(st.bills):
        if bill >= 0:
            owner = bill // 3
            returned[owner] += 1
            st.markers_used[owner] -= 1
            st.bills[policy] = -1
    for cls in (WC, MC, CC, ST):
        board.gain_influence(st, cls, returned[cls])


def intervene(st: HegemonyState, p2_before: int) -> None:
    """Steps 1-2 now; the follow-ups of the policy changes (p1 sales, re-pricing) run next,
    then steps 3-4 (``IMF_FINISH``) and the taxes with the p2 of before (§6.3).  Bills are
    all discarded first, so none is left to go stale (§12 #41)."""
    discard_bills(st)
    shifts = [(p, D.IMF_SHIFT[(p, s)]) for p, s in enumerate(st.policies)
              if D.IMF_SHIFT[(p, s)] != s]
    after: list[Item] = []
    if not any(p in (3, 4, 5) for p, _ in shifts):  # otherwise change_policy offers it
        after = [(K.ADJUST_PRICES, MC, 1), (K.ADJUST_PRICES, CC, 1)]  # §5.11, §12 #30
    st.push(*after, (IMF_FINISH, ST, 0), (TAXES, ST, p2_before))
    for policy, section in reversed(shifts):  # p1's follow-ups end on top: they run first
        politics.change_policy(st, policy, section, by_vote=False)
    set_wages_to_minimum(st)


def set_wages_to_minimum(st: HegemonyState) -> None:
    """§12 #13 / #38: every wage-paying company on the board sits at the new p2 minimum,
    whatever its commitment (so the p2 lowering follow-up has nothing left to lower)."""
    least = D.MIN_WAGE_LEVEL[st.policies[1]]
    for seat in range(NUM_SEATS):
        company = board.card(st, seat)
        if company is not None and company.wages is not None and st.seat_face_up[seat]:
            st.seat_wage[seat] = least


def _imf_finish(st: HegemonyState, item: Item) -> None:
    """Steps 3-4: repay what ST can at 55 each, write off the rest, halve Legitimacy."""
    for _ in range(min(st.loans[ST], money.cash(st, ST) // D.IMF_REPAY)):
        money.repay_loan(st, ST, D.IMF_REPAY)
    st.loans[ST] = 0
    for cls in (WC, MC, CC):
        st.legitimacy[cls] = max(D.LEGITIMACY_MIN, (st.legitimacy[cls] + 1) // 2)


# -- §6.4 Taxes --------------------------------------------------------------------------------
def mc_outside_jobs(st: HegemonyState) -> int:
    """CC and face-up public companies employing at least one MC worker (MC income tax)."""
    return sum(1 for seat in (*CC_SEATS, *PUBLIC_SEATS) if board.is_present(st, seat)
               and any(w != NO_WORKER and worker_class(w) == MC for w in st.seat_workers[seat]))


def pay_taxes(st: HegemonyState, p2: int) -> None:
    """§6.4 in the order CC, MC, WC, into the Treasury, loans if forced; ``p2`` is the
    section the income tax rate reads (the one before an IMF intervention)."""
    p3 = st.policies[2]
    tm = D.tax_multiplier(*st.policies[2:5])
    rate = D.INCOME_TAX_RATE[p2][p3]
    money.pay(st, CC, tm * len(board.operational_companies(st, CC)), to=ST, forced=True)
    money.pay(st, CC, D.corporate_tax(p3, st.money[CC]), to=ST, forced=True)
    money.pay(st, MC, rate * mc_outside_jobs(st), to=ST, forced=True)
    money.pay(st, MC, tm * len(board.operational_companies(st, MC)), to=ST, forced=True)
    money.pay(st, WC, rate * board.population(st, WC), to=ST, forced=True)


def _taxes(st: HegemonyState, item: Item) -> None:
    pay_taxes(st, item[2])


# -- §8 Scoring --------------------------------------------------------------------------------
def _scoring_phase(st: HegemonyState, item: Item) -> None:
    score_wc(st)
    score_mc(st)
    score_cc(st)
    chosen = apply_event_penalties(st)
    st.push(*[(EVENT_PENALTY, ST, 0)] * chosen, (SCORE_STATE, ST, 0))


def score_wc(st: HegemonyState) -> None:
    board.score(st, WC, D.UNION_VP * sum(st.unions), "unions")


def score_mc(st: HegemonyState) -> None:
    """Prosperity +1 if the current space (its printed VP, or its position under the
    variant) is below the number of fully operational MC companies (§8, §12 #14)."""
    full = sum(1 for seat in board.companies_of(st, MC) if board.is_fully_operational(st, seat))
    position = st.prosperity[MC]
    value = position if st.game.config["mc_scoring_compare"] == "position" \
        else D.MC_PROSPERITY_VP[position]
    if value < full:
        workers_free.gain_prosperity(st, MC)


def score_cc(st: HegemonyState) -> None:
    """Revenue to Capital; the Wealth marker only climbs (+3 VP a step); +L VP."""
    st.capital += st.money[CC]
    st.money[CC] = 0
    level = D.wealth_level(st.capital)
    if level > st.wealth:
        board.score(st, CC, D.WEALTH_STEP_VP * (level - st.wealth), "wealth")
        st.wealth = level
    board.score(st, CC, level, "wealth")


def apply_event_penalties(st: HegemonyState) -> int:
    """ST step 1: each face-up Event's fixed pair loses 1 Legitimacy (clamped at 1) and
    the Events are discarded; returns how many "any two" pairs ST still has to choose."""
    chosen = 0
    for event in st.events:
        pair = cards.EVENTS[event].penalty_pair
        if pair is None:
            chosen += 1
            continue
        for name in pair:
            change_legitimacy(st, D.CLASSES.index(name), -1)
    st.events = []
    return chosen


def _legal_penalty(st: HegemonyState, item: Item) -> list[int]:
    """The pair as two picks in class order (first WC or MC, then a later class), so each
    of the three pairs has exactly one path (§12 #22)."""
    base = class_block(ST)
    first = item[2] - 1
    if first < 0:
        return [base + WC, base + MC]
    return [base + cls for cls in (MC, CC) if cls > first]


def _apply_penalty(st: HegemonyState, item: Item, action: int) -> None:
    cls = action - class_block(ST)
    change_legitimacy(st, cls, -1)
    if item[2]:
        st.agenda.pop()
    else:
        st.agenda[-1] = (EVENT_PENALTY, ST, 1 + cls)


def _score_state(st: HegemonyState, item: Item) -> None:
    score_state(st)


def score_state(st: HegemonyState) -> None:
    """ST steps 2-4: two lowest tracks in VP; halve (up) then +1 per token; the Agenda."""
    low = sorted(st.legitimacy)
    board.score(st, ST, low[0] + low[1], "legitimacy")
    for cls in (WC, MC, CC):
        st.legitimacy[cls] = (st.legitimacy[cls] + 1) // 2
        change_legitimacy(st, cls, st.legit_tokens[cls])
    if st.agenda_card >= 0:
        board.score(st, ST, agenda_matches(st, st.agenda_card), "agenda")
        st.last_agenda = st.agenda_card
        st.agenda_card = -1


# -- §9 Game end -------------------------------------------------------------------------------
def _game_end(st: HegemonyState, item: Item) -> None:
    game_end_scoring(st)


def game_end_scoring(st: HegemonyState) -> None:
    """§9's final scoring, in its order: loans, policies, storage, money."""
    end_loans(st)
    end_policies(st)
    end_stored(st)
    end_money(st)


def as_if_ended(st: HegemonyState) -> HegemonyState:
    """A copy of ``st`` with §9's final scoring played now (``scores()`` before the end):
    banked VP alone hide a class's debts and what its money and goods will score."""
    copy = st.clone()
    game_end_scoring(copy)
    return copy


def end_loans(st: HegemonyState) -> None:
    """55 per loan, paid in 5-steps as far as cash goes, -1 VP per 5 still owed (CC: Capital
    first); under ``cc_end_loans = "published"`` CC keeps its loans for -5 VP each."""
    for cls in (WC, MC, CC, ST):
        loans = st.loans[cls]
        if not loans:
            continue
        if cls == CC and st.game.config["cc_end_loans"] == "published":
            board.score(st, CC, -CC_PUBLISHED_LOAN_VP * loans, "loans")
            continue
        step = D.LOAN_SHORTFALL_STEP
        owed = loans * D.LOAN_REPAY_END
        paid = min(owed, money.cash(st, cls) // step * step)
        money.pay_capital_first(st, cls, paid)
        st.loans[cls] = 0
        board.score(st, cls, -((owed - paid) // step), "loans")


def own_policies(st: HegemonyState, cls: int) -> int:
    """Policies 1-5 in the class's own section; for ST, matches of its last Agenda."""
    if cls == ST:
        return agenda_matches(st, st.last_agenda) if st.last_agenda >= 0 else 0
    return sum(1 for p in range(END_POLICIES) if st.policies[p] == OWN_SECTION[cls])


def end_policies(st: HegemonyState) -> None:
    for cls in (WC, MC, CC):
        table = D.END_POLICY_VP
        if cls == MC and st.game.config["mc_policy_vp"] == "published":
            table = D.END_POLICY_VP_MC_PUBLISHED
        board.score(st, cls, table[own_policies(st, cls)], "policies")


def stored_vp(amounts: list[int]) -> int:
    """1 VP per STORED_PER_VP[r] units of resource r, each type counted on its own."""
    return sum(n // per for n, per in zip(amounts, D.STORED_PER_VP))


def end_stored(st: HegemonyState) -> None:
    """Storage only (CC with its FTZ); ST: its goods and Public Services (§9.3)."""
    board.score(st, MC, stored_vp(list(st.mc_storage)), "stored")
    cc = list(st.cc_storage)
    cc[0] += st.ftz[0]
    cc[1] += st.ftz[1]
    board.score(st, CC, stored_vp(cc), "stored")
    board.score(st, ST, stored_vp([*st.state_goods, *st.public_services]), "stored")


def end_money(st: HegemonyState) -> None:
    """WC 1 per 10 (at most 15), MC 1 per 15, ST 1 per 30 of the Treasury, CC nothing."""
    for cls in (WC, MC, CC, ST):
        per = D.MONEY_PER_VP[cls]
        if per is None:
            continue
        vp = money.cash(st, cls) // per
        board.score(st, cls, min(vp, D.WC_MONEY_VP_CAP) if cls == WC else vp, "money")


def rank_keys(st: HegemonyState) -> list[tuple]:
    """§9.5 per seat, higher ranks better: VP, then policies in one's own section (ST: its
    last Agenda's matches), then ST among the tied, then own cubes in the bag; equal keys
    share the win."""
    return [(st.vp[cls], own_policies(st, cls), int(cls == ST), st.bag[cls] if cls < ST else 0)
            for cls in (WC, MC, CC, ST)]


CODES: dict[int, Decision | Step] = {
    PRODUCTION_PHASE: Step("production_phase", _production_phase),
    SCORING_PHASE: Step("scoring_phase", _scoring_phase),
    GAME_END: Step("game_end", _game_end),
    DEMONSTRATION: Decision("demonstration_losses", _legal_demonstration, _apply_demonstration),
    PRODUCE: Step("produce", _produce),
    COVER_NEEDS: Step("cover_needs", _cover_needs),
    BUY_FOOD: Decision("cover_needs_buy", _legal_buy_food, _apply_buy_food),
    IMF_CHECK: Step("imf_check", _imf_check),
    IMF_FINISH: Step("imf_finish", _imf_finish),
    TAXES: Step("taxes", _taxes),
    EVENT_PENALTY: Decision("event_penalty_pair", _legal_penalty, _apply_penalty),
    SCORE_STATE: Step("score_state", _score_state),
}
