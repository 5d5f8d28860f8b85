"""One scenario test per rule of RULES.md (the test names are listed there)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from meeplezoo.envs.core.game import state_from_saved
from meeplezoo.envs.necropolis_railway import agenda as G
from meeplezoo.envs.necropolis_railway import data as D
from meeplezoo.envs.necropolis_railway.board import STAFF, VOLUNTEER
from meeplezoo.envs.necropolis_railway.scoring import score_lines
from tests.necropolis_railway.helpers import (
    act,
    card,
    card_with,
    discs,
    finish_turn,
    names,
    new,
    no_hiring,
    refresh,
    set_coffins,
    set_deck_top,
    set_row,
    start_turn,
)

L111 = {ab: card_with((1, 1, 1), ab) for ab in D.ABILITIES}  # one (1,1,1) card per ability


def end_turns_until(st, predicate, limit=5000):
    """Play 'end_turn' (or the first legal action) until ``predicate(st)``."""
    for _ in range(limit):
        if predicate(st):
            return
        legal = names(st)
        act(st, "end_turn" if "end_turn" in legal else ("skip" if "skip" in legal else legal[0]))
    raise AssertionError("predicate never held")


# -- set-up and structure ------------------------------------------------------------------------
def test_rule_start_setup():
    st = new(4, 1)
    for seat, p in enumerate(st.players):
        assert p.money == D.START_MONEY[seat]
        assert p.pos == D.LONDON and sum(p.train) == D.START_TRAIN_COFFINS
        assert p.train_mourners == D.START_TRAIN_MOURNERS
        assert p.waiting_mourners == D.START_WAITING_MOURNERS
        assert p.col_worker[0] == STAFF and p.staff_supply == D.STAFF_PER_PLAYER - 1
        assert p.prestige == 0 and sum(p.discs) == 0
    assert len(st.row) == D.ROW_SIZE and st.current_player() == 0
    assert st.decision_name() == "take"
    st.check_invariants()


def test_rule_twelve_rounds_one_turn_each_clockwise():
    st = new(3, 2)
    seats = []
    while not st.is_terminal():
        if st.decision_name() == "take":
            seats.append(st.current_player())
        legal = names(st)
        act(st, "end_turn" if "end_turn" in legal else ("skip" if "skip" in legal else legal[0]))
    assert seats == [0, 1, 2] * D.ROUNDS


# -- the draft -----------------------------------------------------------------------------------
def test_rule_draft_takes_card_and_discs_and_refills_from_deck_back():
    st = new(2, 0)
    set_row(st, 1, card(5), blue=1, orange=1)
    dealt, next_top = st.deck[-1], st.deck[-2]
    refresh(st)
    act(st, "take:row_2")
    assert st.players[0].discs == discs(blue=1, orange=1)
    assert st.t_card == card(5)
    assert st.row[1] == dealt
    under = [0] * D.NUM_DISC_COLOURS
    for c in D.CARD_BACK[next_top]:
        under[c] += 1
    assert st.row_discs[1] == under


def test_rule_refill_colour_run_out_is_replaced_by_orange():
    st = new(2, 0)
    bb = card(5)  # its back is "BB"
    for k in range(D.ROW_SIZE):
        set_row(st, k, st.deck[0] if st.row[k] == bb else st.row[k])  # no discs, bb in deck
    set_row(st, 2, st.row[2], blue=D.DISC_SUPPLY)  # every blue disc under row card 3
    set_deck_top(st, bb)
    st.deck[-1], st.deck[-2] = st.deck[-2], st.deck[-1]  # bb second: its back is read
    refresh(st)
    act(st, "take:row_1")
    assert st.row_discs[0] == discs(orange=2)


def test_rule_deck_reshuffles_discards_when_empty():
    st = new(2, 0)
    st.discard.extend(st.deck[:-1])
    del st.deck[:-1]  # one card left: dealing it empties the deck
    discards = sorted(st.discard)
    refresh(st)
    act(st, "take:row_1")
    assert sorted(st.deck) == discards and not st.discard  # shuffled back in
    st.check_invariants()


# -- card actions and payment --------------------------------------------------------------------
def test_rule_card_action_paid_with_its_colour_or_orange():
    st = new(2, 0)
    start_turn(st, card(1), blue=1, orange=1)  # L2 N0 R0
    assert "action:london" in names(st)
    orange_supply = st.disc_supply[D.ORANGE]
    act(st, "action:london")
    assert st.decision_name() == "pay"
    assert names(st) == ["pay:blue", "pay:orange"]
    act(st, "pay:orange")
    assert st.disc_supply[D.ORANGE] == orange_supply + 1
    assert st.decision_name() == "london_upgrade"
    st2 = new(2, 0)
    start_turn(st2, card(1), green=1)
    assert "action:london" not in names(st2)  # no blue and no orange


def test_rule_each_card_action_once_per_turn():
    st = new(2, 0)
    start_turn(st, L111["CREW"], blue=2)
    act(st, "action:london", "upgrade:office_1")
    assert "action:london" not in names(st)
    assert st.t_used[0]


def test_rule_london_upgrade_printed_then_A_then_B():
    st = new(2, 0)
    p = st.players[0]
    start_turn(st, card(1), money=20, blue=1)
    slot = D.SLOT_NAMES.index("office_1")
    p.london[slot] = 1
    for s in range(D.NUM_SLOTS):
        if s != slot:
            p.london[s] = 2  # every other slot fully upgraded
    refresh(st)
    act(st, "action:london")
    assert st.players[0].london[slot] == 2  # the only option was played automatically
    assert st.players[0].money == 20 - D.SLOT_COST[slot][1]
    assert "action:london" not in names(st)


def test_rule_necropolis_action_hire_then_build():
    st = new(2, 0)
    seat = start_turn(st, card(2), money=20, green=1, blue=1)  # N2
    p = st.players[seat]
    p.necro_mourners = 1
    refresh(st)
    act(st, "action:necropolis")
    legal = names(st)
    assert "hire@london" in legal and "hire@column_2" in legal
    assert "hire@column_1" not in legal  # the start staff is there
    assert "skip" not in legal  # the action must do something
    act(st, "hire@column_3")
    assert p.col_worker[2] == STAFF and p.money == 20 - D.HIRE_COST
    assert "skip" in names(st) and not any(n.startswith("hire") for n in names(st))
    act(st, "build:bronze@column_3")
    missing = D.MORTUARY_MOURNERS[0] - 1
    assert p.mortuary[2] == 1 and p.necro_mourners == 0
    assert p.money == 20 - D.HIRE_COST - missing * D.MONEY_PER_MISSING_MOURNER
    assert st.decision_name() == "turn"


def test_rule_mortuary_costs_money_for_missing_mourners():
    st = new(2, 0)
    seat = start_turn(st, card(2), money=5, green=1)
    p = st.players[seat]
    p.necro_mourners = D.MORTUARY_MOURNERS[2] - 1  # one short of gold
    no_hiring(st, seat)  # only builds
    refresh(st)
    act(st, "action:necropolis")
    legal = names(st)
    assert "build:gold@column_1" in legal  # 1 missing -> 3 money, affordable
    p2 = new(2, 0)
    seat2 = start_turn(p2, card(2), money=2, green=1)
    p2.players[seat2].necro_mourners = D.MORTUARY_MOURNERS[2] - 1
    refresh(p2)
    act(p2, "action:necropolis")
    assert "build:gold@column_1" not in names(p2)


def test_rule_railway_add_and_flip_capacity_tiles():
    st = new(1, 0)
    p = st.players[0]
    start_turn(st, card(3), money=20, grey=1)  # R2
    act(st, "action:railway", "rail:add_coffin_car")
    assert p.cars[0] == [1] and p.money == 20 - D.ADD_COST[0]
    assert p.coffin_capacity() == D.BASE_COFFIN_CAP + D.CAR_CAP[0][1]
    st2 = new(1, 0)
    q = st2.players[0]
    start_turn(st2, card(3), money=20, grey=1)
    q.cars[0] = [1]
    refresh(st2)
    act(st2, "action:railway", "rail:flip_coffin_car@1")
    assert q.cars[0] == [2] and q.money == 20 - D.FLIP_COST[0]
    assert q.coffin_capacity() == D.BASE_COFFIN_CAP + D.CAR_CAP[0][2]


@pytest.mark.parametrize("perk", ["royal_patronage", "volunteers", "express"])
def test_rule_completed_pair_earns_a_perk(perk):
    st = new(1, 0)
    p = st.players[0]
    start_turn(st, card(3), money=20, grey=1)
    p.cars = [[2], [1]]
    refresh(st)
    act(st, "action:railway", "rail:flip_mourner_car@1")
    assert st.decision_name() == "perk" and p.pairs[0]
    act(st, f"perk:{perk}")
    if perk == "royal_patronage":
        assert p.money == 20 - D.FLIP_COST[1] + D.ROYAL_MONEY and p.prestige == D.ROYAL_STEPS
    elif perk == "volunteers":
        vol = st.vol_supply
        act(st, "volunteer@london", "volunteer@column_2")
        assert p.london_vol == 1 and p.col_worker[1] == VOLUNTEER
        assert st.vol_supply == vol - 2
    else:
        assert p.express_turn == 0  # gained on the first turn
    assert p.perks[D.PERKS.index(perk)]


def test_rule_royal_patronage_step_can_trigger_a_prestige_bonus():
    st = new(1, 0)
    p = st.players[0]
    start_turn(st, card(3), money=20, grey=1, blue=1)
    p.cars = [[2], [1]]
    p.prestige = 1
    refresh(st)
    act(st, "action:railway", "rail:flip_mourner_car@1", "perk:royal_patronage")
    assert p.prestige == 2 and st.t_move == D.CARD_TRAINS[card(3)][2] + D.PRESTIGE_MOVE[2]


def test_rule_one_mortuary_per_column_from_a_limited_supply():
    st = new(2, 0)
    seat = start_turn(st, card(2), money=30, green=1, blue=1)
    p = st.players[seat]
    p.mortuary[:] = [0, 2, 3, 3, 3]  # silver on column 2, gold on columns 3-5
    st.players[1].mortuary[:] = [3] * D.COLUMNS  # the other seat has the other golds
    st.mortuary_supply[1] -= 1
    st.mortuary_supply[2] -= 3 + D.COLUMNS
    assert st.mortuary_supply[2] == 0
    refresh(st)
    act(st, "action:necropolis")
    builds = [n for n in names(st) if n.startswith("build")]
    assert builds == ["build:bronze@column_1", "build:silver@column_1"]


def test_rule_express_perk_adds_one_movement_on_later_turns():
    st = new(1, 0)
    p = st.players[0]
    start_turn(st, L111["CREW"], money=20, grey=1)
    p.cars = [[2], [1]]
    set_coffins(st, 0, "train")
    refresh(st)
    act(st, "action:railway", "rail:flip_mourner_car@1", "perk:express")
    finish_turn(st)
    assert p.pos == 1  # railway train 1, no express bonus on the turn it is gained
    start_turn(st, L111["CREW"], blue=1)
    act(st, "action:london", "upgrade:office_1")
    finish_turn(st)
    assert p.pos == 3  # 1 + london train 1 + express 1
    start_turn(st, L111["CREW"])
    assert p.pos == 3  # the train did not move: no express bonus


def test_rule_tucking_moves_the_train_using_does_not():
    st = new(1, 0)
    p = st.players[0]
    tuck = card(3)  # R2, dining
    start_turn(st, tuck, grey=1)
    act(st, "action:railway", "rail:tuck")
    assert p.tucked == [tuck]
    assert "use_tucked:1" not in names(st)  # not the card tucked this turn
    finish_turn(st)
    assert p.pos == 2 and tuck not in st.discard
    start_turn(st, card(2), blue=1)  # N2 card; nothing else taken
    act(st, "use_tucked:1")
    finish_turn(st)
    assert p.pos == 2 and tuck in st.discard and not p.tucked


def _tuck(st, *cards):
    """Put cards from the deck under seat 0's railway board."""
    for c in cards:
        st.deck.remove(c)
        st.players[0].tucked.append(c)


