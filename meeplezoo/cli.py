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

# command -> (module, what it does)
COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("meeplezoo.training.play", "play a game in the terminal against any agent"),
    "serve": ("meeplezoo.training.web.serve", "play in your browser: the web table"),
    "train": ("meeplezoo.training.fitting.train",
              "fit an agent with MaskablePPO (self-play, roles)"),
    "improve": ("meeplezoo.training.fitting.improve", "distil a rollout search into a policy"),
    "expert-iterate": ("meeplezoo.training.fitting.expert_iteration",
                       "rounds of search play distilled into the network (policy and value)"),
    "fit-value": ("meeplezoo.training.fitting.value_fit",
                  "give an exported policy a value network (its search's leaves)"),
    "evaluate": ("meeplezoo.training.evaluation.evaluate", "win rates of agents against fields"),
    "arena": ("meeplezoo.training.evaluation.arena", "seat-rotated tables and Elo ratings"),
    "benchmark": ("meeplezoo.training.evaluation.benchmark",
                  "the frozen benchmark protocol: an agent against fixed references"),
    "selfplay": ("meeplezoo.training.evaluation.selfplay",
                 "game records for value fitting and research"),
    "levels": ("meeplezoo.training.evaluation.levels",
               "a network's difficulty levels: strength against it alone, and cost"),
    "export": ("meeplezoo.training.export", "ship a trained policy as ONNX with its card"),
    "balance": ("meeplezoo.training.evaluation.balance", "class balance report on paired deals"),
    "exploit": ("meeplezoo.training.evaluation.exploit", "a best response's gain against a team"),
    "action-counts": ("meeplezoo.training.evaluation.action_counts",
                      "how often each role chooses and could choose each action"),
    "zoo": ("meeplezoo.training.agents.zoo", "list the shipped opponents and their figures"),
    "demo": ("meeplezoo.training.demo", "the main job: train, evaluate and play briefly"),
    "bench": ("meeplezoo.envs.bench", "engine and bot speed of every game"),
    "train-bench": ("meeplezoo.training.fitting.bench", "where the learning time goes"),
    "soak": ("meeplezoo.envs.core.soak", "many random games with the invariants checked"),
    "save-fuzz": ("meeplezoo.envs.core.save_fuzz", "tampered saves must be refused"),
    "playthrough": ("meeplezoo.envs.playthrough", "golden transcripts: check or regenerate"),
    "hegemony-report": ("meeplezoo.training.evaluation.hegemony_report",
                        "now balance --env hegemony_v1 --preset bot-report (an alias)"),
    "rllib-train": ("meeplezoo.training.rllib.train", "multi-agent PPO on a Ray cluster"),
    "rllib-export": ("meeplezoo.training.rllib.export", "ship an RLlib policy as ONNX"),
}


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
