"""Scenario tests for decisions #50-#53 of our rules page (§12): what the engine does when an
Event builds or proposes for a class, when the State provides goods, and when a card makes CC
pay more than it holds.  Each test sets up a position, pushes the effect, plays the decisions
by name and checks who was asked what, in which order, and the outcome."""

from __future__ import annotations

import pytest

from meeplezoo.envs.hegemony import board, turn
from meeplezoo.envs.hegemony import cards as C
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony import effects as E
from meeplezoo.envs.hegemony import effects_events as EV
from meeplezoo.envs.hegemony.actions import CC, MC, ST, WC
from meeplezoo.envs.hegemony.state import worker
from tests.hegemony.helpers import legal_names, play
from tests.hegemony.test_effects import event_action, game, go, run, set_money

U, HEALTH, EDU = 0, 3, 4  # worker kinds: unskilled, then skilled by industry (1 + industry)
FOOD, HEALTH_GOOD = 0, 2  # goods indexes (D.GOODS)


def event(st, task: dict, options: list[dict]) -> int:
    """A hand-made Event (checked by ``cards.parse_event``), indexed for the interpreter."""
    raw = {"id": "ev_95", "title": "Decision Event", "min_round": 1, "task": task,
           "options": options, "no_action": {"pair": "any"}, "note": "A test Event."}
    return E.add_event(st, C.parse_event(raw, "ev_95"))


def set_capital(st, value: int) -> None:
    st.minted += value - st.capital
    st.capital = value


def on_table(st) -> int:
    return sum(st.money) + st.capital


def asked(st, *names: str) -> list[tuple[str, int, list[str]]]:
    """Play ``names`` in order; the (decision, seat asked, its legal actions) each was played
    at."""
    seen = []
    for name in names:
        assert not st.is_terminal(), f"nothing is asked any more where {name} was expected"
        seen.append((st.decision_name(), st.current_player(), legal_names(st)))
        play(st, name)
    return seen


def new_seats(st, cls: int, before: list[int]) -> list[int]:
    return [s for s in board.companies_of(st, cls) if s not in before]


# -- #50 build_for: the receiving class builds ---------------------------------------------------
BUILD_FOR = {"op": "build_for", "min_cost": 12}
BUILD_FOR_OPTIONS = [{"class": "MC", "reward": {"legitimacy": 2}},
                     {"class": "CC", "reward": {"legitimacy": 1}}]


def test_d50_build_for_the_receiving_class_picks_card_wage_and_staffing():
    st = game()
    ev = event(st, BUILD_FOR, BUILD_FOR_OPTIONS)
    hospital = D.COMPANY_BY_ID["hospital"].index  # cost 20, Health + U
    st.cc_market = [D.COMPANY_BY_ID["medical_village"].index, hospital,
                    D.COMPANY_BY_ID["fast_food_chain"].index]  # cost 24, 20, 8 (< 12)
    st.policies[1] = 1  # p2 = B: wages L2 and L3 are legal
    st.unemployed[WC] = [1, 0, 0, 1, 0, 0]  # an unskilled and a health worker: WC can staff it
    st.unemployed[MC] = [1, 0, 0, 0, 0, 0]  # MC has no health worker: it cannot
    money_before, before = list(st.money), board.companies_of(st, CC)
    event_action(st, ev)
    # the State picks the class; CC then picks the card, the wage and the staffing, in order
    assert asked(st, "option:2", "market:2", "wage:L3", "class:WC") == [
        ("event_action_option", ST, ["option:1", "option:2"]),
        ("build_card", CC, ["market:1", "market:2"]),  # CC's market, at least the minimum
        ("build_wage", CC, ["wage:L2", "wage:L3"]),
        ("build_staff_class", CC, ["no", "class:WC"])]
    seat, = new_seats(st, CC, before)
    assert st.seat_card[seat] == hospital and st.seat_wage[seat] == 2  # L3
    assert st.seat_workers[seat][:2] == [worker(WC, HEALTH), worker(WC, U)]
    assert board.staff_class(st, seat) == WC and st.unemployed[WC] == [0] * 6
    assert hospital not in st.cc_market
    assert st.money[CC] == money_before[CC] and st.money[ST] == money_before[ST] - 20
    assert st.legitimacy[CC] == D.START_LEGITIMACY + 1 and st.events == []
    assert st.is_terminal()
    st.check_invariants()


