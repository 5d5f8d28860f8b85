"""``evaluate``, ``arena``, ``balance`` and ``benchmark`` on Ray
(``training.evaluation.cluster``): on the 2-node cluster their reports equal the local
run's with the same seed; a worker lost mid-run has its games played again, and past the
retries the run stops with an error that counts the games lost and writes no report; a bad
agent is not retried."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from functools import partial
from pathlib import Path

import pytest

pytest.importorskip("ray")

from meeplezoo import cli
from meeplezoo.envs.core.errors import ConfigError
from meeplezoo.training.agents.zoo import zoo_folder
from meeplezoo.training.evaluation import cluster, evaluate
from meeplezoo.training.evaluation.evaluate import _play_lineups

ENV = "necropolis_railway_v1"
ZOO = f"{ENV}/ppo_league"
# each command with its --json report; "mine" is a checkpoint folder given by a path
# relative to the driver's working directory (the cluster's nodes run elsewhere)
COMMANDS = {
    "evaluate": ["evaluate", "--env", ENV, "--players", "2", "--games", "6", "--seed", "4",
                 "--agents", "random", "heuristic", "mine"],
    "arena": ["arena", "--env", ENV, "--players", "2", "--games", "6", "--seed", "4",
              "--bootstrap", "50", "--no-progress"],
    "balance": ["balance", "--env", ENV, "--option", "num_players=2", "--games", "5",
                "--seed", "4", "--preset", "bots", "--cell", f"zoo=seat1:{ZOO}"],
    # the frozen protocol's own cells and deals, scaled down: one cell, 2 games a figure
    "benchmark": ["benchmark", "mine", "--env", ENV, "--players", "2", "--games", "2",
                  "--no-progress"],
}


def _run_here(argv: list[str], report: Path) -> dict:
    assert cli.main([*argv, "--json", str(report)]) == 0
    return _comparable(json.loads(report.read_text()))


def _comparable(report: dict | list) -> dict | list:
    """A report less what differs from run to run: the wall time, the command, and where
    the games were played (benchmark's ``played_on`` and its times)."""
    if isinstance(report, dict):
        return {k: _comparable(v) if k == "cells" else v for k, v in report.items()
                if k not in ("wall_time_s", "command", "took_s", "played_on")}
    if isinstance(report, list):
        return [_comparable(item) if isinstance(item, dict) else item for item in report]
    return report


def test_the_commands_on_a_two_node_cluster_equal_the_local_run(two_nodes, tmp_path,
                                                                monkeypatch, capsys):
    address, env = two_nodes
    shutil.copytree(zoo_folder(ZOO), tmp_path / "mine")
    monkeypatch.chdir(tmp_path)
    here = {name: _run_here(argv, tmp_path / f"{name}_here.json")
            for name, argv in COMMANDS.items()}
    capsys.readouterr()
    runs = [[*argv, "--address", address, "--json", str(tmp_path / f"{name}_ray.json")]
            for name, argv in COMMANDS.items()]
    driver = ("import json, sys\nfrom meeplezoo import cli\n"
              "sys.exit(max(cli.main(argv) for argv in json.loads(sys.argv[1])))")
    played = subprocess.run([sys.executable, "-c", driver, json.dumps(runs)], env=env,
                            cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert played.returncode == 0, played.stdout[-2000:] + played.stderr[-4000:]
    assert f"Ray: 2 node(s), 2 CPU(s) at {address}" in played.stderr
    for name in COMMANDS:
        ray = _comparable(json.loads((tmp_path / f"{name}_ray.json").read_text()))
        assert ray == here[name], name
    assert here["arena"]["games"] == 6 and len(here["balance"]["results"]) == 10
    assert here["benchmark"]["status"].startswith("not the protocol")
    assert [c["players"] for c in here["benchmark"]["cells"]] == [2]


def _dies_once(marker: str, args: tuple) -> list:
    """A chunk whose first attempt anywhere kills its own worker process."""
    if not os.path.exists(marker):
        Path(marker).touch()
        os._exit(1)
    return _play_lineups(args)


def _raises(folder: str, args: tuple) -> list:
    """A chunk that fails like a bug, leaving a file per attempt named by its chunk."""
    _, chunk = args
    chunk_name = "-".join(map(str, chunk))
    Path(folder, f"chunk-{chunk_name}-attempt-{len(os.listdir(folder))}").touch()
    raise RuntimeError("a bug in the games")


EVALUATE = ["--env", ENV, "--players", "2", "--agents", "random", "heuristic", "--games",
            "12", "--seed", "9", "--address", "auto"]


def test_a_killed_worker_has_its_games_played_again(ray_here, tmp_path, monkeypatch, capsys):
    local = tmp_path / "local.json"
    assert evaluate.main([*EVALUATE[:-2], "--workers", "1", "--json", str(local)]) == 0
    monkeypatch.setattr(evaluate, "_play_lineups", partial(_dies_once, str(tmp_path / "died")))
    monkeypatch.setenv("MEEPLEZOO_PROGRESS_INTERVAL", "0")  # a line at every finished chunk
    capsys.readouterr()
    assert evaluate.main([*EVALUATE, "--json", str(tmp_path / "ray.json")]) == 0
    assert (tmp_path / "died").exists()  # a worker did die
    assert json.loads((tmp_path / "ray.json").read_text()) == json.loads(local.read_text())
    counted = [line for line in capsys.readouterr().err.splitlines()
               if line.startswith(f"evaluate {ENV}: ")]
    assert [line.split()[2] for line in counted] == ["3/12", "6/12", "9/12", "12/12", "12/12"]


def test_past_its_retries_a_lost_chunk_stops_the_run_with_no_report(ray_here, tmp_path,
                                                                     monkeypatch):
    monkeypatch.setattr(evaluate, "_play_lineups", partial(_dies_once, str(tmp_path / "died")))
    report = tmp_path / "ray.json"
    with pytest.raises(SystemExit) as stopped:
        evaluate.main([*EVALUATE, "--retries", "0", "--json", str(report)])
    assert "3 of 12 games were lost with their Ray worker or node after 0 retries" in str(
        stopped.value)
    assert not report.exists()


def test_an_error_in_the_games_is_not_retried(ray_here, tmp_path):
    attempts = tmp_path / "attempts"
    attempts.mkdir()
    with pytest.raises(RuntimeError, match="a bug in the games"):
        cluster.play_chunks(partial(_raises, str(attempts)), None, list(range(4)),
                            cluster.Workers(address="auto", retries=3))
    # Other chunks may start on the other worker before the first error reaches the driver,
    # but no chunk is ever tried a second time.
    tried = [name.name.split("-attempt-")[0] for name in attempts.iterdir()]
    assert tried and len(tried) == len(set(tried)), sorted(tried)


def test_a_bad_agent_says_why_as_it_does_here(ray_here, tmp_path):
    with pytest.raises(SystemExit, match=r"evaluate: .*nonexistent: not a checkpoint folder"):
        evaluate.main([*EVALUATE[:6], str(tmp_path / "nonexistent"), *EVALUATE[7:]])


def test_code_the_workers_cannot_import_says_to_install_it_on_every_node(ray_here, tmp_path,
                                                                         monkeypatch):
    (tmp_path / "only_here.py").write_text("def play(args):\n    return args[1]\n")
    monkeypatch.syspath_prepend(str(tmp_path))  # after Ray started: its workers lack it
    from only_here import play

    with pytest.raises(ConfigError, match=r"No module named 'only_here'.*on every node"):
        cluster.play_chunks(play, None, [1, 2], cluster.Workers(address="auto"))
