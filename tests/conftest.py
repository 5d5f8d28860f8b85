"""Shared test set-up: the toy game is registered as an env for core and training tests;
a checkpoint without any value."""

import json
import shutil
from pathlib import Path

import pytest

from meeplezoo import envs

envs.register("toy_v0", "tests.core.toy_game")
envs.register("toy_v1", "tests.core.toy_game_v1")
envs.register("toy_roles_v0", "tests.core.roles_toy")

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def valueless_checkpoint(tmp_path: Path) -> Path:
    """A copy of 地方創生's shipped network exported before the value output, without the
    value fitted after export: a checkpoint with no value at all, whatever is shipped."""
    source = REPO / "checkpoints" / "chihou_sousei_v1" / "ppo_league"
    folder = tmp_path / "valueless"
    folder.mkdir()
    shutil.copyfile(source / "policy.onnx", folder / "policy.onnx")
    card = json.loads((source / "card.json").read_text())
    for key in ("value_file", "value_fit"):
        card.pop(key, None)
    (folder / "card.json").write_text(json.dumps(card, indent=2, ensure_ascii=False))
    return folder
