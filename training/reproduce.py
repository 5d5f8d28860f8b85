"""``meeplezoo reproduce``: the commands that made a shipped network, in order, from its card.

    meeplezoo reproduce checkpoints/asian_delivery_v1/ppo_league --dry-run
    meeplezoo reproduce asian_delivery_v1/ppo_league --check
    meeplezoo reproduce asian_delivery_v1/ppo_league --from 3

Every shipped card (``card.json``, a team's ``team.json``) holds a ``reproduce`` list: one
step per command, in the order they ran, each ``{stage, command, what}`` and, where it was
recorded, ``wall_time_s`` and ``code_commit``.  The stages run in this order: ``train``
(MaskablePPO, imitation first), ``export`` (ONNX and card where the zoo finds it), ``team``
(one member per role bundled), ``carry`` (a network carried to a new env version),
``records`` (self-play game records), ``value`` (a value network fitted on them),
``rounds`` (expert iteration) and ``ship`` (the folder and the evaluation the card shows).
A step's ``source`` says where it was found when the card's own fields do not hold it
(the docs, a commit message), and ``recorded: false`` marks a step nobody recorded as a
command (a copy into ``checkpoints/``): its command is the plain one that does what the
commit shows was done.

Commands are ``meeplezoo <command> ...`` (a recorded ``python -m training.<module>`` names
the same command: ``meeplezoo.commands`` maps modules to commands) or the two file steps a
recipe needs, ``mkdir -p DIR`` and ``cp [-r] SRC DST``, which this command does itself (no
shell).  ``--check`` parses every step with its command's own parser (nothing runs) and
says which steps cannot run under this code (an env version since retired).  Running
stops at the first step that fails; ``--from N`` resumes there.  ``--backfill FOLDER``
writes a list built from each card's recorded fields into every card under FOLDER that has
none yet (the starting point the shipped lists were written from).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from meeplezoo.commands import COMMANDS
from meeplezoo.envs import retired
from meeplezoo.envs.core.command import UsageError, run_command, usage_errors_raise
from meeplezoo.envs.core.errors import ConfigError
from meeplezoo.training.agents.zoo import card_file, zoo_root
from meeplezoo.training.cli import REPRODUCE_STAGES as STAGES

STEP_KEYS = {"stage", "command", "what", "wall_time_s", "code_commit", "source", "recorded"}
FILE_STEPS = ("mkdir", "cp")
CARD_FILES = ("card.json", "team.json")


# ---------------------------------------------------------------- reading a card


def card_path(spec: str | os.PathLike) -> Path:
    """A card's file from a path (the file, or a folder holding ``card.json`` or
    ``team.json``: ``zoo.card_file``) or a zoo name (``env/name``, a team member
    ``env/name/role``)."""
    for base in (Path(spec), zoo_root() / Path(spec)):
        if base.is_file():
            return base
        found = card_file(base) if base.is_dir() else None
        if found is not None and found.is_file():
            return found
    shipped = ", ".join(str(p.parent.relative_to(zoo_root())) for p in shipped_cards())
    raise FileNotFoundError(
        f"{os.fspath(spec)}: no card there (give a card.json or team.json, a checkpoint "
        f"folder or a shipped name); shipped: {shipped}")


def shipped_cards(root: Path | None = None) -> list[Path]:
    """Every card under ``root`` (default: the shipped checkpoints), in path order."""
    root = zoo_root() if root is None else Path(root)
    return sorted(p for name in CARD_FILES for p in root.rglob(name))


def steps_of(card: dict[str, Any], where: str = "the card") -> list[dict[str, Any]]:
    """The card's ``reproduce`` list; an error when it has none or it is malformed."""
    steps = card.get("reproduce")
    if not isinstance(steps, list) or not steps:
        raise ConfigError(f"{where} has no reproduce list (run meeplezoo reproduce --backfill "
                          "on its folder to build one from its recorded fields)")
    for number, step in enumerate(steps, 1):
        if not isinstance(step, dict) or not isinstance(step.get("command"), str):
            raise ConfigError(f"{where}: reproduce step {number} is not "
                              "{stage, command, what, ...}")
    return steps