def test_d50_build_for_mc_picks_card_wage_its_workers_and_the_wc_employee():
    st = game()
    ev = event(st, BUILD_FOR, BUILD_FOR_OPTIONS)
    school = D.COMPANY_BY_ID["private_school"].index  # cost 20: MC Edu slot + WC Edu employee
    st.mc_market = [D.COMPANY_BY_ID["pharmacy"].index, school]
    st.unemployed[WC] = [1, 0, 0, 0, 1, 0]
    st.unemployed[MC] = [1, 0, 0, 0, 1, 0]
    money_before, before = list(st.money), board.companies_of(st, MC)
    event_action(st, ev)
    # MC picks the card, the wage, its own worker for its slot, then its WC employee
    seen = asked(st, "option:1", "market:2", "wage:L3", "from:unemployed_edu",
                 "from:unemployed_edu")
    assert [a[:2] for a in seen] == [
        ("event_action_option", ST), ("build_card", MC), ("build_wage", MC),
        ("assign_source", MC), ("build_employee", MC)]
    assert seen[1][2] == ["market:1", "market:2"] and seen[2][2] == ["wage:L2", "wage:L3"]
    assert "from:unemployed_edu" in seen[3][2] and seen[4][2] == ["no", "from:unemployed_edu"]
    seat, = new_seats(st, MC, before)
    assert st.seat_card[seat] == school and st.seat_wage[seat] == 2
    assert st.seat_workers[seat][:2] == [worker(MC, EDU), worker(WC, EDU)]
    assert st.unemployed[WC] == [1, 0, 0, 0, 0, 0] and st.unemployed[MC] == [1, 0, 0, 0, 0, 0]
    assert st.money[MC] == money_before[MC] and st.money[ST] == money_before[ST] - 20
    assert st.legitimacy[MC] == D.START_LEGITIMACY + 2 and st.is_terminal()
    st.check_invariants()


# -- #51 propose_for: the State pays the immediate vote --------------------------------------------
PROPOSE_FOR = ({"op": "propose_for"}, [{"class": "WC", "reward": {"legitimacy": 1}},
                                       {"class": "MC", "reward": {"legitimacy": 1}}])


def test_d51_propose_for_the_state_pays_the_immediate_votes_influence():
    st = game()
    ev = event(st, *PROPOSE_FOR)
    st.influence = [2, 0, 2, 1]  # the proposer (MC) has none, the State has 1
    event_action(st, ev)
    assert [a[:2] for a in asked(st, "option:2", "bill:p7_C", "yes")] == [
        ("event_action_option", ST), ("propose_bill", MC), ("immediate_vote", ST)]
    assert st.influence == [2, 0, 2, 0]  # the State paid the 1 influence, MC nothing
    assert st.bills[6] == MC * 3 + 2 and st.decision_name() == "declare"  # the vote is on
    st.check_invariants()

    st = game()
    ev = event(st, *PROPOSE_FOR)  # a hand-made Event belongs to its state's game
    st.influence = [2, 3, 2, 0]  # the proposer could pay; the State cannot
    event_action(st, ev)
    play(st, "option:2")
    assert [a[:2] for a in asked(st, "bill:p7_C")] == [("propose_bill", MC)]
    assert st.is_terminal()  # no immediate vote at all: MC is never asked to pay for one
    assert st.influence == [2, 3, 2, 0] and st.bills[6] == MC * 3 + 2
    assert st.legitimacy[MC] == D.START_LEGITIMACY + 1 and st.events == []
    st.check_invariants()


# -- #52 provide: own stock first, then only the shortfall is bought ----------------------------
PROVIDE_BUNDLE = {"food": 4, "health": 1}


