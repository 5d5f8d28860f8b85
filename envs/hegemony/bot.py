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

import math

import numpy as np

from meeplezoo.envs.hegemony import board, politics, production
from meeplezoo.envs.hegemony import cards as C
from meeplezoo.envs.hegemony import codes as K
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony.actions import CC, MC, ROLE_NAMES, ST, WC, blocks, catalogue
from meeplezoo.envs.hegemony.state import HegemonyState

LOOKAHEAD = 6
OWN_SECTION = {WC: 0, MC: 1, CC: 2}
INFLUENCE_WORTH = 0.6  # VP per influence cube kept for later elections
STRIKE_RAISE = 0.5  # the chance WC expects an owner to raise a struck wage to L3 (§5.5)
WC_WAGE_WORTH = 0.08  # VP per wage earned over the rounds left, beside the money itself
WC_IDLE_COST = 0.25  # VP an unemployed WC worker costs (food to buy, no wage)
WC_PROSPERITY_WORTH = 0.8  # VP per Prosperity level per round left (up to 3): the track decays
PRICE_WORTH = 0.5  # VP a seller's good priced off ``target_price_step`` costs it
PASS_OFFSET = 0.5  # ties pass (§7.2): the margin a bill starts with
PASS_SCALE = 1.5  # how sharply the pass chance turns with the expected margin
EXCESS_MONEY = 0.03  # WC money the 150 cap will not count: only worth what it buys later


def rounds_left(st: HegemonyState) -> float:
    """Production and scoring phases still to come, counting the current round's."""
    return float(D.ROUNDS - st.round + 1)


WC_MONEY_CAP = D.WC_MONEY_VP_CAP * 10  # the WC money that counts at the end
CC_TAXED_REVENUE = 120  # the Revenue CC typically holds at a Production
CC_VP_PER_MONEY = 0.15  # what 1 in CC's Capital is worth in Wealth VP, over a game


class Seats:
    """What the evaluation reads off the company seats alone (``SEAT_FIELDS``): operational
    companies, wages to be earned, strikes held, output, employed workers; each worked out
    once for one arrangement of the seats.  Positions of a look-ahead mostly share their
    seats, so the few latest arrangements are kept (``seats_of``), compared by value."""

    __slots__ = ("_companies", "_employed", "_operational", "_production", "_refill",
                 "_strikes", "_wages", "fields")

    def __init__(self, st: HegemonyState) -> None:
        self.fields = (list(st.seat_card), list(st.seat_face_up),
                       [list(w) for w in st.seat_workers], list(st.seat_wage),
                       list(st.seat_strike), list(st.seat_machinery))
        self._operational: dict[int, list[int]] = {}
        self._companies: dict[int, int] = {}
        self._employed: dict[int, int] = {}
        self._wages: dict[int, float] = {}
        self._strikes: int | None = None
        self._production: dict[int, float] = {}
        self._refill: dict[tuple, list[int]] = {}

    def matches(self, st: HegemonyState) -> bool:
        card, face_up, workers, wage, strike, machinery = self.fields
        return (workers == st.seat_workers and card == st.seat_card and wage == st.seat_wage
                and face_up == st.seat_face_up and strike == st.seat_strike
                and machinery == st.seat_machinery)

    def operational(self, st: HegemonyState, cls: int) -> list[int]:
        """``cls``'s operational companies (do not change the list)."""
        ops = self._operational.get(cls)
        if ops is None:
            ops = self._operational[cls] = board.operational_companies(st, cls)
        return ops

    def companies(self, st: HegemonyState, cls: int) -> int:
        """How many companies ``cls`` has."""
        n = self._companies.get(cls)
        if n is None:
            n = self._companies[cls] = len(board.companies_of(st, cls))
        return n

    def population(self, st: HegemonyState, cls: int) -> int:
        """``board.population``: the workers owned, of which the employed are read here."""
        n = self._employed.get(cls)
        if n is None:
            n = self._employed[cls] = board.employed_workers(st, cls)
        n += sum(st.unemployed[cls])
        if cls == WC:
            n += sum(st.unions)
        return board.population_of(n)

    def wage_income(self, st: HegemonyState, cls: int) -> float:
        """``_wage_income``."""
        v = self._wages.get(cls)
        if v is None:
            v = self._wages[cls] = _wage_income(st, cls)
        return v

    def strikes_held(self, st: HegemonyState) -> int:
        """``_strikes_held``."""
        if self._strikes is None:
            self._strikes = _strikes_held(st)
        return self._strikes

    def production(self, st: HegemonyState, cls: int) -> float:
        """``_production_value``."""
        v = self._production.get(cls)
        if v is None:
            v = self._production[cls] = _output_value(st, cls, self.operational(st, cls))
        return v

    def refill(self, st: HegemonyState) -> list[int]:
        """``politics.refill_amounts`` (the seats' part is kept with them)."""
        key = (sum(st.unemployed[WC]), sum(st.unemployed[MC]), sum(st.unions), *st.cube_supply)
        amounts = self._refill.get(key)
        if amounts is None:
            amounts = self._refill[key] = politics.refill_amounts(st)
        return amounts


