"""Scenario tests for production.py: our Hegemony rules page §6 (Production), §8 (Scoring)
and §9 (Game End), one rule per test, on the §1 starting board edited by hand.

Starting board used below: CC Supermarket (seat 0, WC), Shopping Mall (1, MC), College (2, WC),
Clinic (3, empty); MC Convenience Store (12) and Doctor's Office (13), no employees; public
University Hospital (20, WC), Technical University (21, MC), National Public Broadcasting
(22, empty); every wage at L2; policies 1C 2B 3A 4B 5C 6B 7B; WC and MC Population 3.
"""

from __future__ import annotations

import pytest

from meeplezoo.envs.hegemony import cards, money
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony import production as P
from meeplezoo.envs.hegemony.actions import CC, MC, ST, WC
from meeplezoo.envs.hegemony.state import worker
from tests.hegemony.helpers import legal_names, new_state, play

SUPERMARKET, MALL, COLLEGE, CLINIC = 0, 1, 2, 3
CONVENIENCE, DOCTORS = 12, 13
UNI_HOSPITAL, TECH_UNI, BROADCASTING = 20, 21, 22
COOP = 29
U = 0  # unskilled worker kind
AGRI, LUX, HEALTH, EDU, MEDIA = 1, 2, 3, 4, 5  # skilled worker kinds
L1, L2, L3 = 0, 1, 2


def board(**options: object):
    """The starting board with nothing pending."""
    st = new_state(0, **options)
    st.agenda = []
    st.unemployed = [[2, 0, 0, 0, 0, 0], [2, 0, 0, 0, 0, 0]]
    st.events, st.agenda_card = [], -1
    return st


def run(st, *items):
    """Put ``items`` on the agenda (the first runs first) and run to the next real choice."""
    st.agenda = []
    st.push(*items)
    st._run()
    return st


def place(st, seat: int, company: str, *workers: int, wage: int = L2) -> None:
    card = D.COMPANY_BY_ID[company]
    st.seat_card[seat] = card.index
    st.seat_face_up[seat] = 1
    st.seat_wage[seat] = wage if card.wages is not None else -1
    st.seat_workers[seat] = [*workers, *[-1] * (3 - len(workers))]
    st.seat_committed[seat] = [0, 0, 0]


def event(pair):
    return cards.Event("e", "E", 1, {}, (), pair, "test")


# -- §6.0 ----------------------------------------------------------------------------------------
def test_s6_0_strike_tokens_removed_at_l3_and_on_non_operational_companies():
    st = board()
    st.seat_strike[SUPERMARKET] = st.seat_strike[MALL] = st.seat_strike[CLINIC] = 1
    st.seat_wage[MALL] = L3
    P.resolve_strikes(st)
    assert st.seat_strike[SUPERMARKET] == 1
    assert st.seat_strike[MALL] == 0  # at L3
    assert st.seat_strike[CLINIC] == 0  # not operational


def test_s6_0_demonstration_wc_splits_x_vp_one_at_a_time_and_gains_influence():
    st = board()
    st.demonstration = 1
    st.unions = [1, 0, 0, 0, 0]  # X = 2 unemployed + 1 union worker
    P.start_demonstration(st)
    st._run()
    assert st.demonstration == 0 and st.influence[WC] == 2
    assert legal_names(st) == ["class:MC", "class:CC", "class:ST"]
    play(st, "class:CC")
    assert legal_names(st) == ["class:CC", "class:ST"]  # class order: MC is passed over
    play(st, "class:CC", "class:ST")
    assert st.vp == [0, 0, -2, -1] and not st.agenda


def test_s6_0_demonstration_losses_capped_by_empty_spaces_excess_lost_scores_negative():
    st = board()
    st.demonstration = 1
    st.unemployed[WC][U] = 40  # X = 40 > caps MC 8-2, CC 12-4, ST 9-3
    run(st)
    P.start_demonstration(st)
    assert not st.agenda  # nothing left to choose
    assert st.vp == [0, -6, -8, -6]


