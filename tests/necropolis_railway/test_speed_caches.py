"""The speed shortcuts change nothing: clones copy every field (written out one by one),
share no mutable list with the original, resample_hidden leaves the original's generator
alone, and the bot's memoised value equals one computed with empty memos."""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.core.rng import rng_to_dict
from meeplezoo.envs.core.testing import random_positions
from meeplezoo.envs.necropolis_railway import bot
from meeplezoo.envs.necropolis_railway import observation as O
from meeplezoo.envs.necropolis_railway.game import NecropolisRailwayGame


def _positions(n, seed, steps=200):
    return random_positions(NecropolisRailwayGame(n).new_initial_state(seed), seed, steps)


def test_clone_copies_every_field_and_shares_no_list():
    for st in _positions(3, seed=4):
        st.observation(0)
        other = st.clone()
        assert set(vars(other)) == set(vars(st))
        assert other.to_dict() == st.to_dict()
        for name, v in vars(st).items():
            if isinstance(v, list) and name not in ("_legal", "agenda"):
                assert v is not getattr(other, name) or not v, name
        other.t_used.append(True)  # a turn list changed on the clone stays there
        assert len(other.t_used) == len(st.t_used) + 1


def test_resample_hidden_leaves_the_original_generator_alone():
    st = next(s for k, s in enumerate(_positions(2, seed=6)) if k == 30)
    before = rng_to_dict(st.rng)
    other = st.resample_hidden(st.current_player(), np.random.default_rng(1))
    assert other.rng is not st.rng and rng_to_dict(st.rng) == before


def test_bot_value_with_memos_equals_value_without():
    for n in (1, 4):
        for st in _positions(n, seed=n + 10, steps=250):
            for seat in range(n):
                memoised = bot.value(st, seat)
                bot.memos(st).london_worth.clear()
                bot.memos(st).majority.clear()
                assert bot.value(st, seat) == memoised


def test_observation_with_warm_memos_equals_one_with_empty_memos():
    for st in _positions(3, seed=21, steps=250):
        for seat in range(3):
            warm = st.observation(seat)
            memos = O._memos(st)
            for memo in (memos.money, memos.cargo, memos.staff):
                memo.clear()
            assert np.array_equal(st.clone().observation(seat), warm)
