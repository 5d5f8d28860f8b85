"""Export an RLlib run's policies in the suite's checkpoint format (ONNX + card.json).

    meeplezoo rllib-export --checkpoint runs/rl/checkpoint --name rllib_ppo \
        [--out runs/checkpoints]

One module (a symmetric game) becomes ``<out>/<env>/<name>/``; one module per role
becomes a checkpoint per role, ``<out>/<env>/<name>_<role>/``, bundled as the team
``<out>/<env>/<name>/`` (``training.export.export_team``).  ``training.opponents.load``,
``training.evaluate`` and the arena take them like SB3's exports.  The run's facts come
from ``run.json`` beside the checkpoint (written by ``training.rllib.train``).
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import sys
from pathlib import Path
from typing import Any

import torch
from ray.rllib.core import COMPONENT_LEARNER, COMPONENT_LEARNER_GROUP, COMPONENT_RL_MODULE
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModule

from meeplezoo import envs
from meeplezoo.envs.core.command import run_command
from meeplezoo.training.export import export_team
from meeplezoo.training.fitting.onnx import card_for, write_masked_onnx
from meeplezoo.training.rllib.env import register_envs

RUN_FILE = "run.json"


def load_modules(checkpoint: str | Path) -> dict[str, Any]:
    """The trained modules (role -> module) of an ``Algorithm.save_to_path`` folder: the
    learner's copy, the one the last update wrote."""
    path = (Path(checkpoint) / COMPONENT_LEARNER_GROUP / COMPONENT_LEARNER
            / COMPONENT_RL_MODULE).resolve()
    if not path.is_dir():
        raise FileNotFoundError(f"{checkpoint} is not an RLlib checkpoint: {path} is missing")
    multi = MultiRLModule.from_checkpoint(path)
    return {module_id: module.eval() for module_id, module in multi.items()}


class MaskedLogits(torch.nn.Module):
    """A module's deterministic policy with the checkpoint format's inputs and outputs: the
    masked logits, and the critic's value (``[batch, 1]``, a search's leaf estimate) as the
    second output, as SB3 exports have it."""

    def __init__(self, module: Any) -> None:
        super().__init__()
        self.module = module

    def forward(self, observation: torch.Tensor,
                action_mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return (self.module.masked_logits(observation, action_mask),
                self.module.value(observation).reshape(-1, 1))


def export_module(module: Any, run: dict[str, Any], role: str, name: str,
                  out: str | Path) -> Path:
    """One role's module as ``<out>/<env>/<name>/`` (policy.onnx + card.json)."""
    game = envs.make_game(run["env"], **run["config"])
    folder = Path(out) / game.name / name
    if folder.exists():
        shutil.rmtree(folder)
    write_masked_onnx(MaskedLogits(module).eval(), game.observation_size(role),
                      game.num_actions(role), folder / "policy.onnx")
    card = card_for(game, name, "any", {**run, "role": role})
    (folder / "card.json").write_text(json.dumps(card, indent=2) + "\n")
    return folder


def export_checkpoint(checkpoint: str | Path, name: str, out: str | Path = "runs/checkpoints",
                      command: str | None = None) -> Path:
    """Export every policy of a run; returns the checkpoint (or team) folder."""
    checkpoint = Path(checkpoint)
    modules = load_modules(checkpoint)
    run_file = checkpoint.parent / RUN_FILE
    if not run_file.is_file():
        raise FileNotFoundError(f"{run_file} (written by training.rllib.train beside the "
                                "checkpoint) is missing")
    run = json.loads(run_file.read_text())
    register_envs(run.get("register") or {})
    if len(modules) == 1:
        (role, module), = modules.items()
        return export_module(module, run, role, name, out)
    members = [str(export_module(module, run, role, f"{name}_{role}", out))
               for role, module in modules.items()]
    team = Path(out) / run["env"] / name
    if team.exists():
        shutil.rmtree(team)
    return export_team(name, members, out, command or run.get("command"))


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(description="Export an RLlib run as MeepleZoo opponents")
    parser.add_argument("--checkpoint", required=True,
                        help="the run's checkpoint folder (<run>/checkpoint)")
    parser.add_argument("--name", required=True, help="checkpoint (or team) name")
    parser.add_argument("--out", default="runs/checkpoints",
                        help="where <env>/<name>/ is written (default runs/checkpoints)")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    try:
        folder = export_checkpoint(args.checkpoint, args.name, args.out,
                                   "meeplezoo rllib-export " + shlex.join(argv))
    except FileNotFoundError as exc:
        parser.error(str(exc))
    print(f"exported {folder}")
    return 0


if __name__ == "__main__":
    raise SystemExit(run_command(main))
