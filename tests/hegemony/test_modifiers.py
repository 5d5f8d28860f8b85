"""Scenario tests for the ``basic`` card modifiers (our Hegemony rules page §11.1, the vocabulary
in ``cards_vocabulary.py``): each plays a real card of the decks that carries the modifier (or,
where no card does, a hand-made node) and checks that the outcome differs from the plain basic
action exactly as the vocabulary says."""

from __future__ import annotations

import math

from meeplezoo.envs.hegemony import board, effects, turn
from meeplezoo.envs.hegemony import cards as C
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony.actions import CC, MC, ST, WC
from meeplezoo.envs.hegemony.state import worker
from tests.hegemony.helpers import legal_names, play
from tests.hegemony.test_effects import game, go, run, set_money

E = effects
ROLE = ("WC", "MC", "CC", "ST")
A, B, C_ = 0, 1, 2
AGRI, LUX, HEALTH, EDU, MEDIA = range(1, 6)  # worker kinds of the skilled workers
# seats of the opening position of ``game()``
SUPERMARKET, CLINIC, CONVENIENCE, DOCTORS = 0, 3, 12, 13
HOSPITAL, TECH_UNI, BROADCASTING = 20, 21, 22  # public row 1 (WC, MC, empty)


def play_card(st, cls: int, card_id: str):
    """Put the card in ``cls``'s hand, open its turn and play it (to the first real choice)."""
    design = next(d for d, c in enumerate(C.ACTION_CARDS[ROLE[cls]]) if c.id == card_id)
    if design not in st.hands[cls]:  # swap a copy in from the deck (card counts stay exact)
        k = st.action_decks[cls].index(design)
        st.action_decks[cls][k], st.hands[cls][0] = st.hands[cls][0], design
    st.agenda = [(turn.K.DECIDE_TURN, cls, 0)]
    st.main_done = st.free_used = 0
    go(st)
    assert E.playable(st, cls, design), card_id
    return play(st, f"play:{card_id}")


def plain(st, cls: int, action: str):
    """The plain basic action (a node without modifiers), to the first real choice."""
    return run(st, cls, {"op": "basic", "action": "buy_goods" if action == "buy" else action})


def build(st, *choices: str):
    """Play a build's choices, skipping a staffing ``no`` where the card has no staff."""
    for name in choices:
        if name != "no" or "no" in names(st):
            play(st, name)
    return st


def names(st) -> list[str]:

    """The legal names, or [] once nothing is pending (a hand-made node's action is over)."""
    return legal_names(st) if st.agenda and st.current_player() >= 0 else []


def copy_of(make):
    """Two equal positions built by ``make()`` (one for the card, one for the plain action)."""
    return make(), make()


def _until_turn(st) -> None:
    """Play ``done`` while offered, up to the acting player's next turn decision."""
    while st.agenda and "done" in legal_names(st) and st.agenda[-1][0] != turn.K.DECIDE_TURN:
        play(st, "done")


# -- Assign Workers -----------------------------------------------------------------------------
def _assign_position():
    st = game()
    st.unemployed[WC] = [5, 0, 0, 1, 0, 0]  # five unskilled and one Health worker
    return st


def _fill_from_unemployed(st) -> None:
    """Answer every pending source question from the Unemployed area (Health first)."""
    while st.decision_name() == "assign_source":
        names = legal_names(st)
        play(st, "from:unemployed_unskilled" if "from:unemployed_unskilled" in names
             else "from:unemployed_health")


def test_s11_1_mod_max_workers_assign_places_a_fourth_worker():
    card, base = copy_of(_assign_position)
    play_card(card, WC, "wc_01")  # max_workers 4
    plain(base, WC, "assign_workers")
    for st in (card, base):
        play(st, "company:mc_01")
        _fill_from_unemployed(st)
        play(st, "company:mc_02")
        _fill_from_unemployed(st)
    assert "company:cc_04" not in names(base)  # one placement left, the Clinic needs 2

    assert "company:cc_04" in legal_names(card)
    play(card, "company:cc_04")
    _fill_from_unemployed(card)
    assert card.seat_workers[CLINIC][:2] == [worker(WC, HEALTH), worker(WC, 0)]
    assert card.unemployed[WC] == [2, 0, 0, 0, 0, 0] and card.main_done


