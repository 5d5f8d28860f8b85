"""The speed shortcuts change nothing: the memoised masks are the options of the
position (fresh after every apply, untouched by a clone's play, read-only since
positions share them) and the observation's seat blocks are in egocentric order."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.chihou_sousei.actions import NUM_ACTIONS
from meeplezoo.envs.chihou_sousei.game import ChihouSouseiGame
from meeplezoo.envs.chihou_sousei.observation import SEAT_F
from meeplezoo.envs.core.testing import random_positions


def _positions(n, seed, steps=200):
    return random_positions(ChihouSouseiGame(n).new_initial_state(seed), seed, steps)


def _fresh_mask(st):
    mask = np.zeros(NUM_ACTIONS, dtype=bool)
    mask[list(st.game.rules.legal_of[st.decision](st))] = True
    return mask


@pytest.mark.parametrize("n", [2, 4])
def test_memoised_mask_is_the_positions_options(n):
    changed = 0
    previous = None
    for st in _positions(n, seed=n):
        mask = st.legal_mask()
        assert np.array_equal(mask, _fresh_mask(st)) and not mask.flags.writeable
        changed += previous is not None and not np.array_equal(previous, mask)
        previous = mask.copy()
        other = st.clone()
        other.apply(other.legal_actions()[0])  # play on the clone ...
        assert np.array_equal(st.legal_mask(), previous)  # ... the original's mask stays
        assert np.array_equal(other.legal_mask(), _fresh_mask(other))
    assert changed > 20


@pytest.mark.parametrize("n", [2, 3, 4])
def test_seat_blocks_are_in_egocentric_order(n):
    for st in _positions(n, seed=10 + n, steps=120):
        for viewer in range(n):
            obs = st.observation(viewer)
            for k in range(n):
                block = obs[k * SEAT_F : (k + 1) * SEAT_F]
                assert np.array_equal(block, st.feat[(viewer + k) % n])