def test_s6_0_demonstration_offers_only_classes_that_can_take_the_vp_left():
    st = board()
    st.demonstration = 1
    for seat in range(4, 11):  # CC owns 11 companies: room for 1 VP of loss
        place(st, seat, "automated_grain_farm")
    for seat in range(23, 29):  # 9 face-up public companies: no room
        st.seat_face_up[seat] = 1
    P.start_demonstration(st)  # X = 2, caps MC 6, CC 1, ST 0: CC alone could not take 2,
    st._run()  # so the first VP goes to MC without a choice
    assert st.vp[MC] == -1 and legal_names(st) == ["class:MC", "class:CC"]
    play(st, "class:CC")
    assert st.vp == [0, -1, -1, 0] and not st.agenda


# -- §6.1 ----------------------------------------------------------------------------------------
def test_s6_1_state_pays_public_wages_to_the_workers_class_and_fills_services_to_cap():
    st = board()
    st.public_services = [10, 6, 4]  # caps: health 6 + 6, edu 6 + 6 (one company each)
    P.produce_state(st)
    assert st.money[ST] == 120 - 30 - 30
    assert st.money[WC] == 30 + 30 and st.money[MC] == 40 + 30
    assert st.public_services == [12, 12, 4]  # health capped at 6 + 6; edu 6 + 6 fits


def test_s6_1_cc_pays_wages_then_stores_base_plus_machinery_then_the_ftz():
    st = board()
    st.seat_machinery[SUPERMARKET] = 1  # +1 food
    st.cc_storage = [6, 2, 0, 2]
    P.produce_cc(st)
    assert st.money[CC] == 120 - 3 * 20 and st.money[WC] == 30 + 40 and st.money[MC] == 60
    assert st.cc_storage == [8, 8, 0, 8]  # 5 food: 2 into storage, 3 into the FTZ
    assert st.ftz == [3, 0]


def test_s6_1_struck_company_pays_no_wage_produces_nothing_and_gives_wc_influence():
    st = board()
    st.seat_strike[SUPERMARKET] = 1
    run(st, (P.PRODUCE, ST, 0))
    assert st.cc_storage[0] == 1  # no food
    assert st.money[CC] == 120 - 20 - 20  # mall and college only
    assert st.influence[WC] == 2
    assert st.seat_strike == [0] * len(st.seat_strike)  # tokens return after the step


def test_s6_1_mc_pays_employee_wage_and_bonus_unless_struck():
    st = board()
    st.seat_workers[CONVENIENCE][1] = worker(WC, U)  # food 2 + 1, wage 8
    st.seat_workers[DOCTORS][1] = worker(WC, U)  # health 2 + 2, wage 8, but struck
    st.seat_strike[DOCTORS] = 1
    P.produce_mc(st)
    assert st.mc_storage == [1 + 3, 0, 1 + 2, 0]
    assert st.money[MC] == 40 - 8 and st.money[WC] == 30 + 8


def test_s6_1_mc_receives_its_wages_before_paying_its_employees():
    st = board()
    st.money[MC] = 0
    st.seat_workers[CONVENIENCE][1] = worker(WC, U)
    run(st, (P.PRODUCE, ST, 0))
    assert st.loans[MC] == 0
    assert st.money[MC] == 30 + 20 - 8  # Technical University, Shopping Mall, employee


def test_s6_1_media_output_is_capped_by_the_influence_supply():
    st = board()
    place(st, 4, "radio_station", worker(WC, U), worker(WC, U))  # 2 influence for CC
    st.influence[ST] += P.board.influence_supply(st) - 1
    P.produce_cc(st)
    assert st.influence[CC] == 2 and P.board.influence_supply(st) == 0


def test_s6_1_coop_farms_feed_wc_and_unions_give_influence():
    st = board()
    place(st, COOP, "cooperative_farm", worker(WC, U), worker(WC, U), worker(WC, AGRI))
    st.unions = [0, 1, 0, 1, 0]
    P.produce_wc(st)
    assert st.goods[WC][0] == 2 and st.influence[WC] == 1 + 2


def test_s6_1_everyone_stands_up_at_the_end_of_the_step():
    st = board()
    st.seat_committed[SUPERMARKET] = [1, 1, 0]
    st.seat_committed[TECH_UNI] = [1, 1, 1]
    run(st, (P.PRODUCE, ST, 0))
    assert not any(any(row) for row in st.seat_committed)


