"""The benchmark (``training.evaluation.benchmark``): the protocol is frozen (its digest is
pinned here, so a change must come with a new version) and every reference it names still
plays; a scaled-down run says it is not the protocol and reports Elo, paired win shares,
head-to-head shares and solo scores; the worker count changes nothing; a candidate that
cannot play a cell skips it with the reason; a bad agent spec is a clear error.

The runs here use small protocols of cheap references (the toy game, Necropolis with the
bots), built as the real one is: the machinery is the same, the games are few."""

from __future__ import annotations

import json

import numpy as np
import pytest

from meeplezoo import cli
from meeplezoo.envs.core.errors import MeepleZooError
from meeplezoo.training.evaluation import benchmark
from meeplezoo.training.evaluation.benchmark import PROTOCOL, Cell, Protocol
from meeplezoo.training.evaluation.ratings import compositions

# The digest of each version.  A test failing here means PROTOCOL changed: a protocol must
# not change under its version, so give the new table a new version (meeplezoo-bench/3) and
# pin its digest here; docs/benchmark.md says what changed.  Version 1 stays as history: its
# figures are comparable with each other only.
FROZEN = {"meeplezoo-bench/1": "d092d411833384b7", "meeplezoo-bench/2": "4872ae25eac0ff15",
          "meeplezoo-bench/3": "dbdecb198a17f4d5"}

SMALL = Protocol("test-bench/0", "random", "heuristic", 200, (
    Cell("toy_v0", 3, ("random", "heuristic"), games=6, paired_deals=6, seed=11),
    Cell("necropolis_railway_v1", 1, ("random", "heuristic"), games=4, paired_deals=0, seed=12),
    Cell("necropolis_railway_v1", 2, ("random", "heuristic"), games=6, paired_deals=4, seed=13),
))
ZOO = "necropolis_railway_v1/ppo_league"


def first_legal(observation: np.ndarray, mask: np.ndarray) -> int:
    """A user's agent: the first legal action, in any game."""
    return int(np.flatnonzero(mask)[0])


def comparable(report: dict) -> dict:
    """A report less what says where and how long it ran."""
    return {k: v for k, v in report.items() if k not in ("took_s", "played_on")} | {
        "cells": [{k: v for k, v in c.items() if k != "took_s"} for c in report["cells"]]}


def cell_of(report: dict, env: str, players: int) -> dict:
    return next(c for c in report["cells"] if c["env"] == env and c["players"] == players)


def candidate(cell: dict, label: str) -> dict:
    return next(c for c in cell["candidates"] if c["agent"] == label)


# -- the protocol -----------------------------------------------------------------------------


def test_the_protocol_is_frozen_under_its_version():
    assert PROTOCOL.version in FROZEN, f"pin the digest of {PROTOCOL.version} in FROZEN"
    assert PROTOCOL.digest() == FROZEN[PROTOCOL.version], (
        f"PROTOCOL changed under {PROTOCOL.version}: give it a new version and pin its digest "
        f"({PROTOCOL.digest()})")
    assert PROTOCOL.anchor == "random" and PROTOCOL.pairing_field == "heuristic"


def test_the_digest_sees_every_field():
    cell = PROTOCOL.cells[0]
    for changed in ({"seed": cell.seed + 1}, {"games": cell.games + 20},
                    {"references": cell.references[:-1]}):
        other = Protocol(PROTOCOL.version, PROTOCOL.anchor, PROTOCOL.pairing_field,
                         PROTOCOL.resamples,
                         (Cell(**{**cell.__dict__, **changed}), *PROTOCOL.cells[1:]))
        assert other.digest() != PROTOCOL.digest()


@pytest.mark.parametrize("cell", PROTOCOL.cells, ids=lambda c: c.name)
def test_every_network_reference_is_pinned_and_still_plays_with_what_it_was_frozen_with(cell):
    """A network shipped again under a reference's name, or a level's settings changed, is
    another reference: the protocol needs a new version (and new pins) before it lands."""
    networks = [spec for spec in cell.references if spec not in ("random", "heuristic")]
    assert [spec for spec, _ in cell.pins] == networks
    assert benchmark.changed_references([cell]) == [], (
        "a reference changed under " + PROTOCOL.version + ": "
        + ", ".join(f"{s} now {benchmark.reference_fingerprint(s)}" for s, _ in cell.pins))


def test_a_changed_reference_makes_a_run_not_the_protocol(monkeypatch):
    pinned = Cell("necropolis_railway_v1", 2, ("random", "heuristic", ZOO), games=6,
                  paired_deals=4, seed=13, pins=((ZOO, "0" * 16),))
    small = Protocol("test-bench/0", "random", "heuristic", 50, (pinned,))
    report = benchmark.run_benchmark(["random"], small)
    assert report["full_protocol"] is False
    assert report["changed_references"] == [f"{ZOO} (necropolis_railway_v1 2p)"]
    assert report["status"] == ("not the protocol (references changed since it was frozen: "
                                f"{ZOO} (necropolis_railway_v1 2p))")
    assert benchmark.reference_fingerprint("heuristic") is None
    assert benchmark.reference_fingerprint(ZOO) != benchmark.reference_fingerprint(
        ZOO + "@hard") != benchmark.reference_fingerprint(ZOO + "@expert")


