"""``training.train --init-from``: a run that starts from a shipped checkpoint (ONNX + card)
takes its actor exactly, its card's network and history, and trains a fresh critic alone
for ``--critic-warmup`` steps before the actor moves."""

import json

import numpy as np
import pytest
import torch
from sb3_contrib import MaskablePPO

from meeplezoo.training import export
from meeplezoo.training.agents.opponents import load
from meeplezoo.training.fitting import train
from meeplezoo.training.fitting.init_from import CRITIC_PARTS, onnx_weights

ENV = "toy_roles_v0"
TINY = ["--n-envs", "1", "--n-steps", "64", "--batch-size", "64", "--no-progress"]


@pytest.fixture(scope="module")
def shipped(tmp_path_factory):
    """A trained trader policy exported as a checkpoint (net 16,8)."""
    root = tmp_path_factory.mktemp("shipped")
    assert train.main(["--env", ENV, "--role", "trader", "--timesteps", "128", "--opponents",
                       "heuristic", "--seed", "3", "--out", str(root / "run"), "--net", "16,8",
                       *TINY]) == 0
    return export.export_model(root / "run" / "final_model.zip", "toy_trader", root / "zoo")


def train_from(shipped, out, steps: int, *extra: str) -> MaskablePPO:
    """Train the trader ``steps`` steps from ``shipped`` against random play; the model."""
    assert train.main(["--env", ENV, "--role", "trader", "--timesteps", str(steps),
                       "--opponents", "random", "--seed", "5", "--out", str(out),
                       "--init-from", str(shipped), *extra, *TINY]) == 0
    return MaskablePPO.load(out / "final_model.zip", device="cpu")


def actor_state(model) -> dict[str, np.ndarray]:
    return {name: p.detach().numpy().copy() for name, p in model.policy.named_parameters()
            if not name.startswith(("value_net", "mlp_extractor.value_net"))}


def test_init_from_copies_the_actor_and_keeps_it_frozen_during_the_warmup(shipped, tmp_path):
    out = tmp_path / "run"
    model = train_from(shipped, out, 128, "--critic-warmup", "1000")
    weights = onnx_weights(shipped / "policy.onnx")
    actor = {n for n in weights if not n.startswith(CRITIC_PARTS)}  # the value output's aside
    assert actor == set(actor_state(model))  # the ONNX file holds the whole actor
    for name, value in actor_state(model).items():
        np.testing.assert_array_equal(value, weights[name])  # frozen through the whole run
    run = json.loads((out / "run.json").read_text())
    card = load(shipped).card
    assert run["net_arch"] == card["net_arch"] == [16, 8]
    assert run["timesteps_done"] == card["training_steps"] + 128
    assert run["command"].startswith(card["command"] + " && meeplezoo train ")
    assert run["code_commit"].startswith(card["code_commit"] + " && ")
    assert run["init_from"]["checkpoint"] == str(shipped)
    assert run["init_from"]["critic_warmup_steps"] == 1000


def test_a_resumed_init_from_run_keeps_its_origin(shipped, tmp_path):
    out = tmp_path / "run"
    train_from(shipped, out, 64)
    assert train.main(["--env", ENV, "--role", "trader", "--timesteps", "64", "--opponents",
                       "random", "--seed", "5", "--out", str(out), "--resume",
                       str(out / "final_model.zip"), *TINY]) == 0
    run = json.loads((out / "run.json").read_text())
    assert run["init_from"]["checkpoint"] == str(shipped)
    assert run["command"].count(" && ") == load(shipped).card["command"].count(" && ") + 2


def test_after_the_warmup_the_actor_trains(shipped, tmp_path):
    model = train_from(shipped, tmp_path / "run", 256, "--critic-warmup", "64")
    weights = onnx_weights(shipped / "policy.onnx")
    moved = [name for name, value in actor_state(model).items()
             if not np.array_equal(value, weights[name])]
    assert moved


