"""Scenario tests for the worker actions (``workers``, ``workers_build``, ``workers_free``):
Assign Workers (§3.3), Demonstration (§3.6), Build Company (§3.7), Use Education and the
Prosperity gain (§4, §4.2), Swap Workers (§4.4) and Trade Unions (§5.10) of our Hegemony rules
page, one rule each.

Each test empties the board's workers (``blank``), places the workers it needs, then plays a
whole turn's action through the turn decision (so the after-action re-checks run), by action
names, and checks the outcome.
"""

from __future__ import annotations

from meeplezoo.envs.hegemony import board, workers, workers_build, workers_free
from meeplezoo.envs.hegemony import codes as K
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony.actions import CC, MC, SEAT_NAMES, WC
from meeplezoo.envs.hegemony.state import NO_WORKER, worker
from tests.hegemony.helpers import legal_names, new_state, play, refresh

SUPERMARKET, SHOPPING_MALL, COLLEGE, CLINIC = 0, 1, 2, 3
CONVENIENCE, DOCTORS = 12, 13
UNI_HOSPITAL, TECH_UNI, NPB = 20, 21, 22
FACE_DOWN_PUBLIC = 23
COOP = 29
U, AGRI, LUX, HEALTH, EDU, MEDIA = range(6)  # worker kinds (0 unskilled, 1 + industry)
A, B, C_ = 0, 1, 2  # policy sections


def blank(**options):
    """A fresh game past set-up with no worker anywhere, an empty agenda and no token."""
    st = new_state(0, **options)
    play(st, "industry:agri")
    st.agenda = []
    for seat in range(len(st.seat_card)):
        st.seat_workers[seat] = [NO_WORKER] * 3
        st.seat_committed[seat] = [0] * 3
        st.seat_strike[seat] = 0
    st.unemployed = [[0] * 6, [0] * 6]
    st.unions = [0] * 5
    st.demonstration = 0
    return st


def put(st, seat: int, cls: int, *kinds: int, committed: int = 0) -> None:
    """Workers of ``cls`` in the seat's slots, in printed order (-1 leaves a slot empty)."""
    for k, kind in enumerate(kinds):
        if kind >= 0:
            st.seat_workers[seat][k] = worker(cls, kind)
            st.seat_committed[seat][k] = committed


def kinds(st, seat: int) -> list[int]:
    return [-1 if w == NO_WORKER else w % 6 for w in st.seat_workers[seat]]


def company(seat: int) -> str:
    return f"company:{SEAT_NAMES[seat]}"


def src(seat: int, slot: int) -> str:
    return f"from:{SEAT_NAMES[seat]}/{slot + 1}"


def main(st, cls: int, name: str):
    """Start ``cls``'s turn with basic action ``name`` (a one-card hand pays for it)."""
    st.hands[cls] = [0]
    st.agenda = [(K.DECIDE_TURN, cls, 0)]
    st.main_done, st.free_used = 0, 1
    refresh(st)
    assert f"basic:{name}" in legal_names(st), f"{name} should be legal"
    return play(st, f"basic:{name}")


def free(st, cls: int, name: str):
    """Start ``cls``'s turn with free action ``name`` (its main action already done)."""
    st.agenda = [(K.DECIDE_TURN, cls, 0)]
    st.main_done, st.free_used = 1, 0
    refresh(st)
    assert f"free:{name}" in legal_names(st), f"{name} should be legal"
    return play(st, f"free:{name}")


ACTIONS = {**workers.BASIC, **workers_build.BASIC, **workers_free.FREE}  # the worker actions
CODES = {**workers.CODES, **workers_build.CODES, **workers_free.CODES}


def can(st, cls: int, name: str) -> bool:
    return ACTIONS[name][0](st, cls)


def over(st) -> bool:
    """The action is over (the turn ended; nothing of the worker modules is left)."""
    return all(item[0] not in CODES for item in st.agenda)


# -- §3.3 Assign Workers -----------------------------------------------------------------------
def test_s3_3_assign_legal_destinations_per_class():
    st = blank()
    put(st, SUPERMARKET, WC, AGRI, U)
    put(st, CONVENIENCE, MC, AGRI)  # MC worker present: its employee slot is a WC destination
    put(st, DOCTORS, MC, -1)  # no MC worker: its employee slot is not
    workers_build.place_company(st, COOP, D.COOP_FARM)
    st.unemployed[WC] = [3, 1, 1, 1, 1, 1]
    st.unemployed[MC] = [3, 1, 1, 1, 1, 1]
    main(st, WC, "assign_workers")
    wc = set(legal_names(st))
    assert {company(s) for s in (SHOPPING_MALL, COLLEGE, CLINIC, UNI_HOSPITAL, TECH_UNI, NPB,
                                 CONVENIENCE, COOP)} <= wc
    assert company(SUPERMARKET) not in wc  # operational: no empty slot
    assert company(DOCTORS) not in wc and company(FACE_DOWN_PUBLIC) not in wc
    assert "done" not in wc  # at least one placement first
    st = blank()
    put(st, CONVENIENCE, MC, -1)
    workers_build.place_company(st, COOP, D.COOP_FARM)
    st.unemployed[MC] = [3, 1, 1, 1, 1, 1]
    main(st, MC, "assign_workers")
    mc = set(legal_names(st))
    assert company(CONVENIENCE) in mc and company(DOCTORS) in mc  # own MC slots
    assert company(CLINIC) in mc and company(UNI_HOSPITAL) in mc
    assert company(COOP) not in mc and not any(n.startswith("union:") for n in mc)


