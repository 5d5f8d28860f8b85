"""Multi-agent PPO with Ray RLlib: self-play with one policy per role (one shared policy
in a symmetric game), on this machine or on a Ray cluster.

    meeplezoo rllib-train --env necropolis_railway_v1 --players 2 \
        --num-env-runners 2 --iterations 50 --out runs/rl [--address auto]

Writes ``<out>/tb`` (TensorBoard: RLlib's sampler and learner metrics per module, each
role's self-play win share, env steps/s, and the win rates against ``--eval-fields``),
``<out>/checkpoint`` (``Algorithm.save_to_path``), ``<out>/run.json`` and the exported
policies ``<out>/export/<env>/<name>`` (``training.rllib.export``), which are also what
the win rates are measured with (``training.evaluate.versus_field``, seat-rotated).
Without ``--address`` Ray runs here, with its files in ``--ray-temp-dir``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import sys
import time
from pathlib import Path
from typing import Any

from meeplezoo import envs
from meeplezoo.envs.core.command import run_command
from meeplezoo.envs.core.errors import ConfigError
from meeplezoo.envs.core.progress import Progress
from meeplezoo.envs.core.rewards import REWARD_KINDS
from meeplezoo.training.agents.specs import FORMS, add_agents_argument, is_python_spec
from meeplezoo.training.cli import code_commit, parse_options

ALGORITHM = "PPO (Ray RLlib 2.60.0, new API stack, multi-agent self-play)"


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description="Multi-agent PPO (Ray RLlib) on a MeepleZoo env")
    p.add_argument("--env", required=True, help=f"env name, e.g. {', '.join(envs.list_envs())}")
    p.add_argument("--players", type=int, default=None, help="player count (default the game's)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="game option")
    p.add_argument("--register", action="append", default=[], metavar="NAME=MODULE",
                   help="an env outside the suite: its module (env/raw_env), importable on "
                        "every node")
    p.add_argument("--reward", choices=["auto", *REWARD_KINDS], default="auto")
    p.add_argument("--address", default=None,
                   help="Ray cluster to join: auto (this node's), HOST:PORT or ray://HOST:PORT; "
                        "default: a Ray instance of this process")
    p.add_argument("--ray-temp-dir", default="runs/ray",
                   help="without --address: Ray's session files (default runs/ray)")
    p.add_argument("--num-env-runners", type=int, default=0,
                   help="sampling workers (0: sample in this process)")
    p.add_argument("--envs-per-runner", type=int, default=1)
    p.add_argument("--num-learners", type=int, default=0,
                   help="learner workers (0: learn in this process)")
    p.add_argument("--restart-env-runners", action="store_true",
                   help="restart a failed env runner (RLlib's fault tolerance, for nodes that "
                        "can vanish); default: a failing env runner ends the run with its "
                        "error")
    p.add_argument("--iterations", type=int, required=True)
    p.add_argument("--batch-size", type=int, default=4000,
                   help="env steps (decisions) per iteration and learner")
    p.add_argument("--minibatch-size", type=int, default=256)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--net", default="128,128", help="hidden layer sizes")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", required=True, help="run folder")
    p.add_argument("--name", default="rllib_ppo", help="name of the exported checkpoint")
    p.add_argument("--eval-every", type=int, default=0,
                   help="iterations between checkpoints, exports and evaluations (0: only "
                        "after the last)")
    p.add_argument("--eval-games", type=int, default=100,
                   help="games per field (0: no evaluation)")
    add_agents_argument(p, "--eval-fields", default=["random"], metavar="FIELD",
                        what="the fixed fields the exported policy is evaluated against "
                             "(default random)")
    return p


def env_config_of(args: argparse.Namespace) -> dict[str, Any]:
    """The wrapper's ``env_config``, checked here before any worker starts."""
    register = dict(item.split("=", 1) for item in args.register if "=" in item)
    if len(register) != len(args.register):
        raise SystemExit("--register takes NAME=MODULE")
    from meeplezoo.training.rllib.env import register_envs

    register_envs(register)
    if args.env not in envs.list_envs():
        raise SystemExit(f"--env {args.env!r}: choose one of {envs.list_envs()}")
    try:
        options = parse_options(args.option)
        players = args.players or envs.game_class(args.env).default_players
        envs.make_game(args.env, num_players=players, **options)
    except ConfigError as exc:
        raise SystemExit(str(exc)) from None
    return {"env": args.env, "config": {"num_players": players, **options},
            "reward": args.reward, "register": register}


