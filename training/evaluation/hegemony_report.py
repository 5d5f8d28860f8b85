"""``meeplezoo hegemony-report``: now ``meeplezoo balance --env hegemony_v1 --preset
bot-report``, kept as an alias so old command lines still run.

    meeplezoo hegemony-report --games 1000 --workers 2 --seed S [--matchups WC,table]
    # = meeplezoo balance --env hegemony_v1 --games 1000 --workers 2 --seed S \\
    #       --preset bot:WC+random,bots

Why: the bot report played the cells ``balance`` plays (the same deals and seeds, game for
game), printed its tables twice, and lacked what ``balance`` adds (the bills, the policies, a
journal, a cluster).  ``--matchups`` (class labels and ``table``) becomes the presets
``bot:CLASS+random`` and ``bots``; every other option is ``balance``'s.  The line on stderr
names the ``balance`` command it runs.  ``--json`` writes ``balance``'s report.
"""

from __future__ import annotations

import argparse
import shlex
import sys

from meeplezoo.envs.core.command import run_command
from meeplezoo.envs.hegemony.balance_stats import CLASSES
from meeplezoo.training.evaluation import balance

ENV = "hegemony_v1"
TABLE = "table"  # the 4-bot table, the preset "bots"


def balance_argv(argv: list[str]) -> list[str]:
    """The ``balance`` command line of a ``hegemony-report`` one (``--matchups`` turned into
    presets, the rest as given); a ``UsageError`` (one line) for a match-up it lacks."""
    parser = argparse.ArgumentParser(prog="meeplezoo hegemony-report", add_help=False,
                                     allow_abbrev=False)
    parser.add_argument("--matchups", default=None)
    args, rest = parser.parse_known_args(argv)
    if args.matchups is None:
        presets = "bot-report"
    else:
        wanted = [w.strip() for w in args.matchups.split(",") if w.strip()]
        unknown = [w for w in wanted if w not in (*CLASSES, TABLE)]
        if unknown or not wanted:
            parser.error(f"--matchups {args.matchups!r}: choose from {', '.join(CLASSES)} "
                         f"and {TABLE}")
        presets = ",".join(f"bot:{w}+random" if w != TABLE else "bots"
                           for w in [*CLASSES, TABLE] if w in wanted)
    return ["--env", ENV, "--preset", presets, *rest]


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if any(a in ("-h", "--help") for a in argv):  # the alias, then every option it passes on
        print(__doc__)
        balance.build_parser().print_help()
        raise SystemExit(0)
    new = balance_argv(argv)
    balance.build_parser().parse_args(new)  # a wrong option: one line, before the notice
    print(f"meeplezoo hegemony-report is now: meeplezoo balance {shlex.join(new)}",
          file=sys.stderr, flush=True)
    return balance.main(new)


if __name__ == "__main__":
    raise SystemExit(run_command(main))
