"""Bad configurations, illegal actions and damaged saved states give clear errors."""

from __future__ import annotations

import json

import pytest

from meeplezoo import envs
from meeplezoo.envs.core.errors import ConfigError, CorruptStateError, IllegalActionError
from meeplezoo.envs.core.game import state_from_saved
from meeplezoo.envs.necropolis_railway import actions as A
from meeplezoo.envs.necropolis_railway.game import NecropolisRailwayGame


@pytest.mark.parametrize("bad", [0, 5, "2", 2.5, True])
def test_bad_player_count(bad):
    with pytest.raises(ConfigError, match="num_players"):
        NecropolisRailwayGame(bad)


def test_bad_option():
    with pytest.raises(ConfigError, match="unknown option"):
        NecropolisRailwayGame(2, solo_rule="none")


def test_solo_needs_score_reward_in_the_aec_env():
    with pytest.raises(ConfigError, match="score"):
        envs.make("necropolis_railway_v1", num_players=1, reward="rank")
    env = envs.make("necropolis_railway_v1", num_players=1)
    env.reset(seed=0)


def test_illegal_action_names_the_action_and_the_legal_ones():
    st = NecropolisRailwayGame(2).new_initial_state(0)
    with pytest.raises(IllegalActionError) as info:
        st.apply(A.INDEX["end_turn"])
    text = str(info.value)
    assert "end_turn" in text and "take:row_1" in text and "'take'" in text
    for bad in (-1, A.NUM_ACTIONS, None, "take:row_1", 1.5):
        with pytest.raises(IllegalActionError):
            st.apply(bad)


def test_unknown_action_name():
    with pytest.raises(ConfigError):
        NecropolisRailwayGame(2).action_index("take:row_9")


def _saved():
    st = NecropolisRailwayGame(2).new_initial_state(4)
    for _ in range(25):
        st.apply(st.legal_actions()[0])
    return json.loads(json.dumps(st.to_dict()))


@pytest.mark.parametrize("damage", [
    "not a dict", "wrong env", "player count", "missing key", "garbage", "extra disc",
    "card twice", "bad agenda", "bool for int", "negative money",
])
def test_corrupt_saved_state(damage):
    data = _saved()
    state = data["state"]
    if damage == "not a dict":
        data = [1, 2]
    elif damage == "wrong env":
        data["env"] = "chihou_sousei_v1"
    elif damage == "player count":
        data["config"]["num_players"] = 3
    elif damage == "missing key":
        del state["bag"]
    elif damage == "garbage":
        state["players"] = "garbage"
    elif damage == "extra disc":
        state["disc_supply"][0] += 1
    elif damage == "card twice":
        state["row"][0] = state["row"][1]
    elif damage == "bad agenda":
        state["agenda"][-1] = [999, 0, 0]
    elif damage == "bool for int":
        state["round"] = True
    elif damage == "negative money":
        state["players"][0]["money"] = -5
    with pytest.raises(CorruptStateError):
        state_from_saved(NecropolisRailwayGame, data)


def test_saved_state_round_trip():
    data = _saved()
    st = state_from_saved(NecropolisRailwayGame, data)
    assert st.to_dict() == data