def test_the_copied_actor_gives_the_checkpoints_logits(shipped, tmp_path):
    model = train_from(shipped, tmp_path / "run", 64)
    agent = load(shipped)
    obs = np.random.default_rng(0).uniform(-1, 1, (8, agent.observation_size)).astype("float32")
    mask = np.ones((8, agent.action_count), np.float32)
    with torch.no_grad():
        latent = model.policy.mlp_extractor.forward_actor(torch.from_numpy(obs))
        ours = model.policy.action_net(latent).numpy()
    np.testing.assert_allclose(ours, agent.logits_batch(obs, mask), atol=1e-4)


@pytest.mark.parametrize("extra, message", [
    (["--role", "banker"], "plays role 'trader'"),
    (["--role", "trader", "--net", "32"], "--net 32"),
    (["--role", "trader", "--resume", "x.zip"], "drop --resume"),
    (["--role", "trader", "--imitate-games", "3"], "drop --imitate-games"),
])
def test_init_from_refuses_what_does_not_fit(shipped, tmp_path, extra, message, capsys):
    with pytest.raises(SystemExit) as exc:
        train.main(["--env", ENV, "--timesteps", "64", "--out", str(tmp_path / "r"),
                    "--init-from", str(shipped), *extra, *TINY])
    assert message in str(exc.value)


def test_critic_warmup_needs_init_from(tmp_path):
    with pytest.raises(SystemExit, match="only applies with --init-from"):
        train.main(["--env", ENV, "--role", "trader", "--timesteps", "64", "--out",
                    str(tmp_path / "r"), "--critic-warmup", "10", *TINY])


def test_init_from_refuses_another_env(shipped, tmp_path):
    with pytest.raises(SystemExit, match="made for env"):
        train.main(["--env", "hegemony_v1", "--role", "working_class", "--timesteps", "64",
                    "--out", str(tmp_path / "r"), "--init-from", str(shipped), *TINY])


def test_a_damaged_onnx_is_refused(shipped, tmp_path):
    import shutil

    bad = tmp_path / "bad"
    shutil.copytree(shipped, bad)
    (bad / "policy.onnx").write_bytes(b"not onnx")
    with pytest.raises(SystemExit, match="not a loadable ONNX model"):
        train.main(["--env", ENV, "--role", "trader", "--timesteps", "64", "--out",
                    str(tmp_path / "r"), "--init-from", str(bad), *TINY])


def test_a_team_folder_gives_its_member_for_the_role():
    from meeplezoo import envs
    from meeplezoo.training.fitting.init_from import resolve_checkpoint

    game = envs.make_game("hegemony_v1")
    for role in game.roles:
        agent = resolve_checkpoint("checkpoints/hegemony_v1/ppo_classes", game, role)
        assert agent.role == role and agent.path.name == role


def test_the_closing_line_reports_this_runs_own_steps_and_time(shipped, tmp_path, capsys):
    """Not the card's totals: a 64-step run from a checkpoint says 64 steps."""
    out = tmp_path / "run"
    train_from(shipped, out, 64)
    before = int(load(shipped).card["training_steps"])
    line = capsys.readouterr().out.strip().splitlines()[-1]
    assert line.startswith(f"saved {out / 'final_model.zip'} after 64 steps in ")
    assert f"({before + 64} steps and " in line and "counting the training it continues" in line
    assert json.loads((out / "run.json").read_text())["timesteps_done"] == before + 64


@pytest.mark.parametrize("steps, warmup, trains", [(64, 64, False), (128, 64, True)])
def test_a_run_within_the_critic_warmup_warns_that_the_actor_will_not_train(
        shipped, tmp_path, capsys, steps, warmup, trains):
    """One rollout of 64 steps with a 64-step warm-up never frees the actor: the run says so
    before it starts and when it ends; a second rollout does free it, and nothing is said."""
    from meeplezoo.training.fitting.init_from import actor_trains

    model = train_from(shipped, tmp_path / "run", steps, "--critic-warmup", str(warmup))
    weights = onnx_weights(shipped / "policy.onnx")
    moved = any(not np.array_equal(value, weights[name])
                for name, value in actor_state(model).items())
    assert moved == trains == actor_trains(steps, 64, warmup)
    captured = capsys.readouterr()
    warned = f"does not get past the critic warm-up of {warmup} steps" in captured.err
    assert warned == (not trains)
    assert ("the actor did not train" in captured.out) == (not trains)