def test_s11_1_mod_max_workers_any_places_every_unemployed_worker():
    st = game()
    st.unemployed[MC] = [2, 1, 0, 1, 0, 0]  # what the Supermarket and the Clinic need
    for seat in (SUPERMARKET, CLINIC):  # two empty CC companies MC may staff (2 slots each)
        board.unemploy_workers(st, seat)
    st.unemployed[WC] = [0] * 6
    play_card(st, MC, "mc_26")  # source unemployed_only, max_workers any
    for name in ("company:cc_01", "company:cc_04"):
        play(st, name)
        while st.decision_name() == "assign_source":
            play(st, legal_names(st)[0])
    assert sum(st.unemployed[MC]) == 0  # four placements, more than the plain three
    assert all(board.staff_class(st, s) == MC for s in (SUPERMARKET, CLINIC))


def test_s11_1_mod_source_unemployed_only_takes_no_worker_from_a_company():
    def make():
        st = game()
        st.unemployed[WC] = [3, 0, 0, 0, 0, 0]
        return st

    card, base = make(), make()
    play_card(card, WC, "wc_14")  # build a Cooperative Farm, then optionally assign
    play(card, "yes")
    plain(base, WC, "assign_workers")
    assert "company:cc_04" in legal_names(base)  # the hospital's Health worker could move
    assert "company:cc_04" not in legal_names(card)
    play(base, "company:mc_01")
    assert "from:cc_01/2" in legal_names(base)  # the Supermarket's unskilled worker
    play(card, "company:mc_01")  # only an unemployed worker: placed at once
    assert card.seat_workers[CONVENIENCE][1] == worker(WC, 0)
    assert card.unemployed[WC][0] == 2 and card.seat_workers[SUPERMARKET][1] == worker(WC, 0)


def test_s11_1_mod_allow_reassign_commits_a_worker_where_it_stands():
    card, base = copy_of(_assign_position)
    plain(base, WC, "assign_workers")
    assert not any(name.startswith("from:") for name in legal_names(base))
    play_card(card, WC, "wc_19")
    assert {"from:cc_01/1", "from:cc_01/2", "from:public_r1_1/1"} <= set(legal_names(card))
    play(card, "from:cc_01/1")  # one placement: the worker stays and is committed
    assert card.seat_workers[SUPERMARKET][0] == worker(WC, AGRI)
    assert card.seat_committed[SUPERMARKET] == [1, 0, 0]
    assert "from:cc_01/1" not in legal_names(card) and "done" in legal_names(card)
    play(card, "from:cc_01/2", "from:public_r1_1/1")  # three placements: the action ends
    assert card.seat_committed[SUPERMARKET] == [1, 1, 0] and card.seat_committed[HOSPITAL][0]
    assert card.unemployed[WC] == [5, 0, 0, 1, 0, 0] and card.main_done


def test_s11_1_mod_scope_public_assign_places_only_in_public_companies():
    def make():
        st = _assign_position()
        st.unemployed[WC][MEDIA] = 1
        return st

    card, base = make(), make()
    plain(base, WC, "assign_workers")
    assert "company:mc_01" in legal_names(base) and "company:public_r1_3" in legal_names(base)
    run(card, WC, {"op": "basic", "action": "assign_workers", "scope": "public"})
    # the one destination is taken at once: the sources of its slots are asked next
    assert card.decision_name() == "assign_source"
    assert card.agenda[-1][2] // 3 == BROADCASTING
    _fill_from_unemployed(card)
    assert board.staff_class(card, BROADCASTING) == WC


# -- Extra Shift --------------------------------------------------------------------------------
def test_s11_1_mod_scope_public_extra_shift_runs_an_mc_staffed_public_company():
    st = game()
    st.public_services[1] = 0
    plain_targets = legal_names(plain(game(), MC, "extra_shift"))
    assert plain_targets == ["company:mc_01", "company:mc_02"]
    wage = board.wage_amount(st, TECH_UNI)
    run(st, MC, {"op": "basic", "action": "extra_shift", "scope": "public"})  # one target
    assert st.public_services[1] == D.COMPANIES[st.seat_card[TECH_UNI]].production
    assert st.money[MC] == 40 + wage and st.money[ST] == 120 - wage
    assert st.seat_committed[TECH_UNI] == [1, 1, 1] and st.mc_storage == [1, 0, 1, 0]
    st.check_invariants()


