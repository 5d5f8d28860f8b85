"""training.improve: rollout search at chosen decisions, distilled into the policy."""

import json

import numpy as np
import pytest

from meeplezoo.training import export
from meeplezoo.training.fitting import improve, train


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    out = tmp_path_factory.mktemp("base")
    assert train.main([
        "--env", "toy_v0", "--players", "2", "--timesteps", "256", "--n-envs", "1",
        "--n-steps", "128", "--batch-size", "64", "--opponents", "heuristic", "--seed", "4",
        "--out", str(out), "--no-progress", "--net", "16",
    ]) == 0
    return out


@pytest.fixture(scope="module")
def improved(trained, tmp_path_factory):
    out = tmp_path_factory.mktemp("improved")
    assert improve.main([
        "--model", str(trained / "final_model.zip"), "--search", "decide", "--rollouts", "2",
        "--games", "4", "--epochs", "1", "--workers", "1", "--seed", "9", "--out", str(out),
    ]) == 0
    return out


def test_improve_writes_a_fitted_model_and_a_run_that_chains_the_commands(trained, improved):
    run = json.loads((improved / "run.json").read_text())
    assert run["command"].startswith("meeplezoo train --env toy_v0")
    assert " && meeplezoo improve --model " in run["command"]
    assert run["code_commit"].count(" && ") == 1
    facts = run["improvement"]
    assert len(facts["label_sets"]) == 1
    facts.update(facts["label_sets"][0])
    assert facts["games"] == 4 and facts["rollouts"] == 2 and facts["search"] == ["decide"]
    assert 0 < facts["searched"] <= facts["decisions"]
    assert 0 <= facts["changed"] <= facts["searched"]
    assert 0.0 <= facts["search_win_share"] <= 1.0
    assert 0.0 <= facts["policy_win_share_same_deals"] <= 1.0
    assert 0.0 <= facts["fit"]["searched_agreement"] <= 1.0 and facts["fit"]["epochs"] == 1
    labels = np.load(improved / "labels.npz")
    assert len(labels["actions"]) == facts["decisions"]
    # every label is legal and the played action is one of the labelled best
    assert not (labels["targets"] & ~labels["masks"]).any()
    assert labels["targets"][np.arange(len(labels["actions"])), labels["actions"]].all()
    folder = export.export_model(improved / "final_model.zip", "improved", improved / "ckpt")
    card = json.loads((folder / "card.json").read_text())
    assert card["improvement"]["searched"] == facts["searched"]
    assert card["algorithm"].endswith("rollout-search distillation")
    assert card["training_steps"] == json.loads((trained / "run.json").read_text())[
        "timesteps_done"]


def test_a_refit_on_saved_labels_chains_the_labelling_command(trained, improved, tmp_path):
    model = str(trained / "final_model.zip")
    out = tmp_path / "refit"
    labels = str(improved / "labels.npz")
    assert improve.main(["--model", model, "--labels", f"{labels},{labels}",
                         "--epochs", "2", "--lr", "1e-3", "--out", str(out)]) == 0
    run = json.loads((out / "run.json").read_text())
    labelled = json.loads((improved / "labels.json").read_text())
    train_cmd, label_cmd, again, refit_cmd = run["command"].split(" && ")
    assert train_cmd.startswith("meeplezoo train")
    assert label_cmd == labelled["command"]
    assert again == label_cmd  # each label set's command is part of the recipe
    assert "--labels" in refit_cmd and run["code_commit"].count(" && ") == 3
    assert run["improvement"]["fit"]["epochs"] == 2
    assert run["improvement"]["searched"] == 2 * labelled["searched"]
    assert run["improvement"]["decisions"] == 2 * labelled["decisions"]
    other = tmp_path / "other.zip"  # labels made by another model are refused
    other.write_bytes((trained / "final_model.zip").read_bytes())
    (tmp_path / "run.json").write_text((trained / "run.json").read_text())
    with pytest.raises(SystemExit, match="were made by playing"):
        improve.main(["--model", str(other), "--labels", str(improved / "labels.npz"),
                      "--out", str(tmp_path / "x")])


def test_labelled_data_does_not_depend_on_the_worker_count(improved):
    kwargs = dict(env_name="toy_v0", config={"num_players": 2},
                  policy_dir=improved / "search_policy", games=3, seed=5,
                  opponents=["heuristic"], search_kinds=["decide"], rollouts=2,
                  margin_weight=0.2, reward="win")
    one = improve.collect_search_labels(**kwargs, workers=1)
    two = improve.collect_search_labels(**kwargs, workers=2)
    for key in ("obs", "targets", "actions", "returns", "searched_rows", "win_shares"):
        assert np.array_equal(one[key], two[key])
    assert one["searched"] == two["searched"] > 0


def test_tilted_targets_are_the_policy_tilted_by_the_values_and_itself_elsewhere(trained,
                                                                               improved):
    import torch
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(str(trained / "final_model.zip"), device="cpu")
    data = dict(np.load(improved / "labels.npz"))
    soft = improve.tilted_targets(model.policy, data, 0.1)
    with torch.no_grad():
        probs = model.policy.get_distribution(
            torch.as_tensor(data["obs"]).float(), action_masks=data["masks"]
        ).distribution.probs.numpy()
    assert np.allclose(soft.sum(1), 1.0, atol=1e-5) and not (soft[~data["masks"]] > 0).any()
    searched = data["searched_rows"]
    assert np.allclose(soft[~searched], probs[~searched], atol=1e-6)
    row = np.flatnonzero(searched)[0]
    legal = np.flatnonzero(data["masks"][row])
    values = data["values"][row, legal]
    expected = probs[row, legal] * np.exp((values - values.max()) / 0.1)
    assert np.allclose(soft[row, legal], expected / expected.sum(), atol=1e-5)


def test_a_soft_refit_uses_the_stored_values(trained, improved, tmp_path):
    labels = np.load(improved / "labels.npz")
    searched = labels["searched_rows"]
    assert np.isfinite(labels["values"][searched]).any(1).all()
    assert not np.isfinite(labels["values"][~searched]).any()
    legal_values = np.where(labels["masks"], labels["values"], np.nan)
    assert np.array_equal(np.isfinite(legal_values), np.isfinite(labels["values"]))
    out = tmp_path / "soft"
    assert improve.main(["--model", str(trained / "final_model.zip"), "--labels",
                         str(improved / "labels.npz"), "--temperature", "0.05",
                         "--epochs", "1", "--out", str(out)]) == 0
    run = json.loads((out / "run.json").read_text())
    assert run["improvement"]["fit"]["temperature"] == 0.05


def test_bad_requests_are_refused(trained, tmp_path):
    model = str(trained / "final_model.zip")
    with pytest.raises(SystemExit, match="--rollouts must be at least 1"):
        improve.main(["--model", model, "--rollouts", "0", "--out", str(tmp_path)])
    with pytest.raises(SystemExit, match="--temperature must be positive"):
        improve.main(["--model", model, "--temperature", "0", "--out", str(tmp_path)])
    with pytest.raises(SystemExit, match="'self' is not an opponent"):
        improve.main(["--model", model, "--opponents", "self", "--out", str(tmp_path)])
    with pytest.raises(SystemExit, match="no decision of kind"):
        improve.main(["--model", model, "--search", "bid", "--games", "1", "--workers", "1",
                      "--out", str(tmp_path)])
    with pytest.raises(SystemExit, match="no such file"):
        improve.main(["--model", str(tmp_path / "missing.zip"), "--out", str(tmp_path)])