SEAT_FIELDS = ("seat_card", "seat_face_up", "seat_workers", "seat_wage", "seat_strike",
               "seat_machinery")
_SEATS_KEPT = 4


class Memos:
    """The bot's memo tables of one game (``Game.memo``, never module-level: two games in two
    threads never meet).  ``seats``: the latest arrangements' ``Seats``, the latest first, each
    found by comparing the arrangement it was made from; ``cc_taxes``, ``chances`` and
    ``targets``: ``View.cc_tax``, ``View.pass_chance`` and ``mispriced`` by what they read.
    What each keeps is a pure function of its key, so threads of one game that race only make
    one more or store an equal value (list and dict changes are atomic under the GIL)."""

    __slots__ = ("cc_taxes", "chances", "seats", "targets")

    def __init__(self) -> None:
        self.seats: list[Seats] = []
        self.cc_taxes: dict[tuple[int, int, int, int, int], int] = {}
        self.chances: dict[tuple[int, ...], float] = {}
        self.targets: dict[tuple[int, int, int], tuple[int, ...]] = {}


def memos(st: HegemonyState) -> Memos:
    return st.game.memo("hegemony.bot", Memos)


def seats_of(st: HegemonyState, memo: Memos | None = None) -> Seats:
    """The ``Seats`` of ``st``'s arrangement (kept, or made and kept)."""
    kept = (memo or memos(st)).seats
    for seats in kept:
        if seats.matches(st):
            return seats
    seats = Seats(st)
    kept.insert(0, seats)
    del kept[_SEATS_KEPT:]
    return seats


