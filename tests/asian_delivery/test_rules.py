"""One scenario test per rule of RULES.md, named after the rule."""

from __future__ import annotations

import re

import numpy as np

from meeplezoo.envs.asian_delivery import layout as L
from meeplezoo.envs.asian_delivery import round_end
from meeplezoo.envs.asian_delivery.board import (
    DISTANCE,
    DISTRICT_NEIGHBOURS,
    PORT,
    PORT_TOUCH,
    POSITION_NAMES,
    port_position,
)
from meeplezoo.envs.asian_delivery.data import (
    COIN_VP,
    COINS_BY_DISTANCE,
    DAILIES,
    DISTRICTS,
    REQUESTS,
    SHARED_DAILIES,
)
from meeplezoo.envs.asian_delivery.game import AsianDeliveryGame
from tests.asian_delivery.helpers import (
    COMPANY,
    act,
    clear_warehouses,
    finish_round,
    legal,
    place_gained_at_port,
    reserve,
    set_market,
    set_wh,
    spend_workers,
    started,
    vp,
    wh,
    workers,
)

POS = {name: i for i, name in enumerate(POSITION_NAMES)}


def decision(s) -> str:
    return s.decision_name()


def terminal_district(s, want: bool) -> int:
    return next(d for d in range(9) if DISTRICTS[s.v[L.I_DISTRICT_AT + d]].terminal == want)


def stocked_state(n=4, seed=0, **options):
    """Started game where player 0 holds nothing (tests then add what they need)."""
    s = started(n, seed, **options)
    clear_warehouses(s, 0)
    return s


# -- set-up ------------------------------------------------------------------------------------
def test_rule_city_diamond_hex_adjacency():
    assert set(DISTRICT_NEIGHBOURS[POS["N"]]) == {POS["NW"], POS["NE"]}
    assert set(DISTRICT_NEIGHBOURS[POS["C"]]) == {
        POS[x] for x in ("NW", "NE", "W", "E", "SW", "SE")
    }
    assert set(DISTRICT_NEIGHBOURS[POS["W"]]) == {POS["NW"], POS["C"], POS["SW"]}
    assert set(DISTRICT_NEIGHBOURS[POS["S"]]) == {POS["SW"], POS["SE"]}
    for a, neigh in enumerate(DISTRICT_NEIGHBOURS):
        for b in neigh:
            assert a in DISTRICT_NEIGHBOURS[b]


def test_rule_city_districts_placed_at_random():
    layouts = {
        tuple(AsianDeliveryGame(3).new_initial_state(seed).v[L.I_DISTRICT_AT : L.I_DISTRICT_AT + 9])
        for seed in range(10)
    }
    assert len(layouts) > 5
    for layout in layouts:
        assert sorted(layout) == list(range(9))


def test_rule_port_priority_position_avoids_terminals():
    no_terminal = [False] * 9
    assert port_position(no_terminal) == 0  # figure position 1
    t = list(no_terminal)
    t[POS["N"]] = True  # blocks 1 (N, NE) and 10
    assert port_position(t) == 1  # position 2 touches NE and E
    t[POS["E"]] = True  # blocks 2, 3, 4
    assert port_position(t) == 4  # position 5 touches S and SE
    for seed in range(40):
        s = AsianDeliveryGame(4).new_initial_state(seed)
        pos = s.v[L.I_PORT_POS]
        terminal = [DISTRICTS[s.v[L.I_DISTRICT_AT + d]].terminal for d in range(9)]
        assert not any(terminal[d] for d in PORT_TOUCH[pos])
        for earlier in range(pos):
            assert any(terminal[d] for d in PORT_TOUCH[earlier])


def test_rule_step_bonus_distance_is_shortest_path():
    # port at figure position 3 touches E only
    assert DISTANCE[2][POS["E"]] == 1
    assert DISTANCE[2][POS["C"]] == 2 and DISTANCE[2][POS["NE"]] == 2
    assert DISTANCE[2][POS["W"]] == 3 and DISTANCE[2][POS["N"]] == 3
    assert DISTANCE[2][PORT] == 0
    s = started()
    for d in range(9):
        assert s.v[L.G_POS_DISTANCE + d] == s.dist[d] == DISTANCE[s.v[L.I_PORT_POS]][d]


def test_rule_dailies_three_each_face_up_rest_removed():
    s = AsianDeliveryGame(5).new_initial_state(1)
    ids = [s.v[L.I_DAILY_ID + k] for k in range(15)]
    assert len(set(ids)) == 15 and all(0 <= d < len(DAILIES) for d in ids)
    for p in range(5):
        base = L.seat(p)
        assert list(s.v[base + L.S_DAILY_UP : base + L.S_DAILY_UP + 3]) == [1, 1, 1]


def test_rule_market_six_face_up_from_shuffled_deck():
    s = AsianDeliveryGame(4).new_initial_state(2)
    market = [s.v[L.I_MARKET + k] for k in range(6)]
    assert len(set(market)) == 6 and min(market) >= 0
    assert len(s.deck) == len(REQUESTS) - 6
    assert sorted(market + s.deck) == list(range(len(REQUESTS)))


def test_rule_company_choice_in_turn_order():
    s = AsianDeliveryGame(3).new_initial_state(0)
    assert decision(s) == "choose_company" and s.current_player() == 0
    act(s, "choose_company:okura")
    assert s.current_player() == 1
    assert "choose_company:okura" not in legal(s)
    act(s, "choose_company:jinkai")
    act(s, "choose_company:shippu")
    assert decision(s) == "main" and s.current_player() == 0
    assert [s.v[L.I_COMPANY_OF + p] for p in range(3)] == [
        COMPANY["okura"],
        COMPANY["jinkai"],
        COMPANY["shippu"],
    ]


