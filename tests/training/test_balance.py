"""The class balance report (``meeplezoo balance``): cells and presets on the
three-role toy, paired deals and seeds, clear refusals, the JSON round trip, the comparison,
a real PNG, and on Hegemony the hook's columns and the bit-identity with the bot report."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from meeplezoo import envs
from meeplezoo.envs.core import balance as core
from meeplezoo.envs.core import stats as core_stats
from meeplezoo.envs.hegemony import report
from meeplezoo.envs.hegemony.state import VP_SOURCES
from meeplezoo.training.agents.bots import make_bot
from meeplezoo.training.agents.opponents import names_hash
from meeplezoo.training.evaluation import balance, markdown_fit
from meeplezoo.training.evaluation.balance_compare import (
    compare,
    newcombe,
    ratio_interval,
    strength,
    strength_markdown,
)
from tests.core.test_workers import gone_within

ENV = "toy_roles_v0"
ROLES = ("trader", "banker", "judge")


def tiny_policy(folder: Path, role: str, seed: int) -> Path:
    """A checkpoint of ``role`` without torch: masked logits of one random linear layer."""
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper

    game = envs.make_game(ENV)
    n_obs, n_act = game.observation_size(role), game.num_actions(role)
    weights = np.random.default_rng(seed).normal(size=(n_obs, n_act)).astype(np.float32)
    nodes = [helper.make_node("MatMul", ["observation", "W"], ["logits"]),
             helper.make_node("Cast", ["action_mask"], ["legal"], to=TensorProto.BOOL),
             helper.make_node("Where", ["legal", "logits", "floor"], ["masked_logits"])]
    graph = helper.make_graph(
        nodes, "tiny",
        [helper.make_tensor_value_info("observation", TensorProto.FLOAT, ["batch", n_obs]),
         helper.make_tensor_value_info("action_mask", TensorProto.FLOAT, ["batch", n_act])],
        [helper.make_tensor_value_info("masked_logits", TensorProto.FLOAT, ["batch", n_act])],
        [numpy_helper.from_array(weights, "W"),
         numpy_helper.from_array(np.array([-1e8], np.float32), "floor")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    folder.mkdir(parents=True)
    onnx.save(model, str(folder / "policy.onnx"))
    (folder / "card.json").write_text(json.dumps({
        "env": ENV, "role": role, "name": folder.name, "observation_size": n_obs,
        "action_count": n_act, "config": {"num_players": 3}, "player_counts": [3],
        "feature_names_hash": names_hash(game.feature_names(role))}))
    return folder


@pytest.fixture(scope="module")
def team(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("balance_team") / "toy_team"
    for k, role in enumerate(ROLES):
        tiny_policy(root / role, role, k)
    (root / "team.json").write_text(json.dumps({"name": "toy_team", "env": ENV,
                                                "roles": {r: r for r in ROLES}}))
    return root


def _cells(*args: str, team: Path | None = None) -> list[balance.Cell]:
    game = envs.make_game(ENV)
    cells, presets = [a for a in args if "=" in a], [a for a in args if "=" not in a]
    return balance.build_cells(game, None, cells, presets, str(team) if team else None)


def test_presets_and_cells_put_each_agent_in_its_roles_seat(team):
    cells = {c.name: c.specs for c in _cells("bots", "team", "all+bots", "judge+random",
                                              "bot:all+random", "mix=banker:random,JUDGE:"
                                              + str(team / "judge"), team=team)}
    h, r, t = "heuristic", "random", str(team)
    assert cells["bots"] == (h, h, h) and cells["team"] == (t, t, t)
    assert cells["trader+bots"] == (t, h, h) and cells["judge+bots"] == (h, h, t)
    assert cells["judge+random"] == (r, r, t)
    assert cells["bot:banker+random"] == (r, h, r)
    assert cells["mix"] == (h, r, str(team / "judge"))  # a role left out plays heuristic
    assert len(cells) == 2 + 3 + 1 + 3 + 1


@pytest.mark.parametrize(("argv", "message"), [
    (["--cell", "x=jester:random"], "unknown role 'jester'; the roles of toy_roles_v0 are "
                                    "trader, banker, judge"),
    (["--preset", "bots,everyone"], "unknown preset 'everyone'; presets are bots, team, "
                                    "CLASS+bots, CLASS+random, bot:CLASS+random"),
    (["--preset", "bot:jester+random"], "unknown role 'jester'"),
    (["--preset", "team"], "preset 'team' plays the team's policies: give --team PATH"),
    (["--cell", "x=trader:huristic"], "'huristic' is not an agent: a spec is random, "
                                      "heuristic, a checkpoint or team folder"),
    (["--cell", "x"], "must look like NAME=ROLE:SPEC"),
    (["--games", "0", "--preset", "bots"], "--games must be at least 1 (got 0)"),
    ([], "no cells"),
])
def test_refusals_say_what_is_allowed(argv, message):
    with pytest.raises(SystemExit) as exc:
        balance.main(["--env", ENV, "--games", "1", *argv])
    assert message in str(exc.value)


def test_a_checkpoint_is_refused_in_another_roles_seat(team):
    with pytest.raises(SystemExit) as exc:
        balance.main(["--env", ENV, "--games", "1", "--cell", f"x=trader:{team / 'judge'}"])
    assert "plays role 'judge', not 'trader'; give it as judge:" in str(exc.value)


class Recorder:
    """A bot that plays its inner bot and keeps the first position it was asked about."""

    def __init__(self, bot, seen):
        self.bot, self.seen = bot, seen

    def act(self, state):
        self.seen.setdefault(state.current_player(), state.clone().to_dict())
        return self.bot.act(state)


def _play(specs, g, team=None):
    game = envs.make_game(ENV)
    seen: dict[int, dict] = {}
    record = core.play_lineup(game, specs, 9, g,
                              lambda spec, seat, s: Recorder(make_bot(spec, game, s, seat=seat),
                                                             seen))
    return record, seen


def test_same_deal_in_every_cell_and_a_swap_leaves_other_seats_seeds(team):
    bots, seen_bots = _play(("heuristic",) * 3, 4)
    mix, seen_mix = _play(("heuristic", str(team), "random"), 4)
    assert seen_bots[0] == seen_mix[0]  # the trader's first position: the same deal
    assert bots["seed_group"] == mix["seed_group"] == 3
    swapped, _ = _play(("heuristic", "random", "random"), 4)  # now "trader vs random"
    assert swapped["seed_group"] == 0
    assert bots["seat_seeds"][0] == mix["seat_seeds"][0] and bots["seat_seeds"][2] == \
        mix["seat_seeds"][2]
    assert bots["seat_seeds"] == mix["seat_seeds"]  # seeds depend on the seat, not the agent
    assert _play(("heuristic",) * 3, 5)[1][0] != seen_bots[0]  # another game, another deal


def test_json_round_trip_markdown_and_plots(team, tmp_path, capsys):
    out, plots = tmp_path / "a.json", tmp_path / "png"
    assert balance.main(["--env", ENV, "--games", "12", "--seed", "3", "--workers", "1",
                         "--team", str(team), "--preset", "bots,judge+bots",
                         "--json", str(out), "--plots", str(plots)]) == 0
    printed = capsys.readouterr().out
    data = balance.load_report(out)
    assert data["command"].startswith("meeplezoo balance --env toy_roles_v0")
    assert [c["name"] for c in data["cells"]] == ["bots", "judge+bots"]
    assert len(data["results"]) == 24
    game = envs.make_game(ENV)
    assert balance.summarise(game, data["cells"], data["results"]) == data["summary"]
    text = balance.markdown(data)
    assert markdown_fit.fit(text)[0] in printed and "options default (none given)" in text
    assert "**Warning: too few games.** Cells bots, judge+bots on 12 games" in text
    judge = data["summary"]["judge+bots"]["classes"]["judge"]
    wins = sum(r["wins"][2] for r in data["results"] if r["cell"] == "judge+bots")
    assert judge["agent"] == str(team) and judge["wins"] == wins and judge["games"] == 12
    assert judge["wilson_low"] <= judge["win_rate"] <= judge["wilson_high"]
    assert "breakdown" not in judge and "game" not in data["summary"]["bots"]  # no hook
    png = (plots / "win_rates.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 1000
    assert not list(plots.glob("*_breakdown.png"))  # the toy has no score breakdown


def test_compare_pairs_by_deal_and_falls_back_to_unpaired(tmp_path):
    def run(seed, cell):
        cells = _cells(cell)
        return balance.run(ENV, {"num_players": 3}, cells, seed, 40, 1)

    a, b, other = run(1, "x=trader:random"), run(1, "y=banker:random"), run(2, "x=trader:random")
    two_workers = balance.run(ENV, {"num_players": 3}, _cells("x=trader:random"), 1, 40, 2)
    assert two_workers["results"] == a["results"]  # games do not depend on the split
    paired = compare(a, b)
    assert paired["paired"] and list(paired["cells"]) == ["x -> y"]
    trader = paired["cells"]["x -> y"]["trader"]
    diffs = [rb["wins"][0] - ra["wins"][0] for ra, rb in zip(a["results"], b["results"])]
    assert trader["shift"]["win_rate"] == pytest.approx(np.mean(diffs))
    assert trader["shift"]["pairs"] == 40
    low, high = trader["shift"]["win_rate_ci95"]
    assert low <= trader["shift"]["win_rate"] <= high
    same = compare(a, a)["cells"]["x"]["banker"]["shift"]
    assert same["win_rate"] == 0 and same["win_rate_ci95"] == [0.0, 0.0]
    unpaired = compare(a, other)
    assert not unpaired["paired"]
    row = unpaired["cells"]["x"]["judge"]
    expected = newcombe(row["a"]["wins"], 40, row["b"]["wins"], 40)
    assert row["shift"]["win_rate"] == pytest.approx(expected[0])
    assert row["shift"]["win_rate_ci95"] == pytest.approx(list(expected[1:]))


def test_strength_pairs_each_policy_cell_with_its_bot_in_the_same_seats(team):
    cells = _cells("bots", "all+bots", "bot:trader+random", "trader+random",
                   "banker+random",  # lacks its baseline
                   "mix+bots=judge:random",  # a custom cell whose name is no class's
                   team=team)
    report = balance.run(ENV, {"num_players": 3}, cells, 5, 60, 1)
    rows = {r["cell"]: r for r in strength(report)}
    assert sorted(rows) == ["banker+bots", "judge+bots", "trader+bots", "trader+random"]
    checked = 0
    for name, row in rows.items():
        seat = ROLES.index(row["class"])
        policy = [r["wins"][seat] for r in report["results"] if r["cell"] == name]
        bot = [r["wins"][seat] for r in report["results"] if r["cell"] == row["baseline"]]
        assert row["pairs"] == 60
        assert row["difference"] == pytest.approx(np.mean(policy) - np.mean(bot))
        if np.mean(bot) > 0:
            assert row["ratio"] == pytest.approx(np.mean(policy) / np.mean(bot))
            assert row["ratio_ci95"][0] <= row["ratio"] <= row["ratio_ci95"][1]
            checked += 1
        else:  # only the bot never won: inf; neither did: no ratio at all
            assert row["ratio"] == (np.inf if np.mean(policy) else None)
    assert checked and "policy against its own bot" in balance.markdown(report)


def test_ratio_interval_is_infinite_where_the_bot_never_wins():
    assert ratio_interval(np.ones(5), np.zeros(5)) == [np.inf, np.inf]
    policy, bot = np.repeat([1.0, 1, 0, 0], 10), np.repeat([1.0, 0, 1, 0], 10)
    low, high = ratio_interval(policy, bot)  # both win half the deals: the ratio is 1
    assert 0.5 < low < 1 < high < 2


def test_record_writes_the_figures_into_the_team_cards(team, tmp_path):
    import shutil

    copy = tmp_path / "toy_team"
    shutil.copytree(team, copy)
    assert balance.main(["--env", ENV, "--games", "6", "--seed", "3", "--team", str(copy),
                         "--preset", "judge+bots,judge+random", "--record"]) == 0
    card = json.loads((copy / "judge" / "card.json").read_text())
    heuristic, rnd = card["evaluation"]["vs_heuristic"], card["evaluation"]["vs_random"]
    assert (heuristic["games"], rnd["games"], heuristic["role"]) == (6, 6, "judge")
    assert heuristic["command"].startswith("meeplezoo balance ")
    assert "evaluation" not in json.loads((copy / "trader" / "card.json").read_text())
    cells = json.loads((copy / "team.json").read_text())["evaluation"]["balance"]
    assert cells["judge+random"]["classes"]["judge"]["win_rate"] == rnd["win_rate"]
    assert balance.main(["--env", ENV, "--games", "2", "--seed", "4", "--team", str(copy),
                         "--preset", "team", "--record"]) == 0
    cells = json.loads((copy / "team.json").read_text())["evaluation"]["balance"]
    assert (cells["team"]["games"], cells["judge+bots"]["games"]) == (2, 6)  # both kept
    with pytest.raises(SystemExit, match="give --team"):
        balance.main(["--env", ENV, "--games", "1", "--preset", "bots", "--record"])


def test_record_report_writes_an_earlier_reports_figures(team, tmp_path):
    import shutil

    copy = tmp_path / "toy_team"
    shutil.copytree(team, copy)
    report = tmp_path / "r.json"
    assert balance.main(["--env", ENV, "--games", "4", "--seed", "5", "--team", str(copy),
                         "--preset", "bots,judge+bots", "--json", str(report)]) == 0
    assert "evaluation" not in json.loads((copy / "judge" / "card.json").read_text())
    assert balance.main(["--team", str(copy), "--record-report", str(report)]) == 0
    row = json.loads((copy / "judge" / "card.json").read_text())["evaluation"]["vs_heuristic"]
    summary = json.loads(report.read_text())["summary"]["judge+bots"]["classes"]["judge"]
    assert (row["games"], row["win_rate"], row["seed"]) == (4, summary["win_rate"], 5)
    assert row["command"] == json.loads(report.read_text())["command"]
    with pytest.raises(SystemExit, match="give --team"):
        balance.main(["--record-report", str(report)])
    with pytest.raises(SystemExit, match=r"not a training\.balance"):
        balance.main(["--team", str(copy), "--record-report", str(copy / "team.json")])


def test_newcombe_interval_known_values():
    # Newcombe (1998), method 10: 56/70 vs 48/80 -> 0.2 with (0.0524, 0.3339) for a - b
    diff, low, high = newcombe(48, 80, 56, 70)
    assert diff == pytest.approx(0.2)
    assert (low, high) == pytest.approx((0.0524, 0.3339), abs=1e-3)


def test_compare_cli_prints_the_shift(tmp_path, capsys):
    paths = []
    for k, seed in enumerate((5, 5)):
        paths.append(tmp_path / f"{k}.json")
        balance.main(["--env", ENV, "--games", "6", "--seed", str(seed), "--preset", "bots",
                      "--json", str(paths[-1])])
    capsys.readouterr()
    assert balance.main(["--compare", str(paths[0]), str(paths[1])]) == 0
    out = capsys.readouterr().out
    assert "paired by deal (same seed)" in out and "| trader | " in out and "+0.0%" in out


def test_hegemony_presets_are_the_report_match_ups(tmp_path):
    """``bot:CLASS+random`` is the report's "CLASS bot vs 3 random" and ``CLASS+bots`` seeds
    every seat as the 4-bot table does."""
    game = envs.make_game("hegemony_v1")
    hook = core.stats_hook(game)
    team = tmp_path / "team"  # the presets only name it here; nothing plays it
    labels = core.role_labels(game, hook)
    assert labels == list(report.CLASSES)
    for k, label in enumerate(labels):
        (solo,) = balance.preset_cells(game, labels, f"bot:{label}+random", None)
        assert list(solo.specs) == report.matchup_specs(k)
        assert core.seed_group(solo.specs) == k
        (mixed,) = balance.preset_cells(game, labels, f"{label}+bots", str(team))
        assert core.seed_group(mixed.specs) == report.TABLE
        (policy_solo,) = balance.preset_cells(game, labels, f"{label}+random", str(team))
        assert core.seed_group(policy_solo.specs) == k
    (bots,) = balance.preset_cells(game, labels, "bots", None)
    assert list(bots.specs) == report.matchup_specs(report.TABLE)


def test_hegemony_bots_cell_replays_the_bot_report_with_the_hook_columns(tmp_path):
    """The all-bot cell is the report's 4-bot table, game for game (same deal, same seeds,
    ``make_bot('heuristic')`` the report's bot), and adds VP by source and the bills."""
    seed = 20261202
    out = tmp_path / "h.json"
    assert balance.main(["--games", "1", "--seed", str(seed), "--preset", "bots",
                         "--json", str(out)]) == 0
    data = balance.load_report(out)
    (mine,) = data["results"]
    (theirs,) = report.run_games({}, seed, 1, 1, (report.TABLE,))
    for key in ("g", "wins", "scores", "seat_seeds", "game"):
        assert mine[key] == theirs[key], key
    row = data["summary"]["bots"]["classes"]["CC"]
    assert set(row["breakdown"]) == set(VP_SOURCES)
    record = mine["game"]
    bills_vp = VP_SOURCES.index("bills")
    for cls in range(4):
        assert sum(record["sources"][cls]) == mine["scores"][cls]
        passed_own = sum(1 for b in record["bills"] if b[0] == cls and b[3] == "passed")
        passed_others = sum(1 for b in record["bills"] if b[0] != cls and b[3] == "passed")
        support = record["sources"][cls][bills_vp] - 3 * passed_own  # +3 own, +1 support
        assert 0 <= support <= passed_others
    assert {b[3] for b in record["bills"]} <= {"passed", "failed", "discarded", "pending"}
    summary = data["summary"]["bots"]["game"]
    assert summary["games"] == 1
    assert sum(sum(v.values()) for v in summary["final_policies"].values()) == 7
    text = balance.markdown(data)
    assert "#### Bills per game: passed / put forward" in text and "| p7 Immigration |" in text