# -- §6.2 ----------------------------------------------------------------------------------------
def test_s6_2_mc_eats_goods_and_services_food_before_storage():
    st = board()
    st.goods[MC][0], st.mc_storage[0] = 2, 5
    run(st, (P.COVER_NEEDS, MC, 0))
    assert st.goods[MC][0] == 0 and st.mc_storage[0] == 4 and not st.agenda


def test_s6_2_shortfall_bought_unit_by_unit_from_sources_the_buyer_chooses():
    st = board()
    st.cc_storage[0], st.mc_storage[0], st.state_goods[0] = 1, 1, 1
    run(st, (P.COVER_NEEDS, WC, 0))  # WC eats 3, has none
    assert legal_names(st) == ["source:cc", "source:mc", "source:state", "source:foreign"]
    play(st, "source:mc", "source:foreign")
    assert st.mc_storage[0] == 0 and st.money[MC] == 40 + 12
    assert st.money[ST] == 120 + 5  # the tariff; the base goes to the supply
    assert st.money[WC] == 30 - 12 - 15 and st.goods[WC][0] == 0


def test_s6_2_only_affordable_sources_else_the_cheapest_with_a_forced_loan():
    st = board()
    st.money[WC] = 14
    st.cc_storage[0], st.mc_storage[0], st.state_goods[0] = 2, 0, 1
    st.prices[CC - MC][0] = 0  # CC food at 9, State 12, foreign 15
    run(st, (P.COVER_NEEDS, WC, 0))
    assert legal_names(st) == ["source:cc", "source:state"]  # foreign is not affordable
    play(st, "source:cc")  # 5 left: nothing affordable, so CC (cheapest) with one loan
    assert st.loans[WC] == 1 and st.cc_storage[0] == 0 and st.money[WC] == 14 - 9 + 50 - 9
    assert legal_names(st) == ["source:state", "source:foreign"]
    play(st, "source:foreign")
    assert st.money[WC] == 46 - 15 and st.loans[WC] == 1 and not st.agenda


# -- §6.3 ----------------------------------------------------------------------------------------
def test_s6_3_state_repays_loans_down_to_the_threshold_when_it_can():
    st = board()
    st.loans[ST] = 2  # 1C: IMF at 1 loan
    P._imf_check(st, (P.IMF_CHECK, ST, 0))
    assert st.loans[ST] == 0 and st.money[ST] == 120 - 110
    assert st.agenda == [(P.TAXES, ST, 1)] and st.policies == list(D.START_POLICIES)
    st = board()
    st.policies[0], st.loans[ST] = 1, 1  # 1B: IMF at 2 loans
    P._imf_check(st, (P.IMF_CHECK, ST, 0))
    assert st.loans[ST] == 1 and st.money[ST] == 120


def test_s6_3_imf_lets_mc_then_cc_reprice_when_no_price_policy_moved():
    st = board()
    st.policies[3] = 2  # 4C: the IMF moves only 2B and 3A
    st.loans[ST], st.money[ST] = 1, 0
    run(st, (P.IMF_CHECK, ST, 0))
    assert st.decision_name() == "adjust_prices" and st.current_player() == MC
    play(st, "done")
    assert st.decision_name() == "adjust_prices" and st.current_player() == CC
    play(st, "done")
    assert not st.agenda and st.policies[:3] == [2, 2, 1] and st.loans[ST] == 0


def test_s6_3_imf_discarded_bills_give_influence_in_turn_order_while_supply_lasts():
    st = board()
    st.bills[3] = MC * 3 + 0
    st.bills[4] = WC * 3 + 1
    st.bills[6] = WC * 3 + 2
    st.markers_used = [2, 1, 0, 0]
    st.influence[ST] += P.board.influence_supply(st) - 2  # 2 cubes left for 3 markers
    P.discard_bills(st)
    assert st.bills == [-1] * 7 and st.markers_used == [0, 0, 0, 0]
    assert st.influence[WC] == 1 + 2 and st.influence[MC] == 1


