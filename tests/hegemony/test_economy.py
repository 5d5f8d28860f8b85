"""Scenario tests for the economy actions (our Hegemony rules page §3.4-§3.12, §4, §5.4, §5.11).

Each test sets up a position on a fresh game, starts one action (a basic action through its
``start``, a free action through the turn decision), plays it by action names, and checks the
outcome.  Basic actions are started directly because a basic action needs a card to discard
and the decks are authored elsewhere.
"""

from __future__ import annotations

import pytest

from meeplezoo.envs.hegemony import board, economy, economy_free, economy_trade, storage
from meeplezoo.envs.hegemony import cards as C
from meeplezoo.envs.hegemony import codes as K
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony.actions import CC, MC, ST, WC
from meeplezoo.envs.hegemony.state import worker
from tests.hegemony.helpers import legal_names, new_state, play, refresh

SUPERMARKET, SHOPPING_MALL, COLLEGE, CLINIC = 0, 1, 2, 3
CONVENIENCE, DOCTORS = 12, 13
UNI_HOSPITAL, TECH_UNI = 20, 21
AGRI, LUX_K, HEALTH_K, EDU_K, MEDIA_K = 1, 2, 3, 4, 5  # worker kinds (1 + industry)
A, B, C_ = 0, 1, 2  # policy sections

BASIC = {**economy_trade.BASIC, **economy.BASIC}  # the economy's basic actions
ECONOMY_CODES = {**economy_trade.CODES, **economy_free.CODES, **economy.CODES}


def fresh(**options):
    st = new_state(0, **options)
    st.agenda = []
    st.main_done = st.free_used = 1
    return st


def basic(st, cls: int, name: str):
    """Start basic action ``name`` for ``cls`` above a finished turn, and run to the first
    real choice."""
    assert BASIC[name][0](st, cls), f"{name} should be legal"
    st.agenda = [(K.DECIDE_TURN, cls, 0)]
    st.main_done = st.free_used = 1
    BASIC[name][1](st, cls)
    st._run()
    return st


def turn(st, cls: int):
    """A turn whose main action is done and whose free action is still open."""
    st.agenda = [(K.DECIDE_TURN, cls, 0)]
    st.main_done, st.free_used = 1, 0
    return refresh(st)


def finished(st) -> bool:
    """No economy decision is left on the agenda (the action is over)."""
    return all(item[0] not in ECONOMY_CODES for item in st.agenda)


def set_money(st, cls: int, amount: int, *, capital: bool = False) -> None:
    """Give a class ``amount`` (CC: Revenue, or Capital) as if the bank had paid it, so the
    money invariant holds."""
    if capital:
        st.minted += amount - st.capital
        st.capital = amount
    else:
        st.minted += amount - st.money[cls]
        st.money[cls] = amount


def money_total(st) -> int:
    return sum(st.money) + st.capital - st.minted


# -- §3.4 Buy Goods & Services -----------------------------------------------------------------
def test_s3_4_buy_from_cc_at_cc_price_into_revenue_only_affordable_units():
    st = fresh()
    st.cc_storage[0] = 5
    st.mc_storage[0] = 0
    basic(st, WC, "buy")
    play(st, "resource:food")
    assert legal_names(st) == ["source:cc", "source:foreign"]
    play(st, "source:cc")
    assert legal_names(st) == ["qty:1", "qty:2"]  # 30 money buys 2 at 12, no loan
    total = money_total(st)
    play(st, "qty:2")
    assert st.money[WC] == 6 and st.money[CC] == 144 and st.loans[WC] == 0
    assert st.goods[WC][0] == 2 and st.cc_storage[0] == 3
    assert money_total(st) == total
    assert finished(st)  # nothing affordable is left: the second source is skipped
    st.check_invariants()


