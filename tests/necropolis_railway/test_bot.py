"""The heuristic bot beats random play clearly (a quick version of the report's runs)."""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.core.agents import RandomBot, play_game
from meeplezoo.envs.necropolis_railway.game import NecropolisRailwayGame


def _bot_vs_random(n: int, games: int) -> tuple[float, float, float]:
    game = NecropolisRailwayGame(n)
    wins, bot, rnd = 0.0, [], []
    for g in range(games):
        seat = g % n
        bots = [RandomBot(1000 * g + k) for k in range(n)]
        bots[seat] = game.heuristic_bot(g)
        st = play_game(game.new_initial_state(g), bots)
        scores, keys = st.scores(), st.rank_keys()
        bot.append(scores[seat])
        rnd.extend(s for k, s in enumerate(scores) if k != seat)
        best = max(keys)
        if keys[seat] == best:
            wins += 1.0 / keys.count(best)
    return wins / games, float(np.mean(bot)), float(np.mean(rnd)) if rnd else 0.0


def test_bot_beats_random_two_players():
    rate, bot, rnd = _bot_vs_random(2, 60)
    assert rate >= 0.9 and bot > rnd + 15


def test_bot_beats_random_four_players():
    rate, _, _ = _bot_vs_random(4, 24)
    assert rate >= 0.75


def test_bot_solo_scores_more_than_random():
    _, bot, _ = _bot_vs_random(1, 20)
    game = NecropolisRailwayGame(1)
    rnd = np.mean([play_game(game.new_initial_state(g), [RandomBot(g)]).scores()[0]
                   for g in range(20)])
    assert bot > rnd + 20


def test_bot_uses_only_what_its_seat_sees():
    """Same visible position, different hidden deck order and chance: same choice."""
    game = NecropolisRailwayGame(2)
    st = game.new_initial_state(3)
    for _ in range(40):
        st.apply(st.legal_actions()[-1])
    seat = st.current_player()
    other = st.resample_hidden(seat, np.random.default_rng(99))
    assert game.heuristic_bot(5).act(st) == game.heuristic_bot(5).act(other)
