"""The gymnasium views pass the checkers their users run (gymnasium's and SB3's
``check_env``), and the seat envs' ``illegal_action`` option that lets them."""

from __future__ import annotations

import contextlib
import inspect
import io
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gymnasium_check_env
from stable_baselines3.common.env_checker import check_env as sb3_check_env

import meeplezoo.envs  # registers the gymnasium ids
from meeplezoo.envs.core.errors import ConfigError, IllegalActionError
from meeplezoo.envs.necropolis_railway.solo import NecropolisSoloEnv
from meeplezoo.training.agents.bots import OpponentPool
from meeplezoo.training.fitting.seat_env import SeatEnv

IDS = sorted(env_id for env_id in gymnasium.registry if env_id.startswith("meeplezoo/"))
# the games the package ships (other tests register toy games of their own, unregistered ids)
GAMES = ["asian_delivery_v1", "chihou_sousei_v1", "hegemony_v1", "necropolis_railway_v1"]


def run_quietly(check, env) -> list[str]:
    """Run a checker (render checks print), returning the warnings it raised."""
    with warnings.catch_warnings(record=True) as caught, \
            contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("always")
        check(env)
    return [str(w.message) for w in caught]


def test_every_seat_env_and_the_solo_env_are_registered():
    assert {"meeplezoo/ChihouSouseiSeat-v1", "meeplezoo/AsianDeliverySeat-v1",
            "meeplezoo/NecropolisRailwaySeat-v1", "meeplezoo/HegemonySeat-v1",
            "meeplezoo/NecropolisRailwaySolo-v1"} <= set(IDS)
    assert {meeplezoo.envs.seat_env_id(name) for name in GAMES} <= set(IDS)


def test_an_asymmetric_games_registered_default_role_is_one_of_its_roles():
    """``SEAT_ENV_ROLES`` is written by hand (registering imports no game): each entry must
    name a role of its game, and every game with several roles must have one, or its id
    could not be made without arguments."""
    assert set(GAMES) <= set(meeplezoo.envs.list_envs())
    for name in GAMES:
        roles = meeplezoo.envs.make_game(name).roles
        if len(roles) > 1 or name in meeplezoo.envs.SEAT_ENV_ROLES:
            assert meeplezoo.envs.SEAT_ENV_ROLES[name] in roles


@pytest.mark.parametrize("role", ["working_class", "middle_class", "capitalist_class", "state"])
def test_hegemony_seat_env_passes_both_checkers_as_every_class(role):
    """Hegemony's classes act and see differently: ``role=`` picks the learner's class, and
    each class's view passes both checkers, with the shipped team in the other seats."""
    def make() -> gymnasium.Env:
        return gymnasium.make("meeplezoo/HegemonySeat-v1", role=role,
                              opponents=["hegemony_v1/ppo_classes", "heuristic"])

    env = make()
    game = env.unwrapped.game
    assert env.unwrapped.role == role
    assert env.action_space.n == game.num_actions(role)
    assert env.observation_space.shape == (game.observation_size(role),)
    assert run_quietly(gymnasium_check_env, env.unwrapped) == []
    assert run_quietly(sb3_check_env, make().unwrapped) == []


def test_hegemony_seat_env_takes_a_seat_or_a_role_and_refuses_a_wrong_one():
    default = gymnasium.make("meeplezoo/HegemonySeat-v1").unwrapped
    assert default.role == meeplezoo.envs.SEAT_ENV_ROLES["hegemony_v1"]
    by_seat = gymnasium.make("meeplezoo/HegemonySeat-v1", seat=3).unwrapped
    assert by_seat.role == by_seat.game.seat_role(3)
    with pytest.raises(ConfigError, match="'wc' is not one of"):
        gymnasium.make("meeplezoo/HegemonySeat-v1", role="wc")
    with pytest.raises(ConfigError, match="seat 0 plays 'working_class', not 'state'"):
        gymnasium.make("meeplezoo/HegemonySeat-v1", role="state", seat=0)
    with pytest.raises(ConfigError, match="name the learner's role"):
        SeatEnv("hegemony_v1")  # built directly: no default, the role is asked for


@pytest.mark.parametrize("env_id", IDS)
def test_gymnasium_check_env_passes_without_warnings_on_every_registered_id(env_id):
    env = gymnasium.make(env_id)
    assert run_quietly(gymnasium_check_env, env.unwrapped) == []  # as its docs advise
    env.close()


