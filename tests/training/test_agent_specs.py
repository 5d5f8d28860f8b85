"""One way to name an agent everywhere (``training.agents.specs``): every command takes its
agents as space-separated values, comma-separated values or the flag repeated, lists the
forms a spec may take in its --help, and plays a ``package.module:attribute`` agent from the
folder it runs in, as ``python -m`` would import it, without ``PYTHONPATH``."""

from __future__ import annotations

import argparse
import io
import sys
import uuid
from pathlib import Path

import pytest

from meeplezoo import cli
from meeplezoo.envs.core.errors import ConfigError
from meeplezoo.training.agents import specs
from meeplezoo.training.agents.bots import LEVELS
from meeplezoo.training.agents.opponents import import_agent

AGENT_FILE = '''
"""A user's own agents, in the folder a command runs from."""


def first_legal(observation, mask):
    return int(mask.nonzero()[0][0])


class LastLegal:
    def act(self, observation, mask):
        return int(mask.nonzero()[0][-1])
'''

# command -> the flags that take agents, and whether its agents may be NETWORK@LEVEL
AGENT_FLAGS: dict[str, tuple[list[str], bool]] = {
    "arena": (["--agents", "--paired", "--field"], True),
    "benchmark": (["AGENT"], True),
    "evaluate": (["--agents", "--field"], True),
    "selfplay": (["--agents"], True),
    "levels": (["--field"], True),
    "play": (["--opponents"], True),
    "balance": (["--cell"], True),
    "metagame": (["--population", "--strategy"], True),
    "action-counts": (["--lineup"], True),
    "train": (["--opponents"], True),
    "train-bench": (["--opponents"], True),
    "improve": (["--opponents"], False),
    "expert-iterate": (["--pool", "--gate-field"], True),
    "export": (["--opponent-model"], False),
    "rllib-train": (["--eval-fields"], True),
}


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture
def agent_folder(tmp_path, monkeypatch) -> str:
    """A fresh folder holding an agent module of a name no other test uses, made the
    current folder, with ``sys.path`` and ``sys.modules`` restored afterwards: returns
    the module's name."""
    name = f"my_agents_{uuid.uuid4().hex[:8]}"
    (tmp_path / f"{name}.py").write_text(AGENT_FILE)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", ".")])
    yield name
    sys.modules.pop(name, None)


# -- the syntax ---------------------------------------------------------------------------


