"""Shared by the training commands: typed ``--option KEY=VALUE`` game options, and the
code commit a run, an export or an evaluation records in its card."""

from __future__ import annotations

from pathlib import Path

from envs.core.game import parse_options

__all__ = ["code_commit", "parse_options"]


def code_commit() -> str:
    """The git commit the code runs at (``+dirty`` with local changes), or "unknown"."""
    import subprocess

    root = Path(__file__).resolve().parents[1]
    try:
        sha = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, text=True,
                             capture_output=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "envs", "training"],
                               cwd=root, text=True, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return sha + ("+dirty" if dirty.strip() else "")