def test_s3_3_assign_employee_slot_only_when_mc_workers_present_and_mc_never_employee():
    st = blank()
    put(st, CONVENIENCE, MC, AGRI)
    st.unemployed[WC] = [1, 0, 0, 0, 0, 0]
    st.unemployed[MC] = [1, 0, 0, 0, 0, 0]
    main(st, WC, "assign_workers")  # one destination, one source: all taken automatically
    assert over(st)
    assert kinds(st, CONVENIENCE) == [AGRI, U, -1]
    assert st.seat_workers[CONVENIENCE][1] == worker(WC, U)
    st = blank()
    put(st, CONVENIENCE, MC, AGRI, committed=1)
    st.unemployed[MC] = [1, 0, 0, 0, 0, 0]
    assert not can(st, MC, "assign_workers")  # the MC slot is full; MC never takes employee


def test_s3_3_assign_slot_fit_skilled_slot_takes_only_its_industry():
    st = blank()
    st.unemployed[WC] = [2, 2, 1, 0, 0, 0]
    main(st, WC, "assign_workers")
    assert company(COLLEGE) not in legal_names(st)  # no Edu worker for its skilled slot
    play(st, company(SUPERMARKET))  # Agri + U: only an Agri worker fits the first slot
    assert kinds(st, SUPERMARKET) == [AGRI, -1, -1]
    assert legal_names(st) == ["from:unemployed_unskilled", "from:unemployed_agri",
                               "from:unemployed_lux"]
    play(st, "from:unemployed_lux")  # any worker fits a U slot
    assert kinds(st, SUPERMARKET) == [AGRI, LUX, -1]


def test_s3_3_assign_destination_offered_only_if_placements_left_complete_it():
    st = blank()
    put(st, CONVENIENCE, MC, AGRI)
    st.unemployed[WC] = [6, 1, 0, 1, 0, 0]
    main(st, WC, "assign_workers")
    names = legal_names(st)
    assert company(UNI_HOSPITAL) in names  # 3 slots, 3 placements
    assert company(SHOPPING_MALL) not in names  # no Lux worker
    play(st, company(SUPERMARKET), "from:unemployed_unskilled")  # 2 placements used
    assert kinds(st, SUPERMARKET) == [AGRI, U, -1]
    assert st.seat_committed[SUPERMARKET][:2] == [1, 1]
    # 1 placement left: the 2- and 3-slot companies are no longer offered
    assert set(legal_names(st)) == {company(CONVENIENCE), "done"}
    play(st, "done")
    assert over(st) and kinds(st, CONVENIENCE) == [AGRI, -1, -1]


def test_s3_3_assign_up_to_three_workers_then_the_action_ends():
    st = blank()
    st.unemployed[WC] = [6, 0, 0, 0, 0, 0]
    workers_build.place_company(st, COOP, D.COOP_FARM)
    main(st, WC, "assign_workers")  # the farm: 3 U slots, each given an unskilled worker
    assert kinds(st, COOP) == [U, U, U]
    assert over(st) and st.unemployed[WC][U] == 3


def test_s3_3_assign_single_class_rule_company_of_another_class_is_no_destination():
    st = blank()
    put(st, CLINIC, MC, HEALTH, -1)  # a partly staffed MC company (single-class rule)
    st.unemployed[WC] = [2, 0, 0, 1, 0, 0]
    st.unemployed[MC] = [1, 0, 0, 0, 0, 0]
    workers_build.place_company(st, COOP, D.COOP_FARM)
    main(st, WC, "assign_workers")
    assert company(UNI_HOSPITAL) in legal_names(st) and company(COOP) in legal_names(st)
    assert company(CLINIC) not in legal_names(st)
    st.agenda = []
    main(st, MC, "assign_workers")
    assert company(CLINIC) in legal_names(st)