# ---------------------------------------------------------------- commands


def command_words(command: str) -> list[str]:
    """A step's command as ``meeplezoo`` words (``[name, *argv]``) or a file step's words.
    A recorded ``python -m training.X`` (the modules' old home) names the command whose
    module ends in ``.X``."""
    words = shlex.split(command)
    if not words:
        raise ConfigError("an empty command")
    if words[0] in FILE_STEPS:
        return words
    if Path(words[0]).name == "meeplezoo":
        return words[1:]
    if len(words) >= 3 and Path(words[0]).name.startswith("python") and words[1] == "-m":
        module = words[2]
        if module in ("meeplezoo", "meeplezoo.cli"):
            return words[3:]
        tail = module.split(".")[-1]
        names = [name for name, (path, _) in COMMANDS.items()
                 if path == module or path.endswith(f".{tail}")]
        if len(names) > 1:  # training.train: the command of that name (not rllib-train)
            names = [name for name in names if name == tail.replace("_", "-")]
        if len(names) == 1:
            return [names[0], *words[3:]]
        raise ConfigError(f"python -m {module} names no meeplezoo command")
    raise ConfigError(f"{words[0]!r}: a step is a meeplezoo command or one of "
                      f"{', '.join(FILE_STEPS)}")


def as_recorded(command: str) -> str:
    """The command in the form cards record it: ``meeplezoo <command> ...``."""
    words = command_words(command)
    prefix = [] if words[0] in FILE_STEPS else ["meeplezoo"]
    return shlex.join([*prefix, *words])


class _Parsed(Exception):
    """Raised where a command has parsed its options: parsing is all a check wants."""


@contextmanager
def parse_only() -> Iterator[None]:
    """While it lasts, a command's ``parse_args`` parses and then stops the command, and a
    refusal raises ``UsageError`` (``envs.core.command.usage_errors_raise``; never exits): a
    command is checked, never run."""
    original_parse = argparse.ArgumentParser.parse_args

    def parse(parser: argparse.ArgumentParser, args: Any = None, namespace: Any = None) -> Any:
        original_parse(parser, args, namespace)
        raise _Parsed

    argparse.ArgumentParser.parse_args = parse  # type: ignore[method-assign,assignment]
    try:
        with usage_errors_raise():
            yield
    finally:
        argparse.ArgumentParser.parse_args = original_parse  # type: ignore[method-assign]


FILE_PARSER_OPTIONS = {"mkdir": ("-p",), "cp": ("-r",)}


def parse_file_step(words: list[str]) -> tuple[str, list[str], list[str]]:
    """``mkdir -p DIR`` or ``cp [-r] SRC... DST``: (program, flags, paths), or an error."""
    program, rest = words[0], words[1:]
    flags = [w for w in rest if w.startswith("-")]
    paths = [w for w in rest if not w.startswith("-")]
    allowed = FILE_PARSER_OPTIONS[program]
    if any(flag not in allowed for flag in flags):
        raise ConfigError(f"{program} takes only {' '.join(allowed)} here, not "
                          f"{' '.join(f for f in flags if f not in allowed)}")
    if program == "mkdir" and (flags != ["-p"] or not paths):
        raise ConfigError("mkdir -p DIR...")
    if program == "cp" and len(paths) < 2:
        raise ConfigError("cp [-r] SRC... DST")
    return program, flags, paths


def check_command(command: str) -> str | None:
    """What is wrong with one step's command (its own parser's words), or None: it parses."""
    try:
        words = command_words(command)
        if words[0] in FILE_STEPS:
            parse_file_step(words)
            return None
    except (ConfigError, ValueError) as exc:
        return str(exc)
    if not words or words[0] not in COMMANDS:
        return f"{words[0] if words else '(nothing)'!r} is not a meeplezoo command"
    # a retired env is checked as its successor (the options parse the same); check_steps
    # notes that the step cannot run under this code
    name, argv = words[0], [successor_words(word) for word in words[1:]]
    module = importlib.import_module(COMMANDS[name][0])
    with parse_only():
        try:
            module.main(list(argv))
        except _Parsed:
            return None
        except UsageError as exc:
            return f"meeplezoo {name} refuses it: {exc}"
        except SystemExit as exc:  # --help, or a command's own refusal before parsing
            return f"meeplezoo {name} stopped before parsing: {exc.code}"
    return f"meeplezoo {name} returned without parsing its options"


