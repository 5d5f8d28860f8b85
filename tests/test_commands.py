"""Every command behaves as a user expects (``envs.core.command``, ``envs.core.progress``).

Errors: each command of ``meeplezoo.cli.COMMANDS``, given a wrong path, a wrong env or an
unknown option, exits with status 2 and one line on stderr, ``meeplezoo <command>: ...``,
naming the bad value (and, for an env, the envs there are); no traceback, unless
``--debug``; a real bug keeps its traceback.  Most cases run in this process through
``meeplezoo.cli.main``; a few run as real processes, both as ``python -m meeplezoo`` and as
``python -m <the command's module>``.

Progress: the shared helper prints, without a terminal, a plain line every ``interval``
seconds with the count, the rate and the time left, and one at the end; the long commands
use it on stderr and leave stdout to their results.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import io
import os
import re
import subprocess
import sys
import threading
import time
from contextlib import suppress
from itertools import chain
from pathlib import Path

import pytest

from meeplezoo import cli
from meeplezoo.envs.core import command, progress
from meeplezoo.envs.core.errors import UnknownEnvError
from meeplezoo.envs.core.progress import Progress

ROOT = Path(__file__).resolve().parents[1]
NOPE = "/nonexistent/meeplezoo_path"
BAD_ENV = "nope_v9"
ENV = "chihou_sousei_v1"
HAS_RAY = importlib.util.find_spec("ray") is not None
HAS_SB3 = importlib.util.find_spec("sb3_contrib") is not None
HAS_TORCH = importlib.util.find_spec("torch") is not None
NEEDS = {"rllib-train": HAS_RAY, "rllib-export": HAS_RAY, "train": HAS_SB3,
         "improve": HAS_SB3, "fit-value": HAS_TORCH, "expert-iterate": HAS_SB3}

# command -> a command line with a path that does not exist (where it reads one)
WRONG_PATH = {
    "play": ["--env", ENV, "--opponents", NOPE],
    "train": ["--env", ENV, "--timesteps", "8", "--out", "{tmp}", "--init-from", NOPE],
    "improve": ["--model", f"{NOPE}/final_model.zip", "--out", "{tmp}"],
    "fit-value": ["--checkpoint", NOPE, "--out", "{tmp}"],
    "expert-iterate": ["--checkpoint", NOPE, "--out", "{tmp}"],
    "levels": ["--checkpoint", NOPE],
    "evaluate": ["--env", ENV, "--players", "2", "--agents", NOPE, "--field", "random",
                 "--games", "1"],
    "arena": ["--env", ENV, "--players", "2", "--agents", NOPE, "--games", "2"],
    "benchmark": [NOPE, "--games", "1"],
    "selfplay": ["--env", ENV, "--players", "2", "--agents", NOPE, "--games", "1", "--seed",
                 "1", "--out", "{tmp}"],
    "export": ["--snapshot", NOPE, "--name", "x", "--out", "{tmp}"],
    "balance": ["--cell", f"x=WC:{NOPE}", "--games", "1"],
    "exploit": ["--team", NOPE, "--role", "all", "--timesteps", "1", "--games", "1",
                "--out", "{tmp}"],
    "metagame": ["--population", NOPE, "--games", "1", "--out", "{tmp}", "--no-plots"],
    "action-counts": ["--env", ENV, "--lineup", f"{NOPE},heuristic", "--games", "1",
                      "--option", "num_players=2"],
    "rllib-train": ["--env", ENV, "--iterations", "1", "--out", "{tmp}", "--eval-fields",
                    NOPE],
    "rllib-export": ["--checkpoint", NOPE, "--name", "x", "--out", "{tmp}"],
    "serve": ["--saves", f"{NOPE}/saves"],
    "reproduce": [NOPE, "--dry-run"],
}
NO_INPUT_PATH = {"zoo", "demo", "bench", "train-bench", "soak", "save-fuzz", "playthrough",
                 "hegemony-report"}  # they read no file a user names (only --json to write)

# command -> a command line with an env that does not exist
WRONG_ENV = {
    "play": ["--env", BAD_ENV],
    "train": ["--env", BAD_ENV, "--timesteps", "8", "--out", "{tmp}"],
    "evaluate": ["--env", BAD_ENV, "--players", "2", "--agents", "random"],
    "arena": ["--env", BAD_ENV, "--players", "2"],
    "benchmark": ["random", "--env", BAD_ENV],
    "selfplay": ["--env", BAD_ENV, "--players", "2", "--agents", "random", "--games", "1",
                 "--seed", "1", "--out", "{tmp}"],
    "export": ["--model", f"{NOPE}/final_model.zip", "--name", "x", "--env", BAD_ENV],
    "balance": ["--env", BAD_ENV, "--preset", "bots"],
    "metagame": ["--env", BAD_ENV, "--out", "{tmp}", "--no-plots"],
    "action-counts": ["--env", BAD_ENV, "--lineup", "heuristic"],
    "zoo": ["--env", BAD_ENV],
    "bench": ["--env", BAD_ENV],
    "train-bench": ["--env", BAD_ENV],
    "soak": ["--env", BAD_ENV],
    "save-fuzz": ["--env", BAD_ENV, "--players", "2"],
    "playthrough": ["--check", "--env", BAD_ENV],
    "rllib-train": ["--env", BAD_ENV, "--iterations", "1", "--out", "{tmp}"],
}
# the env comes from a model, a team or a run, or is fixed (serve: each table names its own)
NO_ENV = {"improve", "fit-value", "expert-iterate", "levels", "exploit", "demo", "hegemony-report",
          "rllib-export", "serve", "reproduce"}

# command -> its required options (an unknown option is then the only thing wrong)
REQUIRED = {
    "play": ["--env", ENV],
    "train": ["--env", ENV, "--timesteps", "8", "--out", "{tmp}"],
    "improve": ["--model", "m.zip", "--out", "{tmp}"],
    "fit-value": ["--checkpoint", "c", "--out", "{tmp}"],
    "expert-iterate": ["--checkpoint", "c", "--out", "{tmp}"],
    "levels": ["--checkpoint", "c"],
    "evaluate": ["--env", ENV, "--players", "2", "--agents", "random"],
    "selfplay": ["--env", ENV, "--players", "2", "--agents", "random", "--games", "1",
                 "--seed", "1", "--out", "{tmp}"],
    "export": ["--snapshot", "x"],
    "exploit": ["--team", "t", "--role", "all", "--timesteps", "1", "--games", "1",
                "--out", "{tmp}"],
    "action-counts": ["--env", ENV, "--lineup", "heuristic"],
    "soak": ["--env", ENV],
    "save-fuzz": ["--env", ENV, "--players", "2"],
    "playthrough": ["--check"],
    "rllib-train": ["--env", ENV, "--iterations", "1", "--out", "{tmp}"],
    "rllib-export": ["--checkpoint", "c", "--name", "x"],
}


def _argv(name: str, args: list[str], tmp_path: Path) -> list[str]:
    if not NEEDS.get(name, True):
        pytest.skip(f"{name} needs an extra that is not installed")
    return [name, *(a.replace("{tmp}", str(tmp_path / "out")) for a in args)]


def one_line(code: int, err: str, *names: str) -> str:
    """The error line, checked: status 2, one line naming the command and ``names``."""
    assert code == 2, err
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("meeplezoo"), lines[0]
    for name in names:
        assert name in lines[0], lines[0]
    return lines[0]


def run_cli(capsys, argv: list[str]) -> tuple[int, str, str]:
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_every_command_is_tried_for_each_kind_of_mistake():
    commands = set(cli.COMMANDS)
    assert set(WRONG_PATH) | NO_INPUT_PATH == commands
    assert set(WRONG_ENV) | NO_ENV == commands
    assert not set(WRONG_PATH) & NO_INPUT_PATH and not set(WRONG_ENV) & NO_ENV


class _Parsed(Exception):
    """Raised where a command parses its options: the parser is all the test wants."""


def _workers_default(name: str, monkeypatch) -> int | None:
    """The ``--workers`` default of a command's parser, read where it parses (nothing runs);
    None when it has no such option."""
    original = argparse.ArgumentParser.parse_known_args
    found: list[int] = []

    def parse(parser, args=None, namespace=None):
        if "--workers" in parser._option_string_actions:
            found.append(parser._option_string_actions["--workers"].default)
            raise _Parsed
        return original(parser, args, namespace)  # hegemony-report's own, then balance's

    monkeypatch.setattr(argparse.ArgumentParser, "parse_known_args", parse)
    with suppress(_Parsed, SystemExit):
        importlib.import_module(cli.COMMANDS[name][0]).main([])
    return found[0] if found else None


def _mentions_workers(name: str) -> bool:
    spec = importlib.util.find_spec(cli.COMMANDS[name][0])
    text = Path(str(spec.origin)).read_text() if spec is not None else ""
    return "--workers" in text or "cluster.add_arguments" in text


def test_every_command_with_workers_has_the_same_default(monkeypatch):
    """``--workers`` defaults to ``envs.core.workers.default_workers()`` (2, fewer on a
    one-core machine) in every command that has it: balance defaulted to 1 while arena
    defaulted to 2."""
    from meeplezoo.envs.core.workers import default_workers

    names = sorted(n for n in cli.COMMANDS if NEEDS.get(n, True) and _mentions_workers(n))
    defaults = {name: _workers_default(name, monkeypatch) for name in names}
    assert {"arena", "balance", "evaluate", "exploit", "hegemony-report", "levels",
            "selfplay", "soak"} <= set(defaults)
    assert defaults == dict.fromkeys(names, default_workers())


@pytest.mark.parametrize("name", sorted(WRONG_PATH))
def test_a_wrong_path_is_one_line(name, capsys, tmp_path):
    code, _, err = run_cli(capsys, _argv(name, WRONG_PATH[name], tmp_path))
    one_line(code, err, f"meeplezoo {name}: ", NOPE)


@pytest.mark.parametrize("name", sorted(WRONG_ENV))
def test_a_wrong_env_is_one_line_naming_the_envs(name, capsys, tmp_path):
    code, _, err = run_cli(capsys, _argv(name, WRONG_ENV[name], tmp_path))
    one_line(code, err, f"meeplezoo {name}: ", BAD_ENV, "chihou_sousei_v1", "hegemony_v1")


@pytest.mark.parametrize("name", sorted(cli.COMMANDS))
def test_an_unknown_option_is_one_line(name, capsys, tmp_path):
    argv = _argv(name, [*REQUIRED.get(name, []), "--no-such-option"], tmp_path)
    code, out, err = run_cli(capsys, argv)
    one_line(code, err, f"meeplezoo {name}: ", "--no-such-option", "--help")
    assert "usage:" not in out + err


def test_an_unknown_command_is_one_line(capsys):
    code, _, err = run_cli(capsys, ["no-such-command"])
    one_line(code, err, "no-such-command", "arena")


def test_debug_shows_the_traceback_in_this_process(capsys, tmp_path):
    with pytest.raises(FileNotFoundError, match="is not a snapshot"):
        cli.main(["export", "--snapshot", NOPE, "--name", "x", "--debug"])
    with pytest.raises(UnknownEnvError):
        cli.main(["--debug", "zoo", "--env", BAD_ENV])
    capsys.readouterr()
    assert cli.main([*_argv("exploit", WRONG_PATH["exploit"], tmp_path), "--debug"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" in err and err.strip().splitlines()[-1].startswith("meeplezoo exploit: ")
    with pytest.raises(SystemExit) as stop:  # argparse as it is: its usage, then exit 2
        cli.main(["soak", "--debug", "--no-such-option"])
    assert stop.value.code == 2 and "usage:" in capsys.readouterr().err


def test_a_real_bug_keeps_its_traceback(monkeypatch, capsys):
    from meeplezoo.training.agents import zoo

    def broken(env=None):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(zoo, "list_zoo", broken)
    with pytest.raises(ZeroDivisionError):
        cli.main(["zoo"])
    def stopped(env=None):
        raise KeyboardInterrupt

    monkeypatch.setattr(zoo, "list_zoo", stopped)
    code, _, err = run_cli(capsys, ["zoo"])
    assert code == 130 and err == "meeplezoo zoo: interrupted\n"


def test_messages_name_the_missing_extra_and_a_path():
    missing = ModuleNotFoundError("No module named 'ray'", name="ray")
    assert "pip install 'meeplezoo[rllib]'" in command.user_message(missing, "meeplezoo x")
    ours = ModuleNotFoundError("No module named 'meeplezoo.nothing'", name="meeplezoo.nothing")
    assert command.user_message(ours, "meeplezoo x") is None  # a bug of ours
    path = FileNotFoundError(2, "No such file or directory", "/a/b.json")
    assert command.user_message(path, "x") == ("/a/b.json: no such file or directory; "
                                               "check the path")
    assert command.user_message(ValueError("plain"), "x") is None
    assert command.strip_own_name("training.arena: bad", "meeplezoo arena",
                                  "meeplezoo.training.evaluation.arena") == "bad"
    assert command.strip_own_name("evaluate: bad", "meeplezoo evaluate",
                                  "meeplezoo.training.evaluation.evaluate") == "bad"


def _process(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *argv], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONWARNINGS": "ignore"})


@pytest.mark.parametrize("form", [["-m", "meeplezoo", "export"],
                                  ["-m", "meeplezoo.training.export"]])
def test_a_real_process_exits_2_with_one_line(form):
    done = _process(*form, "--snapshot", NOPE, "--name", "x")
    assert done.returncode == 2
    assert done.stdout == ""
    line = one_line(done.returncode, done.stderr, "meeplezoo export: ", NOPE)
    assert "<run>/pool/step_N" in line  # what to do


def test_an_envs_module_run_directly_behaves_the_same():
    done = _process("-m", "meeplezoo.envs.core.soak", "--env", BAD_ENV)
    one_line(done.returncode, done.stderr, "meeplezoo soak: ", BAD_ENV, "hegemony_v1")
    done = _process("-m", "meeplezoo.envs.core.soak", "--env", BAD_ENV, "--debug")
    assert done.returncode == 2 and "usage: meeplezoo soak" in done.stderr


def test_debug_in_a_real_process_shows_the_traceback():
    done = _process("-m", "meeplezoo", "export", "--snapshot", NOPE, "--name", "x", "--debug")
    assert done.returncode == 1
    assert "Traceback" in done.stderr and "FileNotFoundError" in done.stderr


# -- progress -------------------------------------------------------------------------------

LINE = r"\d+/\d+ {unit}s \([\d.e+]+ {unit}s/s, about [\d.]+ (s|min|h) left\)"
END = r"\d+/\d+ {unit}s in [\d.]+ (s|min|h) \([\d.e+]+ {unit}s/s\)"


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_plain_lines_come_every_interval_with_the_rate_and_the_time_left():
    clock, stream = Clock(), io.StringIO()
    with Progress(100, "job", unit="game", style="lines", interval=10, clock=clock,
                  stream=stream, heartbeat=False) as bar:
        clock.now += 5
        bar.update(10)
        assert stream.getvalue() == ""  # not yet 10 s
        clock.now += 5
        bar.update(10)  # 20 games in 10 s: 2 games/s, 80 left: 40 s
        clock.now += 3
        bar.update(5)
        clock.now += 7
        bar.update(5)  # 30 in 20 s: 1.5/s, 70 left: 47 s
    lines = stream.getvalue().splitlines()
    assert lines == ["job: 20/100 games (2 games/s, about 40 s left)",
                     "job: 30/100 games (1.5 games/s, about 47 s left)",
                     "job: 30/100 games in 20 s (1.5 games/s)"]


def test_times_read_in_seconds_minutes_and_hours_and_a_failed_job_has_no_closing_line():
    assert [progress.duration(t) for t in (42, 420, 3.5 * 3600)] == ["42 s", "7 min", "3.5 h"]
    clock, stream = Clock(), io.StringIO()
    bar = Progress(10_000, "job", unit="step", style="lines", interval=1, clock=clock,
                   stream=stream, heartbeat=False)
    clock.now += 60
    bar.update(100)  # 9900 left at 100 a minute
    bar.close(final=False)  # a job that failed: its error says the rest
    bar.close()  # closing twice changes nothing
    assert stream.getvalue().splitlines() == [
        "job: 100/10000 steps (1.67 steps/s, about 99 min left)"]


def test_a_line_comes_even_when_nothing_is_done_for_a_while():
    stream = io.StringIO()
    with Progress(4, "slow", style="lines", interval=0.05, stream=stream) as bar:
        time.sleep(0.3)  # no update: the timer thread still says where the job is
        bar.update(1)
        time.sleep(0.15)
    lines = stream.getvalue().splitlines()
    assert re.fullmatch(r"slow: 0/4 games \(none done in \d+ s so far\)", lines[0])
    assert any(re.fullmatch(f"slow: {LINE.format(unit='game')}", line) for line in lines)
    assert len(lines) >= 3 and lines[-1].startswith("slow: 1/4 games in ")
    assert not [t for t in threading.enumerate() if t.name == "meeplezoo-progress"]


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_gets_a_bar_and_no_tqdm_gets_lines(monkeypatch):
    pytest.importorskip("tqdm")
    stream = Terminal()
    with Progress(3, "job", stream=stream) as bar:
        assert bar.mode == "bar"
        bar.update(3)
    assert "3/3" in stream.getvalue()
    monkeypatch.setitem(sys.modules, "tqdm", None)  # an envs/-only install
    stream = Terminal()
    with Progress(3, "job", stream=stream, interval=0) as bar:
        assert bar.mode == "lines"
        bar.update(3)
    assert stream.getvalue().splitlines()[-1].startswith("job: 3/3 games in ")


def test_off_says_nothing():
    stream = io.StringIO()
    with Progress(3, "job", style="off", stream=stream, interval=0) as bar:
        bar.update(3)
    assert stream.getvalue() == "" and progress.style_of(False) == "off"
    assert progress.style_of(None) == "auto" and progress.style_of(True) == "bar"


def test_the_interval_can_be_set_from_the_environment(monkeypatch):
    monkeypatch.setenv("MEEPLEZOO_PROGRESS_INTERVAL", "2.5")
    assert Progress(1, "x", style="off").interval == 2.5
    monkeypatch.delenv("MEEPLEZOO_PROGRESS_INTERVAL")
    assert Progress(1, "x", style="off").interval == progress.INTERVAL == 30


# command line, what its progress lines start with, their unit
PROGRESS = {
    "soak": (["soak", "--env", ENV, "--games", "3"], f"soak {ENV}", "game"),
    "evaluate": (["evaluate", "--env", "toy_v0", "--players", "2", "--agents", "heuristic",
                  "random", "--field", "random", "--games", "4", "--workers", "2"],
                 "evaluate toy_v0", "game"),
    "arena": (["arena", "--env", "toy_v0", "--players", "2", "--games", "4",
               "--bootstrap", "10"], "toy_v0 2p", "game"),
    "save-fuzz": (["save-fuzz", "--env", "necropolis_railway_v1", "--players", "2",
                   "--states", "1", "--sample", "4"], "save-fuzz necropolis_railway_v1 2p",
                  "mutant"),
    "hegemony-report": (["hegemony-report", "--games", "1", "--matchups", "WC,table"],
                        "balance hegemony_v1", "game"),  # an alias of balance now
    "balance": (["balance", "--env", "toy_roles_v0", "--preset", "bots", "--games", "3"],
                "balance toy_roles_v0", "game"),
    "action-counts": (["action-counts", "--env", "toy_v0", "--lineup", "heuristic,random",
                       "--games", "3", "--option", "num_players=2"],
                      "action-counts toy_v0", "game"),
    "train": (["train", "--env", "toy_v0", "--timesteps", "64", "--n-envs", "1",
               "--n-steps", "64", "--batch-size", "64", "--net", "8", "--out", "{tmp}"],
              "train toy_v0", "step"),
}


@pytest.mark.parametrize("name", sorted(PROGRESS))
def test_long_commands_count_on_stderr_and_keep_stdout_for_results(name, monkeypatch, capsys,
                                                                    tmp_path):
    argv, what, unit = PROGRESS[name]
    monkeypatch.setattr(progress, "INTERVAL", 0.0)  # a line at every update
    code, out, err = run_cli(capsys, _argv(argv[0], argv[1:], tmp_path))
    assert code == 0, err
    lines = [line for line in err.splitlines() if line.startswith(f"{what}: ")]
    assert any(re.fullmatch(f"{re.escape(what)}: {LINE.format(unit=unit)}", line)
               for line in lines), err
    assert re.fullmatch(f"{re.escape(what)}: {END.format(unit=unit)}", lines[-1]), err
    assert f"{what}: " not in out and " left)" not in out
    assert out.strip(), "the results still go to stdout"


def test_counted_games_are_the_same_games():
    """Counting splits the games into small chunks; every game is seeded by its index."""
    from meeplezoo.training.evaluation import evaluate

    config = {"num_players": 2}
    plain = evaluate.versus_field("toy_v0", config, "heuristic", "random", 10, 3, 2)
    with Progress(10, "x", style="off") as bar:
        counted = evaluate.versus_field("toy_v0", config, "heuristic", "random", 10, 3, 2,
                                        bar=bar)
    assert counted == plain and bar.done == 10


def _game_ids(job: tuple) -> list[int]:
    return list(job[0])


def test_counted_ranges_of_games_give_the_same_data():
    from meeplezoo.training.fitting.imitation import map_over_games

    plain = map_over_games(_game_ids, lambda ids: (ids,), 11, workers=2)
    with Progress(11, "x", style="off") as bar:
        counted = map_over_games(_game_ids, lambda ids: (ids,), 11, workers=2, progress=bar)
    assert list(chain(*plain)) == list(chain(*counted)) == list(range(11)) and bar.done == 11
    assert len(counted) > len(plain)
