"""The solo variant as a plain gymnasium env."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from meeplezoo.envs.core.errors import IllegalActionError
from meeplezoo.envs.necropolis_railway.solo import SOLO_ENV_ID, NecropolisSoloEnv


def test_solo_env_passes_gymnasium_checker():
    check_env(NecropolisSoloEnv(), skip_render_check=True)
    env = gymnasium.make(SOLO_ENV_ID, render_mode="ansi")
    check_env(env.unwrapped)
    env.reset(seed=0)
    assert "Necropolis" in env.render()


def test_solo_env_plays_to_the_end_with_masks_and_scores():
    env = NecropolisSoloEnv()
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(0)
    total = 0.0
    for _ in range(5000):
        mask = env.action_masks()
        assert mask.any() and np.array_equal(mask, info["action_mask"].astype(bool))
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert env.observation_space.contains(obs)
        total += reward
        if terminated or truncated:
            break
    assert terminated
    assert total == pytest.approx(info["score"] / env.game.score_scale)
    assert info["score_breakdown"]["total"] == info["score"]


def test_solo_env_illegal_action_ends_with_penalty_or_raises():
    env = NecropolisSoloEnv()
    env.reset(seed=1)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -1.0 and "illegal_action" in info
    strict = NecropolisSoloEnv(illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalActionError, match="legal:"):
        strict.step(illegal)


def test_solo_env_seeding_is_deterministic():
    a, b = NecropolisSoloEnv(), NecropolisSoloEnv()
    oa, _ = a.reset(seed=11)
    ob, _ = b.reset(seed=11)
    assert np.array_equal(oa, ob)
    for _ in range(30):
        act = int(np.flatnonzero(a.action_masks())[0])
        ra = a.step(act)
        rb = b.step(act)
        assert np.array_equal(ra[0], rb[0]) and ra[1:4] == rb[1:4]
        if ra[2]:
            break


def test_retired_solo_id_names_its_successor():
    import meeplezoo.envs.necropolis_railway.solo  # noqa: F401  (registers the gymnasium id)

    assert SOLO_ENV_ID.endswith("-v1")
    with pytest.raises(gymnasium.error.DeprecatedEnv, match="NecropolisRailwaySolo-v1"):
        gymnasium.make("meeplezoo/NecropolisRailwaySolo-v0")