def test_s3_4_buy_each_source_capped_at_population_and_two_sources_at_most():
    st = fresh()
    set_money(st, WC, 500)
    st.cc_storage[0], st.mc_storage[0], st.state_goods[0] = 8, 8, 8
    basic(st, WC, "buy")
    play(st, "resource:food", "source:cc")
    assert legal_names(st)[-1] == "qty:3"  # Population 3
    play(st, "qty:3")
    assert legal_names(st) == ["done", "source:mc", "source:state", "source:foreign"]
    play(st, "source:state", "qty:3")
    assert st.goods[WC][0] == 6
    assert finished(st)  # a third source is never offered
    assert st.money[ST] == 120 + 3 * D.STATE_GOODS_PRICE[0]


def test_s3_4_buy_never_from_the_ftz_and_state_food_only_if_held():
    st = fresh()
    set_money(st, WC, 100)
    st.cc_storage[0], st.ftz[0], st.mc_storage[0], st.state_goods[0] = 0, 5, 0, 0
    basic(st, WC, "buy")
    play(st, "resource:food")
    # only the Foreign Market is left, so the source is taken at once
    assert st.agenda[-1][0] == economy_trade.BUY_QTY
    assert st.agenda[-1][2] == economy_trade.SRC_FOREIGN


def test_s3_4_buy_foreign_market_base_to_bank_tariff_to_treasury():
    st = fresh()
    st.policies[5] = B
    set_money(st, WC, 100)
    st.cc_storage[1], st.mc_storage[1] = 0, 0
    minted = st.minted
    basic(st, WC, "buy")
    play(st, "resource:lux", "qty:2")  # the Foreign Market is the only source
    assert st.money[WC] == 100 - 2 * (6 + 3)
    assert st.money[ST] == 120 + 2 * 3  # tariff
    assert st.minted == minted - 2 * 6  # base to the bank
    assert st.goods[WC][1] == 2
    st.check_invariants()


def test_s3_4_buy_state_health_at_b_price_gives_state_vp():
    st = fresh()
    st.policies[3] = B
    st.cc_storage[2] = st.mc_storage[2] = 0
    basic(st, WC, "buy")
    play(st, "resource:health")  # the State is the only source
    play(st, "qty:2")
    assert st.money[WC] == 30 - 10 and st.money[ST] == 130
    assert st.vp[ST] == 1 and st.public_services[0] == 4 and st.goods[WC][2] == 2
    st.check_invariants()


def test_s3_4_buy_free_state_services_give_legitimacy_per_full_three_units():
    st = fresh()
    st.policies[4] = A
    st.cc_storage[3] = st.mc_storage[3] = 0
    set_money(st, WC, 0)
    assert BASIC["buy"][0](st, WC)  # free units need no money
    basic(st, WC, "buy")
    play(st, "qty:3")
    assert st.legitimacy[WC] == D.START_LEGITIMACY + 1 and st.vp[ST] == 0
    st2 = fresh()
    st2.policies[4] = A
    st2.cc_storage[3] = st2.mc_storage[3] = 0
    basic(st2, WC, "buy")
    play(st2, "resource:edu", "qty:2")
    assert st2.legitimacy[WC] == D.START_LEGITIMACY


def test_s3_4_buy_media_influence_from_the_state_at_10_into_personal_influence():
    st = fresh()
    set_money(st, MC, 25)
    st.mc_storage = [0, 0, 0, 0]
    st.cc_storage = [0, 0, 0, 0]
    st.public_services[:2] = [0, 0]
    basic(st, MC, "buy")
    assert legal_names(st) == ["resource:food", "resource:lux", "resource:influence"]
    play(st, "resource:influence")
    assert legal_names(st) == ["qty:1", "qty:2"]
    play(st, "qty:2")
    assert st.influence[MC] == 3 and st.public_services[2] == 2 and st.money[ST] == 140
    st.check_invariants()


def test_s3_4_mc_buys_from_itself_free_capped_at_population():
    st = fresh()
    st.mc_storage[2] = 5
    st.cc_storage[2] = 0
    st.policies[3] = C_
    set_money(st, MC, 0)
    basic(st, MC, "buy")
    play(st, "resource:health")  # only its own storage is affordable
    assert legal_names(st) == ["qty:1", "qty:2", "qty:3"]
    play(st, "qty:3")
    assert st.goods[MC][2] == 3 and st.mc_storage[2] == 2 and st.money[MC] == 0


