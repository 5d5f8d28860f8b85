"""Shared by the training commands: typed ``--option KEY=VALUE`` game options, the code
commit a run, an export or an evaluation records in its card, and the progress of an SB3
run (``envs.core.progress``, which the envs/ commands share)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from meeplezoo.envs.core.game import parse_options
from meeplezoo.envs.core.progress import Progress

__all__ = ["code_commit", "parse_options", "progress_callback", "require_training_extra"]


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
