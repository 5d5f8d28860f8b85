"""Every shipped opponent loads without torch, fits its env and plays legal games."""

import json
from pathlib import Path

import numpy as np
import pytest

import envs
from envs.core.agents import RandomBot, play_game
from training.bots import make_bot
from training.opponents import PolicyBot, load
from training.search import LookaheadBot

ROOT = Path(__file__).resolve().parents[2] / "checkpoints"
SHIPPED = sorted(p.parent for p in ROOT.glob("*/*/card.json"))


def test_each_shipped_env_has_an_opponent():
    assert {p.parent.name for p in SHIPPED} >= {
        "chihou_sousei_v1", "asian_delivery_v1", "necropolis_railway_v1"}


@pytest.mark.parametrize("folder", SHIPPED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_shipped_opponent_plays_legal_games(folder):
    card = json.loads((folder / "card.json").read_text())
    assert card["env"] == folder.parent.name
    for key in ("command", "training_steps", "seed", "evaluation", "wall_time_s", "arch",
                "reward", "shaping"):
        assert card[key], f"card lacks {key}"
    agent = load(folder)
    for n in card["player_counts"]:
        game = envs.make_game(card["env"], num_players=n, **card["config"])
        agent.check_compatible(game)
        bots = [PolicyBot(agent)] + [RandomBot(s) for s in range(1, n)]
        state = play_game(game.new_initial_state(seed=n), bots)
        assert state.is_terminal() and np.isfinite(state.scores()).all()


LOOKAHEAD = [p for p in SHIPPED if json.loads((p / "card.json").read_text()).get("lookahead")]


@pytest.mark.parametrize("folder", LOOKAHEAD, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_shipped_lookahead_plays_its_search_in_a_legal_game(folder):
    """A look-ahead opponent is its base network plus the card's search; it
    searches in a real game and every move is legal (one game: it is slow)."""
    card = json.loads((folder / "card.json").read_text())
    base = folder.parent / card["lookahead"]["base"]
    assert (base / "policy.onnx").read_bytes() == (folder / "policy.onnx").read_bytes()
    assert card["lookahead"]["command"].startswith("python -m training.export --lookahead ")
    n = card["player_counts"][0]
    game = envs.make_game(card["env"], num_players=n, **card["config"])
    bot = make_bot(str(folder), game, seed=0)
    assert isinstance(bot, LookaheadBot)
    state = play_game(game.new_initial_state(seed=7), [bot] + [RandomBot(s) for s in range(1, n)])
    assert state.is_terminal() and bot.searched > 0
