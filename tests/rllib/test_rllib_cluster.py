"""A 2-node Ray cluster on this machine (``tests/rllib/local_cluster.py``): one iteration
of RLlib training with an env runner on each node, exported and played; both nodes shut
down and no Ray process is left behind (the ``two_nodes`` fixture checks it)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("ray.rllib")

from meeplezoo import envs
from meeplezoo.envs.core.agents import RandomBot, play_game
from meeplezoo.training.agents.opponents import load, network_bot
from tests.rllib.conftest import REPO


def test_a_two_node_cluster_trains_exports_and_leaves_no_process(two_nodes, tmp_path):
    address, env = two_nodes
    out = tmp_path / "run"
    trained = subprocess.run(
        [sys.executable, "-m", "meeplezoo.training.rllib.train", "--env", "necropolis_railway_v1",
         "--players", "2", "--address", address, "--num-env-runners", "2",
         "--iterations", "1", "--batch-size", "200", "--minibatch-size", "100",
         "--epochs", "1", "--net", "32,32", "--eval-games", "2", "--out", str(out)],
        env=env, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert trained.returncode == 0, trained.stdout[-2000:] + trained.stderr[-4000:]
    assert "Ray: 2 node(s); env runners on 2 node(s)" in trained.stdout
    # no ERROR line from Ray's core worker about restarting the env runners
    assert "max_restarts > 0" not in trained.stderr, trained.stderr[-4000:]
    run = json.loads((out / "run.json").read_text())
    assert run["cluster_nodes"] == 2 and run["env_runner_nodes"] == 2
    assert run["address"] == address and run["timesteps_done"] >= 200

    from meeplezoo.training.rllib.export import main as export

    assert export(["--checkpoint", str(out / "checkpoint"), "--name", "cluster",
                   "--out", str(tmp_path / "zoo")]) == 0
    folder = tmp_path / "zoo" / "necropolis_railway_v1" / "cluster"
    assert load(folder).card["command"].startswith("meeplezoo rllib-train")
    game = envs.make_game("necropolis_railway_v1", num_players=2)
    bots = [RandomBot(0), network_bot(str(folder), game)]
    assert play_game(game.new_initial_state(3), bots).is_terminal()
    assert not (Path.home() / ".ray" / "auth_token").exists() or "RAY_AUTH_TOKEN" in env
