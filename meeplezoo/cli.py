"""The ``meeplezoo`` command: one entry point for every tool of the suite.

    meeplezoo play --env chihou_sousei_v1 ...      # = meeplezoo play ...
    meeplezoo --help                                # the commands and what each does

Each command is a module's ``main(argv)``; its own ``--help`` says the rest.  Modules are
imported only when their command runs, so ``meeplezoo play`` needs no torch.  Every command
runs through ``envs.core.command.run_command``, as ``python -m <its module>`` does: a user
error is one line and exit status 2, ``--debug`` anywhere shows the traceback; long jobs
report progress on stderr (``envs.core.progress``).
"""

from __future__ import annotations

import importlib
import sys

from meeplezoo.commands import COMMANDS  # command -> (module, what it does)


def usage() -> str:
    width = max(map(len, COMMANDS))
    lines = ["usage: meeplezoo <command> [options]   (meeplezoo <command> --help for more)",
             "", "commands:"]
    lines += [f"  {name:<{width}}  {text}" for name, (_, text) in COMMANDS.items()]
    lines += ["", "--debug anywhere on a command line shows the traceback of an error (a user "
              "error is otherwise one line)."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from meeplezoo.envs.core.command import DEBUG_FLAG, run_command, strip_debug

    argv = list(sys.argv[1:] if argv is None else argv)
    words, debug = strip_debug(argv)
    if not words or words[0] in ("-h", "--help", "help"):
        print(usage())
        return 0
    command, rest = words[0], words[1:]
    if command not in COMMANDS:
        print(f"meeplezoo: unknown command {command!r}; commands are: "
              f"{', '.join(COMMANDS)} (meeplezoo --help says what each does)", file=sys.stderr)
        return 2
    name, path = f"meeplezoo {command}", COMMANDS[command][0]
    sys.argv[0] = name  # argparse names the command in its usage lines

    def run(args: list[str]) -> int | None:  # imported here: a missing extra is one line too
        return importlib.import_module(path).main(args)

    return run_command(run, [*rest, *([DEBUG_FLAG] if debug else [])], name=name, module=path)


if __name__ == "__main__":
    raise SystemExit(main())
