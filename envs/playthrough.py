"""Golden playthroughs: seeded transcripts that make every change of behaviour a diff.

    meeplezoo playthrough --regenerate            # rewrite every transcript
    meeplezoo playthrough --check                 # compare, exit 1 on a difference
    meeplezoo playthrough --env necropolis_railway_v1 --players 2 --print

A transcript is one seeded game per env and player count, played through the
PettingZoo API by a seeded random policy.  Each decision is a line with the
acting agent, the decision kind, the action's id and name, the rewards paid,
and a short digest of every agent's observation and of the acting agent's
mask; the game ends with each seat's score and breakdown.  The test suite
replays them (``tests/test_playthroughs.py``): a rule change, a new feature or
a changed random stream shows up as a reviewed diff of
``tests/playthroughs/*.txt``, as in OpenSpiel's integration playthroughs.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import json
from pathlib import Path

import numpy as np

from meeplezoo import envs
from meeplezoo.envs.core.command import run_command

ROOT = Path(__file__).resolve().parents[1] / "tests" / "playthroughs"
GAME_SEED = 20261130
POLICY_SEED = 7


def digest(array: np.ndarray) -> str:
    """Eight hex digits of an array's bytes (dtype and shape included)."""
    data = np.ascontiguousarray(array)
    head = f"{data.dtype.str}{data.shape}".encode()
    return hashlib.sha256(head + data.tobytes()).hexdigest()[:8]


def _number(x: float) -> str:
    return f"{x:.6g}"


def transcript(env_name: str, players: int, seed: int = GAME_SEED) -> list[str]:
    """The transcript of one seeded random game of ``env_name`` at ``players``."""
    env = envs.make_raw(env_name, num_players=players)
    rng = np.random.default_rng(POLICY_SEED)
    env.reset(seed=seed)
    lines = [f"# {env_name} num_players={players} seed={seed} policy=random({POLICY_SEED})",
             "# step agent decision action=id:name | obs digests per agent | mask | rewards"]
    step = 0
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        state = env.state
        observed = {a: env.observe(a) for a in env.possible_agents}
        mask = observed[agent]["action_mask"]
        legal = np.flatnonzero(mask)
        action = int(legal[rng.integers(legal.size)])
        obs_part = " ".join(digest(observed[a]["observation"]) for a in env.possible_agents)
        decision = state.decision_name()
        name = env.action_name(action, agent)
        env.step(action)
        rewards = " ".join(_number(env.rewards[a]) for a in env.possible_agents)
        lines.append(f"{step} {agent} {decision} {action}:{name} | {obs_part} | "
                     f"{digest(mask)} {int(mask.sum())} | {rewards}")
        step += 1
    state = env.state
    lines.append(f"# end after {step} decisions, truncated={any(env.truncations.values())}")
    for seat, (score, parts) in enumerate(zip(state.scores(), state.score_breakdown())):
        shown = json.dumps({k: float(v) for k, v in parts.items()}, sort_keys=True)
        lines.append(f"# seat {seat} score {_number(score)} {shown}")
    return lines


def cases() -> list[tuple[str, int]]:
    """Every registered MeepleZoo env (test toys excluded) at every player count."""
    out = []
    for name in envs.list_envs():
        module = envs._MODULES[name]
        if not module.startswith("meeplezoo.envs."):
            continue
        game = envs.game_class(name)
        out += [(name, n) for n in range(game.min_players, game.max_players + 1)]
    return out


def path_for(env_name: str, players: int) -> Path:
    return ROOT / f"{env_name}_{players}p.txt"


def compare(env_name: str, players: int) -> list[str]:
    """The unified diff between the stored transcript and a fresh one (empty: equal)."""
    path = path_for(env_name, players)
    fresh = transcript(env_name, players)
    stored = path.read_text().splitlines() if path.exists() else []
    return list(difflib.unified_diff(stored, fresh, str(path), "fresh", lineterm="", n=1))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = p.add_mutually_exclusive_group(required=True)
    mode.add_argument("--regenerate", action="store_true", help="rewrite the transcripts")
    mode.add_argument("--check", action="store_true", help="compare; exit 1 on a difference")
    mode.add_argument("--print", action="store_true", help="print a fresh transcript")
    p.add_argument("--env", help="one env (default: all)")
    p.add_argument("--players", type=int, help="one player count (default: all)")
    args = p.parse_args(argv)
    chosen = [(e, n) for e, n in cases()
              if args.env in (None, e) and args.players in (None, n)]
    if not chosen:
        asked = " ".join(f"{flag} {value}" for flag, value in (("--env", args.env),
                                                               ("--players", args.players))
                         if value is not None)
        p.error(f"{asked}: no golden playthrough; there are "
                + ", ".join(f"{env} {n}p" for env, n in cases()))
    status = 0
    for env_name, players in chosen:
        if args.print:
            print("\n".join(transcript(env_name, players)))
        elif args.regenerate:
            ROOT.mkdir(parents=True, exist_ok=True)
            path_for(env_name, players).write_text("\n".join(transcript(env_name, players)) + "\n")
            print(f"wrote {path_for(env_name, players)}")
        else:
            diff = compare(env_name, players)
            if diff:
                status = 1
                print("\n".join(diff[:40]))
            print(f"{env_name} {players}p: {'differs' if diff else 'same'}")
    return status


if __name__ == "__main__":
    raise SystemExit(run_command(main))