def test_s6_3_imf_intervention_shifts_policies_sets_minimum_wages_repays_writes_off_halves():
    st = board()
    st.loans[ST], st.money[ST] = 2, 60  # 110 due under 1C: the IMF intervenes
    st.bills[6] = CC * 3 + 2
    st.markers_used[CC] = 1
    st.seat_wage[SUPERMARKET] = L3
    st.seat_committed[SUPERMARKET] = [1, 1, 0]
    st.legitimacy = [5, 2, 1]
    run(st, (P.IMF_CHECK, ST, 0))
    while st.agenda:  # the policy follow-ups: nobody re-prices or lowers anything
        play(st, "done")
    assert st.policies == [2, 2, 1, 2, 2, 1, 1]  # 2B->2C, 3A->3B, 4B->4C
    assert st.bills[6] == -1 and st.influence[CC] == 2
    wages = [st.seat_wage[s] for s in (SUPERMARKET, MALL, COLLEGE, CLINIC, CONVENIENCE,
                                       DOCTORS, UNI_HOSPITAL, TECH_UNI, BROADCASTING)]
    assert wages == [L1] * 9
    assert st.loans[ST] == 0 and st.legitimacy == [3, 1, 1]
    # one loan repaid (60 - 55); taxes at TM 2 (3B, 4C, 5C) and the 2B income rate (4):
    # CC 3 x 2 + corporate 30 on 114; MC 2 x 4 + 2 x 2; WC 4 x 3
    assert st.money[ST] == 5 + 6 + 30 + 8 + 4 + 12
    assert st.money[WC] == 30 - 12


# -- §6.4 ----------------------------------------------------------------------------------------
def test_s6_4_taxes_cc_employment_then_corporate_on_revenue_left():
    st = board()
    st.money[CC], st.capital = 20, 100
    P.pay_taxes(st, 1)  # TM 5 (3A, 4B, 5C): 3 operational CC companies
    assert st.money[CC] == 20 - 15 - 1 and st.capital == 100  # corporate tax on 5 under 3A


def test_s6_4_taxes_all_classes_into_the_treasury():
    st = board()
    P.pay_taxes(st, 1)  # income rate 2B/3A = 4
    assert st.money[CC] == 120 - 15 - 40  # 105 left after employment tax: band 100-199
    assert st.money[MC] == 40 - 4 * 2 - 5 * 2  # Mall and Technical University; 2 companies
    assert st.money[WC] == 30 - 4 * 3
    assert st.money[ST] == 120 + 55 + 18 + 12


def test_s6_4_taxes_wc_takes_a_loan_when_it_cannot_pay():
    st = board()
    st.money[WC] = 5
    P.pay_taxes(st, 0)  # rate 2A/3A = 7: 21 due
    assert st.loans[WC] == 1 and st.money[WC] == 5 + 50 - 21


# -- §8 ------------------------------------------------------------------------------------------
def test_s8_wc_scores_two_vp_per_union():
    st = board()
    st.unions = [1, 0, 1, 1, 0]
    P.score_wc(st)
    assert st.vp[WC] == 6


def _six_full_mc_companies(st) -> None:
    for seat in range(12, 18):
        place(st, seat, "pharmacy", worker(MC, HEALTH), worker(MC, U))


def test_s8_mc_gains_prosperity_when_printed_vp_is_below_fully_operational_companies():
    st = board()
    _six_full_mc_companies(st)
    st.prosperity[MC] = 6  # printed VP 5 < 6 companies
    P.score_mc(st)
    assert st.prosperity[MC] == 7 and st.vp[MC] == D.MC_PROSPERITY_VP[7]
    st = board()
    st.prosperity[MC] = 2  # 2 companies, but no employees: none fully operational
    P.score_mc(st)
    assert st.prosperity[MC] == 2 and st.vp[MC] == 0


def test_s8_mc_scoring_variant_compares_the_track_position():
    st = board(mc_scoring_compare="position")
    _six_full_mc_companies(st)
    st.prosperity[MC] = 6
    P.score_mc(st)
    assert st.prosperity[MC] == 6 and st.vp[MC] == 0


