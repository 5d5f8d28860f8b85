"""``meeplezoo reproduce``: every shipped card lists the commands that made it (issue 45),
in stage order, each parsed by its command's own parser; the command prints, checks and
runs such a list, and resumes it (a toy recipe runs end to end)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from meeplezoo import cli
from meeplezoo.training import reproduce
from meeplezoo.training.agents.zoo import zoo_root

CARDS = reproduce.shipped_cards()
IDS = [str(p.relative_to(zoo_root())) for p in CARDS]


def test_every_shipped_network_has_a_card_with_its_steps():
    folders = {p.parent for p in zoo_root().rglob("policy.onnx")}
    assert folders and folders <= {p.parent for p in CARDS}
    assert any(p.name == "team.json" for p in CARDS)


@pytest.mark.parametrize("path", CARDS, ids=IDS)
def test_a_shipped_card_lists_its_steps_in_order_and_each_parses(path):
    card = json.loads(path.read_text())
    steps = reproduce.steps_of(card, str(path))
    problems, notes = reproduce.check_steps(steps)
    assert problems == []  # among them: stages in order (a new stretch only after a ship)
    for step in steps:
        assert step["command"] == reproduce.as_recorded(step["command"])  # meeplezoo form
        assert step.get("wall_time_s") is None or step["wall_time_s"] > 0
        assert step.get("recorded", True) or step.get("source", "").startswith("not recorded")
    # a recipe trained under a retired env says so; one trained under v1 runs here
    made_on_v0 = "_v0" in " ".join(s["command"] for s in steps if s["stage"] in ("train", "team"))
    assert bool(notes) == made_on_v0


def test_the_recorded_figures_of_a_card_are_in_its_steps():
    card = json.loads((zoo_root() / "asian_delivery_v1/ppo_league/card.json").read_text())
    steps = card["reproduce"]
    assert steps[0]["wall_time_s"] == card["wall_time_s"]
    assert steps[0]["code_commit"] == card["code_commit"]
    assert steps[0]["command"].replace("meeplezoo train", "python -m training.train") \
        == card["command"]
    value = [s for s in steps if s["stage"] == "value" and "fit-value" in s["command"]]
    assert value[0]["wall_time_s"] == card["value_fit"]["wall_time_s"]


@pytest.mark.parametrize("path", CARDS, ids=IDS)
def test_dry_run_and_check_on_every_shipped_card(path, capsys):
    steps = json.loads(path.read_text())["reproduce"]
    assert cli.main(["reproduce", str(path), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert out.count(f"/{len(steps)}] ") == len(steps)
    assert all(step["command"] in out for step in steps)
    assert cli.main(["reproduce", str(path.parent), "--check"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1].endswith(
        tuple(["0 problems", "cannot run under this code"]))


def test_a_shipped_name_finds_its_card_and_from_resumes_the_list(capsys):
    assert cli.main(["reproduce", "necropolis_railway_v1/ppo_league_exit6", "--dry-run",
                     "--from", "4"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("[4/7] rounds: ") and "[3/7]" not in out


def test_bad_input_is_one_line_that_says_what_is_allowed(capsys, tmp_path):
    assert cli.main(["reproduce", "nope_v1/nothing", "--dry-run"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "no card there" in err
    assert "asian_delivery_v1/ppo_league" in err
    assert cli.main(["reproduce", "asian_delivery_v1/ppo_league", "--from", "99"]) == 2
    err = capsys.readouterr().err.strip()
    assert "--from 99" in err and "1 to 6" in err
    assert cli.main(["reproduce", "asian_delivery_v1/ppo_league", "--from", "0",
                     "--dry-run"]) == 2
    assert "1 to 6" in capsys.readouterr().err
    bare = tmp_path / "card.json"
    bare.write_text(json.dumps({"name": "x", "reproduce": "run the command"}))
    assert cli.main(["reproduce", str(bare), "--check"]) == 2
    assert "no reproduce list" in capsys.readouterr().err
    assert cli.main(["reproduce"]) == 2
    assert "name a card" in capsys.readouterr().err


def test_check_reports_what_is_wrong_without_running_anything():
    good = {"stage": "train", "what": "w",
            "command": "meeplezoo train --env toy_v0 --timesteps 8 --out runs/x"}
    assert reproduce.check_steps([good, {**good, "stage": "ship"}]) == ([], [])
    order, _ = reproduce.check_steps([{**good, "stage": "ship"}, good])
    assert order == ["step 2: stage train after ship (the stages run in the order train, "
                     "export, team, carry, records, value, rounds, tune, ship)"]
    rounds = {**good, "stage": "rounds", "command": "meeplezoo expert-iterate --checkpoint "
              "toy_v0/x --out runs/y"}
    ship = {**good, "stage": "ship", "command": "cp -r runs/y/round_1/net checkpoints/t/z"}
    # expert iteration from a shipped network begins a new stretch after its ship steps
    assert reproduce.check_steps([good, rounds, ship, rounds, ship]) == ([], [])
    again, _ = reproduce.check_steps([good, ship, rounds, good])
    assert again == ["step 4: stage train after rounds (the stages run in the order train, "
                     "export, team, carry, records, value, rounds, tune, ship)"]
    bad = {"--no-such-option": {**good, "command": good["command"] + " --no-such-option"},
           "no-such-command": {**good, "command": "meeplezoo no-such-command"},
           "'rm'": {**good, "command": "rm -rf runs"},
           "cp takes only -r": {**good, "command": "cp -f a b"},
           "'polish'": {**good, "stage": "polish"},
           "no 'what'": {**good, "what": ""},
           "-3": {**good, "wall_time_s": -3},
           "unknown keys": {**good, "seconds": 3}}
    for word, step in bad.items():
        problems, notes = reproduce.check_steps([step])
        assert len(problems) == 1 and word in problems[0] and not notes, (word, problems)
    assert not Path("runs/x").exists()
    assert reproduce.as_recorded("python -m training.export --model m.zip --name n") \
        == "meeplezoo export --model m.zip --name n"
    assert reproduce.as_recorded("python -m training.train --env x") == "meeplezoo train --env x"
    _, notes = reproduce.check_steps([{**good, "command": good["command"].replace(
        "toy_v0", "hegemony_v0")}])
    assert notes and "hegemony_v0" in notes[0] and "hegemony_v1" in notes[0]


def test_a_toy_recipe_runs_from_its_card_alone_and_resumes(tmp_path, monkeypatch, capsys):
    """Train, copy, export: the list runs in order (here in this process, where the toy
    game is registered), a failing step stops the run and names --from, and --from resumes."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(reproduce, "run_meeplezoo", lambda words: cli.main(words))
    train = ("meeplezoo train --env toy_v0 --players 2 --timesteps 128 --n-envs 1 "
             "--n-steps 64 --batch-size 32 --net 8,8 --opponents random --seed 1 "
             "--out runs/toy --no-progress")
    steps = [
        {"stage": "train", "command": train, "what": "a tiny run"},
        {"stage": "train", "command": "mkdir -p runs/kept", "what": "a folder"},
        {"stage": "train", "command": "cp -r runs/toy/. runs/kept", "what": "copy"},
        {"stage": "export", "command": "meeplezoo export --model runs/kept/final_model.zip "
                                       "--name toy_net --out zoo", "what": "ship it"},
    ]
    card = tmp_path / "card.json"
    card.write_text(json.dumps({"name": "toy_net", "reproduce": steps}))
    assert cli.main(["reproduce", str(card), "--check"]) == 0
    assert cli.main(["reproduce", str(card)]) == 0
    shipped = json.loads((tmp_path / "zoo/toy_v0/toy_net/card.json").read_text())
    assert shipped["name"] == "toy_net" and (tmp_path / "zoo/toy_v0/toy_net/policy.onnx").exists()
    # an export writes the list of the card it makes: the training command, then its own
    assert [(s["stage"], s["command"]) for s in shipped["reproduce"]] == [
        ("train", train), ("export", steps[3]["command"])]
    assert shipped["reproduce"][1]["code_commit"]
    assert "[4/4] export: ship it" in capsys.readouterr().out

    shutil.rmtree(tmp_path / "zoo")
    assert cli.main(["reproduce", str(card), "--from", "4"]) == 0  # resumed: the run is kept
    assert (tmp_path / "zoo/toy_v0/toy_net/policy.onnx").exists()
    out = capsys.readouterr().out
    assert "[3/4]" not in out and "[4/4]" in out
    shutil.rmtree(tmp_path / "runs/toy")
    assert cli.main(["reproduce", str(card), "--from", "3"]) == 2  # its source is gone
    err = capsys.readouterr().err
    assert "step 3 failed" in err and "runs/toy" in err and "--from 3" in err

    failing = [*steps[:1], {**steps[3], "command": steps[3]["command"].replace(
        "runs/kept", "runs/none")}]
    card.write_text(json.dumps({"name": "toy_net", "reproduce": failing}))
    assert cli.main(["reproduce", str(card), "--from", "2"]) == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.startswith("meeplezoo reproduce: step 2 failed") and "--from 2" in err


def test_backfill_builds_a_list_from_a_cards_recorded_fields(tmp_path, capsys):
    folder = tmp_path / "zoo"
    shutil.copytree(zoo_root() / "chihou_sousei_v1", folder / "chihou_sousei_v1")
    path = folder / "chihou_sousei_v1/ppo_league/card.json"
    card = json.loads(path.read_text())
    del card["reproduce"]
    card["reproduce"] = card.pop("reproduce_note")  # as the card was before this issue
    path.write_text(json.dumps(card))
    assert cli.main(["reproduce", "--backfill", str(folder)]) == 0
    assert "wrote" in capsys.readouterr().out
    written = json.loads(path.read_text())
    assert written["reproduce_note"].startswith("run the 3 commands")
    steps = written["reproduce"]
    assert [s["stage"] for s in steps][:3] == ["train"] * 3
    assert reproduce.check_steps(steps)[0] == []
    assert {"carry", "records", "value"} <= {s["stage"] for s in steps}