def test_merge_pairs_a_later_cell_with_an_earlier_runs_bots(team, tmp_path, capsys):
    """A policy cell played on its own, merged with the run that played the bots on the same
    deals, gives the strength table of one run of both; other deals are refused."""
    both, bots, alone, other = (tmp_path / f"{n}.json" for n in ("both", "bots", "alone",
                                                                  "other"))
    for path, presets, seed in ((both, "bots,judge+bots", 5), (bots, "bots", 5),
                                (alone, "judge+bots", 5), (other, "judge+bots", 6)):
        assert balance.main(["--env", ENV, "--games", "8", "--seed", str(seed), "--team",
                             str(team), "--preset", presets, "--json", str(path)]) == 0
    merged = tmp_path / "merged.json"
    assert balance.main(["--merge", str(bots), str(alone), "--json", str(merged)]) == 0
    capsys.readouterr()
    one, two = (json.loads(p.read_text()) for p in (both, merged))
    assert two["results"] == one["results"] and two["summary"] == one["summary"]
    assert strength(two) == strength(one) and strength(two)
    assert two["command"].count("meeplezoo balance") == 3
    with pytest.raises(SystemExit, match=r"same deals: seed 5 != 6"):
        balance.main(["--merge", str(bots), str(other)])
    with pytest.raises(SystemExit, match="two reports or more"):
        balance.main(["--merge", str(bots)])
    assert balance.main(["--merge", str(both), str(alone)]) == 0  # the same cell twice: one


