"""A value's objective (``fit-value --objective``): what its first head predicts of a seat's
outcome, the win share or the place share (the share of the other seats it finishes above,
what the arena's Elo reads), and a search that scores finished games by the same thing its
value predicts."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

pytest.importorskip("torch")

from meeplezoo import envs
from meeplezoo.envs.core.agents import RandomBot
from meeplezoo.envs.core.errors import ConfigError
from meeplezoo.envs.core.rewards import terminal_rewards
from meeplezoo.training.agents.bots import level_settings, make_bot
from meeplezoo.training.agents.ismcts import ISMCTS, network_value, value_objective
from meeplezoo.training.agents.opponents import CheckpointError, PolicyAgent
from meeplezoo.training.agents.search import OBJECTIVES, place_share, rollout_value
from meeplezoo.training.data.records import RecordSet
from meeplezoo.training.evaluation import selfplay
from meeplezoo.training.evaluation.benchmark import reference_fingerprint
from meeplezoo.training.fitting import value_curve, value_fit

SOURCE = "chihou_sousei_v1/ppo_league"


class Finished:
    """A finished game's face as ``rollout_value`` reads it: scores and rank keys."""

    def __init__(self, scores: list[int]) -> None:
        self._scores = scores

    def scores(self) -> list[int]:
        return self._scores

    def rank_keys(self) -> list[tuple]:
        return [(s,) for s in self._scores]


def test_the_place_share_counts_the_other_seats_finished_above_ties_a_half():
    state = Finished([3, 5, 5, 1])  # places 2, 0.5 (tied first), 0.5, 3
    assert [place_share(state, s) for s in range(4)] == pytest.approx([1 / 3, 5 / 6, 5 / 6, 0])
    # the win share sees only the winners: third and last are both 0
    assert [rollout_value(state, s, 0.0, 1.0) for s in range(4)] == [0.0, 0.5, 0.5, 0.0]
    assert [rollout_value(state, s, 0.0, 1.0, "place") for s in range(4)] == pytest.approx([
        1 / 3, 5 / 6, 5 / 6, 0.0])
    # the margin over the best other seat is added as before, whatever the objective
    assert rollout_value(state, 0, 0.1, 2.0, "place") == pytest.approx(1 / 3 + 0.1 * -2 / 2)
    with pytest.raises(ValueError, match="objective 'rank': one of win, place"):
        rollout_value(state, 0, 0.1, 1.0, "rank")
    # one definition: the rank reward is the same share on a -1..+1 scale
    rank = terminal_rewards("rank", state.scores(), state.rank_keys(), 1.0)
    assert [2 * place_share(state, s) - 1 for s in range(4)] == pytest.approx(rank)


def test_a_cards_value_objective_is_win_unless_it_says_place_and_a_team_agrees():
    def agent(fit):
        return SimpleNamespace(name="x", card={} if fit is None else {"value_fit": fit})

    assert value_objective(agent(None)) == "win"  # a critic, or a value before objectives
    assert value_objective(agent({"players": 4})) == "win"
    assert value_objective(agent({"objective": "place"})) == "place"
    with pytest.raises(CheckpointError, match="'rank' is none of win, place"):
        value_objective(agent({"objective": "rank"}))
    team = SimpleNamespace(members={"a": agent({"objective": "place"}), "b": agent(None)})
    with pytest.raises(CheckpointError, match="must predict one thing"):
        value_objective(team)
    agreed = SimpleNamespace(members={"a": agent({"objective": "place"}),
                                      "b": agent({"objective": "place"})})
    assert value_objective(agreed) == "place"
    assert value_objective(dict(agreed.members)) == "place"  # a role -> network mapping
    with pytest.raises(CheckpointError, match="must predict one thing"):
        value_objective(dict(team.members))


def test_a_search_scores_finished_games_by_its_values_objective():
    game = envs.make_game("chihou_sousei_v1", num_players=4)
    state = game.new_initial_state(5)
    bots = [RandomBot(seed=s) for s in range(4)]
    while not state.is_terminal():
        state.apply(bots[state.current_player()].act(state))

    def leaf(objective):
        def value(state, seat):
            return 0.5
        if objective is not None:
            value.objective = objective
        return value

    assert ISMCTS(game, value=None).objective == "win"  # playouts count the win share
    assert ISMCTS(game, value=leaf(None)).objective == "win"  # a plain callable too
    search = ISMCTS(game, value=leaf("place"))
    assert search.objective == "place"
    for seat in range(4):
        assert search._final_value(state, seat) == pytest.approx(
            rollout_value(state, seat, 0.1, game.score_scale, "place"))
    with pytest.raises(ValueError, match="objective 'rank' is none of win, place"):
        ISMCTS(game, value=leaf("rank"))
    assert OBJECTIVES == ("win", "place")


