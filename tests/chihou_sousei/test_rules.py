"""One scenario test per rule of RULES.md (the test names are listed there)."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.chihou_sousei import ChihouSouseiGame
from meeplezoo.envs.chihou_sousei.actions import NUM_ACTIONS
from meeplezoo.envs.chihou_sousei.board import CELL_INDEX
from meeplezoo.envs.chihou_sousei.data import (
    BIG_CITIES,
    CARD_ID,
    CARD_KEYS,
    COLOUR,
    EVENT,
    EVENTS,
    NUM_CARDS,
    POWER,
)
from meeplezoo.envs.chihou_sousei.scoring import industry_scores, population_score, region_score
from meeplezoo.envs.core.agents import RandomBot
from meeplezoo.envs.core.rewards import places
from tests.chihou_sousei.positions import act, legal_names, position, tokens_at


def finish_round(state) -> None:
    """Play the rest of the round with the first legal action (skip bonuses)."""
    start_round = state.round
    while not state.is_terminal() and state.round == start_round:
        names = legal_names(state)
        if "skip" in names:
            act(state, "skip")
        else:
            state.apply(state.legal_actions()[0])


# -- components and set-up ---------------------------------------------------------


def test_rule_data_43_prefectures():
    assert NUM_CARDS == 43
    assert not {"tokyo", "osaka", "aichi", "fukuoka"} & set(CARD_KEYS)
    assert set(BIG_CITIES) == {"tokyo", "osaka", "aichi", "fukuoka"}
    assert sorted(COLOUR.count(c) for c in range(3)) == [14, 14, 15]
    assert set(POWER) == {1, 2, 3}
    assert 8 <= len(EVENTS) <= 12 and set(EVENT) == set(range(len(EVENTS)))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_rule_setup_big_city_16_tokens_and_stock(n):
    state = ChihouSouseiGame(n).new_initial_state(3)
    for s in range(n):
        assert state.cells[s] == [0] and state.tokens[s][0] == 16
    assert state.stock == 80 - 16 * n
    assert state.start == 0 and state.current_player() == 0  # Tokyo is easternmost
    assert state.decision_name() == "pick"


def test_rule_action_catalogue_fixed_size():
    sizes = {ChihouSouseiGame(n).num_actions() for n in (2, 3, 4)}
    assert sizes == {NUM_ACTIONS}
    game = ChihouSouseiGame()
    for name in (
        "pick:4",
        "place@(+8,+0)",
        "from@(+0,+0)",
        "to@(-1,+2)",
        "event@(+0,-8)",
        "tableau:+3",
        "increase",
        "skip",
    ):
        assert game.action_name(game.action_index(name)) == name


# -- planning phase ----------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_rule_draft_reveals_players_plus_one(n):
    state = ChihouSouseiGame(n).new_initial_state(5)
    assert len(state.row) == n + 1
    upcoming = state.deck[: n + 1]
    finish_round(state)
    assert state.row == upcoming  # revealed from the top, left to right


def test_rule_picks_clockwise_from_start_player():
    state = position(n=4, start=2)
    order = []
    while state.decision_name() != "place":
        if state.decision_name() == "pick":
            order.append(state.current_player())
            state.apply(state.legal_actions()[0])
        else:
            act(state, "skip")
    assert order == [2, 3, 0, 1]


def test_rule_rightmost_taker_gets_start_marker():
    state = position(n=3, start=0)
    act(state, "pick:0")  # seat 0
    act(state, "pick:3")  # seat 1 takes the rightmost card
    assert state.current_player() == 2
    act(state, "pick:1")  # seat 2, the last picker: its increase is automatic in round 1
    assert state.marker == 1
    finish_round(state)
    assert state.start == 1 and state.current_player() == 1


def test_rule_untaken_card_discarded():
    state = position(n=2, row=["akita", "iwate", "kyoto"])
    act(state, "pick:0", "pick:2")
    assert state.discard == [CARD_ID["iwate"]]
    assert state.decision_name() == "place"


def test_rule_start_passes_left_when_rightmost_untaken():
    state = position(n=4, start=2)
    rightmost = state.row[4]
    act(state, "pick:0", "pick:1", "pick:2", "pick:3")  # seat 1's increase is automatic
    assert state.marker == -1 and state.discard == [rightmost]
    finish_round(state)
    assert state.start == 3


def test_rule_first_picker_has_no_bonus():
    state = position(n=4, tableaus={s: [(1, 0, None, 0)] for s in range(4)}, rnd=1)
    act(state, "pick:0")
    assert state.decision_name() == "pick" and state.current_player() == 1


def test_rule_second_and_third_picker_forced_move_in_4p():
    state = position(n=4, rnd=1)
    act(state, "pick:0", "pick:1")
    assert state.decision_name() == "bonus" and state.current_player() == 1
    names = legal_names(state)
    assert "from@(+0,+0)" in names and "increase" not in names and "skip" in names
    act(state, "skip", "pick:2")
    assert state.decision_name() == "bonus" and state.current_player() == 2
    assert "increase" not in legal_names(state)
    act(state, "skip", "pick:3")
    assert state.decision_name() == "bonus" and state.current_player() == 3
    assert {"increase", "from@(+0,+0)", "skip"} <= legal_names(state)


def test_rule_third_picker_is_last_in_3p():
    state = position(n=3, rnd=1)
    act(state, "pick:0", "pick:1", "skip", "pick:2")
    assert state.current_player() == 2 and {"increase", "from@(+0,+0)"} <= legal_names(state)


def test_rule_two_player_second_picker_is_last():
    state = position(n=2, rnd=1)
    act(state, "pick:0", "pick:1")
    assert state.current_player() == 1 and {"increase", "from@(+0,+0)"} <= legal_names(state)


def test_rule_last_picker_forced_move_and_increase():
    state = position(n=4, rnd=1)
    act(state, "pick:0", "pick:1", "skip", "pick:2", "skip", "pick:3")
    stock = state.stock
    act(state, "increase")
    assert state.tokens[3][0] == 17 and state.stock == stock - 1
    assert legal_names(state) >= {"from@(+0,+0)", "skip"} and "increase" not in legal_names(state)
    act(state, "from@(+0,+0)", "to@(-1,+0)")
    assert state.tokens[3][0] == 16 and tokens_at(state, 3, -1, 0) == 1
    assert state.decision_name() == "place"  # both bonuses used: the planning phase ends


def test_rule_bonus_either_order_new_token_may_move():
    # seat 1 has no token on its big city: only the new token can leave it
    tableaus = {0: [(1, 0, "akita", 0)], 1: [(1, 0, "iwate", 16)]}
    state = position(n=2, tableaus=tableaus, big={1: 0})
    act(state, "pick:0", "pick:1")
    assert "from@(+0,+0)" not in legal_names(state)
    act(state, "increase")
    assert "from@(+0,+0)" in legal_names(state)
    act(state, "from@(+0,+0)", "to@(+1,+0)")
    assert state.tokens[1][0] == 0 and tokens_at(state, 1, 1, 0) == 17
    # the other order: forced move first, then the increase
    state = position(n=2, tableaus=tableaus, big={1: 0})
    act(state, "pick:0", "pick:1", "from@(+1,+0)", "to@(+0,+0)")  # the increase follows itself
    assert state.tokens[1][0] == 2 and tokens_at(state, 1, 1, 0) == 15


def test_rule_forced_move_optional():
    state = position(n=3, rnd=1)
    before = [t[:] for t in state.tokens]
    act(state, "pick:0", "pick:1", "skip")
    assert state.tokens == before
    assert state.decision_name() == "pick" and state.current_player() == 2


def test_rule_forced_move_orthogonal_within_own_tableau():
    tableaus = {s: [(1, 0, None, 0), (1, 1, None, 2)] for s in range(2)}
    tableaus[1] = [(1, 0, "akita", 0), (1, 1, "iwate", 2)]
    state = position(n=2, tableaus=tableaus)
    act(state, "pick:0", "pick:1")
    names = legal_names(state)
    assert {n for n in names if n.startswith("from@")} == {"from@(+0,+0)", "from@(+1,+1)"}
    assert not any(n.startswith("tableau:") for n in names)
    act(state, "from@(+1,+1)")
    assert {n for n in legal_names(state)} == {"to@(+1,+0)"}  # (0,0) is only diagonal
    act(state, "to@(+1,+0)")
    assert tokens_at(state, 1, 1, 1) == 1 and tokens_at(state, 1, 1, 0) == 1


def test_rule_forced_move_resolved_before_next_pick():
    state = position(n=3, rnd=1)
    act(state, "pick:0", "pick:1")
    assert state.current_player() == 1 and state.decision_name() == "bonus"
    act(state, "from@(+0,+0)", "to@(-1,+0)")
    assert state.decision_name() == "pick" and state.current_player() == 2
    assert tokens_at(state, 1, -1, 0) == 1  # already moved when seat 2 picks


def test_rule_forced_move_any_player_option():
    state = position(n=3, rnd=1, forced_move_any_player=True)
    act(state, "pick:0", "pick:1")
    names = legal_names(state)
    assert {"tableau:+0", "tableau:+1", "tableau:+2"} <= names
    assert not any(n.startswith("from@") for n in names)
    act(state, "tableau:+1")  # seat 2's tableau
    assert state.decision_name() == "forced_move_source"
    act(state, "from@(+0,+0)", "to@(-1,+0)")
    assert state.tokens[2][0] == 15 and tokens_at(state, 2, -1, 0) == 1
    assert state.tokens[1][0] == 16


def test_rule_no_forced_move_with_lone_big_city():
    state = ChihouSouseiGame(4).new_initial_state(1)  # round 1: only big cities
    act(state, "pick:0", "pick:1")
    assert state.decision_name() == "pick" and state.current_player() == 2
    stock = state.stock
    act(state, "pick:2", "pick:3")  # the last picker's bonus is the compulsory increase alone
    assert state.decision_name() == "place" and state.tokens[3][0] == 17
    assert state.stock == stock - 1


def _planning_ends(state) -> list:
    """Every position in which the planning phase can end from ``state``,
    trying each legal action of the bonus and its forced move in turn."""
    if state.decision_name() not in ("bonus", "forced_move_source", "forced_move_target"):
        return [state]
    ends = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        ends += _planning_ends(child)
    return ends


@pytest.mark.parametrize("anyone", [False, True])
def test_rule_last_picker_population_increase_compulsory(anyone):
    state = position(
        n=2, tableaus={s: [(1, 0, None, 2)] for s in range(2)}, forced_move_any_player=anyone
    )
    act(state, "pick:0", "pick:1")
    assert state.decision_name() == "bonus" and "skip" in legal_names(state)
    stock = state.stock
    ends = _planning_ends(state)
    assert len(ends) > 3  # increase first, move first, or decline the move
    for end in ends:  # no way through the bonus leaves the increase out
        assert end.decision_name() == "place" and end.stock == stock - 1
        assert sum(end.tokens[1]) == 19
    # declining the forced move still makes the increase
    act(state, "skip")
    assert state.decision_name() == "place" and state.tokens[1][0] == 17


def test_rule_population_increase_does_nothing_when_stock_empty():
    state = position(n=2, big={0: 40, 1: 40})
    assert state.stock == 0
    act(state, "pick:0", "pick:1")
    assert state.decision_name() == "place"  # nothing to offer the last picker
    state = position(n=2, big={0: 40, 1: 40}, rnd=1)
    act(state, "pick:0", "pick:1")
    assert "increase" not in legal_names(state) and "from@(+0,+0)" in legal_names(state)


# -- migration phase ---------------------------------------------------------------


def test_rule_migration_in_turn_order_from_start_player():
    state = position(n=3, phase="place", start=1)
    order = []
    while state.round == 0:
        if state.decision_name() == "place":
            order.append(state.current_player())
        state.apply(state.legal_actions()[0])
    assert order == [1, 2, 0]


def test_rule_placement_orthogonally_adjacent():
    state = position(n=2, phase="place", tableaus={0: [(1, 0, "akita", 0)], 1: []}, rnd=1)
    places_ = {n for n in legal_names(state)}
    expected = {
        "place@(+0,-1)",
        "place@(-1,+0)",
        "place@(+0,+1)",
        "place@(+1,-1)",
        "place@(+2,+0)",
        "place@(+1,+1)",
    }
    assert places_ == expected  # no diagonal, no occupied cell, no gap


def test_rule_migration_moves_min_power_available():
    state = position(n=2, phase="place", picked={0: "kanagawa"})
    act(state, "place@(+1,+0)")  # power 3, the big city has plenty
    assert tokens_at(state, 0, 1, 0) == 3 and state.tokens[0][0] == 13
    state = position(
        n=2,
        phase="place",
        picked={0: "kanagawa"},
        tableaus={0: [(1, 0, "yamanashi", 1)]},
        big={0: 15},
        rnd=1,
    )
    act(state, "place@(+2,+0)")  # only 1 token next to it
    assert tokens_at(state, 0, 2, 0) == 1
    assert tokens_at(state, 0, 1, 0) == 1  # emptied, then yamanashi's newcomers event


def test_rule_migration_source_chosen_token_by_token():
    tableau = [(1, 0, "yamanashi", 5), (0, -1, "okinawa", 5)]
    state = position(
        n=2, phase="place", picked={0: "kanagawa"}, tableaus={0: tableau}, big={0: 6}, rnd=2
    )
    act(state, "place@(+1,-1)")
    assert state.decision_name() == "migrate"
    assert legal_names(state) == {"from@(+1,+0)", "from@(+0,-1)"}
    act(state, "from@(+1,+0)", "from@(+1,+0)", "from@(+0,-1)")
    assert tokens_at(state, 0, 1, -1) == 3
    assert tokens_at(state, 0, 1, 0) == 3 and tokens_at(state, 0, 0, -1) == 4
    assert state.decision_name() == "event_order"  # exactly power tokens, then events


def test_rule_migration_auto_when_no_choice():
    tableau = [(1, 0, "yamanashi", 1), (0, -1, "okinawa", 1)]
    state = position(
        n=2, phase="place", picked={0: "kanagawa"}, tableaus={0: tableau}, big={0: 14}, rnd=2
    )
    act(state, "place@(+1,-1)")  # needs 2 = everything available: no decision
    assert tokens_at(state, 0, 1, -1) == 2
    assert state.decision_name() == "event_order"


def test_rule_events_of_adjacent_cards_not_placed_card():
    state = position(n=2, phase="place", picked={0: "yamanashi"})
    stock = state.stock
    act(state, "place@(+0,+1)")  # next to the big city only, which has no event
    assert state.stock == stock  # yamanashi's own newcomers event did not fire
    assert tokens_at(state, 0, 0, 1) == 1
    assert state.current_player() == 1 and state.decision_name() == "place"


def test_rule_events_in_chosen_order():
    tableau = [(1, 0, "akita", 0), (0, -1, "iwate", 0), (-1, 0, "kanagawa", 15)]
    for first, winner in (("event@(+0,-1)", (0, -1)), ("event@(+1,+0)", (1, 0))):
        state = position(
            n=2, phase="place", picked={0: "yamanashi"}, tableaus={0: tableau}, big={0: 1}, rnd=3
        )
        act(state, "place@(+1,-1)")
        assert legal_names(state) == {"event@(+0,-1)", "event@(+1,+0)"}
        act(state, first)  # both are u_turn; the big city holds a single token
        assert tokens_at(state, 0, *winner) == 1
        assert tokens_at(state, 0, 1, 0) + tokens_at(state, 0, 0, -1) == 1
        assert state.current_player() == 1


# -- the event vocabulary: the event card E at (1,0) holds 3 tokens, akita (power 1)
# is placed at (2,0), next to E only, and pulls 1 token from it first.


def event_position(event_card: str, extra=(), **kw):
    tableau = [(1, 0, event_card, 3), *extra]
    return position(
        n=2, phase="place", picked={0: "akita"}, tableaus={0: tableau}, rnd=len(tableau), **kw
    )


def test_rule_event_newcomers():
    state = event_position("yamanashi")
    stock = state.stock
    act(state, "place@(+2,+0)")
    assert tokens_at(state, 0, 1, 0) == 3 and tokens_at(state, 0, 2, 0) == 1
    assert state.stock == stock - 1


def test_rule_event_u_turn():
    state = event_position("tottori")
    act(state, "place@(+2,+0)")
    assert tokens_at(state, 0, 1, 0) == 3 and state.tokens[0][0] == 15


def test_rule_event_to_the_city():
    state = event_position("ibaraki")
    act(state, "place@(+2,+0)")
    assert tokens_at(state, 0, 1, 0) == 1 and state.tokens[0][0] == 17


def test_rule_event_spread():
    state = event_position("gifu")
    act(state, "place@(+2,+0)")
    assert state.decision_name() == "event_target"
    assert legal_names(state) == {"to@(+2,+0)", "to@(+0,+0)"}
    act(state, "to@(+2,+0)")
    assert tokens_at(state, 0, 1, 0) == 1 and tokens_at(state, 0, 2, 0) == 2


def test_rule_event_gather():
    state = event_position("niigata")
    act(state, "place@(+2,+0)")
    assert state.decision_name() == "event_source"
    assert legal_names(state) == {"from@(+0,+0)", "from@(+2,+0)"}
    act(state, "from@(+0,+0)")
    assert tokens_at(state, 0, 1, 0) == 3 and state.tokens[0][0] == 15


def test_rule_event_festival():
    state = event_position("aomori", extra=[(-1, 0, "kanagawa", 2)], big={0: 14})
    act(state, "place@(+2,+0)")
    assert legal_names(state) == {"from@(+0,+0)", "from@(-1,+0)", "from@(+2,+0)"}
    act(state, "from@(-1,+0)")
    assert tokens_at(state, 0, -1, 0) == 1 and tokens_at(state, 0, 1, 0) == 3


def test_rule_event_pioneers():
    state = event_position("gunma")
    act(state, "place@(+2,+0)")
    assert tokens_at(state, 0, 1, 0) == 1 and tokens_at(state, 0, 2, 0) == 2


def test_rule_event_welcome():
    state = event_position("shiga")
    stock = state.stock
    act(state, "place@(+2,+0)")
    assert tokens_at(state, 0, 2, 0) == 2 and state.stock == stock - 1


def test_rule_event_local_jobs():
    state = event_position("yamagata")
    stock = state.stock
    act(state, "place@(+2,+0)")
    assert legal_names(state) == {"to@(+1,+0)", "to@(+2,+0)"}  # cards with an icon
    act(state, "to@(+2,+0)")
    assert tokens_at(state, 0, 2, 0) == 2 and state.stock == stock - 1


def test_rule_event_relocation():
    state = event_position("kyoto", extra=[(-1, 0, "kanagawa", 0)])
    act(state, "place@(+2,+0)")
    assert legal_names(state) == {"to@(+1,+0)", "to@(-1,+0)", "to@(+2,+0)"}
    act(state, "to@(-1,+0)")
    assert tokens_at(state, 0, -1, 0) == 1 and state.tokens[0][0] == 15


def test_rule_event_without_effect_does_nothing():
    state = event_position("yamanashi", big={0: 16, 1: 61})  # 19 + 61 tokens: no stock
    assert state.stock == 0
    act(state, "place@(+2,+0)")  # newcomers with an empty stock
    assert tokens_at(state, 0, 1, 0) == 2 and state.stock == 0
    state = event_position("tottori", extra=[(-1, 0, "kanagawa", 16)], big={0: 0})
    act(state, "place@(+2,+0)")  # u_turn with an empty big city
    assert tokens_at(state, 0, 1, 0) == 2 and state.tokens[0][0] == 0


def test_rule_event_choice_with_single_option_is_automatic():
    state = position(
        n=2, phase="place", picked={0: "kanagawa"}, tableaus={0: [(1, 0, "yamagata", 3)]}, rnd=1
    )
    stock = state.stock
    act(state, "place@(+2,+0)")  # local_jobs: only yamagata shows an icon
    assert state.current_player() == 1
    assert tokens_at(state, 0, 1, 0) == 1 and state.stock == stock - 1


def test_rule_eight_rounds():
    game = ChihouSouseiGame(3)
    state = game.new_initial_state(2)
    bot = RandomBot(2)
    while not state.is_terminal():
        state.apply(bot.act(state))
    assert state.round == 8
    assert all(len(cells) == 9 for cells in state.cells)
    assert len(state.deck) == NUM_CARDS - 8 * 4 and len(state.discard) == 8


# -- scoring -----------------------------------------------------------------------

EIGHT = [(x, 0, None, 0) for x in range(1, 9)]


def finished(tableau: list, big: int, **kw):
    return position(n=2, phase="over", tableaus={0: tableau}, big={0: big}, rnd=8, **kw)


def test_rule_population_example_15():
    assert population_score([2] * 8 + [0]) == 15
    tableau = [(x, 0, None, 2) for x in range(1, 8)] + [(8, 0, None, 0)]
    state = finished(tableau, big=2)
    assert state.score_breakdown()[0]["population"] == 15


def test_rule_population_example_11():
    assert population_score([4] * 4 + [0] * 5) == 11
    tableau = [(x, 0, None, 4) for x in range(1, 4)] + [(x, 0, None, 0) for x in range(4, 9)]
    state = finished(tableau, big=4)
    assert state.score_breakdown()[0]["population"] == 11


def test_rule_population_k_is_largest():
    counts = [5, 3, 3, 3, 1, 1, 0, 0, 0]
    assert population_score(counts) == 5 * 1 - 3
    tableau = [(x, 0, None, c) for x, c in zip(range(1, 9), counts[1:])]
    state = finished(tableau, big=5)
    assert state.score_breakdown()[0]["population"] == 2


def test_rule_population_mode_option():
    counts = [5, 3, 3, 3, 1, 1, 0, 0, 0]
    assert population_score(counts, mode=True) == 3 * 3 - 3
    assert population_score([4, 4, 2, 2, 1], mode=True) == 4 * 2  # tie: the larger count
    tableau = [(x, 0, None, c) for x, c in zip(range(1, 9), counts[1:])]
    state = finished(tableau, big=5, population_scoring="mode")
    assert state.score_breakdown()[0]["population"] == 6


def test_rule_industry_most_icons_score():
    assert industry_scores([[2, 0, 1], [2, 0, 0], [1, 0, 0]]) == [2 + 1, 2, 0]
    assert industry_scores([[0, 0, 0], [0, 0, 0]]) == [0, 0]
    # in a position: seat 0 two agriculture icons, seat 1 two, seat 2 one
    tableaus = {
        0: [(1, 0, "akita", 0), (2, 0, "ibaraki", 0)],
        1: [(1, 0, "gunma", 0), (2, 0, "nagano", 0)],
        2: [(1, 0, "wakayama", 0), (2, 0, "kanagawa", 0)],
    }
    state = position(n=3, tableaus=tableaus)
    assert [b["industry"] for b in state.score_breakdown()] == [2, 2, 0]


def test_rule_region_largest_connected_same_colour():
    # blue chain of 3 (aomori-akita-iwate), green pair, and a blue card cut off by
    # the big city: the big city has no colour and joins nothing
    tableau = [
        (1, 0, "aomori", 0),
        (2, 0, "akita", 0),
        (3, 0, "iwate", 0),
        (0, 1, "gifu", 0),
        (0, 2, "nara", 0),
        (-1, 0, "gunma", 0),
    ]
    state = position(n=2, tableaus={0: tableau})
    assert state.score_breakdown()[0]["region"] == 3
    grid = state.grid[0]
    assert region_score(grid, state.cells[0]) == 3
    assert COLOUR[CARD_ID["gunma"]] == COLOUR[CARD_ID["aomori"]]


def test_rule_total_is_sum_of_bonuses():
    state = position(n=2, tableaus={0: [(1, 0, "aomori", 0), (2, 0, "akita", 0)]})
    parts = state.score_breakdown()[0]
    assert parts["total"] == parts["population"] + parts["industry"] + parts["region"]
    assert state.scores()[0] == parts["total"]


def test_rule_tie_break_fewer_tokens_on_fullest_card():
    tableaus = {0: [(1, 0, "kanagawa", 8)], 1: [(1, 0, "oita", 0)]}
    state = position(n=2, tableaus=tableaus, big={0: 8, 1: 17})
    # seat 0: k=8 on two cards (16) + region 1; seat 1: 17 on the big city,
    # one empty card (16) + region 1: equal totals
    assert state.scores() == [17.0, 17.0]
    keys = state.rank_keys()
    assert keys == [(17, -8), (17, -17)]
    assert places(keys) == [0.0, 1.0]  # fewer tokens on the fullest card wins


def test_rule_tie_still_tied_is_shared_first_place():
    tableaus = {0: [(1, 0, "kanagawa", 8)], 1: [(1, 0, "oita", 8)]}
    state = position(n=2, tableaus=tableaus, big={0: 8, 1: 8})
    keys = state.rank_keys()
    assert keys[0] == keys[1] and places(keys) == [0.5, 0.5]


def test_rule_deck_order_hidden():
    state = ChihouSouseiGame(4).new_initial_state(9)
    other = state.resample_hidden(0, np.random.default_rng(1))
    assert sorted(other.deck) == sorted(state.deck) and other.deck != state.deck
    for seat in range(4):
        assert np.array_equal(other.observation(seat), state.observation(seat))


def test_rule_hidden_deck_redraw_depends_only_on_what_the_viewer_knows():
    state = ChihouSouseiGame(3).new_initial_state(4)
    act(state, "pick:0")
    other = state.clone()
    other.deck = other.deck[::-1]  # the same position but for the hidden order
    assert other.deck != state.deck
    for seed in range(3):
        redrawn = state.resample_hidden(1, np.random.default_rng(seed))
        redrawn_other = other.resample_hidden(1, np.random.default_rng(seed))
        assert redrawn.deck == redrawn_other.deck
        assert sorted(redrawn.deck) == sorted(state.deck)


def test_cell_bound_covers_every_game():
    """A tableau never leaves the 145-cell diamond (the catalogue's proven bound)."""
    game = ChihouSouseiGame(2)
    for seed in range(5):
        state = game.new_initial_state(seed)
        bot = RandomBot(seed)
        while not state.is_terminal():
            state.apply(bot.act(state))
        assert all(c in CELL_INDEX.values() for cells in state.cells for c in cells)