def test_s3_3_assign_reassigning_within_the_same_company_is_illegal():
    st = blank()
    put(st, CLINIC, WC, HEALTH, -1)  # a partial company: WC must complete it
    put(st, COLLEGE, WC, EDU, U)
    st.unemployed[WC] = [0] * 6
    main(st, WC, "assign_workers")
    play(st, company(CLINIC))
    assert src(CLINIC, 0) not in legal_names(st)
    assert set(legal_names(st)) == {src(COLLEGE, 0), src(COLLEGE, 1)}


def test_s3_3_assign_all_or_nothing_after_the_whole_action():
    st = blank()
    put(st, SUPERMARKET, WC, AGRI, U)
    st.unemployed[WC] = [1, 0, 0, 1, 0, 0]
    main(st, WC, "assign_workers")
    play(st, company(CLINIC), src(SUPERMARKET, 1))  # its Health slot: taken automatically
    # the supermarket is partial until the action ends: it may still be refilled
    assert company(SUPERMARKET) in legal_names(st)
    play(st, "done")
    assert over(st)
    assert kinds(st, SUPERMARKET) == [-1, -1, -1]  # its remaining worker went home
    assert st.unemployed[WC] == [1, 1, 0, 0, 0, 0]
    assert kinds(st, CLINIC) == [HEALTH, U, -1] and st.seat_committed[CLINIC][:2] == [1, 1]


def test_s3_3_assign_refilled_operational_company_ends_non_committed_faq():
    st = blank()
    put(st, SUPERMARKET, WC, AGRI, U)
    st.unemployed[WC] = [1, 0, 0, 1, 0, 0]
    main(st, WC, "assign_workers")
    play(st, company(CLINIC), src(SUPERMARKET, 1))  # its Health slot: taken automatically
    play(st, company(SUPERMARKET))  # refilled from the last unskilled worker
    assert over(st)
    assert kinds(st, SUPERMARKET) == [AGRI, U, -1]
    assert st.seat_committed[SUPERMARKET][:2] == [0, 0]  # operational before and after
    assert st.seat_committed[CLINIC][:2] == [1, 1]  # newly operational: committed


def test_s3_3_assign_committed_workers_and_union_members_never_move():
    st = blank()
    put(st, SUPERMARKET, WC, AGRI, U, committed=1)
    put(st, UNI_HOSPITAL, WC, HEALTH, U, U)
    put(st, CLINIC, WC, HEALTH, U)
    st.unions[2] = 1  # a health union member
    workers_build.place_company(st, COOP, D.COOP_FARM)
    main(st, WC, "assign_workers")  # the farm is the only destination
    assert set(legal_names(st)) == {src(UNI_HOSPITAL, 0), src(UNI_HOSPITAL, 1),
                                    src(UNI_HOSPITAL, 2), src(CLINIC, 0), src(CLINIC, 1)}
    st = blank()
    put(st, SUPERMARKET, WC, AGRI, U, committed=1)
    st.unions[0] = 1
    workers_build.place_company(st, COOP, D.COOP_FARM)
    assert not can(st, WC, "assign_workers")  # nothing that may move


def test_s3_3_assign_sources_exclude_committed_workers():
    st = blank()
    put(st, SUPERMARKET, WC, AGRI, U, committed=1)
    put(st, COLLEGE, WC, EDU, U)
    st.unemployed[WC] = [0, 0, 0, 1, 0, 0]
    main(st, WC, "assign_workers")
    play(st, company(CLINIC))  # its Health slot: the unemployed worker, automatically
    assert set(legal_names(st)) == {src(COLLEGE, 0), src(COLLEGE, 1)}


def test_s3_3_mc_may_not_strand_a_committed_wc_employee():
    st = blank()
    put(st, CONVENIENCE, MC, AGRI)
    put(st, CONVENIENCE, WC, -1, U, committed=1)
    st.unemployed[MC] = [1, 0, 0, 1, 0, 0]
    main(st, MC, "assign_workers")
    assert company(DOCTORS) in legal_names(st)
    assert company(SUPERMARKET) not in legal_names(st)  # its Agri worker may not leave
    st.seat_committed[CONVENIENCE][1] = 0  # the employee stands
    st.agenda = []
    main(st, MC, "assign_workers")
    play(st, company(SUPERMARKET))  # the Agri slot: only the convenience store's worker
    assert kinds(st, CONVENIENCE)[0] == -1
    play(st, "from:unemployed_unskilled")
    assert set(legal_names(st)) == {company(DOCTORS), "done"}
    play(st, "done")
    assert over(st)
    assert kinds(st, SUPERMARKET) == [AGRI, U, -1]
    # the MC company lost its MC worker: its WC employee went to the Unemployed area too
    assert kinds(st, CONVENIENCE) == [-1, -1, -1] and st.unemployed[WC][U] == 1


