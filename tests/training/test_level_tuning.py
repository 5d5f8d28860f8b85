"""A card's own tuning of its search levels (``zoo.tuned_level``, the card's
``level_overrides``): a network plays ``<name>@hard`` with the level's settings and what its
card tunes of them; the figures, the offers and the benchmark's pins see the tuned settings;
a bad block is an error that says what is allowed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from meeplezoo import envs
from meeplezoo.training.agents.bots import LEVELS, level_settings, make_bot
from meeplezoo.training.agents.zoo import (
    OUTDATED,
    STRONGER,
    TUNING_KEY,
    CheckpointError,
    ZooEntry,
    tuned_level,
)
from meeplezoo.training.evaluation.benchmark import reference_fingerprint

REPO = Path(__file__).resolve().parents[2]
SHIPPED = REPO / "checkpoints" / "chihou_sousei_v1" / "ppo_league"


def tuned_copy(tmp_path: Path, block: dict | None) -> Path:
    """The shipped 地方創生 network in a folder of its own, its card tuning ``block``."""
    folder = tmp_path / "tuned"
    shutil.copytree(SHIPPED, folder)
    card = json.loads((folder / "card.json").read_text())
    card.pop(TUNING_KEY, None)
    if block is not None:
        card[TUNING_KEY] = block
    (folder / "card.json").write_text(json.dumps(card))
    return folder


def test_a_card_without_tuning_plays_each_level_as_it_is():
    for level in LEVELS:
        assert tuned_level(LEVELS, level, None) == LEVELS[level]
        assert tuned_level(LEVELS, level, {"name": "x"}) == LEVELS[level]


def test_a_card_tunes_only_the_settings_it_names_of_the_level_it_names():
    card = {"name": "x", TUNING_KEY: {"hard": {"c_scale": 1.0, "simulations": 32}}}
    hard = tuned_level(LEVELS, "hard", card)
    assert hard == {**LEVELS["hard"], "c_scale": 1.0, "simulations": 32}
    assert tuned_level(LEVELS, "expert", card) == LEVELS["expert"]
    assert LEVELS["hard"]["c_scale"] != 1.0  # the table itself is untouched


@pytest.mark.parametrize("block, says", [
    (["hard"], "must map a level to its settings"),
    ({"harder": {"c_scale": 1.0}}, "'harder', not a level; the levels are easy, medium"),
    ({"hard": {}}, "must map settings to values"),
    ({"medium": {"c_scale": 1.0}}, "'medium', which is not a search level"),
    ({"hard": {"play": "greedy"}}, "names 'play'; a search level's settings are c_scale"),
    ({"hard": {"c_sale": 1.0}}, "names 'c_sale'; a search level's settings are c_scale"),
    ({"hard": {"c_scale": -1.0}}, "a finite number of 0 or more, like its default 0.3"),
    ({"hard": {"c_scale": float("nan")}}, "a finite number of 0 or more"),
    ({"hard": {"c_scale": True}}, "a finite number of 0 or more"),
    ({"hard": {"simulations": 32.5}}, "a whole number of 1 or more, like its default 16"),
    ({"hard": {"simulations": 0}}, "a whole number of 1 or more"),
    ({"hard": {"normalise_q": 0}}, "a bool, like its default False"),
    ({"hard": {"root": 1}}, "a str, like its default 'gumbel'"),
])
def test_a_bad_tuning_is_an_error_that_says_what_is_allowed(block, says):
    with pytest.raises(CheckpointError, match="x: level_overrides") as caught:
        tuned_level(LEVELS, "hard", {"name": "x", TUNING_KEY: block})
    assert says in str(caught.value)


def test_the_search_level_plays_with_its_cards_tuning(tmp_path):
    game = envs.make_game("chihou_sousei_v1", num_players=4)
    folder = tuned_copy(tmp_path, {"hard": {"c_scale": 1.0, "simulations": 8}})
    bot = make_bot(f"{folder}@hard", game, seed=1)
    assert (bot.search.c_scale, bot.search.simulations) == (1.0, 8)
    assert make_bot(f"{folder}@expert", game, seed=1).search.c_scale == LEVELS["expert"]["c_scale"]
    settings = level_settings(str(folder), "hard", game)  # what `levels --record` records
    assert settings == {**LEVELS["hard"], "c_scale": 1.0, "simulations": 8,
                        "leaf": "value (place)"}  # the shipped value: the place share
    untuned = make_bot(f"{tuned_copy(tmp_path / 'untuned', None)}@hard", game, seed=1)
    assert untuned.search.c_scale == LEVELS["hard"]["c_scale"]


def test_figures_recorded_before_a_tuning_are_outdated_never_stronger():
    figures = {"strength": {"games": 200, "win_share_difference": 0.08,
                            "win_share_difference_ci95": [0.04, 0.12]},
               "settings": {**LEVELS["hard"], "leaf": "value"}}
    untuned = ZooEntry("toy_v0/x", "toy_v0", (4,), None, "policy", Path("."),
                       levels={"hard": {"4p": figures}})
    assert untuned.claim("hard", 4, untuned.level_settings(LEVELS, "hard")).verdict == STRONGER
    tuned = ZooEntry("toy_v0/x", "toy_v0", (4,), None, "policy", Path("."),
                     levels={"hard": {"4p": figures}},
                     level_overrides={"hard": {"c_scale": 1.0}})
    assert tuned.claim("hard", 4, tuned.level_settings(LEVELS, "hard")).verdict == OUTDATED
    remeasured = {**figures, "settings": {**figures["settings"], "c_scale": 1.0}}
    tuned.levels["hard"]["4p"] = remeasured
    assert tuned.claim("hard", 4, tuned.level_settings(LEVELS, "hard")).verdict == STRONGER


def test_the_benchmark_pin_of_a_level_sees_its_cards_tuning(tmp_path):
    """A frozen benchmark's reference must not change its play unseen: tuning a level
    changes that level's fingerprint, and nothing else's."""
    folder = tuned_copy(tmp_path, None)
    network, hard, expert = (reference_fingerprint(f"{folder}{suffix}")
                             for suffix in ("", "@hard", "@expert"))
    tuned_copy(tmp_path / "again", {"hard": {"c_scale": 1.0}})
    again = tmp_path / "again" / "tuned"
    assert reference_fingerprint(str(again)) == network
    assert reference_fingerprint(f"{again}@hard") != hard
    assert reference_fingerprint(f"{again}@expert") == expert


# -- meeplezoo levels --tune: the tuning written as a step of the card's recipe ------------


def levels_main(*argv: str) -> int:
    from meeplezoo.training.evaluation import levels
    return levels.main(list(argv))


def test_levels_tune_writes_the_block_and_its_reproduce_step(tmp_path, capsys):
    folder = tuned_copy(tmp_path, None)
    before = json.loads((folder / "card.json").read_text())
    assert levels_main("--checkpoint", str(folder), "--tune", "hard.c_scale=1.0",
                       "hard.simulations=32") == 0
    card = json.loads((folder / "card.json").read_text())
    assert card[TUNING_KEY] == {"hard": {"c_scale": 1.0, "simulations": 32}}
    assert type(card[TUNING_KEY]["hard"]["simulations"]) is int
    step = card["reproduce"][-1]  # after every step: it tunes the network they made
    assert card["reproduce"][:-1] == before["reproduce"]
    assert step["stage"] == "tune"
    assert step["command"] == (f"meeplezoo levels --checkpoint {folder} --tune "
                               "hard.c_scale=1.0 hard.simulations=32")
    from meeplezoo.training import reproduce
    assert reproduce.check_steps(card["reproduce"])[0] == []  # in order, and it parses
    out = capsys.readouterr().out
    assert '"c_scale": 1.0' in out
    # the shipped @hard figures ran at c_scale 1.0 and 16 simulations: outdated, and it says so
    assert "@hard 4p: its figures ran with other simulations;" in out
    assert "--levels hard --record" in out
    assert "@expert" not in out  # untouched level, figures still valid


def test_levels_tune_default_removes_a_tuning_and_the_table_value_is_no_tuning(tmp_path):
    folder = tuned_copy(tmp_path, {"hard": {"c_scale": 1.0, "simulations": 32}})
    assert levels_main("--checkpoint", str(folder), "--tune", "hard.c_scale=default") == 0
    assert json.loads((folder / "card.json").read_text())[TUNING_KEY] == {
        "hard": {"simulations": 32}}
    table = LEVELS["hard"]["simulations"]
    assert levels_main("--checkpoint", str(folder), "--tune", f"hard.simulations={table}") == 0
    card = json.loads((folder / "card.json").read_text())
    assert TUNING_KEY not in card  # nothing differs from the table: no block
    assert [s["stage"] for s in card["reproduce"][-2:]] == ["tune", "tune"]
    assert make_bot(f"{folder}@hard", envs.make_game("chihou_sousei_v1", num_players=4),
                    seed=1).search.c_scale == LEVELS["hard"]["c_scale"]


@pytest.mark.parametrize("words, says", [
    (["hard.c_scale"], "write LEVEL.SETTING=VALUE, e.g. hard.c_scale=1.0"),
    (["c_scale=1.0"], "write LEVEL.SETTING=VALUE"),
    (["medium.c_scale=1.0"], "'medium' is not a search level; the search levels are hard, "
                             "expert"),
    (["hard.play=greedy"], "@hard has no setting 'play'; its settings are c_scale"),
    (["hard.cscale=1.0"], "@hard has no setting 'cscale'"),
    (["hard.c_scale=high"], "'high' is not a value; write a number (1.0, 64), true or false"),
    (["hard.c_scale=1.0", "hard.c_scale=2.0"], "names hard.c_scale twice"),
    (["hard.c_scale=-1"], "must be a finite number of 0 or more, like its default 0.3, got -1"),
    (["hard.simulations=2.5"], "must be a whole number of 1 or more, like its default 16"),
    (["hard.normalise_q=1"], "must be a bool, like its default False"),
])
def test_levels_tune_refuses_bad_words_and_writes_nothing(tmp_path, words, says):
    from meeplezoo.envs.core.errors import ConfigError
    folder = tuned_copy(tmp_path, None)
    before = (folder / "card.json").read_text()
    with pytest.raises((ConfigError, CheckpointError), match=None) as caught:
        levels_main("--checkpoint", str(folder), "--tune", *words)
    assert says in str(caught.value)
    assert (folder / "card.json").read_text() == before


def test_levels_tune_plays_no_games_so_it_refuses_to_record(tmp_path):
    from meeplezoo.envs.core.errors import ConfigError
    folder = tuned_copy(tmp_path, None)
    with pytest.raises(ConfigError, match="--tune plays no games, so --record has nothing"):
        levels_main("--checkpoint", str(folder), "--tune", "hard.c_scale=1.0", "--record")


def test_the_shipped_tuning_is_remade_by_its_cards_own_step():
    """The 地方創生 card's tuning comes from a step of its recipe, not a hand edit."""
    card = json.loads((SHIPPED / "card.json").read_text())
    steps = [s for s in card["reproduce"] if s["stage"] == "tune"]
    assert [s["command"] for s in steps] == [
        "meeplezoo levels --checkpoint checkpoints/chihou_sousei_v1/ppo_league --tune "
        "hard.c_scale=1.0"]
    assert card[TUNING_KEY] == {"hard": {"c_scale": 1.0}}
    assert "by hand" not in card.get("reproduce_note", "")