class View:
    """One position as the evaluation reads it: each board query (operational companies,
    the bag's refill, every class's banked VP, CC's taxes per policy set, ...)
    is computed once, however many estimates ask for it.  A view never outlives the
    position it was made for: the look-ahead builds a new one per position."""

    __slots__ = ("_ahead", "_banked", "_chances", "_deltas", "_refill", "_sections", "_taxes",
                 "left", "memo", "seats", "st")

    def __init__(self, st: HegemonyState) -> None:
        self.st = st
        self.left = rounds_left(st)
        self._refill: list[int] | None = None
        self._banked: list[float] | None = None
        self._ahead: list[float] | None = None
        self._taxes: dict[tuple[int, int, int], int] = {}
        self._sections: dict[int, float] = {}
        self._deltas: dict[tuple[int, int], float] = {}
        self._chances: dict[int, float] = {}
        self.memo = memos(st)
        self.seats = seats_of(st, self.memo)

    def operational(self, cls: int) -> list[int]:
        """``cls``'s operational companies."""
        return self.seats.operational(self.st, cls)

    # (worked out on first use: plain properties, cheaper than ``functools.cached_property``)
    @property
    def refill(self) -> list[int]:
        """Cubes each class would add to the bag at the next Elections (§7.1)."""
        if self._refill is None:
            self._refill = self.seats.refill(self.st)
        return self._refill

    @property
    def banked_vp(self) -> list[float]:
        """Each class's VP as good as banked beyond its score, read from the public board:
        the money it will count at the end, and the VP its board pays every Scoring still
        to come (CC's Wealth level for its Capital and Revenue, ST's two lowest Legitimacy
        tracks, WC's unions).  A bot that ranks rivals by score alone lets CC run away."""
        if self._banked is None:
            st, left = self.st, self.left
            money = st.money
            held = st.capital + money[CC] - self.cc_tax(st.policies)
            level = _smooth_wealth_level(held)
            legitimacy = st.legitimacy
            self._banked = [
                min(money[WC], WC_MONEY_CAP) / 10.0 + D.UNION_VP * left * sum(st.unions),
                money[MC] / 15.0,
                level * left + D.WEALTH_STEP_VP * max(0.0, level - st.wealth),
                (sum(legitimacy) - max(legitimacy)) * left * 0.7 + money[ST] / 30.0]
        return self._banked

    @property
    def ahead(self) -> list[float]:
        """Each class's VP scored plus banked (``banked_vp``)."""
        if self._ahead is None:
            vp, banked = self.st.vp, self.banked_vp
            self._ahead = [vp[0] + banked[0], vp[1] + banked[1], vp[2] + banked[2],
                           vp[3] + banked[3]]
        return self._ahead

    def leading_rival(self, cls: int) -> int:
        """The rival with the most VP scored and banked (the first of equals)."""
        ahead = self.ahead
        best = -1
        for c in range(4):
            if c != cls and (best < 0 or ahead[c] > ahead[best]):
                best = c
        return best

    def cc_tax(self, policies: list[int]) -> int:
        """CC's employment and corporate taxes (§6.4) at one Production under ``policies``."""
        key = (policies[2], policies[3], policies[4])
        if key not in self._taxes:
            self._taxes[key] = _cc_tax(self.memo, *key,
                                       max(self.st.money[CC], CC_TAXED_REVENUE),
                                       len(self.operational(CC)))
        return self._taxes[key]

    def cc_tax_vp(self, policies: list[int]) -> float:
        """CC's taxes under ``policies`` for the Productions left, in (negative) CC VP."""
        return -CC_VP_PER_MONEY * self.cc_tax(policies) * self.left

    def section_value(self, cls: int, policies: list[int]) -> float:
        """What ``policies`` would be worth to ``cls``: end-game policy VP for the classes
        (discounted: sections still move), Agenda matches for the rounds left for the
        State; plus the taxes they lay on CC (``cc_tax``): a loss to CC, and a gain to a
        rival whose leading rival CC is (taxes are the table's brake on CC's Wealth)."""
        st = self.st
        tax = 0.0
        if cls == CC or self.leading_rival(cls) == CC:
            tax = self.cc_tax_vp(policies) * (1.0 if cls == CC else -RIVAL_WEIGHT[cls])
        if cls == ST:
            if st.agenda_card < 0:
                return tax
            want = AGENDA_SECTIONS[st.agenda_card]
            matches = ((policies[0] == want[0]) + (policies[1] == want[1])
                       + (policies[2] == want[2]) + (policies[3] == want[3])
                       + (policies[4] == want[4]))
            return float(matches) * self.left + tax
        section = OWN_SECTION[cls]
        own = ((policies[0] == section) + (policies[1] == section) + (policies[2] == section)
               + (policies[3] == section) + (policies[4] == section))
        table = D.END_POLICY_VP
        if cls == MC and st.game.config["mc_policy_vp"] == "published":
            table = D.END_POLICY_VP_MC_PUBLISHED
        return 0.6 * table[own] + tax

    def current_section(self, cls: int) -> float:
        if cls not in self._sections:
            self._sections[cls] = self.section_value(cls, self.st.policies)
        return self._sections[cls]

    def bill_delta(self, cls: int, policy: int) -> float:
        """How much the pending bill on ``policy`` would change ``cls``'s policy value."""
        bill = self.st.bills[policy]
        if bill < 0:
            return 0.0
        key = (cls, policy)
        if key not in self._deltas:
            after = list(self.st.policies)
            after[policy] = bill % 3
            self._deltas[key] = self.section_value(cls, after) - self.current_section(cls)
        return self._deltas[key]

    def pass_chance(self, policy: int) -> float:
        """A rough chance that the pending bill on ``policy`` passes (§7.2): the bag after
        the §7.1 refill gives each side its expected share of the 5 drawn cubes;
        influence adds about half of what each side holds; ties pass."""
        if policy not in self._chances:
            st, refill = self.st, self.refill
            key = (policy, st.bills[policy], st.policies[policy], st.agenda_card,
                   *st.bag, *refill, *st.influence)
            chances = self.memo.chances
            chance = chances.get(key)
            if chance is None:
                for_w = [_declared_for(st, c, policy) for c in range(4)]
                cubes = [st.bag[c] + refill[c] for c in politics.CUBE_CLASSES]
                total = sum(cubes)
                share = sum(w * n for w, n in zip(for_w, cubes)) / total if total else 0.5
                margin = D.ELECTION_DRAW * (2.0 * share - 1.0)
                margin += 0.5 * sum((2.0 * for_w[c] - 1.0) * st.influence[c] for c in range(4))
                chance = 1.0 / (1.0 + math.exp(-(margin + PASS_OFFSET) / PASS_SCALE))
                if len(chances) > 50_000:
                    chances.clear()
                chances[key] = chance
            self._chances[policy] = chance
        return self._chances[policy]


