"""The generic AEC env and the registry, on the toy game."""

import json

import numpy as np
import pytest

from meeplezoo import envs
from meeplezoo.envs.core.aec import env_functions
from meeplezoo.envs.core.errors import (
    ConfigError,
    CorruptStateError,
    EnvOrderError,
    IllegalActionError,
    RetiredEnvError,
    UnknownEnvError,
)
from tests.core.toy_game import ToyGame

env, raw_env = env_functions(ToyGame)


def test_unknown_env_name_lists_the_available_ones():
    with pytest.raises(UnknownEnvError, match=r"available envs: .*chihou_sousei_v1"):
        envs.make("chess_v9")


@pytest.mark.parametrize(
    "old, new",
    [("chihou_sousei_v0", "chihou_sousei_v1"), ("asian_delivery_v0", "asian_delivery_v1"),
     ("necropolis_railway_v0", "necropolis_railway_v1")],
)
def test_retired_env_id_names_its_successor(old, new):
    with pytest.raises(RetiredEnvError, match=f"{old}.*retired.*{new}"):
        envs.make(old)
    assert old not in envs.list_envs() and new in envs.list_envs()


def test_registered_in_pettingzoo_registry():
    from pettingzoo import aec_registry

    assert any("chihou_sousei" in key for key in aec_registry)


def test_bad_player_count_says_what_is_allowed():
    with pytest.raises(ConfigError, match="from 2 to 3"):
        raw_env(num_players=5)


def test_illegal_action_names_the_action_and_the_legal_ones():
    e = raw_env()
    e.reset(seed=0)
    e.step(2)  # pass, allowed once
    e.step(2)
    with pytest.raises(
        IllegalActionError, match=r"action 2 \(pass\) is illegal .*legal: 0 \(play:0\)"
    ):
        e.step(2)


def test_rewards_reach_every_player_at_the_end():
    e = env(num_players=3)
    e.reset(seed=4)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        total[agent] += reward
        if term or trunc:
            assert "scores" in info and "score_breakdown" in info
            e.step(None)
        else:
            e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert sorted(total.values()) == [-1.0, 0.0, 1.0] or sum(total.values()) == pytest.approx(0)


def test_truncation_cap():
    e = raw_env(max_decisions=3)
    e.reset(seed=1)
    for _ in range(3):
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    assert all(e.truncations.values())


def test_save_and_load_continue_the_same_game():
    a = raw_env()
    a.reset(seed=9)
    a.step(0)
    saved = json.dumps(a.save_state())
    b = raw_env()
    b.reset(seed=123)
    b.load_state(saved)
    assert b.agent_selection == a.agent_selection
    assert np.array_equal(
        b.observe(b.agent_selection)["observation"], a.observe(a.agent_selection)["observation"]
    )


def test_load_rejects_other_config_and_garbage():
    a = raw_env(num_players=3)
    a.reset(seed=0)
    b = raw_env(num_players=2)
    with pytest.raises(CorruptStateError, match="config"):
        b.load_state(a.save_state())
    with pytest.raises(CorruptStateError, match="not JSON"):
        b.load_state("{oops")


def test_render_ansi_returns_text():
    e = raw_env(render_mode="ansi")
    e.reset(seed=0)
    assert "P0" in e.render()
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="video")


def test_action_and_feature_names():
    e = raw_env()
    assert e.action_name(2, "player_0") == "pass"
    assert e.feature_names("player_1")[0] == "hand[0]"


def test_returned_masks_are_the_callers_own():
    """Writing into a mask from observe() or last() does not change the env."""
    e = env()
    e.reset(seed=0)
    first = e.last()[0]["action_mask"]
    first[:] = 0
    assert e.last()[0]["action_mask"].any()
    idle = next(a for a in e.agents if a != e.agent_selection)
    zeros = e.observe(idle)["action_mask"]
    zeros[:] = 1
    assert not e.observe(idle)["action_mask"].any()


def test_reset_takes_numpy_integer_seeds_and_refuses_others():
    a, b = raw_env(), raw_env()
    a.reset(seed=np.int64(7))
    b.reset(seed=7)
    assert a.save_state() == b.save_state()
    for bad in (-1, 1.5, "7", True):
        fresh = raw_env()
        with pytest.raises(ValueError, match="seed"):
            fresh.reset(seed=bad)
        assert fresh.state is None  # nothing half-reset


@pytest.mark.parametrize("action", [0.0, True, np.float32(0), np.array(0), "0", None, [0]])
def test_non_integer_actions_are_illegal(action):
    e = raw_env()
    e.reset(seed=0)
    before = e.save_state()
    with pytest.raises(IllegalActionError, match=r"illegal|must act"):
        e.step(action)
    assert e.save_state() == before


