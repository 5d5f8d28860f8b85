"""Every test a game's RULES.md names (outside its version history) exists, so a rule's
stated test cannot silently disappear or be misspelt."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GAMES = sorted(p.parent.name for p in (ROOT / "envs").glob("*/RULES.md"))
DEFINED = {m.group(1) for p in (ROOT / "tests").rglob("*.py")
           for m in re.finditer(r"def (test_\w+)", p.read_text())}


@pytest.mark.parametrize("game", GAMES)
def test_every_test_a_rules_page_names_exists(game):
    text = (ROOT / "envs" / game / "RULES.md").read_text()
    text = re.split(r"^#+ .*[Vv]ersion history", text, flags=re.M)[0]
    modules = {p.stem for p in (ROOT / "tests").rglob("test_*.py")}
    named = set(re.findall(r"\b(test_\w+)", text)) - modules
    assert named, f"{game}'s RULES.md names no test"
    missing = sorted(named - DEFINED)
    assert not missing, f"{game}'s RULES.md names tests that do not exist: {missing}"


@pytest.mark.parametrize("game", GAMES)
def test_the_summary_table_states_the_real_sizes_and_version(game):
    from meeplezoo import envs

    text = (ROOT / "envs" / game / "RULES.md").read_text()
    name = next(n for n in envs.list_envs() if n.rsplit("_v", 1)[0] == game)
    instance = envs.make_game(name)
    head = text.split("\n## ", 1)[0]  # the table stands before the first section
    for role in instance.roles:  # an asymmetric game states every role's sizes
        assert f"`Discrete({instance.num_actions(role)})`" in head, role
        assert f"`Box(0, 1, ({instance.observation_size(role)},), float32)`" in head, role
    assert f"`{name.rsplit('_', 1)[1]}`: see the version history" in head
    assert f"meeplezoo.make(\"{name}\")" in head