def test_s3_4_buy_illegal_when_nothing_is_affordable():
    st = fresh()
    set_money(st, WC, 4)
    st.policies[3] = st.policies[4] = C_
    assert not BASIC["buy"][0](st, WC)
    set_money(st, WC, 5)
    st.prices[1][1] = 0  # CC lux at the low step, 5
    assert BASIC["buy"][0](st, WC)


# -- §3.5 Strike -------------------------------------------------------------------------------
def test_s3_5_strike_offers_operational_wc_companies_below_l3_with_nobody_committed():
    st = fresh()
    st.seat_wage[COLLEGE] = 2  # L3: not eligible
    st.seat_workers[CONVENIENCE][1] = worker(WC, 0)  # an MC company with a WC employee
    basic(st, WC, "strike")
    # Shopping Mall is MC-staffed, Clinic empty, Technical University MC-staffed
    assert legal_names(st) == ["company:cc_01", "company:mc_01", "company:public_r1_1"]
    play(st, "company:mc_01")
    assert legal_names(st) == ["done", "company:cc_01", "company:public_r1_1"]
    play(st, "company:cc_01")
    assert finished(st)  # at most 2 companies
    assert st.seat_strike[CONVENIENCE] == st.seat_strike[SUPERMARKET] == 1
    assert sum(st.seat_strike) == 2


def test_s3_5_strike_excludes_committed_and_struck_companies_and_needs_tokens():
    st = fresh()
    st.seat_committed[SUPERMARKET][1] = 1
    st.seat_strike[COLLEGE] = 1
    basic(st, WC, "strike")
    assert finished(st)  # University Hospital was the only target: taken at once
    assert st.seat_strike[UNI_HOSPITAL] == 1
    st2 = fresh()
    for seat in (5, 6, 7, 8, 9, 10, 11):  # all 7 tokens out (a test fiction)
        st2.seat_strike[seat] = 1
    assert not BASIC["strike"][0](st2, WC)


# -- §3.8 Sell Company -------------------------------------------------------------------------
def test_s3_8_sell_company_unemploys_workers_returns_tokens_and_pays_cost():
    st = fresh()
    st.seat_strike[SUPERMARKET] = 1
    st.seat_machinery[SUPERMARKET] = 1
    st.seat_committed[COLLEGE][0] = 1  # College cannot be sold
    unemployed = list(st.unemployed[WC])
    basic(st, CC, "sell_company")
    assert legal_names(st) == ["company:cc_01", "company:cc_02", "company:cc_04"]
    play(st, "company:cc_01")
    assert st.seat_card[SUPERMARKET] == -1 and st.seat_strike[SUPERMARKET] == 0
    assert st.seat_machinery[SUPERMARKET] == 0
    assert st.unemployed[WC][0] == unemployed[0] + 1
    assert st.unemployed[WC][AGRI] == unemployed[AGRI] + 1
    assert st.money[CC] == 120 + 16
    assert st.company_discard[-1] == D.COMPANY_BY_ID["supermarket"].index
    st.check_invariants()


def test_s3_8_sell_public_company_cc_owns_returns_face_down_to_public_sector():
    st = fresh()
    hospital = st.seat_card[23]
    st.seat_card[23], st.seat_face_up[23] = -1, 0
    st.seat_card[5], st.seat_face_up[5], st.seat_wage[5] = hospital, 1, 1
    for seat in (SUPERMARKET, SHOPPING_MALL, COLLEGE):
        st.seat_committed[seat][0] = 1
    st.seat_card[CLINIC] = -1
    basic(st, CC, "sell_company")  # the one sellable company is taken at once
    assert st.seat_card[5] == -1
    assert st.seat_card[23] == hospital and st.seat_face_up[23] == 0
    assert hospital not in st.company_discard
    assert st.money[CC] == 120 + D.COMPANIES[hospital].cost
    st.check_invariants()


