"""Shared test set-up: the toy game is registered as an env for core and training tests;
a checkpoint without any value."""

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from meeplezoo import envs

envs.register("toy_v0", "tests.core.toy_game")
envs.register("toy_v1", "tests.core.toy_game_v1")
envs.register("toy_roles_v0", "tests.core.roles_toy")

REPO = Path(__file__).resolve().parent.parent


def without_values(source: Path, folder: Path) -> Path:
    """A copy of a checkpoint or team folder with every value fitted after export removed
    (``value_file``, ``value_fit`` and the file itself): a network whose search levels play
    out their leaves, whatever is shipped."""
    shutil.copytree(source, folder)
    for card_path in folder.rglob("card.json"):
        card = json.loads(card_path.read_text())
        name = card.pop("value_file", None)
        card.pop("value_fit", None)
        if name:
            (card_path.parent / name).unlink()
        card_path.write_text(json.dumps(card, indent=2, ensure_ascii=False))
    return folder


@pytest.fixture
def valueless_copy(tmp_path: Path) -> Callable[[str], Path]:
    """``valueless_copy("hegemony_v1/ppo_classes")``: a copy of a shipped checkpoint or team
    (``checkpoints/`` path below it) without its fitted values (``without_values``)."""
    return lambda name: without_values(REPO / "checkpoints" / name,
                                       tmp_path / name.replace("/", "_"))


@pytest.fixture
def valueless_checkpoint(tmp_path: Path) -> Path:
    """A copy of 地方創生's shipped network, exported before the value output, without the
    value fitted after export: a checkpoint with no value at all, whatever is shipped."""
    return without_values(REPO / "checkpoints" / "chihou_sousei_v1" / "ppo_league",
                          tmp_path / "valueless")