def test_merge_refuses_one_cell_name_with_two_lineups(tmp_path):
    paths = []
    for k, cell in enumerate(("x=judge:random", "x=trader:random")):
        paths.append(str(tmp_path / f"{k}.json"))
        assert balance.main(["--env", ENV, "--games", "4", "--seed", "1", "--cell", cell,
                             "--json", paths[-1]]) == 0
    with pytest.raises(SystemExit, match="cell 'x' differs between the reports"):
        balance.main(["--merge", *paths])


def _journal_run(team: Path, journal: Path, *extra: str, seed: int = 3) -> dict:
    out = journal.with_suffix(".json")
    assert balance.main(["--env", ENV, "--games", "12", "--seed", str(seed), "--team", str(team),
                         "--preset", "bots,judge+bots", "--journal", str(journal),
                         "--json", str(out), *extra]) == 0
    return json.loads(out.read_text())


def test_journal_a_stopped_run_goes_on_to_the_same_report(team, tmp_path, capsys):
    """A run cut short (some games journaled, its last line half written) plays only the
    missing games, in worker processes or not, and gives the report of one uninterrupted
    run, game for game."""
    whole = _journal_run(team, tmp_path / "whole.jsonl")
    lines = (tmp_path / "whole.jsonl").read_text().splitlines()
    assert len(lines) == 1 + 2 * 12 and whole["journal"]["games_taken"] == 0
    stopped = tmp_path / "stopped.jsonl"
    stopped.write_text("\n".join(lines[:10]) + "\n" + lines[10][:25])  # 9 games, a torn line
    resumed = _journal_run(team, stopped, "--workers", "2")  # worker processes journal too
    capsys.readouterr()
    assert resumed["journal"]["games_taken"] == 9
    assert resumed["results"] == whole["results"] and resumed["summary"] == whole["summary"]
    assert len(stopped.read_text().splitlines()) == 1 + 2 * 12
    again = _journal_run(team, stopped)  # everything journaled: nothing is played but a check
    assert again["journal"]["games_taken"] == 24 and again["results"] == whole["results"]