# Per Agenda card, the section index its target asks of policies 1-5.
AGENDA_SECTIONS = tuple(tuple(D.SECTIONS.index(agenda.target[f"p{p + 1}"]) for p in range(5))
                        for agenda in C.AGENDAS)
def _cc_tax(memo: Memos, p3: int, p4: int, p5: int, revenue: int, operational: int) -> int:
    """``View.cc_tax``, memoised by what it reads (p3, p4, p5, taxed revenue, CC's operational
    companies).  (``View.pass_chance`` is memoised by everything it reads in the same way:
    positions of one look-ahead mostly share their politics.)"""
    key = (p3, p4, p5, revenue, operational)
    taxes = memo.cc_taxes
    tax = taxes.get(key)
    if tax is None:
        if len(taxes) > 50_000:
            taxes.clear()
        tax = taxes[key] = (operational * D.tax_multiplier(p3, p4, p5)
                            + D.corporate_tax(p3, revenue))
    return tax


def _smooth_wealth_level(capital: float) -> float:
    """The Wealth level for ``capital`` (§8), interpolated between thresholds."""
    thresholds = D.WEALTH_THRESHOLDS
    if capital <= 0:
        return 0.0
    for k in range(len(thresholds) - 1):
        if capital < thresholds[k + 1]:
            return k + (capital - thresholds[k]) / (thresholds[k + 1] - thresholds[k])
    return float(len(thresholds) - 1)


def _declared_for(st: HegemonyState, cls: int, policy: int) -> float:
    """The chance that ``cls`` sides For the bill on ``policy``: the proposer always does;
    a class does if the bill moves the policy onto its own section (the State: onto its
    Agenda's), not if it moves it off, and otherwise either way."""
    bill = st.bills[policy]
    if bill // 3 == cls:
        return 1.0
    if policy >= 5:
        return 0.5
    if cls == ST:
        if st.agenda_card < 0:
            return 0.5
        want = AGENDA_SECTIONS[st.agenda_card][policy]
    else:
        want = OWN_SECTION[cls]
    if bill % 3 == want:
        return 1.0
    return 0.0 if st.policies[policy] == want else 0.5


def pass_chance(st: HegemonyState, policy: int) -> float:
    """``View.pass_chance`` of a position."""
    return View(st).pass_chance(policy)


_VOTING = frozenset((politics.ELECTION, politics.DECLARE, politics.BID))


def imf_risk(st: HegemonyState, public: list[int] | None = None) -> float:
    """A rough chance that the IMF intervenes at this round's Production (§6.3) and so
    discards every pending bill: the State ends the round at or over the loan threshold
    and cannot repay, its public wages paid from the Treasury first."""
    if public is None:
        public = board.operational_companies(st, ST)
    wages = sum(board.wage_amount(st, seat) for seat in public)
    cash, loans = st.money[ST] - wages, st.loans[ST]
    while cash < 0:
        cash += D.LOAN_VALUE
        loans += 1
    due = loans - (D.IMF_LOAN_THRESHOLD[st.policies[0]] - 1)
    if due <= 0:
        return 0.05
    return 0.9 if cash < due * D.IMF_REPAY else 0.15


