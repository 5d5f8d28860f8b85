"""Scenario tests for politics.py: bills (§3.1), elections (§7), policy changes (§10, §5.8)
and the State's basic actions (§3.2, §3.14-§3.16), one rule each."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.hegemony import board, politics, workers
from meeplezoo.envs.hegemony import codes as K
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony.actions import CC, MC, PUBLIC_SEATS, ST, WC
from meeplezoo.envs.hegemony.state import worker
from tests.hegemony.helpers import legal_names, new_state, play

A, B, C = 0, 1, 2
HEALTH = 1 + D.INDUSTRIES.index("health")


def game():
    """A fresh game past set-up, with an empty agenda for the scenario to fill."""
    st = new_state(0)
    play(st, "industry:agri")
    st.agenda = []
    return st


def go(st):
    """Run the agenda to the next real choice after a test edited the state directly."""
    st._run()
    st._mask = None
    return st


def run(st, *items):
    """Put ``items`` on the agenda (run in the order given) and run to the next real choice."""
    st.push(*items)
    return go(st)


def bill(st, policy: int, owner: int, section: int) -> None:
    st.bills[policy] = owner * 3 + section
    st.markers_used[owner] += 1


def seat_of(st) -> int:
    return st.current_player()


# -- §3.1 Propose Bill -------------------------------------------------------------------------
def test_s3_1_propose_bill_offers_adjacent_sections_of_policies_without_a_bill():
    st = game()
    st.policies = [C, B, A, B, C, B, B]
    bill(st, 1, MC, C)
    run(st, (politics.PROPOSE, WC, politics.ALL_POLICIES))
    assert sorted(legal_names(st)) == sorted([
        "bill:p1_B", "bill:p3_B", "bill:p4_A", "bill:p4_C", "bill:p5_B",
        "bill:p6_A", "bill:p6_C", "bill:p7_A", "bill:p7_C"])


def test_s3_1_propose_bill_needs_an_unused_marker_and_a_free_policy():
    st = game()
    assert politics.can_propose(st, WC)
    st.markers_used[WC] = D.BILL_MARKERS
    assert not politics.can_propose(st, WC)
    st.markers_used[WC] = 0
    st.bills = [MC * 3 + B] * 7
    assert not politics.can_propose(st, WC)


def test_s3_1_bill_without_immediate_vote_waits_for_the_elections():
    st = game()
    run(st, (politics.PROPOSE, CC, politics.ALL_POLICIES))
    play(st, "bill:p3_B", "no")
    assert st.bills[2] == CC * 3 + B and st.markers_used[CC] == 1
    assert st.policies[2] == A and st.influence[CC] == 1 and st.bag == [8, 8, 8]
    assert st.is_terminal()


def test_s3_1_immediate_vote_is_not_offered_without_personal_influence():
    st = game()
    st.influence[WC] = 0
    run(st, (politics.PROPOSE, WC, politics.ALL_POLICIES))
    play(st, "bill:p7_C")  # the "no" is automatic
    assert st.is_terminal() and st.bills[6] == WC * 3 + C


def test_s3_1_immediate_vote_costs_one_influence_and_passes_the_bill_at_once():
    st = game()
    st.bag = [5, 0, 0]  # the five WC cubes are drawn
    st.cube_supply = [20, 25, 25]
    st.influence = [1, 0, 0, 0]  # the State takes no part
    run(st, (politics.PROPOSE, WC, politics.ALL_POLICIES))
    play(st, "bill:p7_C", "yes")
    assert st.influence[WC] == 0
    assert (st.decision_name(), seat_of(st)) == ("declare", MC)
    play(st, "vote:against")
    assert seat_of(st) == CC
    play(st, "vote:against")  # bids: nobody holds influence, so all are automatic
    assert st.policies[6] == C and st.bills[6] == -1 and st.markers_used[WC] == 0
    assert st.vp == [D.BILL_PASS_VP, 0, 0, 0]
    assert st.bag == [0, 0, 0] and st.cube_supply[WC] == 25  # winners' cubes to supply


def test_s3_1_immediate_vote_has_no_refill_and_no_state_influence():
    st = game()
    st.legitimacy = [10, 10, 10]
    run(st, (politics.PROPOSE, WC, politics.ALL_POLICIES))
    play(st, "bill:p7_C", "yes")
    assert st.bag == [8, 8, 8] and st.influence == [0, 1, 1, 1]


def test_s3_1_immediate_vote_short_bag_still_refills_twice():
    st = game()
    st.bag = [1, 1, 0]
    st.cube_supply = [24, 24, 25]
    st.influence = [1, 0, 0, 0]
    per_refill = [(board.population(st, WC) + 1) // 2,
                  max((board.population(st, MC) + 1) // 2,
                      (len(board.operational_companies(st, MC)) + 1) // 2),
                  (len(board.operational_companies(st, CC)) + 1) // 2]
    run(st, (politics.PROPOSE, WC, politics.ALL_POLICIES))
    play(st, "bill:p7_C", "yes", "vote:for", "vote:for")  # unanimous: every drawn cube to supply
    before = [1, 1, 0]
    assert sum(st.bag) == sum(before) + 2 * sum(per_refill) - D.ELECTION_DRAW
    assert [st.bag[c] + st.cube_supply[c] for c in range(3)] == [D.VOTING_CUBES] * 3
    assert st.policies[6] == C


# -- §11.1 propose_bill modifiers (push_propose) ------------------------------------------------
def test_s11_1_propose_policy_filter_limits_the_policies():
    st = game()
    assert not politics.can_propose(st, WC, policies=0)
    bill(st, 1, MC, C)
    assert not politics.can_propose(st, WC, policies=1 << 1)
    politics.push_propose(st, WC, policies=1 << 1 | 1 << 2)
    go(st)
    play(st, "no")  # the only bill, p3 B, was automatic
    assert st.bills[2] == WC * 3 + B


def test_s11_1_propose_any_section_reaches_a_to_c_without_an_immediate_vote():
    st = game()
    politics.push_propose(st, CC, policies=1 << 0, any_section=True)
    go(st)
    assert legal_names(st) == ["bill:p1_A", "bill:p1_B"]
    play(st, "bill:p1_A")
    assert st.is_terminal() and st.bills[0] == CC * 3 + A and st.influence[CC] == 1


def test_s11_1_any_section_bill_is_still_voted_in_the_elections():
    st = game()
    bill(st, 0, CC, A)  # p1 is at C: A is two steps away, but a card allowed it
    st.influence = [0, 0, 0, 0]
    run(st, (K.ELECTIONS_PHASE, ST, 0))
    assert st.decision_name() == "declare"


def test_s11_1_propose_free_immediate_vote_costs_nothing():
    st = game()
    st.influence[WC] = 0
    politics.push_propose(st, WC, free_vote=True)
    go(st)
    play(st, "bill:p7_C")
    assert legal_names(st) == ["yes", "no"]
    play(st, "yes")
    assert st.decision_name() == "declare" and st.influence[WC] == 0


def test_s11_1_propose_n_bills_each_on_a_different_policy():
    st = game()
    st.influence = [0, 0, 0, 0]
    politics.push_propose(st, MC, n_bills=2)
    go(st)
    play(st, "bill:p7_C")
    assert "bill:p7_A" not in legal_names(st) and "bill:p6_A" in legal_names(st)
    play(st, "bill:p6_A")
    assert st.is_terminal() and st.markers_used[MC] == 2
    assert st.bills[5] == MC * 3 + A and st.bills[6] == MC * 3 + C


def test_s11_1_propose_n_bills_stops_when_markers_run_out():
    st = game()
    st.influence = [0, 0, 0, 0]
    st.markers_used[MC] = 2
    politics.push_propose(st, MC, n_bills=3)
    go(st)
    play(st, "bill:p7_C")
    assert st.is_terminal() and st.markers_used[MC] == 3


def test_s11_1_propose_for_another_seat_decides_and_pays_the_immediate_vote():
    st = game()
    st.influence = [1, 0, 0, 2]
    politics.push_propose(st, WC, vote_decider=ST)
    go(st)
    assert seat_of(st) == WC
    play(st, "bill:p7_C")
    assert (st.decision_name(), seat_of(st)) == ("immediate_vote", ST)
    play(st, "yes")
    assert st.influence == [1, 0, 0, 1] and st.decision_name() == "declare"


def test_s11_1_propose_preview_cubes_are_the_immediate_votes_draw():
    st = game()
    st.influence = [1, 0, 0, 0]
    st.bag = [3, 2, 0]
    st.cube_supply = [22, 23, 25]
    politics.push_propose(st, WC, preview=True)
    go(st)
    assert st.bag == [0, 0, 0] and politics.cubes_out_of_bag(st) == [3, 2, 0]
    play(st, "bill:p7_C", "yes", "vote:against", "vote:against")
    # 3 WC cubes For beat 2 MC cubes Against: no new draw (the bag is empty, no refill)
    assert st.policies[6] == C and st.vp[WC] == D.BILL_PASS_VP
    assert st.bag == [0, 2, 0] and st.cube_supply == [25, 23, 25]


def test_s11_1_propose_preview_cubes_go_back_without_an_immediate_vote():
    st = game()
    politics.push_propose(st, WC, preview=True)
    go(st)
    assert sum(st.bag) == 24 - D.ELECTION_DRAW
    play(st, "bill:p7_C", "no")
    assert st.bag == [8, 8, 8] and politics.cubes_out_of_bag(st) == [0, 0, 0]


# -- §7 Elections ------------------------------------------------------------------------------
def test_s7_elections_phase_is_skipped_without_bills():
    st = game()
    st.legitimacy = [10, 10, 10]
    run(st, (K.ELECTIONS_PHASE, ST, 0))
    assert st.bag == [8, 8, 8] and st.cube_supply == [17, 17, 17] and st.influence[ST] == 1


def test_s7_1_refill_is_capped_by_supply_and_the_state_gains_by_lowest_legitimacy():
    st = game()
    bill(st, 6, WC, C)
    st.legitimacy = [5, 3, 8]
    st.cube_supply = [17, 17, 0]
    wc_add = (board.population(st, WC) + 1) // 2
    mc_add = max((board.population(st, MC) + 1) // 2,
                 (len(board.operational_companies(st, MC)) + 1) // 2)
    run(st, (K.ELECTIONS_PHASE, ST, 0))
    assert st.decision_name() == "declare"  # nothing drawn yet
    assert st.bag == [8 + wc_add, 8 + mc_add, 8]
    assert st.cube_supply == [17 - wc_add, 17 - mc_add, 0]
    assert st.influence[ST] == 1 + D.STATE_INFLUENCE[3]


def test_s7_1_state_influence_is_capped_by_the_influence_supply():
    st = game()
    bill(st, 6, WC, C)
    st.legitimacy = [10, 10, 10]
    st.influence = [26, 2, 1, 1]  # with the 4 Media Influence, 34 of 35 cubes are out
    run(st, (K.ELECTIONS_PHASE, ST, 0))
    assert st.influence[ST] == 2


def test_s7_2_bills_are_resolved_in_policy_order():
    st = game()
    bill(st, 5, CC, C)
    bill(st, 1, WC, C)
    run(st, (K.ELECTIONS_PHASE, ST, 0))
    assert st.top()[0] == politics.DECLARE and st.top()[2] == 1


def test_s7_2_a_bill_no_longer_adjacent_is_discarded_before_its_vote():
    st = game()
    st.policies[0] = B
    bill(st, 0, WC, B)  # proposed while p1 was at C, then something moved p1 (§12 #41)
    run(st, (K.ELECTIONS_PHASE, ST, 0))
    assert st.is_terminal()
    assert st.bills[0] == -1 and st.markers_used[WC] == 0
    assert st.policies[0] == B and st.vp == [0, 0, 0, 0]


def test_s7_2_declarations_in_turn_order_state_only_with_influence():
    st = game()
    bill(st, 6, MC, C)
    st.influence[ST] = 0
    run(st, (politics.ELECTION, ST, 6))
    seats = []
    while st.decision_name() == "declare":
        seats.append(seat_of(st))
        play(st, "vote:against")
    assert seats == [WC, CC]  # the proposer is For automatically, the State has no influence


def test_s7_2_state_declares_when_it_holds_personal_influence():
    st = game()
    bill(st, 6, MC, C)
    run(st, (politics.ELECTION, ST, 6))
    seats = []
    while st.decision_name() == "declare":
        seats.append(seat_of(st))
        play(st, "vote:for")
    assert seats == [WC, CC, ST]


def test_s7_2_unanimous_for_collects_no_bids_and_sends_every_cube_to_supply():
    st = game()
    bill(st, 6, MC, C)
    st.bag = [2, 0, 3]
    st.cube_supply = [23, 25, 22]
    st.influence = [4, 4, 4, 4]
    run(st, (politics.ELECTION, ST, 6))
    play(st, "vote:for", "vote:for", "vote:for")
    assert st.is_terminal()  # no bid was asked
    assert st.influence == [4, 4, 4, 4]
    assert st.bag == [0, 0, 0] and st.cube_supply == [25, 25, 25]
    # proposer +3 without a drawn cube; WC and CC contributed cubes; ST contributed nothing
    assert st.vp == [1, 3, 1, 0]
    assert st.policies[6] == C


def test_s7_2_sealed_bids_are_kept_in_ctx_and_spent_only_at_the_reveal():
    st = game()
    bill(st, 6, WC, C)
    st.bag = [0, 5, 0]  # 5 MC cubes Against
    st.cube_supply = [25, 20, 25]
    st.influence = [6, 0, 0, 0]
    run(st, (politics.ELECTION, ST, 6))
    play(st, "vote:against", "vote:against")  # MC, CC
    assert (st.decision_name(), seat_of(st)) == ("sealed_bid", WC)
    assert legal_names(st) == [f"bid:{b}" for b in range(7)]
    play(st, "bid:5")
    assert st.is_terminal()
    assert st.influence[WC] == 1  # spent at the reveal
    assert st.vp[WC] == D.BILL_PASS_VP  # 5 For = 5 Against: ties pass
    assert st.policies[6] == C
    assert st.bag == [0, 5, 0] and st.cube_supply == [25, 20, 25]  # losers' cubes to the bag


def test_s7_2_bid_is_hidden_until_every_bid_is_in():
    st = game()
    bill(st, 6, WC, C)
    st.influence = [6, 3, 2, 0]
    run(st, (politics.ELECTION, ST, 6))
    play(st, "vote:against", "vote:for", "bid:4")  # WC bids 4 sealed
    assert seat_of(st) == MC and st.influence[WC] == 6
    secret = next(k for k, s in politics.SECRET_BIDS.items() if s == WC)
    assert st.ctx[secret] == 4 and st.ctx[politics.BIDS_IN] == 1 << WC
    seen = set()
    for seed in range(20):
        other = st.clone()
        politics.resample_bids(other, MC, np.random.default_rng(seed))
        seen.add(other.ctx[secret])
        mine = st.clone()
        politics.resample_bids(mine, WC, np.random.default_rng(seed))
        assert mine.ctx[secret] == 4
    assert len(seen) > 1 and seen <= set(range(7))


def test_s7_2_failed_bill_scores_nothing_and_returns_cubes_by_side():
    st = game()
    bill(st, 6, WC, C)
    st.bag = [1, 4, 0]
    st.cube_supply = [24, 21, 25]
    st.influence = [0, 2, 0, 0]
    run(st, (politics.ELECTION, ST, 6))
    play(st, "vote:against", "vote:for", "bid:1")  # MC Against, CC For; MC bids 1
    assert st.is_terminal()
    assert st.vp == [0, 0, 0, 0] and st.policies[6] == B
    assert st.bills[6] == -1 and st.markers_used[WC] == 0
    assert st.bag == [1, 0, 0] and st.cube_supply == [24, 25, 25]
    assert st.influence[MC] == 1


def test_s7_2_for_player_who_contributed_nothing_gains_no_vp():
    st = game()
    bill(st, 6, CC, C)
    st.bag = [0, 3, 2]  # MC Against draws 3, CC draws 2
    st.cube_supply = [25, 22, 23]
    st.influence = [3, 0, 0, 0]
    run(st, (politics.ELECTION, ST, 6))
    play(st, "vote:for", "vote:against", "bid:0")  # WC For but bids nothing
    # For: 2 CC cubes; Against: 3 MC cubes -> fails
    assert st.vp == [0, 0, 0, 0] and st.policies[6] == B
    st2 = game()
    bill(st2, 6, CC, C)
    st2.bag = [0, 3, 2]
    st2.cube_supply = [25, 22, 23]
    st2.influence = [3, 0, 0, 0]
    run(st2, (politics.ELECTION, ST, 6))
    play(st2, "vote:for", "vote:against", "bid:1")  # 3 For vs 3 Against: passes
    assert st2.vp == [D.BILL_SUPPORT_VP, 0, D.BILL_PASS_VP, 0]


def test_s7_2_proposer_without_influence_still_takes_part_and_bids_zero():
    st = game()
    bill(st, 6, ST, C)
    st.influence = [0, 0, 0, 0]
    st.bag = [0, 0, 5]
    st.cube_supply = [25, 25, 20]
    run(st, (politics.ELECTION, ST, 6))
    play(st, "vote:for", "vote:for", "vote:against")  # WC, MC For; CC Against
    assert st.is_terminal()  # every bid was 0, asked automatically
    assert st.policies[6] == B and st.vp == [0, 0, 0, 0]  # 0 For vs 5 CC Against
    st2 = game()
    bill(st2, 6, ST, C)
    st2.influence = [0, 0, 0, 0]
    run(st2, (politics.ELECTION, ST, 6))
    play(st2, "vote:for", "vote:for", "vote:for")  # unanimous with the State
    assert st2.vp[ST] == D.BILL_PASS_VP and st2.policies[6] == C


def test_s7_2_short_bag_refills_twice_then_draws_what_is_there():
    st = game()
    bill(st, 6, WC, C)
    st.bag = [1, 0, 0]
    st.cube_supply = [24, 0, 0]  # only WC can refill: 1 + 2 x wc_add cubes in all
    wc_add = (board.population(st, WC) + 1) // 2
    st.influence = [0, 0, 0, 0]
    run(st, (politics.ELECTION, ST, 6))
    play(st, "vote:for", "vote:for")
    drawn = min(D.ELECTION_DRAW, 1 + 2 * wc_add)
    assert sum(st.bag) == 1 + 2 * wc_add - drawn
    assert st.cube_supply[WC] == 24 - 2 * wc_add + drawn


def test_s7_2_each_decision_belongs_to_the_deciding_seat():
    st = game()
    bill(st, 6, CC, C)
    st.influence = [2, 2, 2, 2]
    run(st, (politics.ELECTION, ST, 6))
    order = []
    while not st.is_terminal():
        order.append((st.decision_name(), seat_of(st)))
        name = legal_names(st)[-1 if st.decision_name() == "declare" else 0]
        play(st, name)
    assert order == [("declare", WC), ("declare", MC), ("declare", ST),
                     ("sealed_bid", WC), ("sealed_bid", MC), ("sealed_bid", CC),
                     ("sealed_bid", ST)]


# -- §10 policy changes ---------------------------------------------------------------------------
def test_s10_card_or_imf_change_gives_no_bill_vp():
    st = game()
    politics.change_policy(st, 6, C, by_vote=False)
    go(st)
    assert st.policies[6] == C and st.vp == [0, 0, 0, 0]


def test_s10_p1_passed_bill_hands_the_public_sector_choices_to_the_state():
    st = game()
    st.unemployed = [[0] * 6, [0] * 6]
    bill(st, 0, WC, B)
    st.influence = [0, 0, 0, 0]
    st.bag = [5, 0, 0]
    st.cube_supply = [20, 25, 25]
    run(st, (politics.ELECTION, ST, 0))
    play(st, "vote:against", "vote:against")
    assert st.policies[0] == B and st.vp[WC] == D.BILL_PASS_VP
    assert (st.decision_name(), seat_of(st)) == ("p1_reveal_company", ST)


def test_s10_p7_takes_effect_at_the_next_preparation():
    st = game()
    politics.change_policy(st, 6, C, by_vote=True)
    go(st)
    before = sum(st.unemployed[WC])
    assert before == sum(game().unemployed[WC])  # nothing happens at once
    run(st, (K.PREP_ARRIVALS, ST, 0))  # §2.1 steps 7-9
    arrivals = D.PREP_NEW_UNSKILLED[WC] + D.IMMIGRATION_PER_ROUND[C]
    assert sum(st.unemployed[WC]) == before + arrivals


def test_s10_p3_and_p7_push_no_follow_up():
    for policy in (2, 6):
        st = game()
        politics.change_policy(st, policy, B, by_vote=True)
        assert st.agenda == [(politics.RECHECK, ST, 0)]


def test_s10_p2_raises_wages_below_the_minimum_at_once_without_committing():
    st = game()
    st.policies[1] = C
    cc_seat, mc_seat, public = 0, 12, PUBLIC_SEATS[0]
    st.seat_wage[cc_seat] = 0
    st.seat_wage[mc_seat] = 0
    st.seat_wage[public] = 2
    politics.change_policy(st, 1, A, by_vote=True)
    assert st.seat_wage[cc_seat] == 2 and st.seat_wage[mc_seat] == 2
    assert st.seat_wage[public] == 2
    assert not any(any(c) for c in st.seat_committed)
    # then the owners may lower, one after another: MC, CC, ST (§12 #30)
    assert st.agenda[::-1] == [(K.ADJUST_WAGES, MC, 1), (K.ADJUST_WAGES, CC, 1),
                               (K.ADJUST_WAGES, ST, 1), (politics.RECHECK, ST, 0)]


def test_s10_p2_leaves_companies_without_a_wage_and_face_down_ones_alone():
    st = game()
    st.policies[1] = C
    face_down = PUBLIC_SEATS[3]
    st.seat_wage[face_down] = 0
    politics.change_policy(st, 1, B, by_vote=True)
    assert st.seat_wage[face_down] == 0


@pytest.mark.parametrize("policy", [3, 4, 5])
def test_s10_p4_p5_p6_let_mc_then_cc_re_price(policy):
    st = game()
    politics.change_policy(st, policy, A, by_vote=True)
    assert st.policies[policy] == A
    assert st.agenda[::-1] == [(K.ADJUST_PRICES, MC, 1), (K.ADJUST_PRICES, CC, 1),
                               (politics.RECHECK, ST, 0)]


def test_s5_4_p2_lowering_follow_up_asks_mc_then_cc_then_st():
    st = game()
    st.policies[1] = B
    st.seat_committed[0] = [1, 0, 0]  # CC's first company cannot be lowered
    politics.change_policy(st, 1, C, by_vote=True)
    go(st)
    asked = []
    while not st.is_terminal():
        asked.append(seat_of(st))
        names = legal_names(st)
        if asked[-1] == CC:
            play(st, "company:cc_02")  # L1, the only lower level, is automatic
            assert "company:cc_01" not in names
        play(st, "done")
    assert asked == [MC, CC, ST]
    assert st.seat_wage[1] == 0 and st.seat_wage[0] == 1


def test_s5_11_p4_change_drops_a_high_price_it_makes_illegal_under_the_variant():
    st = new_state(0, price_high_requires_policy=True)
    play(st, "industry:agri")
    st.agenda = []
    st.policies[3] = C
    st.prices[1][2] = 2  # CC's Health at High, legal under 4C
    politics.change_policy(st, 3, B, by_vote=True)
    assert st.prices[1][2] == 1


def test_s10_recheck_runs_after_the_follow_ups(monkeypatch: pytest.MonkeyPatch):
    calls = []
    monkeypatch.setattr(workers, "recheck", lambda st: calls.append(st.policies[6]),
                        raising=False)
    st = game()
    politics.change_policy(st, 6, A, by_vote=True)
    go(st)
    assert calls == [A]


# -- §5.8 public companies and p1 ----------------------------------------------------------------
def nobody_unemployed(st) -> None:
    st.unemployed = [[0] * 6, [0] * 6]


def test_s5_8_growing_state_reveals_pays_and_sets_wages():
    st = game()
    nobody_unemployed(st)
    st.policies[1] = B
    treasury = st.money[ST]
    politics.change_policy(st, 0, B, by_vote=True)
    go(st)
    assert (st.decision_name(), seat_of(st)) == ("p1_reveal_company", ST)
    # one choice per face-down design: a hospital, a university, a TV station
    assert legal_names(st) == ["company:public_r2_1", "company:public_r2_2",
                               "company:public_r2_3"]
    play(st, "company:public_r2_1")
    assert legal_names(st) == ["wage:L2", "wage:L3"]  # at or above the 2B minimum
    play(st, "wage:L3")
    play(st, "company:public_r3_1", "wage:L2")  # the row-3 copy of the hospital
    assert st.seat_face_up[PUBLIC_SEATS[3]] and st.seat_face_up[PUBLIC_SEATS[6]]
    play(st, "company:public_r2_2", "wage:L2")
    assert politics.public_face_up(st) == 6
    assert st.seat_wage[PUBLIC_SEATS[3]] == 2 and st.seat_wage[PUBLIC_SEATS[6]] == 1
    assert st.money[ST] == treasury - 3 * 20


def test_s5_8_growing_pays_with_forced_loans():
    st = game()
    nobody_unemployed(st)
    st.money[ST] = 10
    st.policies[1] = A  # only L3
    politics.change_policy(st, 0, B, by_vote=True)
    go(st)
    play(st, "company:public_r2_1")  # the wage L3 is automatic
    assert st.loans[ST] == 1 and st.money[ST] == 40
    assert st.seat_wage[PUBLIC_SEATS[3]] == 2


def test_s5_8_growing_stops_when_no_face_down_company_is_left():
    st = game()
    nobody_unemployed(st)
    for seat in PUBLIC_SEATS[4:]:
        st.seat_card[seat] = -1
        st.seat_face_up[seat] = 0
    politics.change_policy(st, 0, A, by_vote=True)
    go(st)
    play(st, "wage:L2")  # the only face-down company was revealed automatically
    assert politics.public_face_up(st) == 4
    assert st.agenda == []


def test_s5_8_revealed_company_is_staffed_when_one_class_can_fill_it():
    st = game()
    nobody_unemployed(st)
    st.unemployed[WC][0] = 1
    st.unemployed[WC][HEALTH] = 1
    st.policies[1] = A
    politics.change_policy(st, 0, B, by_vote=True)
    go(st)
    play(st, "company:public_r2_1", "company:public_r2_2", "company:public_r2_3")
    while not st.is_terminal():
        play(st, legal_names(st)[0])
    hospital = PUBLIC_SEATS[3]
    assert st.seat_workers[hospital][:2] == [worker(WC, HEALTH), worker(WC, 0)]
    assert st.seat_committed[hospital][:2] == [1, 1]
    assert sum(st.unemployed[WC]) == 0


def test_s5_8_state_chooses_the_class_when_both_can_fill_a_revealed_company():
    st = game()
    nobody_unemployed(st)
    for cls in (WC, MC):
        st.unemployed[cls][0] = 1
        st.unemployed[cls][HEALTH] = 1
    for seat in PUBLIC_SEATS[4:]:
        st.seat_card[seat] = -1
        st.seat_face_up[seat] = 0
    st.policies[1] = A
    politics.change_policy(st, 0, B, by_vote=True)
    go(st)  # the only face-down company (a hospital) is revealed at L3 automatically
    assert (st.decision_name(), seat_of(st)) == ("p1_staff_class", ST)
    assert legal_names(st) == ["class:WC", "class:MC"]
    play(st, "class:MC")
    while not st.is_terminal():
        play(st, legal_names(st)[0])
    assert st.seat_workers[PUBLIC_SEATS[3]][:2] == [worker(MC, HEALTH), worker(MC, 0)]
    assert sum(st.unemployed[MC]) == 0 and sum(st.unemployed[WC]) == 2


def test_s5_8_shrinking_state_chooses_gains_cost_unemploys_even_committed_and_caps():
    st = game()
    st.policies[0] = B
    for seat in PUBLIC_SEATS[3:6]:
        st.seat_face_up[seat] = 1
    university_hospital = PUBLIC_SEATS[0]
    st.seat_committed[university_hospital] = [1, 1, 1]
    st.seat_strike[university_hospital] = 1
    st.public_services = [20, 6, 4]
    unemployed = sum(st.unemployed[WC])
    treasury = st.money[ST]
    politics.change_policy(st, 0, C, by_vote=True)
    go(st)
    assert (st.decision_name(), seat_of(st)) == ("p1_close_company", ST)
    assert len(legal_names(st)) == 6
    play(st, "company:public_r1_1", "company:public_r2_1", "company:public_r2_2")
    assert politics.public_face_up(st) == 3 and st.agenda == []
    assert st.money[ST] == treasury + 30 + 20 + 20
    assert st.seat_workers[university_hospital] == [-1, -1, -1]
    assert st.seat_strike[university_hospital] == 0
    assert sum(st.unemployed[WC]) == unemployed + 3
    # no public Health company is left face up: the Health cap is 0 + 6
    assert st.public_services[0] == D.STATE_STOCK_MARGIN


def test_s3_politics_basic_actions_are_offered_on_the_turn():
    st = game()
    st.influence[ST] = 2
    st.main_done = st.free_used = 0
    run(st, (K.DECIDE_TURN, ST, 0))
    names = legal_names(st)
    for action in ("propose_bill", "meet_mps", "extra_tax", "campaign"):
        assert f"basic:{action}" in names
    st.agenda = []
    run(st, (K.DECIDE_TURN, WC, 0))
    assert {"basic:propose_bill", "basic:political_pressure"} <= set(legal_names(st))


# -- §3.2, §3.14, §3.15, §3.16 -------------------------------------------------------------------
def test_s3_2_political_pressure_moves_three_cubes_or_what_is_left():
    st = game()
    politics.start_pressure(st, MC)
    assert st.bag[MC] == 11 and st.cube_supply[MC] == 14
    st.cube_supply[WC] = 2
    assert politics.can_pressure(st, WC)
    politics.start_pressure(st, WC)
    assert st.bag[WC] == 10 and st.cube_supply[WC] == 0
    assert not politics.can_pressure(st, WC)


def test_s3_14_meet_with_party_mps_gives_two_influence_and_one_legitimacy():
    st = game()
    st.influence[ST] = 3
    st.legitimacy = [10, 4, 5]
    assert politics.can_meet_mps(st, ST)
    politics.start_meet_mps(st, ST)
    go(st)
    assert legal_names(st) == ["class:MC", "class:CC"]  # a track at 10 is illegal (§12 #40)
    play(st, "class:CC")
    assert st.influence[ST] == 1 and st.influence[CC] == 3 and st.legitimacy == [10, 4, 6]
    assert not politics.can_meet_mps(st, ST)


def test_s3_14_meet_with_party_mps_illegal_when_every_track_is_at_ten():
    st = game()
    st.influence[ST] = 5
    st.legitimacy = [10, 10, 10]
    assert not politics.can_meet_mps(st, ST)


def test_s3_15_extra_tax_takes_ten_with_forced_loans_and_lowers_the_two_lowest():
    st = game()
    st.money[WC] = 4
    st.legitimacy = [3, 5, 4]
    treasury = st.money[ST]
    politics.start_extra_tax(st, ST)
    go(st)
    assert st.agenda == []  # no tie: automatic
    assert st.legitimacy == [2, 5, 3]
    assert st.loans[WC] == 1 and st.money[WC] == 44
    assert st.money[MC] == 30 and st.money[CC] == 110
    assert st.money[ST] == treasury + 30


def test_s3_15_extra_tax_tie_is_broken_by_the_state():
    st = game()
    st.legitimacy = [2, 3, 3]
    politics.start_extra_tax(st, ST)
    go(st)
    assert (st.decision_name(), seat_of(st)) == ("extra_tax_legitimacy", ST)
    assert legal_names(st) == ["class:MC", "class:CC"]  # WC is the lowest: it lost 1 already
    play(st, "class:CC")
    assert st.legitimacy == [1, 3, 2]


def test_s3_15_extra_tax_three_way_tie_state_picks_two():
    st = game()
    politics.start_extra_tax(st, ST)
    go(st)
    assert legal_names(st) == ["class:WC", "class:MC", "class:CC"]
    play(st, "class:MC")
    assert legal_names(st) == ["class:WC", "class:CC"]
    play(st, "class:WC")
    assert st.legitimacy == [1, 1, 2] and st.agenda == []


def test_s3_15_extra_tax_illegal_with_a_track_at_one():
    st = game()
    st.legitimacy = [1, 5, 5]
    assert not politics.can_extra_tax(st, ST)
    st.legitimacy = [2, 5, 5]
    assert politics.can_extra_tax(st, ST)


def test_s3_16_campaign_moves_one_to_three_media_influence():
    st = game()
    st.public_services[2] = 2
    politics.start_campaign(st, ST)
    go(st)
    assert legal_names(st) == ["qty:1", "qty:2"]
    play(st, "qty:2")
    assert st.public_services[2] == 0 and st.influence[ST] == 3
    assert not politics.can_campaign(st, ST)
    st.public_services[2] = 5
    politics.start_campaign(st, ST)
    go(st)
    assert legal_names(st) == ["qty:1", "qty:2", "qty:3"]
