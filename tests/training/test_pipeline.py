"""Train -> export -> load -> evaluate, in seconds, on both toy games: the symmetric
``toy_v0`` and the asymmetric ``toy_roles_v0`` (its judge's role)."""

import json
import shutil
from dataclasses import dataclass

import numpy as np
import pytest

from meeplezoo import envs
from meeplezoo.envs.core.errors import ConfigError, MeepleZooError
from meeplezoo.training import export
from meeplezoo.training.agents.opponents import CheckpointError, load
from meeplezoo.training.evaluation import evaluate
from meeplezoo.training.fitting import train


@dataclass(frozen=True)
class Toy:
    """A toy game as the training tests see it: the seats its runs train, and where
    its checkpoints play."""

    env: str
    role: str  # the role the learner plays
    counts: tuple[int, ...]  # the player counts the module's run trains on
    players: int  # a player count to play, evaluate and check compatibility at
    asymmetric: bool  # its roles have their own seats: a run names the role it trains

    @property
    def role_args(self) -> list[str]:
        return ["--role", self.role] if self.asymmetric else []

    @property
    def seats(self) -> list[str]:
        """The train arguments that pick the module's run's seats."""
        return self.role_args or ["--players", ",".join(map(str, self.counts))]

    def at(self, players: int) -> list[str]:
        """The train (or export) arguments of a run at one player count."""
        return ["--players", str(players), *self.role_args]

    @property
    def config(self) -> dict:
        return {"num_players": self.players}

    def game(self, players: int | None = None):
        return envs.make_game(self.env, num_players=players or self.players)

    def to_move(self, state, rng: np.random.Generator):
        """``state`` played at random until a seat of the toy's role is to move."""
        while state.game.seat_role(state.current_player()) != self.role:
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])
        return state


SYMMETRIC = Toy("toy_v0", "player", (2, 3), 2, asymmetric=False)
ROLES = Toy("toy_roles_v0", "judge", (3,), 3, asymmetric=True)
only_symmetric = pytest.mark.parametrize("toy", [SYMMETRIC], ids=[SYMMETRIC.env], indirect=True)


@pytest.fixture(scope="module", params=[SYMMETRIC, ROLES], ids=lambda toy: toy.env)
def toy(request):
    return request.param


@pytest.fixture(scope="module")
def run_dir(toy, tmp_path_factory):
    out = tmp_path_factory.mktemp("run")
    code = train.main(
        [
            "--env",
            toy.env,
            *toy.seats,
            "--timesteps",
            "1024",
            "--n-envs",
            "2",
            "--n-steps",
            "128",
            "--batch-size",
            "64",
            "--opponents",
            "random,heuristic,self",
            "--snapshot-freq",
            "256",
            "--eval-freq",
            "512",
            "--eval-games",
            "4",
            "--seed",
            "3",
            "--out",
            str(out),
            "--no-progress",
            "--net",
            "16,16",
        ]
    )
    assert code == 0
    return out


def test_training_writes_model_run_card_and_self_play_snapshots(toy, run_dir):
    assert (run_dir / "final_model.zip").exists()
    run = json.loads((run_dir / "run.json").read_text())
    assert run["timesteps_done"] >= 1024 and run["player_counts"] == list(toy.counts)
    assert run["command"].startswith(f"meeplezoo train --env {toy.env} ")
    assert run["code_commit"] != "unknown"
    snapshots = sorted((run_dir / "pool").glob("step_*/policy.onnx"))
    assert len(snapshots) >= 3


def test_training_resumes_from_a_model(toy, run_dir, tmp_path):
    out = tmp_path / "resumed"
    shutil.copytree(run_dir, out)
    assert (
        train.main(
            [
                "--env",
                toy.env,
                *toy.seats,
                "--timesteps",
                "256",
                "--n-envs",
                "2",
                "--n-steps",
                "128",
                "--batch-size",
                "64",
                "--opponents",
                "random",
                "--seed",
                "4",
                "--out",
                str(out),
                "--no-progress",
                "--net",
                "16,16",
                "--resume",
                str(out / "final_model.zip"),
            ]
        )
        == 0
    )
    run = json.loads((out / "run.json").read_text())
    assert run["timesteps_done"] >= 1024 + 256 and run["role"] == toy.role
    assert " && " in run["command"]