def test_s11_1_mod_count_two_extra_shifts_in_one_action():
    st = game()
    play_card(st, MC, "mc_02")
    play(st, "company:mc_01")  # the second shift: the other company, at once
    assert st.mc_storage == [1 + 2, 0, 1 + 2, 0] and st.main_done
    base = plain(game(), MC, "extra_shift")
    play(base, "company:mc_01")
    assert base.mc_storage == [1 + 2, 0, 1, 0]


def test_s11_1_mod_industry_filter_extra_shift_only_those_industries():
    st = run(game(), MC, {"op": "basic", "action": "extra_shift", "industry_filter": ["health"]})
    assert st.mc_storage == [1, 0, 1 + 2, 0]  # only the Doctor's Office: run at once


# -- Buy Goods & Services -----------------------------------------------------------------------
def test_s11_1_mod_industry_filter_buy_only_their_products():
    base = plain(game(), WC, "buy")
    assert legal_names(base) == ["resource:food", "resource:lux", "resource:health",
                                 "resource:edu", "resource:influence"]
    st = play_card(game(), WC, "wc_06")  # agri: Food only, chosen at once
    assert st.decision_name() == "buy_source" and st.ctx["economy_buy_res"] == 0


def test_s11_1_mod_qty_cap_each_source_sells_up_to_cap_times_population():
    def make():
        st = game()
        st.cc_storage[0] = 10
        set_money(st, MC, 200)
        return st

    card, base = make(), make()
    pop = board.population(card, MC)
    plain(base, MC, "buy")
    play(base, "resource:food", "source:cc")
    assert legal_names(base)[-1] == f"qty:{pop}"
    play_card(card, MC, "mc_10")
    play(card, "resource:food", "source:cc")
    assert legal_names(card)[-1] == f"qty:{2 * pop}"
    play(card, f"qty:{2 * pop}")
    assert card.goods[MC][0] == 2 * pop and card.cc_storage[0] == 10 - 2 * pop


def test_s11_1_mod_sources_only_the_listed_sources_sell():
    def make():
        st = game()
        st.mc_storage[2] = 3  # MC would sell Health too
        st.policies[3] = B
        return st

    card, base = make(), make()
    plain(base, WC, "buy")
    play(base, "resource:health")
    assert legal_names(base) == ["source:mc", "source:state"]
    play_card(card, WC, "wc_07")  # Health from the State only, up to 2 x Population
    assert card.decision_name() == "buy_quantity" and card.agenda[-1][2] == 2  # the State
    pop = board.population(card, WC)
    assert legal_names(card)[-1] == f"qty:{min(2 * pop, 30 // D.PUBLIC_SERVICE_PRICE[B])}"


def test_s11_1_mod_sources_card_unplayable_when_no_listed_source_sells():
    st = game()
    st.policies[3] = B
    st.mc_storage[2] = 3
    st.public_services[0] = 0  # the State has no Health left; MC still sells some
    design = next(d for d, c in enumerate(C.ACTION_CARDS["WC"]) if c.id == "wc_07")
    assert turn.BASIC["buy"][0](st, WC) and not E.playable(st, WC, design)
    st.public_services[0] = 1
    set_money(st, WC, D.PUBLIC_SERVICE_PRICE[B] - 1)
    assert not E.playable(st, WC, design)  # the one source left is not affordable
    set_money(st, WC, D.PUBLIC_SERVICE_PRICE[B])
    assert E.playable(st, WC, design)


def test_s11_1_mod_extra_offers_make_the_card_playable_without_card_offers():
    st = game()
    st.export, st.export_deck[-1] = st.export_deck[-1], st.export  # Health offers 4 and 6
    assert min(q for g, q, _m in _offers(st) if g == 2) == 4
    st.mc_storage = [0, 0, 3, 0]  # only the card's extra Health offer (3 for 20) fits
    design = next(d for d, c in enumerate(C.ACTION_CARDS["MC"]) if c.id == "mc_07")
    assert E.playable(st, MC, design) and not turn.BASIC["sell_foreign"][0](st, MC)
    st.mc_storage[2] = 2
    assert not E.playable(st, MC, design)


