"""Our OrderEnforcing short-cuts the hot calls yet behaves as PettingZoo's OrderEnforcingWrapper."""

import re

import numpy as np
import pytest
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from meeplezoo import envs
from meeplezoo.envs.core.aec import OrderEnforcing


def ours_and_theirs(**config):
    return (
        OrderEnforcing(envs.make_raw("toy_v0", **config)),
        OrderEnforcingWrapper(envs.make_raw("toy_v0", **config)),
    )


@pytest.mark.parametrize(
    "call",
    [
        lambda e: e.step(0),
        lambda e: e.observe("player_0"),
        lambda e: e.agent_iter(),
        lambda e: e.agent_selection,
        lambda e: e.agents,
    ],
    ids=["step", "observe", "agent_iter", "agent_selection", "agents"],
)
def test_calls_before_reset_fail_as_pettingzoos(call):
    ours, theirs = ours_and_theirs()
    with pytest.raises((AssertionError, AttributeError)) as expected:
        call(theirs)
    with pytest.raises(type(expected.value), match=re.escape(str(expected.value))):
        call(ours)


def test_last_before_reset_names_reset():
    """PettingZoo's wrapper fails here on reading agent_selection; ours says what to do."""
    ours, _ = ours_and_theirs()
    with pytest.raises(AssertionError, match=re.escape("reset() needs to be called")):
        ours.last()


def test_a_game_plays_the_same_through_both():
    ours, theirs = ours_and_theirs(num_players=3)
    ours.reset(seed=4)
    theirs.reset(seed=4)
    rng = np.random.default_rng(0)
    turns = 0
    for agent, same in zip(ours.agent_iter(), theirs.agent_iter()):
        assert agent == same
        obs, reward, term, trunc, info = ours.last()
        obs2, reward2, term2, trunc2, info2 = theirs.last()
        assert (reward, term, trunc, info) == (reward2, term2, trunc2, info2)
        for key in ("observation", "action_mask"):
            assert obs[key].dtype == obs2[key].dtype
            np.testing.assert_array_equal(obs[key], obs2[key])
        assert ours.last(observe=False)[0] is None
        legal = np.flatnonzero(obs["action_mask"])
        action = None if term or trunc else int(rng.choice(legal))
        ours.step(action)
        theirs.step(action)
        turns += 1
    assert turns > 3 and ours.agents == theirs.agents == []
    ours.step(None)  # after the end both only warn
    theirs.step(None)


def test_the_agent_loop_wants_a_step_each_turn():
    for env in ours_and_theirs():
        env.reset(seed=1)
        agents = iter(env.agent_iter())
        next(agents)
        with pytest.raises(AssertionError, match="need to call step"):
            next(agents)


def test_max_iter_caps_the_agent_loop():
    ours, _ = ours_and_theirs()
    ours.reset(seed=2)
    played = 0
    for _agent in ours.agent_iter(max_iter=3):
        obs = ours.last()[0]
        ours.step(int(np.flatnonzero(obs["action_mask"])[0]))
        played += 1
    assert played == 3
