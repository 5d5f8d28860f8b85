"""RLlib self-play training, one iteration each: per role on the asymmetric toy (a team),
shared on Necropolis Railway; exported, loaded by training.opponents, played, evaluated
and rated like SB3's checkpoints; the ONNX export picks the RLlib module's actions."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("ray.rllib")

from meeplezoo import envs
from meeplezoo.envs.core.agents import RandomBot, play_game
from meeplezoo.training.agents.opponents import TeamAgent, TeamBot, load, network_bot

SMALL = ["--iterations", "1", "--batch-size", "200", "--minibatch-size", "100", "--epochs",
         "1", "--net", "32,32", "--eval-games", "4", "--seed", "3"]


def _train(tmp_path_factory, *argv: str):
    from meeplezoo.training.rllib.train import build_parser, train

    out = tmp_path_factory.mktemp("rllib")
    argv = [*argv, *SMALL, "--out", str(out)]
    folder = train(build_parser().parse_args(argv), argv)
    return out, folder


@pytest.fixture(scope="module")
def toy_run(ray_here, tmp_path_factory):
    return _train(tmp_path_factory, "--env", "toy_roles_v0", "--register",
                  "toy_roles_v0=tests.core.roles_toy")


@pytest.fixture(scope="module")
def necropolis_run(ray_here, tmp_path_factory):
    return _train(tmp_path_factory, "--env", "necropolis_railway_v1", "--players", "2")


def test_the_toy_trains_one_policy_per_role_and_exports_a_team(toy_run):
    out, folder = toy_run
    run = json.loads((out / "run.json").read_text())
    assert run["roles"] == ["banker", "judge", "trader"]
    assert run["timesteps_done"] >= 200 and run["iterations_done"] == 1
    assert set(run["evaluation"]["vs_random"]["role_win_rate"]) == {"trader", "banker", "judge"}
    team = json.loads((folder / "team.json").read_text())
    assert sorted(team["roles"]) == ["banker", "judge", "trader"]
    game = envs.make_game("toy_roles_v0")
    assert isinstance(load(folder), TeamAgent)  # load takes the team like any checkpoint
    bot = TeamBot(folder, game, seed=1)
    for role, member in bot.by_role.items():
        assert member.agent.role == role
        assert member.agent.card["algorithm"].startswith("PPO (Ray RLlib 2.60.0")
        assert member.agent.observation_size == game.observation_size(role)
    state = play_game(game.new_initial_state(7), [bot, bot, bot])
    assert state.is_terminal()
    mixed = [network_bot(str(folder), game, seed=2), RandomBot(3), RandomBot(4)]
    assert play_game(game.new_initial_state(8), mixed).is_terminal()


def test_the_export_command_rebuilds_the_team_from_the_saved_run(toy_run, tmp_path):
    from meeplezoo.training.rllib.export import main

    out, _ = toy_run
    assert main(["--checkpoint", str(out / "checkpoint"), "--name", "again",
                 "--out", str(tmp_path)]) == 0
    folder = tmp_path / "toy_roles_v0" / "again"
    assert (folder / "team.json").is_file()
    for role in ("trader", "banker", "judge"):
        assert load(folder / role).role == role
        assert load(tmp_path / "toy_roles_v0" / f"again_{role}").role == role


def test_necropolis_trains_one_shared_policy_that_plays_evaluates_and_rates(necropolis_run):
    from meeplezoo.training.evaluation.arena import run_arena
    from meeplezoo.training.evaluation.evaluate import versus_field

    out, folder = necropolis_run
    agent = load(folder)
    assert agent.role == "player" and agent.card["player_counts"] == [2]
    assert agent.card["training_steps"] == json.loads(
        (out / "run.json").read_text())["timesteps_done"]
    game = envs.make_game("necropolis_railway_v1", num_players=2)
    agent.check_compatible(game, 1)
    bot = network_bot(str(folder), game)
    assert play_game(game.new_initial_state(5), [bot, RandomBot(1)]).is_terminal()
    result = versus_field("necropolis_railway_v1", {"num_players": 2}, str(folder), "random",
                          games=2, seed=1)
    assert result["games"] == 2 and 0.0 <= result["win_rate"] <= 1.0
    rated = run_arena("necropolis_railway_v1", 2, agents=[str(folder), "random"], games=2)
    assert {r["agent"] for r in rated["ratings"]} >= {str(folder), "random"}


def _sampled_states(env_name: str, config: dict, games: int, seed: int):
    """(role, observation, mask) of every decision in random games."""
    game = envs.make_game(env_name, **config)
    bot = RandomBot(seed)
    for g in range(games):
        state = game.new_initial_state(seed + g)
        while not state.is_terminal():
            seat = state.current_player()
            yield game.seat_role(seat), state.observation(seat), state.legal_mask()
            state.apply(bot.act(state))


@pytest.mark.parametrize("which", ["toy", "necropolis"])
def test_the_onnx_export_chooses_the_rllib_modules_actions(which, toy_run, necropolis_run):
    import torch

    from meeplezoo.training.rllib.export import load_modules

    out, folder = toy_run if which == "toy" else necropolis_run
    run = json.loads((out / "run.json").read_text())
    modules = load_modules(out / "checkpoint")
    agents = {role: load(folder / role if len(modules) > 1 else folder) for role in modules}
    checked = 0
    games = 20 if which == "toy" else 2
    for role, obs, mask in _sampled_states(run["env"], run["config"], games, seed=11):
        legal = mask.astype(bool)
        with torch.no_grad():
            logits = modules[role].masked_logits(
                torch.as_tensor(obs[None]), torch.as_tensor(legal[None], dtype=torch.float32))
        probs = torch.softmax(logits, -1)[0].numpy()
        assert probs[~legal].max(initial=0.0) == 0.0  # the module never samples a masked action
        assert agents[role].act(obs, mask) == int(np.argmax(logits[0].numpy()))
        onnx_logits = agents[role].logits(obs, legal)
        assert np.allclose(onnx_logits[legal], logits[0].numpy()[legal], rtol=1e-4, atol=1e-4)
        with torch.no_grad():  # the critic rides along as the export's value output
            value = float(modules[role].value(torch.as_tensor(obs[None]))[0])
        assert agents[role].has_value
        assert agents[role].value(obs, legal) == pytest.approx(value, abs=1e-4)
        checked += 1
    assert checked > 150


def test_the_wrapper_is_turn_based_and_ends_with_every_agents_result():
    from meeplezoo.training.rllib.env import MeepleMultiAgentEnv, RoleMapping, agent_roles

    config = {"env": "toy_roles_v0", "register": {"toy_roles_v0": "tests.core.roles_toy"}}
    env = MeepleMultiAgentEnv(config)
    obs, _ = env.reset(seed=4)
    rng = np.random.default_rng(0)
    decisions = 0
    while True:
        (agent, seen), = obs.items()  # only the agent to move observes
        assert env.observation_spaces[agent].contains(seen)
        legal = np.flatnonzero(seen["action_mask"])
        obs, rewards, terminated, truncated, infos = env.step({agent: rng.choice(legal)})
        decisions += 1
        if terminated["__all__"]:
            break
        assert set(obs) == set(rewards) and rewards[set(obs).pop()] == 0.0
    assert set(obs) == set(rewards) == set(infos) == {"trader", "banker", "judge"}
    assert not truncated["__all__"] and abs(sum(rewards.values())) < 1e-9  # rank rewards
    assert {info["role"]: info["seat"] for info in infos.values()} == {
        "trader": 0, "banker": 1, "judge": 2}
    assert infos["judge"]["decisions"] == decisions
    mapping = RoleMapping(agent_roles(env))
    assert [mapping(a) for a in ("trader", "banker", "judge")] == ["trader", "banker", "judge"]
    shared = RoleMapping(agent_roles(MeepleMultiAgentEnv({"env": "necropolis_railway_v1"})))
    assert shared("player_0") == shared("player_1") == "player"