def test_s11_1_mod_price_factor_buy_pays_the_reduced_total_rounded_up():

    def make():
        st = game()
        set_money(st, WC, 12)
        return st

    card, base = make(), make()
    unit = D.PRICE_STEPS[1][card.prices[CC - 1][1]]  # CC's Lux price: 8
    plain(base, WC, "buy")
    play(base, "resource:lux", "source:cc")
    assert base.goods[WC][1] == 1 and not base.agenda  # 12 buys one unit at 8: taken at once

    play_card(card, WC, "wc_22")  # Lux at 0.75 of the price
    play(card, "source:cc")
    assert legal_names(card) == ["qty:1", "qty:2"]  # 2 x 8 x 0.75 = 12
    play(card, "qty:2")
    assert card.money[WC] == 12 - 12 and card.money[CC] == 120 + 12  # the seller takes the loss
    assert card.goods[WC][1] == 2 and 2 * unit > 12
    card.check_invariants()


def test_s11_1_mod_state_pays_rest_buy_seller_gets_the_full_price():
    st = game()
    st.policies[4] = A
    unit = D.PRICE_STEPS[3][st.prices[CC - 1][3]]  # CC's Education price: 8
    play_card(st, WC, "wc_20")  # Education at half price, the treasury pays the rest
    play(st, "source:cc", "qty:2")
    assert st.money[WC] == 30 - unit and st.money[CC] == 120 + 2 * unit
    assert st.money[ST] == 120 - unit
    _until_turn(st)
    st.check_invariants()


def test_s11_1_mod_state_pays_rest_buy_from_the_state_moves_no_money_to_itself():
    st = game()
    st.policies[4] = B
    set_money(st, ST, 0)  # the treasury paying itself must not force a loan
    unit = D.PUBLIC_SERVICE_PRICE[B]
    play_card(st, WC, "wc_20")
    play(st, "source:state", "qty:2")
    own = math.ceil(2 * unit / 2)
    assert st.money[WC] == 30 - own and st.money[ST] == own and st.loans[ST] == 0
    assert st.vp[ST] == 1  # the B-price bonus still counts


def test_s11_1_mod_price_factor_foreign_buy_pays_the_tariff_first():
    tariff = D.FOREIGN_TARIFF[B][0]  # p6 at B: 5 on Food
    full = 2 * (D.FOREIGN_BASE[0] + tariff)  # 30
    node = {"op": "basic", "action": "buy_goods", "sources": ["foreign"], "price_factor": 0.5}
    st = run(game(), WC, node)
    play(st, "resource:food", "qty:2")
    assert st.money[WC] == 30 - full // 2 and st.money[ST] == 120 + 2 * tariff
    st.check_invariants()
    st = run(game(), WC, {**node, "state_pays_rest": True})
    minted = st.minted
    play(st, "resource:food", "qty:2")
    # the bank still receives the full base price: 5 from WC, 15 from the treasury
    assert st.money[WC] == 30 - full // 2 and st.money[ST] == 120 + 2 * tariff - 15
    assert minted - st.minted == 2 * D.FOREIGN_BASE[0]


def test_s11_1_mod_price_factor_business_deal_with_state_pays_rest():
    st = game()
    deal = D.DEALS[st.deals[0]]  # 75
    own = math.ceil(deal.cost / 2)  # 38, rounded up
    set_money(st, CC, own)
    assert not turn.BASIC["business_deal"][0](st, CC)
    run(st, CC, {"op": "basic", "action": "business_deal", "price_factor": 0.5,
                 "state_pays_rest": True})  # nothing left for tariffs: all to the FTZ
    assert not st.deals and st.money[CC] + st.capital == 0
    assert st.money[ST] == 120 - (deal.cost - own)
    st.check_invariants()


