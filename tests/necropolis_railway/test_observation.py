"""The observation: names, bounds, egocentric seats, padding, decision one-hot, and the
speed caches (a cached observation always equals one computed from scratch)."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.necropolis_railway.game import NecropolisRailwayGame
from meeplezoo.envs.necropolis_railway.observation import LAYOUT, SEAT_SIZE


def _playout(n, seed, steps=None):
    st = NecropolisRailwayGame(n).new_initial_state(seed)
    rng = np.random.default_rng(seed)
    k = 0
    while not st.is_terminal() and (steps is None or k < steps):
        yield st
        legal = st.legal_actions()
        st.apply(legal[rng.integers(len(legal))])
        k += 1
    yield st


def test_feature_names_are_unique_and_sized():
    game = NecropolisRailwayGame(2)
    names = game.feature_names(0)
    assert len(names) == len(set(names)) == game.observation_size() == LAYOUT.size
    assert names[0] == "decision[take]"
    assert any(n.startswith("me[") for n in names) and any("opponent_3[" in n for n in names)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_cached_observation_equals_fresh_one(n):
    for st in _playout(n, seed=n):
        fresh = st.clone()  # a clone starts with empty caches
        for seat in range(n):
            a, b = st.observation(seat), fresh.observation(seat)
            assert a.dtype == np.float32 and np.array_equal(a, b), st.decision_name()
            assert a.min() >= 0.0 and a.max() <= 1.0


def test_egocentric_seat_blocks_and_padding():
    game = NecropolisRailwayGame(3)
    me = LAYOUT.block("me")
    others = [LAYOUT.block(f"opponent_{k}") for k in (1, 2, 3)]
    for st in _playout(3, seed=5, steps=120):
        obs = [st.observation(s) for s in range(3)]
        for viewer in range(3):
            for k in (1, 2):
                seat = (viewer + k) % 3
                assert np.array_equal(obs[viewer][others[k - 1]], obs[seat][me])
            assert not obs[viewer][others[2]].any()  # padding for the missing 4th seat
    assert me.stop - me.start == SEAT_SIZE
    assert game.observation_size() == NecropolisRailwayGame(1).observation_size()


def test_decision_one_hot_matches_pending_decision():
    names = LAYOUT.names
    for st in _playout(2, seed=9, steps=200):
        if st.is_terminal():
            break
        obs = st.observation(st.current_player())
        hot = [names[i] for i in np.flatnonzero(obs[:17])]
        assert hot == [f"decision[{st.decision_name()}]"]
        assert obs[LAYOUT.block("decider_seat")][0] == 1.0  # the viewer decides
