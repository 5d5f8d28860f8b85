"""The ``meeplezoo`` command: one entry point for every tool of the suite.

    meeplezoo play --env chihou_sousei_v1 ...      # = python -m meeplezoo.training.play ...
    meeplezoo --help                                # the commands and what each does

Each command is a module's ``main(argv)``; its own ``--help`` says the rest.  Modules are
imported only when their command runs, so ``meeplezoo play`` needs no torch.
"""

from __future__ import annotations

import importlib
import sys

# command -> (module, what it does)
COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("meeplezoo.training.play", "play a game in the terminal against any agent"),
    "train": ("meeplezoo.training.train", "fit an agent with MaskablePPO (self-play, roles)"),
    "improve": ("meeplezoo.training.improve", "distil a rollout search into a policy"),
    "evaluate": ("meeplezoo.training.evaluate", "win rates of agents against fields"),
    "arena": ("meeplezoo.training.arena", "seat-rotated tables and Elo ratings"),
    "export": ("meeplezoo.training.export", "ship a trained policy as ONNX with its card"),
    "balance": ("meeplezoo.training.balance", "class balance report on paired deals"),
    "exploit": ("meeplezoo.training.exploit", "a best response's gain against a team"),
    "action-counts": ("meeplezoo.training.action_counts",
                      "how often each role chooses and could choose each action"),
    "zoo": ("meeplezoo.training.zoo", "list the shipped opponents and their figures"),
    "demo": ("meeplezoo.training.demo", "the main job: train, evaluate and play briefly"),
    "bench": ("meeplezoo.envs.bench", "engine and bot speed of every game"),
    "train-bench": ("meeplezoo.training.bench", "where the learning time goes"),
    "soak": ("meeplezoo.envs.core.soak", "many random games with the invariants checked"),
    "save-fuzz": ("meeplezoo.envs.core.save_fuzz", "tampered saves must be refused"),
    "playthrough": ("meeplezoo.envs.playthrough", "golden transcripts: check or regenerate"),
    "hegemony-report": ("meeplezoo.envs.hegemony.report", "Hegemony's bot class report"),
    "rllib-train": ("meeplezoo.training.rllib.train", "multi-agent PPO on a Ray cluster"),
    "rllib-export": ("meeplezoo.training.rllib.export", "ship an RLlib policy as ONNX"),
}


def usage() -> str:
    width = max(map(len, COMMANDS))
    lines = ["usage: meeplezoo <command> [options]   (meeplezoo <command> --help for more)",
             "", "commands:"]
    lines += [f"  {name:<{width}}  {text}" for name, (_, text) in COMMANDS.items()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(usage())
        return 0
    command, rest = argv[0], argv[1:]
    if command not in COMMANDS:
        print(f"meeplezoo: unknown command {command!r}; commands are: "
              f"{', '.join(COMMANDS)}", file=sys.stderr)
        return 2
    module = importlib.import_module(COMMANDS[command][0])
    sys.argv[0] = f"meeplezoo {command}"  # argparse names the command in its usage lines
    result = module.main(rest)
    return int(result or 0)


if __name__ == "__main__":
    raise SystemExit(main())
