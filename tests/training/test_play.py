"""``meeplezoo play``: whole games driven through scripted standard input."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from meeplezoo import envs
from meeplezoo.envs.core.agents import RandomBot
from meeplezoo.training.agents.bots import LEVELS
from meeplezoo.training.agents.seating import resolve_opponent
from meeplezoo.training.agents.zoo import level_claims, zoo_entry, zoo_root
from meeplezoo.training.play import main, seat_opponents

ZOO = "chihou_sousei_v1/ppo_league"


def play(argv: list[str], lines: list[str]) -> tuple[int, str]:
    """Run ``main`` on these input lines; returns (exit code, transcript)."""
    out = io.StringIO()
    code = main(argv, io.StringIO("".join(f"{line}\n" for line in lines)), out)
    return code, out.getvalue()


def final_rows(text: str, players: int) -> list[str]:
    """The final table's rows, one per seat."""
    assert "final table" in text, text[-2000:]
    rows = text.split("final table\n", 1)[1].splitlines()[1:players + 1]
    assert len(rows) == players
    return rows


@pytest.mark.parametrize("env,players,opponents", [
    ("chihou_sousei_v1", 2, "random"),
    ("asian_delivery_v1", 3, "random,heuristic"),
    ("necropolis_railway_v1", 1, None),
    ("necropolis_railway_v1", 2, "heuristic"),
    ("toy_roles_v0", 3, "random"),
    ("hegemony_v1", 4, "random"),
])
def test_a_whole_game_reaches_its_final_table(env, players, opponents):
    seat = players - 1
    argv = ["--env", env, "--players", str(players), "--seat", str(seat), "--seed", "4"]
    if opponents:
        argv += ["--opponents", opponents]
    code, text = play(argv, ["1"] * 3000)
    assert code == 0
    assert "bye" not in text  # it ended at the end of the game, not of the input
    assert f"you are seat {seat}" in text
    assert "decision: " in text
    rows = final_rows(text, players)
    assert "you" in rows[seat].split()
    specs = seat_opponents(opponents.split(",") if opponents else [], players, seat)
    for other, label in specs.items():
        assert re.search(rf"^seat {other} \({label}\) plays \S+", text, re.M), other
        assert label in rows[other]
    # each row: the seat, who played it, the score, the place and the breakdown entries
    breakdown = [k for k in envs.make_game(env, num_players=players)
                 .new_initial_state(0).score_breakdown()[0] if k != "total"]
    for row in rows:
        assert all(k in row for k in breakdown)
        assert re.search(r" -?\d+(\.\d+)? +\d=? ", row), row


def test_actions_are_grouped_by_decision_and_catalogue_block():
    _, text = play(["--env", "necropolis_railway_v1", "--players", "1"], ["quit"])
    menu = text.split("decision: take\n", 1)[1].splitlines()
    assert menu[0] == "  [take]"  # each line: number, name, then the presentation's label
    assert menu[1].startswith("     1  take:row_1  — Take row 1: card #")
    assert menu[2].startswith("     2  take:row_2  — Take row 2: card #")
    assert "Take a card from the row, with the discs under it\ndecision: take" in text


def test_commands_filter_save_undo_load_and_invalid_input(tmp_path):
    saved = tmp_path / "game.json"
    script = [
        "1",                  # pick the leftmost row card
        "sideways",           # matches no action: a clear message
        "99",                 # no such number
        "place@(+0,-1)",      # one match: asks to confirm
        "y",
        f"save {saved}",
        "1",
        "undo",               # back to the saved decision
        f"load {saved}",
        "undo",               # undoes the load
        "help",
        *["1"] * 200,
    ]
    code, text = play(["--env", "chihou_sousei_v1", "--players", "2",
                       "--opponents", "heuristic", "--seed", "1"], script)
    assert code == 0
    assert "no legal action contains 'sideways'" in text
    assert "there is no action 99: choose a number from 1 to 4" in text
    assert "play place@(+0,-1)? (y to confirm) y\nyou play place@(+0,-1)" in text
    assert "(+0,-1) " in text  # the render names the cell the card went to
    assert f"saved to {saved}" in text
    assert json.loads(saved.read_text())["env"] == "chihou_sousei_v1"
    assert text.count("undone: back to your previous decision") == 2
    assert f"loaded {saved}" in text
    assert "undo         back to your previous decision" in text
    assert re.search(r"^seat 1 \(heuristic\) plays place@\(", text, re.M)
    final_rows(text, 2)


def test_undo_returns_to_the_state_before_the_move():
    _, text = play(["--env", "chihou_sousei_v1", "--players", "2", "--seed", "2"],
                   ["1", "undo", "undo", "quit"])
    boards = re.findall(r"\n\n(round .*?)\n\nyou are seat 0", text, re.S)
    assert len(boards) == 3 and "decision place" in boards[1]
    assert boards[2] == boards[0]  # after undo the first board is shown again
    assert "nothing to undo: this is your first decision" in text


def test_a_filter_with_several_matches_lists_them_and_a_no_plays_nothing():
    _, text = play(["--env", "necropolis_railway_v1", "--players", "1"],
                   ["row", "row_2", "n", "quit"])
    assert "3 actions contain 'row':" in text
    assert "play take:row_2? (y to confirm) n\nnot played" in text
    assert "you play" not in text
    assert text.rstrip().endswith("bye")