def parser_with_agents(default: list[str] | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    specs.add_agents_argument(parser, "--agents", what="agents", default=default)
    return parser


@pytest.mark.parametrize("argv", [
    ["--agents", "a", "b", "c"],
    ["--agents", "a,b,c"],
    ["--agents", "a", "b,c"],
    ["--agents", "a,b", "--agents", "c"],
    ["--agents", "a", "--agents", "b", "--agents", "c"],
    ["--agents", " a , b,,c "],
])
def test_spaces_commas_and_repeats_all_name_the_same_agents(argv):
    assert parser_with_agents().parse_args(argv).agents == ["a", "b", "c"]


def test_a_given_flag_replaces_its_default_and_the_default_stays_untouched():
    default = ["heuristic"]
    parser = parser_with_agents(default)
    assert parser.parse_args([]).agents == ["heuristic"]
    assert parser.parse_args(["--agents", "random"]).agents == ["random"]
    assert parser.parse_args(["--agents", "random", "--agents", "x"]).agents == ["random", "x"]
    assert default == ["heuristic"]


def test_an_empty_list_is_refused_saying_what_an_agent_is(capsys):
    with pytest.raises(SystemExit):
        parser_with_agents().parse_args(["--agents", ","])
    assert "name at least one agent" in capsys.readouterr().err


def test_no_form_holds_a_comma_and_a_folder_that_does_is_kept_whole(tmp_path):
    for spec in ["hegemony_v1/ppo_classes@hard", "necropolis_railway_v1/ppo_league",
                 "package.module:attribute", "runs/zoo/x/my_agent", "heuristic=3"]:
        assert specs.split_specs([spec]) == [spec]
    folder = tmp_path / "a,b"
    folder.mkdir()
    assert specs.split_specs([str(folder), "random,heuristic"]) == [
        str(folder), "random", "heuristic"]


def test_the_help_names_the_levels_there_are():
    assert tuple(LEVELS) == specs.LEVEL_NAMES


def test_a_python_spec_is_told_from_a_folder_with_a_colon(tmp_path):
    assert specs.is_python_spec("pkg.mod:attr")
    assert not specs.is_python_spec("random")
    assert not specs.is_python_spec("hegemony_v1/ppo_classes")
    folder = tmp_path / "odd:name"
    folder.mkdir()
    assert not specs.is_python_spec(str(folder))


# -- every command's --help -------------------------------------------------------------


@pytest.mark.parametrize("command", sorted(AGENT_FLAGS))
def test_every_command_that_takes_agents_lists_the_forms_in_its_help(command, capsys):
    flags, levels = AGENT_FLAGS[command]
    with pytest.raises(SystemExit) as exc:
        cli.main([command, "--help"])
    assert exc.value.code == 0
    text = flat(capsys.readouterr().out)
    for flag in flags:
        assert flag in text
    assert flat(specs.BUILT_IN_FORMS) in text
    assert flat(specs.PYTHON_FORM) in text
    assert (flat(specs.LEVEL_FORM) in text) == levels
    if command not in ("balance",):  # a cell is one lineup, repeated with --cell
        assert flat(specs.LIST_SYNTAX) in text


# -- package.module:attribute from the current folder ---------------------------------------


def test_an_agent_module_in_the_current_folder_plays_without_pythonpath(agent_folder,
                                                                           capsys):
    """The folder a command runs from is not on ``sys.path`` (the ``meeplezoo`` script's
    ``sys.path[0]`` is its bin folder); the module is found there as ``python -m`` finds
    it.  Two games against random, in two worker processes (forked: they inherit the
    path)."""
    here = str(Path.cwd())
    assert here not in sys.path
    assert cli.main(["evaluate", "--env", "necropolis_railway_v1", "--players", "2",
                     "--agents", f"{agent_folder}:first_legal", f"{agent_folder}:LastLegal",
                     "--field", "random", "--games", "2", "--workers", "2",
                     "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert f"{agent_folder}:first_legal" in out and f"{agent_folder}:LastLegal" in out
    import_agent(f"{agent_folder}:first_legal")  # here too (the games were the workers')
    assert sys.path[0] == here


def test_a_missing_module_says_where_it_was_looked_for(agent_folder):
    with pytest.raises(ConfigError, match=r"cannot import it \(No module named 'nope_x'\); "
                                          r"a Python agent is package.module:attribute"):
        import_agent("nope_x:agent")
    with pytest.raises(ConfigError, match="has no attribute 'missing'"):
        import_agent(f"{agent_folder}:missing")


def run(argv: list[str]) -> str:
    """A command's main through ``meeplezoo``, its stdout returned."""
    out = io.StringIO()
    real = sys.stdout
    sys.stdout = out
    try:
        assert cli.main(argv) == 0
    finally:
        sys.stdout = real
    return out.getvalue()


def test_arena_takes_module_attr_agents_in_every_list(agent_folder):
    a, b = f"{agent_folder}:first_legal", f"{agent_folder}:LastLegal"
    out = run(["arena", "--env", "necropolis_railway_v1", "--players", "2", "--paired", a,
               "random", "--field", b, "--games", "2", "--no-progress", "--bootstrap", "20"])
    assert f"{a} vs random: 2 deals" in out
    assert "Elo over these 4 games (random = 0" in out and f"| `{b}` |" in out
    out = run(["arena", "--env", "necropolis_railway_v1", "--players", "1", "--agents", a,
               "--games", "2", "--no-progress", "--bootstrap", "20"])
    assert f"| `{a}` |" in out


def test_selfplay_levels_and_action_counts_take_module_attr_agents(agent_folder, tmp_path):
    a = f"{agent_folder}:first_legal"
    out = run(["selfplay", "--env", "necropolis_railway_v1", "--players", "2", "--agents",
               f"{a},random", "--games", "2", "--seed", "1", "--out", str(tmp_path / "rec"),
               "--no-progress"])
    assert "2 games" in out
    out = run(["levels", "--checkpoint", "necropolis_railway_v1/ppo_league", "--players", "2",
               "--levels", "easy", "--field", a, "--games", "2", "--cost-games", "1",
               "--no-progress"])
    assert "@easy (2p, 2 paired deals)" in out
    out = run(["action-counts", "--env", "necropolis_railway_v1", "--lineup", a, "random",
               "--games", "1", "--option", "num_players=2"])
    assert f"lineup {a}, random" in out


def test_play_takes_a_module_attr_opponent(agent_folder):
    from meeplezoo.training import play

    out = io.StringIO()
    assert play.main(["--env", "necropolis_railway_v1", "--players", "2", "--opponents",
                      f"{agent_folder}:LastLegal"], stdin=io.StringIO("quit\n"),
                     stdout=out) == 0
    assert f"seat 1: {agent_folder}:LastLegal" in out.getvalue()


def test_balance_takes_a_module_attr_agent_in_a_cell(agent_folder):
    out = run(["balance", "--games", "1", "--cell", f"mine=WC:{agent_folder}:first_legal"])
    assert f"| WC | {agent_folder}:first_legal |" in out


def test_export_lookahead_takes_module_attr_opponent_models(agent_folder, tmp_path, capsys):
    out = run(["export", "--lookahead", "necropolis_railway_v1/ppo_league", "--name", "la",
               "--out", str(tmp_path / "zoo"), "--opponent-model",
               f"{agent_folder}:first_legal,random"])
    assert "exported" in out
    # an opponent that cannot play is refused before anything is written
    assert cli.main(["export", "--lookahead", "necropolis_railway_v1/ppo_league", "--name",
                     "lb", "--out", str(tmp_path / "zoo"), "--opponent-model",
                     "nope_x:agent"]) == 2
    assert "agent 'nope_x:agent': cannot import it" in capsys.readouterr().err
    assert not (tmp_path / "zoo" / "necropolis_railway_v1" / "lb").exists()


def test_the_training_commands_parse_module_attr_and_its_pool_plays_it(agent_folder):
    """train, train-bench, improve, expert-iterate and rllib-train cost a training run
    each: their parsers take the forms, and the opponent pool that train and train-bench
    seat (the seat env's) plays a module:attribute agent."""
    from meeplezoo.training.fitting import expert_iteration, improve, train
    from meeplezoo.training.fitting.seat_env import SeatEnv
    from meeplezoo.training.rllib import train as rllib_train

    a = f"{agent_folder}:first_legal"
    args = train.build_parser().parse_args(["--env", "necropolis_railway_v1", "--timesteps",
                                            "8", "--out", "x", "--opponents", f"{a}=2",
                                            "self", "random"])
    assert args.opponents == [f"{a}=2", "self", "random"]
    assert improve.build_parser().parse_args(["--model", "m.zip", "--out", "x",
                                              "--opponents", a]).opponents == [a]
    args = expert_iteration.build_parser().parse_args(["--checkpoint", "c", "--out", "x",
                                                       "--pool", a, "current",
                                                       "--gate-field", f"{a},heuristic"])
    assert (args.pool, args.gate_field) == ([a, "current"], [a, "heuristic"])
    assert rllib_train.build_parser().parse_args(["--env", "x", "--iterations", "1", "--out",
                                                  "x", "--eval-fields", a]).eval_fields == [a]
    env = SeatEnv("necropolis_railway_v1", {"num_players": 2}, seat=0,
                  opponents=[f"{a}=2", "random"], seed=0)
    env.reset(seed=0)
    done = False
    while not done:
        done = env.step(int(env.action_masks().nonzero()[0][0]))[2]