def test_rule_at_most_three_tucked_cards_one_used_per_turn():
    st = new(1, 0)
    _tuck(st, L111["CREW"], L111["DINING"], L111["BAGGAGE"])
    start_turn(st, card(3), money=0, grey=1)
    assert "action:railway" not in names(st)  # no tile affordable, no room to tuck
    act(st, "use_tucked:2")
    assert not any(n.startswith("use_tucked") for n in names(st))  # one per turn


def test_rule_sell_tile_only_when_nothing_is_affordable():
    st = new(1, 0)
    p = st.players[0]
    _tuck(st, L111["CREW"], L111["DINING"], L111["BAGGAGE"])  # no tucking possible
    start_turn(st, card(3), money=0, grey=1)
    p.cars = [[1], []]
    set_coffins(st, 0, "train", black=2)
    refresh(st)
    act(st, "action:railway")  # selling is the only option: played at once
    assert p.cars[0] == [] and p.money == D.SELL_VALUE
    st2 = new(1, 0)
    _tuck(st2, L111["CREW"], L111["DINING"], L111["BAGGAGE"])
    start_turn(st2, card(3), money=D.ADD_COST[1], grey=1)
    st2.players[0].cars = [[1], []]
    refresh(st2)
    act(st2, "action:railway")
    assert "rail:sell_coffin_car" not in names(st2)  # a tile is affordable


