"""Set-up (§1), Preparation (§2.1) and the turn (§2.2) of Hegemony."""

import numpy as np

from meeplezoo.envs.hegemony import board, turn
from meeplezoo.envs.hegemony import cards as C
from meeplezoo.envs.hegemony import codes as K
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony.actions import CC, CC_SEATS, MC, MC_SEATS, PUBLIC_SEATS, ST, WC
from meeplezoo.envs.hegemony.state import worker
from tests.hegemony.helpers import legal_names, new_state, play, refresh

AGRI, LUX, HEALTH, EDU, MEDIA = (1 + i for i in range(5))


def _names(seats):
    return [None if c < 0 else D.COMPANIES[c].id for c in seats]


def test_s1_2_board_set_up_policies_treasury_public_sector_and_private_companies():
    st = new_state(1)
    assert st.policies == [2, 1, 0, 1, 2, 1, 1]  # 1C 2B 3A 4B 5C 6B 7B
    assert st.money[ST] == 120 and st.public_services == [6, 6, 4] and st.round == 1
    assert st.bag == [8, 8, 8] and st.cube_supply == [17, 17, 17]
    row1 = [st.seat_card[s] for s in PUBLIC_SEATS[:3]]
    assert _names(row1) == ["university_hospital", "technical_university",
                            "national_public_broadcasting"]
    assert all(st.seat_face_up[s] and st.seat_wage[s] == 1 for s in PUBLIC_SEATS[:3])
    lower = [st.seat_card[s] for s in PUBLIC_SEATS[3:]]
    assert _names(lower) == ["public_hospital", "public_university", "regional_tv_station"] * 2
    assert not any(st.seat_face_up[s] for s in PUBLIC_SEATS[3:])
    assert _names(st.seat_card[s] for s in CC_SEATS[:4]) == [
        "supermarket", "shopping_mall", "college", "clinic"]
    assert _names(st.seat_card[s] for s in MC_SEATS[:2]) == ["convenience_store",
                                                               "doctors_office"]
    assert all(st.seat_wage[s] == 1 for s in (*CC_SEATS[:4], *MC_SEATS[:2]))
    assert len(st.cc_market) == 4 and len(st.mc_market) == 3
    assert len(st.cc_deck) == 24 - 4 and len(st.mc_deck) == 15 - 3
    assert len(st.deals) == 1 and st.export >= 0 and st.agenda_card >= 0
    assert len(st.events) == 2


def test_s1_2_initial_p6_variant_starts_foreign_trade_at_a():
    assert new_state(1, initial_p6="A").policies[5] == 0


def test_s1_3_per_class_money_influence_storage_prices_legitimacy_and_hands():
    st = new_state(2)
    assert st.money == [30, 40, 120, 120] and st.capital == 0
    assert st.influence == [1, 1, 1, 1]
    assert st.mc_storage == [1, 0, 1, 0] and st.cc_storage == [1, 2, 0, 2]
    assert st.prices == [[1] * 4, [1] * 4]  # Mid
    assert st.legitimacy == [2, 2, 2] and st.prosperity == [0, 0]
    assert [len(h) for h in st.hands] == [7, 7, 7, 7]


def test_s1_3_starting_workers_and_mcs_skilled_choice():
    st = new_state(3)
    assert st.current_player() == MC and st.decision_name() == "setup_skilled_worker"
    wc_unemployed = list(st.unemployed[WC])
    play(st, "industry:media")
    assert st.unemployed[MC][MEDIA] >= 1
    by_id = {D.COMPANIES[st.seat_card[s]].id: s for s in range(len(st.seat_card))
             if st.seat_card[s] >= 0 and st.seat_face_up[s]}

    def staff(company):
        return [w for w in st.seat_workers[by_id[company]] if w >= 0]

    assert staff("supermarket") == [worker(WC, AGRI), worker(WC, 0)]
    assert staff("college") == [worker(WC, EDU), worker(WC, 0)]
    assert staff("university_hospital") == [worker(WC, HEALTH), worker(WC, 0), worker(WC, 0)]
    assert staff("technical_university") == [worker(MC, EDU), worker(MC, 0), worker(MC, 0)]
    assert staff("shopping_mall") == [worker(MC, LUX), worker(MC, 0)]
    assert staff("convenience_store") == [worker(MC, AGRI)]
    assert staff("doctors_office") == [worker(MC, HEALTH)]
    assert staff("clinic") == [] and staff("national_public_broadcasting") == []
    # WC: 1 unskilled + the WC worker of 2 Immigration cards; MC: its choice + 2 cards
    assert sum(wc_unemployed) == 3 and wc_unemployed[0] >= 1
    assert sum(st.unemployed[MC]) == 3
    assert board.workers_owned(st, WC) == 10 and board.workers_owned(st, MC) == 10
    assert not any(any(c) for c in st.seat_committed)
    assert st.immigration_seen == 4  # 2 cards for each class, now under the deck


