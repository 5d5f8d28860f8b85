"""ChihouBot's decisions are pinned: speed-ups must not change a single choice.

``bot_reference.json`` holds the action sequences of whole games played by the
bot (and by the bot against ``RandomBot``), recorded before the bot and the
engine were optimised.  Regenerate only on a deliberate change of the bot's
play: ``python -m tests.chihou_sousei.test_bot_reference``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from meeplezoo import envs
from meeplezoo.envs.core.agents import RandomBot

FIXTURE = Path(__file__).with_name("bot_reference.json")


def _cases() -> list[dict[str, Any]]:
    """Seeds 0..29 for 2-4 all-bot players, the optional rules, and mixed tables."""
    cases: list[dict[str, Any]] = []
    for n in (2, 3, 4):
        for seed in range(30):
            cases.append({"n": n, "options": {}, "seed": seed, "random": []})
    options = {"forced_move_any_player": True, "population_scoring": "mode"}
    for n in (2, 3, 4):
        for seed in range(5):
            cases.append({"n": n, "options": options, "seed": 100 + seed, "random": []})
    for n in (2, 3, 4):
        for seed in range(3):
            seats = [k for k in range(n) if (k + seed) % 2 == 0]
            cases.append({"n": n, "options": {}, "seed": 200 + seed, "random": seats})
            cases.append({"n": n, "options": options, "seed": 300 + seed, "random": seats})
    return cases


def _bots(case: dict[str, Any]) -> list[Any]:
    game = envs.make_game("chihou_sousei_v1", num_players=case["n"], **case["options"])
    return [
        RandomBot(1000 + k) if k in case["random"] else game.heuristic_bot(k)
        for k in range(case["n"])
    ]


def play(case: dict[str, Any], expected: list[int] | None = None) -> list[int]:
    """Play one case; with ``expected``, stop at the first differing decision."""
    game = envs.make_game("chihou_sousei_v1", num_players=case["n"], **case["options"])
    state = game.new_initial_state(case["seed"])
    bots = _bots(case)
    actions: list[int] = []
    while not state.is_terminal():
        action = int(bots[state.current_player()].act(state))
        if expected is not None:
            step = len(actions)
            assert step < len(expected), f"{case}: game runs past the recorded end"
            assert action == expected[step], (
                f"{case}: decision {step} is {action}, recorded {expected[step]}"
            )
        actions.append(action)
        state.apply(action)
    return actions


def test_bot_decisions_unchanged():
    recorded = json.loads(FIXTURE.read_text())
    assert len(recorded) == len(_cases())
    for entry in recorded:
        case = {k: entry[k] for k in ("n", "options", "seed", "random")}
        assert play(case, entry["actions"]) == entry["actions"], case


def main() -> None:
    """Write the fixture, one game per line."""
    lines = [json.dumps({**case, "actions": play(case)}) for case in _cases()]
    FIXTURE.write_text("[\n" + ",\n".join(lines) + "\n]\n")


if __name__ == "__main__":
    main()
