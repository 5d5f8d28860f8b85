"""The model zoo: listed with its cards' figures, loaded by name from any directory,
carried by the wheel, and played, evaluated and rated without torch."""

from __future__ import annotations

import importlib
import json
import re
import shutil
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

from meeplezoo import envs
from meeplezoo.training.agents import zoo as zoo_module
from meeplezoo.training.agents.bots import LEVELS, make_bot
from meeplezoo.training.agents.opponents import CheckpointError, TeamBot, list_zoo, load
from meeplezoo.training.agents.zoo import percent, zoo_root

REPO = Path(__file__).resolve().parents[2]
ROOT = REPO / "checkpoints"
SHIPPED = sorted(p for p in ROOT.glob("*/*") if p.is_dir() and p.parent.name != "__pycache__")
POLICIES = [p for p in SHIPPED if (p / "card.json").exists()]
TEAMS = [p for p in SHIPPED if (p / "team.json").exists()]
NAME = "chihou_sousei_v1/ppo_league"


def _card(folder: Path) -> dict:
    return json.loads((folder / "card.json").read_text())


def test_headline_percentages_round_half_up_as_the_readme_does():
    assert [percent(x) for x in (0.9925, 0.3185, 1.0, 0.0, 0.2015)] == [
        "99.3%", "31.9%", "100.0%", "0.0%", "20.2%"]


def test_the_zoo_is_the_repository_checkpoints_folder():
    assert zoo_root().resolve() == ROOT.resolve()
    assert len(SHIPPED) >= 3


def test_list_zoo_lists_every_shipped_folder_with_its_cards_figures():
    entries = {entry.name: entry for entry in list_zoo()}
    assert sorted(entries) == [f"{p.parent.name}/{p.name}" for p in SHIPPED]
    assert sorted(POLICIES + TEAMS) == SHIPPED  # every shipped folder is one or the other
    for folder in POLICIES:
        entry = entries[f"{folder.parent.name}/{folder.name}"]
        card = _card(folder)
        assert (entry.env, entry.kind, entry.role) == (card["env"], "policy", card.get("role"))
        assert entry.player_counts == tuple(card["player_counts"])
        evaluation = card["evaluation"]
        if card["player_counts"] == [1]:  # a solo specialist: its figure is its mean score
            low, high = next(v for k, v in evaluation["solo"].items() if isinstance(v, dict)
                             and k not in ("random", "heuristic"))["mean_score_ci95"]
            assert f"solo score {entry.figures['solo']['mean_score']:.1f} [{low:.1f}-" \
                f"{high:.1f}]" in entry.headline()
            continue
        for field in ("vs_random", "vs_heuristic"):
            assert entry.figures[field] == {k: evaluation[field][k] for k in
                                            ("players", "games", "win_rate", "win_rate_ci95")}
        assert percent(evaluation["vs_heuristic"]["win_rate"]) in entry.headline()
    solo = entries["necropolis_railway_v1/ppo_league"].figures
    card_solo = _card(ROOT / "necropolis_railway_v1/ppo_league")["evaluation"]["solo"]
    assert solo["solo_heuristic"]["mean_score"] == card_solo["heuristic"]["mean_score"]
    assert solo["solo"]["mean_score_ci95"] == next(
        v for k, v in card_solo.items() if k not in ("random", "heuristic"))["mean_score_ci95"]
    assert [e.name for e in list_zoo("chihou_sousei_v1")] == [NAME]
    for folder in TEAMS:
        entry = entries[f"{folder.parent.name}/{folder.name}"]
        team = json.loads((folder / "team.json").read_text())
        assert (entry.env, entry.kind, entry.role) == (team["env"], "team", None)
        assert set(entry.roles) == set(team["roles"])
        for role, member in team["roles"].items():
            card = _card(folder / member)
            assert card["role"] == role
            if not entry.figures:  # the headline lists each member's own figures
                rate = card["evaluation"]["vs_random"]["win_rate"]
                assert entry.member_figures[role]["vs_random"]["win_rate"] == rate
                assert f"{role}: vs random {percent(rate)}" in entry.headline()