def test_rule_sold_tile_must_be_empty():
    st = new(1, 0)
    p = st.players[0]
    _tuck(st, L111["CREW"], L111["DINING"], L111["BAGGAGE"])
    start_turn(st, card(3), money=0, grey=1)
    p.cars = [[1], [1]]
    set_coffins(st, 0, "train", black=D.BASE_COFFIN_CAP + 1)  # the coffin car is in use
    refresh(st)
    act(st, "action:railway")  # only the (empty) mourner car can go
    assert p.cars == [[1], []] and p.money == D.SELL_VALUE


def test_rule_bonus_space_one_per_turn_each_once_per_round():
    st = new(2, 0)
    p0 = st.players[0]
    start_turn(st, card(3), blue=2)
    money = p0.money
    act(st, "bonus:blue_1")
    assert p0.money == money + D.BONUS_MONEY[0]
    assert not any(n.startswith("bonus:") for n in names(st))  # one per turn
    act(st, "end_turn")
    start_turn(st, card(2), blue=2)
    legal = names(st)
    assert "bonus:blue_1" not in legal and "bonus:blue_2" in legal  # taken this round
    act(st, "end_turn")
    assert st.bonus_spaces == [-1] * len(D.BONUS_SPACES)  # round over: spaces cleared
    st.check_invariants()


@pytest.mark.parametrize("space", list(D.BONUS_SPACES))
def test_rule_bonus_space_effects(space):
    st = new(1, 0)
    p = st.players[0]
    b = D.BONUS_SPACES.index(space)
    colour = D.DISC_COLOURS[D.BONUS_COLOUR[b]]
    extra = "blue" if colour == "green" else "green"  # keeps the turn menu open afterwards
    start_turn(st, card(2), money=10, **{colour: 1, extra: 1})
    p.cars = [[1], []]
    refresh(st)
    before = (p.money, sum(p.waiting), p.necro_mourners, st.t_move)
    act(st, f"bonus:{space}")
    if space == "blue_1":
        assert p.money == before[0] + 3
    elif space == "blue_2":
        assert sum(p.waiting) == before[1] + 2
    elif space == "green_1":
        act(st, "hire@column_2")
        assert p.money == before[0] + 0 - 1 and p.col_worker[1] == STAFF
    elif space == "green_2":
        assert p.necro_mourners == before[2] + 2
    elif space == "grey_1":
        assert st.t_move == before[3] + 2
    else:
        act(st, "rail:flip_coffin_car@1")
        assert p.money == before[0] - (D.FLIP_COST[0] - 2) and p.cars[0] == [2]