def _bills_value(view: View, cls: int) -> float:
    """Pending bills, each at its chance to pass: the policy change and the proposer's VP.
    A bill not yet in its election may first be discarded by the IMF."""
    st = view.st
    bills = st.bills
    pending = [policy for policy, bill in enumerate(bills) if bill >= 0]
    if not pending:
        return 0.0
    v = 0.0
    voting = {item[2] for item in st.agenda if item[0] in _VOTING}
    survive = 1.0 - imf_risk(st, view.operational(ST)) if len(voting) < len(pending) else 1.0
    for policy in pending:
        chance = view.pass_chance(policy)
        chance *= 1.0 if policy in voting else survive
        v += chance * view.bill_delta(cls, policy)
        if bills[policy] // 3 == cls:
            v += chance * D.BILL_PASS_VP
    return v


def struck(st: HegemonyState, seat: int) -> bool:
    """A strike token that will hold at Production: the wage is still below L3 (§6.0)."""
    return bool(st.seat_strike[seat]) and st.seat_wage[seat] < 2


def _wage_income(st: HegemonyState, cls: int) -> float:
    """Wages the class's workers would earn at the next Production.  For WC a struck
    company pays L3 if its owner raises the wage to end the strike (``STRIKE_RAISE``), and
    nothing otherwise (§5.5)."""
    total = 0.0
    for seat, index in enumerate(st.seat_card):
        if index < 0 or st.seat_wage[seat] < 0:
            continue
        staffed = board.is_operational(st, seat) and board.staff_class(st, seat) == cls
        if staffed or (cls == WC and board.has_employee(st, seat)):
            if cls == WC and struck(st, seat):
                total += STRIKE_RAISE * D.COMPANIES[index].wages[2]
            else:
                total += board.wage_amount(st, seat)
    return total


def _strikes_held(st: HegemonyState) -> int:
    """Struck companies (``struck``): each that stays struck gives WC +1 Influence."""
    return sum(1 for seat in range(len(st.seat_card)) if st.seat_card[seat] >= 0
               and struck(st, seat))


def _production_value(view: View, cls: int) -> float:
    """Rough money worth per round of the class's operational companies' output.  A CC
    company on strike produces nothing and pays nothing unless its wage reaches L3 (§5.5):
    raising it is how the owner gets its output back."""
    return view.seats.production(view.st, cls)


def _output_value(st: HegemonyState, cls: int, operational: list[int]) -> float:
    """``_production_value`` from the class's operational companies."""
    worth = 0.0
    for seat in operational:
        company = board.card(st, seat)
        if company is None or (company.sector == "cc" and struck(st, seat)):
            continue
        units = company.production + (company.machinery if st.seat_machinery[seat] else 0)
        price = 10.0 if company.industry == 0 else 7.0
        worth += units * price - board.wage_amount(st, seat)
    return worth


def _usable(units: int, pop: int, left: float) -> float:
    """Goods towards a Use (Population units each): in the last round an incomplete set is
    worth half, since the game may end before it is completed and spent."""
    if left > 1.0 or pop <= 0:
        return float(units)
    whole = units - units % pop
    return whole + 0.5 * (units - whole)


