"""Each env's docstring is its page, PettingZoo's convention (its ``connect_four.py`` docstring
is its documentation): the game package's docstring gives the players, the action
catalogue's shape, the observation's parts, the rewards, the variants and the version
history, and links the game's RULES.md.  The figures on it are checked against the engine,
so a page cannot drift from the code; the env class carries the page (``help(env)``)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from meeplezoo import envs
from meeplezoo.envs.core.errors import RetiredEnvError

SECTIONS = ("Players", "Actions", "Observation", "Rewards", "Variants", "Version history")
GAMES = sorted(name for name in envs.list_envs()
               if envs.game_class(name).__module__.startswith("meeplezoo.envs."))


def page(name: str) -> tuple[str, Path]:
    package = importlib.import_module(envs.game_class(name).__module__.rsplit(".", 1)[0])
    return package.__doc__ or "", Path(package.__file__).parent


def test_every_game_has_a_page():
    assert len(GAMES) == 4, GAMES


@pytest.mark.parametrize("name", GAMES)
def test_the_env_docstring_is_its_page(name):
    doc, folder = page(name)
    for section in SECTIONS:
        assert f"\n{section}\n{'-' * len(section)}\n" in doc, f"{name}: no {section!r} section"
    assert f"``envs/{folder.name}/RULES.md``" in doc and (folder / "RULES.md").is_file()
    assert f"``{name}``" in doc


@pytest.mark.parametrize("name", GAMES)
def test_the_pages_figures_are_the_engines(name):
    doc, _ = page(name)
    cls = envs.game_class(name)
    game = cls(num_players=cls.default_players)
    if cls.min_players == cls.max_players:
        assert f"{cls.min_players} players" in doc
    else:
        assert f"n = {cls.min_players}-{cls.max_players} (default {cls.default_players})" in doc
    for role in cls.roles:
        assert f"Discrete({game.num_actions(role)})" in doc, role
        assert f"Box(0, 1, ({game.observation_size(role)},), float32)" in doc, role
        if game.agents_are_roles:
            assert f"``{role}``" in doc
    for option in cls.options:
        assert f"``{option}=" in doc or f"``{option}``" in doc, option
    assert f"divided by {cls.score_scale:g} (``score_scale``)" in doc
    assert f"``max_decisions`` (default {cls.max_decisions})" in doc


@pytest.mark.parametrize("name", GAMES)
def test_the_version_history_names_this_version_and_the_retired_ones(name):
    doc, _ = page(name)
    history = doc.split("Version history\n", 1)[1]
    family, version = name.rsplit("_v", 1)
    for v in range(int(version) + 1):
        assert f"``{family}_v{v}``" in history, v
    for v in range(int(version)):
        with pytest.raises(RetiredEnvError):
            envs.make(f"{family}_v{v}")


@pytest.mark.parametrize("name", GAMES)
def test_help_on_the_env_shows_the_page(name):
    doc, _ = page(name)
    raw = envs.make_raw(name)
    assert type(raw).__doc__.startswith(doc.strip())
    assert "PettingZoo AEC env over a ``Game``" in type(raw).__doc__
