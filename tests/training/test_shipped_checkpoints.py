"""Every shipped opponent loads without torch, fits its env and plays legal games."""

import json
from pathlib import Path

import numpy as np
import pytest

from meeplezoo import envs
from meeplezoo.envs.core.agents import RandomBot, play_game
from meeplezoo.training.agents.bots import make_bot
from meeplezoo.training.agents.opponents import PolicyBot, TeamBot, load
from meeplezoo.training.agents.search import LookaheadBot
from meeplezoo.training.evaluation.evaluate import play_many

ROOT = Path(__file__).resolve().parents[2] / "checkpoints"
SHIPPED = sorted(p.parent for p in ROOT.glob("*/*/card.json"))
TEAMS = sorted(p.parent for p in ROOT.glob("*/*/team.json"))
MEMBERS = sorted(p.parent for p in ROOT.glob("*/*/*/card.json"))  # a team's, one per role


def test_each_shipped_env_has_an_opponent():
    assert {p.parent.name for p in SHIPPED + TEAMS} >= {
        "chihou_sousei_v1", "asian_delivery_v1", "necropolis_railway_v1", "hegemony_v1"}


@pytest.mark.parametrize("folder", SHIPPED + MEMBERS,
                         ids=lambda p: p.relative_to(ROOT).as_posix())
def test_shipped_opponent_plays_legal_games(folder):
    card = json.loads((folder / "card.json").read_text())
    assert card["env"] == folder.relative_to(ROOT).parts[0]
    for key in ("command", "training_steps", "seed", "evaluation", "wall_time_s", "arch",
                "reward", "shaping"):
        assert card[key], f"card lacks {key}"
    agent = load(folder)
    for n in card["player_counts"]:
        game = envs.make_game(card["env"], num_players=n, **card["config"])
        agent.check_compatible(game)
        # the seat of its role (a role policy plays only there), random play elsewhere
        seat = next(s for s in range(n) if card.get("role") in (None, game.seat_role(s)))
        bots = [PolicyBot(agent) if s == seat else RandomBot(s) for s in range(n)]
        state = play_game(game.new_initial_state(seed=n), bots)
        assert state.is_terminal() and np.isfinite(state.scores()).all()


@pytest.mark.parametrize("folder", TEAMS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_a_shipped_team_plays_a_full_game_and_any_role_in_evaluate(folder):
    """The team in every seat for one whole game, then, through ``training.evaluate``, in
    each role's seat against random play."""
    team = json.loads((folder / "team.json").read_text())
    env_name = folder.parent.name
    assert team["env"] == env_name and team["evaluation"], "team.json lacks its evaluation"
    game = envs.make_game(env_name)
    bot = make_bot(str(folder), game, seed=0)
    assert isinstance(bot, TeamBot)
    state = play_game(game.new_initial_state(seed=1), [bot] * game.num_players)
    assert state.is_terminal() and np.isfinite(state.scores()).all()
    seats = game.num_players
    lineups = [[str(folder) if s == k else "random" for s in range(seats)] for k in range(seats)]
    results = play_many(env_name, {}, lineups, seed=2, workers=1)
    assert [r["lineup"] for r in results] == lineups
    assert all(len(r["scores"]) == seats and r["winners"] for r in results)
    assert sorted(team["roles"]) == sorted(game.seat_role(s) for s in range(seats))


LOOKAHEAD = [p for p in SHIPPED if json.loads((p / "card.json").read_text()).get("lookahead")]


@pytest.mark.parametrize("folder", LOOKAHEAD, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_shipped_lookahead_plays_its_search_in_a_legal_game(folder):
    """A look-ahead opponent is its base network plus the card's search; it
    searches in a real game and every move is legal (one game: it is slow)."""
    card = json.loads((folder / "card.json").read_text())
    base = folder.parent / card["lookahead"]["base"]
    assert (base / "policy.onnx").read_bytes() == (folder / "policy.onnx").read_bytes()
    command = card["lookahead"]["command"]  # shipped before or after the meeplezoo namespace
    assert command.split(" --lookahead ")[0] in (
        "python -m training.export", "meeplezoo export")
    n = card["player_counts"][0]
    game = envs.make_game(card["env"], num_players=n, **card["config"])
    bot = make_bot(str(folder), game, seed=0)
    assert isinstance(bot, LookaheadBot)
    state = play_game(game.new_initial_state(seed=7), [bot] + [RandomBot(s) for s in range(1, n)])
    assert state.is_terminal() and bot.searched > 0
