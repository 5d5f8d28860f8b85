"""A team checkpoint carried to a newer version of its env (``training.export --carry``),
as Hegemony's team went from ``hegemony_v0`` to ``hegemony_v1``."""

import json
import shutil
from pathlib import Path

import pytest

from meeplezoo import envs
from meeplezoo.training import export
from meeplezoo.training.agents.bots import make_bot
from meeplezoo.training.agents.opponents import TeamBot
from meeplezoo.training.agents.zoo import CheckpointError

TEAM = Path(__file__).resolve().parents[2] / "checkpoints" / "hegemony_v1" / "ppo_classes"


def _as_v0(tmp_path: Path) -> Path:
    """The shipped team as it was under ``hegemony_v0`` (cards naming the old id)."""
    old = tmp_path / "old" / "hegemony_v0" / "ppo_classes"
    shutil.copytree(TEAM, old)
    for path in old.glob("**/*.json"):
        data = json.loads(path.read_text())
        data.update(env="hegemony_v0", evaluation={"vs_random": {"games": 7}},
                    carried_from=[])
        if "env_version" in data:
            data["env_version"] = 0
        path.write_text(json.dumps(data))
    return old


def test_carry_a_team_member_by_member_with_its_evaluation_kept_as_history(tmp_path):
    old = _as_v0(tmp_path)
    out = tmp_path / "zoo"
    assert export.main(["--carry", str(old), "--to-env", "hegemony_v1", "--out", str(out)]) == 0
    folder = out / "hegemony_v1" / "ppo_classes"
    team = json.loads((folder / "team.json").read_text())
    assert team["env"] == "hegemony_v1" and team["evaluation"] is None
    assert team["carried_from"][0]["env"] == "hegemony_v0"
    assert team["carried_from"][0]["evaluation"] == {"vs_random": {"games": 7}}
    carries = [s for s in team["reproduce"] if s["stage"] == "carry"]
    assert carries[-1]["command"].startswith(f"meeplezoo export --carry {old}")
    for role in team["roles"]:
        card = json.loads((folder / role / "card.json").read_text())
        assert (card["env"], card["env_version"], card["evaluation"]) == ("hegemony_v1", 1, None)
        assert card["carried_from"][0]["evaluation"] == {"vs_random": {"games": 7}}
        carries = [s for s in card["reproduce"] if s["stage"] == "carry"]  # in stage order
        assert carries[-1]["command"].startswith(f"meeplezoo export --carry {old}")
        for name in ("policy.onnx", *([card["value_file"]] if "value_file" in card else [])):
            assert (folder / role / name).read_bytes() == (old / role / name).read_bytes()
    assert isinstance(make_bot(str(folder), envs.make_game("hegemony_v1"), seed=0), TeamBot)
    with pytest.raises(CheckpointError, match="exists already"):
        export.carry_checkpoint(old, "hegemony_v1", out)


def test_carry_a_team_refuses_a_member_of_another_layout_and_leaves_nothing(tmp_path):
    old = _as_v0(tmp_path)
    card_path = old / "state" / "card.json"
    card = json.loads(card_path.read_text())
    card_path.write_text(json.dumps({**card, "feature_names_hash": "0" * 16}))
    out = tmp_path / "zoo"
    with pytest.raises(CheckpointError, match="another observation or action layout"):
        export.carry_checkpoint(old, "hegemony_v1", out)
    assert not (out / "hegemony_v1" / "ppo_classes").exists()
