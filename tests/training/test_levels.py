"""Difficulty levels by name: ``<network>@easy|medium|hard|expert`` wherever an agent is
named (make_bot, and so evaluate, the arena, play and the opponent pool)."""

from __future__ import annotations

import pytest

from meeplezoo import envs
from meeplezoo.envs.core.agents import RandomBot, play_game
from meeplezoo.envs.core.errors import ConfigError
from meeplezoo.training.agents.bots import LEVELS, make_bot, split_level
from meeplezoo.training.agents.ismcts import SearchBot
from meeplezoo.training.agents.opponents import PolicyBot
from meeplezoo.training.evaluation import evaluate

NECRO = "necropolis_railway_v1/ppo_league"


def test_levels_parse_and_bad_ones_are_refused():
    assert split_level(f"{NECRO}@hard") == (NECRO, "hard")
    assert split_level(NECRO) == (NECRO, None)
    with pytest.raises(ConfigError, match=r"unknown level 'godlike'.*easy, medium, hard"):
        split_level(f"{NECRO}@godlike")
    with pytest.raises(ConfigError, match="levels are for networks"):
        split_level("heuristic@hard")


def test_each_level_builds_its_player_and_plays_a_legal_game():
    game = envs.make_game("necropolis_railway_v1", num_players=2)
    easy, medium, hard = (make_bot(f"{NECRO}@{lv}", game, seed=1)
                          for lv in ("easy", "medium", "hard"))
    assert isinstance(easy, PolicyBot) and easy.agent.stochastic
    assert isinstance(medium, PolicyBot) and not medium.agent.stochastic
    assert isinstance(hard, SearchBot)
    assert hard.search.simulations == LEVELS["hard"]["simulations"]
    final = play_game(game.new_initial_state(3), [hard, RandomBot(2)])
    assert final.is_terminal()


def test_a_level_is_a_spec_in_evaluate():
    result = evaluate.versus_field("necropolis_railway_v1", {"num_players": 2},
                                   f"{NECRO}@easy", "random", games=2, seed=4)
    assert result["games"] == 2


def test_a_level_is_an_entrant_of_the_arena_and_keeps_its_role(tmp_path):
    from meeplezoo.training.agents.opponents import CheckpointError, spec_role
    from meeplezoo.training.evaluation import arena

    config = {"num_players": 2}
    entrant = arena.resolve(f"{NECRO}@hard", "necropolis_railway_v1", config)
    assert entrant.label == f"{NECRO}@hard" and entrant.spec == f"{NECRO}@hard"
    with pytest.raises(ConfigError, match="levels are for networks"):
        arena.resolve("meeplezoo.envs.core.agents:RandomBot@hard", "necropolis_railway_v1",
                      config)
    with pytest.raises(CheckpointError, match="not a checkpoint folder"):
        arena.resolve(f"{tmp_path}/none@hard", "necropolis_railway_v1", config)
    member = "hegemony_v1/ppo_classes/state"
    assert spec_role(f"{member}@easy") == spec_role(member) == "state"


def test_a_search_level_without_a_value_cuts_hegemony_playouts_short_and_says_so(
        valueless_copy):
    """A Hegemony game is too long to play out at every leaf (its ``Game``'s
    ``search_playout_depth``): a team without values plays 20 decisions and reads the scores
    as they stand; other games play out to the end.  The settings a card records name the
    leaf."""
    from meeplezoo.training.agents.bots import level_settings

    team = valueless_copy("hegemony_v1/ppo_classes")
    hegemony = envs.make_game("hegemony_v1", num_players=4)
    bot = make_bot(f"{team}@hard", hegemony, seed=1, seat=0)
    assert bot.search.playout_depth == hegemony.search_playout_depth == 20
    assert level_settings(str(team), "hard", hegemony)["leaf"] == "playouts of 20 decisions"
    # the shipped team has a value per class, fitted at 4 players: its leaves
    assert level_settings("hegemony_v1/ppo_classes", "hard", hegemony)["leaf"] == "value"
    chihou = envs.make_game("chihou_sousei_v1", num_players=4)
    # 地方創生's network has a value fitted at 4 players (reading the scoreboard too), of the
    # place share: its leaf says so
    assert level_settings("chihou_sousei_v1/ppo_league", "expert", chihou)["leaf"] == \
        "value (place)"
    # Necropolis's network has a value fitted at 2 players: its leaves there, playouts alone
    necropolis = envs.make_game("necropolis_railway_v1", num_players=2)
    assert make_bot(f"{NECRO}@hard", necropolis, seed=1).search.playout_depth is None
    assert level_settings(NECRO, "expert", necropolis)["leaf"] == "value"
    solo = envs.make_game("necropolis_railway_v1", num_players=1)
    assert level_settings(NECRO, "hard", solo)["leaf"] == "playouts"
    assert "leaf" not in level_settings(NECRO, "easy", necropolis)


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_a_search_level_with_values_that_say_nothing_plays_its_network_best(level):
    """The levels depart from their network on evidence only (アジアンデリバリー's @hard
    lost to its own network while departing on noise): give the level's search values that
    do not separate any move, and it plays what the network alone plays."""
    game = envs.make_game("necropolis_railway_v1", num_players=2)
    bot = make_bot(f"{NECRO}@{level}", game, seed=4)
    network = make_bot(NECRO, game)
    bot.search.value = lambda state, seat: 0.5
    state = game.new_initial_state(11)
    checked = 0
    while not state.is_terminal() and checked < 12:
        if len(state.legal_actions()) > 1:
            assert bot.act(state) == network.act(state)
            checked += 1
        state.apply(network.act(state))
    assert checked == 12
