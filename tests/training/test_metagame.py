"""The meta-game (``meeplezoo metagame``): its solvers on games with known answers, the
opponent pool bound to roles that trains a best response against a mixture, and whole runs on
the three-role toy (and a few deals of Hegemony): the JSON the issue asks for, the same table
on one or two workers, a resumed run that plays nothing again, refusals, and a PSRO round."""

from __future__ import annotations

import importlib.util
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from meeplezoo import cli, envs
from meeplezoo.envs.core.errors import ConfigError
from meeplezoo.training.agents.bots import OpponentPool, split_role
from meeplezoo.training.evaluation import metagame
from meeplezoo.training.evaluation import metagame_solve as solve
from tests.core.test_workers import gone_within
from tests.training.test_balance import _children, tiny_policy

ENV = "toy_roles_v0"
ROLES = ("trader", "banker", "judge")
HAS_MPL = importlib.util.find_spec("matplotlib") is not None
HAS_SB3 = importlib.util.find_spec("sb3_contrib") is not None


# -- solvers on games with known answers ----------------------------------------------------


def two_player(row: np.ndarray, column: np.ndarray | None = None) -> np.ndarray:
    """A 2-role table; ``column`` defaults to the constant-sum complement of ``row``."""
    return np.stack([row, 1.0 - row if column is None else column])


def test_nash_of_an_uneven_matching_pennies_is_its_mixed_equilibrium():
    """Row wins 1 on (0,0) and 1/3 on (1,1): each side plays (1/4, 3/4); the replicator's
    last iterate orbits, the polished average is exact."""
    found = solve.solve_nash(two_player(np.array([[1.0, 0.0], [0.0, 1 / 3]])))
    for weights in found["mixture"]:
        assert weights == pytest.approx([0.25, 0.75], abs=1e-9)
    assert found["max_gain"] < 1e-9 and found["nash_conv"] < 1e-9


def test_nash_plays_the_dominant_strategies():
    """The prisoner's dilemma (strategy 1 defects) and a 3-role game where strategy 2
    dominates for everyone: pure equilibria, no regret."""
    pd = np.array([[0.6, 0.0], [1.0, 0.2]])
    found = solve.solve_nash(two_player(pd, pd.T))
    assert [list(w) for w in found["mixture"]] == [[0.0, 1.0], [0.0, 1.0]]
    rng = np.random.default_rng(3)
    table = rng.random((3, 3, 3, 3)) * 0.5
    for k in range(3):
        np.moveaxis(table[k], k, 0)[2] += 0.5  # strategy 2 of role k beats its others
    found = solve.solve_nash(table)
    assert [int(np.argmax(w)) for w in found["mixture"]] == [2, 2, 2]
    assert found["max_gain"] == 0.0


def test_regret_reads_deviations_and_names_the_unplayed_ones():
    table = two_player(np.array([[0.5, 0.2, np.nan], [0.9, 0.4, np.nan]]),
                       np.array([[0.5, 0.8, np.nan], [0.1, 0.6, np.nan]]))
    mixture = [np.array([1.0, 0.0]), np.array([1.0, 0.0, 0.0])]
    out = solve.regret(table, mixture)
    assert out["values"] == [0.5, 0.5]
    assert out["gains"][0] == pytest.approx(0.4)  # row: 0.9 by switching to 1
    assert out["gains"][1] == pytest.approx(0.3)  # column: 0.8 by switching to 1
    assert out["unknown"] == [(1, 2)]  # the column's third strategy was never played


def test_alpharank_puts_the_mass_on_the_unique_sink():
    """In the prisoner's dilemma every switch leads to mutual defection: α-Rank's sink."""
    pd = np.array([[0.6, 0.0], [1.0, 0.2]])
    profiles = [(i, j) for i in range(2) for j in range(2)]
    payoffs = np.array([[pd[i, j], pd[j, i]] for i, j in profiles])
    out = solve.alpharank(profiles, payoffs, [2, 2])
    assert out["stationary"][profiles.index((1, 1))] > 0.99
    assert out["marginals"][0][1] > 0.99 and out["complete"]
    cycle = solve.alpharank(profiles, np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 1.0],
                                                [1.0, 0.0]]), [2, 2])
    assert cycle["stationary"] == pytest.approx([0.25] * 4)  # matching pennies: a cycle
    partial = solve.alpharank(profiles[:3], payoffs[:3], [2, 2])
    assert not partial["complete"]


