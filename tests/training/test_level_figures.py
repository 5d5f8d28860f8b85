"""``meeplezoo levels``: a level's strength against its network alone, and its cost."""

from __future__ import annotations

import hashlib
import json
import shutil

import numpy as np
import pytest

from meeplezoo import envs
from meeplezoo.envs.core.agents import play_game
from meeplezoo.envs.core.errors import ConfigError
from meeplezoo.training.agents.bots import make_bot
from meeplezoo.training.agents.opponents import checkpoint_folder
from meeplezoo.training.agents.zoo import _entry, levels_text
from meeplezoo.training.evaluation import levels

SOURCE = "necropolis_railway_v1/ppo_league"


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("levels") / "necro"
    shutil.copytree(checkpoint_folder(SOURCE), folder)
    argv = ["--checkpoint", str(folder), "--players", "1", "--levels", "easy,hard",
            "--games", "3", "--cost-games", "1", "--seed", "4", "--no-progress", "--record"]
    assert levels.main(argv) == 0
    return folder, json.loads((folder / "card.json").read_text())


def test_the_card_records_strength_and_cost_per_level_and_player_count(recorded):
    _, card = recorded
    hard = card["levels"]["hard"]["1p"]
    assert hard["strength"]["games"] == 3 and "win_share_a" not in hard["strength"]  # solo
    low, high = hard["strength"]["score_difference_ci95"]
    assert low <= hard["strength"]["score_difference"] <= high
    assert hard["cost"]["decisions"] > 0 and hard["cost"]["median_s"] > 0
    assert hard["cost"]["simulations_per_s"] > 0
    assert hard["settings"]["simulations"] == 16
    assert hard["command"].startswith("meeplezoo levels --checkpoint") and hard["seed"] == 4
    assert card["levels"]["easy"]["1p"]["cost"]["simulations_per_s"] is None  # no search


def test_the_figures_name_the_value_they_were_measured_with(recorded):
    """A level's figures hold for the value its search read: its digest is stamped beside
    them, so a later fit-value that replaces the value shows which figures predate it."""
    folder, card = recorded
    digest = hashlib.sha256((folder / card["value_file"]).read_bytes()).hexdigest()[:16]
    assert card["levels"]["hard"]["1p"]["values"] == {card["value_file"]: digest}
    assert levels.value_digests(folder) == {card["value_file"]: digest}
    team = checkpoint_folder("hegemony_v1/ppo_classes")
    assert len(levels.value_digests(team)) == 4  # one value per class


def test_only_decisions_with_a_choice_are_timed():
    """A position with one legal action costs no search: it is played, not counted."""
    timed = levels.decision_cost("necropolis_railway_v1", 1, SOURCE, [], 1, 7)
    game = envs.make_game("necropolis_railway_v1", num_players=1)
    state = game.new_initial_state(int(np.random.default_rng(
        [7, 0, levels.COST_TAG]).integers(2**63 - 1)))
    bot = make_bot(SOURCE, game, seed=7, seat=0)
    choices = 0

    class Counting:
        def act(self, s):
            nonlocal choices
            choices += int(s.legal_mask().sum()) > 1
            return bot.act(s)

    play_game(state, [Counting()])
    assert timed["decisions"] == choices > 0


@pytest.mark.parametrize("extra, says", [
    (["--levels", "medium"], "medium is the plain network"),
    (["--levels", "hardest"], "choose from easy, hard, expert"),
    (["--players", "3"], "plays [1, 2]"),
])
def test_bad_input_is_refused_with_what_is_allowed(extra, says):
    with pytest.raises(ConfigError, match=says.replace("[", r"\[").replace("]", r"\]")):
        levels.main(["--checkpoint", SOURCE, "--no-progress", *extra])


def test_an_empty_field_is_refused_by_the_parser_with_the_forms_allowed(capsys):
    with pytest.raises(SystemExit) as stop:
        levels.main(["--checkpoint", SOURCE, "--no-progress", "--players", "2", "--field", ""])
    assert stop.value.code == 2
    said = capsys.readouterr().err
    assert "--field: name at least one agent" in said and "NETWORK@LEVEL" in said


def test_the_zoo_shows_the_recorded_levels(recorded):
    folder, card = recorded
    entry = _entry(folder, "necropolis_railway_v1/measured")
    assert entry.levels == card["levels"]
    text = levels_text(entry.levels)
    hard = card["levels"]["hard"]["1p"]
    assert f"@hard 1p: score {hard['strength']['score_difference']:+.1f}" in text
    assert f"{hard['cost']['median_s']:.3f} s a decision" in text


def test_a_team_records_its_levels_in_its_team_card(tmp_path):
    folder = tmp_path / "team"
    shutil.copytree(checkpoint_folder("hegemony_v1/ppo_classes"), folder)
    assert levels.main(["--checkpoint", str(folder), "--levels", "easy", "--games", "2",
                        "--cost-games", "1", "--seed", "2", "--no-progress", "--record"]) == 0
    team = json.loads((folder / "team.json").read_text())
    easy = team["levels"]["easy"]["4p"]  # the members' one player count
    assert easy["strength"]["games"] == 2 and "win_share_difference" in easy["strength"]
    assert easy["cost"]["decisions"] > 0
    assert _entry(folder, "hegemony_v1/measured").levels == team["levels"]


def test_arena_ratings_join_the_recorded_figures_and_the_zoo_shows_them(tmp_path):
    folder = tmp_path / "necro"
    shutil.copytree(checkpoint_folder(SOURCE), folder)
    card = json.loads((folder / "card.json").read_text())
    card.pop("levels", None)  # the shipped card's own figures: not this test's
    (folder / "card.json").write_text(json.dumps(card))
    common = ["--checkpoint", str(folder), "--players", "2", "--levels", "easy",
              "--seed", "3", "--no-progress", "--record"]
    with pytest.raises(ConfigError, match="record them first"):
        levels.main([*common, "--arena", "--games", "12"])  # no paired figures yet
    assert levels.main([*common, "--games", "2", "--cost-games", "1"]) == 0
    assert levels.main([*common, "--arena", "--games", "12"]) == 0
    card = json.loads((folder / "card.json").read_text())
    easy = card["levels"]["easy"]["2p"]
    rated = easy["arena"]
    assert easy["strength"]["games"] == 2  # the paired figures are kept beside it
    assert rated["agent"] == f"{folder}@easy" and rated["table_games"] >= 12
    assert 0 < rated["games"] <= rated["table_games"]
    assert {row["agent"] for row in rated["table"]} >= {"random", "heuristic", SOURCE}
    low, high = rated["elo_ci95"]
    assert low <= rated["elo"] <= high and rated["seed"] == 3
    assert "--arena" in rated["command"]
    text = levels_text(card["levels"])
    assert f"Elo {rated['elo']:.0f}" in text and "heuristic" in text
    assert f"{folder}@easy " not in text.split("table:")[1]  # its own row is not repeated


def test_arena_levels_need_two_players():
    with pytest.raises(ConfigError, match="at 2 or more players"):
        levels.main(["--checkpoint", SOURCE, "--players", "1", "--levels", "hard", "--arena",
                     "--no-progress"])