@pytest.fixture(scope="module")
def four_player_records(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("records") / "chihou"
    selfplay.main(["--env", "chihou_sousei_v1", "--players", "4", "--agents", "heuristic",
                   "--games", "24", "--seed", "11", "--keep", "0.1", "--shard-games", "12",
                   "--out", str(out), "--no-progress"])
    return out


def test_a_place_value_fits_the_place_share_and_its_search_plays_for_it(four_player_records,
                                                                       tmp_path):
    records = RecordSet([four_player_records])
    found = records.positions()
    rows = value_curve.records_positions(records, None, 1.0, "place")
    assert np.allclose(rows.win, 1.0 - found.place / 3.0)
    assert not np.allclose(rows.win, found.win_share)  # seconds and thirds count now
    out = tmp_path / "placed"
    assert value_fit.main(["--checkpoint", SOURCE, "--records", str(four_player_records),
                           "--sizes", "14", "--held-out-games", "10", "--epochs", "1",
                           "--hidden", "8", "--objective", "place", "--out", str(out)]) == 0
    card = json.loads((out / "card.json").read_text())
    fit = card["value_fit"]
    assert fit["objective"] == "place" and fit["target"].startswith("place share")
    text = json.dumps([fit["learning_curve"], fit["baselines"]])
    assert "place_log_loss" in text and "place_brier" in text and "winner_" not in text
    agent = PolicyAgent(out)
    assert network_value(agent).objective == "place"
    game = envs.make_game("chihou_sousei_v1", num_players=4)
    assert make_bot(f"{out}@hard", game, seed=1).search.objective == "place"
    # what `levels --record` records: figures of a win-share value are not this level's
    assert level_settings(str(out), "hard", game)["leaf"] == "value (place)"
    # the benchmark's pin sees the objective, a card field that changes play
    twin = tmp_path / "twin"
    shutil.copytree(out, twin)
    twin_card = json.loads((twin / "card.json").read_text())
    twin_card["value_fit"]["objective"] = "win"
    (twin / "card.json").write_text(json.dumps(twin_card))
    assert reference_fingerprint(f"{twin}@hard") != reference_fingerprint(f"{out}@hard")
    assert reference_fingerprint(str(twin)) == reference_fingerprint(str(out))


def test_a_win_value_says_so_and_keeps_its_metric_names(four_player_records, tmp_path):
    out = tmp_path / "won"
    assert value_fit.main(["--checkpoint", SOURCE, "--records", str(four_player_records),
                           "--sizes", "14", "--held-out-games", "10", "--epochs", "1",
                           "--hidden", "8", "--out", str(out)]) == 0
    fit = json.loads((out / "card.json").read_text())["value_fit"]
    assert fit["objective"] == "win" and fit["target"].startswith("win share")
    assert "winner_log_loss" in json.dumps(fit["learning_curve"])
    assert network_value(PolicyAgent(out)).objective == "win"
    game = envs.make_game("chihou_sousei_v1", num_players=4)
    assert level_settings(str(out), "hard", game)["leaf"] == "value"


def test_the_objective_belongs_to_records_mode_and_to_games_with_places(tmp_path):
    with pytest.raises(ConfigError, match="--objective: it belongs to --records"):
        value_fit.main(["--checkpoint", SOURCE, "--objective", "place",
                        "--out", str(tmp_path / "z")])
    solo = tmp_path / "solo"
    selfplay.main(["--env", "necropolis_railway_v1", "--players", "1", "--agents",
                   "heuristic", "--games", "12", "--seed", "9", "--out", str(solo),
                   "--no-progress"])
    with pytest.raises(ConfigError, match="a solo game has no place to take"):
        value_fit.main(["--checkpoint", "necropolis_railway_v1/ppo_league", "--records",
                        str(solo), "--sizes", "2", "--held-out-games", "2",
                        "--objective", "place", "--out", str(tmp_path / "s")])
