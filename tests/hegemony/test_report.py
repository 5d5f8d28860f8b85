"""The bot report (``meeplezoo hegemony-report``): a few games, results that do not
depend on the worker count, and the shape of its markdown tables."""

from __future__ import annotations

import json

import pytest

from meeplezoo.envs.hegemony import report
from meeplezoo.envs.hegemony.state import VP_SOURCES


def test_wilson_interval_known_values() -> None:
    low, high = report.wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-3)
    assert high == pytest.approx(0.7634, abs=1e-3)
    assert report.wilson(0, 20)[0] == 0.0
    assert report.wilson(20, 20)[1] == pytest.approx(1.0)
    assert report.wilson(0, 0) == (0.0, 1.0)


def test_game_seeds_depend_on_seed_and_game_only() -> None:
    assert report.game_seed(7, 3) == report.game_seed(7, 3)
    assert len({report.game_seed(7, g) for g in range(50)}) == 50
    assert report.game_seed(7, 3) != report.game_seed(8, 3)
    seats = {report.bot_seed(7, 3, m, s) for m in report.MATCHUPS for s in range(4)}
    assert len(seats) == 4 * len(report.MATCHUPS)


def test_results_do_not_depend_on_the_worker_count() -> None:
    one = report.run_games({}, seed=11, games=2, workers=1, matchups=(3,))
    two = report.run_games({}, seed=11, games=2, workers=2, matchups=(3,))
    assert one == two
    assert [(r["matchup"], r["g"]) for r in one] == [(3, 0), (3, 1)]
    assert one[0]["scores"] != one[1]["scores"]  # two different games


def test_one_game_books_every_vp_and_a_winner() -> None:
    (r,) = report.run_games({}, seed=5, games=1, workers=1, matchups=(3,))
    for cls in range(4):
        assert sum(r["game"]["sources"][cls]) == r["scores"][cls]
    assert 1 <= sum(r["wins"]) <= 4
    best = max(r["scores"])
    assert all(r["scores"][c] == best for c in range(4) if r["wins"][c])
    assert r["seed_group"] == 3 and r["seat_seeds"] == [report.bot_seed(5, 0, 3, s)
                                                         for s in range(4)]


def test_tables_have_one_row_per_class_and_the_sources_that_scored(tmp_path) -> None:
    out = tmp_path / "r.json"
    assert report.main(["--games", "1", "--seed", "2", "--matchups", "ST",
                        "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["games"] == 1 and len(data["results"]) == 1
    summary = data["summary"]
    assert list(summary) == ["ST bot vs 3 random"]
    text = report.markdown(summary)
    lines = [line for line in text.splitlines() if line.startswith("|")]
    head = [cell.strip() for cell in lines[0].strip("|").split("|")]
    assert head[:5] == ["class", "games", "win rate", "95% Wilson", "mean VP"]
    assert set(head[5:]) <= set(VP_SOURCES)
    assert len(lines) == 3  # header, rule, the ST row
    assert lines[2].startswith("| ST | 1 |")
    assert all(len(line.strip("|").split("|")) == len(head) for line in lines[2:])


def test_the_four_bot_table_lists_every_class() -> None:
    sources = [[50 if k == 0 else 0 for k in range(len(VP_SOURCES))],
               [40 if k == 1 else 0 for k in range(len(VP_SOURCES))],
               [30 if k == 9 else 0 for k in range(len(VP_SOURCES))],
               [50 if k == 10 else 0 for k in range(len(VP_SOURCES))]]
    fake = [{"g": 0, "matchup": report.TABLE, "wins": [1, 0, 0, 1],
             "scores": [50.0, 40.0, 30.0, 50.0],
             "game": {"sources": sources, "bills": [], "policies": [2, 1, 0, 1, 1, 1, 1]}}]
    summary = report.summarise(fake)
    table = summary["4 bots"]
    assert [table[c]["win_rate"] for c in report.CLASSES] == [1.0, 0.0, 0.0, 1.0]
    text = report.markdown(summary)
    assert "4-bot table" in text
    rows = [line for line in text.splitlines() if line.startswith("| ") and "class" not in line]
    assert [row.split("|")[1].strip() for row in rows] == list(report.CLASSES)
    head = next(line for line in text.splitlines() if line.startswith("| class"))
    assert [c.strip() for c in head.strip("|").split("|")][5:] == [
        VP_SOURCES[0], VP_SOURCES[1], VP_SOURCES[9], VP_SOURCES[10]]