def test_resume_applies_the_ppo_settings_given_and_keeps_the_others(toy, run_dir, tmp_path):
    from sb3_contrib import MaskablePPO

    out = tmp_path / "retuned"
    shutil.copytree(run_dir, out)
    before = MaskablePPO.load(out / "final_model.zip", device="cpu")
    assert train.main([
        "--env", toy.env, *toy.seats, "--timesteps", "128", "--n-envs", "2",
        "--opponents", "random", "--seed", "5", "--out", str(out), "--no-progress",
        "--lr", "1e-5", "--ent-coef", "0.002", "--gae-lambda", "0.99",
        "--resume", str(out / "final_model.zip"),
    ]) == 0
    after = MaskablePPO.load(out / "final_model.zip", device="cpu")
    assert after.learning_rate == 1e-5 and after.ent_coef == 0.002
    assert after.gae_lambda == 0.99 and after.rollout_buffer.gae_lambda == 0.99
    assert (after.n_steps, after.batch_size, after.gamma) == (
        before.n_steps, before.batch_size, before.gamma)  # not given: carried on


def test_resume_from_a_snapshot_with_another_reward_and_no_self_play(toy, run_dir, tmp_path,
                                                                       monkeypatch):
    from meeplezoo.training.fitting import seat_env

    out = tmp_path / "win"
    shutil.copytree(run_dir, out)
    start = tmp_path / "snapshot.zip"  # the newest snapshot; the pool starts empty
    shutil.copy(sorted((out / "pool").glob("step_*/model.zip"))[-1], start)
    kinds = []
    original = seat_env.SeatEnv.__init__

    def recording(self, *args, **kwargs):
        original(self, *args, **kwargs)
        kinds.append(self.reward_kind)

    monkeypatch.setattr(seat_env.SeatEnv, "__init__", recording)
    shutil.rmtree(out / "pool")
    assert train.main([
        "--env", toy.env, *toy.seats, "--timesteps", "256", "--n-envs", "2",
        "--n-steps", "128", "--batch-size", "64", "--opponents", "random", "--seed", "6",
        "--out", str(out), "--no-progress", "--reward", "win", "--snapshot-freq", "128",
        "--resume", str(start),
    ]) == 0
    assert kinds == ["win", "win"]
    run = json.loads((out / "run.json").read_text())
    assert run["reward"] == "rank && win"  # the fixture's segment used the auto kind
    # no self in the pool, yet the snapshots are written: to screen, ship and resume from
    written = sorted((out / "pool").glob("step_*"))
    assert written and all((p / "model.zip").exists() and (p / "policy.onnx").exists()
                           for p in written)
    card = json.loads((written[-1] / "card.json").read_text())
    assert card["reward"] == "rank && win" and card["opponents"] == ["random"]
    shipped = json.loads((export.export_snapshot(written[-1], "pick", tmp_path / "ckpt")
                          / "card.json").read_text())
    assert shipped["reproduce_note"].startswith("run the 2 commands in order")
    # the list: both training commands, then the export's own (not run here: no argv)
    assert [s["stage"] for s in shipped["reproduce"]] == ["train", "train"]


def test_an_unknown_reward_kind_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit):
        train.main(["--env", "toy_v0", "--timesteps", "8", "--out", str(tmp_path),
                    "--reward", "points"])
    assert "invalid choice: 'points'" in capsys.readouterr().err


@pytest.fixture(scope="module")
def checkpoint(run_dir, tmp_path_factory):
    out = tmp_path_factory.mktemp("ckpt")
    return export.export_model(run_dir / "final_model.zip", "toy_test", out)


def test_export_writes_onnx_and_a_complete_card(toy, checkpoint):
    card = json.loads((checkpoint / "card.json").read_text())
    for key in (
        "env",
        "env_version",
        "seats",
        "player_counts",
        "observation_size",
        "action_count",
        "feature_names_hash",
        "training_steps",
        "seed",
        "wall_time_s",
        "command",
    ):
        assert card[key] is not None, key
    assert card["env"] == toy.env and card["player_counts"] == list(toy.counts)


def test_onnx_policy_and_sb3_policy_choose_the_same_actions(toy, run_dir, checkpoint):
    game = toy.game(max(toy.counts))
    rng = np.random.default_rng(0)
    samples = []  # the decisions of the role's seats (every seat of the symmetric toy)
    for g in range(60):
        state = game.new_initial_state(g)
        while not state.is_terminal():
            seat = state.current_player()
            if game.seat_role(seat) == toy.role:
                samples.append((state.observation(seat), state.legal_mask().copy()))
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])
    assert len(samples) > 200
    assert export.sb3_and_onnx_agree(run_dir / "final_model.zip", checkpoint, samples) == 0