def test_fixation_is_neutral_at_no_gain_and_never_overflows():
    assert solve.fixation(0.0, 100.0, 50) == pytest.approx(1 / 50)
    values = [solve.fixation(g, 100.0, 50) for g in (-1.0, -0.01, 0.0, 0.01, 1.0)]
    assert values == sorted(values) and values[0] == 0.0 and values[-1] == pytest.approx(1.0)
    assert all(np.isfinite(values))


# -- the pool that trains against a mixture ------------------------------------------------------


def test_a_pool_kind_bound_to_a_role_plays_only_that_roles_seats():
    game = envs.make_game(ENV)
    assert split_role("judge:heuristic=2", ROLES) == ("judge", "heuristic=2")
    assert split_role("pkg.mod:attr", ROLES) == (None, "pkg.mod:attr")
    pool = OpponentPool(game, ["trader:heuristic", "banker:random", "judge:heuristic=3",
                               "judge:random=1"], seed=0)
    for _ in range(20):
        assert getattr(pool.draw(0), "name", "") == "heuristic"  # the trader's only kind
        assert type(pool.draw(1)).__name__ == "RandomBot"
    judges = [type(pool.draw(2)).__name__ for _ in range(400)]
    assert 0.65 < 1 - judges.count("RandomBot") / 400 < 0.85  # heuristic 3 : random 1
    with pytest.raises(ConfigError, match="'self' cannot be bound to a role"):
        OpponentPool(game, ["judge:self"])


# -- whole runs on the toy ---------------------------------------------------------------------


def run(tmp_path: Path, *flags: str, out: str = "out") -> dict:
    """A metagame run in ``tmp_path / out``; its JSON report."""
    argv = ["metagame", "--env", ENV, "--out", str(tmp_path / out), "--bootstrap", "200",
            "--workers", "1", "--no-progress", *flags]
    if "--plots" not in flags:
        argv.append("--no-plots")
    assert cli.main(argv) == 0
    return json.loads((tmp_path / out / "metagame.json").read_text())


def test_a_full_table_writes_what_the_issue_asks(tmp_path, capsys):
    report = run(tmp_path, "--population", "random,heuristic", "--profiles", "all",
                 "--games", "4", "--seed", "3")
    assert [r["role"] for r in report["roles"]] == list(ROLES)
    assert {k: [s["label"] for s in v] for k, v in report["population"].items()} == {
        role: ["random", "heuristic"] for role in ROLES}
    assert report["design"]["profiles_sampled"] == report["design"]["profiles_total"] == 8
    assert len(report["payoffs"]) == 8 and report["alpharank"]["complete"]
    for entry in report["payoffs"]:
        assert entry["games"] == 4
        assert sum(entry["win_share"].values()) == pytest.approx(1.0)  # a win is shared
        for role in ROLES:
            low, high = entry["win_share_ci95"][role]
            assert low <= entry["win_share"][role] <= high
    eq = report["equilibrium"]
    for role in ROLES:
        assert sum(eq["mixture"][role].values()) == pytest.approx(1.0)
        row = eq["classes"][role]
        assert row["win_share_ci95"][0] <= row["win_share"] <= row["win_share_ci95"][1]
        assert row["in_band"] == (0.10 <= row["win_share"] <= 0.45)
    assert sum(eq["classes"][r]["win_share"] for r in ROLES) == pytest.approx(1.0)
    assert report["bot_table"]["profile"] == "heuristic|heuristic|heuristic"
    assert eq["max_regret"] >= 0 and not eq["unsampled_deviations"]
    out = capsys.readouterr().out
    assert "### Each class at the equilibrium" in out
    assert max(len(line) for line in out.splitlines()) <= 100


