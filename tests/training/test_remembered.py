"""training.agents.remembered: a greedy network's moves kept by what its seat sees make a
search cheaper and change nothing it does."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo import envs
from meeplezoo.envs.core.agents import RandomBot
from meeplezoo.training.agents.bots import LEVELS
from meeplezoo.training.agents.ismcts import ISMCTS
from meeplezoo.training.agents.opponents import load, network_bot
from meeplezoo.training.agents.remembered import RememberedBot, remembered

NECROPOLIS = "necropolis_railway_v1/ppo_league"
HEGEMONY = "hegemony_v1/ppo_classes"


def _positions(game, network: str, count: int, seed: int):
    """``count`` positions with a choice from one game of the network in every seat."""
    bot = network_bot(network, game)
    state = game.new_initial_state(seed)
    found, ply = [], 0
    while not state.is_terminal() and len(found) < count:
        if int(state.legal_mask().sum()) > 1 and ply % 3 == 0:
            found.append(state.clone())
        state.apply(int(bot.act(state)))
        ply += 1
    return found


def _level_search(game, network: str, greedy) -> ISMCTS:
    settings = LEVELS["hard"]
    agent = load(network)
    return ISMCTS(game, prior=agent, value=lambda s, seat: 0.5, opponents=lambda s, seed: greedy,
                  simulations=settings["simulations"], root=settings["root"],
                  considered=settings["considered"], c_scale=settings["c_scale"],
                  normalise_q=settings["normalise_q"], gumbel_scale=settings["gumbel_scale"],
                  min_evidence=settings["min_evidence"], seed=3)


@pytest.mark.parametrize("name, players, network", [
    ("necropolis_railway_v1", 2, NECROPOLIS), ("hegemony_v1", 4, HEGEMONY)])
def test_a_search_with_remembered_opponents_is_the_same_search(name, players, network):
    """Same positions, same seed: the same action and the same visits with and without the
    memory, which was asked (in Hegemony's first positions no question repeats: the memory
    only costs there)."""
    game = envs.make_game(name, num_players=players)
    memory = remembered(network_bot(network, game))
    plain = _level_search(game, network, network_bot(network, game))
    kept = _level_search(game, network, memory)
    for state in _positions(game, network, 4, seed=5):
        a, b = plain.search(state), kept.search(state)
        assert (a.action, a.visits, a.values) == (b.action, b.visits, b.values)
    assert memory.asked > 0


def test_the_memory_answers_as_the_network_does_and_stays_within_its_size():
    game = envs.make_game("necropolis_railway_v1", num_players=2)
    network = network_bot(NECROPOLIS, game)
    memory = RememberedBot(network, size=3)
    state, rng = game.new_initial_state(2), np.random.default_rng(2)
    for _ in range(40):
        if state.is_terminal():
            break
        assert memory.act(state) == network.act(state) == memory.act(state)
        assert len(memory.answers) <= 3
        legal = state.legal_actions()
        state.apply(int(legal[rng.integers(len(legal))]))
    assert memory.recalled >= 1


def test_only_greedy_networks_can_be_remembered():
    game = envs.make_game("necropolis_railway_v1", num_players=2)
    with pytest.raises(ValueError, match="only a network's greedy moves"):
        remembered(game.heuristic_bot(0))
    with pytest.raises(ValueError, match="only a network's greedy moves"):
        remembered(RandomBot(0))
    with pytest.raises(ValueError, match="sampled network"):
        remembered(network_bot(NECROPOLIS, game, seed=1, stochastic=True))
    with pytest.raises(ValueError, match="at least one answer"):
        RememberedBot(network_bot(NECROPOLIS, game), size=0)