def successor_words(word: str) -> str:
    """``word`` with a retired env id (alone or as a path part) replaced by its successor."""
    for old, new in retired().items():
        if word == old:
            return new
        word = word.replace(f"{old}/", f"{new}/")
    return word


def retired_envs(command: str) -> list[str]:
    """The retired env versions a command names (``--env X``, a checkpoint path): it cannot
    run under this code."""
    words = shlex.split(command)
    return sorted({old for old in retired() for w in words
                   if w == old or f"/{old}/" in f"/{w}/" or w.startswith(f"{old}/")})


SHIP = "ship"
# the stages that can start from a network already shipped, so may follow a ship step: a
# carry to a new version, a value fitted on its games, expert iteration from it, a tuning of
# its search levels
FROM_SHIPPED = ("carry", "records", "value", "rounds", "tune")


def check_steps(steps: list[dict[str, Any]]) -> tuple[list[str], list[str]]:
    """(problems, notes) of a reproduce list: a problem makes it wrong (an unknown stage,
    stages out of order, a command its parser refuses); a note says why a step cannot run
    here although it is right (a retired env).  After a ship step a stretch that starts
    from the shipped network (``FROM_SHIPPED``) may begin; a train step may not."""
    problems, notes = [], []
    last = 0
    for number, step in enumerate(steps, 1):
        unknown = set(step) - STEP_KEYS
        if unknown:
            problems.append(f"step {number}: unknown keys {sorted(unknown)} (a step has "
                            f"{', '.join(sorted(STEP_KEYS))})")
        stage = step.get("stage")
        if stage not in STAGES:
            problems.append(f"step {number}: stage {stage!r} is none of {', '.join(STAGES)}")
        else:
            if stage in FROM_SHIPPED and number > 1 and steps[number - 2].get("stage") == SHIP:
                last = STAGES.index(stage)  # a new stretch starts from the shipped network
            if STAGES.index(stage) < last:
                problems.append(f"step {number}: stage {stage} after {STAGES[last]} (the "
                                f"stages run in the order {', '.join(STAGES)})")
            last = max(last, STAGES.index(stage))
        if not str(step.get("what") or "").strip():
            problems.append(f"step {number}: no 'what' (a sentence saying what it does)")
        wall = step.get("wall_time_s")
        if wall is not None and (not isinstance(wall, (int, float)) or wall <= 0):
            problems.append(f"step {number}: wall_time_s {wall!r} is not a positive number")
        wrong = check_command(str(step.get("command") or ""))
        if wrong:
            problems.append(f"step {number}: {wrong}")
        for env in retired_envs(str(step.get("command") or "")):
            notes.append(f"step {number} needs {env}, retired (its rules changed: "
                         f"{retired()[env]} replaced it): it cannot run under this code")
    return problems, notes


# ---------------------------------------------------------------- running


def run_file_step(words: list[str]) -> None:
    """``mkdir -p`` and ``cp [-r]`` as the shell does them (``SRC/.`` copies what is in it)."""
    program, flags, paths = parse_file_step(words)
    if program == "mkdir":
        for path in paths:
            Path(path).mkdir(parents=True, exist_ok=True)
        return
    *sources, target = paths
    into = Path(target).is_dir()
    if len(sources) > 1 and not into:
        raise NotADirectoryError(f"cp: {target} is not a folder (several sources)")
    for name in sources:
        source = Path(name)
        if not source.exists():
            raise FileNotFoundError(f"cp: {source} does not exist (an earlier step writes it)")
        if source.is_dir():
            if "-r" not in flags:
                raise IsADirectoryError(f"cp: {source} is a folder: cp -r")
            contents = name.rstrip("/").endswith("/.")  # SRC/. : what is in it
            shutil.copytree(source, Path(target) / source.name if into and not contents
                            else Path(target), dirs_exist_ok=True)
        else:
            shutil.copy2(source, Path(target) / source.name if into else Path(target))


