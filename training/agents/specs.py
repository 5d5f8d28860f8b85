"""How a command line names agents: one syntax and one help text for every command.

Every command that takes agents (``arena``, ``evaluate``, ``selfplay``, ``levels``,
``play``, ``balance``, ``action-counts``, ``train``, ...) reads them the same way:

    --agents a b,c          # a, b and c: space-separated, comma-separated, or both
    --agents a --agents b   # the flag repeated adds to the list

A spec is one of ``FORMS``: ``random``, ``heuristic``, a checkpoint or team folder, a zoo
name ``<env>/<name>``, a network at a difficulty level ``NETWORK@LEVEL``, or a Python
agent ``package.module:attribute``.  No form holds a comma (zoo names, levels and Python
names cannot; a folder whose path has one is kept whole when it exists), so a comma can
always split a list.  A Python agent is imported with the current folder first on
``sys.path``, as ``python -m`` puts it there: an agent file in the folder a command runs
from works without ``PYTHONPATH`` (``opponents.import_agent``).

This module sits under the agents' loaders (it imports only ``zoo``), so each of them and
each command can use it.
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from meeplezoo.training.agents.zoo import find_checkpoint

# The difficulty levels' names (``bots.LEVELS``, which a test keeps equal to these): written
# here so that a command's --help costs no import of the search.
LEVEL_NAMES = ("easy", "medium", "hard", "expert")

# What a spec may be, once for every --help (argparse formats help with %: none here).
BUILT_IN_FORMS = ("random, heuristic, a checkpoint or team folder, a zoo name <env>/<name> "
                  "(meeplezoo zoo lists them)")
LEVEL_FORM = ("a network at a difficulty level NETWORK@LEVEL (" + ", ".join(LEVEL_NAMES)
              + ")")
PYTHON_FORM = ("a Python agent package.module:attribute (an object with act(observation, "
               "mask), a function of the two, a state bot with act(state), or a class of "
               "those built without arguments; imported from the current folder first, as "
               "python -m does)")


def forms(levels: bool = True, extra: Sequence[str] = ()) -> str:
    """The forms a flag takes, in one wording for every command: the built-in bots, folders
    and zoo names, ``NETWORK@LEVEL`` where the command plays levels (``levels``), the
    command's ``extra`` forms, then ``package.module:attribute``."""
    parts = [BUILT_IN_FORMS, *([LEVEL_FORM] if levels else []), *extra]
    return ", ".join(parts) + ", or " + PYTHON_FORM


# Every form: what the evaluation commands and play take.
FORMS = forms()
# A training opponent pool's forms (train, train-bench): every form, the learner's own
# snapshots, and weights.
POOL_FORMS = (forms(extra=["self (the learner's own snapshots: a league)"])
              + "; each optionally weighted SPEC=WEIGHT (self=3: three times as often) and, "
              "in a game with roles, bound to one ROLE:SPEC (drawn for that role's seats "
              "only)")
# How several are given, for the flags that take a list.
LIST_SYNTAX = "several: separated by spaces or commas, or the flag repeated (a b,c = a, b, c)"


def agents_help(what: str, forms: str = FORMS, several: bool = True) -> str:
    """A flag's help with its forms inline: ``what`` it is for, the forms a spec may take
    and (``several``) how to give more than one.  ``forms`` is for a flag that takes fewer
    or more forms than ``FORMS`` (say so, so that --help never lists a form the command
    refuses)."""
    return f"{what}: {forms}" + (f"; {LIST_SYNTAX}" if several else "")


def describe_forms(parser: argparse.ArgumentParser, metavar: str, forms: str = FORMS) -> None:
    """Say once, under the options of ``parser``'s --help, what each ``metavar`` may be
    (every flag that takes one then points there instead of repeating it)."""
    paragraph = textwrap.fill(f"{metavar}: {forms}.", width=79)
    epilog = parser.epilog or ""
    if paragraph not in epilog:
        parser.epilog = f"{epilog}\n\n{paragraph}" if epilog else paragraph


def is_python_spec(spec: Any) -> bool:
    """Whether a spec names a Python agent (``package.module:attribute``) rather than a
    checkpoint folder or zoo name that happens to hold a colon."""
    if not isinstance(spec, str) or ":" not in spec:
        return False
    return find_checkpoint(spec) is None and not Path(spec).exists()


def split_specs(values: Iterable[str]) -> list[str]:
    """``["a", "b,c"]`` -> ``["a", "b", "c"]``: each value split at its commas, blanks
    dropped.  A value that is an existing path is kept whole (a folder may hold a comma;
    no other form can)."""
    specs: list[str] = []
    for value in values:
        if "," in value and Path(value).exists():
            specs.append(value)
            continue
        specs.extend(part.strip() for part in value.split(",") if part.strip())
    return specs


class SpecList(argparse.Action):
    """``nargs="+"`` with commas: every use of the flag adds its values, split at commas
    (``split_specs``), to one list.  The flag's first use replaces the default rather
    than adding to it (``--field random`` is the field random, not the default plus
    random).  A positional with ``nargs="*"`` may be left empty."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None) -> None:
        given = [values] if isinstance(values, str) else list(values or [])
        specs = split_specs(str(v) for v in given)
        if not specs and self.nargs != argparse.ZERO_OR_MORE:
            parser.error(f"{option_string}: name at least one agent ({FORMS})")
        current = getattr(namespace, self.dest, None)
        # argparse set the default object itself; a later use of the flag finds a new list
        start = [] if current is None or current is self.default else list(current)
        setattr(namespace, self.dest, start + specs)


def add_agents_argument(parser: argparse.ArgumentParser, *flags: str, what: str,
                        forms: str = FORMS, default: Sequence[str] | None = None,
                        required: bool = False, metavar: str = "AGENT",
                        group: Any = None) -> argparse.Action:
    """Add a flag that takes a list of agent specs (``SpecList``): its help says ``what``
    it is for and how to give several, and ``parser``'s --help says once, below the
    options, what a ``metavar`` may be (``forms``).  ``group``: add the flag to this
    argument group of ``parser`` instead.  The parsed value is a list of spec strings
    (``default`` when the flag is not given: a list, or None).  A positional (a name
    without dashes) takes any number of agents, none included, unless ``required``."""
    describe_forms(parser, metavar, forms)
    positional = not flags[0].startswith("-")
    how: dict[str, Any] = ({"nargs": "+" if required else "*"} if positional
                           else {"nargs": "+", "required": required})
    return (group or parser).add_argument(
        *flags, action=SpecList, default=None if default is None else list(default),
        metavar=metavar, help=f"{what}; each {metavar} as below; {LIST_SYNTAX}", **how)


def with_cwd_on_path() -> None:
    """Put the current folder first on ``sys.path`` when it is not there, as ``python -m``
    does, so that ``package.module:attribute`` finds a module of the folder a command runs
    from (the ``meeplezoo`` script's own ``sys.path[0]`` is its bin folder).  It stays there:
    the agent may import more of its folder later, and worker processes inherit it."""
    here = os.getcwd()
    if not any(entry in ("", ".") or os.path.abspath(entry) == here for entry in sys.path):
        sys.path.insert(0, here)