def test_the_same_seed_gives_the_same_table_on_one_and_two_workers(tmp_path):
    one = run(tmp_path, "--population", "random,heuristic", "--games", "3", out="one")
    two = run(tmp_path, "--population", "random,heuristic", "--games", "3", "--workers", "2",
              out="two")
    assert one["payoffs"] == two["payoffs"] and one["equilibrium"] == two["equilibrium"]
    sampled = one["design"]["sampled"]
    assert "heuristic|heuristic|heuristic" in sampled  # the bot table is always played
    assert one["design"]["profiles_sampled"] == len(sampled) <= 8


def test_a_resumed_run_plays_no_game_again_and_refuses_other_settings(tmp_path, capsys):
    first = run(tmp_path, "--population", "random,heuristic", "--games", "3")
    assert first["games_played"] == 3 * first["design"]["profiles_sampled"]
    again = run(tmp_path, "--population", "random,heuristic", "--games", "3", "--resume")
    assert again["games_played"] == 0 and again["payoffs"] == first["payoffs"]
    assert cli.main(["metagame", "--env", ENV, "--population", "random,heuristic",
                     "--games", "3", "--out", str(tmp_path / "out"), "--no-plots"]) == 2
    assert "holds a metagame run: give --resume" in capsys.readouterr().err
    assert cli.main(["metagame", "--env", ENV, "--population", "random,heuristic",
                     "--games", "5", "--seed", "1", "--out", str(tmp_path / "out"),
                     "--resume", "--no-plots"]) == 2
    err = capsys.readouterr().err
    assert "is a run of other settings: seed 0 != 1; games 3 != 5" in err
    # a profile stopped half-way: only its missing games are played
    journal = tmp_path / "out" / "games.jsonl"
    lines = journal.read_text().splitlines()
    journal.write_text("\n".join(lines[:-2]) + "\n")
    third = run(tmp_path, "--population", "random,heuristic", "--games", "3", "--resume")
    assert third["games_played"] == 2 and third["payoffs"] == first["payoffs"]


@pytest.mark.parametrize(("flags", "message"), [
    (["--population", "random,nope_agent_x"], "'nope_agent_x' is not an agent"),
    (["--strategy", "jester:random"], "unknown role 'jester'; the roles are trader"),
    (["--strategy", "trader"], "must look like ROLE:SPEC"),
    (["--band", "0.5,0.2"], "need 0 <= LOW < HIGH <= 1"),
    (["--band", "ten"], "must be LOW,HIGH win shares"),
    (["--levels", "godlike"], "the levels are easy, medium, hard, expert"),
    (["--games", "0"], "--games must be at least 1"),
])
def test_bad_input_is_one_clear_line(tmp_path, capsys, flags, message):
    code = cli.main(["metagame", "--env", ENV, "--out", str(tmp_path / "o"), "--no-plots",
                     *flags])
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "o" / "games.jsonl").exists()  # refused before any game


def test_a_strategy_of_another_role_is_refused_with_the_form_that_works(tmp_path, capsys):
    banker = tiny_policy(tmp_path / "banker_net", "banker", 0)
    assert cli.main(["metagame", "--env", ENV, "--out", str(tmp_path / "o"), "--no-plots",
                     "--strategy", f"trader:{banker}"]) == 2
    err = capsys.readouterr().err
    assert f"plays role 'banker', not 'trader'; give it as --strategy banker:{banker}" in err
    report = run(tmp_path, "--population", "random", "--strategy", f"banker:{banker}",
                 "--games", "2")
    assert [s["label"] for s in report["population"]["banker"]] == ["random", "banker_net"]
    assert [s["label"] for s in report["population"]["trader"]] == ["random"]
    assert report["bot_table"] is None  # no heuristic in the population: no bot table


def test_a_symmetric_game_is_refused():
    with pytest.raises(SystemExit, match="has one role at 2 players: a meta-game is over roles"):
        metagame.main(["--env", "chihou_sousei_v1", "--option", "num_players=2",
                       "--no-plots", "--out", "/nonexistent/x"])