def test_s8_cc_moves_revenue_to_capital_climbs_wealth_and_scores_its_level():
    st = board()
    st.money[CC], st.capital, st.wealth = 40, 60, 2
    P.score_cc(st)
    assert st.money[CC] == 0 and st.capital == 100 and st.wealth == 5
    assert st.vp[CC] == 3 * 3 + 5


def test_s8_cc_wealth_marker_never_moves_back_and_scores_the_current_level():
    st = board()
    st.money[CC], st.capital, st.wealth = 0, 30, 5
    P.score_cc(st)
    assert st.wealth == 5 and st.vp[CC] == 2


def test_s8_state_event_penalties_fixed_pairs_and_pairs_the_state_chooses(monkeypatch):
    st = board()  # (its game indexes the real decks' Events; scoring reads cards.EVENTS)
    monkeypatch.setattr(cards, "EVENTS", (event(("WC", "MC")), event(None), event(None)))
    st.events = [0, 1, 2]
    st.legitimacy = [3, 1, 4]
    run(st, (P.SCORING_PHASE, ST, 0))
    assert st.events == [] and st.legitimacy == [2, 1, 4]  # the fixed pair, clamped at 1
    assert legal_names(st) == ["class:WC", "class:MC"]
    play(st, "class:MC")  # then CC without a choice
    assert legal_names(st) == ["class:WC", "class:MC"]
    play(st, "class:WC")
    assert legal_names(st) == ["class:MC", "class:CC"]
    play(st, "class:CC")
    assert not st.agenda
    assert st.vp[ST] == 1 + 1  # two lowest of [1, 1, 2]
    assert st.legitimacy == [1, 1, 1]


def test_s8_state_legitimacy_vp_halving_tokens_and_agenda(monkeypatch):
    target = {"p1": "C", "p2": "B", "p3": "A", "p4": "A", "p5": "A"}
    monkeypatch.setattr(cards, "AGENDAS", (cards.Agenda("a", target, "test"),))
    st = board()
    st.legitimacy, st.legit_tokens, st.agenda_card = [5, 8, 3], [0, 2, 0], 0
    P.score_state(st)
    assert st.vp[ST] == 3 + 5 + 3  # two lowest; Agenda matches 1C, 2B, 3A
    assert st.legitimacy == [3, 4 + 2, 2]
    assert st.agenda_card == -1 and st.last_agenda == 0


def test_s8_legitimacy_tracks_are_clamped_to_1_to_10():
    st = board()
    st.legitimacy, st.legit_tokens = [10, 10, 1], [8, 0, 0]
    P.score_state(st)
    assert st.legitimacy == [10, 5, 1]
    P.change_legitimacy(st, CC, -3)
    assert st.legitimacy[CC] == 1


# -- §9 ------------------------------------------------------------------------------------------
def test_s9_loans_repaid_at_55_in_5_steps_minus_1_vp_per_5_owed():
    st = board()
    st.loans[WC], st.money[WC] = 2, 62  # 110 owed: 60 paid, 50 short
    st.loans[CC], st.capital, st.money[CC] = 1, 30, 40  # Capital first
    P.end_loans(st)
    assert st.money[WC] == 2 and st.vp[WC] == -10 and st.loans[WC] == 0
    assert st.capital == 0 and st.money[CC] == 15 and st.vp[CC] == 0 and st.loans[CC] == 0


def test_s9_cc_end_loans_published_variant_costs_5_vp_per_loan():
    st = board(cc_end_loans="published")
    st.loans[CC] = 2
    P.end_loans(st)
    assert st.vp[CC] == -10 and st.money[CC] == 120


def test_s9_policy_vp_by_own_section_and_mc_variant():
    st = board()  # 1C 2B 3A 4B 5C: WC 1 in A, MC 2 in B, CC 2 in C
    P.end_policies(st)
    assert st.vp[:3] == [1, 4, 4] and st.vp[ST] == 0
    st = board(mc_policy_vp="published")
    P.end_policies(st)
    assert st.vp[MC] == 3


