"""Scenario tests for the economy actions (our Hegemony rules page §3.4-§3.12, §4, §5.4, §5.11).

Each test sets up a position on a fresh game, starts one action (a basic action through its
``start``, a free action through the turn decision), plays it by action names, and checks the
outcome.  Basic actions are started directly because a basic action needs a card to discard
and the decks are authored elsewhere.
"""

from __future__ import annotations

from envs.hegemony import codes as K
from envs.hegemony import data as D
from envs.hegemony import economy
from envs.hegemony.actions import CC, MC, ST, WC
from tests.hegemony.helpers import legal_names, new_state, play, refresh

SUPERMARKET, SHOPPING_MALL, COLLEGE, CLINIC = 0, 1, 2, 3
CONVENIENCE, DOCTORS = 12, 13
UNI_HOSPITAL, TECH_UNI = 20, 21
AGRI, LUX_K, HEALTH_K, EDU_K, MEDIA_K = 1, 2, 3, 4, 5  # worker kinds (1 + industry)
A, B, C_ = 0, 1, 2  # policy sections


def fresh(**options):
    st = new_state(0, **options)
    st.agenda = []
    st.main_done = st.free_used = 1
    return st


def basic(st, cls: int, name: str):
    """Start basic action ``name`` for ``cls`` above a finished turn, and run to the first
    real choice."""
    assert economy.BASIC[name][0](st, cls), f"{name} should be legal"
    st.agenda = [(K.DECIDE_TURN, cls, 0)]
    st.main_done = st.free_used = 1
    economy.BASIC[name][1](st, cls)
    st._run()
    return st


def turn(st, cls: int):
    """A turn whose main action is done and whose free action is still open."""
    st.agenda = [(K.DECIDE_TURN, cls, 0)]
    st.main_done, st.free_used = 1, 0
    return refresh(st)


def finished(st) -> bool:
    """No economy decision is left on the agenda (the action is over)."""
    return all(item[0] not in economy.CODES for item in st.agenda)


def money_total(st) -> int:
    return sum(st.money) + st.capital - st.minted


# -- §3.4 Buy Goods & Services ---------------------------------------------------------------------
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


def test_s3_4_buy_each_source_capped_at_population_and_two_sources_at_most():
    st = fresh()
    st.money[WC] = 500
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
    st.money[WC] = 100
    st.cc_storage[0], st.ftz[0], st.mc_storage[0], st.state_goods[0] = 0, 5, 0, 0
    basic(st, WC, "buy")
    play(st, "resource:food")
    # only the Foreign Market is left, so the source is taken at once
    assert st.agenda[-1][0] == economy.BUY_QTY and st.agenda[-1][2] == economy.SRC_FOREIGN


def test_s3_4_buy_foreign_market_base_to_bank_tariff_to_treasury():
    st = fresh()
    st.policies[5] = B
    st.money[WC] = 100
    st.cc_storage[1], st.mc_storage[1] = 0, 0
    minted = st.minted
    basic(st, WC, "buy")
    play(st, "resource:lux", "qty:2")  # the Foreign Market is the only source
    assert st.money[WC] == 100 - 2 * (6 + 3)
    assert st.money[ST] == 120 + 2 * 3  # tariff
    assert st.minted == minted - 2 * 6  # base to the bank
    assert st.goods[WC][1] == 2


def test_s3_4_buy_state_health_at_b_price_gives_state_vp():
    st = fresh()
    st.policies[3] = B
    st.cc_storage[2] = st.mc_storage[2] = 0
    basic(st, WC, "buy")
    play(st, "resource:health")  # the State is the only source
    play(st, "qty:2")
    assert st.money[WC] == 30 - 10 and st.money[ST] == 130
    assert st.vp[ST] == 1 and st.public_services[0] == 4 and st.goods[WC][2] == 2


def test_s3_4_buy_free_state_services_give_legitimacy_per_full_three_units():
    st = fresh()
    st.policies[4] = A
    st.cc_storage[3] = st.mc_storage[3] = 0
    st.money[WC] = 0
    assert economy.BASIC["buy"][0](st, WC)  # free units need no money
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
    st.money[MC] = 25
    st.mc_storage = [0, 0, 0, 0]
    st.cc_storage = [0, 0, 0, 0]
    st.public_services[:2] = [0, 0]
    basic(st, MC, "buy")
    assert legal_names(st) == ["resource:food", "resource:lux", "resource:influence"]
    play(st, "resource:influence")
    assert legal_names(st) == ["qty:1", "qty:2"]
    play(st, "qty:2")
    assert st.influence[MC] == 3 and st.public_services[2] == 2 and st.money[ST] == 140


def test_s3_4_mc_buys_from_itself_free_capped_at_population():
    st = fresh()
    st.mc_storage[2] = 5
    st.cc_storage[2] = 0
    st.policies[3] = C_
    st.money[MC] = 0
    basic(st, MC, "buy")
    play(st, "resource:health")  # only its own storage is affordable
    assert legal_names(st) == ["qty:1", "qty:2", "qty:3"]
    play(st, "qty:3")
    assert st.goods[MC][2] == 3 and st.mc_storage[2] == 2 and st.money[MC] == 0


def test_s3_4_buy_illegal_when_nothing_is_affordable():
    st = fresh()
    st.money[WC] = 4
    st.policies[3] = st.policies[4] = C_
    assert not economy.BASIC["buy"][0](st, WC)
    st.money[WC] = 5
    st.prices[1][1] = 0  # CC lux at the low step, 5
    assert economy.BASIC["buy"][0](st, WC)