def test_rule_starting_resources_three_in_port_five_in_reserve():
    s = started(4)
    for p in range(4):
        assert wh(s, p, PORT) == 3 and reserve(s, p) == 5
        assert sum(wh(s, p, d) for d in range(9)) == 0


def test_rule_three_workers_at_start():
    s = started(5)
    assert [workers(s, p) for p in range(5)] == [3] * 5


# -- the main phase ----------------------------------------------------------------------------
def test_rule_worker_left_justified_slot_actions_and_gain():
    s = started(3)
    act(s, "place_worker:upgrade")  # slot 1: 1 action + 2 base
    assert reserve(s, 0) == 7 and decision(s) == "place_base"
    act(s, "put_base@port", "put_base@port", "keep_in_reserve")
    assert s.v[L.G_ACTIONS_LEFT] == 1 and decision(s) == "upgrade"
    act(s, "skip")
    act(s, "place_worker:upgrade")  # player 1, slot 2: 2 actions + 1 base
    assert reserve(s, 1) == 6
    act(s, "put_base@port", "keep_in_reserve")
    assert s.v[L.G_ACTIONS_LEFT] == 2
    act(s, "skip")
    act(s, "place_worker:upgrade")  # player 2, slot 3: 3 actions, no base
    assert reserve(s, 2) == 5
    act(s, "keep_in_reserve")
    assert s.v[L.G_ACTIONS_LEFT] == 3
    assert workers(s, 2) == 2


def test_rule_no_voluntary_pass_while_a_worker_is_left():
    s = started(3)
    turns = 0
    while decision(s) == "main":
        assert workers(s, s.current_player()) > 0
        assert legal(s) == {"place_worker:fulfil", "place_worker:transport", "place_worker:upgrade"}
        act(s, "place_worker:transport")
        turns += 1
        place_gained_at_port(s)
        if decision(s) == "transport_from":
            act(s, "skip")
    assert turns == 3 * 3  # the round ends only when every worker is placed
    assert decision(s) == "grow_track"


def test_rule_no_worker_left_must_pass():
    s = started(3)
    s.v[L.seat(1) + L.S_WORKERS] = 0
    act(s, "place_worker:upgrade")
    place_gained_at_port(s)
    act(s, "skip")
    assert s.current_player() == 2
    assert s.v[L.seat(1) + L.S_PASSED] == 1


def test_rule_passed_player_takes_no_more_turns_this_round():
    s = started(3)
    s.v[L.seat(0) + L.S_WORKERS] = 1
    act(s, "place_worker:upgrade")
    place_gained_at_port(s)
    act(s, "skip")
    turns = []
    while decision(s) != "grow_track":
        if decision(s) == "main":
            turns.append(s.current_player())
        s.apply(s.legal_actions()[0])
    assert 0 not in turns and s.v[L.seat(0) + L.S_PASSED] == 1
    assert turns == [1, 2] * 3


def test_rule_main_phase_ends_when_everybody_passed():
    s = started(3)
    spend_workers(s)
    assert decision(s) == "grow_track" and s.v[L.I_ROUND] == 0


def test_rule_place_gained_base_any_number_into_port():
    s = stocked_state()
    act(s, "place_worker:transport")
    assert reserve(s, 0) == 2
    assert legal(s) == {"put_base@port", "put_rest@port"}
    act(s, "put_base@port", "put_base@port")
    assert wh(s, 0, PORT) == 2 and reserve(s, 0) == 0
    assert decision(s) == "transport_from"


def test_rule_gained_base_all_placed_before_actions_only_setup_base_may_wait():
    s = started(3)  # 5 set-up base in the reserve
    red = s.colour_positions[0][0]
    set_wh(s, 0, red, "base", 1)
    act(s, "place_worker:transport")  # slot 1: +2 base
    assert reserve(s, 0) == 7 and "keep_in_reserve" not in legal(s)
    act(s, f"put_base@{POSITION_NAMES[red]}")  # the first gained base
    assert decision(s) == "place_base" and "keep_in_reserve" not in legal(s)
    act(s, "put_base@port")  # the second: now only the 5 set-up base remain
    assert reserve(s, 0) == 5 and "keep_in_reserve" in legal(s)
    act(s, "keep_in_reserve")
    assert decision(s) == "transport_from" and reserve(s, 0) == 5
    s.check_invariants()
    act(s, "skip")
    act(s, "place_worker:transport")  # player 1, slot 2: +1 base
    assert "keep_in_reserve" not in legal(s)
    act(s, "put_rest@port")  # the whole reserve, set-up base included
    assert reserve(s, 1) == 0 and wh(s, 1, PORT) == 3 + 6
    assert decision(s) == "transport_from"


def test_rule_place_base_only_where_already_stocked():
    s = stocked_state()
    d, e = 0, 8
    set_wh(s, 0, d, "red", 1)
    act(s, "place_worker:transport")
    names = legal(s)
    assert f"put_base@{POSITION_NAMES[d]}" in names
    assert f"put_base@{POSITION_NAMES[e]}" not in names


