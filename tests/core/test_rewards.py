"""Terminal rewards from final standings."""

import pytest

from meeplezoo.envs.core.errors import ConfigError
from meeplezoo.envs.core.rewards import (
    places,
    resolve_reward_kind,
    terminal_rewards,
    win_share,
    winners,
)


def test_rank_reward_first_plus_one_last_minus_one():
    assert terminal_rewards("rank", [10, 5, 7, 1], [(10,), (5,), (7,), (1,)], 10) == [
        1.0,
        pytest.approx(-1 / 3),
        pytest.approx(1 / 3),
        -1.0,
    ]


def test_rank_reward_ties_are_averaged():
    keys = [(10,), (10,), (3,)]
    assert places(keys) == [0.5, 0.5, 2.0]
    assert terminal_rewards("rank", [10, 10, 3], keys, 10) == [0.5, 0.5, -1.0]


def test_tie_break_in_rank_keys_separates_equal_scores():
    assert places([(10, -3), (10, -5)]) == [0.0, 1.0]


def test_win_reward_marks_every_co_winner():
    assert terminal_rewards("win", [4, 9, 9], [(4,), (9,), (9,)], 10) == [0.0, 1.0, 1.0]


def test_score_reward_is_relative_to_mean_and_scaled():
    assert terminal_rewards("score", [10, 20], [(10,), (20,)], 10) == [-0.5, 0.5]
    assert terminal_rewards("score", [42], [(42,)], 10) == [4.2]


def test_reward_kind_validation():
    assert resolve_reward_kind("auto", 1) == "score"
    assert resolve_reward_kind("auto", 3) == "rank"
    with pytest.raises(ConfigError, match="rank, win, score"):
        resolve_reward_kind("money", 2)
    with pytest.raises(ConfigError, match="solo"):
        resolve_reward_kind("rank", 1)


def test_win_share_splits_a_shared_win():
    top = winners([(5, 0), (7, 1), (7, 1)])
    assert top == [1, 2]
    assert [win_share(s, top) for s in range(3)] == [0.0, 0.5, 0.5]
    assert win_share(0, winners([(9,), (1,)])) == 1.0