def test_loaded_opponent_never_picks_a_masked_action(checkpoint):
    agent = load(checkpoint, stochastic=True, seed=1)
    rng = np.random.default_rng(1)
    for _ in range(300):
        obs = rng.random(agent.observation_size, dtype=np.float32)
        mask = rng.random(agent.action_count) < 0.4
        if not mask.any():
            continue
        assert mask[agent.act(obs, mask)]
    with pytest.raises(ValueError, match="all-zero"):
        agent.act(obs, np.zeros(agent.action_count, bool))


def _edited_copy(checkpoint, tmp_path, **changes):
    folder = tmp_path / "edited"
    shutil.copytree(checkpoint, folder)
    card = json.loads((folder / "card.json").read_text())
    (folder / "card.json").write_text(json.dumps({**card, **changes}))
    return load(folder)


def test_loading_refuses_another_env_or_size(toy, checkpoint, tmp_path):
    game = toy.game()
    load(checkpoint).check_compatible(game)
    other_env = _edited_copy(checkpoint, tmp_path, env="chihou_sousei_v1")
    with pytest.raises(CheckpointError,
                       match=rf"made for env 'chihou_sousei_v1', not '{toy.env}'"):
        other_env.check_compatible(game)
    shutil.rmtree(tmp_path / "edited")
    other_count = _edited_copy(checkpoint, tmp_path, player_counts=[4])
    with pytest.raises(CheckpointError, match=r"plays \[4\] players"):
        other_count.check_compatible(game)
    agent = load(checkpoint)
    with pytest.raises(CheckpointError, match="takes observations of"):
        agent.act(np.zeros(agent.observation_size - 1, np.float32), np.ones(agent.action_count))
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "card.json").write_text("{not json")
    (broken / "policy.onnx").write_bytes(b"")
    with pytest.raises(CheckpointError, match="damaged model card"):
        load(broken)
    with pytest.raises(CheckpointError, match=r"needs card\.json and policy\.onnx"):
        load(tmp_path / "nowhere")
    assert issubclass(CheckpointError, MeepleZooError)


@pytest.mark.parametrize("field, message", [
    ("feature_names_hash", "the feature names differ"),
    ("action_names_hash", "the action names differ"),
])
def test_a_checkpoint_of_a_changed_encoder_or_catalogue_is_refused(toy, checkpoint, tmp_path,
                                                                    field, message):
    """Same sizes, other names: ids that would mean other features or moves are refused
    before the checkpoint plays."""
    stale = _edited_copy(checkpoint, tmp_path, **{field: "0" * 16})
    with pytest.raises(CheckpointError, match=message):
        stale.check_compatible(toy.game())


@pytest.mark.parametrize("field", ["observation_size", "action_count"])
def test_a_network_that_does_not_match_its_card_is_refused_at_load(checkpoint, tmp_path, field):
    card = json.loads((checkpoint / "card.json").read_text())
    with pytest.raises(CheckpointError, match=f"does not match its card.*{field[:6]}"):
        _edited_copy(checkpoint, tmp_path, **{field: card[field] + 2})


def test_evaluation_vs_field_and_round_robin(toy, checkpoint):
    result = evaluate.versus_field(toy.env, toy.config, "heuristic", "random", 40, seed=1)
    assert result["games"] == 40 and 0 <= result["win_rate"] <= 1
    assert len(result["win_rate_by_seat"]) == toy.players
    lo, hi = result["win_rate_ci95"]
    assert lo <= result["win_rate"] <= hi
    table = evaluate.round_robin(
        toy.env, toy.config, ["random", "heuristic", str(checkpoint)], 60, seed=2
    )
    assert {row["agent"] for row in table["ratings"]} == {"random", "heuristic", str(checkpoint)}
    assert sum(row["seat_games"] for row in table["ratings"]) == 60 * toy.players


def test_wilson_interval():
    lo, hi = evaluate.wilson(80, 100)
    assert 0.70 < lo < 0.8 < hi < 0.88


