"""Values from game records (``fit-value --records``): split by game, judged on held-out
games with a learning curve, beside the baselines, and shipped as a value the search reads."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from meeplezoo import envs
from meeplezoo.envs.core.errors import ConfigError
from meeplezoo.training.agents.bots import search_leaves
from meeplezoo.training.agents.ismcts import network_value
from meeplezoo.training.agents.opponents import CheckpointError, PolicyAgent
from meeplezoo.training.agents.scoreboard import scoreboard_row, scoreboard_rows
from meeplezoo.training.data.records import Records, RecordSet
from meeplezoo.training.evaluation import selfplay
from meeplezoo.training.fitting import value_curve, value_fit

SOURCE = "necropolis_railway_v1/ppo_league"


def _synthetic(games: int, seed: int = 0) -> value_curve.Positions:
    """Positions whose first feature says who wins (more clearly late in the game) and
    whose second is noise: a value must learn the first and ignore the second."""
    rng = np.random.default_rng(seed)
    rows = []
    for g in range(games):
        strength = rng.normal()
        win = float(strength + rng.normal(scale=0.5) > 0)
        for ply in range(12):
            third = ply // 4
            signal = strength * (0.3 + 0.35 * third)
            rows.append((g, third, win, 2 * win - 1 + 0.1 * rng.normal(), signal,
                         rng.normal()))
    g, third, win, margin, signal, noise = map(np.asarray, zip(*rows))
    obs = np.stack([signal, noise], 1).astype(np.float32)
    return value_curve.Positions(obs, g.astype(np.int64), third.astype(np.int8),
                                 win.astype(np.float32), margin.astype(np.float32),
                                 margin_now=signal.astype(np.float32),
                                 lead_now=signal.astype(np.float32),
                                 plies=np.tile(np.arange(12), games).astype(np.int32),
                                 seats=np.zeros(len(g), np.int8))


def test_the_curve_is_judged_on_held_out_games_and_beats_the_mean():
    positions = _synthetic(300)
    _net, curve, baselines = value_curve.learning_curve(
        positions, 60, [30, 240], solo=False, seed=1, epochs=60, hidden=16,
        scores_now=lambda rows: rows)
    assert [point["games"] for point in curve] == [30, 240]
    assert curve[1]["positions"] == 240 * 12 and baselines["held_out_positions"] == 60 * 12
    held = curve[-1]["held_out"]
    assert held["winner_log_loss"] < baselines["mean"]["winner_log_loss"] - 0.1
    assert held["margin_r2"] > 0.2 and len(held["by_third"]) == 3
    # the signal grows through the game, and so does what the value knows
    thirds = held["by_third"]
    assert thirds[2]["winner_log_loss"] < thirds[0]["winner_log_loss"]
    assert "as_if_ended_now" in baselines


def test_held_out_games_never_train_and_sizes_out_of_range_are_refused():
    positions = _synthetic(40)
    with pytest.raises(ConfigError, match="data sizes"):
        value_curve.learning_curve(positions, 10, [31], False, 0, 1, 4)
    with pytest.raises(ConfigError, match="held-out-games"):
        value_curve.learning_curve(positions, 40, [10], False, 0, 1, 4)


def test_metrics_score_a_perfect_and_a_constant_guess():
    positions = _synthetic(20)
    perfect = value_curve.metrics(positions.win, positions.margin, positions, solo=False)
    assert perfect["winner_brier"] == 0.0 and perfect["margin_r2"] == 1.0
    assert perfect["value_mse"] == 0.0
    flat = value_curve.metrics(np.full(len(positions), 0.5), np.zeros(len(positions)),
                               positions, solo=False)
    assert flat["winner_log_loss"] == pytest.approx(np.log(2), abs=1e-3)


@pytest.fixture(scope="module")
def records(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("records") / "necro"
    selfplay.main(["--env", "necropolis_railway_v1", "--players", "2", "--agents", SOURCE,
                   "heuristic", "--games", "40", "--seed", "7", "--keep", "0.2",
                   "--shard-games", "20", "--out", str(out), "--no-progress"])
    return out


@pytest.fixture(scope="module")
def second_run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("records") / "necro_more"
    selfplay.main(["--env", "necropolis_railway_v1", "--players", "2", "--agents", SOURCE,
                   "--games", "20", "--seed", "8", "--keep", "0.2", "--shard-games", "20",
                   "--out", str(out), "--no-progress"])
    return out


def test_two_runs_of_different_seeds_join_as_one_run_numbered_folder_after_folder(
        records, second_run):
    joined = RecordSet([records, second_run])
    assert (joined.games, joined.complete) == (60, True)
    first, second = Records(records), Records(second_run)
    rows, theirs = joined.positions(), second.positions()
    later = rows.games >= 40
    assert np.array_equal(rows.games[later], theirs.games + 40)
    assert np.array_equal(rows.observations[later], theirs.observations)
    assert len(rows) == len(first.positions()) + len(theirs)
    [game] = list(joined.iter_games([45]))
    assert (game.number, game.deal_seed) == (45, next(second.iter_games([5])).deal_seed)
    picked = joined.positions(games=[3, 45])
    assert set(picked.games.tolist()) <= {3, 45}
    assert [run["first_game"] for run in joined.describe()] == [0, 40]


def test_a_record_set_refuses_runs_that_share_deals_or_differ_in_game(records, tmp_path):
    with pytest.raises(ConfigError, match="deal seed"):
        RecordSet([records, records])
    solo = tmp_path / "solo"
    selfplay.main(["--env", "necropolis_railway_v1", "--players", "1", "--agents", SOURCE,
                   "--games", "2", "--seed", "9", "--out", str(solo), "--no-progress"])
    with pytest.raises(ConfigError, match="players"):
        RecordSet([records, solo])


def test_a_value_fitted_on_two_runs_names_both_in_its_card(records, second_run, tmp_path):
    out = tmp_path / "valued"
    assert value_fit.main(["--checkpoint", SOURCE, "--records", str(records),
                           str(second_run), "--sizes", "40", "--held-out-games", "10",
                           "--epochs", "1", "--hidden", "8", "--out", str(out)]) == 0
    fit = json.loads((out / "card.json").read_text())["value_fit"]
    assert [run["seed"] for run in fit["records"]] == [7, 8]
    # the card's steps: the records' two commands, then this fit (the source's own fit gone)
    steps = json.loads((out / "card.json").read_text())["reproduce"]
    assert [s["stage"] for s in steps if s["stage"] in ("records", "value")] == [
        "records", "records", "value"]
    assert [s["command"] for s in steps if s["stage"] == "records"] == [
        run["command"] for run in fit["records"]]
    assert steps[-1]["command"] == fit["command"] and steps[-1]["wall_time_s"] > 0
    assert fit["learning_curve"][0]["games"] == 40


def test_a_value_fitted_on_records_carries_its_curve_and_the_search_reads_it(records,
                                                                             tmp_path):
    out = tmp_path / "valued"
    assert value_fit.main(["--checkpoint", SOURCE, "--records", str(records), "--sizes",
                           "10,30", "--held-out-games", "10", "--epochs", "2", "--hidden",
                           "8", "--out", str(out)]) == 0
    card = json.loads((out / "card.json").read_text())
    fit = card["value_fit"]
    assert card["value_file"] == "value.onnx"
    assert [p["games"] for p in fit["learning_curve"]] == [10, 30]
    assert {"mean", "as_if_ended_now"} <= set(fit["baselines"])
    assert fit["records"]["seed"] == 7 and fit["records"]["games"] == 40
    agent = PolicyAgent(out)
    game = envs.make_game("necropolis_railway_v1", num_players=2)
    state = game.new_initial_state(3)
    leaf = network_value(agent)(state, state.current_player())
    assert np.isfinite(leaf)
    # a value of 2-player games leads the 2-player search, and not the solo one
    assert fit["players"] == 2
    assert search_leaves(agent, game)[0] is not None
    assert search_leaves(agent, envs.make_game("necropolis_railway_v1", num_players=1)) == (
        None, None)


def test_the_scores_as_they_stood_come_from_replaying_the_record(records):
    found = Records(records)
    game = envs.make_game("necropolis_railway_v1", num_players=2)
    scale = float(game.score_scale)
    rows = value_curve.records_positions(found, None, scale)
    rows = rows.take(np.flatnonzero(rows.games == rows.games[-1]))
    read = value_curve.replayed_scores(found, game, scale)(rows)
    record = next(found.iter_games([int(rows.games[0])]))
    state = game.new_initial_state(record.deal_seed)
    for action in record.actions[:int(rows.plies[-1])]:
        state.apply(int(action))
    scores = state.scores()
    seat = int(rows.seats[-1])
    assert read.margin_now[-1] == pytest.approx((scores[seat] - scores[1 - seat]) / scale)


def test_a_prefix_of_the_games_and_the_scoreboard_share_the_observations(records):
    """Each data size of a learning curve is a prefix of the games: it is taken as views,
    and the scoreboard is set beside the same arrays, so a 50,000-game fit holds its
    observations once (a copy per size ran out of memory on a 24 GiB machine).  Rows that
    are not consecutive are still copied, and read the same either way."""
    found = Records(records)
    game = envs.make_game("necropolis_railway_v1", num_players=2)
    scale = float(game.score_scale)
    rows = value_curve.records_positions(found, None, scale)
    prefix = rows.take(np.flatnonzero(np.isin(rows.games, np.unique(rows.games)[:3])))
    assert len(prefix) > 1 and np.shares_memory(prefix.observations, rows.observations)
    read = value_curve.replayed_scores(found, game, scale)(prefix)
    assert read.observations is prefix.observations and read.margin_now is not None
    scattered = np.arange(0, len(rows), 2)
    copied = rows.take(scattered)
    assert not np.shares_memory(copied.observations, rows.observations)
    np.testing.assert_array_equal(copied.observations, rows.observations[scattered])
    np.testing.assert_array_equal(prefix.games, rows.games[:len(prefix)])
    assert value_curve.as_slice(np.array([4, 5, 6])) == slice(4, 7)
    assert isinstance(value_curve.as_slice(np.array([4, 6])), np.ndarray)


def test_earlier_values_are_judged_on_the_same_held_out_games(records, tmp_path):
    """--compare-values scores another checkpoint's value on the held-out games of this
    fit: a value judged so reads as its own fit judged it on the same games."""
    common = ["--records", str(records), "--sizes", "30", "--held-out-games", "10",
              "--epochs", "1", "--hidden", "8"]
    first = tmp_path / "first"
    assert value_fit.main(["--checkpoint", SOURCE, *common, "--out", str(first)]) == 0
    second = tmp_path / "second"
    assert value_fit.main(["--checkpoint", SOURCE, *common, "--seed", "3", "--compare-values",
                           str(first), SOURCE, "--out", str(second)]) == 0
    own = json.loads((first / "card.json").read_text())["value_fit"]["learning_curve"][-1]
    judged = json.loads((second / "card.json").read_text())["value_fit"]["baselines"]["values"]
    assert set(judged) == {str(first), SOURCE}
    for key in ("winner_log_loss", "winner_brier", "margin_r2"):
        assert judged[str(first)][key] == pytest.approx(own["held_out"][key], abs=2e-4)
    assert judged[SOURCE]["positions"] == own["held_out"]["positions"]
    bare = tmp_path / "bare"
    shutil.copytree(first, bare)
    card = json.loads((bare / "card.json").read_text())
    card.pop("value_file")
    (bare / "card.json").write_text(json.dumps(card))
    with pytest.raises(ConfigError, match="no value"):
        value_fit.main(["--checkpoint", SOURCE, *common, "--compare-values", str(bare),
                        "--out", str(tmp_path / "x")])
    with pytest.raises(ConfigError, match="--compare-values: it belongs to --records"):
        value_fit.main(["--checkpoint", SOURCE, "--compare-values", str(first),
                        "--out", str(tmp_path / "y")])


def test_records_mode_refuses_the_self_play_options(records, tmp_path):
    with pytest.raises(ConfigError, match="--games"):
        value_fit.main(["--checkpoint", SOURCE, "--records", str(records), "--games", "5",
                        "--out", str(tmp_path / "x")])
    with pytest.raises(ConfigError, match="--sizes: it belongs to --records"):
        value_fit.main(["--checkpoint", SOURCE, "--sizes", "10", "--out", str(tmp_path / "y")])


def test_a_value_that_reads_the_scoreboard_learns_what_only_the_scoreboard_shows():
    """The signal sits in the scoreboard alone (the observation is noise): the value given
    the scoreboard (``--scoreboard``) learns it, the value given the observation cannot."""
    positions = _synthetic(300)
    positions.observations = np.random.default_rng(5).normal(
        size=positions.observations.shape).astype(np.float32)
    figures = {}
    for reads in (False, True):
        _net, curve, baselines = value_curve.learning_curve(
            positions, 60, [240], solo=False, seed=1, epochs=40, hidden=16,
            scores_now=lambda rows: rows, scoreboard=reads)
        figures[reads] = curve[-1]["held_out"]["winner_log_loss"]
    mean = baselines["mean"]["winner_log_loss"]
    assert figures[False] > mean - 0.02  # the observation says nothing
    assert figures[True] < mean - 0.1


def test_the_scoreboard_row_is_the_margin_over_the_best_other_and_the_lead_over_the_mean():
    assert scoreboard_row([10, 30, 20], 1, 10.0) == pytest.approx((1.0, 1.0))
    assert scoreboard_row([10, 30, 20], 0, 10.0) == pytest.approx((-2.0, -1.0))
    assert scoreboard_row([42], 0, 21.0) == pytest.approx((2.0, 0.0))  # alone: the score
    with pytest.raises(ValueError, match="seat 3"):
        scoreboard_row([1, 2], 3, 1.0)


def test_a_value_fitted_with_the_scoreboard_reads_it_from_the_state_in_the_search(records,
                                                                                 tmp_path):
    out = tmp_path / "valued"
    assert value_fit.main(["--checkpoint", SOURCE, "--records", str(records), "--sizes", "30",
                           "--held-out-games", "10", "--epochs", "2", "--hidden", "8",
                           "--scoreboard", "--out", str(out)]) == 0
    card = json.loads((out / "card.json").read_text())
    assert card["value_fit"]["inputs"] == ["observation", "scoreboard"]
    agent = PolicyAgent(out)
    assert agent.value_reads_scoreboard
    game = envs.make_game("necropolis_railway_v1", num_players=2)
    state = game.new_initial_state(3)
    while state.scores() == [0.0, 0.0] and not state.is_terminal():
        state.apply(int(np.flatnonzero(state.legal_mask())[0]))
    seat = state.current_player()
    obs, mask = state.observation(seat), state.legal_mask()
    with pytest.raises(CheckpointError, match="reads the scoreboard"):
        agent.value(obs, mask)
    board = scoreboard_rows([state], [seat])
    assert board.shape == (1, 2) and np.abs(board).sum() > 0
    expected = (agent.value(obs, mask, board[0]) + 1.0) / 2.0
    assert network_value(agent)(state, seat) == pytest.approx(expected, abs=1e-6)
    # another scoreboard, another value: the search's leaf does read the one it is given
    assert agent.value(obs, mask, board[0] + 5.0) != pytest.approx(agent.value(obs, mask,
                                                                               board[0]))


def test_the_scoreboard_belongs_to_records_mode(tmp_path):
    with pytest.raises(ConfigError, match="--scoreboard: it belongs to --records"):
        value_fit.main(["--checkpoint", SOURCE, "--scoreboard", "--out", str(tmp_path / "z")])
