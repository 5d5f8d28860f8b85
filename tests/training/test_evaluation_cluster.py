"""Where the evaluation commands play (``training.evaluation.cluster``), without Ray: the
chunks come back in the order of the games however many workers, each counted as it ends;
``--address`` without Ray installed is one clear line before any game.  The Ray runs are
``tests/rllib/test_cluster_evaluation.py``'s."""

from __future__ import annotations

import sys

import pytest

from meeplezoo import cli
from meeplezoo.training.evaluation import cluster, evaluate

ENV = "necropolis_railway_v1"


def _square(args: tuple) -> list[int]:
    offset, chunk = args
    return [offset + job * job for job in chunk]


@pytest.mark.parametrize("workers", [1, 2])
def test_results_come_in_the_order_of_the_jobs_and_every_chunk_is_counted(workers):
    counted: list[int] = []
    out = cluster.play_chunks(_square, 1, list(range(40)), workers,
                              lambda part: counted.append(len(part)))
    assert out == [1 + job * job for job in range(40)]
    assert sum(counted) == 40 and max(counted) <= 16 and len(counted) > 1


@pytest.mark.parametrize("argv", [
    ["evaluate", "--env", ENV, "--players", "2", "--agents", "random", "--games", "1"],
    ["arena", "--env", ENV, "--players", "2", "--games", "1"],
    ["balance", "--env", ENV, "--preset", "bots", "--games", "1"],
])
def test_address_without_ray_is_one_clear_line(argv, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails as if not installed
    assert cli.main([*argv, "--address", "auto"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (f"meeplezoo {argv[0]}: --address auto: playing on a Ray cluster needs Ray, "
                   "which is not installed: install the rllib extra (make install, or pip "
                   "install -e '.[rllib]')")


def test_negative_retries_are_refused():
    with pytest.raises(SystemExit, match="--retries must be 0 or more"):
        evaluate.main(["--env", ENV, "--players", "2", "--agents", "random", "--games", "1",
                       "--retries", "-1"])