def test_rule_prestige_one_step_per_turn_paid_in_discs_with_bonuses():
    st = new(1, 0)
    p = st.players[0]
    start_turn(st, card(2), green=3)
    p.prestige = 1
    refresh(st)
    act(st, "prestige")
    assert p.prestige == 2 and sum(p.discs) == 3 - D.PRESTIGE_COST[2]
    assert st.t_move == D.PRESTIGE_MOVE[2]  # '!' bonus: move 2 at the end of the turn
    assert "prestige" not in names(st)
    st2 = new(1, 0)
    q = st2.players[0]
    start_turn(st2, card(2), green=1)
    q.prestige = 3
    refresh(st2)
    act(st2, "prestige")
    assert q.prestige == 4 and st2.decision_name() == "free_mortuary"
    act(st2, "build:bronze@column_2")
    assert q.mortuary[1] == 1 and q.money == D.START_MONEY[0]


def test_rule_prestige_payment_choice_of_discs():
    st = new(1, 0)
    p = st.players[0]
    start_turn(st, card(2), green=2, orange=2)
    p.prestige = 5  # next step costs 2
    refresh(st)
    act(st, "prestige")
    assert st.decision_name() == "pay" and set(names(st)) == {"pay:green", "pay:orange"}
    act(st, "pay:green", "pay:green")
    assert p.discs == discs(orange=2) and p.prestige == 6


# -- the train -----------------------------------------------------------------------------------
def test_rule_train_moves_by_the_trains_of_the_actions_taken():
    st = new(1, 0)
    p = st.players[0]
    start_turn(st, card(35), money=20, blue=1, grey=1)  # id 35: L1 N2 R1
    act(st, "action:london", "upgrade:office_1", "action:railway", "rail:add_coffin_car")
    finish_turn(st)
    assert p.pos == 2  # L1 + R1 (the Necropolis action was not taken)


def test_rule_loading_in_london_before_moving():
    st = new(1, 0)
    p = st.players[0]
    start_turn(st, card(1), blue=1)  # L2
    set_coffins(st, 0, "train")
    set_coffins(st, 0, "waiting", black=1, white=1)
    p.train_mourners = 0
    refresh(st)
    act(st, "action:london", "upgrade:office_1")
    finish_turn(st)
    assert p.pos == 2 and p.train == [1, 1, 0, 0] and sum(p.waiting) == 0
    assert p.train_mourners == min(D.BASE_MOURNER_CAP, D.START_WAITING_MOURNERS)


def test_rule_loading_choice_when_not_all_coffins_fit():
    st = new(1, 0)
    start_turn(st, card(1), blue=1)
    set_coffins(st, 0, "train", black=2)
    set_coffins(st, 0, "waiting", white=1, red=1)
    refresh(st)
    act(st, "action:london", "upgrade:office_1")
    finish_turn(st)
    assert st.decision_name() == "load" and names(st) == ["load:white", "load:red"]
    act(st, "load:red")
    assert st.players[0].train == [2, 0, 1, 0] and st.players[0].waiting == [0, 1, 0, 0]


def test_rule_stations_resolved_in_the_order_reached_or_passed():
    # from space 2, 5 steps: Necropolis (3) first, then London (0): coffins loaded in
    # London are not buried this turn.
    st = new(1, 0)
    p = st.players[0]
    start_turn(st, card(31), blue=1, green=1)  # id 31: L2 N2
    p.pos = 2
    set_coffins(st, 0, "train")
    mourners = p.train_mourners
    refresh(st)
    st.t_move += 1
    act(st, "action:london", "upgrade:office_1", "action:necropolis", "build:bronze@column_2",
        "skip")
    finish_turn(st)
    assert p.pos == 1 and sum(p.train) == D.SLOT_YIELD[0][0][0]  # London's coffins aboard
    assert p.necro_mourners == mourners and sum(p.fill) == 0
    # from space 5, 4 steps: London first, then Necropolis buries what London loaded.
    st = new(1, 0)
    p = st.players[0]
    start_turn(st, card(31), blue=1, green=1)
    p.pos = 5
    set_coffins(st, 0, "train")
    refresh(st)
    act(st, "action:london", "upgrade:office_1", "action:necropolis", "hire@column_2", "skip")
    finish_turn(st)
    while st.decision_name() == "bury":
        act(st, names(st)[0])
    assert p.pos == 3 and sum(p.fill) + sum(p.overflow) == D.SLOT_YIELD[0][0][0]


def test_rule_london_stop_income_then_load_then_upkeep():
    st = new(1, 0)
    p = st.players[0]
    start_turn(st, card(2), green=1)  # N2, but the Necropolis action is not taken
    p.pos = D.TRACK_LENGTH - 1
    st.t_move = 1
    set_coffins(st, 0, "train")
    refresh(st)
    money = p.money
    act(st, "end_turn")
    income = [sum(D.SLOT_YIELD[s][0][k] for s in range(D.NUM_SLOTS)) for k in range(5)]
    assert p.pos == D.LONDON
    assert sum(p.train) == income[0] and p.train_mourners == D.START_TRAIN_MOURNERS
    assert p.waiting_mourners == D.START_WAITING_MOURNERS + income[1]
    assert p.money == money + income[2] - D.UPKEEP * p.staff_count()