def value(st: HegemonyState, cls: int, view: View | None = None) -> float:
    """Estimated final VP of ``cls``."""
    if st.is_terminal():
        return float(st.vp[cls])
    if view is None:
        view = View(st)
    v = float(st.vp[cls])
    left = view.left
    loans = st.loans[cls] * 6.0
    if cls == WC:
        seats = view.seats
        pop = seats.population(st, WC)
        food_need = pop * left
        food = st.goods[WC][0]
        # food up to this round's need saves a purchase at Cover Needs (foreign price + tariff)
        v += 1.4 * min(food, pop) + 1.0 * max(0.0, min(food, food_need) - pop)
        # money counts 1 VP per 10 up to 150 at the end; what the class will earn beyond that
        # is only worth spending, on Prosperity (each step scores its new space)
        wages = seats.wage_income(st, WC)
        income = wages * left - 10.0 * max(0.0, food_need - food)
        room = max(0.0, D.WC_MONEY_VP_CAP * 10 - 0.8 * income)
        excess = EXCESS_MONEY * min(1.0, (left - 1.0) / 2.0)  # nothing to buy after round 5
        v += 0.1 * min(st.money[WC], room) + excess * max(0.0, st.money[WC] - room)
        # what this round's food and income tax would take in forced loans
        shortfall = 10.0 * max(0, pop - food) + 5.0 * pop - st.money[WC]
        v -= 0.15 * max(0.0, shortfall)
        step_vp = (min(st.prosperity[WC] + 1, 10) + 0.5) / max(pop, 1)
        lux, health, edu = (_usable(st.goods[WC][k], pop, left) for k in (1, 2, 3))
        v += step_vp * (lux + edu) + (step_vp + 2.0 / max(pop, 1)) * health
        v += 0.6 * (st.influence[WC] + (1.0 - STRIKE_RAISE) * seats.strikes_held(st))
        v += WC_WAGE_WORTH * wages * left - WC_IDLE_COST * board.unemployed_total(st, WC)
        v += (D.UNION_VP * left + 0.5 * left) * sum(st.unions)
        v += WC_PROSPERITY_WORTH * min(left, 3.0) * st.prosperity[WC]
    elif cls == MC:
        v += st.money[MC] / 15.0 + 0.6 * st.influence[MC]
        v += 0.5 * sum(st.mc_storage) + 0.8 * st.goods[MC][0] + 0.3 * sum(st.goods[MC][1:4])
        v += (_production_value(view, MC) + view.seats.wage_income(st, MC)) / 15.0 * left
        v += 1.5 * view.seats.companies(st, MC) + 0.5 * st.prosperity[MC]
        v -= 0.2 * board.unemployed_total(st, MC) + PRICE_WORTH * mispriced(st, MC)
    elif cls == CC:
        # Capital held at each Scoring buys a Wealth level (every 25₳ or so): +3 VP per new
        # level once and its level in VP every round left, so money is worth much to CC;
        # goods are worth what they sell for, or 1/3 VP each if they stay to the end.
        rate = (left + 1.5) / 25.0
        v += (st.money[CC] + st.capital) * rate + 0.6 * st.influence[CC]
        goods = sum(st.cc_storage) + sum(st.ftz)
        v += goods * max(1.0 / 3.0, 0.5 * 6.5 * rate)
        v += (_production_value(view, CC) * rate * 0.5) * max(0.0, left - 1.0)
        v += 1.0 * view.seats.companies(st, CC) - PRICE_WORTH * mispriced(st, CC)
    else:
        low = sorted(st.legitimacy)
        v += (low[0] + low[1]) * 0.8 * left + st.money[ST] / 30.0
        v += 0.3 * sum(st.public_services) + 0.4 * st.influence[ST]
        v += 0.3 * sum(st.state_goods)
    return v - loans + view.current_section(cls) + _bills_value(view, cls)


def target_price_step(st: HegemonyState, good: int) -> int:
    """The price step a seller (MC, CC) aims for: the highest step strictly below what a
    buyer would pay elsewhere (Food and Lux abroad with the p6 tariff, Health and Education
    from the State at the p4 / p5 price), the lowest step when none is."""
    if good < 2:
        elsewhere = D.FOREIGN_BASE[good] + D.FOREIGN_TARIFF[st.policies[5]][good]
    else:
        elsewhere = D.PUBLIC_SERVICE_PRICE[st.policies[good + 1]]
    below = [k for k, price in enumerate(D.PRICE_STEPS[good]) if price < elsewhere]
    return below[-1] if below else 0


def mispriced(st: HegemonyState, cls: int) -> int:
    """Goods whose price is off ``target_price_step`` (memoised on the game by the sections it
    reads: p4, p5, p6)."""
    policies = st.policies
    key = (policies[3], policies[4], policies[5])
    table = memos(st).targets
    targets = table.get(key)
    if targets is None:
        targets = table[key] = tuple(target_price_step(st, good) for good in range(4))
    prices = st.prices[cls - 1]
    return sum(1 for good in range(4) if prices[good] != targets[good])


