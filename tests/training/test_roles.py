"""Role-aware training on the asymmetric toy (trader, banker, judge): one policy per role,
trained, exported, loaded in its role's seats, evaluated by role, and bundled as a team."""

import json

import numpy as np
import pytest

from meeplezoo import envs
from meeplezoo.envs.core.agents import RandomBot, play_game
from meeplezoo.training import export
from meeplezoo.training.agents.bots import OpponentPool, make_bot
from meeplezoo.training.agents.opponents import CheckpointError, TeamBot, load
from meeplezoo.training.evaluation import evaluate
from meeplezoo.training.fitting import train
from meeplezoo.training.fitting.seat_env import SeatEnv

ENV = "toy_roles_v0"


def _train(out, role=None, seat=None, extra=()):
    who = ["--role", role] if role else ["--seat", str(seat)]
    return train.main(["--env", ENV, *who, "--timesteps", "512", "--n-envs", "2",
                       "--n-steps", "128", "--batch-size", "64", "--opponents",
                       "heuristic,self", "--snapshot-freq", "256", "--eval-freq", "256",
                       "--eval-games", "3", "--imitate-games", "6", "--imitate-epochs", "1",
                       "--seed", "2", "--out", str(out), "--no-progress", "--net", "16",
                       *extra])


@pytest.fixture(scope="module")
def role_runs(tmp_path_factory):
    """One trained and exported policy per role (the banker's through --seat)."""
    root = tmp_path_factory.mktemp("roles")
    folders = {}
    for role, seat in (("trader", None), ("banker", 1), ("judge", None)):
        run = root / role
        assert _train(run, role=role if seat is None else None, seat=seat) == 0
        folders[role] = export.export_model(run / "final_model.zip", f"toy_{role}", root / "zoo")
    return root, folders


def test_seat_env_plays_one_role_with_that_roles_spaces():
    env = SeatEnv(ENV, {"num_players": 3}, role="banker", opponents=["heuristic"], seed=0)
    obs, info = env.reset(seed=1)
    assert info["seat"] == 1 and obs.shape == (11,) and env.action_space.n == 4
    assert env.action_masks().shape == (4,)
    with pytest.raises(ValueError, match="name the learner's role"):
        SeatEnv(ENV, {"num_players": 3})
    with pytest.raises(ValueError, match="seat 0 plays 'trader', not 'judge'"):
        SeatEnv(ENV, {"num_players": 3}, seat=0, role="judge")


def test_train_refuses_an_asymmetric_game_without_a_role(tmp_path):
    with pytest.raises(SystemExit, match="role"):
        train.main(["--env", ENV, "--timesteps", "64", "--out", str(tmp_path)])
    with pytest.raises(SystemExit, match="plays role 'trader', not --role 'judge'"):
        train.main(["--env", ENV, "--seat", "0", "--role", "judge", "--timesteps", "64",
                    "--out", str(tmp_path)])


def test_each_role_trains_with_its_own_sizes_snapshots_and_imitation(role_runs):
    root, folders = role_runs
    game = envs.make_game(ENV)
    for role, folder in folders.items():
        run = json.loads((root / role / "run.json").read_text())
        card = json.loads((folder / "card.json").read_text())
        assert run["role"] == role and card["role"] == role
        assert card["observation_size"] == game.observation_size(role)
        assert card["action_count"] == game.num_actions(role)
        per_round = 2 if role == "judge" else 1  # the heuristic judge audits once, then done
        assert run["imitation"]["decisions"] == 6 * 3 * per_round  # that role's decisions only
        snapshots = sorted((root / role / "pool").glob("*/card.json"))
        assert snapshots and all(json.loads(p.read_text())["role"] == role for p in snapshots)


def test_a_role_checkpoint_plays_its_roles_seats_only(role_runs):
    _, folders = role_runs
    game = envs.make_game(ENV)
    judge = make_bot(str(folders["judge"]), game, seed=0, seat=2)
    state = play_game(game.new_initial_state(4), [RandomBot(1), RandomBot(2), judge])
    assert state.is_terminal()
    with pytest.raises(CheckpointError, match="plays role 'judge', and seat 0 plays 'trader'"):
        make_bot(str(folders["judge"]), game, seat=0)
    with pytest.raises(CheckpointError, match="plays role 'judge', and seat 1 plays 'banker'"):
        load(folders["judge"]).check_compatible(game, 1)


def test_the_opponent_pool_seats_a_checkpoint_in_its_role_only(role_runs):
    _, folders = role_runs
    game = envs.make_game(ENV)
    pool = OpponentPool(game, [str(folders["banker"]), "random"], seed=0)
    picks = {seat: {getattr(pool.draw(seat), "name", "?") for _ in range(20)}
             for seat in range(3)}
    assert picks[0] == {"random"} and picks[2] == {"random"}
    assert str(folders["banker"]) in picks[1]


def test_evaluate_by_role_puts_the_candidate_in_its_roles_seats(role_runs):
    _, folders = role_runs
    result = evaluate.versus_field(ENV, {"num_players": 3}, str(folders["trader"]), "random",
                                   6, seed=0, workers=1)
    assert result["games"] == 6 and result["win_rate_by_seat"][1:] == [0.0, 0.0]
    with pytest.raises(ValueError, match="plays role 'trader'; seat 1 plays 'banker'"):
        evaluate.play_many(ENV, {"num_players": 3},
                           [["random", str(folders["trader"]), "random"]], seed=0, workers=1)