def test_rule_london_income_disc_choice():
    st = new(1, 0)
    p = st.players[0]
    start_turn(st, card(2), green=1)
    p.pos = D.TRACK_LENGTH - 1
    st.t_move = 1
    p.london[D.SLOT_NAMES.index("lobby_1")] = 1  # tile A: one disc of your choice
    set_coffins(st, 0, "train")
    refresh(st)
    act(st, "end_turn")
    assert st.decision_name() == "income_disc"
    assert names(st) == ["gain:blue", "gain:green", "gain:grey"]
    act(st, "gain:grey")
    assert p.discs[D.DISC_COLOURS.index("grey")] == 1


def test_rule_staff_dismissed_when_upkeep_cannot_be_paid():
    st = new(1, 0)
    p = st.players[0]
    start_turn(st, card(2), money=0, green=1)
    p.pos = D.TRACK_LENGTH - 1
    st.t_move = 1
    p.london_staff = 1
    p.col_worker[2] = STAFF
    p.staff_supply -= 2
    set_coffins(st, 0, "train")
    refresh(st)
    act(st, "end_turn")
    income = sum(D.SLOT_YIELD[s][0][2] for s in range(D.NUM_SLOTS))  # 4 money
    assert st.decision_name() == "dismiss"
    assert set(names(st)) == {"dismiss@london", "dismiss@column_1", "dismiss@column_3"}
    act(st, "dismiss@london")
    assert p.staff_count() == 2 and p.money == income - 2 * D.UPKEEP


def test_rule_dismissed_staff_leave_the_game():
    """v1: a dismissed staff is out of the game (the memo's 破棄), not back in the supply."""
    st = new(1, 0)
    p = st.players[0]
    start_turn(st, card(2), money=0, green=1)
    p.pos = D.TRACK_LENGTH - 1
    st.t_move = 1
    p.london_staff = 2
    p.staff_supply -= 2
    set_coffins(st, 0, "train")
    refresh(st)
    supply = p.staff_supply
    act(st, "end_turn")
    assert st.decision_name() == "dismiss"
    act(st, "dismiss@london")  # act() checks conservation: supply + boards + dismissed
    assert p.staff_supply == supply and p.dismissed == 1 and p.staff_count() == 2
    loaded = state_from_saved(type(st.game), json.loads(json.dumps(st.to_dict())))
    assert loaded.players[0].dismissed == 1 and loaded.players[0].staff_supply == supply
    loaded.check_invariants()


def test_rule_volunteers_cost_no_upkeep():
    st = new(1, 0)
    p = st.players[0]
    start_turn(st, card(2), money=0, green=1)
    p.pos = D.TRACK_LENGTH - 1
    st.t_move = 1
    st.vol_supply -= 2
    p.london_vol = 1
    p.col_worker[3] = VOLUNTEER
    set_coffins(st, 0, "train")
    refresh(st)
    act(st, "end_turn")
    income = sum(D.SLOT_YIELD[s][0][2] for s in range(D.NUM_SLOTS))
    assert p.money == income - D.UPKEEP * 1  # only the start staff is paid


def test_rule_necropolis_stop_unloads_mourners_buries_and_overflows():
    st = new(1, 0)
    p = st.players[0]
    start_turn(st, card(2), green=1)
    p.pos = D.NECROPOLIS - 1
    st.t_move = 1
    p.fill[0] = D.ROWS - 1  # column 1 has one free plot (the top one)
    for r in range(D.ROWS - 1):
        p.plots[r] = D.PLOT_COLOUR[0][r]
        st.bag[D.PLOT_COLOUR[0][r]] -= 1
    set_coffins(st, 0, "train", red=2, yellow=1)
    refresh(st)
    money = p.money
    mourners = p.train_mourners
    act(st, "end_turn")
    assert st.decision_name() == "bury" and set(names(st)) == {"bury:red@column_1",
                                                             "bury:yellow@column_1"}
    top_colour = D.COFFIN_COLOURS[D.PLOT_COLOUR[0][D.ROWS - 1]]
    act(st, f"bury:{top_colour}@column_1")
    assert p.money == money + D.MATCH_MONEY  # plot colour matched
    assert p.necro_mourners == mourners and p.train_mourners == 0
    assert sum(p.overflow) == 2 and sum(p.train) == 0  # no free plot left: overflow


def test_rule_crew_car_upkeep_one_per_staff():
    st = new(1, 0)
    p = st.players[0]
    crew = L111["CREW"]
    st.deck.remove(crew)
    p.tucked = [crew]
    start_turn(st, card(2), green=1)
    p.pos = D.TRACK_LENGTH - 1
    st.t_move = 1
    p.london_staff = 2
    p.staff_supply -= 2
    set_coffins(st, 0, "train")
    refresh(st)
    money = p.money
    act(st, "use_tucked:1")
    finish_turn(st)
    income = sum(D.SLOT_YIELD[s][0][2] for s in range(D.NUM_SLOTS))
    assert p.money == money + income - D.CREW_UPKEEP * 3