def test_journal_grows_to_a_longer_run_and_serves_a_shorter_one(team, tmp_path):
    """Game g depends on the seed and g alone: 12 games go on from a journal of 5, and 4
    games report the first 4 of a journal of 12, game for game as uninterrupted runs."""
    whole = _journal_run(team, tmp_path / "whole.jsonl")
    journal = tmp_path / "j.jsonl"
    _journal_run(team, journal, "--games", "5")
    grown = _journal_run(team, journal)
    assert grown["journal"]["games_taken"] == 2 * 5
    assert grown["results"] == whole["results"] and grown["summary"] == whole["summary"]
    assert json.loads(journal.read_text().splitlines()[0])["games"] == 12
    short = _journal_run(team, journal, "--games", "4")
    assert short["journal"]["games_taken"] == 2 * 4
    assert short["results"] == [r for r in whole["results"] if r["g"] < 4]
    assert len(journal.read_text().splitlines()) == 1 + 2 * 12  # nothing dropped


def test_journal_and_report_name_the_commit_each_run_played_at(team, tmp_path, monkeypatch):
    """The report's commit is read before any game is played (a run that ends after the
    next commit still names its own), and the journal lists every run's commit."""
    journal = tmp_path / "j.jsonl"
    commits = iter(["aaa1111", "bbb2222"])
    monkeypatch.setattr(balance, "code_commit", lambda: next(commits))
    first = _journal_run(team, journal, "--games", "5")
    second = _journal_run(team, journal)
    assert first["code_commit"] == "aaa1111" and second["code_commit"] == "bbb2222"
    assert second["journal"]["code_commits"] == ["aaa1111", "bbb2222"]
    assert json.loads(journal.read_text().splitlines()[0])["code_commits"] == [
        "aaa1111", "bbb2222"]


