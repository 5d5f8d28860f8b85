"""Bad configurations, actions and saved states give clear errors."""

from __future__ import annotations

import copy
import json

import pytest

from meeplezoo.envs.chihou_sousei import ChihouSouseiGame, raw_env
from meeplezoo.envs.core.errors import ConfigError, CorruptStateError, IllegalActionError
from meeplezoo.envs.core.game import state_from_saved


@pytest.mark.parametrize("count", [0, 1, 5, "4", 2.5, True])
def test_bad_player_count(count):
    with pytest.raises(ConfigError, match=r"num_players.*from 2 to 4"):
        ChihouSouseiGame(count)


@pytest.mark.parametrize(
    "options",
    [
        {"population_scoring": "median"},
        {"population_scoring": 1},
        {"forced_move_any_player": "yes"},
        {"forced_move_any_player": 1},
    ],
)
def test_bad_option_value(options):
    with pytest.raises(ConfigError, match="choose one of"):
        ChihouSouseiGame(4, **options)


def test_unknown_option():
    with pytest.raises(ConfigError, match=r"unknown option.*forced_move"):
        ChihouSouseiGame(4, forced_move=True)


def test_illegal_action_names_it_and_the_legal_ones():
    state = ChihouSouseiGame(2).new_initial_state(0)
    with pytest.raises(IllegalActionError, match=r"place@\(\+1,\+0\).*'pick'.*legal: 0 \(pick:0\)"):
        state.apply(state.game.action_index("place@(+1,+0)"))
    state.apply(0)
    with pytest.raises(IllegalActionError, match=r"pick:0"):
        state.apply(0)  # slot 0 is taken
    for bad in (-1, 10_000, None, "pick:1", 1.5):
        with pytest.raises(IllegalActionError):
            state.apply(bad)


def test_unknown_action_name():
    with pytest.raises(ConfigError, match="no action named"):
        ChihouSouseiGame().action_index("place@(+9,+0)")


def _saved() -> dict:
    state = ChihouSouseiGame(3).new_initial_state(4)
    for _ in range(20):
        state.apply(state.legal_actions()[-1])
    return json.loads(json.dumps(state.to_dict()))


def _damaged(path: list, value) -> dict:
    data = copy.deepcopy(_saved())
    target = data["state"]
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (["stock"], 99),  # tokens no longer conserved
        (["stock"], "many"),
        (["round"], 9),
        (["deck", 0], "tokyo"),  # not a regional card
        (["deck"], []),  # cards missing
        (["tableaus", 0, 0, "tokens"], 5),  # tokens created
        (["tableaus", 0, 1, "at"], [9, 0]),  # outside the diamond
        (["tableaus", 0, 1, "at"], [0, 0]),  # two cards on one cell
        (["tableaus", 1], []),  # no big city
        (["decision"], "dance"),
        (["decision"], "migrate"),  # inconsistent with the rest of the position
        (["player"], 7),
        (["start_player"], -1),
        (["forced_move_left"], "yes"),
        (["picked"], [None]),
        (["rng"], {"bit_generator": "MT19937"}),
    ],
)
def test_corrupt_saved_state(path, value):
    with pytest.raises(CorruptStateError):
        state_from_saved(ChihouSouseiGame, _damaged(path, value))


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (["stock"], "many", r"field state\.stock: expected an integer in 0\.\.32"),
        (["stock"], 31, "tokens are not conserved"),
        (["tableaus", 0, 1, "at"], [5, 4], r"state\.tableaus\[0\]\[1\]\.at.*outside the board"),
        (["tableaus", 2, 0, "card"], "tokyo", r"field state\.tableaus\[2\]\[0\]\.card"),
        (["deck"], [], r"field state\.deck: expected a list of length"),
        (["decision"], "migrate", "picked card waits until its turn to place"),
        (["forced_move_left"], 1, r"field state\.forced_move_left: expected true or false"),
    ],
)
def test_corrupt_saved_state_names_the_damage(path, value, message):
    with pytest.raises(CorruptStateError, match=message):
        state_from_saved(ChihouSouseiGame, _damaged(path, value))


def test_saved_state_round_trip_and_wrong_env():
    data = _saved()
    state = state_from_saved(ChihouSouseiGame, data)
    assert state.to_dict() == data
    with pytest.raises(CorruptStateError, match="not 'chihou_sousei_v1'"):
        state_from_saved(ChihouSouseiGame, {**data, "env": "hegemony_v1"})
    with pytest.raises(CorruptStateError):
        state_from_saved(ChihouSouseiGame, {**data, "config": {"num_players": 3, "x": 1}})


def test_env_load_state_rejects_garbage_and_other_configs():
    env = raw_env(num_players=3)
    env.reset(seed=1)
    with pytest.raises(CorruptStateError, match="not JSON"):
        env.load_state("{not json")
    other = raw_env(num_players=3, population_scoring="mode")
    other.reset(seed=1)
    with pytest.raises(CorruptStateError, match="config"):
        env.load_state(other.save_state())