def test_s11_1_mod_no_tariff_business_deal_and_foreign_buy():

    def make():
        st = game()
        st.storage_tiles = [1, 1, 0, 0]
        return st

    card, base = make(), make()
    deal = D.DEALS[card.deals[0]]
    tariff = D.DEAL_TARIFF_PER_GOOD[card.policies[5]]
    plain(base, CC, "business_deal")
    play_card(card, CC, "cc_09")
    for st in (card, base):
        while st.decision_name() == "business_deal_split":
            play(st, legal_names(st)[-1])  # as much as fits into regular Storage
    stored = sum(card.cc_storage) - sum(game().cc_storage)
    assert stored > 0 and card.cc_storage == base.cc_storage
    assert card.money[CC] + card.capital == 120 - deal.cost
    assert base.money[CC] + base.capital == 120 - deal.cost - tariff * stored
    buyer = run(game(), WC, {"op": "basic", "action": "buy_goods", "no_tariff": True,
                             "sources": ["foreign"]})
    play(buyer, "resource:food", "qty:2")
    assert buyer.money[WC] == 30 - 2 * D.FOREIGN_BASE[0] and buyer.money[ST] == 120


# -- Build Company ------------------------------------------------------------------------------
def test_s11_1_mod_cost_delta_build_lobby_and_deal():
    st = game()
    set_money(st, MC, 11)
    assert not turn.BASIC["build_company"][0](st, MC)  # every market card costs 16 or more
    play_card(st, MC, "mc_01")  # -5
    assert legal_names(st) == ["market:1", "market:2"]  # the two 16s, for 11
    play(st, "market:1")
    assert st.money[MC] == 0
    lobby = game()
    play_card(lobby, CC, "cc_12")  # Lobby -10
    assert lobby.money[CC] + lobby.capital == 120 - (D.LOBBY_COST - 10)
    deal = game()
    deal.policies[5] = B
    cost = D.DEALS[deal.deals[0]].cost
    set_money(deal, CC, cost - 10)
    assert not turn.BASIC["business_deal"][0](deal, CC)
    play_card(deal, CC, "cc_08")  # -10: the one deal is taken, nothing left for tariffs
    assert deal.money[CC] + deal.capital == 0 and not deal.deals and sum(deal.ftz) > 0


def test_s11_1_mod_price_factor_build_with_state_pays_rest():
    st = game()
    st.policies[0] = A
    cost = D.COMPANIES[st.cc_market[0]].cost  # 24
    play_card(st, CC, "cc_27")  # half price, the treasury pays the other half
    play(st, "market:1")
    assert st.money[CC] == 120 - cost // 2 and st.money[ST] == 120 - cost // 2
    st.check_invariants()


def test_s11_1_mod_payer_state_build_paid_by_the_treasury():
    st = game()
    st.policies[0] = A
    set_money(st, MC, 0)
    assert not turn.BASIC["build_company"][0](st, MC)
    play_card(st, MC, "mc_05")
    play(st, "market:1")
    assert st.money[MC] == 0 and st.money[ST] == 120 - 16
    st.check_invariants()


def test_s11_1_mod_industry_filter_build_only_those_industries():
    st = game()
    st.policies[3] = B
    set_money(st, MC, 10)
    play_card(st, MC, "mc_22")  # Health only, -6: the Pharmacy (16) for 10
    assert st.decision_name() != "build_card"  # one card: taken at once
    assert board.card(st, 14).id == "pharmacy" and st.money[MC] == 0


def test_s11_1_mod_search_deck_builds_from_the_deck_then_shuffles_it():
    st = game()
    deck = sorted(st.mc_deck)
    play_card(st, MC, "mc_03")
    names = legal_names(st)
    assert names and all(name.startswith("deck_card:") for name in names)
    pick = names[0].split(":")[1]
    index = D.COMPANY_BY_ID[pick].index
    play(st, names[0])
    while st.agenda and st.agenda[-1][0] != turn.K.DECIDE_TURN:
        play(st, legal_names(st)[0])
    deck.remove(index)
    assert sorted(st.mc_deck) == deck and board.card(st, 14).id == pick
    assert len(st.mc_market) == D.MARKET_SIZE["mc"]  # the market is untouched