def run_meeplezoo(words: list[str]) -> int:
    """Run ``meeplezoo <words>`` in a process of its own (a step's imports and threads end
    with it); its exit status."""
    return subprocess.run([sys.executable, "-m", "meeplezoo", *words], check=False).returncode


def run_step(command: str) -> int:
    """Run one step here; its exit status."""
    words = command_words(command)
    if words[0] in FILE_STEPS:
        run_file_step(words)
        return 0
    return run_meeplezoo(words)


def describe(number: int, total: int, step: dict[str, Any]) -> str:
    """A step as ``--dry-run`` prints it: its number, stage and purpose, what is recorded of
    it, then the command."""
    wall = step.get("wall_time_s")
    facts = [f"{wall:.0f} s recorded" if wall else "wall time not recorded"]
    if step.get("code_commit"):
        facts.append(f"code {step['code_commit']}")
    if step.get("recorded") is False:  # its source says so, and what shows it was done
        facts.append(step.get("source") or "not recorded as a command")
    elif step.get("source"):
        facts.append(f"from {step['source']}")
    return (f"[{number}/{total}] {step.get('stage')}: {step.get('what')} ({'; '.join(facts)})"
            f"\n    {as_recorded(step['command'])}")


# ---------------------------------------------------------------- backfill


def backfill_steps(card: dict[str, Any]) -> list[dict[str, Any]]:
    """A reproduce list from a card's recorded fields alone: its chained ``command`` (each
    segment with its ``code_commit``), the export that evaluated it, a carry, the game
    records and the value fit.  Nothing is guessed: a step not in the fields is left out."""
    steps: list[dict[str, Any]] = []
    segments = [s for s in str(card.get("command") or "").split(" && ") if s.strip()]
    commits = [c for c in str(card.get("code_commit") or "").split(" && ") if c.strip()]
    tools = [s for s in segments if shlex.split(s)[0] not in FILE_STEPS]
    by_tool = dict(zip(tools, commits, strict=False)) if len(tools) == len(commits) else {}
    for segment in segments:
        words = command_words(segment)
        stage = {"expert-iterate": "rounds", "export": "export"}.get(words[0], "train")
        step: dict[str, Any] = {"stage": stage, "command": as_recorded(segment),
                                "what": f"{words[0]} (the card's command)"}
        if segment in by_tool:
            step["code_commit"] = by_tool[segment]
        steps.append(step)
    if len(segments) == 1 and card.get("wall_time_s") and steps[0]["stage"] == "train":
        steps[0]["wall_time_s"] = card["wall_time_s"]
    evaluations = {e.get("command"): e.get("code_commit")
                   for e in (card.get("evaluation") or {}).values()
                   if isinstance(e, dict) and e.get("command")}
    for command, commit in evaluations.items():
        if "--model" in command or "--snapshot" in command:
            steps.append({"stage": "export", "command": as_recorded(command),
                          "code_commit": commit,
                          "what": "export the trained model and evaluate it (the card's "
                                  "figures)"})
        elif "--evaluate" in command:
            steps.append({"stage": "ship", "command": as_recorded(command),
                          "code_commit": commit, "what": "evaluate it (the card's figures)"})
    if card.get("members") and card.get("command"):
        steps = [{"stage": "team", "command": as_recorded(card["command"]),
                  "code_commit": card.get("code_commit"), "what": "bundle one member per role"}]
    for carried in card.get("carried_from") or []:
        steps.append({"stage": "carry", "command": as_recorded(carried["command"]),
                      "code_commit": carried.get("code_commit"),
                      "what": f"carry the network from {carried.get('env')}"})
    fit = card.get("value_fit") or {}
    records = fit.get("records")
    for record in records if isinstance(records, list) else [records] if records else []:
        steps.append({"stage": "records", "command": as_recorded(record["command"]),
                      "code_commit": record.get("code_commit"),
                      "what": "record self-play games for the value"})
    if fit.get("command"):
        steps.append({"stage": "value", "command": as_recorded(fit["command"]),
                      "code_commit": fit.get("commit"), "wall_time_s": fit.get("wall_time_s"),
                      "what": "fit the value network on the records"})
    steps.sort(key=lambda step: STAGES.index(step["stage"]))  # stable: a chain keeps its order
    return [{k: v for k, v in s.items() if v is not None} for s in steps]