def test_journal_of_another_run_or_changed_games_is_refused(team, tmp_path):
    journal = tmp_path / "j.jsonl"
    _journal_run(team, journal)
    with pytest.raises(SystemExit, match=r"journal of another run: seed 3 != 4"):
        _journal_run(team, journal, seed=4)
    lines = journal.read_text().splitlines()
    first = min((json.loads(x) for x in lines[1:]), key=lambda r: (r["cell"] != "bots", r["g"]))
    tampered = [json.dumps({**first, "scores": [s + 1 for s in first["scores"]]})
                if json.loads(x) == first else x for x in lines[1:]]
    journal.write_text("\n".join([lines[0], *tampered]) + "\n")
    with pytest.raises(SystemExit, match=r"game 0 of cell 'bots', played again, differs"):
        _journal_run(team, journal)
    (tmp_path / "not.jsonl").write_text('{"g": 0}\n')
    with pytest.raises(SystemExit, match=r"not a training\.balance journal"):
        _journal_run(team, tmp_path / "not.jsonl")


def test_journal_refuses_games_of_a_network_that_changed(team, tmp_path):
    copy = tmp_path / "team"
    import shutil

    shutil.copytree(team, copy)
    journal = tmp_path / "j.jsonl"
    _journal_run(copy, journal)
    shutil.rmtree(copy / "trader")  # a member that plays no seat of the journal's cells
    tiny_policy(copy / "trader", "trader", 99)
    assert _journal_run(copy, journal)["journal"]["games_taken"] == 24
    shutil.rmtree(copy / "judge")
    tiny_policy(copy / "judge", "judge", 99)
    with pytest.raises(SystemExit, match=r"cell 'judge\+bots': the network of .* changed"):
        _journal_run(copy, journal)


