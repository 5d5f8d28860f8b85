"""How every ``meeplezoo`` command runs: a user error is one line, a bug a traceback.

    if __name__ == "__main__":
        raise SystemExit(run_command(main))

``meeplezoo <command>`` (``meeplezoo.cli``) and ``python -m <the command's module>`` both run
the module's ``main(argv)`` through ``run_command``.  A user error is then one line on
stderr, ``meeplezoo <command>: <what was wrong and what to do>``, and exit status 2:

- an argparse refusal (an unknown option, a bad choice, a missing argument, and every
  ``parser.error``), without argparse's usage block: the line names ``--help`` instead;
- an error of the package's own (``envs.core.errors.MeepleZooError`` and its subclasses,
  among them ``training.zoo.CheckpointError``);
- a path that is missing or of the wrong kind (``FileNotFoundError`` and its kin);
- an optional package that is not installed (which extra to install);
- ``SystemExit("message")``, the commands' own refusals.

Ctrl-C ends with one line and status 130, SIGTERM with one line and status 143: both run the
command's clean-up on the way out, so no worker process outlives it (``envs.core.workers``).
Any other exception is a bug and keeps its
traceback.  ``--debug`` anywhere on the command line shows the traceback of every error
(argparse then prints its usage as usual).
"""

from __future__ import annotations

import argparse
import sys
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress

from meeplezoo.commands import COMMANDS
from meeplezoo.envs.core.errors import MeepleZooError
from meeplezoo.envs.core.workers import Stopped, stop_on_sigterm

DEBUG_FLAG = "--debug"
USER_ERROR = 2  # the exit status of a user error (argparse's own)
INTERRUPTED = 130  # the shell's for Ctrl-C
PATH_ERRORS = (FileNotFoundError, NotADirectoryError, IsADirectoryError, PermissionError)
# an optional package (import name) -> the extra that installs it
EXTRAS = {"torch": "train", "stable_baselines3": "train", "sb3_contrib": "train",
          "onnx": "train", "onnxscript": "train", "tensorboard": "train", "tqdm": "play",
          "onnxruntime": "play", "openskill": "play", "ray": "rllib", "matplotlib": "report",
          "starlette": "web", "uvicorn": "web"}

Main = Callable[[list[str]], "int | None"]


class UsageError(Exception):
    """A command line argparse refused: raised in place of argparse's usage block and exit
    while ``run_command`` runs a command (not a ``MeepleZooError``: a command's own
    ``except MeepleZooError`` must not catch it)."""


def strip_debug(argv: list[str]) -> tuple[list[str], bool]:
    """``argv`` without ``--debug``, and whether it was there."""
    return [a for a in argv if a != DEBUG_FLAG], DEBUG_FLAG in argv


def module_of(main: Callable) -> str:
    """The module that defines ``main`` (its real name when it runs as ``__main__``)."""
    module = getattr(main, "__module__", None) or ""
    if module == "__main__":
        spec = getattr(sys.modules.get("__main__"), "__spec__", None)
        module = spec.name if spec is not None else module
    return module


def command_name(module: str) -> str:
    """``meeplezoo train`` for ``meeplezoo.training.fitting.train``; ``python -m <module>`` for a
    module that is no command.  The names come from ``meeplezoo.commands``, the table that
    ``meeplezoo.cli`` dispatches by (data: the command line itself is never imported here)."""
    for name, (path, _) in COMMANDS.items():
        if path == module:
            return f"meeplezoo {name}"
    return f"python -m {module}" if module else "meeplezoo"


def user_message(exc: BaseException, name: str) -> str | None:
    """The one line (without the command's name) for a user error; None for a bug."""
    if isinstance(exc, UsageError):
        return f"{exc} (see {name} --help)"
    if isinstance(exc, MeepleZooError):
        return str(exc) or type(exc).__name__
    if isinstance(exc, PATH_ERRORS):
        if exc.filename is not None:
            what = (exc.strerror or "cannot be used").lower()
            return f"{exc.filename}: {what}; check the path"
        return str(exc)
    if isinstance(exc, ModuleNotFoundError):
        package = (exc.name or "").split(".")[0]
        if package in EXTRAS:
            return (f"needs {package}, which is not installed: pip install "
                    f"'meeplezoo[{EXTRAS[package]}]' (the train and rllib extras want the CPU "
                    "torch wheel first: pip install torch==2.13.0)")
    return None


def strip_own_name(message: str, name: str, module: str) -> str:
    """A command's message without the name it starts with (``evaluate: ...``,
    ``training.arena: ...``, ``error: ...``): the line names the command once."""
    tail = module.rsplit(".", 1)[-1]
    names = {"error", name, name.split()[-1], tail, module, module.removeprefix("meeplezoo."),
             f"training.{tail}"}
    for own in sorted(names, key=len, reverse=True):
        if own and message.startswith(own + ": "):
            return message[len(own) + 2:]
    return message


@contextmanager
def usage_errors_raise() -> Iterator[None]:
    """While it lasts, argparse's ``error`` raises ``UsageError`` instead of printing the
    usage block and exiting (every parser of the command, built wherever it is)."""
    original = argparse.ArgumentParser.error

    def error(parser: argparse.ArgumentParser, message: str) -> None:
        raise UsageError(message)

    argparse.ArgumentParser.error = error  # type: ignore[method-assign]
    try:
        yield
    finally:
        argparse.ArgumentParser.error = original  # type: ignore[method-assign]


def fail(name: str, message: str, status: int = USER_ERROR) -> int:
    """Print the error line (after whatever stdout holds) and return the exit status."""
    with suppress(OSError, ValueError):
        sys.stdout.flush()
    print(f"{name}: {message}", file=sys.stderr, flush=True)
    return status


def run_command(main: Main, argv: list[str] | None = None, *, name: str | None = None,
                module: str | None = None) -> int:
    """Run ``main(argv)`` (default: this process's arguments) as the module docstring
    says; returns the exit status.  ``name`` (default: from ``module``, itself by default
    ``main``'s module) starts every error line."""
    own_process = argv is None
    argv, debug = strip_debug(list(sys.argv[1:] if argv is None else argv))
    module = module or module_of(main)
    name = name or command_name(module)
    if own_process:  # python -m <module>: argparse's usage names the command
        sys.argv[0] = name
    try:
        with stop_on_sigterm():
            if debug:
                return int(main(argv) or 0)
            with usage_errors_raise():
                return int(main(argv) or 0)
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            raise
        if debug:
            traceback.print_exc()
        return fail(name, strip_own_name(str(exc.code), name, module))
    except KeyboardInterrupt as exc:
        if debug:
            raise
        if isinstance(exc, Stopped):
            return fail(name, str(exc), 128 + exc.signum)
        return fail(name, "interrupted", INTERRUPTED)
    except Exception as exc:
        message = None if debug else user_message(exc, name)
        if message is None:
            raise
        return fail(name, message)