@pytest.mark.parametrize("cell", PROTOCOL.cells, ids=lambda c: c.name)
def test_every_reference_still_resolves_and_takes_every_seat(cell):
    references, seated = benchmark.seat_candidates(cell, [])
    assert [r.label for r in references] == list(cell.references) and not seated
    assert cell.references[:2] == ("random", "heuristic")
    if cell.players > 1:  # the games are whole cycles of lineups, the deals whole rotations
        cycle = len(compositions(len(cell.references) + 1, cell.players))
        assert cell.games % (cell.players * cycle) == 0
        assert cell.paired_deals % cell.players == 0


def test_the_zoo_rule_names_each_level_measured_as_a_rung_of_its_own(monkeypatch):
    """``zoo_references``, the rule a new version's table is written by: a level enters where
    its card measures it stronger than the network, @expert only where above @hard too."""
    from pathlib import Path

    from meeplezoo.training.agents import zoo
    from meeplezoo.training.agents.bots import LEVELS

    def measured(low: float, high: float, level: str) -> dict:
        strength = {"win_share_difference": (low + high) / 2,
                    "win_share_difference_ci95": [low, high], "games": 200}
        return {"4p": {"strength": strength, "settings": dict(LEVELS[level])}}

    def entry(name: str, levels: dict) -> zoo.ZooEntry:
        return zoo.ZooEntry(f"x_v1/{name}", "x_v1", (4,), None, "policy", Path(name),
                            levels=levels)

    above = entry("a", {"easy": measured(-0.2, -0.1, "easy"), "hard": measured(0.05, 0.1, "hard"),
                        "expert": measured(0.15, 0.3, "expert")})
    overlapping = entry("b", {"hard": measured(0.05, 0.2, "hard"),
                              "expert": measured(0.1, 0.3, "expert")})
    monkeypatch.setattr(zoo, "list_zoo", lambda env=None: [above, overlapping])
    assert benchmark.zoo_references("x_v1", 4) == [
        "random", "heuristic", "x_v1/a", "x_v1/b", "x_v1/a@hard", "x_v1/a@expert", "x_v1/b@hard"]


def test_the_list_prints_the_version_and_digest(capsys):
    assert cli.main(["benchmark", "--list"]) == 0
    out = capsys.readouterr().out
    assert f"{PROTOCOL.version} (digest {PROTOCOL.digest()})" in out
    assert all(f"`{ref}`" in out for cell in PROTOCOL.cells for ref in cell.references)


# -- a run ------------------------------------------------------------------------------------


def test_a_scaled_run_reports_every_figure_and_says_it_is_not_the_protocol():
    report = benchmark.run_benchmark(["heuristic", first_legal, ZOO], SMALL, games=2,
                                     command="test")
    assert report["protocol"] == "test-bench/0" and report["full_protocol"] is False
    assert report["status"] == "not the protocol (scaled to 2 games)"
    assert report["protocol_digest"] == SMALL.digest() and report["command"] == "test"
    assert report["code_commit"] and report["candidates"] == ["heuristic", "first_legal", ZOO]

    toy = cell_of(report, "toy_v0", 3)
    assert candidate(toy, ZOO)["skipped"]  # checked below
    mine = candidate(toy, "first_legal")
    assert mine["elo_ci95"][0] <= mine["elo"] <= mine["elo_ci95"][1]
    assert set(mine["paired"]) == set(mine["head_to_head"]) == {"random", "heuristic"}
    paired = mine["paired"]["random"]
    assert paired["win_share_difference"] == pytest.approx(
        paired["win_share_a"] - paired["win_share_b"])
    assert len(paired["win_share_difference_ci95"]) == 2
    assert toy["pairing"]["deals"] == 2 and toy["pairing"]["field"] == "heuristic"
    assert mine["round_robin"]["games"] == 3  # one lineup of three, rotated: a whole cycle
    assert 0 <= mine["head_to_head"]["random"]["share"] <= 1

    # a candidate that is a reference is rated as a copy of itself; against itself, no gap
    itself = candidate(toy, "heuristic")
    assert {r["agent"] for r in itself["round_robin"]["table"]} == {
        "random", "heuristic", "heuristic (candidate)"}
    assert itself["paired"]["heuristic"]["win_share_difference"] == 0.0
    assert itself["paired"]["heuristic"]["deals_differing"] == 0

    solo = cell_of(report, "necropolis_railway_v1", 1)
    network = candidate(solo, ZOO)
    assert solo["deals"] == 2 and network["games"] == 2
    assert network["mean_score_ci95"][0] <= network["mean_score"] <= network["mean_score_ci95"][1]
    assert "win_share_difference" not in network["paired"]["random"]
    scores = {row["agent"]: row["mean_score"] for row in solo["table"]}
    assert network["paired"]["heuristic"]["score_difference"] == pytest.approx(
        scores[ZOO] - scores["heuristic"])
    json.dumps(report)  # all of it is JSON

    text = benchmark.markdown(report)
    assert "not the protocol (scaled to 2 games)" in text and "test-bench/0" in text
    assert "## `necropolis_railway_v1`, solo" in text and "Head to head" in text