def ppo_config(env_config: dict[str, Any], args: argparse.Namespace) -> Any:
    """RLlib's PPO config: one masked module per role, complete episodes per batch (no
    turn-based episode is cut mid-game), the role metrics callback."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from meeplezoo.training.rllib.env import MeepleMultiAgentEnv, RoleMapping, agent_roles
    from meeplezoo.training.rllib.metrics import RoleMetrics
    from meeplezoo.training.rllib.module import MaskedPPOModule

    env = MeepleMultiAgentEnv(env_config)
    roles = agent_roles(env)
    first_agent = {role: agent for agent, role in reversed(roles.items())}
    hidden = [int(h) for h in args.net.split(",")]
    specs = {role: RLModuleSpec(module_class=MaskedPPOModule,
                                observation_space=env.observation_spaces[agent],
                                action_space=env.action_spaces[agent],
                                model_config={"fcnet_hiddens": hidden,
                                              "fcnet_activation": "tanh",
                                              "vf_share_layers": False})
             for role, agent in first_agent.items()}
    return (
        PPOConfig()
        # RLlib's env check steps random unmasked actions, which our envs refuse
        .environment(MeepleMultiAgentEnv, env_config=env_config, disable_env_checking=True)
        .env_runners(num_env_runners=args.num_env_runners,
                     num_envs_per_env_runner=args.envs_per_runner,
                     batch_mode="complete_episodes", rollout_fragment_length="auto")
        .learners(num_learners=args.num_learners)
        .multi_agent(policies=set(specs), policy_mapping_fn=RoleMapping(roles),
                     policies_to_train=sorted(specs))
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=specs))
        .training(train_batch_size_per_learner=args.batch_size,
                  minibatch_size=args.minibatch_size, num_epochs=args.epochs, lr=args.lr,
                  gamma=args.gamma, lambda_=args.gae_lambda, entropy_coeff=args.ent_coef)
        .callbacks(RoleMetrics)
        .debugging(seed=args.seed)
        # RLlib restarts an env runner through Ray's actor restarts (max_restarts > 0), and
        # Ray prints an ERROR line for that on every run whose env runners get their config
        # from the object store, as RLlib's do (ray-project/ray#53727).  Off unless asked:
        # an env that raises is a bug to see, not to restart up to 1000 times.
        .fault_tolerance(restart_failed_env_runners=args.restart_env_runners)
    )


# Ray's documented opt-out of its usage statistics (docs.ray.io, cluster/usage-stats), read
# by ``ray.init`` and ``ray start``; a cluster's own nodes take it from ``ray start
# --disable-usage-stats``.  A value the user set wins.
USAGE_STATS_ENV = "RAY_USAGE_STATS_ENABLED"


def init_ray(address: str | None, temp_dir: str) -> None:
    """Join a cluster, or start Ray here with every file under ``temp_dir`` and no auth
    token written to the home folder (a private instance; clusters set RAY_AUTH_MODE).
    Ray's usage statistics are off unless ``RAY_USAGE_STATS_ENABLED=1`` says otherwise."""
    import ray

    os.environ.setdefault(USAGE_STATS_ENV, "0")
    if address:
        ray.init(address=address, logging_level="WARNING")
        return
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    temp = Path(temp_dir).resolve()
    temp.mkdir(parents=True, exist_ok=True)
    ray.init(_temp_dir=str(temp), include_dashboard=False, logging_level="WARNING")


