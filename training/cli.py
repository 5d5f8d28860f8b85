"""Shared by the training commands: typed ``--option KEY=VALUE`` game options, and the
code commit a run, an export or an evaluation records in its card."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def parse_options(items: list[str]) -> dict[str, Any]:
    """``KEY=VALUE`` strings to typed game options (true/false, ints, strings)."""
    options: dict[str, Any] = {}
    for item in items:
        if "=" not in item:
            raise SystemExit(f"--option {item!r} must look like KEY=VALUE")
        key, value = item.split("=", 1)
        if value.lower() in ("true", "false"):
            options[key] = value.lower() == "true"
        elif value.lstrip("-").isdigit():
            options[key] = int(value)
        else:
            options[key] = value
    return options


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