def test_s1_3_round_1_events_are_never_marked_round_2():
    for seed in range(30):
        st = new_state(seed)
        assert all(C.EVENTS[e].min_round < 2 for e in st.events)


def test_s1_3_population_is_recomputed_from_the_workers_owned():
    st = new_state(4)
    assert board.population(st, WC) == 3  # 10 workers
    st.unemployed[WC][0] += 2
    assert board.population(st, WC) == 4  # 12 workers


def _to_round_2(seed: int, **options):
    """Random play to the first decision of round 2's Preparation (the CC market discard)."""
    st = new_state(seed, **options)
    rng = np.random.default_rng(seed)
    while st.round < 2 and not st.is_terminal():
        legal = st.legal_actions()
        st.apply(int(legal[rng.integers(len(legal))]))
    return st


def test_s2_1_preparation_draws_workers_cards_deals_export_events_and_agenda():
    st = _to_round_2(5)
    assert st.round == 2 and st.decision_name() == "market_discard"
    assert st.current_player() == CC
    assert [len(h) for h in st.hands] == [7, 7, 7, 7]  # 2 kept + 5 drawn
    assert len(st.events) == 2 and st.agenda_card >= 0
    play(st, "done", "done")  # the markets (step 6), then the Deals (step 7)
    assert len(st.deals) == D.DEALS_PER_ROUND[st.policies[5]]


def test_s2_1_market_discards_come_before_the_deals_export_card_and_new_workers():
    """§2.1 order (v1): steps 2-5, then CC's and MC's market discards (step 6), then the
    Deals and Export card (step 7) and the new workers (steps 8-9), none of which the
    discards may see."""
    st = _to_round_2(5)
    assert st.decision_name() == "market_discard" and st.current_player() == CC
    deals, export = list(st.deals), st.export
    deal_deck, export_deck = list(st.deal_deck), list(st.export_deck)
    unemployed = [list(u) for u in st.unemployed]
    immigration = list(st.immigration)
    play(st, "done")
    assert st.decision_name() == "market_discard" and st.current_player() == MC
    assert (st.deals, st.export, st.unemployed) == (deals, export, unemployed)
    assert st.deal_deck == deal_deck and st.export_deck == export_deck
    assert st.immigration == immigration
    play(st, "done")
    n = D.DEALS_PER_ROUND[st.policies[5]]
    assert st.deals == deal_deck[::-1][:n] and st.export == export_deck[-1]
    arrivals = D.IMMIGRATION_PER_ROUND[st.policies[6]]
    assert sum(st.unemployed[WC]) == sum(unemployed[WC]) + D.PREP_NEW_UNSKILLED[WC] + arrivals
    assert sum(st.unemployed[MC]) == sum(unemployed[MC]) + D.PREP_NEW_UNSKILLED[MC] + arrivals


def test_s2_1_preparation_interest_prosperity_decay_and_new_workers():
    st = new_state(6)
    play(st, "industry:agri")
    st.agenda = [(K.PREP_ARRIVALS, ST, 0), (K.PREP, ST, 0)]  # §2.1 steps 2-5, then 7-9
    st.loans = [1, 0, 2, 1]
    st.money[CC], st.capital = 0, 100
    st.prosperity = [3, 3]
    st.policies[6] = 2  # 7C: 2 Immigration cards per class
    before_wc, before_mc = sum(st.unemployed[WC]), sum(st.unemployed[MC])
    before = [st.money[WC], st.money[ST]]
    st._run()
    assert st.money[WC] == before[0] - 5 and st.money[ST] == before[1] - 5
    assert st.capital == 90  # CC pays interest from Capital first
    assert st.prosperity == [2, 1]
    assert sum(st.unemployed[WC]) == before_wc + 2 + 2
    assert sum(st.unemployed[MC]) == before_mc + 1 + 2


