"""The heuristic bot beats random play and only uses what its seat can see."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.chihou_sousei import ChihouBot, ChihouSouseiGame
from meeplezoo.envs.chihou_sousei.sketch import sketch_of
from meeplezoo.envs.core.agents import RandomBot
from tests.chihou_sousei.positions import position


def bot_win_rate(n: int, games: int, **options) -> float:
    game = ChihouSouseiGame(n, **options)
    wins = 0.0
    for g in range(games):
        seat = g % n
        bots = [RandomBot(1000 + 10 * g + i) for i in range(n)]
        bots[seat] = ChihouBot(g)
        state = game.new_initial_state(g)
        while not state.is_terminal():
            state.apply(bots[state.current_player()].act(state))
        keys = state.rank_keys()
        top = [i for i, k in enumerate(keys) if k == max(keys)]
        wins += (seat in top) / len(top)
    return wins / games


def test_bot_beats_three_random_players():
    assert bot_win_rate(4, 100) > 0.6  # random would win 25%


@pytest.mark.parametrize(
    ("n", "options"),
    [(2, {}), (3, {"forced_move_any_player": True, "population_scoring": "mode"})],
)
def test_bot_beats_random_other_counts(n, options):
    assert bot_win_rate(n, 30, **options) > 1.5 / n


def test_bot_ignores_the_hidden_deck_order():
    game = ChihouSouseiGame(4)
    rng = np.random.default_rng(0)
    state = game.new_initial_state(3)
    checked = 0
    while not state.is_terminal():
        if len(state.legal_actions()) > 1:
            other = state.resample_hidden(state.current_player(), rng)
            assert ChihouBot(5).act(state) == ChihouBot(5).act(other)
            checked += 1
        state.apply(ChihouBot(checked).act(state))
    assert checked > 20


def test_heuristic_bot_factory():
    bot = ChihouSouseiGame(2).heuristic_bot(seed=1)
    assert isinstance(bot, ChihouBot)


@pytest.mark.parametrize(("rnd", "marker_value", "best_slots"), [(6, 0.5, [2]), (7, 0.0, [0, 2])])
def test_bot_gives_start_marker_no_value_in_last_round(rnd, marker_value, best_slots):
    """Toyama and Fukui are the same card (colour, power, icons, event): only the
    start marker that comes with the rightmost one can set them apart, and in
    the last round (index 7) there is no next round to start."""
    state = position(n=2, row=["toyama", "kanagawa", "fukui"], rnd=rnd)
    bot = ChihouBot(0)
    plain, rightmost = (bot._pick_value(sketch_of(state), 0, slot) for slot in (0, 2))
    assert rightmost[0] - plain[0] == marker_value and rightmost[1] == plain[1]
    assert sorted(bot.decide(state)[1]) == best_slots