def _measured_zoo(tmp_path: Path) -> Path:
    """A zoo of one Asian Delivery card whose @hard measured weaker and @expert stronger
    than the network at 4 players, @expert's interval overlapping @hard's gain nowhere."""
    zoo = tmp_path / "zoo"
    folder = zoo / "asian_delivery_v1" / "measured"
    folder.mkdir(parents=True)

    def figures(value, low, high):
        return {"strength": {"games": 60, "win_share_difference": value,
                             "win_share_difference_ci95": [low, high]},
                "cost": {"median_s": 0.25}}

    (folder / "card.json").write_text(json.dumps({
        "env": "asian_delivery_v1", "role": "player", "player_counts": [4],
        "levels": {"hard": {"4p": figures(-0.19, -0.31, -0.08)},
                   "easy": {"4p": figures(-0.02, -0.09, 0.05)},
                   "expert": {"4p": figures(0.12, 0.04, 0.2)}}}))
    return zoo


def test_the_zoo_calls_a_level_what_its_card_measured_and_stronger_only_where_measured_so(
        tmp_path, monkeypatch, capsys):
    zoo = _measured_zoo(tmp_path)
    monkeypatch.setattr(zoo_module, "zoo_root", lambda: zoo)
    assert zoo_module.main([]) == 0
    out = capsys.readouterr().out
    assert ("@hard: weaker than the network at 4 players: win share -19.0 points [-31.0 to "
            "-8.0] over 60 paired deals, 0.250 s a decision") in out
    assert "@easy: no measured difference from the network at 4 players" in out
    assert ("@expert: stronger than the network and than @hard at 4 players: win share +12.0"
            in out)
    assert sum("stronger" in line for line in out.splitlines()) == 1  # @expert's line only
    assert zoo_module.main(["--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert {(c["level"], c["players"], c["claim"]) for c in row["level_claims"]} == {
        ("hard", 4, "weaker"), ("easy", 4, "level"), ("expert", 4, "stronger")}


def test_the_zoo_lists_every_shipped_level_by_its_claim(capsys):
    """What the shipped cards record, each worded by ``level_claim``; only a claim measured
    stronger says "stronger"."""
    assert zoo_module.main([]) == 0
    out = capsys.readouterr().out
    for entry in list_zoo():
        for claim in zoo_module.level_claims({"levels": entry.levels}):
            assert claim.label in out
            assert ("stronger" in claim.label) == claim.stronger


VERDICT_WORDS = {"stronger": "stronger", "weaker": "weaker",
                 "level": "no measured difference", "outdated": "earlier search"}


@pytest.mark.parametrize("page", ["README.md", "docs/play.md"])
def test_the_docs_show_each_shipped_levels_claim_as_its_card_measures_it(page):
    """The README's and the play guide's tables of levels follow the cards: a row per
    recorded level and count with its figure and its claim as the lobby makes it (figures
    of an earlier search are outdated), and "stronger" only where the card measured it so
    with today's settings (re-recording a card means updating these rows)."""
    rows = [line for line in (REPO / page).read_text().splitlines()
            if re.match(r"\| `[^`]+` \| \w+ \| `@", line)]
    for entry in list_zoo():
        for recorded in zoo_module.level_claims({"levels": entry.levels}):
            claim = entry.claim(recorded.level, recorded.players,
                            entry.level_settings(LEVELS, recorded.level))
            players = "solo" if claim.players == 1 else str(claim.players)
            row = [r for r in rows if r.startswith(f"| `{entry.name}` | {players} | "
                                                   f"`@{claim.level}` |")]
            assert len(row) == 1, (page, entry.name, claim.level, players)
            assert f"{claim.gain} over {claim.games} paired deals" in row[0]
            assert VERDICT_WORDS[claim.verdict] in row[0]
            assert ("stronger" in row[0]) == claim.stronger, row[0]
    assert len(rows) == sum(len(zoo_module.level_claims({"levels": e.levels}))
                            for e in list_zoo())  # no row for a level the cards lack


def test_load_by_zoo_name_from_another_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    agent = load(NAME)
    assert agent.path.resolve() == (ROOT / NAME).resolve()
    game = envs.make_game("chihou_sousei_v1", num_players=4)
    agent.check_compatible(game)
    state = game.new_initial_state(seed=3)
    action = agent.act(state.observation(0), state.legal_mask())
    assert state.legal_mask()[action]
    bot = make_bot(NAME, game, seed=0)  # evaluation, play and the arena build bots so
    assert bot.name == NAME
    assert load(ROOT / NAME).path == ROOT / NAME  # a folder by path, as before


def test_a_folder_given_by_path_wins_over_the_zoo_name_of_the_same_spelling(
        tmp_path, monkeypatch):
    local = tmp_path / NAME
    shutil.copytree(ROOT / NAME, local)
    card = _card(local)
    (local / "card.json").write_text(json.dumps({**card, "name": "my_local_copy"}))
    monkeypatch.chdir(tmp_path)
    assert load(NAME).name == "my_local_copy"
    assert load(NAME).path == Path(NAME)


def test_an_unknown_name_is_refused_naming_the_zoo(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(CheckpointError, match=rf"nor a zoo name.*shipped: .*{NAME}"):
        load("chihou_sousei_v1/nobody")
    with pytest.raises(CheckpointError, match=r"needs card\.json and policy\.onnx"):
        load("../checkpoints/" + NAME)  # no escaping the zoo through a name


def test_another_projects_checkpoints_package_is_not_taken_for_the_zoo(tmp_path, monkeypatch):
    foreign = tmp_path / "checkpoints"
    shutil.copytree(ROOT / NAME, foreign / "other_env" / "theirs")
    (foreign / "__init__.py").write_text("")  # a regular package, without the zoo's marker
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "checkpoints", raising=False)
    monkeypatch.chdir(tmp_path)
    try:
        assert importlib.import_module("checkpoints").__file__.startswith(str(tmp_path))
        assert zoo_root().resolve() == ROOT.resolve()
        assert "other_env/theirs" not in {e.name for e in list_zoo()}
    finally:
        sys.modules.pop("checkpoints", None)  # the foreign one (monkeypatch restores ours)


def _add_team(zoo: Path) -> Path:
    """A team folder (``team.json`` and one member folder per role) under ``zoo``."""
    team = zoo / "asian_delivery_v1" / "duo"
    shutil.copytree(ROOT / "asian_delivery_v1/ppo_league", team / "player")
    figures = {"players": 4, "games": 10, "win_rate": 0.3, "win_rate_ci95": [0.1, 0.6]}
    (team / "team.json").write_text(json.dumps({
        "name": "duo", "env": "asian_delivery_v1", "roles": {"player": "player"},
        "evaluation": {"vs_heuristic": {**figures, "mean_score": 1.0}}}))
    return team


def test_a_shipped_team_is_listed_and_played_by_its_zoo_name(tmp_path, monkeypatch):
    zoo = tmp_path / "zoo"
    shutil.copytree(ROOT, zoo, ignore=shutil.ignore_patterns("__pycache__"))
    _add_team(zoo)
    monkeypatch.setattr(zoo_module, "zoo_root", lambda: zoo)
    monkeypatch.chdir(tmp_path)
    team = {e.name: e for e in list_zoo()}["asian_delivery_v1/duo"]
    assert (team.kind, team.roles, team.player_counts, team.role) == (
        "team", ("player",), (4,), None)
    assert team.figures == {"vs_heuristic": {"players": 4, "games": 10, "win_rate": 0.3,
                                             "win_rate_ci95": [0.1, 0.6]}}
    game = envs.make_game("asian_delivery_v1", num_players=4)
    assert isinstance(make_bot("asian_delivery_v1/duo", game, seed=0), TeamBot)


def _wheel_checkpoint_files(zoo: Path) -> set[str]:
    return {f"meeplezoo/checkpoints/{p.relative_to(zoo).as_posix()}" for p in zoo.rglob("*")
            if p.name in ("policy.onnx", "card.json", "team.json")}


def test_the_wheel_carries_every_shipped_checkpoint(tmp_path):
    """Built from a copy of the sources (the checkout gets no build/ folder), with a team
    added to show that a team's member folders travel too."""
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, source / name)
    for name in ("meeplezoo", "envs", "training", "checkpoints"):
        shutil.copytree(REPO / name, source / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    _add_team(source / "checkpoints")
    expected = _wheel_checkpoint_files(source / "checkpoints")
    assert {f"meeplezoo/checkpoints/{p.parent.name}/{p.name}/policy.onnx"
            for p in POLICIES} <= expected
    subprocess.run([sys.executable, "-m", "pip", "wheel", ".", "--no-deps",
                    "--no-build-isolation", "--quiet", "-w", str(tmp_path / "dist")],
                   cwd=source, check=True, capture_output=True, timeout=60)
    [wheel] = (tmp_path / "dist").glob("meeplezoo-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        assert expected <= names, f"missing from the wheel: {sorted(expected - names)}"
        assert "meeplezoo/checkpoints/__init__.py" in names
        assert {n.split("/")[0] for n in names if not n.split("/")[0].endswith(
            (".dist-info", ".data"))} == {"meeplezoo"}  # one import name, nothing else
        assert not [n for n in names if "__pycache__" in n]
        for folder in POLICIES:
            member = f"meeplezoo/checkpoints/{folder.parent.name}/{folder.name}/policy.onnx"
            assert archive.read(member) == (folder / "policy.onnx").read_bytes()
        metadata = archive.read(next(n for n in names if n.endswith(".dist-info/METADATA")))
    play = [line for line in metadata.decode().splitlines()
            if line.startswith("Requires-Dist:") and "extra == \"play\"" in line]
    assert {"onnxruntime", "openskill"} <= {line.split()[1].split(">")[0] for line in play}
    assert not [line for line in play if "torch" in line or "stable" in line]


TORCH_FREE = textwrap.dedent("""
    import importlib.abc, sys

    class NoTraining(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in {"torch", "stable_baselines3", "sb3_contrib", "onnx",
                                      "tensorboard"}:
                raise ImportError(f"{name} is not in the [play] extra")

    sys.meta_path.insert(0, NoTraining())
    from meeplezoo.training.evaluation.evaluate import round_robin, versus_field
    from meeplezoo.training.agents.opponents import list_zoo, load
    import meeplezoo.training.play

    name = "chihou_sousei_v1/ppo_league"
    print(len(list_zoo()), load(name).name)
    config = {"num_players": 4}
    print(versus_field("chihou_sousei_v1", config, name, "random", 1)["games"])
    print(sorted(r["agent"] for r in round_robin("chihou_sousei_v1", config,
                                                 [name, "random"], 2)["ratings"]))
""")


def test_loading_playing_evaluating_and_rating_need_no_torch(tmp_path):
    """What the torch-free ``[play]`` extra installs is enough: torch, SB3 and onnx are
    made unimportable, and a zoo opponent still loads by name, plays and gets rated."""
    done = subprocess.run([sys.executable, "-c", TORCH_FREE], cwd=tmp_path, text=True,
                          capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:3] == [
        f"{len(SHIPPED)} ppo_league", "1", str(sorted([NAME, "random"]))]


def test_a_folder_is_a_team_or_a_network_to_every_reader_never_both(tmp_path):
    """``zoo.card_file`` decides for every reader (the zoo, load, is_team, levels,
    reproduce): a folder holding both a team.json and a card.json is refused by each, naming
    both files, rather than read as a team by some commands and as a network by others."""
    from meeplezoo.training import reproduce
    from meeplezoo.training.agents.opponents import is_team
    from meeplezoo.training.evaluation.levels import card_of

    team = zoo_root() / "hegemony_v1" / "ppo_classes"
    network = zoo_root() / "chihou_sousei_v1" / "ppo_league"
    assert zoo_module.card_file(team).name == "team.json"
    assert zoo_module.card_file(network).name == "card.json"
    assert zoo_module.card_file(tmp_path).name == "card.json"  # nothing there: its reader says
    both = tmp_path / "both"
    both.mkdir()
    shutil.copy(team / "team.json", both / "team.json")
    shutil.copy(network / "card.json", both / "card.json")
    says = "holds both card.json and team.json: a checkpoint folder is one network"
    for read in (zoo_module.read_card, load, is_team, card_of, zoo_module.card_file):
        with pytest.raises(CheckpointError, match=says):
            read(both)
    with pytest.raises(CheckpointError, match=says):
        reproduce.card_path(both)
