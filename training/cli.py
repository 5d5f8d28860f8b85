"""Shared by the training commands: typed ``--option KEY=VALUE`` game options, the code
commit a run, an export or an evaluation records in its card, a card's ``reproduce`` list
(each command that makes or ships a network adds its step), and the progress of an SB3 run
(``envs.core.progress``, which the envs/ commands share)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from meeplezoo.envs.core.game import parse_options
from meeplezoo.envs.core.progress import Progress

__all__ = ["REPRODUCE_STAGES", "add_reproduce_step", "code_commit", "parse_options",
           "progress_callback", "reproduce_steps", "require_training_extra"]


def progress_callback(what: str, style: bool | str | None = "lines") -> Any:
    """An SB3 callback that counts a ``learn`` call's steps in a ``Progress`` (``style``:
    see ``envs.core.progress``): the steps of this call out of its total, steps/s and the
    time left.  ``close()`` ends it early (when ``learn`` raised)."""
    from stable_baselines3.common.callbacks import BaseCallback

    class StepProgress(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.progress: Progress | None = None
            self.first = 0

        def _on_training_start(self) -> None:
            self.first = self.num_timesteps  # a resumed run's earlier steps are not this call's
            total = int(self.locals.get("total_timesteps", self.first)) - self.first
            rollout = int(getattr(self.model, "n_steps", 0) or 0) * self.model.n_envs
            if rollout > 0:  # PPO collects whole rollouts: the run takes this many steps
                total = -(-total // rollout) * rollout
            self.progress = Progress(total, what, unit="step", style=style)

        def _on_step(self) -> bool:
            if self.progress is not None:
                self.progress.set(self.num_timesteps - self.first)
            return True

        def _on_training_end(self) -> None:
            self.close()

        def close(self, final: bool = True) -> None:
            if self.progress is not None:
                self.progress.close(final)

    return StepProgress()


def require_training_extra(command: str) -> None:
    """Stop a command that fits networks with a clear message when torch, SB3 or
    sb3-contrib is missing (the torch-free ``[play]`` install loads and plays only)."""
    import importlib

    for module in ("torch", "stable_baselines3", "sb3_contrib"):
        try:
            importlib.import_module(module)
        except ImportError:
            raise SystemExit(
                f"{command} needs {module}, which is not installed: install the training "
                "extra from your clone, the CPU torch wheel first: `make install` (give "
                "TORCH_INDEX=<PyTorch's CPU index URL> where pip would fetch the CUDA build), "
                "or pip install torch==2.13.0 && pip install -e '.[train]'") from None


def code_commit() -> str:
    """The git commit the code runs at (``+dirty`` with local changes).  A copy of the tree
    without its git history (a machine it was sent to) says which commit it is by
    ``MEEPLEZOO_CODE_COMMIT``; else "unknown"."""
    import os
    import subprocess

    root = Path(__file__).resolve().parents[1]
    try:
        sha = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, text=True,
                             capture_output=True, check=True).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "meeplezoo", "envs", "training"],
                               cwd=root, text=True, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return os.environ.get("MEEPLEZOO_CODE_COMMIT") or "unknown"
    return sha + ("+dirty" if dirty.strip() else "")


# A card's ``reproduce`` list: the commands that made its network, in this order of stages
# (``meeplezoo reproduce`` prints, checks and runs it; docs/training.md).
# "tune": a card's own tuning of its search levels (meeplezoo levels --tune), of the network
# the steps before it made
REPRODUCE_STAGES = ("train", "export", "team", "carry", "records", "value", "rounds", "tune",
                    "ship")


def reproduce_steps(card: dict[str, Any]) -> list[dict[str, Any]]:
    """A copy of the card's ``reproduce`` list; for a card from before the lists, one train
    step per segment of its chained ``command`` (each with its code commit where the card's
    ``code_commit`` chain has one per command), or a team card's bundle."""
    steps = card.get("reproduce")
    if isinstance(steps, list):
        return [dict(step) for step in steps]
    if "members" in card:  # a team card's command is its bundle (its members' cards: the rest)
        return [{"stage": "team", "command": card["command"], "what": "bundle one member per "
                 "role", **({"code_commit": card["code_commit"]} if card.get("code_commit")
                            else {})}] if card.get("command") else []
    segments = [s for s in str(card.get("command") or "").split(" && ") if s.strip()]
    commits = [c for c in str(card.get("code_commit") or "").split(" && ") if c.strip()]
    tools = [s for s in segments if not s.startswith(("mkdir ", "cp "))]
    commit_of = dict(zip(tools, commits, strict=True)) if len(tools) == len(commits) else {}
    out = []
    for segment in segments:
        step = {"stage": "rounds" if segment.startswith("meeplezoo expert-iterate") else "train",
                "command": segment, "what": "a command of the card's chained command"}
        if segment in commit_of:
            step["code_commit"] = commit_of[segment]
        out.append(step)
    return out


def add_reproduce_step(card: dict[str, Any], stage: str, command: str, what: str,
                       last: bool = False, **facts: Any) -> dict[str, Any]:
    """``card`` with one more step in its ``reproduce`` list (the list built first where the
    card has none), after every step of its stage or an earlier one; with ``last``, after
    every step: a command that starts from the network the whole list made (expert iteration
    from a shipped network, whose list ends with the steps that shipped it) comes after all
    of them.  ``facts``: its ``code_commit``, ``wall_time_s``, where they are known."""
    steps = reproduce_steps(card)
    rank = REPRODUCE_STAGES.index(stage)
    at = len(steps) if last else max(
        (k + 1 for k, s in enumerate(steps) if s.get("stage") in REPRODUCE_STAGES
         and REPRODUCE_STAGES.index(s["stage"]) <= rank), default=0)
    step = {"stage": stage, "command": command, "what": what,
            **{k: v for k, v in facts.items() if v is not None}}
    card["reproduce"] = [*steps[:at], step, *steps[at:]]
    return card