def test_s3_3_assign_moving_out_of_a_struck_company_removes_its_token():
    st = blank()
    put(st, SUPERMARKET, WC, AGRI, U)
    st.seat_strike[SUPERMARKET] = 1
    st.unemployed[WC] = [1, 0, 0, 1, 0, 0]
    main(st, WC, "assign_workers")
    play(st, company(CLINIC), src(SUPERMARKET, 1))  # its Health slot: taken automatically
    assert st.seat_strike[SUPERMARKET] == 0  # non-operational at once: the token goes
    play(st, company(SUPERMARKET))  # refilled: the token does not come back
    assert board.is_operational(st, SUPERMARKET) and st.seat_strike[SUPERMARKET] == 0


def test_d49_union_condition_checked_when_the_whole_action_is_done():
    st = blank()
    put(st, UNI_HOSPITAL, WC, HEALTH, U, U)
    put(st, CLINIC, WC, HEALTH, U)
    st.unions[2] = 1  # 5 health-industry workers
    workers_build.place_company(st, COOP, D.COOP_FARM)
    main(st, WC, "assign_workers")  # the farm is the only destination
    play(st, src(CLINIC, 1))
    play(st, src(UNI_HOSPITAL, 1))
    assert st.unions[2] == 1  # 3 left, but the action is not done: the union stays
    assert "from:unemployed_health" not in legal_names(st)
    play(st, src(UNI_HOSPITAL, 2))
    assert over(st) and kinds(st, COOP) == [U, U, U]
    # done: the hospital and the clinic were left partial (their Health workers went home)
    # and the count is below 4, so the union member went home too
    assert st.unions[2] == 0 and st.unemployed[WC][HEALTH] == 3


def test_d49_a_worker_moved_within_one_industry_in_one_action_keeps_the_union():
    st = blank()
    put(st, UNI_HOSPITAL, WC, HEALTH, U, U)
    put(st, CLINIC, WC, HEALTH)  # 4 health-industry workers: the union just holds
    st.unions[2] = 1
    st.unemployed[WC][U] = 1
    main(st, WC, "assign_workers")  # the clinic's open slot is the only destination
    play(st, src(UNI_HOSPITAL, 1))  # 3 for a moment
    assert st.unions[2] == 1
    play(st, company(UNI_HOSPITAL))  # its only source: the unemployed worker (4 again)
    assert over(st) and st.unions[2] == 1 and st.unemployed[WC][HEALTH] == 0
    assert kinds(st, CLINIC) == [HEALTH, U, -1] and kinds(st, UNI_HOSPITAL) == [HEALTH, U, U]


# -- §3.6 Demonstration ------------------------------------------------------------------------
def test_s3_6_open_wc_slots_counts_exactly_the_listed_slots():
    st = blank()
    # empty: CC 2+2+2+2, public row 1 3+3+3 (face-down rows never count)
    assert workers.open_wc_slots(st) == 17
    put(st, SUPERMARKET, WC, AGRI, U)  # operational: 0
    put(st, CLINIC, MC, HEALTH, U)  # operational (MC staff): 0
    assert workers.open_wc_slots(st) == 13
    put(st, CONVENIENCE, MC, AGRI)  # MC worker present: its empty employee slot counts
    assert workers.open_wc_slots(st) == 14
    workers_build.place_company(st, COOP, D.COOP_FARM)  # an empty Cooperative Farm: 3
    assert workers.open_wc_slots(st) == 17
    put(st, COOP, WC, U, U, U)
    workers_build.place_company(st, 4, D.COMPANY_BY_ID["automated_grain_farm"].index)  # automated
    assert workers.open_wc_slots(st) == 14


def test_s3_6_demonstration_needs_unemployed_at_least_open_slots_plus_two():
    st = blank()
    for seat, k in ((SUPERMARKET, AGRI), (SHOPPING_MALL, LUX), (COLLEGE, EDU), (CLINIC, HEALTH)):
        put(st, seat, WC, k, U)
    put(st, UNI_HOSPITAL, WC, HEALTH, U, U)
    put(st, TECH_UNI, WC, EDU, U, U)
    assert workers.open_wc_slots(st) == 3  # the broadcaster's 3 slots
    st.unemployed[WC] = [4, 0, 0, 0, 0, 0]
    assert not can(st, WC, "demonstration")
    st.unemployed[WC] = [5, 0, 0, 0, 0, 0]
    main(st, WC, "demonstration")
    assert st.demonstration == 1
    assert not can(st, WC, "demonstration")  # the token is on the board