def test_rule_dining_car_money_per_full_mourner_car():
    st = new(1, 0)
    p = st.players[0]
    dining = L111["DINING"]
    st.deck.remove(dining)
    p.tucked = [dining]
    start_turn(st, card(2), green=1)
    p.pos = D.NECROPOLIS - 1
    st.t_move = 1
    p.cars[1] = [1]
    p.train_mourners = D.BASE_MOURNER_CAP + D.CAR_CAP[1][1]  # both cars full
    set_coffins(st, 0, "train")
    refresh(st)
    money = p.money
    act(st, "use_tucked:1")
    finish_turn(st)
    assert p.money == money + 2 * D.DINING_MONEY


def test_rule_baggage_car_lets_mortuaries_use_train_mourners():
    st = new(1, 0)
    p = st.players[0]
    bag = L111["BAGGAGE"]
    st.deck.remove(bag)
    p.tucked = [bag]
    start_turn(st, card(2), money=0, green=1)
    p.train_mourners = D.MORTUARY_MOURNERS[0]
    p.waiting_mourners = 0
    no_hiring(st, 0)
    refresh(st)
    assert "action:necropolis" not in names(st)  # no mourners at the Necropolis, no money
    act(st, "use_tucked:1")
    act(st, "action:necropolis")
    assert p.mortuary[0] == 1 or st.decision_name() == "necropolis"
    if st.decision_name() == "necropolis":
        act(st, "build:bronze@column_1")
    assert p.train_mourners == 0 and p.money == 0


def test_rule_yard_adds_one_movement_per_tucked_card():
    st = new(1, 0)
    p = st.players[0]
    yard, other = L111["YARD"], L111["CREW"]
    st.deck.remove(yard)
    st.deck.remove(other)
    p.tucked = [other, yard]
    start_turn(st, card(2), green=1)
    act(st, "use_tucked:2")
    assert st.t_move == 2 * D.YARD_MOVE
    finish_turn(st)
    assert p.pos == 2


def test_rule_yard_counts_cards_tucked_later_in_the_turn():
    """v1: the material yard counts every card tucked when the train moves, so using it
    before or after tucking this turn's card gives the same movement."""
    moves = []
    for order in (("use_tucked:1", "action:railway"), ("action:railway", "use_tucked:1")):
        st = new(1, 0)
        p = st.players[0]
        _tuck(st, L111["YARD"], L111["BAGGAGE"])
        turn_card = card(2)  # N2, no railway trains: the movement is the yard's alone
        start_turn(st, turn_card, money=0, grey=1)
        act(st, *order)  # with no money, the railway action can only tuck (played at once)
        assert turn_card in p.tucked and L111["YARD"] in st.discard
        moves.append(st.t_move)
    assert moves == [3 * D.YARD_MOVE, 3 * D.YARD_MOVE]  # yard + baggage + the tucked card


def _empty_bag_into_overflow(st, seat: int) -> None:
    """No coffins left to draw (they sit on the seat's overflow space), so London income
    brings none and the Necropolis has nothing to bury."""
    p = st.players[seat]
    counts = {c: p.overflow[k] + st.bag[k] + p.train[k] for k, c in enumerate(D.COFFIN_COLOURS)}
    set_coffins(st, seat, "train")
    set_coffins(st, seat, "overflow", **counts)


def test_rule_crew_car_serves_only_the_first_london_stop_of_the_turn():
    st = new(1, 0)
    p = st.players[0]
    _tuck(st, L111["CREW"])
    start_turn(st, card(2), money=30, green=1)
    p.pos = D.TRACK_LENGTH - 1
    st.t_move = D.TRACK_LENGTH + 1  # London, the Necropolis, London again
    p.london_staff = 2
    p.staff_supply -= 2
    _empty_bag_into_overflow(st, 0)
    refresh(st)
    act(st, "use_tucked:1")
    finish_turn(st)
    assert p.pos == D.LONDON
    income = sum(D.SLOT_YIELD[s][0][2] for s in range(D.NUM_SLOTS))
    assert p.money == 30 + 2 * income - 3 * D.CREW_UPKEEP - 3 * D.UPKEEP


def test_rule_dining_car_serves_only_the_first_necropolis_stop_of_the_turn():
    st = new(1, 0)
    p = st.players[0]
    _tuck(st, L111["DINING"])
    start_turn(st, card(2), money=30, green=1)
    p.pos = D.NECROPOLIS - 1
    st.t_move = D.TRACK_LENGTH + 1  # the Necropolis, London, the Necropolis again
    p.train_mourners = p.waiting_mourners = D.BASE_MOURNER_CAP  # a full car both times
    _empty_bag_into_overflow(st, 0)
    refresh(st)
    act(st, "use_tucked:1")
    finish_turn(st)
    assert p.pos == D.NECROPOLIS and p.necro_mourners == 2 * D.BASE_MOURNER_CAP
    income = sum(D.SLOT_YIELD[s][0][2] for s in range(D.NUM_SLOTS))
    assert p.money == 30 + D.DINING_MONEY + income - D.UPKEEP


# -- end of turn, rounds and game ----------------------------------------------------------------
def test_rule_hold_limit_discards_at_end_of_turn():
    st = new(1, 0)
    start_turn(st, card(2), blue=3, green=3, orange=2)
    act(st, "end_turn")
    assert st.decision_name() == "discard"
    while st.decision_name() == "discard":
        act(st, "discard:blue")
    assert sum(st.players[0].discs) == D.HOLD_LIMIT