@pytest.mark.skipif(not HAS_MPL, reason="the report extra (matplotlib)")
def test_hegemony_in_a_few_deals_writes_the_json_and_plots_of_the_bar(tmp_path):
    """The issue's bar, scaled down: two strategies a class and two deals a profile."""
    argv = ["metagame", "--env", "hegemony_v1", "--population", "random,heuristic",
            "--games", "2", "--out", str(tmp_path / "heg"), "--bootstrap", "100",
            "--workers", "1", "--no-progress"]
    assert cli.main(argv) == 0
    report = json.loads((tmp_path / "heg" / "metagame.json").read_text())
    classes = ["WC", "MC", "CC", "ST"]
    assert list(report["population"]) == classes
    assert all(e["win_share_ci95"].keys() == set(classes) for e in report["payoffs"])
    eq = report["equilibrium"]
    assert list(eq["mixture"]) == classes and all(
        "win_share" in eq["classes"][c] and "wealth" in eq["classes"][c]["vp_by_source"]
        for c in classes)
    assert report["design"]["profiles_sampled"] < report["design"]["profiles_total"] == 16
    for name in ("payoff_table", "deviations", "mixtures", "win_share"):
        assert (tmp_path / "heg" / "plots" / f"{name}.png").stat().st_size > 1000


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc")
def test_a_stopped_run_leaves_no_worker_running(tmp_path):
    """SIGTERM while the games play: one line, the shell's status, the workers gone (the
    games that ended are journaled: ``test_balance``'s journal tests)."""
    root = Path(__file__).resolve().parents[2]
    out = tmp_path / "stopped"
    run_ = subprocess.Popen(
        [sys.executable, "-m", "meeplezoo", "metagame", "--env", "hegemony_v1",
         "--population", "random,heuristic", "--games", "100000", "--workers", "2",
         "--no-plots", "--out", str(out)], cwd=root, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True)
    try:
        end = time.monotonic() + 60
        while len(workers := _children(run_.pid)) < 2 and time.monotonic() < end:
            time.sleep(0.1)
        assert len(workers) == 2, "the run started no workers"
        time.sleep(0.5)
        run_.send_signal(signal.SIGTERM)
        _, err = run_.communicate(timeout=30)
    finally:
        run_.kill()
    assert run_.returncode == 143, err
    assert err.splitlines()[-1] == "meeplezoo metagame: stopped by SIGTERM"
    assert not gone_within(workers, 5)
    assert (out / "games.jsonl").is_file()


@pytest.mark.skipif(not HAS_SB3, reason="the train extra")
def test_a_psro_round_adds_a_best_response_per_role(tmp_path):
    tiny = "--n-envs 1 --n-steps 64 --batch-size 64 --net 8 --no-progress"
    flags = ["--population", "random,heuristic", "--games", "2", "--psro-rounds", "1",
             "--psro-roles", "trader,judge", "--br-timesteps", "64", f"--br-train={tiny}"]
    report = run(tmp_path, *flags)
    for role, sizes in (("trader", 3), ("banker", 2), ("judge", 3)):
        population = report["population"][role]
        assert len(population) == sizes
    br = report["population"]["trader"][-1]
    assert br["label"] == "br1" and br["source"] == "psro round 1"
    assert json.loads((Path(br["spec"]) / "card.json").read_text())["role"] == "trader"
    first, second = report["rounds"]
    assert first["best_responses"] == {} and first["sizes"] == dict.fromkeys(ROLES, 2)
    assert set(second["best_responses"]) == {"trader", "judge"}
    assert "gain_vs_previous" in second["best_responses"]["trader"]
    trained = report["best_responses"]
    assert [(b["round"], b["role"]) for b in trained] == [(1, "trader"), (1, "judge")]
    assert "trader:heuristic=" in trained[0]["train_command"]  # the mixture, bound by role
    again = run(tmp_path, *flags, "--resume")  # nothing trained or played again
    assert again["games_played"] == 0 and again["best_responses"] == trained
    assert again["payoffs"] == report["payoffs"]