def test_s3_6_demonstration_token_discarded_when_the_condition_fails_after_an_action():
    st = blank()
    for seat, k in ((SUPERMARKET, AGRI), (SHOPPING_MALL, LUX), (COLLEGE, EDU), (CLINIC, HEALTH)):
        put(st, seat, WC, k, U)
    put(st, UNI_HOSPITAL, WC, HEALTH, U, U)
    put(st, TECH_UNI, WC, EDU, U, U)
    st.unemployed[WC] = [4, 0, 0, 0, 0, 1]
    st.demonstration = 1  # 5 unemployed >= 3 open + 2
    st.money[CC] = 1000
    st.cc_market = [D.COMPANY_BY_ID["fast_food_chain"].index]
    main(st, CC, "build_company")  # a new 2-slot company: 5 < 5 + 2
    play(st, "wage:L2", "no")
    assert over(st) and st.demonstration == 0
    st.demonstration = 1
    workers.recheck(st)  # also after a policy change (called by politics)
    assert st.demonstration == 0


def test_s3_6_published_variant_discards_only_after_a_build_staffed_with_wc():
    st = blank(demonstration_discard="published")
    for seat, k in ((SUPERMARKET, AGRI), (SHOPPING_MALL, LUX), (COLLEGE, EDU), (CLINIC, HEALTH)):
        put(st, seat, WC, k, U)
    put(st, UNI_HOSPITAL, WC, HEALTH, U, U)
    put(st, TECH_UNI, WC, EDU, U, U)
    st.unemployed[WC] = [4, 0, 0, 0, 0, 1]
    st.demonstration = 1
    st.money[CC] = 1000
    fast_food = D.COMPANY_BY_ID["fast_food_chain"].index
    st.cc_market = [fast_food, fast_food]
    main(st, CC, "build_company")
    play(st, "market:1", "wage:L2", "no")  # built but not staffed: the token stays
    assert over(st) and st.demonstration == 1
    workers.recheck(st)
    assert st.demonstration == 1
    main(st, CC, "build_company")
    play(st, "wage:L2", "class:WC")  # 2 WC workers hired: 3 unemployed < 5 open + 2
    assert over(st) and st.demonstration == 0


# -- §3.7 Build Company ------------------------------------------------------------------------
def test_s3_7_build_cc_pays_revenue_then_capital_first_empty_seat_market_not_refilled():
    st = blank()
    hospital = D.COMPANY_BY_ID["hospital"].index  # cost 20
    st.cc_market = [hospital, D.COMPANY_BY_ID["car_manufacturer"].index]
    st.money[CC], st.capital = 5, 100
    deck = list(st.cc_deck)
    main(st, CC, "build_company")
    assert legal_names(st) == ["market:1", "market:2"]
    play(st, "market:1")
    assert st.seat_card[4] == hospital  # seats 0-3 hold the starting companies
    assert st.money[CC] == 0 and st.capital == 85 and st.loans[CC] == 0
    assert st.cc_market == [D.COMPANY_BY_ID["car_manufacturer"].index] and st.cc_deck == deck


def test_s3_7_build_only_affordable_cards_never_a_loan():
    st = blank()
    st.cc_market = [D.COMPANY_BY_ID["car_manufacturer"].index]  # cost 45
    st.money[CC], st.capital = 20, 24
    assert not can(st, CC, "build_company")
    st.capital = 25
    assert can(st, CC, "build_company")


def test_s3_7_build_wage_at_or_above_the_p2_minimum():
    st = blank()
    st.cc_market = [D.COMPANY_BY_ID["hospital"].index]
    st.policies[1] = B
    main(st, CC, "build_company")
    assert legal_names(st) == ["wage:L2", "wage:L3"]
    play(st, "wage:L3")  # nobody can staff it: no staffing choice
    assert over(st) and st.seat_wage[4] == 2
    st.policies[1] = A
    st.cc_market = [D.COMPANY_BY_ID["hospital"].index]
    main(st, CC, "build_company")  # L3 only: taken automatically
    assert st.seat_wage[5] == 2


def test_s3_7_build_cc_staffs_with_one_class_that_fills_every_slot_or_none():
    st = blank()
    st.cc_market = [D.COMPANY_BY_ID["hospital"].index]  # Health + U
    st.unemployed[WC] = [1, 0, 0, 1, 0, 0]
    st.unemployed[MC] = [1, 0, 0, 0, 0, 0]  # MC has no health worker
    main(st, CC, "build_company")
    play(st, "wage:L2")
    assert set(legal_names(st)) == {"class:WC", "no"}
    play(st, "class:WC")
    assert kinds(st, 4) == [HEALTH, U, -1] and st.seat_committed[4][:2] == [1, 1]
    assert board.staff_class(st, 4) == WC and st.unemployed[WC] == [0] * 6
    assert over(st)