def test_rule_place_base_one_per_district_plus_one_with_terminal():
    s = stocked_state()
    t, plain = terminal_district(s, True), terminal_district(s, False)
    set_wh(s, 0, t, "base", 1)
    set_wh(s, 0, plain, "base", 1)
    s.v[L.seat(0) + L.S_TRACK] = 6  # room is not the limit here
    s.v[L.seat(0) + L.S_RESERVE] = 5
    s.v[L.I_RECEIVED] += 5
    act(s, "place_worker:transport")
    act(s, f"put_base@{POSITION_NAMES[plain]}")
    assert f"put_base@{POSITION_NAMES[plain]}" not in legal(s)
    act(s, f"put_base@{POSITION_NAMES[t]}", f"put_base@{POSITION_NAMES[t]}")
    assert f"put_base@{POSITION_NAMES[t]}" not in legal(s)
    assert wh(s, 0, t) == 3 and wh(s, 0, plain) == 2


def test_rule_place_base_never_above_warehouse_capacity():
    s = stocked_state()
    t = terminal_district(s, True)
    set_wh(s, 0, t, "base", 2)  # capacity 3 (warehouse level at start)
    act(s, "place_worker:transport")
    act(s, f"put_base@{POSITION_NAMES[t]}")
    assert wh(s, 0, t) == 3
    assert f"put_base@{POSITION_NAMES[t]}" not in legal(s)  # full, terminal or not


def test_rule_reserve_placed_later_like_gained_base():
    s = started(3)
    s.v[L.G_OCCUPANCY + 2] = 2  # two workers already on the upgrade card
    s.v[L.I_SLOT_OWNER + 6] = 1
    s.v[L.I_SLOT_OWNER + 7] = 2
    act(s, "place_worker:upgrade")  # slot 3: nothing gained, the set-up base may wait
    assert decision(s) == "place_base" and "keep_in_reserve" in legal(s)
    act(s, "keep_in_reserve", "skip")
    assert reserve(s, 0) == 5
    for _ in range(2):  # players 1 and 2
        act(s, "place_worker:fulfil")
        place_gained_at_port(s)
        if decision(s) == "choose_request":
            act(s, "skip")
    act(s, "place_worker:upgrade")  # slot 1 (the card was cleared): +2
    assert reserve(s, 0) == 7 and decision(s) == "place_base"
    act(s, "put_rest@port")
    assert reserve(s, 0) == 0 and wh(s, 0, PORT) == 3 + 7


def test_rule_fulfil_market_request_in_district_of_its_colour():
    s = stocked_state()
    set_market(s, 0, "Bridge Repair")  # red, 2 base, 2 VP
    red = s.colour_positions[0][0]
    blue = s.colour_positions[1][0]
    set_wh(s, 0, red, "base", 2)
    set_wh(s, 0, blue, "base", 2)
    act(s, "place_worker:fulfil", "put_rest@port")
    assert "fulfil:market_slot:0" in legal(s)
    act(s, "fulfil:market_slot:0")
    assert legal(s) == {f"at@{POSITION_NAMES[red]}"}


def test_rule_fulfil_unpayable_request_cannot_be_chosen():
    s = stocked_state()
    set_market(s, 0, "Harbour Crane")  # red: 2 base + 2 red
    set_market(s, 1, "Bridge Repair")  # red: 2 base
    red = s.colour_positions[0][0]
    set_wh(s, 0, red, "base", 3)
    act(s, "place_worker:fulfil", "put_rest@port")
    assert decision(s) == "choose_request"
    assert "fulfil:market_slot:0" not in legal(s)
    assert "fulfil:market_slot:1" in legal(s)


def test_rule_fulfil_advanced_resources_of_the_card_colour():
    s = stocked_state()
    set_market(s, 0, "Canal Lock")  # red: 1 base + 1 red
    red = s.colour_positions[0][0]
    set_wh(s, 0, red, "base", 1)
    set_wh(s, 0, red, "blue", 1)
    set_wh(s, 0, PORT, "base", 3)  # dailies payable, so the action is not wasted
    act(s, "place_worker:fulfil", "put_rest@port")
    assert decision(s) == "choose_request"
    assert "fulfil:market_slot:0" not in legal(s)
    s2 = stocked_state()
    set_market(s2, 0, "Canal Lock")
    set_wh(s2, 0, red, "base", 1)
    set_wh(s2, 0, red, "red", 1)
    act(s2, "place_worker:fulfil", "put_rest@port", "fulfil:market_slot:0")
    act(s2, f"at@{POSITION_NAMES[red]}")
    assert wh(s2, 0, red) == 0 and wh(s2, 0, red, "red") == 0


def test_rule_fulfil_scores_vp_plus_steps_plus_own_markers():
    s = stocked_state()
    set_market(s, 0, "Tea House Roof")  # red, 3 base, 3 VP
    red = s.colour_positions[0][0]
    set_wh(s, 0, red, "base", 3)
    s.v[L.seat(0) + L.S_MARKERS + red] = 2
    s.v[L.seat(0) + L.S_MARKERS_ON_BOARD] -= 2
    s.v[L.seat(0) + L.S_TRACK_MARKERS] -= 2  # taken from the warehouse track
    s.v[L.I_TRACK_STEP] += 2
    s.v[L.seat(0) + L.S_TRACK] = 5
    s.v[L.seat(0) + L.S_TRACK_NEXT] = 6
    s.v[L.seat(1) + L.S_MARKERS + red] = 1  # another player's marker does not count
    act(s, "place_worker:fulfil", "put_rest@port", "fulfil:market_slot:0")
    act(s, f"at@{POSITION_NAMES[red]}")
    assert vp(s, 0) == 3 + s.dist[red] + 2
    breakdown = s.score_breakdown()[0]
    assert breakdown["step_bonus"] == s.dist[red] and breakdown["interest_bonus"] == 2
    assert wh(s, 0, red) == 0


