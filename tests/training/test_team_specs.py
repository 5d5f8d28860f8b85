"""A team checkpoint (``team.json``, one policy per role) loads and plays wherever a single
checkpoint does: ``opponents.load``, ``make_bot``, ``training.evaluate``, the arena and
``training.play``, by folder, by zoo name, or as the ``TeamAgent`` that ``load`` gives."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from meeplezoo import envs
from meeplezoo.envs.core.agents import play_game
from meeplezoo.training import play
from meeplezoo.training.agents.bots import make_bot
from meeplezoo.training.agents.opponents import (
    CheckpointError,
    PolicyAgent,
    TeamAgent,
    TeamBot,
    load,
)
from meeplezoo.training.evaluation import arena, evaluate
from tests.training.test_balance import tiny_policy

TEAM = "hegemony_v1/ppo_classes"  # the shipped team, by zoo name
TEAM_FOLDER = Path(__file__).resolve().parents[2] / "checkpoints" / "hegemony_v1" / "ppo_classes"


@pytest.fixture(scope="module")
def toy_team(tmp_path_factory) -> Path:
    """A team of the three-role toy, whose trader and judge see and act alike (10, 3)."""
    root = tmp_path_factory.mktemp("toy_team") / "toy_team"
    roles = ("trader", "banker", "judge")
    for k, role in enumerate(roles):
        tiny_policy(root / role, role, k)
    (root / "team.json").write_text(json.dumps(
        {"name": "toy_team", "env": "toy_roles_v0", "roles": {r: r for r in roles}}))
    return root


def test_load_gives_a_team_that_plays_a_pettingzoo_game_by_role():
    team = load(TEAM)
    assert isinstance(team, TeamAgent)
    assert set(team.roles) == set(envs.make_game("hegemony_v1").roles)
    assert all(isinstance(m, PolicyAgent) and m.role == r for r, m in team.members.items())
    env = envs.make("hegemony_v1")
    env.reset(seed=3)
    moves = 0
    for agent in env.agent_iter():  # the agents are named after the classes
        observation, _, terminated, truncated, _ = env.last()
        action = None
        if not (terminated or truncated):
            action = team.act(observation["observation"], observation["action_mask"],
                              role=agent)
            # Hegemony's classes have action lists of their own sizes: no role needed
            assert action == team.act(observation["observation"], observation["action_mask"])
            assert observation["action_mask"][action]
            moves += 1
        env.step(action)
    assert moves > 100


def test_a_team_says_which_role_to_name_where_its_members_look_alike(toy_team):
    team = load(toy_team)
    assert isinstance(team, TeamAgent) and team.name == "toy_team"
    with pytest.raises(ValueError, match=r"roles trader, judge take observations of 10 .*"
                                         r"role=.*make_bot"):
        team.act(np.zeros(10, np.float32), np.ones(3, np.int8))
    banker = team.act(np.zeros(11, np.float32), np.ones(4, np.int8))  # only the banker's sizes
    assert banker == team.members["banker"].act(np.zeros(11, np.float32), np.ones(4, np.int8))
    assert team.act(np.zeros(10, np.float32), np.ones(3, np.int8), role="judge") in range(3)
    with pytest.raises(ValueError, match="no policy for role 'clerk'"):
        team.act(np.zeros(10, np.float32), np.ones(3, np.int8), role="clerk")


def test_a_team_is_checked_against_the_game_and_a_member_folder_names_the_calls(toy_team):
    with pytest.raises(CheckpointError, match="made for env 'toy_roles_v0', not 'hegemony_v1'"):
        load(toy_team).check_compatible(envs.make_game("hegemony_v1"))
    load(toy_team).check_compatible(envs.make_game("toy_roles_v0"), seat=1)
    with pytest.raises(CheckpointError, match=r"is a team .*load\(\).*make_bot.*<role>"):
        PolicyAgent(toy_team)
    assert load(toy_team / "banker").role == "banker"  # a member loads alone


def test_make_bot_plays_a_loaded_team_like_its_folder(toy_team):
    game = envs.make_game("toy_roles_v0")
    loaded = make_bot(load(toy_team), game, seed=0)
    by_folder = make_bot(str(toy_team), game, seed=0)
    assert isinstance(loaded, TeamBot) and isinstance(by_folder, TeamBot)
    games = [play_game(game.new_initial_state(s), [bot] * 3) for s in (1, 2)
             for bot in (loaded, by_folder)]
    assert games[0].scores() == games[1].scores() and games[2].scores() == games[3].scores()


def test_evaluate_takes_a_team_as_agent_field_or_loaded_object(capsys):
    assert evaluate.main(["--env", "hegemony_v1", "--players", "4", "--agents", TEAM,
                          "--field", "random", "--games", "4", "--workers", "1"]) == 0
    assert evaluate.main(["--env", "hegemony_v1", "--players", "4", "--agents", "random",
                          "--field", TEAM, "--games", "4", "--workers", "1"]) == 0
    assert evaluate.main(["--env", "hegemony_v1", "--players", "4", "--agents", TEAM,
                          str(TEAM_FOLDER), "random", "--games", "4", "--workers", "1"]) == 0
    printed = capsys.readouterr().out
    assert f"{TEAM:44} random" in printed and f"{'random':44} {TEAM}" in printed
    result = evaluate.versus_field("hegemony_v1", {"num_players": 4}, load(TEAM), "random",
                                   games=4)
    assert result["candidate"] == "ppo_classes" and result["games"] == 4


def test_the_arena_rates_a_team_given_by_folder_or_as_an_object(tmp_path, capsys):
    copy = tmp_path / "my_team"
    shutil.copytree(TEAM_FOLDER, copy)
    assert arena.main(["--env", "hegemony_v1", "--players", "4", "--games", "4", "--workers",
                       "1", "--bootstrap", "20", "--agents", str(copy)]) == 0
    printed = capsys.readouterr().out
    assert f"`{copy}`" in printed and f"`{TEAM}`" in printed
    result = arena.run_arena("hegemony_v1", 4, agents=[load(TEAM)], games=4, resamples=20)
    assert {row["agent"] for row in result["ratings"]} >= {"ppo_classes", TEAM}


def test_play_seats_a_team_as_every_opponent():
    out = io.StringIO()
    assert play.main(["--env", "hegemony_v1", "--seat", "0", "--opponents", TEAM],
                     io.StringIO("quit\n"), out) == 0
    text = out.getvalue()
    assert f"seat 1: {TEAM}, seat 2: {TEAM}, seat 3: {TEAM}" in text
    assert f"({TEAM}) plays " in text  # a member moved before the human's first turn