def test_s3_7_build_cc_staffing_uses_unskilled_in_u_slots_when_available_faq():
    st = blank()
    st.cc_market = [D.COMPANY_BY_ID["pharmaceutical_company"].index]  # Health + U + U
    st.unemployed[MC] = [1, 0, 1, 2, 1, 0]
    main(st, CC, "build_company")
    play(st, "wage:L2", "class:MC")
    # the first U slot takes the unskilled worker; the second has none left: CC chooses
    assert legal_names(st) == ["industry:lux", "industry:health", "industry:edu"]
    play(st, "industry:lux")
    assert kinds(st, 4) == [HEALTH, U, LUX]
    assert st.unemployed[MC] == [0, 0, 0, 1, 1, 0]


def test_s3_7_build_automated_company_operational_at_once_without_wage_or_staff():
    st = blank()
    st.cc_market = [D.COMPANY_BY_ID["automated_grain_farm"].index]
    st.unemployed[WC] = [3, 1, 0, 0, 0, 0]
    main(st, CC, "build_company")
    assert over(st)
    assert board.is_operational(st, 4) and st.seat_wage[4] == -1
    assert st.unemployed[WC] == [3, 1, 0, 0, 0, 0]


def test_s3_7_build_company_limit_cc_12_mc_8():
    st = blank()
    st.cc_market = [D.COMPANY_BY_ID["fast_food_chain"].index]
    for seat in range(4, 12):
        workers_build.place_company(st, seat, D.COMPANY_BY_ID["automated_grain_farm"].index)
    assert not can(st, CC, "build_company")
    st.seat_card[11] = -1
    assert can(st, CC, "build_company")
    st.mc_market = [D.COMPANY_BY_ID["game_store"].index]
    st.unemployed[MC] = [0, 0, 1, 0, 0, 0]
    for seat in range(14, 20):
        workers_build.place_company(st, seat, D.COMPANY_BY_ID["pharmacy"].index)
    assert not can(st, MC, "build_company")
    st.seat_card[19] = -1
    assert can(st, MC, "build_company")


def test_s3_7_build_mc_needs_its_mc_workers_unemployed_or_non_committed():
    st = blank()
    st.mc_market = [D.COMPANY_BY_ID["jewelry_store"].index]  # MC Lux + MC U, cost 16
    st.unemployed[MC] = [1, 0, 0, 0, 0, 0]
    put(st, SHOPPING_MALL, MC, LUX, U, committed=1)
    assert not can(st, MC, "build_company")  # the Lux worker is committed
    st.seat_committed[SHOPPING_MALL] = [0, 0, 0]
    main(st, MC, "build_company")  # its Lux slot: the mall's worker, taken automatically
    assert kinds(st, SHOPPING_MALL)[0] == -1
    assert set(legal_names(st)) == {"from:unemployed_unskilled", src(SHOPPING_MALL, 1)}
    play(st, "from:unemployed_unskilled")
    assert over(st)
    # the shopping mall lost its skilled worker: all-or-nothing sends the other one home
    assert kinds(st, SHOPPING_MALL) == [-1, -1, -1] and st.unemployed[MC] == [1, 0, 0, 0, 0, 0]
    assert kinds(st, 14) == [LUX, U, -1] and st.seat_committed[14][:2] == [1, 1]
    assert st.seat_wage[14] == -1 and st.money[MC] == 40 - 16  # MC-only: no wage to choose


def test_s3_7_build_mc_never_takes_a_worker_that_strands_a_committed_employee_faq():
    st = blank()
    st.mc_market = [D.COMPANY_BY_ID["fast_food_restaurant"].index]  # MC Agri + MC U, cost 20
    put(st, CONVENIENCE, MC, AGRI)
    put(st, CONVENIENCE, WC, -1, U, committed=1)
    st.unemployed[MC] = [1, 0, 0, 0, 0, 0]
    assert not can(st, MC, "build_company")
    st.seat_committed[CONVENIENCE][1] = 0
    assert can(st, MC, "build_company")


def test_s3_7_build_mc_employee_optional_unskilled_for_a_u_slot_when_available():
    st = blank()
    st.mc_market = [D.COMPANY_BY_ID["game_store"].index]  # MC Lux + WC U employee, cost 12
    st.unemployed[MC] = [0, 0, 1, 0, 0, 0]
    st.unemployed[WC] = [1, 1, 0, 0, 0, 0]
    main(st, MC, "build_company")
    play(st, "wage:L2")  # the MC Lux worker is placed automatically (one source)
    assert set(legal_names(st)) == {"from:unemployed_unskilled", "no"}
    play(st, "from:unemployed_unskilled")
    assert kinds(st, 14) == [LUX, U, -1] and st.seat_workers[14][1] == worker(WC, U)
    assert st.seat_committed[14][:2] == [1, 1] and st.seat_wage[14] == 1
    st.mc_market = [D.COMPANY_BY_ID["game_store"].index]
    st.unemployed[MC] = [0, 0, 1, 0, 0, 0]
    st.unemployed[WC] = [0, 1, 0, 1, 0, 0]
    main(st, MC, "build_company")
    play(st, "wage:L2")
    assert set(legal_names(st)) == {"from:unemployed_agri", "from:unemployed_health", "no"}
    play(st, "no")
    assert kinds(st, 15) == [LUX, -1, -1] and board.is_operational(st, 15)