# -- §3.9 Sell to Foreign Market ---------------------------------------------------------------
@pytest.fixture
def export_card(monkeypatch):
    """One Export card (the authored deck may still be empty): small / large offers."""
    card = C.ExportCard("ex_test", {"food": ((2, 25), (5, 50)), "lux": ((3, 20), (6, 40)),
                                    "health": ((2, 15), (6, 40)), "edu": ((3, 20), (5, 35))},
                        "test card")
    monkeypatch.setattr(C, "EXPORTS", (card,))


def test_s3_9_mc_sells_offers_each_at_most_once_and_scores_vp_per_transaction(export_card):
    st = fresh()
    st.export = 0
    st.mc_storage = [8, 0, 2, 0]
    st.goods[MC] = [0, 9, 0, 0]  # never sold from Goods & Services
    basic(st, MC, "sell_foreign")
    assert legal_names(st) == ["offer:food_small", "offer:food_large", "offer:health_small"]
    play(st, "offer:food_large")
    assert legal_names(st) == ["done", "offer:food_small", "offer:health_small"]
    play(st, "offer:food_small", "offer:health_small")
    assert finished(st)  # nothing left to sell: the action ends
    assert st.mc_storage == [1, 0, 0, 0] and st.money[MC] == 40 + 50 + 25 + 15
    assert st.vp[MC] == 3
    st.check_invariants()


def test_s3_9_cc_sells_ftz_goods_and_scores_no_vp_unless_variant(export_card):
    for variant, vp in ((False, 0), (True, 1)):
        st = fresh(cc_export_vp=variant)
        st.export = 0
        st.cc_storage = [1, 0, 0, 0]
        st.ftz = [4, 0]
        basic(st, CC, "sell_foreign")
        assert legal_names(st) == ["offer:food_small", "offer:food_large"]
        play(st, "offer:food_small")  # 3 food left: the action ends by itself
        assert finished(st)
        assert st.ftz == [2, 0] and st.cc_storage[0] == 1  # FTZ goods go first
        assert st.money[CC] == 145 and st.vp[CC] == vp


def test_s3_9_state_sells_only_food_and_lux_it_holds(export_card):
    st = fresh()
    st.export = 0
    st.state_goods = [0, 3]
    st.public_services = [6, 6, 4]
    basic(st, ST, "sell_foreign")  # lux small is its only offer
    assert finished(st)
    assert st.state_goods == [0, 0] and st.money[ST] == 140 and st.vp[ST] == 0
    st.public_services = [9, 9, 4]
    assert not BASIC["sell_foreign"][0](st, ST)


# -- §3.10 Extra Shift -------------------------------------------------------------------------
def test_s3_10_extra_shift_produces_now_pays_employee_and_adds_bonus():
    st = fresh()
    st.seat_workers[CONVENIENCE][1] = worker(WC, 0)
    st.seat_committed[DOCTORS][0] = 1  # Doctor's Office is not offered
    st.mc_storage[0] = 1
    basic(st, MC, "extra_shift")  # Convenience Store, taken at once
    assert st.mc_storage[0] == 1 + 2 + 1
    assert st.money[MC] == 40 - 8 and st.money[WC] == 30 + 8
    assert st.seat_committed[CONVENIENCE][:2] == [1, 1]
    st.check_invariants()


def test_s3_10_extra_shift_struck_or_committed_employee_only_mc_part():
    st = fresh()
    st.seat_workers[CONVENIENCE][1] = worker(WC, 0)
    st.seat_strike[CONVENIENCE] = 1
    st.seat_committed[DOCTORS][0] = 1
    basic(st, MC, "extra_shift")
    assert st.mc_storage[0] == 1 + 2 and st.money[MC] == 40 and st.money[WC] == 30


def test_s3_10_extra_shift_not_if_mc_cannot_pay_the_wage():
    st = fresh()
    st.seat_workers[CONVENIENCE][1] = worker(WC, 0)
    st.seat_committed[DOCTORS][0] = 1
    set_money(st, MC, 7)
    assert not BASIC["extra_shift"][0](st, MC)
    st.seat_committed[CONVENIENCE][1] = 1  # a committed employee is not paid
    assert BASIC["extra_shift"][0](st, MC)