def test_s2_1_markets_cc_then_mc_discard_any_then_refill():
    st = _to_round_2(7)
    old = list(st.cc_market)
    deck_top = st.cc_deck[-1]
    play(st, "market:1", "done")
    assert old[0] in st.company_discard and old[0] not in st.cc_market
    assert len(st.cc_market) == 4 and deck_top in st.cc_market
    assert st.current_player() == MC and st.decision_name() == "market_discard"
    play(st, "done")
    assert len(st.mc_market) == 3


def test_s2_1_mc_prep_arrivals_published_adds_a_skilled_worker_of_mcs_choice():
    st = _to_round_2(8, mc_prep_arrivals="published")
    play(st, "done", "done")
    assert st.current_player() == MC and st.decision_name() == "prep_skilled_worker"
    media = st.unemployed[MC][MEDIA]
    play(st, "industry:media")
    assert st.unemployed[MC][MEDIA] == media + 1


def _at_turn(seed: int, cls: int):
    st = new_state(seed)
    play(st, "industry:agri")
    st.agenda = [(K.DECIDE_TURN, cls, 0)]
    st.main_done = st.free_used = 0
    return refresh(st)


def test_s2_2_turn_order_wc_mc_cc_st_five_passes():
    st = new_state(9)
    play(st, "industry:agri")
    seen = []
    rng = np.random.default_rng(9)
    while st.round == 1 and len(seen) < 20:
        if st.decision_name() == "turn" and (not seen or seen[-1][1] != st.turn_pass
                                             or seen[-1][0] != st.current_player()):
            seen.append((st.current_player(), st.turn_pass))
        legal = st.legal_actions()
        st.apply(int(legal[rng.integers(len(legal))]))
    assert [s[0] for s in seen] == [WC, MC, CC, ST] * 5
    assert [s[1] for s in seen] == [k // 4 for k in range(20)]


def test_s2_2_one_main_action_and_at_most_one_free_action_then_end_turn():
    st = _at_turn(10, MC)
    names = legal_names(st)
    assert "end_turn" not in names and any(n.startswith("basic:") for n in names)
    play(st, "basic:political_pressure")
    if st.decision_name() == "discard_card":
        play(st, legal_names(st)[0])
    names = legal_names(st)
    assert not any(n.startswith(("basic:", "play:")) for n in names)
    assert "end_turn" in names


def test_s2_2_a_basic_action_discards_one_card_from_the_hand():
    st = _at_turn(11, WC)
    hand = list(st.hands[WC])
    play(st, "basic:political_pressure")
    if st.decision_name() == "discard_card":
        play(st, legal_names(st)[0])
    assert len(st.hands[WC]) == len(hand) - 1 and len(st.action_discard[WC]) == 1


def test_s2_2_pass_is_legal_only_when_no_other_main_action_is(monkeypatch):
    st = _at_turn(12, ST)
    assert "pass" not in legal_names(st)  # Propose Bill is always there at the start
    st.bills = [0] * 7  # every policy carries a bill: nothing left to propose
    st.influence[ST] = 0  # no Meet with Party MPs
    st.legitimacy = [1, 1, 1]  # no Extra Tax
    st.public_services[2] = 0  # no Campaign
    st.events = []  # no Event Action
    st.state_goods = [0, 0]  # nothing to sell abroad
    monkeypatch.setattr(turn.effects, "playable", lambda st, cls, design: False)
    refresh(st)
    assert [n for n in legal_names(st) if not n.startswith("free:")] == ["pass"]
    hand = len(st.hands[ST])
    play(st, "pass")
    if st.decision_name() == "discard_card":
        play(st, legal_names(st)[0])
    assert st.main_done == 1 and len(st.hands[ST]) == hand - 1


def test_s1_4_immigration_cards_go_under_the_deck_and_cycle():
    st = new_state(13)
    deck = list(st.immigration)
    from meeplezoo.envs.hegemony.turn import immigrate

    immigrate(st, WC, 1)
    assert st.immigration[0] == deck[-1] and st.immigration[1:] == deck[:-1]


def test_render_shows_the_public_table_and_one_viewers_hand_only():
    st = new_state(14)
    public = st.render()
    assert "policies: p1C p2B p3A p4B p5C p6B p7B" in public and "hand:" not in public
    mine = st.render_for(WC)
    titles = [C.ACTION_CARDS["WC"][d].title for d in st.hands[WC]]
    assert "WC hand: " + ", ".join(titles) in mine
    assert "MC hand" not in mine and "CC hand" not in mine
