"""The single-agent seat view used for training."""

import numpy as np
import pytest

from meeplezoo.envs.core.agents import RandomBot
from meeplezoo.training.fitting.seat_env import SeatEnv
from tests.core.toy_game import ToyGame


class RecordingBot(RandomBot):
    """Random play that remembers that it moved last."""

    def __init__(self, log: list) -> None:
        super().__init__(0)
        self.log = log

    def act(self, state):
        self.log.append("opponent")
        return super().act(state)


def test_spaces_hold_every_observation_and_mask():
    env = SeatEnv(game_class=ToyGame, seed=0)
    obs, _ = env.reset(seed=0)
    done = False
    while not done:
        assert env.observation_space.contains(obs)
        mask = env.action_masks()
        assert mask.shape == (env.action_space.n,) and mask.any()
        obs, _, done, _, _ = env.step(int(np.flatnonzero(mask)[0]))
    assert env.observation_space.contains(obs)


def test_learner_gets_its_reward_when_the_game_ends_on_an_opponent_move():
    """A game that ends on the opponent's move still pays the learner its result."""
    checked = 0
    for seed in range(40):
        env = SeatEnv(game_class=ToyGame, config={"num_players": 2}, seat=0, seed=seed)
        env.reset(seed=seed)
        log: list = []
        env.bots[1] = RecordingBot(log)
        done = False
        while not done:
            log.append("learner")
            _, reward, done, _, info = env.step(int(np.flatnonzero(env.action_masks())[-1]))
        if log[-1] != "opponent":
            continue
        checked += 1
        mine, theirs = info["scores"]
        assert reward == (1.0 if mine > theirs else -1.0 if mine < theirs else 0.0)
    assert checked > 5


def test_random_seat_changes_and_fixed_seat_is_validated():
    env = SeatEnv(game_class=ToyGame, config={"num_players": 3}, seed=1)
    seats = {env.reset()[1]["seat"] for _ in range(30)}
    assert seats == {0, 1, 2}
    with pytest.raises(ValueError, match="seat=5"):
        SeatEnv(game_class=ToyGame, seat=5)


def test_action_masks_match_the_engine():
    env = SeatEnv(game_class=ToyGame, seat=1, seed=3)
    env.reset(seed=3)
    assert env.state.current_player() == 1
    assert np.array_equal(env.action_masks(), env.state.legal_mask())


def test_unknown_opponent_kind_is_refused():
    with pytest.raises(ValueError, match="neither one of random, heuristic, self"):
        SeatEnv(game_class=ToyGame, opponents=["grandmaster"])


def test_seat_env_runs_under_subproc_vec_env():
    from stable_baselines3.common.vec_env import SubprocVecEnv

    vec = SubprocVecEnv([lambda i=i: SeatEnv(game_class=ToyGame, seed=i) for i in range(2)])
    try:
        vec.reset()
        for _ in range(20):
            masks = np.stack(vec.env_method("action_masks"))
            actions = [int(np.flatnonzero(m)[0]) for m in masks]
            vec.step(np.array(actions))
    finally:
        vec.close()


def test_weighted_opponent_pool_draws_in_proportion():
    from meeplezoo.training.agents.bots import OpponentPool, parse_weighted

    assert parse_weighted(["self=3", "random"]) == [("self", 3.0), ("random", 1.0)]
    with pytest.raises(ValueError, match="must be a number"):
        parse_weighted(["random=lots"])
    pool = OpponentPool(ToyGame(), ["random=3", "heuristic=1"], seed=0)
    names = [pool.draw().name for _ in range(4000)]
    assert 0.70 < names.count("random") / len(names) < 0.80


def test_potential_shaping_telescopes_to_the_terminal_reward():
    """With gamma=1 the shaped rewards of an episode sum to reward - phi(start)."""
    plain = SeatEnv(game_class=ToyGame, seat=0, seed=5)
    shaped = SeatEnv(game_class=ToyGame, seat=0, seed=5, shaping=2.0, gamma=1.0)
    for env in (plain, shaped):
        env.reset(seed=5)
    phi0 = shaped._potential()
    totals = []
    for env in (plain, shaped):
        total, done = 0.0, False
        while not done:
            _, reward, done, _, _ = env.step(int(np.flatnonzero(env.action_masks())[-1]))
            total += reward
        totals.append(total)
    assert totals[1] == pytest.approx(totals[0] - 2.0 * phi0)
    with pytest.raises(ValueError, match="shaping"):
        SeatEnv(game_class=ToyGame, shaping=-1.0)