def test_a_corrupt_save_file_is_refused_and_play_goes_on(tmp_path):
    game = envs.make_game("chihou_sousei_v1", num_players=2)
    data = game.new_initial_state(0).to_dict()
    data["state"]["stock"] = -5
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    (tmp_path / "text.json").write_text("not json")
    other = envs.make_game("chihou_sousei_v1", num_players=3).new_initial_state(0).to_dict()
    (tmp_path / "three.json").write_text(json.dumps(other))
    code, text = play(["--env", "chihou_sousei_v1", "--players", "2"],
                      [f"load {bad}", f"load {tmp_path / 'text.json'}",
                       f"load {tmp_path / 'three.json'}", f"load {tmp_path / 'missing.json'}",
                       "load", "1"])
    assert code == 0
    assert (f"could not load {bad}: chihou_sousei_v1: field state.stock: expected an integer "
            "in 0..48, got -5") in text
    assert "not a saved game (not JSON" in text
    assert "it is a game of {'num_players': 3" in text
    assert "could not read" in text and "missing.json" in text
    assert "load needs a file name: load FILE" in text
    assert "you play pick:0" in text  # play went on after each refusal
    assert "loaded" not in text


def test_end_of_input_quits_cleanly():
    code, text = play(["--env", "asian_delivery_v1", "--players", "3"], [])
    assert code == 0
    assert text.rstrip().endswith("bye")
    assert "final table" not in text


def test_a_zoo_name_resolves_under_the_repository_wherever_play_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert Path(resolve_opponent(ZOO)) == zoo_root() / ZOO
    assert (zoo_root() / ZOO / "policy.onnx").is_file()
    code, text = play(["--env", "chihou_sousei_v1", "--players", "4", "--seat", "1",
                       "--opponents", ZOO], ["quit"])
    assert code == 0
    assert re.search(rf"^seat 0 \({ZOO}\) plays pick:\d", text, re.M)
    with pytest.raises(SystemExit, match=r"shipped: .*chihou_sousei_v1/ppo_league"):
        main(["--env", "chihou_sousei_v1", "--opponents", "chihou_sousei_v1/nobody"],
             io.StringIO(), io.StringIO())


def test_opponents_fill_the_other_seats_or_are_refused_clearly():
    assert seat_opponents(["heuristic"], 4, 2) == {0: "heuristic", 1: "heuristic",
                                                   3: "heuristic"}
    assert seat_opponents(["a", "b"], 3, 0) == {1: "a", 2: "b"}
    with pytest.raises(ValueError, match="3 opponent"):
        seat_opponents(["a", "b", "c"], 3, 0)
    with pytest.raises(ValueError, match="solo"):
        seat_opponents(["random"], 1, 0)
    with pytest.raises(SystemExit, match=re.escape("--seat 2 is not a seat 0..1")):
        main(["--env", "chihou_sousei_v1", "--players", "2", "--seat", "2"],
             io.StringIO(), io.StringIO())


def test_chihou_render_shows_each_cards_cell_offset():
    game = envs.make_game("chihou_sousei_v1", num_players=2)
    state, bot = game.new_initial_state(5), RandomBot(5)
    for _ in range(30):
        state.apply(bot.act(state))
    text = state.render()
    from meeplezoo.envs.chihou_sousei.board import cell_label

    for seat in range(2):
        for cell in state.cells[seat]:
            assert re.search(re.escape(cell_label(cell)) + r" \S+( \w+)?:\d+", text), cell
    assert "(+0,+0) TOKYO:" in text and "(+0,+0) AICHI:" in text


def test_list_opponents_offers_the_agents_of_this_count_with_levels_worded_by_their_cards():
    code, text = play(["--env", "necropolis_railway_v1", "--players", "2", "--list-opponents"],
                      [])
    assert code == 0
    assert "necropolis_railway_v1/ppo_league_exit6" not in text  # it plays solo only
    entry = zoo_entry("necropolis_railway_v1/ppo_league")
    for recorded in level_claims({"levels": entry.levels}):
        claim = entry.claim(recorded.level, recorded.players,
                            entry.level_settings(LEVELS, recorded.level))
        line = f"necropolis_railway_v1/ppo_league@{claim.level} — {claim.text}"
        assert (line in text) == (claim.players == 2)
    assert "@expert" not in text  # measured nowhere: not offered as anything
    code, solo = play(["--env", "necropolis_railway_v1", "--players", "1",
                       "--list-opponents"], [])
    assert "necropolis_railway_v1/ppo_league_exit6 (the network as it is)" in solo


def test_a_level_opponent_is_introduced_by_what_its_card_measured():
    base = "asian_delivery_v1/ppo_league"
    code, text = play(["--env", "asian_delivery_v1", "--players", "4", "--opponents",
                       f"{base}@hard,heuristic,{base}@expert"], ["quit"])
    assert code == 0
    for level in ("hard", "expert"):  # measured or not, it says which
        assert f"  {base}@{level}: {zoo_entry(base).claim(level, 4).text}" in text
    assert "  heuristic:" not in text