def test_bot_report_preset_is_each_bot_against_random_and_the_bot_table():
    game = envs.make_game("hegemony_v1")
    labels = core.role_labels(game, core.stats_hook(game))
    cells = balance.build_cells(game, core.stats_hook(game), [], ["bot-report"], None)
    assert [c.name for c in cells] == [f"bot:{c}+random" for c in report.CLASSES] + ["bots"]
    assert [list(c.specs) for c in cells] == [report.matchup_specs(m) for m in report.MATCHUPS]
    assert labels == list(report.CLASSES)


def test_hegemony_report_is_an_alias_of_balance_printed_once_in_100_columns(tmp_path, capsys):
    """The old command runs ``balance --preset bot-report`` (its ``--matchups`` as presets),
    says so in one line on stderr, and prints each table once, every line in 100 columns,
    while ``--markdown`` keeps the 22-column tables whole."""
    from meeplezoo.training.evaluation import hegemony_report

    assert hegemony_report.balance_argv(["--games", "3", "--matchups", "table,ST"]) == [
        "--env", "hegemony_v1", "--preset", "bot:ST+random,bots", "--games", "3"]
    assert hegemony_report.balance_argv([])[:4] == ["--env", "hegemony_v1", "--preset",
                                                    "bot-report"]
    whole = tmp_path / "r.md"
    assert hegemony_report.main(["--games", "1", "--seed", "2", "--matchups", "ST,table",
                                 "--markdown", str(whole)]) == 0
    out, err = capsys.readouterr()
    notices = [line for line in err.splitlines() if "hegemony-report is now" in line]
    assert notices == ["meeplezoo hegemony-report is now: meeplezoo balance --env hegemony_v1 "
                       f"--preset bot:ST+random,bots --games 1 --seed 2 --markdown {whole}"]
    lines = out.splitlines()
    assert max(map(len, lines)) <= 100, [line for line in lines if len(line) > 100]
    titles = [line for line in lines if line.startswith(("## ", "### "))]
    assert len(titles) == len(set(titles)) == 5  # no table twice: 2 of the run, 1 per cell
    assert out.count("## Class balance: hegemony_v1") == 1
    flat = " ".join(out.split())  # the closing line, wrapped where the path is long
    assert re.search(rf" \d+ tables were cut to 100 columns here; the whole report is in "
                     rf"{re.escape(str(whole))}\.$", flat)
    text = whole.read_text()
    table = text.split("### One class against random play")[1].split("\n\n")[1].splitlines()
    head = [cell.strip() for cell in table[0].strip("|").split("|")]
    assert head[:6] == ["cell", "class", "games", "win rate", "95% Wilson", "mean VP"]
    assert set(head[6:]) <= set(VP_SOURCES) and len(table) == 3  # header, rule, the ST row
    assert table[2].startswith("| bot:ST+random | ST | 1 | ")
    assert max(map(len, text.splitlines())) > 100  # the file has the whole tables
    assert "more columns, in the Markdown file: " in out