def test_one_and_two_workers_give_the_same_report():
    one = benchmark.run_benchmark([first_legal], SMALL, games=2, env_names=["toy_v0"],
                                  references=True, workers=1)
    two = benchmark.run_benchmark([first_legal], SMALL, games=2, env_names=["toy_v0"],
                                  references=True, workers=2)
    assert comparable(one) == comparable(two)
    assert one["status"] == "not the protocol (scaled to 2 games; only toy_v0 3p)"
    three = benchmark.run_benchmark(["heuristic"], SMALL, env_names=["necropolis_railway_v1"],
                                    players=[2], workers=1)
    again = benchmark.run_benchmark(["heuristic"], SMALL, env_names=["necropolis_railway_v1"],
                                    players=[2], workers=2)
    assert comparable(three) == comparable(again)


def test_games_played_as_cluster_tasks_give_the_local_report(monkeypatch):
    """``--address``: the games go to ``cluster.play_chunks`` as a Ray cluster's tasks, here a
    stand-in that plays the chunks in reverse order (as tasks may end); nothing changes."""
    from meeplezoo.training.evaluation import cluster

    class Cluster:
        def cluster_resources(self) -> dict:
            return {"CPU": 3}

    def backwards(ray, retries):
        def mapper(play, shared, chunks):
            for k in reversed(range(len(chunks))):
                yield k, play((shared, chunks[k]))
        return mapper

    monkeypatch.setattr(cluster, "join", lambda address: Cluster())
    monkeypatch.setattr(cluster, "_ray_mapper", backwards)
    here = benchmark.run_benchmark(["heuristic", "random"], SMALL, games=2, workers=1)
    there = benchmark.run_benchmark(["heuristic", "random"], SMALL, games=2,
                                    workers=cluster.Workers(address="stand-in:1"))
    assert comparable(here) == comparable(there)
    assert there["played_on"] == "the Ray cluster at stand-in:1"


def test_the_protocol_run_in_full_says_so():
    small = Protocol("test-bench/0", "random", "heuristic", 50, SMALL.cells[:1])
    report = benchmark.run_benchmark(["random"], small)
    assert report["full_protocol"] is True and report["status"] == "the protocol"
    cell = report["cells"][0]
    assert candidate(cell, "random")["round_robin"]["games"] == 6


def test_a_candidate_that_cannot_play_a_cell_skips_it_saying_why():
    report = benchmark.run_benchmark([ZOO], SMALL, games=1)
    toy = candidate(cell_of(report, "toy_v0", 3), ZOO)
    assert set(toy) == {"agent", "skipped"} and "toy_v0" in toy["skipped"]
    assert "elo" in candidate(cell_of(report, "necropolis_railway_v1", 2), ZOO)
    assert f"`{ZOO}` skipped: " in benchmark.markdown(report)


@pytest.mark.parametrize("spec, said", [
    ("/nonexistent/agent", "not a checkpoint folder"),
    ("necropolis_railway_v1/ppo_league@superhard", "unknown level"),
    ("no_such_module_xyz:agent", "cannot import"),
])
def test_a_bad_agent_spec_is_a_clear_error(spec, said, capsys):
    with pytest.raises(MeepleZooError, match=said):
        benchmark.run_benchmark([spec], SMALL, games=1)
    assert cli.main(["benchmark", spec, "--games", "1"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("meeplezoo benchmark: ") and said in err and "\n" not in err


def test_the_command_writes_json_markdown_and_a_plot(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(benchmark, "PROTOCOL", SMALL)
    files = {kind: tmp_path / f"bench.{kind}" for kind in ("json", "md", "png")}
    plot = ["--plot", str(files["png"])] if _has_matplotlib() else []
    argv = ["benchmark", "heuristic", "--games", "1", "--env", "necropolis_railway_v1",
            "--no-progress", "--workers", "1", "--json", str(files["json"]),
            "--markdown", str(files["md"]), *plot]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "not the protocol (scaled to 1 game; only necropolis_railway_v1 solo, " in out
    report = json.loads(files["json"].read_text())
    assert report["command"].startswith("meeplezoo benchmark heuristic --games 1")
    assert "Round robin" in files["md"].read_text()
    if plot:
        assert files["png"].read_bytes()[:4] == b"\x89PNG"


def test_nothing_to_benchmark_is_an_error(capsys):
    assert cli.main(["benchmark"]) == 2
    assert "--references" in capsys.readouterr().err


def _has_matplotlib() -> bool:
    import importlib.util

    return importlib.util.find_spec("matplotlib") is not None