def test_numpy_integer_actions_are_played():
    e = raw_env()
    e.reset(seed=0)
    e.step(np.int64(0))
    assert e.decisions == 1


@pytest.mark.parametrize("action", [-1, 3, 1.0, "pass"])
def test_action_name_refuses_what_is_not_an_index(action):
    e = raw_env()
    e.reset(seed=0)
    with pytest.raises(IllegalActionError, match=r"0\.\.2"):
        e.action_name(action, "player_0")
    with pytest.raises(IllegalActionError, match=r"0\.\.2"):
        ToyGame().action_name(action)


def test_raw_env_out_of_order_gives_clear_errors():
    e = raw_env()
    for call in (lambda: e.step(0), lambda: e.observe("player_0"), lambda: e.last()):
        with pytest.raises(EnvOrderError, match=r"reset\(\)"):
            call()
    e.reset(seed=0)
    for _agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    with pytest.raises(EnvOrderError, match="episode is over"):
        e.step(0)


def test_truncation_survives_save_and_load():
    a = raw_env(max_decisions=3)
    a.reset(seed=1)
    for _ in range(3):
        a.step(int(np.flatnonzero(a.observe(a.agent_selection)["action_mask"])[0]))
    assert all(a.truncations.values())
    b = raw_env(max_decisions=3)
    b.load_state(json.dumps(a.save_state()))
    assert all(b.truncations.values()) and b.infos == a.infos


def test_saved_decision_count_and_envelope_are_checked():
    a = raw_env()
    a.reset(seed=0)
    saved = a.save_state()
    for bad in (-1, 2**80, 1.0, "3", True, float("nan")):
        with pytest.raises(CorruptStateError, match="decisions"):
            raw_env().load_state({**saved, "decisions": bad})
    with pytest.raises(CorruptStateError, match="unexpected key"):
        raw_env().load_state({**saved, "extra": 1})


def test_damaged_rng_blocks_are_refused_by_name():
    a = raw_env()
    a.reset(seed=0)
    saved = a.save_state()
    rng = saved["state"]["rng"]
    for bad in ({**rng, "state": {"state": 2**200, "inc": 1}}, {**rng, "uinteger": -1},
                {**rng, "state": {"state": float("inf"), "inc": 1}}, "PCG64", None):
        with pytest.raises(CorruptStateError, match=r"state\.rng"):
            raw_env().load_state({**saved, "state": {**saved["state"], "rng": bad}})


def test_a_loaded_state_must_be_playable():
    """A shape-correct save whose player to move has nothing left to play is refused."""
    a = raw_env()
    a.reset(seed=0)
    saved = a.save_state()
    state = saved["state"]
    stuck = {**state, "hands": [[0, 0], [5, 0]], "deck": [], "turn": 0,
             "scores": [sum(range(1, 10)) * 2 - 5, 0]}
    with pytest.raises(CorruptStateError, match="turn on an empty hand"):
        raw_env().load_state({**saved, "state": stuck})


def test_import_envs_registers_the_gymnasium_views():
    import gymnasium

    assert envs.seat_env_id("chihou_sousei_v1") == "meeplezoo/ChihouSouseiSeat-v1"
    for name in ("chihou_sousei_v1", "asian_delivery_v1", "necropolis_railway_v1"):
        assert envs.seat_env_id(name) in gymnasium.registry
    assert "meeplezoo/NecropolisRailwaySolo-v1" in gymnasium.registry
    seat = gymnasium.make("meeplezoo/NecropolisRailwaySeat-v1", config={"num_players": 2},
                          opponents=["random"], seed=0)
    obs, _ = seat.reset(seed=1)
    assert seat.observation_space.contains(obs)


def test_render_human_prints_after_reset_and_after_every_step(capsys):
    e = env(render_mode="human")
    e.reset(seed=0)
    assert capsys.readouterr().out.count("P0:") == 1
    steps = 0
    for _agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            break
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
        assert capsys.readouterr().out.count("P0:") == 1, f"step {steps} printed no game"
    assert steps > 1
    raw_env(render_mode=None).reset(seed=0)
    assert capsys.readouterr().out == ""


def test_places_in_infos_count_from_one_like_the_tables():
    from meeplezoo.envs.core.rewards import places

    e = raw_env(num_players=3)
    e.reset(seed=2)
    while not all(e.terminations.values()):
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    info = e.infos[e.possible_agents[0]]
    assert info["places"] == [p + 1 for p in places(e.state.rank_keys())]
    assert sorted(info["places"])[0] >= 1.0 and sum(info["places"]) == 1 + 2 + 3
    for seat in info["winners"]:
        assert info["places"][seat] == min(info["places"])
