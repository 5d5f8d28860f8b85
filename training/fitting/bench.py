"""Learning throughput of MaskablePPO and where its time goes.

    meeplezoo train-bench [--env chihou_sousei_v1] [--players 4] [--steps 20000]
                             [--opponents random] [--json FILE]

One process (DummyVecEnv, torch on one thread) with the settings of the shipped
地方創生 opponent's training run (8 envs, 256x256 MLP, 512-step rollouts).
The learning time is split into: the game engine and encoders (state updates,
legal masks, observations), the opponents' choices, the learner's rollout
inference and bookkeeping, and the learner's PPO updates.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from meeplezoo import envs
from meeplezoo.envs.core.command import run_command
from meeplezoo.training.agents.specs import POOL_FORMS, add_agents_argument
from meeplezoo.training.fitting.archs import ARCHS


def run(env_name: str, players: int, steps: int, opponents: list[str], n_envs: int,
        net: list[int], seed: int = 0, arch: str = "mlp", role: str | None = None,
        progress: bool | str | None = "off") -> dict:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv

    from meeplezoo.training.fitting.seat_env import SeatEnv
    from meeplezoo.training.fitting.spatial import policy_spec

    torch.set_num_threads(1)
    timers: dict[str, float] = {"engine": 0.0, "opponents": 0.0}
    vec = DummyVecEnv([
        (lambda i=i: SeatEnv(env_name, {"num_players": players}, opponents=opponents,
                             role=role, seed=seed + i, timers=timers))
        for i in range(n_envs)
    ])
    policy, policy_kwargs = policy_spec(arch, env_name, net)
    model = MaskablePPO(policy, vec, n_steps=512, batch_size=256, n_epochs=5,
                        seed=seed, device="cpu", policy_kwargs=policy_kwargs)

    class RolloutClock(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.rollout = 0.0
            self._t0 = 0.0

        def _on_rollout_start(self) -> None:
            self._t0 = time.perf_counter()

        def _on_rollout_end(self) -> None:
            self.rollout += time.perf_counter() - self._t0

        def _on_step(self) -> bool:
            return True

    clock = RolloutClock()
    from meeplezoo.training.cli import progress_callback

    steps_done = progress_callback(f"train-bench {env_name}", progress)  # a clock read a step
    start = time.perf_counter()
    model.learn(total_timesteps=steps, callback=[clock, steps_done])
    total = time.perf_counter() - start
    done = model.num_timesteps
    engine, opp = timers["engine"], timers["opponents"]
    parts = {
        "engine_and_encoders": engine,
        "opponents_inference": opp,
        "learner_rollout_inference": clock.rollout - engine - opp,
        "learner_updates": total - clock.rollout,
    }
    return {
        "env": env_name, "players": players, "role": role, "opponents": opponents,
        "n_envs": n_envs,
        "arch": arch, "net_arch": net, "learner_steps": done, "seconds": total,
        "learner_steps_per_s": done / total,
        "seconds_by_part": parts,
        "share_by_part": {k: v / total for k, v in parts.items()},
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--env", default="chihou_sousei_v1", choices=envs.list_envs())
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--role", help="the learner's role in an asymmetric game (e.g. state)")
    p.add_argument("--steps", type=int, default=20_000)
    add_agents_argument(p, "--opponents", default=["random"], forms=POOL_FORMS,
                        metavar="OPPONENT",
                        what="the opponent pool of the timed seat env (default random)")
    p.add_argument("--n-envs", type=int, default=8)
    p.add_argument("--net", default="256,256")
    p.add_argument("--arch", choices=ARCHS, default="mlp")
    p.add_argument("--json", metavar="FILE")
    args = p.parse_args(argv)
    from meeplezoo.training.cli import require_training_extra

    require_training_extra("meeplezoo.training.fitting.bench")
    result = run(args.env, args.players, args.steps, args.opponents, args.n_envs,
                 [int(x) for x in args.net.split(",")], arch=args.arch, role=args.role,
                 progress="auto")
    who = f" as {args.role}" if args.role else ""
    print(f"{result['env']} {result['players']}p{who} vs {','.join(result['opponents'])}: "
          f"{result['learner_steps_per_s']:.0f} learner steps/s "
          f"({result['learner_steps']} steps in {result['seconds']:.1f}s)")
    for part, share in result["share_by_part"].items():
        print(f"  {part:28} {share:6.1%}  {result['seconds_by_part'][part]:7.2f}s")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(run_command(main))