def test_rule_fulfilled_market_card_goes_to_completed_and_market_refills():
    s = stocked_state()
    cid = set_market(s, 0, "Bridge Repair")
    red = s.colour_positions[0][0]
    set_wh(s, 0, red, "base", 2)
    top = s.deck[-1]
    act(s, "place_worker:fulfil", "put_rest@port", "fulfil:market_slot:0")
    act(s, f"at@{POSITION_NAMES[red]}")
    assert s.completed[0] == [cid]
    assert s.v[L.seat(0) + L.S_COMPLETED + 0] == 1
    assert s.v[L.I_MARKET + 0] == top and len(s.deck) == 33


def test_rule_daily_fulfilled_in_any_area_then_face_down_until_round_end():
    s = stocked_state(3)
    base = L.seat(0)
    need = s.v[base + L.S_DAILY_BASE]
    set_wh(s, 0, PORT, "base", need)
    set_wh(s, 0, 4, "base", need)
    act(s, "place_worker:fulfil", "put_rest@port", "fulfil:daily:0")
    assert {"at@port", "at@C"} <= legal(s)
    act(s, "at@port")
    assert s.v[base + L.S_DAILY_UP] == 0
    assert vp(s, 0) == s.v[base + L.S_DAILY_VP]  # the port is 0 steps away
    set_wh(s, 0, PORT, "base", 3)
    for _ in range(2):  # players 1 and 2 place elsewhere
        act(s, "place_worker:transport")
        place_gained_at_port(s)
        act(s, "skip")
    act(s, "place_worker:fulfil", "put_rest@port")
    assert decision(s) == "choose_request"
    assert "fulfil:daily:0" not in legal(s)
    act(s, "skip")
    finish_round(s)
    assert s.v[base + L.S_DAILY_UP] == 1


def test_rule_market_refill_reshuffles_discards_when_deck_empty():
    s = stocked_state()
    cid = set_market(s, 0, "Bridge Repair")
    red = s.colour_positions[0][0]
    set_wh(s, 0, red, "base", 2)
    s.discard, s.deck = s.deck, []
    s.v[L.G_DECK], s.v[L.G_DISCARD] = 0, len(s.discard)
    act(s, "place_worker:fulfil", "put_rest@port", "fulfil:market_slot:0")
    act(s, f"at@{POSITION_NAMES[red]}")
    assert s.v[L.I_MARKET] >= 0 and s.v[L.I_MARKET] != cid
    assert s.discard == [] and len(s.deck) == 33
    s.check_invariants()


def test_rule_market_not_refilled_without_deck_or_discards():
    s = stocked_state()
    set_market(s, 0, "Bridge Repair")
    red = s.colour_positions[0][0]
    set_wh(s, 0, red, "base", 2)
    s.deck = []
    s.v[L.G_DECK] = 0
    act(s, "place_worker:fulfil", "put_rest@port", "fulfil:market_slot:0")
    act(s, f"at@{POSITION_NAMES[red]}")
    assert s.v[L.I_MARKET] == -1 and s.v[L.G_MARKET_PRESENT] == 0


def test_rule_transport_to_adjacent_area_only():
    s = stocked_state()
    set_wh(s, 0, PORT, "base", 3)
    act(s, "place_worker:transport", "put_rest@port")
    assert legal(s) == {"transport_from@port", "skip"}
    act(s, "transport_from@port")
    assert legal(s) == {f"transport_to@{POSITION_NAMES[d]}" for d in s.neigh[PORT]}


def test_rule_transport_moves_up_to_transport_capacity():
    s = stocked_state()
    set_wh(s, 0, PORT, "base", 3)  # + the 2 gained base = 5
    d = s.neigh[PORT][0]
    act(s, "place_worker:transport", "put_rest@port", "transport_from@port")
    act(s, f"transport_to@{POSITION_NAMES[d]}", "transport_kind:base")
    assert decision(s) == "transport_kind" and "transport_done" in legal(s)
    act(s, "transport_kind:base")  # capacity 2 reached: the action ends
    assert wh(s, 0, d) == 2 and wh(s, 0, PORT) == 3
    assert s.current_player() == 1  # slot 1 had one action


def test_rule_transport_done_stops_early():
    s = stocked_state()
    set_wh(s, 0, PORT, "base", 5)
    d = s.neigh[PORT][0]
    act(s, "place_worker:transport", "put_rest@port", "transport_from@port")
    act(s, f"transport_to@{POSITION_NAMES[d]}")
    assert "transport_done" not in legal(s)  # at least one resource moves
    act(s, "transport_kind:base", "transport_done")
    assert wh(s, 0, d) == 1 and s.current_player() == 1


def test_rule_transport_respects_capacity_port_uncapped():
    s = stocked_state()
    d = s.neigh[PORT][0]
    set_wh(s, 0, PORT, "base", 5)
    set_wh(s, 0, d, "base", 3)  # full (capacity 3)
    act(s, "place_worker:transport", "put_rest@port", "transport_from@port")
    assert f"transport_to@{POSITION_NAMES[d]}" not in legal(s)
    s2 = stocked_state()
    set_wh(s2, 0, d, "base", 3)
    set_wh(s2, 0, PORT, "base", 18)  # + the 2 gained base = 20
    act(s2, "place_worker:transport", "put_rest@port", f"transport_from@{POSITION_NAMES[d]}")
    assert "transport_to@port" in legal(s2)
    act(s2, "transport_to@port", "transport_kind:base", "transport_kind:base")
    assert wh(s2, 0, PORT) == 22
    s3 = stocked_state()
    set_wh(s3, 0, PORT, "base", 5)
    set_wh(s3, 0, d, "base", 2)  # room for one only
    act(s3, "place_worker:transport", "put_rest@port", "transport_from@port")
    act(s3, f"transport_to@{POSITION_NAMES[d]}", "transport_kind:base")
    assert wh(s3, 0, d) == 3 and s3.current_player() == 1  # ended: destination full