# -- §3.11 Make Business Deal ------------------------------------------------------------------
def _deal(food: int, lux: int) -> int:
    return next(d.index for d in D.DEALS if (d.food, d.lux) == (food, lux))


def test_s3_11_business_deal_splits_goods_tariff_per_good_stored():
    st = fresh()
    st.deals = [_deal(5, 6)]  # cost 60
    basic(st, CC, "business_deal")  # one deal: taken at once
    assert legal_names(st) == [f"qty:{n}" for n in range(6)]  # food 0..5 to storage
    play(st, "qty:3")
    play(st, "qty:0")  # all the lux to the FTZ
    assert st.cc_storage[0] == 1 + 3 and st.ftz == [2, 6]
    assert st.money[CC] == 120 - 60 - 3 and st.money[ST] == 123  # 6B: 1 per good stored
    assert st.deals == []
    st.check_invariants()


def test_s3_11_business_deal_storage_offer_capped_by_room_overflow_lost():
    st = fresh()
    st.policies[5] = A  # 2 per good stored
    st.deals = [_deal(8, 0), _deal(0, 8)]
    st.cc_storage[0] = 6
    st.ftz[0] = 5
    basic(st, CC, "business_deal")
    play(st, "deal:1")
    assert legal_names(st) == ["qty:0", "qty:1", "qty:2"]
    play(st, "qty:2")
    assert st.cc_storage[0] == 8 and st.ftz[0] == 8  # 3 to the FTZ, 3 lost
    assert st.money[ST] == 124 and st.money[CC] == 120 - 55 - 4
    st.check_invariants()


def test_s3_11_business_deal_only_when_cc_can_pay_the_cost():
    st = fresh()
    st.deals = [_deal(8, 4)]  # cost 75
    set_money(st, CC, 70)
    set_money(st, CC, 4, capital=True)
    assert not BASIC["business_deal"][0](st, CC)
    set_money(st, CC, 5, capital=True)
    assert BASIC["business_deal"][0](st, CC)


# -- §3.12 Lobby -------------------------------------------------------------------------------
def test_s3_12_lobby_pays_30_capital_first_for_3_influence():
    st = fresh()
    set_money(st, CC, 20, capital=True)
    basic(st, CC, "lobby")
    assert st.capital == 0 and st.money[CC] == 110 and st.influence[CC] == 4
    st.check_invariants()


def test_s3_12_lobby_illegal_without_influence_in_supply_or_money():
    st = fresh()
    st.influence[WC] += board.influence_supply(st)
    assert not BASIC["lobby"][0](st, CC)
    st.influence[WC] -= 1
    assert BASIC["lobby"][0](st, CC)
    basic(st, CC, "lobby")
    assert st.influence[CC] == 2  # capped by the supply (§12 #42)
    set_money(st, CC, 29)
    st.influence[WC] -= 5
    assert not BASIC["lobby"][0](st, CC)


# -- §4.1 Use Health, §4.3 Use Luxury ----------------------------------------------------------
def test_s4_1_use_health_spends_population_prosperity_vp_and_a_new_worker():
    st = fresh()
    st.goods[WC][2] = 2
    turn(st, WC)
    assert "free:use_health" not in legal_names(st)  # Population 3
    st.goods[WC][2] = 4
    turn(st, WC)
    unskilled = st.unemployed[WC][0]
    play(st, "free:use_health")
    assert st.goods[WC][2] == 1 and st.prosperity[WC] == 1
    assert st.vp[WC] == D.USE_HEALTH_VP + D.WC_PROSPERITY_VP[1]
    assert st.unemployed[WC][0] == unskilled + 1


def test_s4_3_use_luxury_spends_population_for_one_prosperity():
    st = fresh()
    st.goods[MC][1] = 3
    st.prosperity[MC] = 5
    turn(st, MC)
    play(st, "free:use_luxury")
    assert st.goods[MC][1] == 0 and st.prosperity[MC] == 6
    assert st.vp[MC] == D.MC_PROSPERITY_VP[6]


