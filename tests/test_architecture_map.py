"""ARCHITECTURE.md follows one action from ``env.step`` to its rule in each game, naming each
file and function on the way; a name the code no longer has fails here, so the map cannot rot
quietly."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GAMES = {"地方創生": "chihou_sousei", "アジアンデリバリー": "asian_delivery",
         "London Necropolis Railway": "necropolis_railway", "Hegemony": "hegemony"}


def trace() -> dict[str, str]:
    """The section's paragraph of each game (its bullet, with what follows it)."""
    text = (ROOT / "ARCHITECTURE.md").read_text()
    section = text.split("## One action, from `env.step` to its rule", 1)[1].split("\n## ", 1)[0]
    parts = re.split(r"\n- \*\*(.+?)\*\*", section)
    return {GAMES[title]: body for title, body in zip(parts[1::2], parts[2::2])}


def test_the_map_traces_every_game():
    assert set(trace()) == set(GAMES.values())


@pytest.mark.parametrize("game", sorted(GAMES.values()))
def test_every_file_and_function_on_the_way_exists(game):
    body = trace()[game]
    folders = [ROOT / "envs" / game, ROOT / "envs" / "core"]
    files = set(re.findall(r"`(?:envs/[\w/]+/)?(\w+\.(?:py|json|md))`", body))
    assert files, game
    for name in files:
        assert any((folder / name).exists() for folder in folders), f"{game}: no {name}"
    names = set(re.findall(r"`(\w+)\.(\w+)`", body))
    assert names, game
    modules = [importlib.import_module(f"meeplezoo.envs.{p}.{path.stem}")
               for p in (game, "core") for path in sorted((ROOT / "envs" / p).glob("*.py"))
               if path.stem != "__init__"]
    by_name = {m.__name__.rsplit(".", 1)[1]: m for m in reversed(modules)}  # the game's first
    for owner, attr in names:
        if attr in ("py", "json", "md") or owner in ("game", "state", "st"):  # files, objects
            continue
        if owner in by_name:  # module.function
            assert hasattr(by_name[owner], attr), f"{game}: no {owner}.{attr}"
            continue
        classes = [getattr(m, owner) for m in modules if isinstance(getattr(m, owner, None), type)]
        assert classes, f"{game}: no module or class {owner}"
        assert any(hasattr(c, attr) for c in classes), f"{game}: no {owner}.{attr}"