def _price_choice(st: HegemonyState, seat: int, legal: list[int]) -> int:
    """Adjust Prices, scripted: the first good off its target, moved onto it; done when
    none is (or, when ``done`` is not yet legal, the first change offered)."""
    b = blocks(seat)
    for good in range(4):
        step = target_price_step(st, good)
        action = b.price + 3 * good + step
        if st.prices[seat - 1][good] != step and action in legal:
            return action
    return b.DONE if b.DONE in legal else legal[0]


_WAYS_OUT = frozenset(("done", "no", "pass", "end_turn", "qty:0", "bid:0"))
GREEDY_OPTIONS = 8  # a continuation step with at most this many options is chosen greedily
# Per class (WC, MC, CC, ST): whether the bot plans its whole turn, valuing a first action
# by the best second action of the same turn (a Buy by the Use it allows, ...).
PLAN_TURN = (True, False, False, False)


def _default_step(st: HegemonyState, seat: int, names: tuple[str, ...]) -> HegemonyState:
    """``st`` after a plausible completion of a chain: with few options the one that looks
    best one step ahead (the copy that was valued is the one returned: applying the same
    action again would give the same position, generator included; the last option is
    played on ``st`` itself, which the caller gives up), otherwise the first legal action
    that is not a way out, applied to ``st`` itself."""
    legal = st.legal_actions()
    code = st.agenda[-1][0]
    if code == K.DISCARD:  # which card pays for a basic action: no card is worth anything
        st.apply(legal[0])  # to ``value``, so the greedy's tie-break
        return st
    if code == K.ADJUST_PRICES:
        st.apply(_price_choice(st, seat, legal))
        return st
    if len(legal) <= GREEDY_OPTIONS:
        best, best_v = None, -1e18
        tried = []
        last = legal[-1]
        for a in legal:
            nxt = st.clone() if a != last else st  # the last option is played on ``st`` itself
            nxt.apply(a)
            tried.append(nxt)
            v = standing(nxt, seat) + (0.0 if names[a] in _WAYS_OUT else 1e-6)
            if v > best_v:
                best, best_v = nxt, v
        if best is None:  # no value above -1e18 (a NaN): the first action, as a tie-break
            return tried[0]
        return best
    for a in legal:
        if names[a] not in _WAYS_OUT:
            st.apply(a)
            return st
    st.apply(legal[0])
    return st


# How much a point taken from the leading rival is worth to each class's bot (WC, MC, CC,
# ST).  MC and the State play hardest against the leader: they are the table's swing votes
# and the ones whose scoring does not suffer from it (tuned on 4-bot tables, seeds < 10,000).
RIVAL_WEIGHT = [0.5, 1.0, 0.5, 1.0]
_OTHERS = tuple(tuple(c for c in range(4) if c != cls) for cls in range(4))  # each class's rivals


def standing(st: HegemonyState, cls: int) -> float:
    """What the bot maximises: its value, less part of the best rival's points (it plays to
    win, so points a demonstration or a vote take from the leader count too)."""
    vps = list(st.vp)
    if st.is_terminal():
        return st.vp[cls] - RIVAL_WEIGHT[cls] * max(vps[c] for c in range(4) if c != cls)
    view = View(st)
    if st.demonstration:
        _demonstration_losses(view, vps)
    ahead, vp = view.ahead, st.vp
    rivals = max([vps[c] - vp[c] + ahead[c] for c in _OTHERS[cls]])
    return value(st, cls, view) + (vps[cls] - vp[cls]) - RIVAL_WEIGHT[cls] * rivals


def _demonstration_losses(view: View, vps: list[int]) -> None:
    """A Demonstration token on the board costs the others X VP at Production, X the WC
    unemployed plus union workers, each loss capped by the class's empty company spaces
    (§6.0); WC places them one at a time on whoever leads (``banked`` included)."""
    st = view.st
    left = board.unemployed_total(st, WC) + sum(st.unions)
    caps = dict(zip(production.LOSS_TARGETS, production.demonstration_caps(st)))
    ahead = view.banked_vp
    while left > 0:
        open_ = [c for c in production.LOSS_TARGETS if caps[c] > 0]
        if not open_:
            break
        target = max(open_, key=lambda c: vps[c] + ahead[c])
        vps[target] -= 1
        caps[target] -= 1
        left -= 1


