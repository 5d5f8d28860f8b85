"""``meeplezoo expert-iterate``: rounds of search play distilled into the network, each
round's network kept only if it passes the arena's paired gate.

    meeplezoo expert-iterate --checkpoint asian_delivery_v1/ppo_league --players 4 \\
        --rounds 4 --games 200 --gate-games 400 --seed 1 --out runs/exit/asian

The rounds (search play, fitting, the journal, ``--help``) are
``fitting.expert_iteration``'s, whose docstring says what a round does; the gate's
comparison is ``evaluation.arena.paired``.  ``fitting/`` sits below ``evaluation/``
(ARCHITECTURE.md), so this command, above both, hands the one to the other.
"""

from __future__ import annotations

from meeplezoo.envs.core.command import run_command
from meeplezoo.training.evaluation.arena import paired
from meeplezoo.training.fitting.expert_iteration import iterate


def main(argv: list[str] | None = None) -> int:
    return iterate(argv, compare=paired)


if __name__ == "__main__":
    raise SystemExit(run_command(main))
