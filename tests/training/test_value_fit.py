"""``meeplezoo fit-value``: a shipped policy gets a value network after export, which
``PolicyAgent`` reads and the levels' search uses at its leaves."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from meeplezoo import envs
from meeplezoo.envs.core.errors import ConfigError
from meeplezoo.training.agents.ismcts import network_value
from meeplezoo.training.agents.opponents import CheckpointError, PolicyAgent, checkpoint_folder
from meeplezoo.training.fitting import value_fit

SOURCE = "necropolis_railway_v1/ppo_league"
SMALL = ["--games", "8", "--keep", "0.5", "--epochs", "2", "--hidden", "8", "--seed", "3"]


@pytest.fixture(scope="module")
def fitted(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("value") / "necro"
    assert value_fit.main(["--checkpoint", SOURCE, "--out", str(out), *SMALL]) == 0
    return out


def test_the_copy_names_its_value_file_and_how_it_was_made(fitted):
    card = json.loads((fitted / "card.json").read_text())
    assert card["value_file"] == "value.onnx" and (fitted / "value.onnx").is_file()
    fit = card["value_fit"]
    assert fit["games"] == 8 and fit["players"] == 2 and fit["held_out_games"] == 1
    assert fit["positions"] > 0 and fit["held_out_positions"] > 0
    assert fit["command"].startswith("meeplezoo fit-value --checkpoint " + SOURCE)
    source = checkpoint_folder(SOURCE)
    assert (fitted / "policy.onnx").read_bytes() == (source / "policy.onnx").read_bytes()
    # the source is untouched (the shipped card has its own value, fitted on records)
    assert json.loads((source / "card.json").read_text()).get("value_fit") != fit
    assert (fitted / "value.onnx").read_bytes() != (source / "value.onnx").read_bytes()


def test_the_agent_has_a_value_and_the_search_reads_it(fitted, valueless_checkpoint):
    agent = PolicyAgent(fitted)
    assert agent.has_value
    assert not PolicyAgent(valueless_checkpoint).has_value
    game = envs.make_game("necropolis_railway_v1", num_players=2)
    state = game.new_initial_state(5)
    obs = np.stack([state.observation(0), state.observation(1)])
    values = agent.values_batch(obs, np.ones((2, agent.action_count)))
    assert values.shape == (2,) and np.isfinite(values).all()
    assert agent.value(obs[0], state.legal_mask()) == pytest.approx(values[0], abs=1e-6)
    leaf = network_value(agent)(state, 0)
    assert leaf == pytest.approx((values[0] + 1) / 2)


def test_the_same_seed_fits_the_same_figures(fitted, tmp_path):
    again = tmp_path / "again"
    value_fit.main(["--checkpoint", SOURCE, "--out", str(again), *SMALL])
    first = json.loads((fitted / "card.json").read_text())["value_fit"]
    second = json.loads((again / "card.json").read_text())["value_fit"]
    for key in ("positions", "held_out_positions", "held_out_mse", "mean_only_mse"):
        assert first[key] == second[key], key


def test_a_card_naming_a_missing_or_wrong_value_file_is_refused(fitted, tmp_path):
    broken = tmp_path / "broken"
    shutil.copytree(fitted, broken)
    (broken / "value.onnx").unlink()
    with pytest.raises(CheckpointError, match=r"value_file 'value\.onnx'"):
        PolicyAgent(broken)
    (broken / "value.onnx").write_bytes(b"not a network")
    with pytest.raises(CheckpointError, match="not a value network"):
        PolicyAgent(broken)
    card = json.loads((broken / "card.json").read_text())
    card["value_file"] = "../card.json"
    (broken / "card.json").write_text(json.dumps(card))
    with pytest.raises(CheckpointError, match="not a file of the folder"):
        PolicyAgent(broken)


@pytest.mark.parametrize("args, message", [
    (["--games", "1"], "at least 2"),
    (["--keep", "0"], "--keep"),
    (["--players", "7"], "plays"),
])
def test_bad_options_are_refused(tmp_path, args, message):
    with pytest.raises(ConfigError, match=message):
        value_fit.main(["--checkpoint", SOURCE, "--out", str(tmp_path / "x"), *args])


def test_a_folder_in_use_is_not_overwritten(tmp_path):
    (tmp_path / "used").mkdir()
    (tmp_path / "used" / "notes.txt").write_text("mine")
    with pytest.raises(ConfigError, match="not empty"):
        value_fit.main(["--checkpoint", SOURCE, "--out", str(tmp_path / "used"), "--games", "4"])