def test_s9_stored_resources_count_storage_ftz_and_public_services():
    st = board()
    st.goods[MC] = [9, 9, 9, 9]  # Goods & Services never count
    st.mc_storage = [5, 3, 2, 8]
    st.cc_storage, st.ftz = [3, 2, 12, 0], [4, 10]
    st.state_goods, st.public_services = [2, 0], [6, 6, 4]
    P.end_stored(st)
    assert st.vp == [0, 2 + 1 + 0 + 2, 3 + 4 + 4 + 0, 1 + 0 + 2 + 2 + 1]


def test_s9_money_vp_with_the_wc_cap():
    st = board()
    st.money = [200, 44, 500, 89]
    P.end_money(st)
    assert st.vp == [15, 2, 0, 2]


def test_s9_game_end_runs_loans_before_money():
    st = board()
    st.loans[MC], st.money[MC] = 1, 70  # 15 left after 55: 1 VP
    run(st, (P.GAME_END, ST, 0))
    assert st.vp[MC] == 4 + 1  # policies (2 in B) + money


def test_s9_scores_before_the_end_are_as_if_it_ended_now():
    """``scores()`` mid-game plays §9 on a copy (debts, policies, storage, money count at
    once, as reward shaping needs); the game itself is untouched, and at the end the
    scores are the banked VP."""
    st = new_state(0)
    assert st.agenda and not st.is_terminal()
    st.loans[WC], st.money[WC] = 3, 40  # 165 owed: 40 paid, 125 short: -25 VP
    st.mc_storage = [5, 0, 0, 0]
    saved, legal = st.to_dict(), list(st.legal_actions())
    ended = st.clone()
    P.game_end_scoring(ended)
    assert st.scores() == [float(v) for v in ended.vp]
    parts = st.score_breakdown()
    assert parts[WC]["loans"] == -25 and parts[WC]["money"] == 0  # every coin went to debt
    assert parts[MC]["stored"] == 2 and ended.loans[WC] == 0
    assert all(sum(v for k, v in p.items() if k != "total") == p["total"] == s
               for p, s in zip(parts, st.scores()))
    assert st.to_dict() == saved and st.legal_actions() == legal  # the game is untouched
    while st.agenda:
        st.apply(st.legal_actions()[0])
    assert st.scores() == [float(v) for v in st.vp]


def test_s9_rank_keys_tie_breaks(monkeypatch):
    target = {"p1": "C", "p2": "B", "p3": "A", "p4": "A", "p5": "A"}
    monkeypatch.setattr(cards, "AGENDAS", (cards.Agenda("a", target, "test"),))
    st = board()
    st.last_agenda = 0  # 3 matches
    st.vp = [10, 10, 10, 10]
    st.policies[3] = 0  # WC now 2 in A, MC 1 in B, CC 2 in C
    st.bag = [5, 7, 7]
    keys = P.rank_keys(st)
    assert keys[ST] > keys[WC] and keys[ST] > keys[CC] > keys[MC]
    assert keys[CC] > keys[WC]  # same VP and policies: more cubes in the bag
    st.bag = [7, 7, 7]
    assert P.rank_keys(st)[WC] == P.rank_keys(st)[CC]  # shared


def test_s6_production_phase_runs_every_step_in_order():
    st = board()
    st.loans[ST] = 0
    st.seat_committed[SUPERMARKET] = [1, 1, 0]
    run(st, (P.PRODUCTION_PHASE, ST, 0))
    while st.agenda:  # WC buys its food from CC
        assert st.decision_name() == "cover_needs_buy"
        play(st, "source:cc")
    assert st.cc_storage[0] == 1 + 4 - 3 and st.goods[WC][0] == 0
    assert not any(any(row) for row in st.seat_committed)
    assert money.cash(st, WC) == 30 + 70 - 36 - 12  # wages, food, income tax
    st.check_invariants()


@pytest.mark.parametrize("seed", [0, 1])
def test_s8_scoring_and_s9_game_end_finish_the_game(seed):
    st = new_state(seed)
    run(st, (P.SCORING_PHASE, ST, 0), (P.GAME_END, ST, 0))
    while st.agenda:
        st.apply(st.legal_actions()[0])
    assert st.is_terminal() and len(P.rank_keys(st)) == 4