# -- §4.5 Receive Benefits ---------------------------------------------------------------------
def test_s4_5_receive_benefits_takes_everything_cubes_to_the_bag_state_vp():
    st = fresh()
    st.benefits[WC] = [10, 2, 0, 1, 0, 1, 2]  # money, food, lux, health, edu, influence, cubes
    st.cube_supply[WC] -= 2  # the provider took the cubes from WC's supply
    total = money_total(st)  # money in the Benefits area is off the table until taken
    supply = board.influence_supply(st)
    turn(st, WC)
    play(st, "free:receive_benefits")
    assert st.money[WC] == 40 and money_total(st) == total
    st.check_invariants()
    assert st.goods[WC] == [2, 0, 1, 0] and st.influence[WC] == 2
    assert st.bag[WC] == D.BAG_START_CUBES + 2 and st.vp[ST] == D.BENEFITS_VP
    assert st.benefits[WC] == [0] * 7 and board.influence_supply(st) == supply


def test_s4_5_receive_benefits_cc_goods_into_storage_overflow_lost_and_empty_illegal():
    st = fresh()
    turn(st, CC)
    assert "free:receive_benefits" not in legal_names(st)
    st.benefits[CC] = [5, 9, 0, 0, 0, 0, 0]
    st.cc_storage[0] = 1
    turn(st, CC)
    play(st, "free:receive_benefits")
    assert st.cc_storage[0] == 8 and st.ftz[0] == 0 and st.money[CC] == 125


# -- §4.6 Pay Off Loan -------------------------------------------------------------------------
def test_s4_6_pay_off_loan_costs_50_capital_first_for_cc():
    st = fresh()
    st.loans[CC] = 1
    set_money(st, CC, 30, capital=True)
    minted = st.minted
    turn(st, CC)
    play(st, "free:pay_off_loan")
    assert st.loans[CC] == 0 and st.capital == 0 and st.money[CC] == 100
    assert st.minted == minted - 50
    st.loans[WC] = 1
    set_money(st, WC, 49)
    turn(st, WC)
    assert "free:pay_off_loan" not in legal_names(st)  # never on a loan
    st.check_invariants()


# -- §4.7 Adjust Prices ------------------------------------------------------------------------
def test_s4_7_adjust_prices_each_good_at_most_once_then_done():
    st = fresh()
    turn(st, MC)
    play(st, "free:adjust_prices")
    names = legal_names(st)
    assert "done" not in names and "price:food_mid" not in names and len(names) == 8
    play(st, "price:food_high")
    names = legal_names(st)
    assert names[0] == "done" and not any(n.startswith("price:food") for n in names)
    play(st, "price:health_low", "done")
    assert st.prices[MC - 1] == [2, 1, 0, 1] and st.prices[CC - 1] == [1, 1, 1, 1]
    assert board.price(st, MC, 0) == 15


def test_s4_7_adjust_prices_high_requires_policy_variant():
    st = fresh(price_high_requires_policy=True)  # 6B, 4B, 5C
    turn(st, CC)
    play(st, "free:adjust_prices")
    highs = [n for n in legal_names(st) if n.endswith("_high")]
    assert highs == ["price:edu_high"]
    play(st, "price:edu_high", "done")
    st.policies[4] = B
    economy_free.drop_illegal_high_prices(st)
    assert st.prices[CC - 1][3] == 1


def test_s4_7_re_pricing_follow_up_may_end_at_once():
    st = fresh()
    st.agenda = [(K.ADJUST_PRICES, CC, economy_free.FOLLOW_UP)]
    refresh(st)
    assert legal_names(st)[0] == "done"
    play(st, "price:lux_low", "done")
    assert st.prices[CC - 1][1] == 0 and not st.agenda