def scalars(result: dict[str, Any], prefix: str = "") -> dict[str, float]:
    """Every finite number of an RLlib result, flattened to ``a/b/c`` tags."""
    out: dict[str, float] = {}
    for key, value in result.items():
        tag = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(scalars(value, tag + "/"))
        elif isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(
                value):
            out[tag] = float(value)
    return out


def run_record(args: argparse.Namespace, env_config: dict[str, Any], argv: list[str],
               roles: list[str]) -> dict[str, Any]:
    return {"env": env_config["env"], "config": env_config["config"],
            "register": env_config["register"],
            "player_counts": [env_config["config"]["num_players"]], "roles": roles,
            "algorithm": ALGORITHM, "arch": "mlp",
            "net_arch": [int(h) for h in args.net.split(",")], "seed": args.seed,
            "opponents": "self-play, one policy per role", "reward": args.reward,
            "num_env_runners": args.num_env_runners, "num_learners": args.num_learners,
            "address": args.address, "iterations_done": 0, "timesteps_done": 0,
            "command": "meeplezoo rllib-train " + shlex.join(argv),
            "code_commit": code_commit()}


def evaluate(folder: Path, env_config: dict[str, Any], fields: list[str],
             games: int, seed: int) -> dict[str, dict[str, Any]]:
    """Win rates of the exported policy (or team) against each fixed field, seat-rotated:
    ``versus_field``'s result plus ``role_win_rate`` (a role's seats' mean)."""
    from meeplezoo.training.evaluation.evaluate import versus_field

    game = envs.make_game(env_config["env"], **env_config["config"])
    results = {}
    for field in fields:
        result = versus_field(env_config["env"], env_config["config"], str(folder), field,
                              games, seed)
        by_seat = result["win_rate_by_seat"]
        result["role_win_rate"] = {
            role: sum(by_seat[s] for s in game.role_seats(role)) / len(game.role_seats(role))
            for role in dict.fromkeys(game.seat_role(s) for s in range(game.num_players))}
        results[field] = result
    return results


def placement(algo: Any) -> dict[str, int]:
    """How many nodes the cluster has and how many of them run env runners (this
    process's own sampler counts as its node)."""
    import ray

    nodes = [node for node in ray.nodes() if node.get("Alive")]
    runners = algo.env_runner_group.foreach_env_runner(
        lambda runner: ray.get_runtime_context().get_node_id(), local_env_runner=False)
    if not runners:
        runners = [ray.get_runtime_context().get_node_id()]
    return {"cluster_nodes": len(nodes), "env_runner_nodes": len(set(runners))}


def log_iteration(writer: Any, result: dict[str, Any], roles: list[str], iteration: int,
                  steps_before: int, seconds: float) -> int:
    """TensorBoard scalars and one printed line per iteration; returns the env steps done."""
    metrics = scalars(result)
    steps = int(metrics.get("env_runners/num_env_steps_sampled_lifetime", steps_before))
    rate = (steps - steps_before) / max(seconds, 1e-9)
    metrics["perf/env_steps_per_s"] = rate
    for tag, value in metrics.items():
        writer.add_scalar(tag, value, steps)
    # a symmetric game's one role always wins its 1/n: its seats' shares say more
    key, names = ("win_share", roles) if len(roles) > 1 else ("seat_win_share", sorted(
        tag.rsplit("/", 1)[1] for tag in metrics if "/seat_win_share/" in tag))
    wins = " ".join(f"{name}={metrics.get(f'env_runners/{key}/{name}', 0.0):.2f}"
                    for name in names)
    print(f"iteration {iteration}: {steps} env steps, {rate:.0f}/s, self-play win share by "
          f"{'role' if len(roles) > 1 else 'seat'} {wins}", flush=True)
    return steps


