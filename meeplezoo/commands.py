"""The table of ``meeplezoo`` commands: each name, the module whose ``main(argv)`` runs it,
and what it does.

Data only, importing nothing: ``meeplezoo.cli`` dispatches by it, and
``envs.core.command`` names a command run as ``python -m <its module>`` by it (``meeplezoo
export: ...``), without importing the command line above it.  A recorded command
(``meeplezoo balance ...`` in cards and reports) names the command, never the module, so a
module may move: its row here moves with it.
"""

from __future__ import annotations

# command -> (module, what it does)
COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("meeplezoo.training.play", "play a game in the terminal against any agent"),
    "serve": ("meeplezoo.training.web.serve", "play in your browser: the web table"),
    "train": ("meeplezoo.training.fitting.train",
              "fit an agent with MaskablePPO (self-play, roles)"),
    "improve": ("meeplezoo.training.fitting.improve", "distil a rollout search into a policy"),
    "expert-iterate": ("meeplezoo.training.expert_iterate",
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
    "metagame": ("meeplezoo.training.evaluation.metagame",
                 "per-class strategy populations: payoff table, Nash, α-Rank, PSRO"),
    "action-counts": ("meeplezoo.training.evaluation.action_counts",
                      "how often each role chooses and could choose each action"),
    "reproduce": ("meeplezoo.training.reproduce",
                  "the commands that made a shipped network, from its card: print, check, run"),
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