def test_s11_1_mod_count_two_builds_in_one_action():
    st = game()
    st.policies[2] = B
    play_card(st, CC, "cc_03")  # build two, then refill the market
    build(st, "market:2", "wage:L2", "no")  # the 8 first
    assert st.decision_name() == "build_card"  # the same action builds again
    build(st, "market:1", "wage:L2", "no")
    assert len(board.companies_of(st, CC)) == 6 and st.main_done
    base = plain(game(), CC, "build_company")
    build(base, "market:2", "wage:L2", "no")
    assert not base.agenda and len(board.companies_of(base, CC)) == 5


def test_s11_1_mod_market_refill_after_the_build():
    st = game()
    st.policies[2] = B
    deck = list(st.cc_deck)
    play_card(st, CC, "cc_03")  # (the vocabulary allows market_refill only with count)
    build(st, "market:2", "wage:L2", "no", "market:1", "wage:L2", "no")
    assert len(st.cc_market) == D.MARKET_SIZE["cc"] and st.cc_deck == deck[:-2]
    base = plain(game(), CC, "build_company")
    build(base, "market:2", "wage:L2", "no")
    assert len(base.cc_market) == D.MARKET_SIZE["cc"] - 1


# -- Sell to Foreign Market ---------------------------------------------------------------------
def _seller():
    st = game()
    st.mc_storage = [8, 8, 8, 8]
    return st


def test_s11_1_mod_txn_bonus_from_state_per_transaction():
    st = _seller()
    st.policies[5] = B
    play_card(st, MC, "mc_06")  # 3 from the treasury per transaction
    name = legal_names(st)[0]
    paid = {f"offer:{D.GOODS[g]}_{('small', 'large')[j % 2]}": m
            for j, (g, _q, m) in enumerate(_offers(st))}[name]
    play(st, name)
    assert st.money[MC] == 40 + paid + 3 and st.money[ST] == 120 - 3
    base = plain(_seller(), MC, "sell_foreign")
    play(base, name)
    assert base.money[MC] == 40 + paid and base.money[ST] == 120
    st.check_invariants()


def _offers(st, card: int = -1):
    from meeplezoo.envs.hegemony import economy_trade

    return economy_trade.export_offers(st, card)


def test_s11_1_mod_extra_offers_each_usable_once():
    st = _seller()
    play_card(st, MC, "mc_07")  # food 3 for 30, health 3 for 20
    assert {"extra_offer:1", "extra_offer:2"} <= set(legal_names(st))
    vp = st.vp[MC]
    play(st, "extra_offer:2")
    assert st.mc_storage[2] == 5 and st.money[MC] == 40 + 20 and st.vp[MC] == vp + 1
    assert "extra_offer:2" not in legal_names(st) and "extra_offer:1" in legal_names(st)
    base = plain(_seller(), MC, "sell_foreign")
    assert not any(name.startswith("extra_offer") for name in legal_names(base))


def test_s11_1_mod_peek_exports_sells_to_a_card_under_the_current_one():
    st = _seller()
    current, deck = st.export, list(st.export_deck)
    play_card(st, MC, "mc_08")  # look at 2 more
    assert legal_names(st) == ["export_card:0", "export_card:1", "export_card:2"]
    play(st, "export_card:2")
    chosen = _offers(st, deck[-2])
    name = legal_names(st)[0]
    assert name == "offer:food_small"
    play(st, name)
    assert st.money[MC] == 40 + chosen[0][2] and st.mc_storage[0] == 8 - chosen[0][1]
    assert st.export == current and st.export_deck == deck  # they go back in order


# -- Strike -------------------------------------------------------------------------------------
def _strike_position():
    st = game()
    st.seat_workers[CONVENIENCE][1] = worker(WC, 0)  # WC employees in both MC companies
    st.seat_workers[DOCTORS][1] = worker(WC, 0)
    st.unemployed[WC][0] -= 2
    return st