def log_evaluation(writer: Any, results: dict[str, dict[str, Any]], steps: int) -> None:
    for field, res in results.items():
        writer.add_scalar(f"eval/win_rate_vs_{field}", res["win_rate"], steps)
        for role, rate in res["role_win_rate"].items():
            writer.add_scalar(f"eval/win_rate_vs_{field}/{role}", rate, steps)
        roles = ", ".join(f"{role} {rate:.3f}" for role, rate in res["role_win_rate"].items())
        print(f"  vs {field}: win rate {res['win_rate']:.3f} over {res['games']} games "
              f"(baseline {res['seat_share_baseline']:.3f}); by role {roles}", flush=True)


def save_and_export(algo: Any, out: Path, run: dict[str, Any], name: str) -> Path:
    """Save the algorithm and its run record; export its policies under ``<out>/export``."""
    from meeplezoo.training.rllib.export import RUN_FILE, export_checkpoint

    algo.save_to_path(str((out / "checkpoint").resolve()))
    (out / RUN_FILE).write_text(json.dumps(run, indent=2) + "\n")
    return export_checkpoint(out / "checkpoint", name, out / "export")


def train(args: argparse.Namespace, argv: list[str]) -> Path:
    """Train, evaluate and export as ``args`` say; returns the exported folder.  Joins the
    Ray instance this process already runs, if any (and leaves it running)."""
    env_config = env_config_of(args)
    if args.iterations < 1:
        raise SystemExit("--iterations must be at least 1")
    fields = list(args.eval_fields)
    from meeplezoo.training.agents.zoo import find_checkpoint

    missing = [f for f in fields if f not in ("random", "heuristic") and not is_python_spec(f)
               and find_checkpoint(f.rsplit("@", 1)[0]) is None]
    if missing:  # refused before Ray starts, not after the training
        raise SystemExit(f"--eval-fields {','.join(missing)}: no such checkpoint folder or zoo "
                         f"name <env>/<name>; a field is {FORMS}")
    import ray
    from torch.utils.tensorboard import SummaryWriter

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    config = ppo_config(env_config, args)
    roles = sorted(config.policies)
    run = run_record(args, env_config, argv, roles)
    own_ray = not ray.is_initialized()
    if own_ray:
        init_ray(args.address, args.ray_temp_dir)
    algo = config.build_algo()
    run.update(placement(algo))
    print(f"Ray: {run['cluster_nodes']} node(s); env runners on {run['env_runner_nodes']} "
          f"node(s)", flush=True)
    writer = SummaryWriter(str(out / "tb"))
    start, steps, folder = time.time(), 0, None
    progress = Progress(args.iterations, f"rllib-train {args.env}", unit="iteration")
    try:
        for iteration in range(1, args.iterations + 1):
            began = time.time()
            result = algo.train()
            steps = log_iteration(writer, result, roles, iteration, steps, time.time() - began)
            progress.update()
            run.update(iterations_done=iteration, timesteps_done=steps,
                       wall_time_s=round(time.time() - start, 1))
            if iteration == args.iterations or (args.eval_every
                                                and iteration % args.eval_every == 0):
                folder = save_and_export(algo, out, run, args.name)
                if args.eval_games:
                    evaluation = evaluate(folder, env_config, fields, args.eval_games, args.seed)
                    log_evaluation(writer, evaluation, steps)
                    run["evaluation"] = {f"vs_{field}": {key: res[key] for key in (
                        "games", "win_rate", "win_rate_ci95", "role_win_rate")}
                        for field, res in evaluation.items()}
                    (out / "run.json").write_text(json.dumps(run, indent=2) + "\n")
        progress.close()
    finally:
        progress.close(final=False)  # after an error: no closing line (the error says it)
        writer.close()
        algo.stop()
        if own_ray:
            ray.shutdown()
    print(f"checkpoint {out / 'checkpoint'}; exported {folder}", flush=True)
    return folder


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(argv)
    import torch

    torch.set_num_threads(1)
    train(args, argv)
    return 0


if __name__ == "__main__":
    raise SystemExit(run_command(main))