def test_s3_7_staff_decision_and_can_staff_contract():
    st = blank()
    seat = FACE_DOWN_PUBLIC
    st.seat_face_up[seat] = 1  # a public Hospital (Health + U) revealed by p1
    st.unemployed[WC] = [0, 0, 0, 1, 0, 0]
    st.unemployed[MC] = [0, 0, 0, 2, 0, 0]
    assert not workers_build.can_staff(st, seat, WC)  # nobody for the U slot
    assert workers_build.can_staff(st, seat, MC)  # a skilled worker fills the U slot
    workers_build.push_staffing(st, 3, seat, MC)
    st._run()
    assert over(st)  # every choice was forced
    assert kinds(st, seat) == [HEALTH, HEALTH, -1] and st.seat_committed[seat][:2] == [1, 1]
    assert not workers_build.can_staff(st, seat, MC)  # no longer empty


# -- §4.2 Use Education and the Prosperity gain ------------------------------------------------
def test_s4_2_prosperity_gain_scores_the_new_space_and_repeats_the_top():
    st = blank()
    st.prosperity[MC], st.vp[MC] = 5, 0
    workers_free.gain_prosperity(st, MC)
    assert st.prosperity[MC] == 6 and st.vp[MC] == D.MC_PROSPERITY_VP[6] == 5
    st.prosperity[WC], st.vp[WC] = 10, 0
    workers_free.gain_prosperity(st, WC)
    assert st.prosperity[WC] == 10 and st.vp[WC] == 10


def test_s4_2_use_education_replaces_a_worker_keeping_its_committed_state():
    st = blank()
    put(st, SUPERMARKET, WC, AGRI, U, committed=1)
    st.goods[WC][3] = 4  # Population 3 (2 workers owned)
    st.prosperity[WC], st.vp[WC] = 2, 0
    free(st, WC, "use_education")
    assert st.goods[WC][3] == 1 and st.prosperity[WC] == 3 and st.vp[WC] == 3
    # the Agri worker sits in a skilled slot: only the unskilled one may be replaced
    assert legal_names(st) == ["industry:agri", "industry:lux", "industry:health",
                               "industry:edu", "industry:media"]
    play(st, "industry:media")
    assert kinds(st, SUPERMARKET) == [AGRI, MEDIA, -1]
    assert st.seat_committed[SUPERMARKET][:2] == [1, 1]


def test_s4_2_use_education_retrains_skilled_only_outside_skilled_slots_and_unions():
    st = blank()
    put(st, SUPERMARKET, WC, AGRI, LUX)  # Lux worker in a U slot: may retrain
    st.unemployed[WC] = [0, 0, 0, 0, 1, 0]
    st.unions[1] = 0
    st.goods[WC][3] = 3
    free(st, WC, "use_education")
    assert set(legal_names(st)) == {"from:unemployed_edu", src(SUPERMARKET, 1)}
    play(st, src(SUPERMARKET, 1))
    assert "industry:lux" not in legal_names(st) and len(legal_names(st)) == 4
    play(st, "industry:health")
    assert kinds(st, SUPERMARKET) == [AGRI, HEALTH, -1]


def test_s4_2_use_education_illegal_without_a_worker_it_could_upgrade_or_education():
    st = blank()
    put(st, SUPERMARKET, WC, AGRI, -1)
    st.unions[3] = 1
    st.goods[WC][3] = 10
    assert not can(st, WC, "use_education")  # §12 #34
    st.unemployed[WC][U] = 1
    assert can(st, WC, "use_education")
    st.goods[WC][3] = 2  # below Population 3
    assert not can(st, WC, "use_education")


# -- §4.4 Swap Workers -------------------------------------------------------------------------
def test_s4_4_swap_skilled_in_u_slot_for_unskilled_incoming_keeps_commitment():
    st = blank()
    put(st, SUPERMARKET, WC, AGRI, LUX, committed=1)
    put(st, COLLEGE, WC, EDU, HEALTH)
    st.unemployed[WC] = [2, 0, 0, 0, 0, 0]
    free(st, WC, "swap_workers")
    assert set(legal_names(st)) == {src(SUPERMARKET, 1), src(COLLEGE, 1)}  # never skilled slots
    play(st, src(SUPERMARKET, 1))
    assert kinds(st, SUPERMARKET) == [AGRI, U, -1] and st.seat_committed[SUPERMARKET][1] == 1
    assert st.unemployed[WC] == [1, 0, 1, 0, 0, 0]
    # each slot at most once per action, closed by done
    assert set(legal_names(st)) == {src(COLLEGE, 1), "done"}
    play(st, "done")
    assert over(st) and kinds(st, COLLEGE) == [EDU, HEALTH, -1]