def test_imitation_warm_start_fits_the_teacher(toy, tmp_path):
    from meeplezoo.training.fitting.imitation import collect_teacher_data

    data = collect_teacher_data(toy.env, toy.config, games=40, seed=0, workers=1, role=toy.role)
    assert data["obs"].shape[0] == data["actions"].shape[0] == data["returns"].shape[0]
    assert data["masks"][np.arange(len(data["actions"])), data["actions"]].all()
    out = tmp_path / "bc"
    assert train.main([
        "--env", toy.env, *toy.at(toy.players), "--timesteps", "256", "--n-envs", "2",
        "--n-steps", "128", "--batch-size", "64", "--opponents", "self=2,random",
        "--imitate-games", "200", "--imitate-epochs", "10", "--seed", "0",
        "--out", str(out), "--no-progress", "--net", "32,32",
    ]) == 0
    run = json.loads((out / "run.json").read_text())
    assert run["imitation"]["agreement"] > 0.8  # high card, audit the winner: easy to copy
    assert (out / "pool" / "step_000000000" / "policy.onnx").exists()


def test_imitation_learns_the_teachers_set_of_equally_best_actions():
    """地方創生's bot flips a coin among equally valued placements: the data keeps
    the whole set, and the played action is always in it."""
    from meeplezoo.training.fitting.imitation import collect_teacher_data

    data = collect_teacher_data("chihou_sousei_v1", {"num_players": 2}, games=2, seed=1,
                                workers=1)
    rows = np.arange(len(data["actions"]))
    assert data["targets"][rows, data["actions"]].all()
    assert not (data["targets"] & ~data["masks"]).any()  # only legal actions are targets
    assert (data["targets"].sum(1) > 1).any()  # ties exist and are kept


def test_dagger_round_lets_the_student_play_and_the_teacher_label(toy, tmp_path):
    out = tmp_path / "dagger"
    assert train.main([
        "--env", toy.env, *toy.at(toy.players), "--timesteps", "128", "--n-envs", "2",
        "--n-steps", "64", "--batch-size", "64", "--opponents", "random",
        "--imitate-games", "30", "--imitate-epochs", "2", "--dagger-rounds", "1",
        "--seed", "0", "--out", str(out), "--no-progress", "--net", "16",
    ]) == 0
    run = json.loads((out / "run.json").read_text())
    assert run["imitation"]["dagger_rounds"] == 1 and run["imitation"]["games"] == 60
    assert run["imitation"]["decisions"] > len(np.load(out / "teacher.npz")["actions"])


def test_solo_scores_compare_agents_on_the_same_games():
    result = evaluate.solo_scores("necropolis_railway_v1", {}, ["heuristic", "random"], 12, seed=3)
    assert set(result) == {"heuristic", "random"}
    for row in result.values():
        lo, hi = row["mean_score_ci95"]
        assert row["games"] == 12 and lo <= row["mean_score"] <= hi
    assert result["heuristic"]["mean_score"] > result["random"]["mean_score"]


def test_win_rates_by_role_for_asymmetric_seats():
    out = evaluate.round_robin("asian_delivery_v1", {"num_players": 3}, ["random"], 6, seed=1)
    rows = out["by_role"]
    assert sum(r["seat_games"] for r in rows) == 18
    assert sum(r["win_rate"] * r["seat_games"] for r in rows) == pytest.approx(6)
    assert evaluate.round_robin("toy_v0", {"num_players": 2}, ["random"], 4)["by_role"] == []


def test_teacher_data_does_not_depend_on_the_worker_count(toy):
    from meeplezoo.training.fitting.imitation import collect_teacher_data

    one = collect_teacher_data(toy.env, toy.config, games=6, seed=4, workers=1, role=toy.role)
    two = collect_teacher_data(toy.env, toy.config, games=6, seed=4, workers=2, role=toy.role)
    for key in one:
        np.testing.assert_array_equal(one[key], two[key])


def test_a_league_snapshot_ships_with_a_card_that_says_which_snapshot_it_is(toy, run_dir,
                                                                           tmp_path):
    snapshot = sorted((run_dir / "pool").glob("step_*"))[-1]
    folder = export.export_snapshot(snapshot, "league_pick", tmp_path)
    card = json.loads((folder / "card.json").read_text())
    step = json.loads((snapshot / "card.json").read_text())["training_steps"]
    assert folder == tmp_path / toy.env / "league_pick"
    assert card["name"] == "league_pick" and card["training_steps"] == step
    assert f"training step {step}" in card["reproduce_note"] and card["command"]
    assert [s["command"] for s in card["reproduce"]] == card["command"].split(" && ")
    assert card["wall_time_s"] > 0  # the training time up to the snapshot
    agent = load(folder)
    state = toy.to_move(toy.game().new_initial_state(0), np.random.default_rng(0))
    mask = state.legal_mask()
    assert mask[agent.act(state.observation(state.current_player()), mask)]
    with pytest.raises(FileNotFoundError, match="not a snapshot"):
        export.export_snapshot(run_dir, "nope", tmp_path)