def test_evaluation_does_not_depend_on_the_worker_count(role_runs):
    _, folders = role_runs
    lineups = [["heuristic", "random", str(folders["judge"])]] * 6
    one = evaluate.play_many(ENV, {"num_players": 3}, lineups, seed=5, workers=1)
    two = evaluate.play_many(ENV, {"num_players": 3}, lineups, seed=5, workers=2)
    assert one == two


def test_a_team_checkpoint_plays_every_seat_by_its_role(role_runs, tmp_path, monkeypatch):
    _, folders = role_runs
    members = ",".join(str(folders[r]) for r in ("judge", "trader", "banker"))
    assert export.main(["--team", members, "--name", "toy_team", "--out", str(tmp_path)]) == 0
    folder = tmp_path / ENV / "toy_team"
    team = json.loads((folder / "team.json").read_text())
    assert set(team["roles"]) == {"trader", "banker", "judge"}
    assert team["command"].startswith("meeplezoo export --team ")
    assert [(s["stage"], s["command"]) for s in team["reproduce"]] == [("team", team["command"])]
    for role in team["roles"]:  # each member's list: its own steps, then the bundle
        steps = json.loads((folder / role / "card.json").read_text())["reproduce"]
        assert steps[0]["stage"] == "train" and steps[-1]["command"] == team["command"]
    game = envs.make_game(ENV)
    bot = make_bot(str(folder), game, seed=0)
    assert isinstance(bot, TeamBot)
    state = play_game(game.new_initial_state(9), [bot, bot, bot])
    assert state.is_terminal() and np.isfinite(state.scores()).all()
    result = evaluate.versus_field(ENV, {"num_players": 3}, "random", str(folder), 3, seed=0,
                                   workers=1)
    assert result["games"] == 3  # a team fields every seat the candidate leaves
    loads = []
    real_init = TeamBot.__init__

    def counting_init(self, *args, **kwargs):
        loads.append(1)
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(TeamBot, "__init__", counting_init)
    # a deterministic team fields every seat of every game from one load per worker
    again = evaluate.versus_field(ENV, {"num_players": 3}, "random", str(folder), 4, seed=0,
                                  workers=1)
    assert again["games"] == 4 and len(loads) == 1
    with pytest.raises(CheckpointError, match="one checkpoint per role"):
        export.export_team("twins", [str(folders["judge"]), str(folders["judge"]),
                                     str(folders["trader"])], tmp_path)
    with pytest.raises(CheckpointError, match="needs the roles"):
        export.export_team("pair", [str(folders["judge"]), str(folders["trader"])], tmp_path)


def test_lookahead_searches_with_one_policy_per_role(role_runs):
    from meeplezoo.training.agents.search import LookaheadBot, bot_model

    _, folders = role_runs
    game = envs.make_game(ENV)
    team = {role: load(folder) for role, folder in folders.items()}
    bot = LookaheadBot(game, team, ["audit", "trader_bid"], rollouts=2, seed=0)
    state = play_game(game.new_initial_state(3), [bot, bot, bot])
    assert state.is_terminal() and bot.searched > 0
    judge = LookaheadBot(game, load(folders["judge"]), ["audit"], 2,
                         opponents=bot_model(game, ["heuristic"]), seed=0)
    state = play_game(game.new_initial_state(4), [RandomBot(0), RandomBot(1), judge])
    assert state.is_terminal() and judge.searched > 0
    alone = LookaheadBot(game, load(folders["judge"]), ["audit"], 2, seed=0)
    state = game.new_initial_state(5)
    while state.decision_name() != "audit":
        state.apply(RandomBot(2).act(state))
    with pytest.raises(ValueError, match="no policy for role 'trader'"):
        alone.act(state)


def test_improve_searches_and_fits_one_roles_policy(role_runs, tmp_path):
    from meeplezoo.training.fitting import improve

    root, _ = role_runs
    out = tmp_path / "improved"
    assert improve.main(["--model", str(root / "judge" / "final_model.zip"), "--search",
                         "audit", "--rollouts", "2", "--games", "3", "--epochs", "1",
                         "--workers", "1", "--seed", "1", "--out", str(out)]) == 0
    labels = np.load(out / "labels.npz")
    assert labels["obs"].shape[1] == envs.make_game(ENV).observation_size("judge")
    assert labels["searched_rows"].any()
    card = json.loads((out / "search_policy" / "card.json").read_text())
    assert card["role"] == "judge"
    assert export.export_model(out / "final_model.zip", "judge_improved", tmp_path / "zoo")


def test_a_dagger_round_keeps_to_its_role(tmp_path):
    """(Resuming a role run, and its ONNX export choosing as SB3 does, are checked on both
    toys in test_pipeline.py.)"""
    run = tmp_path / "banker"
    assert _train(run, role="banker", extra=["--dagger-rounds", "1"]) == 0
    record = json.loads((run / "run.json").read_text())
    assert record["imitation"]["dagger_rounds"] == 1
    assert record["imitation"]["decisions"] == 2 * 6 * 3  # banker decisions only, 2 x 6 games



def test_a_round_robin_seats_role_checkpoints_in_their_roles(role_runs):
    _, folders = role_runs
    out = evaluate.round_robin(ENV, {"num_players": 3},
                               ["random", str(folders["judge"]), str(folders["banker"])], 12,
                               seed=4)
    rows = {r["agent"]: r for r in out["ratings"]}
    assert rows[str(folders["judge"])]["seat_games"] > 0
    assert sum(r["seat_games"] for r in rows.values()) == 12 * 3
    with pytest.raises(ValueError, match="no agent can play seat"):
        evaluate.round_robin(ENV, {"num_players": 3}, [str(folders["judge"])], 2)
