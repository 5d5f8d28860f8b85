"""Shared by the training commands: typed ``--option KEY=VALUE`` game options, and the
code commit a run, an export or an evaluation records in its card."""

from __future__ import annotations

from pathlib import Path

from meeplezoo.envs.core.game import parse_options

__all__ = ["code_commit", "parse_options", "require_training_extra"]


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
                "extra, the CPU torch wheel first: pip install torch==2.13.0 && "
                "pip install 'meeplezoo[train]'") from None


def code_commit() -> str:
    """The git commit the code runs at (``+dirty`` with local changes), or "unknown"."""
    import subprocess

    root = Path(__file__).resolve().parents[1]
    try:
        sha = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, text=True,
                             capture_output=True, check=True).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "meeplezoo", "envs", "training"],
                               cwd=root, text=True, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return sha + ("+dirty" if dirty.strip() else "")