def test_too_few_games_are_named_with_the_games_that_would_do():
    usable = core_stats.usable_games()
    assert usable == 93 and core_stats.wilson_half_width(usable) <= 0.10
    assert core_stats.wilson_half_width(usable - 1) > 0.10
    summary = {name: {"classes": {"x": {"games": n}, "y": {"games": n}}}
               for name, n in (("a", 8), ("b", 8), ("c", 1), ("d", 200))}
    (line, _) = balance.sample_warning(summary)
    assert line.startswith("> **Warning: too few games.** Cells c on 1 game (a win rate "
                           "within ±45 points); a, b on 8 games (a win rate within ±28 points)")
    assert "93 games per cell" in line and "--games 93 or more" in line and "d " not in line
    assert balance.sample_warning({"d": summary["d"]}) == []


def _strength_report(bot_wins: list[int], policy_wins: list[int]) -> dict:
    """A report of cells ``bots`` and ``trader+bots`` whose trader wins the games given."""
    game = envs.make_game(ENV)
    cells = [{"name": name, "specs": ["heuristic"] * 3, "roles": list(ROLES),
              "seed_group": 3} for name in ("bots", "trader+bots")]
    results = [{"cell": name, "g": g, "wins": [w, 1 - w, 0], "scores": [0.0] * 3}
               for name, wins in (("bots", bot_wins), ("trader+bots", policy_wins))
               for g, w in enumerate(wins)]
    return {"cells": cells, "results": results,
            "summary": balance.summarise(game, cells, results)}