def test_the_recorded_reward_names_each_player_count_where_auto_differs():
    assert train.reward_label("auto", [2, 3]) == "rank"
    assert train.reward_label("win", [4]) == "win"
    # solo games play for points: a mixed run says which count trains on what
    assert train.reward_label("auto", [2, 1]) == "rank (2p) / score (1p)"
    with pytest.raises(MeepleZooError, match="needs 2 or more players"):
        train.reward_label("win", [2, 1])


@only_symmetric  # toy_v1 is a newer toy_v0
def test_carry_moves_a_checkpoint_to_the_new_version_and_awaits_its_evaluation(checkpoint,
                                                                                tmp_path):
    old = json.loads((checkpoint / "card.json").read_text())
    out = tmp_path / "zoo"
    assert export.main(["--carry", str(checkpoint), "--to-env", "toy_v1", "--out", str(out),
                        "--eval-games", "4", "--eval-fields", "random"]) == 0
    folder = out / "toy_v1" / checkpoint.name
    card = json.loads((folder / "card.json").read_text())
    assert card["env"] == "toy_v1" and card["env_version"] == 1
    assert card["carried_from"][0]["env"] == "toy_v0"
    assert card["carried_from"][0]["evaluation"] == old["evaluation"]
    carried = card["carried_from"][0]["command"]
    assert carried.startswith("meeplezoo export --carry ")
    assert card["evaluation"]["vs_random"]["games"] == 4  # measured again under toy_v1
    assert card["command"] == old["command"] and card["seed"] == old["seed"]
    assert (folder / "policy.onnx").read_bytes() == (checkpoint / "policy.onnx").read_bytes()
    load(folder).check_compatible(envs.make_game("toy_v1", num_players=2))
    with pytest.raises(CheckpointError, match="exists already"):
        export.carry_checkpoint(checkpoint, "toy_v1", out)
    with pytest.raises(CheckpointError, match="newer version of the same game"):
        export.carry_checkpoint(checkpoint, "chihou_sousei_v1", out)
    with pytest.raises(CheckpointError, match="newer version of the same game"):
        export.carry_checkpoint(checkpoint, "toy_v0", out)


@only_symmetric
def test_carry_refuses_a_changed_layout(checkpoint, tmp_path):
    edited = tmp_path / "edited"
    shutil.copytree(checkpoint, edited)
    card = json.loads((edited / "card.json").read_text())
    (edited / "card.json").write_text(json.dumps({**card, "feature_names_hash": "0" * 16}))
    with pytest.raises(CheckpointError, match="another observation or action layout"):
        export.carry_checkpoint(edited, "toy_v1", tmp_path / "zoo")
    assert not (tmp_path / "zoo").exists()


def test_any_python_agent_can_be_evaluated():
    """A plain function of (observation, mask), an object with act(observation, mask) and a
    state bot are rated like any spec, in process, with the same games as a spec."""

    def first_legal(observation, mask):
        return int(np.flatnonzero(mask)[0])

    class HighCard:
        name = "high_card"

        def act(self, state):
            return int(np.argmax(state.hands[state.current_player()]))

    config = {"num_players": 2}
    by_function = evaluate.versus_field("toy_v0", config, first_legal, "random", 6, seed=3,
                                        workers=2)
    assert by_function["candidate"] == "first_legal" and by_function["games"] == 6
    by_state_bot = evaluate.versus_field("toy_v0", config, HighCard(), "random", 6, seed=3)
    by_spec = evaluate.versus_field("toy_v0", config, "heuristic", "random", 6, seed=3)
    assert by_state_bot["win_rate"] == by_spec["win_rate"]  # the toy's heuristic is HighCard
    assert by_state_bot["candidate"] == "high_card"
    with pytest.raises(TypeError, match=r"act\(\) must take"):
        evaluate.versus_field("toy_v0", config, lambda: 0, "random", 2)