def _declare(st: HegemonyState, seat: int, legal: list[int]) -> tuple[int, list[int]]:
    """For unless the bill hurts the class (a supporter who contributes scores +1 VP)."""
    vote = blocks(seat).vote
    policy = st.agenda[-1][2]
    view = View(st)
    worth = view.bill_delta(seat, policy)
    proposer = st.bills[policy] // 3
    if proposer != seat and proposer == view.leading_rival(seat):  # deny the leader +3 VP
        worth -= RIVAL_WEIGHT[seat] * D.BILL_PASS_VP
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
    """The sealed bid that best trades influence for the election's stake: the bill's worth
    to the class (its policy change, the proposer's +3 VP, a supporter's +1, a leading
    rival's +3 denied), against influence at its worth for later elections.  The others'
    bids are unknown: each participant on the other side is expected to commit a third of
    what it holds."""
    policy = st.agenda[-1][2]
    proposer = st.bills[policy] // 3
    for_bits = st.ctx[politics.SIDE_FOR]
    for_me = bool(for_bits >> seat & 1)
    view = View(st)
    stake = abs(view.bill_delta(seat, policy))
    if proposer == seat:
        stake += D.BILL_PASS_VP
    elif for_me:
        stake += 0.5
    elif proposer == view.leading_rival(seat):
        stake += RIVAL_WEIGHT[seat] * D.BILL_PASS_VP
    votes_for, votes_against = _votes(st)
    margin = (votes_for - votes_against) if for_me else (votes_against - votes_for)
    margin += 0.5 if for_me else -0.5  # ties pass
    part = st.ctx[politics.PARTICIPANTS]
    rivals = sum(st.influence[c] for c in range(4)
                 if c != seat and part >> c & 1 and bool(for_bits >> c & 1) != for_me)
    margin -= rivals / 3.0
    cost = INFLUENCE_WORTH if st.round < D.ROUNDS else 0.1
    best, best_v = 0, -1e18
    for amount in range(len(legal)):
        v = stake / (1.0 + math.exp(-(margin + amount) / 1.2)) - cost * amount
        if v > best_v + 1e-9:
            best, best_v = amount, v
    action = blocks(seat).bid + best
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
        if code == K.ADJUST_PRICES:
            action = _price_choice(state, seat, legal)
            return action, [action]
        if code == K.DISCARD:  # no card is worth anything to ``value``: any one may pay
            return int(legal[int(self.rng.integers(len(legal)))]), legal
        base = state.resample_hidden(seat, self.rng)
        # chance in the look-ahead (cubes drawn in an immediate vote, ...) comes from the
        # bot's own generator, never from the position's, whose state foretells the draws
        base.rng = np.random.default_rng(int(self.rng.integers(2**63)))
        # an action whose legality hangs on hidden cards (a peek at the Export deck) may be
        # illegal in the re-drawn position: it is then valued as doing nothing
        drawn_legal = set(base.legal_actions())
        idle = None
        scores = []
        for action in legal:
            if action in drawn_legal:
                scores.append(self._score(base, seat, action, names))
            else:
                if idle is None:
                    idle = standing(base, seat)
                scores.append(idle)
        top = max(scores)
        best = [a for a, s in zip(legal, scores) if s >= top - 1e-9]
        return int(best[int(self.rng.integers(len(best)))]), best

    def _score(self, base: HegemonyState, seat: int, action: int,
               names: tuple[str, ...], plan: bool = True) -> float:
        st = base.clone()
        st.apply(action)
        for _ in range(LOOKAHEAD):
            if st.is_terminal() or st.current_player() != seat:
                break
            if st.agenda[-1][0] == K.DECIDE_TURN:
                if plan and PLAN_TURN[seat] and (st.main_done or st.free_used):
                    # the rest of this turn: its best second action, looked at one ply
                    return max(self._score(st, seat, a, names, plan=False)
                               for a in st.legal_actions())
                break
            st = _default_step(st, seat, names)
        return standing(st, seat)

