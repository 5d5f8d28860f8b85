"""The bot report's games (``envs.hegemony.report``): a few games, and results that do not
depend on the worker count.  Its tables are ``meeplezoo balance --preset bot-report``'s
(``tests/training/test_balance.py``)."""

from __future__ import annotations

import pytest

from meeplezoo.envs.hegemony import report


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