def test_rule_upgrade_exchanges_port_base_for_advanced():
    s = stocked_state()
    act(s, "place_worker:upgrade", "put_rest@port", "upgrade:green")  # the 2 gained base
    assert wh(s, 0, PORT) == 1 and wh(s, 0, PORT, "green") == 1


def test_rule_upgrades_of_one_placement_share_a_colour():
    s = stocked_state()
    set_wh(s, 0, PORT, "base", 5)
    s.v[L.G_OCCUPANCY + 2] = 2  # two workers already on the upgrade card
    s.v[L.I_SLOT_OWNER + 6] = 1
    s.v[L.I_SLOT_OWNER + 7] = 2
    act(s, "place_worker:upgrade")  # slot 3: no base gained, the reserve is empty
    assert s.v[L.G_ACTIONS_LEFT] == 3
    act(s, "upgrade:blue")
    assert legal(s) == {"upgrade:blue", "skip"}
    act(s, "upgrade:blue", "upgrade:blue")
    assert wh(s, 0, PORT, "blue") == 3 and wh(s, 0, PORT) == 2


def test_rule_skip_forgoes_remaining_actions():
    s = stocked_state()
    set_wh(s, 0, PORT, "base", 5)
    s.v[L.G_OCCUPANCY + 2] = 2
    s.v[L.I_SLOT_OWNER + 6] = 1
    s.v[L.I_SLOT_OWNER + 7] = 2
    act(s, "place_worker:upgrade", "upgrade:red", "skip")
    assert wh(s, 0, PORT, "red") == 1 and s.current_player() == 1


def test_rule_impossible_action_is_wasted():
    s = stocked_state()  # player 0 holds nothing at all
    s.v[L.G_OCCUPANCY + 2] = 2  # two workers already on the upgrade card
    s.v[L.I_SLOT_OWNER + 6] = 1
    s.v[L.I_SLOT_OWNER + 7] = 2
    act(s, "place_worker:upgrade")  # slot 3: no base, nothing at the port: all wasted
    assert s.current_player() == 1 and workers(s, 0) == 2


def test_rule_full_action_card_sends_all_its_workers_to_stock():
    s = started(3)
    for _ in range(3):
        act(s, "place_worker:upgrade")
        place_gained_at_port(s)
        act(s, "skip")
    assert s.v[L.G_OCCUPANCY + 2] == 0
    assert [s.v[L.I_SLOT_OWNER + 6 + k] for k in range(3)] == [-1, -1, -1]
    assert [workers(s, p) for p in range(3)] == [2, 2, 2]  # not back to the players
    act(s, "place_worker:upgrade")
    assert reserve(s, 0) == 5 + 2  # slot 1 again


# -- round end ---------------------------------------------------------------------------------
def test_rule_round_end_refills_workers_dailies_and_port():
    s = stocked_state(3)
    set_wh(s, 0, PORT, "base", 3)
    s.v[L.seat(0) + L.S_WORKERS] = 1  # player 0's last placement of the round
    s.v[L.seat(1) + L.S_WORKERS] = s.v[L.seat(2) + L.S_WORKERS] = 0
    act(s, "place_worker:fulfil", "put_rest@port", "fulfil:daily:0", "at@port")
    port_at_main_end = 3 + 2 - s.v[L.seat(0) + L.S_DAILY_BASE]
    assert decision(s) == "grow_track"  # refill happens before growth (body rules)
    assert [workers(s, p) for p in range(3)] == [3, 3, 3]
    assert s.v[L.seat(0) + L.S_DAILY_UP] == 1
    assert s.v[L.G_OCCUPANCY] == 0
    assert wh(s, 0, PORT) == port_at_main_end + 2  # stock level 2
    port_before = wh(s, 0, PORT)
    finish_round(s)
    assert wh(s, 0, PORT) == port_before


def test_rule_growth_one_marker_until_interim_then_two():
    s = started(3)
    for rnd in range(5):
        spend_workers(s)
        assert s.v[L.G_GROW_LEFT] == (1 if rnd < 3 else 2)
        finish_round(s)
    total_left = [s.v[L.seat(p) + L.S_MARKERS_ON_BOARD] for p in range(3)]
    assert total_left == [11 - 7] * 3


def test_rule_growth_marker_connected_to_port_through_own_markers():
    s = started(3)
    spend_workers(s)
    act(s, "grow:warehouse")
    adjacent = {f"marker@{POSITION_NAMES[d]}" for d in s.neigh[PORT]}
    assert legal(s) == adjacent
    first = s.neigh[PORT][0]
    act(s, f"marker@{POSITION_NAMES[first]}")
    finish_round(s)
    spend_workers(s)
    # round 2 ends: growth starts from the new start player (1); get to player 0
    while s.current_player() != 0:
        s.apply(s.legal_actions()[0])
    act(s, "grow:warehouse")
    expected = adjacent | {f"marker@{POSITION_NAMES[first]}"} | {
        f"marker@{POSITION_NAMES[d]}" for d in s.neigh[first] if d != PORT
    }
    assert legal(s) == expected