def test_s4_4_swap_needs_an_unskilled_unemployed_worker_memo():
    st = blank()
    put(st, SUPERMARKET, WC, AGRI, LUX)
    st.unemployed[WC] = [0, 0, 0, 1, 0, 0]
    assert not can(st, WC, "swap_workers")
    st2 = blank(swap_target="any")
    put(st2, SUPERMARKET, WC, AGRI, LUX)
    st2.unemployed[WC] = [0, 0, 0, 1, 0, 0]
    assert can(st2, WC, "swap_workers")


def test_s4_4_swap_variant_any_incoming_kind_each_slot_once():
    st = blank(swap_target="any")
    put(st, SUPERMARKET, WC, AGRI, LUX)
    st.unemployed[WC] = [1, 0, 1, 1, 0, 0]
    free(st, WC, "swap_workers")  # the only slot is chosen; which kind comes in, not Lux
    assert legal_names(st) == ["from:unemployed_unskilled", "from:unemployed_health"]
    play(st, "from:unemployed_health")
    assert kinds(st, SUPERMARKET) == [AGRI, HEALTH, -1]
    assert over(st)  # the slot was swapped once: only done was left
    assert st.unemployed[WC] == [1, 0, 2, 0, 0, 0]


# -- §5.10 Trade Unions ------------------------------------------------------------------------
def test_s5_10_union_needs_four_other_wc_workers_in_that_industry_coop_counts_for_agri():
    st = blank()
    put(st, SUPERMARKET, WC, AGRI, U)
    st.unemployed[WC] = [0, 1, 0, 0, 0, 0]
    assert not can(st, WC, "assign_workers")  # 2 Agriculture workers: no union
    workers_build.place_company(st, COOP, D.COOP_FARM)
    put(st, COOP, WC, U, U, -1)  # now 4 WC workers in Agriculture companies
    st.unemployed[WC][U] = 1  # (the farm's last slot is another destination)
    main(st, WC, "assign_workers")
    assert "union:agri" in legal_names(st)
    play(st, "union:agri")  # the unemployed Agri worker joins
    assert st.unions[0] == 1 and st.unemployed[WC][AGRI] == 0


def test_s5_10_union_worker_from_a_company_of_that_industry_does_not_count_itself():
    st = blank()
    put(st, UNI_HOSPITAL, WC, HEALTH, U, U)
    put(st, CLINIC, WC, HEALTH, U)  # 5 health-industry WC workers
    st.unemployed[WC][HEALTH] = 1
    main(st, WC, "assign_workers")  # the health union is the only destination
    # 4 others must stay: any Health worker qualifies
    assert set(legal_names(st)) == {"from:unemployed_health", src(UNI_HOSPITAL, 0),
                                    src(CLINIC, 0)}
    play(st, src(CLINIC, 0))
    assert st.unions[2] == 1
    # the clinic is partial (4 left, the union holds); refilling it keeps everything
    play(st, company(CLINIC), "from:unemployed_health")
    assert over(st) and st.unions[2] == 1 and kinds(st, CLINIC) == [HEALTH, U, -1]


def test_s5_10_union_member_lost_at_once_when_the_count_drops():
    st = blank()
    put(st, UNI_HOSPITAL, WC, HEALTH, U, U)
    put(st, CLINIC, WC, HEALTH, U)
    st.unions[2] = 1
    board.unemploy_workers(st, CLINIC)  # e.g. the clinic sold: 3 left
    workers.recheck(st)
    assert st.unions[2] == 0 and st.unemployed[WC][HEALTH] == 2


def test_s5_10_union_members_stay_committed_when_workers_stand_up():
    st = blank()
    put(st, UNI_HOSPITAL, WC, HEALTH, U, U, committed=1)
    put(st, CLINIC, WC, HEALTH, U, committed=1)
    st.unions[2] = 1
    workers.stand_up(st)
    assert st.seat_committed[UNI_HOSPITAL] == [0, 0, 0] and st.seat_committed[CLINIC] == [0] * 3
    assert st.unions[2] == 1
    assert board.workers_owned(st, WC) == 6  # the union member is still owned


def test_s5_10_mc_workers_never_join_unions():
    st = blank()
    put(st, UNI_HOSPITAL, WC, HEALTH, U, U)
    put(st, CLINIC, WC, HEALTH, U)
    st.unemployed[MC] = [1, 0, 1, 1, 0, 0]  # a Health worker, and a Lux + U for the mall
    main(st, MC, "assign_workers")
    assert {company(DOCTORS), company(SHOPPING_MALL)} <= set(legal_names(st))
    assert not any(n.startswith("union:") for n in legal_names(st))
