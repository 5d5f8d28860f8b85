"""Pinned heuristic-bot games: speed-ups must not change a single choice.

Each game's ``tests/<game>/bot_reference.json`` holds the action sequences of whole
games played by its heuristic bot in every seat, with the game's variants switched
to their first alternative, and of mixed tables where some seats play ``RandomBot``.
They were recorded before the engines and bots were optimised.  Regenerate one
only on a deliberate change of the bot's play or of the rules (a new env version):
``python -m tests.bot_reference <env name>``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from meeplezoo import envs
from meeplezoo.envs.core.agents import RandomBot

ROOT = Path(__file__).parent

# env -> (player counts, all-bot games per count, mixed games per count)
PLAN = {
    "asian_delivery_v1": ((3, 4, 5), 6, 2),
    "necropolis_railway_v1": ((1, 2, 3, 4), 8, 2),
    "hegemony_v1": ((4,), 4, 2),
}


def fixture(env_name: str) -> Path:
    return ROOT / env_name.rsplit("_v", 1)[0] / "bot_reference.json"


def variant_options(env_name: str) -> dict[str, Any]:
    """Every option set to the first value that is not its default."""
    options = envs.game_class(env_name).options
    chosen = {}
    for key, option in options.items():
        others = [v for v in option.choices if v != option.default]
        if others:
            chosen[key] = others[0]
    return chosen


def chihou_cases() -> list[dict[str, Any]]:
    """地方創生's cases (recorded first, on 2026-11-30): seeds 0..29 for 2-4 all-bot
    players, the optional rules, and mixed tables."""
    out: list[dict[str, Any]] = []
    for n in (2, 3, 4):
        for seed in range(30):
            out.append({"n": n, "options": {}, "seed": seed, "random": []})
    options = {"forced_move_any_player": True, "population_scoring": "mode"}
    for n in (2, 3, 4):
        for seed in range(5):
            out.append({"n": n, "options": options, "seed": 100 + seed, "random": []})
    for n in (2, 3, 4):
        for seed in range(3):
            seats = [k for k in range(n) if (k + seed) % 2 == 0]
            out.append({"n": n, "options": {}, "seed": 200 + seed, "random": seats})
            out.append({"n": n, "options": options, "seed": 300 + seed, "random": seats})
    return out


def cases(env_name: str) -> list[dict[str, Any]]:
    """All-bot games with the defaults and with the variants, then mixed tables."""
    if env_name == "chihou_sousei_v1":
        return chihou_cases()
    counts, bot_games, mixed_games = PLAN[env_name]
    variants = variant_options(env_name)
    out: list[dict[str, Any]] = []
    for n in counts:
        for seed in range(bot_games):
            options = variants if seed % 2 else {}
            out.append({"n": n, "options": options, "seed": seed, "random": []})
        for seed in range(mixed_games):
            seats = [k for k in range(n) if (k + seed) % 2 == 0]
            out.append({"n": n, "options": {}, "seed": 200 + seed, "random": seats})
    return out


def play(env_name: str, case: dict[str, Any], expected: list[int] | None = None) -> list[int]:
    """Play one case; with ``expected``, stop at the first differing decision."""
    config = {"num_players": case["n"], **case["options"]}
    game = envs.make_game(env_name, **config)
    state = game.new_initial_state(case["seed"])
    bots = [RandomBot(1000 + k) if k in case["random"] else game.heuristic_bot(k)
            for k in range(case["n"])]
    actions: list[int] = []
    while not state.is_terminal():
        action = int(bots[state.current_player()].act(state))
        if expected is not None:
            step = len(actions)
            assert step < len(expected), f"{env_name} {case}: game runs past the recorded end"
            assert action == expected[step], (
                f"{env_name} {case}: decision {step} is {action}, recorded {expected[step]}")
        actions.append(action)
        state.apply(action)
    return actions


def check(env_name: str) -> None:
    """Replay every recorded game of ``env_name`` and compare each decision."""
    recorded = json.loads(fixture(env_name).read_text())
    assert [{k: e[k] for k in ("n", "options", "seed", "random")} for e in recorded] \
        == cases(env_name), "the recorded cases differ from cases(); regenerate deliberately"
    for entry in recorded:
        case = {k: entry[k] for k in ("n", "options", "seed", "random")}
        assert play(env_name, case, entry["actions"]) == entry["actions"], case


def record(env_name: str) -> None:
    """Write the fixture, one game per line."""
    lines = [json.dumps({**case, "actions": play(env_name, case)}) for case in cases(env_name)]
    fixture(env_name).write_text("[\n" + ",\n".join(lines) + "\n]\n")


if __name__ == "__main__":
    for name in sys.argv[1:] or sorted(PLAN):  # 地方創生's by name only
        record(name)
        print(f"wrote {fixture(name)}")