def _solo_take_first_row_card(seed: int):
    """A solo game whose row cards 2 and 3 carry discs; the player takes row card 1 (no
    discs: the turn ends at once).  Returns the state, the cards 2 and 3 and their discs."""
    st = new(1, seed)
    set_row(st, 0, st.row[0])
    set_row(st, 1, st.row[1], grey=1)
    set_row(st, 2, st.row[2], blue=2, green=1)
    refresh(st)
    before = (st.row[1], st.row[2])
    under = (discs(grey=1), discs(blue=2, green=1))
    supply = st.disc_supply[:]
    act(st, "take:row_1")
    assert st.decision_name() == "take"
    return st, before, under, supply


def test_rule_solo_discards_a_random_row_card_not_taken():
    """v1: one of the two cards the player did not take leaves, drawn from the state's rng
    (v0 discarded the card with the most discs, here always row card 3)."""
    gone_slots = set()
    for seed in range(16):
        st, before, _, _ = _solo_take_first_row_card(seed)
        gone = [k for k in (0, 1) if before[k] in st.discard]
        assert len(gone) == 1  # exactly one of the cards not taken left
        assert before[1 - gone[0]] == st.row[1 + (1 - gone[0])]  # the other stayed in place
        gone_slots.add(gone[0])
        assert st.mortuary_supply == [D.SOLO_MORTUARY_SUPPLY] * 3
    assert gone_slots == {0, 1}  # row card 2 also leaves, though it has fewer discs
    # the draw comes from the state's generator: the same state gives the same discard
    a, b = new(1, 3), new(1, 3)
    act(a, "take:row_1")
    act(b, "take:row_1")
    assert a.row == b.row and a.discard == b.discard


def test_rule_solo_row_discard_returns_discs_to_supply():
    st, before, under, supply = _solo_take_first_row_card(0)
    k = 0 if before[0] in st.discard else 1
    for c in range(D.NUM_DISC_COLOURS):
        refills = st.row_discs[0][c] + st.row_discs[1 + k][c]  # both refilled slots took discs
        assert st.disc_supply[c] == supply[c] + under[k][c] - refills


def test_rule_turn_of_the_century_free_action():
    st = new(2, 3)
    end_turns_until(st, lambda s: s.decision_name() == "century")
    assert st.round == D.CENTURY_AFTER_ROUND and st.current_player() == 0
    p = st.players[0]
    money, pos, held = p.money, p.pos, p.discs[:]
    act(st, "upgrade:office_1")
    assert p.london[D.SLOT_NAMES.index("office_1")] == 1
    assert (p.money, p.pos, p.discs) == (money, pos, held)  # free; the train stays
    assert st.decision_name() == "century" and st.current_player() == 1
    q = st.players[1]
    money = q.money
    legal = names(st)
    assert "rail:add_coffin_car" in legal and "skip" in legal
    act(st, "hire@london")
    assert q.london_staff == 1 and q.money == money  # free hire
    assert st.decision_name() == "take" and st.current_player() == 0


def test_rule_century_mortuary_needs_its_mourners():
    st = new(2, 3)
    end_turns_until(st, lambda s: s.decision_name() == "century")
    p = st.players[0]
    p.necro_mourners = D.MORTUARY_MOURNERS[1]
    refresh(st)
    legal = names(st)
    assert "build:silver@column_2" in legal and "build:gold@column_2" not in legal
    act(st, "build:silver@column_2")
    assert p.necro_mourners == 0 and p.mortuary[1] == 2


def test_rule_end_moves_then_final_purchase_in_reverse_order():
    st = new(3, 4)
    end_turns_until(st, lambda s: s.phase >= 2)  # end moves / final purchase
    order = []
    while not st.is_terminal():
        if st.decision_name() == "final_purchase":
            order.append(st.current_player())
        legal = names(st)
        act(st, "skip" if "skip" in legal else legal[0])
    assert order == sorted(order, reverse=True)
    for p in st.players:
        assert p.pos in (D.LONDON, D.NECROPOLIS)


def test_rule_end_move_goes_to_the_next_station():
    st = new(1, 0)
    end_turns_until(st, lambda s: s.round == D.ROUNDS - 1 and s.decision_name() == "take")
    p = st.players[0]
    start_turn(st, card(2), green=1)
    p.pos = 1
    set_coffins(st, 0, "train")
    refresh(st)
    act(st, "end_turn")
    assert p.pos == D.NECROPOLIS


def _at_end_station(pos: int):
    """A solo game after round 12 whose train, one space from a station, has moved onto it."""
    st = new(1, 0)
    end_turns_until(st, lambda s: s.round == D.ROUNDS - 1 and s.decision_name() == "take")
    p = st.players[0]
    p.pos = pos
    p.london_staff = 1
    p.staff_supply -= 1
    start_turn(st, card(2), money=10)  # no discs: the turn ends at once, the end move starts
    return st, p