def backfill(folder: Path) -> list[Path]:
    """Write a reproduce list into every card under ``folder`` that has none; the cards
    written."""
    written = []
    for path in shipped_cards(folder):
        card = json.loads(path.read_text())
        if isinstance(card.get("reproduce"), list) and card["reproduce"]:
            continue
        note = card.get("reproduce")
        card["reproduce"] = backfill_steps(card)
        if isinstance(note, str):  # an older card's one-line note becomes its export's
            card["reproduce_note"] = note
        path.write_text(json.dumps(card, indent=2, ensure_ascii=False) + "\n")
        written.append(path)
    return written


# ---------------------------------------------------------------- the command


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="meeplezoo reproduce",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("card", nargs="?",
                        help="a card (card.json, team.json), its folder or a shipped name")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--dry-run", action="store_true", help="print the steps, run nothing")
    mode.add_argument("--check", action="store_true",
                      help="parse every step with its command's parser; report problems")
    mode.add_argument("--backfill", metavar="FOLDER",
                      help="build a list from the recorded fields of every card under FOLDER "
                           "that has none")
    parser.add_argument("--from", dest="start", type=int, default=1, metavar="N",
                        help="start at step N (1 is the first; resume after a failed step)")
    args = parser.parse_args(argv)
    if args.backfill:
        if args.card:
            parser.error("--backfill FOLDER takes no card")
        if not Path(args.backfill).is_dir():
            raise NotADirectoryError(f"--backfill {args.backfill}: not a folder")
        for path in backfill(Path(args.backfill)):
            print(f"wrote {len(json.loads(path.read_text())['reproduce'])} steps into {path}")
        return 0
    if not args.card:
        parser.error("name a card (a card.json or team.json, its folder or a shipped name "
                     "such as asian_delivery_v1/ppo_league), or --backfill FOLDER")
    path = card_path(args.card)
    steps = steps_of(json.loads(path.read_text()), str(path))
    if not 1 <= args.start <= len(steps):
        raise ConfigError(f"--from {args.start}: {path} has {len(steps)} steps, so N is "
                          f"1 to {len(steps)}")
    if args.check:
        problems, notes = check_steps(steps)
        for line in problems:
            print(f"problem: {line}")
        for line in notes:
            print(f"note: {line}")
        print(f"{path}: {len(steps)} steps, {len(problems)} problems"
              + (f", {len(notes)} cannot run under this code" if notes else ""))
        return 1 if problems else 0
    chosen = list(enumerate(steps, 1))[args.start - 1:]
    if args.dry_run:
        for number, step in chosen:
            print(describe(number, len(steps), step))
        return 0
    problems, notes = check_steps(steps)
    if problems or notes:
        raise ConfigError(f"{path} cannot run here: {'; '.join(problems + notes)} "
                          "(--dry-run prints the steps)")
    for number, step in chosen:
        print(describe(number, len(steps), step), flush=True)
        start = time.time()
        try:
            status = run_step(step["command"])
        except OSError as exc:  # a file step: what it missed
            raise SystemExit(f"step {number} failed: {exc}; fix it and resume with --from "
                             f"{number}") from None
        if status != 0:
            raise SystemExit(f"step {number} failed (exit status {status}); fix it and resume "
                             f"with --from {number}")
        print(f"    done in {time.time() - start:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(run_command(main))