def test_a_model_trained_elsewhere_exports_with_env_and_players(toy, run_dir, tmp_path):
    foreign = tmp_path / "elsewhere" / "model.zip"
    foreign.parent.mkdir()
    shutil.copyfile(run_dir / "final_model.zip", foreign)
    with pytest.raises(FileNotFoundError, match="give --env and --players"):
        export.main(["--model", str(foreign), "--name", "x", "--out", str(tmp_path)])
    assert export.main(["--model", str(foreign), "--name", "foreign", "--env", toy.env,
                        *toy.at(toy.players), "--out", str(tmp_path)]) == 0
    card = json.loads((tmp_path / toy.env / "foreign" / "card.json").read_text())
    assert card["command"] is None and card["player_counts"] == [toy.players]
    load(tmp_path / toy.env / "foreign").check_compatible(envs.make_game(toy.env))


def test_evaluate_cli_rates_solo_agents_by_score_and_refuses_bad_counts(capsys, tmp_path):
    out = tmp_path / "solo.json"
    assert evaluate.main(["--env", "necropolis_railway_v1", "--players", "1", "--agents",
                          "random", "heuristic", "--games", "2", "--workers", "1",
                          "--json", str(out)]) == 0
    table = json.loads(out.read_text())
    assert set(table) == {"random", "heuristic"} and table["random"]["games"] == 2
    with pytest.raises(SystemExit, match="num_players=9 is not allowed"):
        evaluate.main(["--env", "necropolis_railway_v1", "--players", "9", "--agents", "random"])


def first_legal(observation, mask):
    """A plain-function agent (on command lines: tests.training.test_pipeline:first_legal)."""
    return int(np.flatnonzero(mask)[0])


def test_a_module_attribute_spec_plays_in_evaluation_and_as_an_opponent(capsys):
    spec = "tests.training.test_pipeline:first_legal"
    assert evaluate.main(["--env", "toy_v0", "--players", "2", "--agents", spec,
                          "--field", "random", "--games", "2", "--workers", "1"]) == 0
    assert "first_legal" in capsys.readouterr().out
    from meeplezoo.training.agents.bots import OpponentPool, make_bot

    game = envs.make_game("toy_v0", num_players=2)
    state = game.new_initial_state(0)
    assert state.legal_mask()[make_bot(spec, game).act(state)]
    pool = OpponentPool(game, [spec], seed=1)
    assert state.legal_mask()[pool.draw(0).act(state)]
    with pytest.raises(SystemExit, match="cannot import it"):
        evaluate.main(["--env", "toy_v0", "--players", "2", "--agents", "no_such.module:x",
                       "--field", "random", "--games", "1"])


def test_evaluate_cli_names_a_bad_agent_spec_and_shows_progress(capsys):
    with pytest.raises(SystemExit, match="evaluate: no_such_agent: not a checkpoint folder"):
        evaluate.main(["--env", "toy_v0", "--players", "2", "--agents", "no_such_agent",
                       "--field", "random", "--games", "1"])
    assert evaluate.main(["--env", "toy_v0", "--players", "2", "--agents", "heuristic",
                          "--field", "random", "--games", "2", "--workers", "1",
                          "--progress"]) == 0
    assert "game" in capsys.readouterr().out.lower()


def test_export_never_silently_replaces_a_larger_evaluation(toy, checkpoint, tmp_path):
    folder = tmp_path / "zoo" / toy.env / checkpoint.name
    shutil.copytree(checkpoint, folder)
    assert export.main(["--evaluate", str(folder), "--eval-games", "6",
                        "--eval-fields", "random"]) == 0
    with pytest.raises(SystemExit, match="has more games than this one"):
        export.main(["--evaluate", str(folder), "--eval-games", "2", "--eval-fields", "random"])
    assert json.loads((folder / "card.json").read_text())["evaluation"]["vs_random"][
        "games"] == 6
    assert export.main(["--evaluate", str(folder), "--eval-games", "2", "--eval-fields",
                        "random", "--replace-evaluation"]) == 0
    assert json.loads((folder / "card.json").read_text())["evaluation"]["vs_random"][
        "games"] == 2