# -- §4.8 Adjust Wages and the p2 follow-up (§5.4) ---------------------------------------------
def test_s4_8_adjust_wages_raise_commits_every_worker_each_company_once():
    st = fresh()
    turn(st, CC)
    play(st, "free:adjust_wages")
    assert legal_names(st) == ["company:cc_01", "company:cc_02", "company:cc_03",
                               "company:cc_04"]
    play(st, "company:cc_01")  # p2 B: L3 is the only other level, taken at once
    assert st.seat_wage[SUPERMARKET] == 2 and st.seat_committed[SUPERMARKET][:2] == [1, 1]
    assert "company:cc_01" not in legal_names(st)
    play(st, "done")
    assert st.seat_committed[COLLEGE] == [0, 0, 0]


def test_s4_8_adjust_wages_no_lowering_while_a_paid_worker_is_committed():
    st = fresh()
    st.policies[1] = C_  # minimum L1
    st.seat_committed[SUPERMARKET][0] = 1
    assert economy_free.wage_levels(st, SUPERMARKET, economy_free.FREE_MODE) == [2]
    st.seat_committed[CONVENIENCE][0] = 1  # MC's own worker is not paid by the wage
    assert economy_free.wage_levels(st, CONVENIENCE, economy_free.FREE_MODE) == [0, 2]
    st.seat_workers[CONVENIENCE][1] = worker(WC, 0)
    st.seat_committed[CONVENIENCE][1] = 1
    assert economy_free.wage_levels(st, CONVENIENCE, economy_free.FREE_MODE) == [2]
    st.policies[1] = A
    assert board.min_wage_level(st) == 2
    st.seat_committed[SUPERMARKET][0] = 0
    assert economy_free.wage_levels(st, SUPERMARKET, economy_free.FREE_MODE) == [2]


def test_s4_8_state_adjusts_public_wages():
    st = fresh()
    turn(st, ST)
    play(st, "free:adjust_wages")
    assert legal_names(st) == ["company:public_r1_1", "company:public_r1_2",
                               "company:public_r1_3"]  # face-down companies are not offered


def test_s5_4_p2_follow_up_lowers_only_commits_nobody_skips_committed_companies():
    st = fresh()
    st.policies[1] = C_
    st.seat_wage[SUPERMARKET] = st.seat_wage[COLLEGE] = 2
    st.seat_committed[SHOPPING_MALL][0] = 1
    st.agenda = [(K.ADJUST_WAGES, CC, economy_free.FOLLOW_UP)]
    refresh(st)
    assert legal_names(st) == ["done", "company:cc_01", "company:cc_03", "company:cc_04"]
    play(st, "company:cc_01")
    assert legal_names(st) == ["wage:L1", "wage:L2"]
    play(st, "wage:L1", "done")
    assert st.seat_wage[SUPERMARKET] == 0
    assert st.seat_committed[SUPERMARKET] == [0, 0, 0] and not st.agenda


# -- §4.9 Give Bonus ---------------------------------------------------------------------------
def test_s4_9_give_bonus_pays_5_to_the_workers_class_and_commits_them():
    st = fresh()
    st.seat_committed[SUPERMARKET][:2] = [1, 1]
    st.seat_committed[COLLEGE][0] = 1  # one free worker left: still offered
    turn(st, CC)
    play(st, "free:give_bonus")
    assert legal_names(st) == ["company:cc_02", "company:cc_03"]  # Clinic is empty
    play(st, "company:cc_02")
    assert st.money[MC] == 45 and st.money[CC] == 115
    assert st.seat_committed[SHOPPING_MALL][:2] == [1, 1]
    st.check_invariants()


# -- §4.10 Buy Storage -------------------------------------------------------------------------
def test_s4_10_buy_storage_once_per_resource_doubles_capacity():
    st = fresh()
    st.storage_tiles = [1, 0, 0, 0]
    turn(st, CC)
    play(st, "free:buy_storage")
    assert legal_names(st) == ["resource:lux", "resource:health", "resource:edu"]
    play(st, "resource:health")
    assert st.storage_tiles == [1, 0, 1, 0] and st.money[CC] == 100
    assert storage.capacity(st, CC, 2) == 24
    set_money(st, CC, 19)
    turn(st, CC)
    assert "free:buy_storage" not in legal_names(st)
    st.check_invariants()