def test_rule_worker_track_only_after_another_track_is_empty():
    s = started(3, companies=["jinkai", "okura", "shippu"])  # jinkai: transport track of 1
    spend_workers(s)
    assert "grow:workers" not in legal(s)
    act(s, "grow:transport")
    s.apply(s.legal_actions()[0])
    assert s.v[L.seat(0) + L.S_TRACK_MARKERS + 1] == 0
    finish_round(s)
    spend_workers(s)
    while s.current_player() != 0:
        s.apply(s.legal_actions()[0])
    assert "grow:workers" in legal(s)


def test_rule_growth_raises_the_track_value():
    s = started(3, companies=["okura", "jinkai", "shippu"])
    spend_workers(s)
    act(s, "grow:warehouse")
    base = L.seat(0)
    assert s.v[base + L.S_TRACK] == 4 and s.v[base + L.S_TRACK_NEXT] == 5
    assert s.v[base + L.S_TRACK_MARKERS] == 4


def test_rule_growth_in_order_from_start_player_then_start_passes_left():
    s = started(3)
    finish_round(s)  # round 1: start player 0
    assert s.v[L.I_START] == 1 and s.current_player() == 1
    spend_workers(s)
    order = []
    while decision(s) in ("grow_track", "grow_marker"):
        if decision(s) == "grow_track":
            order.append(s.current_player())
        s.apply(s.legal_actions()[0])
    assert order == [1, 2, 0]
    assert s.v[L.I_START] == 2 and s.current_player() == 2


def test_rule_worker_growth_pays_from_the_next_refill():
    s = started(3, companies=["jinkai", "okura", "shippu"])
    spend_workers(s)
    act(s, "grow:transport")  # empties jinkai's one-marker transport track
    s.apply(s.legal_actions()[0])
    finish_round(s)
    spend_workers(s)
    while s.current_player() != 0 or decision(s) != "grow_track":
        s.apply(s.legal_actions()[0])
    act(s, "grow:workers")
    assert s.v[L.seat(0) + L.S_TRACK + 3] == 4
    assert workers(s, 0) == 3  # refilled before growing
    s.apply(s.legal_actions()[0])
    finish_round(s)
    spend_workers(s)
    assert workers(s, 0) == 4  # the next round end refills to 4


def round_6_growth(s) -> None:
    """From a game's start: play to the end of round 6's main phase."""
    for _ in range(5):
        finish_round(s)
    assert s.v[L.I_ROUND] == 5
    spend_workers(s)


def test_rule_growth_happens_after_round_6_before_final_settlement():
    s = started(3)
    for _ in range(5):
        finish_round(s)
    x = s.neigh[PORT][0]  # every player's 7 markers so far, moved onto one district
    for p in range(3):
        for d in range(9):
            s.v[L.seat(p) + L.S_MARKERS + d] = 7 if d == x else 0
    spend_workers(s)
    assert not s.is_terminal() and decision(s) == "grow_track"
    assert s.v[L.G_GROW_LEFT] == 2 and s.current_player() == 2  # round 6's start player
    # player 2 spreads its two markers; players 0 and 1 add theirs to x
    spread = sorted({n for n in s.neigh[x] if n != PORT} | (set(s.neigh[PORT]) - {x}))[:2]
    for d in spread + [x] * 4:
        s.apply(s.legal_actions()[0])  # any track
        act(s, f"marker@{POSITION_NAMES[d]}")
    assert s.is_terminal()
    assert [s.v[L.seat(p) + L.S_MARKERS_ON_BOARD] for p in range(3)] == [11 - 9] * 3
    # x: 9, 9, 7 -> players 0 and 1; the two spread districts -> player 2 (without
    # the last growth every player would have tied on x: 3 VP each)
    district_vp = [row["district_majority"] for row in s.score_breakdown()]
    assert district_vp == [3, 3, 6]


def test_rule_no_refill_after_round_6():
    for growth_first in (False, True):
        s = started(3, growth_before_refill=growth_first)
        round_6_growth(s)
        ports = [wh(s, p, PORT) for p in range(3)]
        assert [workers(s, p) for p in range(3)] == [0, 0, 0]
        while not s.is_terminal():
            s.apply(s.legal_actions()[0])
        assert [wh(s, p, PORT) for p in range(3)] == ports
        assert [workers(s, p) for p in range(3)] == [0, 0, 0]


# -- settlements -------------------------------------------------------------------------------
def set_completed(s, counts_per_player):
    for p, counts in enumerate(counts_per_player):
        for c, x in enumerate(counts):
            s.v[L.seat(p) + L.S_COMPLETED + c] = x


def test_rule_interim_settlement_after_round_3():
    s = started(3)
    for _ in range(2):
        finish_round(s)
    set_completed(s, [[2, 0, 0, 0], [1, 0, 0, 0], [0, 0, 0, 0]])
    before = [vp(s, p) for p in range(3)]
    finish_round(s)
    gained = [vp(s, p) - before[p] for p in range(3)]
    assert gained[:2] == [3, 1]
    assert s.score_breakdown()[0]["interim_majority"] == 3


def test_rule_majority_first_and_second():
    s = started(4)
    set_completed(s, [[3, 0, 0, 0], [2, 0, 0, 0], [2, 0, 0, 0], [1, 0, 0, 0]])
    round_end.colour_majority(s, (3, 1), round_end.CAT_INTERIM)
    assert [vp(s, p) for p in range(4)] == [3, 1, 1, 0]  # tied seconds all score