@pytest.mark.parametrize("how", ["card", "event"])
def test_d52_provide_of_goods_uses_the_states_own_stock_first_and_buys_only_the_shortfall(how):
    st = game()
    st.state_goods[FOOD] = 2  # 2 of the 4 food
    st.public_services[0] = 1  # all of the health (Public Services: health, edu, media)
    st.cc_storage[FOOD], st.cc_storage[HEALTH_GOOD] = 2, 2  # CC and MC would sell both
    st.mc_storage[FOOD], st.mc_storage[HEALTH_GOOD] = 0, 1
    node = {"op": "provide", "target_class_choice": ["WC"], "bundle": PROVIDE_BUNDLE}
    nid = E.add_node(st, node, "ST")
    ev = event(st, {"op": "provide_to", "bundle": PROVIDE_BUNDLE},
               [{"class": "WC", "reward": {"legitimacy": 1}}])

    def can() -> bool:
        return E.can(st, ST, nid) if how == "card" else EV.option_ok(st, ev, 0)

    set_money(st, ST, 19)
    assert not can()
    set_money(st, ST, 20)  # enough for the 2 food it lacks (foreign market, 10 each) only
    assert can()
    set_money(st, ST, 120)
    cc_price = board.price(st, CC, FOOD)
    money_before = list(st.money)
    if how == "card":
        run(st, ST, node)
    else:
        event_action(st, ev)
    # own food and health are used at once; then exactly two purchases, both food
    assert asked(st, "source:cc", "source:foreign") == [
        ("effects_provide_source", ST, ["source:cc", "source:foreign"])] * 2
    assert st.state_goods[FOOD] == 0 and st.public_services[0] == 0
    assert st.cc_storage[FOOD] == 1 and st.cc_storage[HEALTH_GOOD] == 2
    assert st.mc_storage[HEALTH_GOOD] == 1  # no health bought
    assert st.benefits[WC] == [0, 4, 0, 1, 0, 0, 0]
    assert st.money[ST] == money_before[ST] - cc_price - D.FOREIGN_BASE[FOOD]
    assert st.money[CC] == money_before[CC] + cc_price
    assert st.is_terminal()
    st.check_invariants()


# -- #53 a card makes CC pay more than it holds: CC takes loans -----------------------------------
def test_d53_card_gain_from_cc_beyond_what_cc_holds_makes_cc_take_loans():
    st = game()
    set_money(st, CC, 5)
    set_capital(st, 10)  # CC holds 15 < 20
    node = {"op": "gain", "res": "money", "amt": 20, "from": "CC"}
    assert E.can(st, ST, E.add_node(st, node, "ST"))  # CC holding less does not block it
    total, minted, state = on_table(st), st.minted, st.money[ST]
    run(st, ST, node)
    assert st.loans[CC] == 1 and st.loans[ST] == 0
    assert st.money[ST] == state + 20  # the State gets all 20
    assert st.money[CC] == 0 and st.capital == 15 + D.LOAN_VALUE - 20  # Revenue, then Capital
    assert on_table(st) == total + D.LOAN_VALUE and st.minted == minted + D.LOAN_VALUE
    st.check_invariants()

    run(st, ST, {"op": "gain", "res": "money", "amt": 120, "from": "CC"})  # 45 held: 2 loans
    assert st.loans[CC] == 3 and st.money[CC] == 0
    assert st.capital == 45 + 2 * D.LOAN_VALUE - 120 and st.money[ST] == state + 140
    assert on_table(st) == total + 3 * D.LOAN_VALUE
    st.check_invariants()


def test_d53_state_card_taking_money_from_cc_is_playable_and_forces_cc_loans():
    want = {"op": "gain", "res": "money", "amt": 20, "from": "CC"}
    found = [(d, c) for d, c in enumerate(C.ACTION_CARDS["ST"]) if c.effects == (want,)]
    if not found:
        pytest.skip("no State card takes exactly 20 money from CC any more")
    design, card = found[0]
    st = game()
    for pile in (st.hands[ST], st.action_decks[ST], st.action_discard[ST]):
        if design in pile:
            pile.remove(design)
            break
    st.hands[ST].append(design)
    if card.requirement is not None:  # Windfall Tax (st_10): p3 at A or B
        (name, arg), = card.requirement.items()
        assert name == "policy_in"
        st.policies[int(arg[0][0]) - 1] = "ABC".index(arg[0][1])
    st.legitimacy = [5, 5, 5]  # room for the card's symbols (decision #54)
    set_money(st, CC, 5)  # CC holds 5 < 20
    total, state = on_table(st), st.money[ST]
    st.agenda = [(turn.K.DECIDE_TURN, ST, 0)]
    st.main_done = st.free_used = 0
    go(st)
    assert f"play:{card.id}" in legal_names(st)  # CC holding less does not block the card
    play(st, f"play:{card.id}")
    assert st.loans[CC] == 1 and st.money[ST] == state + 20
    assert st.money[CC] == 0 and st.capital == 5 + D.LOAN_VALUE - 20
    assert on_table(st) == total + D.LOAN_VALUE
    st.check_invariants()