def test_rule_end_move_owner_may_decline_the_station():
    """v1: after round 12 the owner may take the station's actions (``end_turn``) or decline
    them (``skip``): no income, loading or upkeep in London; cargo stays at the Necropolis."""
    st, p = _at_end_station(D.LONDON - 1 + D.TRACK_LENGTH)
    assert p.pos == D.LONDON and st.phase == G.P_END_MOVES
    assert st.decision_name() == "turn" and names(st) == ["end_turn", "skip"]
    money, waiting, train, staff = p.money, p.waiting[:], p.train[:], p.staff_count()
    declined = st.clone()
    act(declined, "skip")
    q = declined.players[0]
    assert (q.money, q.waiting, q.train, q.staff_count()) == (money, waiting, train, staff)
    act(st, "end_turn")
    while st.decision_name() in ("load", "income_disc"):
        act(st, names(st)[0])
    income = p.london_income()[2]
    assert p.money == money + income - staff * D.UPKEEP

    st, p = _at_end_station(D.NECROPOLIS - 1)
    assert p.pos == D.NECROPOLIS and names(st) == ["end_turn", "skip"]
    mourners, train = p.train_mourners, p.train[:]
    declined = st.clone()
    act(declined, "skip")
    q = declined.players[0]
    assert q.train_mourners == mourners and q.train == train and q.necro_mourners == 0
    act(st, "end_turn")
    while st.decision_name() == "bury":
        act(st, names(st)[0])
    assert p.train_mourners == 0 and p.necro_mourners == mourners


def test_rule_final_purchase_hire_or_build():
    st = new(2, 5)
    end_turns_until(st, lambda s: s.decision_name() == "final_purchase")
    seat = st.current_player()
    assert seat == 1
    p = st.players[seat]
    p.money = 10
    refresh(st)
    legal = names(st)
    assert "skip" in legal and any(n.startswith("hire@") for n in legal)
    assert not any(n.startswith(("upgrade", "rail:")) for n in legal)
    act(st, "hire@london")
    assert p.london_staff == 1 and p.money == 10 - D.HIRE_COST


def test_rule_scoring_lines():
    st = new(1, 0)
    p = st.players[0]
    p.prestige = 3
    p.london_staff, p.london_vol = 2, 1
    p.london[0] = p.london[1] = 2  # mortuary pair complete
    p.london[2] = 2  # chapel half
    p.fill[0] = D.ROWS
    p.plots[0:4] = [0, 0, 1, 2]  # column 1 full: 2 black
    p.mortuary[0] = 3  # gold
    p.fill[1] = 1
    p.plots[4] = 3  # column 2: 1 yellow, no mortuary
    p.overflow = [1, 0, 2, 0]
    p.money, p.necro_mourners = 7, 4
    lines = score_lines(p)
    assert lines == [3 * 3, D.PAIR_POINTS, D.COLUMN_POINTS, 2 * 8 + 1 * 2, 3, (7 + 8) // 5]
    breakdown = st.score_breakdown()[0]
    assert breakdown["total"] == sum(lines)


def test_rule_scoring_before_the_end_is_as_if_it_ended_now():
    """Scoring reads only the position (no end step converts or awards anything), so
    ``scores()`` mid-game already equal a copy ended on the spot; the game is untouched."""
    st = new(3, 0)
    rng = np.random.default_rng(0)
    while st.round < 6:
        st.apply(int(rng.choice(st.legal_actions())))
    saved, moves = st.to_dict(), st.legal_actions()
    ended = st.clone()
    ended.agenda = [(G.GAME_OVER, 0, 0)]  # the game ends now: only its last step runs
    refresh(ended)
    assert ended.is_terminal() and not st.is_terminal()
    assert st.scores() == ended.scores() and st.score_breakdown() == ended.score_breakdown()
    assert st.rank_keys() == ended.rank_keys()
    mourners = [p.necro_mourners for p in st.players]
    assert any(mourners)  # Necropolis mourners already count as 2 money each
    assert [row["money"] for row in st.score_breakdown()] == [
        (p.money + D.MONEY_PER_NECRO_MOURNER * p.necro_mourners) // D.MONEY_PER_POINT
        for p in st.players]
    assert all(sum(v for k, v in row.items() if k != "total") == row["total"] == s
               for row, s in zip(st.score_breakdown(), st.scores()))
    assert st.to_dict() == saved and st.legal_actions() == moves


def test_rule_ties_broken_by_money_then_coffins_buried():
    st = new(3, 0)
    a, b, c = st.players
    a.money, a.overflow[0] = 10, 2  # 2 points of money + 2 overflow points
    b.money, b.necro_mourners, b.overflow[0] = 6, 2, 2  # (6 + 2*2) // 5 = 2, + 2 overflow
    c.money, c.fill[1], c.plots[4] = 10, 1, 1  # 2 points of money + 1 coffin x 2 (no mortuary)
    st.bag[0] -= 4
    st.bag[1] -= 1
    st.check_invariants()
    assert st.scores()[0] == st.scores()[1] == st.scores()[2]
    keys = st.rank_keys()
    assert keys[0] > keys[1]  # same points: more money left wins
    assert keys[2] > keys[0]  # same points and money: more coffins buried wins


def test_rule_single_option_decisions_are_played_automatically():
    st = new(1, 0)
    start_turn(st, card(1), blue=1)  # only blue: the payment is not asked
    act(st, "action:london")
    assert st.decision_name() == "london_upgrade"
    assert len(st.legal_actions()) > 1


def test_rule_hidden_information_deck_order_not_observed():
    st = new(2, 0)
    act(st, "take:row_1")
    seen = st.observation(0)
    back = D.CARD_BACK_KEY[st.deck[-1]]
    for k in range(5):
        other = st.resample_hidden(0, np.random.default_rng(k))
        assert D.CARD_BACK_KEY[other.deck[-1]] == back  # the public back is kept
        assert np.array_equal(other.observation(0), seen)
    assert sorted(other.deck) == sorted(st.deck)
