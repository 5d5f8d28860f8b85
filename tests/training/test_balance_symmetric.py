"""``meeplezoo balance`` in the symmetric games (issue 49 item 3): seats are the rows, a cell
names seats (``seat1`` ... or ``all``), and what the seats chose in play (アジアンデリバリー's
companies) gets its own table.  Before, a symmetric game's seats all carried the one role's
label, so a cell could only name seat 0 and the per-seat rows overwrote each other."""

from __future__ import annotations

import pytest

from meeplezoo import envs
from meeplezoo.envs.core import balance as core
from meeplezoo.training.evaluation import balance

AD = "asian_delivery_v1"


def test_a_symmetric_games_seats_are_labelled_by_number_from_the_start_player():
    game = envs.make_game(AD, num_players=4)
    assert core.role_labels(game, core.stats_hook(game)) == ["seat1", "seat2", "seat3", "seat4"]
    roles = envs.make_game("hegemony_v1")
    assert core.role_labels(roles, core.stats_hook(roles)) == ["WC", "MC", "CC", "ST"]


def test_a_cell_names_seats_or_all():
    game = envs.make_game(AD, num_players=4)
    labels = core.role_labels(game, None)
    assert balance.parse_cell(game, labels, "c=all:random,seat3:heuristic").specs == (
        "random", "random", "heuristic", "random")
    assert balance.parse_cell(game, labels, "c=SEAT2:random").specs == (
        "heuristic", "random", "heuristic", "heuristic")


def test_the_role_of_every_seat_is_refused_with_the_seats_a_cell_may_name():
    with pytest.raises(SystemExit) as stopped:
        balance.main(["--env", AD, "--games", "1", "--cell", "x=player:heuristic"])
    assert ("unknown seat 'player'; asian_delivery_v1 has one role for every seat, so a cell "
            "names seats: seat1, seat2, seat3, seat4 or all") in str(stopped.value)


def test_seat_rows_and_the_companies_chosen_count_every_seat_of_every_game():
    game = envs.make_game(AD, num_players=4)
    cells = balance.build_cells(game, None, ["mix=all:heuristic,seat2:random"], [], None)
    report = balance.run(AD, {"num_players": 4}, cells, seed=3, games=3, workers=1)
    entry = report["summary"]["mix"]
    assert list(entry["classes"]) == ["seat1", "seat2", "seat3", "seat4"]
    assert [entry["classes"][s]["agent"] for s in entry["classes"]] == [
        "heuristic", "random", "heuristic", "heuristic"]
    games = report["results"]
    for seat, label in enumerate(entry["classes"]):  # each row is its own seat's games
        assert entry["classes"][label]["wins"] == sum(r["wins"][seat] for r in games)
    chosen = entry["chosen"]
    assert all(len(set(r["chosen"])) == 4 for r in games)  # a company per seat, all distinct
    assert sum(row["games"] for row in chosen.values()) == 4 * len(games)
    assert sum(row["wins"] for row in chosen.values()) == sum(sum(r["wins"]) for r in games)
    rates = [row["win_rate"] for row in chosen.values()]
    assert rates == sorted(rates, reverse=True)
    text = balance.markdown(report)
    assert text.startswith("## Seat balance: asian_delivery_v1")
    assert "### Win rate per seat and cell" in text
    assert "### mix: by what the seats chose in play (every seat counted)" in text


def test_a_game_whose_seats_choose_nothing_has_no_choice_table():
    game = envs.make_game("chihou_sousei_v1", num_players=2)
    cells = balance.build_cells(game, None, ["bots=all:heuristic"], [], None)
    report = balance.run("chihou_sousei_v1", {"num_players": 2}, cells, seed=1, games=1,
                         workers=1)
    assert "chosen" not in report["summary"]["bots"]
    assert "chosen" not in report["results"][0]
    assert "by what the seats chose" not in balance.markdown(report)