@pytest.mark.parametrize(("bot", "policy", "why"), [
    ([0] * 8, [1, 0] * 4, "ratio ∞: the bot won no game"),
    ([1] + [0] * 7, [1, 1, 0, 0] * 2, "interval up to ∞: the bot won 1 game, so some "
                                      "resamples hold none of its wins"),
    ([0] * 8, [0] * 8, "no ratio: neither the policy nor the bot won a game"),
])
def test_an_interval_without_a_bound_says_why(bot, policy, why):
    text = "\n".join(strength_markdown(_strength_report(bot, policy)))
    assert f"- trader (trader+bots, 8 deals): {why}" in text


def test_a_compare_of_one_game_says_why_an_interval_is_missing(tmp_path, capsys):
    paths = [tmp_path / f"{k}.json" for k in range(2)]
    for path in paths:
        assert balance.main(["--env", ENV, "--games", "1", "--seed", "5", "--preset", "bots",
                             "--json", str(path)]) == 0
    capsys.readouterr()
    assert balance.main(["--compare", *map(str, paths)]) == 0
    out = capsys.readouterr().out
    assert "inf " not in out and "| none (1 deal) |" in out
    assert "none: a mean score's interval needs two games or more" in out
    assert "**Warning: too few games.** The cells rest on 1 game or more a side" in out


def test_markdown_fit_cuts_wide_tables_and_wraps_long_lines():
    wide = ["| a | " + " | ".join(f"column{k}" for k in range(20)) + " |",
            "|" + "---|" * 21, "| " + "x" * 40 + " | " + " | ".join(["1.0"] * 20) + " |"]
    text, cut = markdown_fit.fit("\n".join(["## " + "word " * 40, "", *wide, "", "| s | t |"]))
    lines = text.splitlines()
    assert cut == 1 and max(map(len, lines)) <= 100
    assert lines[0].startswith("## word") and not lines[1].startswith("#")  # wrapped
    assert any(line.startswith("| a | column0 |") for line in lines)
    assert "| …" + "x" * 31 + " | 1.0 |" in text
    assert lines[-1] == "| s | t |"  # a narrow table as it was
    assert "more columns, in the Markdown file: " in text and "column19" in text


def _children(pid: int) -> list[int]:
    """The child processes of ``pid`` (from /proc).  A thread may end between the listing
    and the read (its file is then gone): it has no children to report, so it is skipped,
    not an error (CI failed on that race once, 2026-12-07)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            found += [int(p) for p in task.read_text().split()]
        except (FileNotFoundError, ProcessLookupError):
            continue
    return found


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc")
@pytest.mark.parametrize(("signum", "status"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_stopped_balance_run_leaves_no_worker_running(signum, status):
    """SIGTERM (it used to kill the run alone, its workers playing on) or Ctrl-C: the run
    ends with one line and the shell's status, and its workers are gone within seconds."""
    root = Path(__file__).resolve().parents[2]
    run = subprocess.Popen(
        [sys.executable, "-m", "meeplezoo", "balance", "--env", "chihou_sousei_v1",
         "--preset", "bots", "--games", "100000", "--workers", "2"], cwd=root,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # Ctrl-C reaches it
    try:
        end = time.monotonic() + 60
        while len(workers := _children(run.pid)) < 2 and time.monotonic() < end:
            time.sleep(0.1)
        assert len(workers) == 2, "the run started no workers"
        time.sleep(0.5)
        run.send_signal(signum)
        _, err = run.communicate(timeout=30)
    finally:
        run.kill()
    assert run.returncode == status, err
    assert err.splitlines()[-1] == ("meeplezoo balance: " + ("stopped by SIGTERM"
                                    if signum == signal.SIGTERM else "interrupted"))
    assert not gone_within(workers, 5)