@pytest.mark.parametrize("env_id", IDS)
def test_sb3_check_env_passes_without_warnings_on_every_registered_id(env_id):
    env = gymnasium.make(env_id)
    assert run_quietly(sb3_check_env, env.unwrapped) == []
    env.close()


@pytest.mark.parametrize("env_name,role", [
    ("chihou_sousei_v1", None), ("asian_delivery_v1", None),
    ("necropolis_railway_v1", None), ("hegemony_v1", "working_class"),
])
def test_seat_env_built_directly_passes_both_checkers(env_name, role):
    """Built as ``SeatEnv(...)``, Hegemony's with a role: the checkers step unmasked random
    actions, which the default ``illegal_action="terminate"`` turns into the end of the
    episode.  (Without a spec gymnasium cannot remake the env
    in its other render modes, hence no render check.)"""
    def gymnasium_check(env):
        gymnasium_check_env(env, skip_render_check=True)

    assert run_quietly(gymnasium_check, SeatEnv(env_name, role=role, seed=0)) == []
    assert run_quietly(sb3_check_env, SeatEnv(env_name, role=role, seed=0)) == []


def test_seeded_reset_replays_the_episode_whatever_was_played_before():
    """reset(seed) then reset() gives the same games every time: the opponents' bots,
    whose generators advance with play, start afresh from the seed too."""
    env = SeatEnv("necropolis_railway_v1", {"num_players": 3}, seat=2, seed=0)

    def episode_starts() -> list[np.ndarray]:
        starts = [env.reset(seed=123)[0]]
        for _ in range(3):
            for _ in range(10):  # the learner plays on, the opponents' bots move
                mask = env.action_masks()
                if not mask.any() or env.step(int(np.flatnonzero(mask)[0]))[2]:
                    break
            starts.append(env.reset()[0])
        return starts

    first, again = episode_starts(), episode_starts()
    assert all(np.array_equal(a, b) for a, b in zip(first, again))


def test_opponent_pool_seed_restarts_its_draws_and_its_bots():
    pool = OpponentPool(SeatEnv("necropolis_railway_v1", seed=0).game,
                        ["random", "heuristic"], seed=0)
    state = pool.game.new_initial_state(7)

    def play() -> list[tuple[str, int]]:
        pool.seed(11)
        return [(bot.name, bot.act(state)) for bot in (pool.draw(1) for _ in range(20))]

    assert play() == play()


def test_seat_env_illegal_action_defaults_are_the_solo_envs():
    seat = inspect.signature(SeatEnv).parameters
    solo = inspect.signature(NecropolisSoloEnv).parameters
    for option in ("illegal_action", "illegal_reward"):
        assert seat[option].default == solo[option].default


def illegal_action(env: SeatEnv) -> int:
    return int(np.flatnonzero(~env.action_masks())[0])


def test_illegal_action_ends_the_episode_with_the_penalty_by_default():
    env = SeatEnv("necropolis_railway_v1", {"num_players": 2}, seed=0)
    env.reset(seed=1)
    action = illegal_action(env)
    obs, reward, terminated, truncated, info = env.step(action)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["illegal_action"] == env.game.action_name(action, env.role)
    assert env.observation_space.contains(obs)
    assert not env.action_masks().any()
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)
    env.reset()
    assert env.action_masks().any()


def test_illegal_action_penalty_is_configurable_and_out_of_range_actions_end_too():
    env = SeatEnv("necropolis_railway_v1", {"num_players": 2}, seed=0, illegal_reward=-5.0)
    env.reset(seed=1)
    _, reward, terminated, _, info = env.step(env.action_space.n)
    assert (reward, terminated, info["illegal_action"]) == (-5.0, True, env.action_space.n)


def test_illegal_action_raise_names_the_legal_actions():
    env = SeatEnv("necropolis_railway_v1", {"num_players": 2}, seed=0, illegal_action="raise")
    env.reset(seed=1)
    with pytest.raises(IllegalActionError, match="legal: "):
        env.step(illegal_action(env))


def test_bad_illegal_action_and_render_mode_are_refused():
    with pytest.raises(ConfigError, match="illegal_action='ignore'"):
        SeatEnv("necropolis_railway_v1", illegal_action="ignore")
    with pytest.raises(ConfigError, match="render_mode='human'"):
        SeatEnv("necropolis_railway_v1", render_mode="human")
    env = gymnasium.make("meeplezoo/NecropolisRailwaySeat-v1", render_mode="ansi")
    env.reset(seed=0)
    assert "Necropolis" in env.render()