def test_rule_majority_tied_firsts_all_score_and_no_second():
    s = started(4)
    set_completed(s, [[2, 0, 0, 0], [2, 0, 0, 0], [1, 0, 0, 0], [0, 0, 0, 0]])
    round_end.colour_majority(s, (6, 3), round_end.CAT_FINAL)
    assert [vp(s, p) for p in range(4)] == [6, 6, 0, 0]


def test_rule_majority_needs_at_least_one_card():
    s = started(3)
    set_completed(s, [[0, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    round_end.colour_majority(s, (3, 1), round_end.CAT_INTERIM)
    assert [vp(s, p) for p in range(3)] == [3, 0, 0]


def place_district_markers(s) -> None:
    """Interest markers only in district 0 (player 0: 2, player 1: 1) and district 3
    (players 1 and 2: 1 each), so district 0 goes to player 0 and 3 is shared."""
    for p in range(3):
        for d in range(9):
            s.v[L.seat(p) + L.S_MARKERS + d] = 0
    s.v[L.seat(0) + L.S_MARKERS + 0] = 2
    s.v[L.seat(1) + L.S_MARKERS + 0] = 1
    s.v[L.seat(1) + L.S_MARKERS + 3] = 1
    s.v[L.seat(2) + L.S_MARKERS + 3] = 1


def test_rule_final_settlement_colours_and_district_majority():
    s = started(3)
    for _ in range(5):
        finish_round(s)
    set_completed(s, [[1, 0, 0, 0], [0, 2, 0, 0], [0, 0, 0, 0]])
    place_district_markers(s)
    before = [vp(s, p) for p in range(3)]
    round_end.final_settlement(s)  # as after round 6's growth
    assert s.is_terminal()
    gained = [vp(s, p) - before[p] for p in range(3)]
    # colours: red 6 to player 0, blue 6 to player 1; districts: 0 -> player 0, 3 -> 1 and 2
    assert gained == [6 + 3, 6 + 3, 3]
    breakdown = s.score_breakdown()
    assert breakdown[2]["district_majority"] == 3


def test_rule_tie_break_more_completed_requests():
    s = started(3)
    for p in range(3):
        s.v[L.seat(p) + L.S_VP] = 10
    s.v[L.seat(1) + L.S_COMPLETED_TOTAL] = 2
    keys = s.rank_keys()
    assert keys[1] > keys[0] and keys[0] == keys[2]


def test_rule_full_tie_is_a_draw():
    from meeplezoo.envs.core.rewards import places

    s = started(3)
    for p in range(3):
        s.v[L.seat(p) + L.S_VP] = 10
    assert places(s.rank_keys()) == [1.0, 1.0, 1.0]


def test_rule_scores_before_the_end_are_as_if_it_ended_now():
    """``scores()`` mid-game plays the final settlement on a copy (colour and district
    majorities count at once, as reward shaping needs); the game itself is untouched,
    and at the end the scores are the banked VP."""
    s = started(3)
    finish_round(s)  # round 2: no interim settlement yet, and none is projected
    set_completed(s, [[2, 0, 0, 0], [1, 2, 0, 0], [0, 0, 0, 0]])
    place_district_markers(s)
    banked = [vp(s, p) for p in range(3)]
    saved, moves = s.to_dict(), s.legal_actions()
    seen = [s.observation(p) for p in range(3)]
    ended = s.clone()
    round_end.final_settlement(ended)
    assert s.scores() == [float(vp(ended, p)) for p in range(3)]
    # red 6 / 3 to players 0 / 1, blue 6 to player 1; district 0 -> 0, district 3 -> 1 and 2
    assert [sc - b for sc, b in zip(s.scores(), banked)] == [6 + 3, 3 + 6 + 3, 3]
    parts = s.score_breakdown()
    assert [row["final_majority"] for row in parts] == [6, 9, 0]
    assert [row["district_majority"] for row in parts] == [3, 3, 3]
    assert all(row["interim_majority"] == 0 for row in parts)
    assert all(sum(v for k, v in row.items() if k != "total") == row["total"] == sc
               for row, sc in zip(parts, s.scores()))
    assert s.to_dict() == saved and s.legal_actions() == moves and not s.is_terminal()
    assert all(np.array_equal(s.observation(p), seen[p]) for p in range(3))
    assert [key[0] for key in s.rank_keys()] == banked  # ranks stay on the banked VP
    while not s.is_terminal():
        s.apply(s.legal_actions()[0])
    assert s.scores() == [float(vp(s, p)) for p in range(3)]
    assert [key[0] for key in s.rank_keys()] == [vp(s, p) for p in range(3)]


# -- variants ----------------------------------------------------------------------------------
def test_variant_growth_before_refill_uses_new_levels_at_once():
    s = started(3, companies=["jinkai", "okura", "shippu"], growth_before_refill=True)
    spend_workers(s)
    port = wh(s, 0, PORT)
    assert workers(s, 0) == 0  # no refill yet
    act(s, "grow:stock")
    s.apply(s.legal_actions()[0])
    while decision(s) != "main":
        s.apply(s.legal_actions()[0])
    assert wh(s, 0, PORT) == port + 3  # the grown stock level (2 -> 3) is refilled


def test_variant_distance_coins_fixed_port_and_coins_replace_steps():
    for seed in range(10):
        s = AsianDeliveryGame(3, distance_coins=True).new_initial_state(seed)
        assert s.v[L.I_PORT_POS] == 0
        for d in range(9):
            assert s.v[L.G_POS_COINS + d] == COINS_BY_DISTANCE[s.dist[d]]
    s = stocked_state(3, distance_coins=True)
    set_market(s, 0, "Bridge Repair")
    red = s.colour_positions[0][0]
    set_wh(s, 0, red, "base", 2)
    coins = s.v[L.G_POS_COINS + red]
    act(s, "place_worker:fulfil", "put_rest@port", "fulfil:market_slot:0")
    act(s, f"at@{POSITION_NAMES[red]}")
    assert vp(s, 0) == 2 + COIN_VP
    assert s.v[L.G_POS_COINS + red] == coins - 1
    assert s.score_breakdown()[0]["step_bonus"] == 0


def test_variant_distance_coins_run_out():
    s = stocked_state(3, distance_coins=True)
    set_market(s, 0, "Bridge Repair")
    red = s.colour_positions[0][0]
    set_wh(s, 0, red, "base", 2)
    s.v[L.G_POS_COINS + red] = 0
    act(s, "place_worker:fulfil", "put_rest@port", "fulfil:market_slot:0")
    act(s, f"at@{POSITION_NAMES[red]}")
    assert vp(s, 0) == 2


def test_variant_shared_port_dailies_only_at_port():
    s = stocked_state(4, shared_port_dailies=True)
    for p in range(4):
        ids = [s.v[L.I_DAILY_ID + p * 3 + k] for k in range(3)]
        assert ids == [0, 1, 2]
        assert [s.v[L.seat(p) + L.S_DAILY_BASE + k] for k in range(3)] == [
            d.base for d in SHARED_DAILIES
        ]
    set_wh(s, 0, 4, "base", 3)  # in a district: not usable for dailies
    s.v[L.G_OCCUPANCY + 0] = 2  # two workers already on the fulfil card: slot 3 gains nothing
    s.v[L.I_SLOT_OWNER + 0] = 1
    s.v[L.I_SLOT_OWNER + 1] = 2
    act(s, "place_worker:fulfil")
    assert not any(name.startswith("fulfil:daily") for name in legal(s))
    s = stocked_state(4, shared_port_dailies=True)
    set_wh(s, 0, PORT, "base", 3)
    set_wh(s, 0, 4, "base", 3)
    act(s, "place_worker:fulfil", "put_rest@port", "fulfil:daily:2")
    assert legal(s) == {"at@port"}
    act(s, "at@port")
    assert vp(s, 0) == SHARED_DAILIES[2].vp


def test_variant_random_companies_dealt_without_a_choice():
    deals = set()
    for seed in range(20):
        s = AsianDeliveryGame(5, random_companies=True).new_initial_state(seed)
        roles = s.seat_roles()
        assert sorted(roles) == sorted(COMPANY)  # each seat a distinct company, all 5 dealt
        assert decision(s) == "main" and s.current_player() == 0
        s.check_invariants()
        again = AsianDeliveryGame(5, random_companies=True).new_initial_state(seed)
        assert again.seat_roles() == roles  # deterministic for a seed
        deals.add(tuple(roles))
    assert len(deals) > 1  # different seeds, different deals
    seen = set()
    for seed in range(20):
        s = AsianDeliveryGame(3, random_companies=True).new_initial_state(seed)
        roles = s.seat_roles()
        assert len(set(roles)) == 3 and "-" not in roles
        seen.update(roles)
        # exactly the position reached by choosing the same companies in seat order
        chosen = started(3, seed, companies=roles)
        assert s.v == chosen.v
        assert np.array_equal(s.observation(1), chosen.observation(1))
    assert seen == set(COMPANY)  # every company, okura included, gets dealt
    s = AsianDeliveryGame(4, random_companies=True).new_initial_state(7)
    rng = np.random.default_rng(0)
    while not s.is_terminal():  # no company decision is ever asked
        assert decision(s) != "choose_company"
        assert not any(name.startswith("choose_company") for name in legal(s))
        s.apply(int(rng.choice(s.legal_actions())))


# -- observation and render --------------------------------------------------------------------
def test_observation_is_egocentric_and_padded():
    game3, game5 = AsianDeliveryGame(3), AsianDeliveryGame(5)
    assert game3.feature_names() == game5.feature_names()
    s = started(3, companies=["okura", "jinkai", "shippu"])
    names = game3.feature_names()
    obs = s.observation(1)
    me = names.index("me.company[jinkai]")
    nxt = names.index("seat+1.company[shippu]")
    assert obs[me] == 1 and obs[nxt] == 1
    assert obs[names.index("seat+3.present")] == 0  # padding
    assert obs[names.index("decision[main]")] == 1


def test_observation_shows_growth_levels():
    s = started(3, companies=["okura", "jinkai", "shippu"])
    names = s.game.feature_names()
    obs = s.observation(0)
    assert np.isclose(obs[names.index("me.track_value[warehouse]")], 3 / 8)
    assert np.isclose(obs[names.index("me.track_markers_left[warehouse]")], 5 / 5)
    assert np.isclose(obs[names.index("company_track.end[okura:warehouse]")], 8 / 8)


def test_observation_hides_deck_order():
    s = started(4)
    other = s.resample_hidden(0, np.random.default_rng(5))
    assert np.array_equal(other.observation(0), s.observation(0))
    assert other.deck != s.deck and sorted(other.deck) == sorted(s.deck)


def test_render_draws_the_diamond_and_market():
    s = started(3)
    text = s.render()
    assert "[PORT]" in text and "Market" in text and "Action cards" in text
    lines = text.splitlines()
    header = re.compile(r"(^|\s)(N|C|S) \S+ (red|blue|yellow|green)")
    rows = {m.group(2): i for i, line in enumerate(lines) for m in header.finditer(line)}
    assert rows["N"] < rows["C"] < rows["S"]