def test_s11_1_mod_extra_strike_tokens_per_union():
    card, base = _strike_position(), _strike_position()
    card.unions[0] = 1
    plain(base, WC, "strike")
    play(base, "company:cc_01", "company:mc_01")
    assert sum(base.seat_strike) == 2 and base.decision_name() != "strike"
    play_card(card, WC, "wc_02")  # one more company per union
    play(card, "company:cc_01", "company:mc_01")
    assert card.decision_name() == "strike" and "done" in legal_names(card)
    play(card, "company:mc_02")
    assert sum(card.seat_strike) == 3 and card.main_done


def test_s11_1_mod_industry_filter_strike_only_those_industries():
    st = run(_strike_position(), WC, {"op": "basic", "action": "strike",
                                      "industry_filter": ["health"]})
    assert legal_names(st) == ["company:mc_02", "company:public_r1_1"]
    base = plain(_strike_position(), WC, "strike")
    assert len(legal_names(base)) == 5  # the Supermarket and the College too


# -- Propose Bill (through politics.push_propose) -------------------------------------------------
def test_s11_1_mod_policy_filter_propose_only_those_policies():
    st = game()
    st.policies[1] = B
    play_card(st, WC, "wc_16")
    assert legal_names(st) == ["bill:p2_A", "bill:p2_C"]


def test_s11_1_mod_free_immediate_vote_costs_no_influence():
    st = game()
    st.influence[WC] = 0
    play_card(st, WC, "wc_09")
    play(st, "bill:p7_C")
    assert legal_names(st) == ["yes", "no"]  # the plain action offers no vote without influence
    play(st, "yes")
    assert st.decision_name() == "declare" and st.influence[WC] == 0


def test_s11_1_mod_n_bills_two_bills_in_one_action():
    st = game()
    st.influence = [0, 0, 0, 0]
    play_card(st, WC, "wc_25")
    play(st, "option:1", "bill:p7_C")

    assert "bill:p7_A" not in legal_names(st)
    play(st, "bill:p6_A")
    assert st.markers_used[WC] == 2 and st.bills[5] == WC * 3 + A


def test_s11_1_mod_any_section_reaches_two_steps_without_an_immediate_vote():
    st = game()  # p1 at C
    play_card(st, CC, "cc_14")
    assert "bill:p1_A" in legal_names(st)
    play(st, "bill:p1_A")
    assert st.bills[0] == CC * 3 + A and st.main_done


def test_s11_1_mod_preview_cubes_drawn_before_the_choice():
    st = game()
    play_card(st, WC, "wc_10")
    assert sum(st.bag) == 24 - D.ELECTION_DRAW  # five cubes out, face up
    play(st, "bill:p7_C", "no")
    assert st.bag == [8, 8, 8]  # no immediate vote: they go back


def test_s11_1_mod_payer_state_event_build_for_offers_only_cards_of_the_least_cost():
    from tests.hegemony.test_effects import event, event_action

    st = game()
    ev = event(st, {"op": "build_for", "min_cost": 20}, [{"class": "CC", "reward": {"vp": 1}}])
    set_money(st, CC, 0)  # the builder pays nothing: the State pays from what it holds
    event_action(st, ev)
    assert legal_names(st) == ["market:1", "market:3", "market:4"]  # 24, 20, 20; not the 8
    build(st, "market:3", "wage:L2", "no")
    assert st.money[CC] == 0 and st.money[ST] == 120 - 20 and st.loans[ST] == 0
    st.check_invariants()


def test_s11_1_mod_qty_cap_beyond_twelve_units_asks_again_for_the_same_source():
    st = game()
    st.unemployed[MC][0] += 30
    pop = board.population(st, MC)
    assert 2 * pop > 12
    set_money(st, MC, 1000)
    play_card(st, MC, "mc_10")
    play(st, "resource:food", "source:foreign")
    assert legal_names(st)[-1] == "qty:12"  # the qty block's largest amount
    play(st, "qty:12")
    assert legal_names(st) == [f"qty:{q}" for q in range(2 * pop - 12 + 1)]  # 0: no more
    play(st, f"qty:{2 * pop - 12}")
    assert st.goods[MC][0] == 2 * pop
    unit = D.FOREIGN_BASE[0] + D.FOREIGN_TARIFF[st.policies[5]][0]
    assert st.money[MC] == 1000 - 2 * pop * unit
    assert "source:foreign" not in names(st)