def test_export_eval_games_prints_a_summary_and_json_on_request(tmp_path, capsys):
    """The terminal gets a line per field (win rate, interval, fair share, scores, seats)
    and the solo means, not the card's raw JSON; ``--json FILE`` writes that JSON."""
    from meeplezoo.training.agents.zoo import checkpoint_folder

    folder = tmp_path / "necro"
    shutil.copytree(checkpoint_folder("necropolis_railway_v1/ppo_league"), folder)
    assert export.main(["--evaluate", str(folder), "--eval-games", "2", "--eval-fields",
                        "random", "--eval-players", "2", "--replace-evaluation", "--json",
                        str(tmp_path / "e.json")]) == 0
    out = capsys.readouterr().out
    assert "{" not in out
    assert "vs random (2 players, 2 games): win rate" in out
    assert "  by seat: seat1 " in out
    assert "solo, random (2 games): mean score" in out
    assert f"recorded in {folder / 'card.json'}" in out
    written = json.loads((tmp_path / "e.json").read_text())
    card = json.loads((folder / "card.json").read_text())
    assert written["vs_random"] == card["evaluation"]["vs_random"]


@pytest.mark.parametrize("command", ["train", "improve", "bench"])
def test_fitting_commands_without_torch_say_which_extra(monkeypatch, tmp_path, command):
    import importlib
    import sys

    monkeypatch.setitem(sys.modules, "sb3_contrib", None)  # as if it were not installed
    module = importlib.import_module(f"meeplezoo.training.fitting.{command}")
    argv = {"train": ["--env", "toy_v0", "--timesteps", "8", "--out", str(tmp_path)],
            "improve": ["--model", str(tmp_path / "m.zip"), "--out", str(tmp_path)],
            "bench": ["--env", "toy_v0"]}[command]
    with pytest.raises(SystemExit, match=r"needs sb3_contrib.*make install.*-e .\.\[train\]."):
        module.main(argv)


def test_an_export_carries_the_critics_value_and_a_search_can_use_it(toy, run_dir, checkpoint,
                                                                     valueless_checkpoint):
    """The ONNX has a second output, ``value``, equal to SB3's ``predict_values``; an
    information-set search takes it as its leaf value; an export made before it plays on
    and says it has no value."""
    import torch
    from sb3_contrib import MaskablePPO

    from meeplezoo.training.agents.ismcts import ISMCTS, network_value

    agent = load(checkpoint)
    assert agent.has_value
    model = MaskablePPO.load(str(run_dir / "final_model.zip"), device="cpu")
    rng = np.random.default_rng(3)
    game = toy.game()
    for seed in range(4):
        state = toy.to_move(game.new_initial_state(seed), rng)
        obs = state.observation(state.current_player())
        with torch.no_grad():
            expected = float(model.policy.predict_values(torch.as_tensor(obs[None]))[0, 0])
        assert agent.value(obs, state.legal_mask()) == pytest.approx(expected, abs=1e-5)
        result = ISMCTS(game, prior=agent, value=network_value(agent), simulations=6,
                        seed=seed).search(state)
        assert state.legal_mask()[result.action]
    old = load(str(valueless_checkpoint))  # exported before the value output, none fitted
    assert not old.has_value
    with pytest.raises(CheckpointError, match="no value output"):
        old.value(np.zeros(old.observation_size, np.float32), np.ones(old.action_count, bool))


def test_the_demo_says_how_long_it_takes_and_its_defaults_take_under_three_minutes():
    """``make demo`` must finish in 5 minutes on 2 idle cores, the install included: its
    estimate from the measured parts (``demo.estimate_s``) grows with its budget, and the
    defaults stay under 3 minutes."""
    from meeplezoo.training import demo

    defaults = demo.estimate_s(20_000, 200, rows=3, training=True)
    assert 60 < defaults < 180
    assert demo.estimate_s(40_000, 200, 3, True) > defaults > demo.estimate_s(20_000, 200, 2,
                                                                                False)
    with pytest.raises(ConfigError, match="--timesteps 0"):
        demo.main(["--timesteps", "0"])


def test_a_copy_without_git_history_names_its_commit_by_the_environment(monkeypatch):
    """A tree sent to another machine without .git records the commit it was sent at
    (MEEPLEZOO_CODE_COMMIT), else "unknown"; never a guess."""
    import subprocess

    from meeplezoo.training.cli import code_commit

    def no_git(*args, **kwargs):
        raise subprocess.CalledProcessError(128, "git")

    monkeypatch.setattr(subprocess, "run", no_git)
    monkeypatch.delenv("MEEPLEZOO_CODE_COMMIT", raising=False)
    assert code_commit() == "unknown"
    monkeypatch.setenv("MEEPLEZOO_CODE_COMMIT", "90c1cac")
    assert code_commit() == "90c1cac"
