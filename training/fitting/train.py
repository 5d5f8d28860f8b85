"""Fit a MaskablePPO agent to one seat of a MeepleZoo game, with a self-play league.

    meeplezoo train --env chihou_sousei_v1 --players 4 --timesteps 200000 \
        --opponents random,heuristic,self --seed 1 --out runs/chihou

Each of ``--n-envs`` environments is a ``SeatEnv``: the learner plays one seat
(``--seat K``, or a random seat per episode for symmetric games) and every
other seat is drawn per episode from the opponent pool.  Every
``--snapshot-freq`` steps a snapshot of the learner goes to ``<out>/pool/step_N``
(ONNX + card, to screen or ship with ``training.export --snapshot``; model.zip,
to ``--resume`` from); with ``self`` in the pool, the snapshots are its
opponents (a league of earlier selves).
``--arch spatial`` trains a convolutional policy over the board instead of the
MLP (for the envs in ``training.spatial.SPATIAL_ARCHS``).
Logs go to ``<out>/tb`` (TensorBoard); ``<out>/run.json`` records the exact
command, and ``--resume <out>/final_model.zip`` continues a run.
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from meeplezoo import envs
from meeplezoo.envs.core.command import run_command
from meeplezoo.envs.core.errors import ConfigError
from meeplezoo.envs.core.game import Game
from meeplezoo.envs.core.progress import Progress
from meeplezoo.envs.core.rewards import REWARD_KINDS, resolve_reward_kind, win_share, winners
from meeplezoo.training.agents.specs import POOL_FORMS, add_agents_argument
from meeplezoo.training.cli import code_commit, parse_options, require_training_extra
from meeplezoo.training.fitting.archs import ARCHS


def parse_counts(text: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise SystemExit(f"--players {text!r} must be a count or a list such as 2,3,4") from None


class TorchPolicyAgent:
    """The live SB3 model as an ``act(observation, mask)`` agent (for evaluation)."""

    def __init__(self, model: Any, name: str = "learner") -> None:
        self.model = model
        self.name = name

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        action, _ = self.model.predict(observation, action_masks=action_mask, deterministic=True)
        return int(action)


def quick_eval(model: Any, env_name: str, config: dict, field: str, games: int, seed: int,
               role: str | None = None) -> float:
    """Win share of the live policy against ``field``, rotated over its role's seats."""
    from meeplezoo.envs.core.agents import play_game
    from meeplezoo.training.agents.bots import make_bot
    from meeplezoo.training.agents.opponents import PolicyBot

    game = envs.make_game(env_name, **config)
    learner = PolicyBot(TorchPolicyAgent(model))
    other = make_bot(field, game, seed)
    rng = np.random.default_rng(seed)
    share = 0.0
    n = game.num_players
    seats = game.role_seats(game.check_role(role))
    for g in range(games):
        seat = seats[g % len(seats)]
        bots = [learner if s == seat else other for s in range(n)]
        state = play_game(game.new_initial_state(int(rng.integers(2**63 - 1))), bots)
        share += win_share(seat, winners(state.rank_keys()))
    return share / games


PPO_DEFAULTS: dict[str, Any] = {
    "lr": 3e-4, "n_steps": 512, "batch_size": 256, "n_epochs": 5, "gamma": 0.995,
    "gae_lambda": 0.95, "ent_coef": 0.01,
}
SB3_NAMES = {"lr": "learning_rate"}  # our flag -> MaskablePPO's attribute


def reward_label(kind: str, counts: list[int]) -> str:
    """The terminal reward a run trains on, e.g. ``rank``; where ``auto`` resolves
    differently per player count (solo plays for points), each count is named:
    ``rank (2p) / score (1p)``."""
    kinds = {n: resolve_reward_kind(kind, n) for n in counts}
    if len(set(kinds.values())) == 1:
        return kinds[counts[0]]
    return " / ".join(f"{k} ({n}p)" for n, k in kinds.items())


def ppo_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The PPO settings given on the command line, under MaskablePPO's names."""
    return {SB3_NAMES.get(k, k): getattr(args, k) for k in PPO_DEFAULTS
            if getattr(args, k) is not None}


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description="Train a MaskablePPO agent on a MeepleZoo env")
    p.add_argument("--env", required=True, choices=envs.list_envs())
    p.add_argument("--players", default=None, help="player count, or a list such as 2,3,4")
    p.add_argument("--timesteps", type=int, required=True, help="learner decisions to train")
    add_agents_argument(p, "--opponents", default=["random", "heuristic", "self"],
                        forms=POOL_FORMS, metavar="OPPONENT",
                        what="the pool the other seats are drawn from each episode (default "
                             "random heuristic self)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", required=True, help="run folder")
    p.add_argument("--seat", default="random",
                   help="learner seat, or 'random' each episode (among its role's seats)")
    p.add_argument("--role", default=None,
                   help="the role the learner plays (asymmetric games; default: the seat's "
                        "role, or the only role of a symmetric game)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--n-envs", type=int, default=4)
    p.add_argument("--vec", choices=["dummy", "subproc"], default="dummy")
    p.add_argument("--net", default=None,
                   help="hidden layer sizes (with --arch spatial: of the global MLP; default "
                        "128,128, or the --init-from card's)")
    p.add_argument("--arch", choices=ARCHS, default=None,
                   help="policy network: mlp (default) or spatial (a conv net over the board; "
                   "only for envs that have one, see training.spatial); --resume keeps the "
                   "loaded model's")
    # PPO settings: None = the default below for a new model, the loaded model's on --resume
    p.add_argument("--lr", type=float, help=f"learning rate (default {PPO_DEFAULTS['lr']})")
    p.add_argument("--n-steps", type=int,
                   help=f"rollout steps per env (default {PPO_DEFAULTS['n_steps']})")
    p.add_argument("--batch-size", type=int, help=f"default {PPO_DEFAULTS['batch_size']}")
    p.add_argument("--n-epochs", type=int, help=f"default {PPO_DEFAULTS['n_epochs']}")
    p.add_argument("--gamma", type=float, help=f"default {PPO_DEFAULTS['gamma']}")
    p.add_argument("--gae-lambda", type=float,
                   help=f"GAE's lambda; nearer 1 trusts returns over the critic "
                        f"(default {PPO_DEFAULTS['gae_lambda']})")
    p.add_argument("--ent-coef", type=float, help=f"default {PPO_DEFAULTS['ent_coef']}")
    p.add_argument("--eval-freq", type=int, default=0, help="steps between quick evaluations")
    p.add_argument("--eval-games", type=int, default=40)
    p.add_argument(
        "--snapshot-freq",
        type=int,
        default=0,
        help="steps between snapshots in <out>/pool (default: timesteps/8)",
    )
    p.add_argument("--reward", choices=["auto", *REWARD_KINDS], default="auto",
                   help="terminal reward: rank (auto for 2+ players), win (1 for a win, else 0) "
                        "or score; on --resume it may change, e.g. rank first, then win")
    p.add_argument("--shaping", type=float, default=0.0,
                   help="potential-based shaping weight on the running score lead (0 = off)")
    p.add_argument("--imitate-games", type=int, default=0,
                   help="warm start: fit the policy to the heuristic bot's play in N games first")
    p.add_argument("--imitate-epochs", type=int, default=8)
    p.add_argument("--imitate-lr", type=float, default=1e-3)
    p.add_argument("--dagger-rounds", type=int, default=0,
                   help="after imitation: rounds of DAgger, each playing --imitate-games games "
                        "where the student makes half the moves, labelled by the teacher")
    p.add_argument("--resume", help="a model .zip to continue from")
    p.add_argument("--init-from", metavar="CHECKPOINT",
                   help="start from a shipped checkpoint folder (ONNX + card; a team folder "
                        "gives its --role member): its actor, a fresh critic, its card's "
                        "network, commands and steps (training.init_from)")
    p.add_argument("--critic-warmup", type=int, default=None,
                   help="with --init-from: learner steps the fresh critic trains alone, the "
                        "actor frozen (default: 4 rollouts, 4 * n_steps * n_envs)")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress (default: SB3's bar on a terminal, else a line on stderr "
                        "every 30 s with the steps, steps/s and the time left)")
    return p


@dataclass
class Plan:
    """What the command line asks for, checked before any work starts."""

    args: argparse.Namespace
    game_cls: type[Game]
    counts: list[int]
    options: dict[str, Any]
    seat: int | str
    role: str
    specs: list[str]
    net: list[int]
    out: Path
    init: Any = None  # the --init-from checkpoint (a PolicyAgent)
    actor_params: list[str] | None = None  # the parameters --init-from copied

    @property
    def pool_dir(self) -> Path:
        return self.out / "pool"

    @property
    def eval_config(self) -> dict[str, Any]:
        """The config of imitation, snapshots' cards and quick evaluations."""
        return {"num_players": self.counts[-1], **self.options}


def make_plan(args: argparse.Namespace) -> Plan:
    game_cls = envs.game_class(args.env)
    counts = parse_counts(args.players) if args.players else [game_cls.default_players]
    try:
        options = parse_options(args.option)
    except ConfigError as exc:
        raise SystemExit(f"--option: {exc}") from None
    for n in counts:
        game_cls(num_players=n, **options)  # clear error for a bad count or option
    seat: int | str = "random" if args.seat == "random" else int(args.seat)
    game = game_cls(num_players=counts[0], **options)
    try:
        role = game.seat_role(seat) if isinstance(seat, int) else game.check_role(args.role)
        if args.role is not None and role != args.role:
            raise SystemExit(f"--seat {seat} plays role {role!r}, not --role {args.role!r}")
        if not all(game_cls(num_players=n, **options).role_seats(role) for n in counts):
            raise SystemExit(f"--role {role!r} has no seat at one of --players {counts}")
    except ConfigError as exc:
        raise SystemExit(f"{exc} (asymmetric games train one role: --role or --seat)") from None
    init = None
    if args.critic_warmup is not None and not args.init_from:
        raise SystemExit("--critic-warmup only applies with --init-from (a fresh critic)")
    if args.critic_warmup is not None and args.critic_warmup < 0:
        raise SystemExit(f"--critic-warmup {args.critic_warmup}: give 0 or more steps")
    if args.init_from:
        init = init_checkpoint(args, game, role)
    net = [int(x) for x in (args.net or "128,128").split(",")]
    if init is not None:
        card_net = list(init.card.get("net_arch") or [])
        if args.net and net != card_net:
            raise SystemExit(f"--net {args.net}: --init-from {init.path} has net {card_net}")
        net = card_net
    return Plan(args, game_cls, counts, options, seat, role,
                list(args.opponents), net, Path(args.out), init)


def init_checkpoint(args: argparse.Namespace, game: Game, role: str) -> Any:
    """The ``--init-from`` checkpoint, refused early with the reason."""
    from meeplezoo.training.agents.zoo import CheckpointError
    from meeplezoo.training.fitting.init_from import resolve_checkpoint

    clashes = [flag for flag, given in (("--resume", args.resume),
                                        ("--imitate-games", args.imitate_games)) if given]
    if clashes:
        raise SystemExit(f"--init-from starts from a trained policy: drop {', '.join(clashes)}")
    try:
        init = resolve_checkpoint(args.init_from, game, role)
    except CheckpointError as exc:
        raise SystemExit(str(exc)) from None
    arch = init.card.get("arch", "mlp")
    if args.arch and args.arch != arch:
        raise SystemExit(f"--arch {args.arch}: --init-from {init.path} is a {arch} policy")
    args.arch = arch
    return init


def run_record(plan: Plan, argv: list[str]) -> dict[str, Any]:
    """run.json's facts; a resumed run chains its commands, commits and rewards onto its
    run.json's, an ``--init-from`` run onto the checkpoint card's."""
    args = plan.args
    run: dict[str, Any] = {
        "env": args.env,
        "config": {"num_players": plan.counts[0], **plan.options},
        "player_counts": plan.counts,
        "seats": "any" if plan.seat == "random" else [plan.seat],
        "role": plan.role,
        "opponents": plan.specs,
        "seed": args.seed,
        "arch": args.arch or "mlp",
        "net_arch": plan.net,
        "reward": reward_label(args.reward, plan.counts),
        "shaping": args.shaping,
        "command": "meeplezoo train " + shlex.join(argv),
        "code_commit": code_commit(),
        "timesteps_done": 0,
        "wall_time_s": 0.0,
    }
    previous = plan.out / "run.json"
    before = None  # the record this run continues: its run.json, or the --init-from card
    if args.resume and previous.exists():
        before = json.loads(previous.read_text())
    elif plan.init is not None:  # a card keeps its runs' facts under the same keys
        before = plan.init.card
        run["init_from"] = {"checkpoint": str(plan.init.path), "name": plan.init.name,
                            "training_steps": int(before.get("training_steps") or 0)}
    if before is not None:
        run["wall_time_s"] = before.get("wall_time_s") or 0.0
        run["command"] = (before.get("command") or "") + " && " + run["command"]
        run["code_commit"] = (before.get("code_commit") or "unknown") + " && " + run["code_commit"]
        # runs from before --reward used auto; each segment's kind is kept, like its command
        earlier = before.get("reward") or reward_label("auto", plan.counts)
        run["reward"] = earlier + " && " + run["reward"]
        for key in ("imitation", "init_from"):  # how the chain began stays on record
            if before.get(key):
                run[key] = before[key]
    return run


def make_vec_env(plan: Plan) -> Any:
    """``--n-envs`` seat envs, each with its own opponent pool, in one VecMonitor."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

    args = plan.args

    def make_env(i: int):
        def thunk():
            from meeplezoo.training.agents.bots import OpponentPool
            from meeplezoo.training.fitting.seat_env import SeatEnv

            n = plan.counts[i % len(plan.counts)]
            game = plan.game_cls(num_players=n, **plan.options)
            pool = OpponentPool(game, plan.specs, seed=args.seed * 1000 + i,
                                snapshot_dir=plan.pool_dir)
            return SeatEnv(
                game_class=plan.game_cls,
                config={"num_players": n, **plan.options},
                seat=plan.seat,
                role=plan.role,
                opponents=pool,
                seed=args.seed * 1000 + 500 + i,
                reward=args.reward,
                shaping=args.shaping,
            )

        return thunk

    vec_cls = SubprocVecEnv if args.vec == "subproc" else DummyVecEnv
    return VecMonitor(vec_cls([make_env(i) for i in range(args.n_envs)]))


def make_model(plan: Plan, vec: Any, policy: Any, policy_kwargs: dict[str, Any]) -> Any:
    """A new MaskablePPO, or the ``--resume`` model with the PPO flags given now."""
    from sb3_contrib import MaskablePPO

    from meeplezoo.training.fitting.spatial import arch_of

    args = plan.args
    tb = str(plan.out / "tb")
    if args.resume:  # settings given now replace the loaded model's; the rest carry on
        model = MaskablePPO.load(args.resume, env=vec, device="cpu", tensorboard_log=tb,
                                 custom_objects=ppo_overrides(args))
        if args.arch and args.arch != arch_of(model.policy):
            vec.close()
            raise SystemExit(f"--arch {args.arch}: {args.resume} is a {arch_of(model.policy)} "
                             "model (--resume keeps the loaded model's arch)")
        return model
    settings = {SB3_NAMES.get(k, k): v for k, v in PPO_DEFAULTS.items()}
    model = MaskablePPO(policy, vec, **{**settings, **ppo_overrides(args)}, seed=args.seed,
                        device="cpu", verbose=0, policy_kwargs=policy_kwargs, tensorboard_log=tb)
    if plan.init is not None:
        from meeplezoo.training.fitting.init_from import copy_actor

        plan.actor_params = copy_actor(model.policy, plan.init)
        model.num_timesteps = int(plan.init.card.get("training_steps") or 0)
    return model


def warm_start(plan: Plan, model: Any) -> dict[str, Any]:
    """Imitation of the heuristic bot (then DAgger rounds); the facts for run.json."""
    from meeplezoo.training.fitting.imitation import collect_teacher_data, fit_policy

    args, out, config = plan.args, plan.out, plan.eval_config
    cache = out / "teacher.npz"
    if cache.exists():
        with np.load(cache) as stored:
            data = {key: stored[key] for key in stored.files}
    else:
        print(f"collecting the heuristic bot's play in {args.imitate_games} games ...",
              flush=True)
        with Progress(args.imitate_games, f"train {args.env}: the heuristic bot's games",
                      style="off" if args.no_progress else "auto") as bar:
            data = collect_teacher_data(args.env, config, args.imitate_games, args.seed,
                                        role=plan.role, progress=bar)
        np.savez(cache, **data)
    bc_start = time.time()
    fit = fit_policy(model.policy, data, args.imitate_epochs, seed=args.seed,
                     lr=args.imitate_lr, log=lambda m: print(m, flush=True))
    for dagger in range(1, args.dagger_rounds + 1):
        student = out / "imitation_model.zip"
        model.save(student)
        print(f"DAgger round {dagger}/{args.dagger_rounds}: the student plays half the "
              f"moves of {args.imitate_games} games ...", flush=True)
        with Progress(args.imitate_games, f"train {args.env}: DAgger round {dagger}",
                      style="off" if args.no_progress else "auto") as bar:
            more = collect_teacher_data(args.env, config, args.imitate_games,
                                        args.seed + 7 * dagger, student=str(student),
                                        role=plan.role, progress=bar)
        data = {key: np.concatenate([data[key], more[key]]) for key in data}
        fit = fit_policy(model.policy, data, args.imitate_epochs, seed=args.seed + dagger,
                         lr=args.imitate_lr, log=lambda m: print(m, flush=True))
    facts = {"games": args.imitate_games * (1 + args.dagger_rounds),
             "dagger_rounds": args.dagger_rounds, "decisions": len(data["actions"]), **fit,
             "seconds": round(time.time() - bc_start, 1)}
    model.save(out / "imitation_model.zip")
    return facts


class RunLog:
    """run.json, kept current so that a stopped run still says how it was made."""

    def __init__(self, run: dict[str, Any], out: Path) -> None:
        self.run, self.out, self.start = run, out, time.time()

    def wall_time(self) -> float:
        """Training seconds so far, earlier segments of a resumed run included."""
        return round(self.run["wall_time_s"] + time.time() - self.start, 1)

    def write(self, steps: int) -> None:
        record = {**self.run, "timesteps_done": int(steps), "wall_time_s": self.wall_time()}
        (self.out / "run.json").write_text(json.dumps(record, indent=2) + "\n")


def league_callback(plan: Plan, log: RunLog, first_step: int) -> Any:
    """Snapshots join the pool every ``--snapshot-freq`` steps; quick evaluations go to the
    log every ``--eval-freq``."""
    from stable_baselines3.common.callbacks import BaseCallback

    from meeplezoo.training.fitting.onnx import card_for, write_onnx

    args, run, out = plan.args, log.run, plan.out
    snapshot_freq = args.snapshot_freq or max(args.timesteps // 8, 1)
    eval_game = plan.game_cls(**plan.eval_config)
    self_play = any(s.partition("=")[0] == "self" for s in plan.specs)

    class League(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.next_snapshot = first_step + snapshot_freq
            self.next_eval = first_step + (args.eval_freq or 10**18)

        def _snapshot(self, t: int) -> Path:
            """ONNX + card (an opponent, and a candidate to screen) + model.zip (to resume)."""
            folder = plan.pool_dir / f"step_{t:09d}"
            folder.mkdir(parents=True, exist_ok=True)
            self.model.save(folder / "model.zip")
            write_onnx(self.model.policy, eval_game.observation_size(plan.role),
                       eval_game.num_actions(plan.role), folder / "policy.onnx")
            card = card_for(eval_game, folder.name, run["seats"],
                            {**run, "timesteps_done": t, "wall_time_s": log.wall_time()})
            (folder / "card.json").write_text(json.dumps(card) + "\n")
            return folder

        def _on_training_start(self) -> None:
            if self_play and "imitation" in run:  # the warm-started policy is the first self
                self._snapshot(self.num_timesteps)

        def _on_step(self) -> bool:
            t = self.num_timesteps
            if t >= self.next_snapshot:
                self.next_snapshot += snapshot_freq
                folder = self._snapshot(t)  # the same model: copy it, don't serialise twice
                shutil.copyfile(folder / "model.zip", out / "latest_model.zip")
                log.write(t)
            if t >= self.next_eval:
                self.next_eval += args.eval_freq
                for field in ("random", "heuristic"):
                    rate = quick_eval(self.model, args.env, plan.eval_config, field,
                                      args.eval_games, seed=t, role=plan.role)
                    self.logger.record(f"eval/win_vs_{field}", rate)
                    print(f"[{t} steps] win share vs {field}: {rate:.3f}", flush=True)
            return True

    return League()


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(argv)
    require_training_extra("meeplezoo.training.fitting.train")
    import torch
    from stable_baselines3.common.utils import set_random_seed

    from meeplezoo.training.fitting.spatial import arch_of, net_arch_of, policy_spec

    torch.set_num_threads(1)
    set_random_seed(args.seed)
    plan = make_plan(args)
    try:  # an arch is tied to an env: refuse a wrong pair before any work
        policy, policy_kwargs = policy_spec(args.arch or "mlp", args.env, plan.net)
    except ValueError as exc:
        raise SystemExit(str(exc)) from None
    plan.out.mkdir(parents=True, exist_ok=True)
    run = run_record(plan, argv)
    vec = make_vec_env(plan)
    model = make_model(plan, vec, policy, policy_kwargs)
    callbacks = []
    if plan.init is not None:
        from meeplezoo.training.fitting.init_from import (
            critic_warmup_callback,
            frozen_actor_warning,
        )

        warmup = args.critic_warmup
        if warmup is None:
            warmup = 4 * model.n_steps * model.n_envs
        run["init_from"]["critic_warmup_steps"] = warmup
        callbacks.append(critic_warmup_callback(plan.actor_params, warmup))
        frozen = frozen_actor_warning(args.timesteps, model.n_steps * model.n_envs, warmup)
        if frozen:
            print(frozen, file=sys.stderr, flush=True)
    vec.set_attr("gamma", model.gamma)  # the shaping discounts like the model that trains
    if args.imitate_games and not args.resume:
        run["imitation"] = warm_start(plan, model)
    # the network that trains (for --resume the loaded one, not the --net/--arch defaults)
    run["arch"] = arch_of(model.policy)
    if args.resume or run["arch"] != "mlp":
        run["net_arch"] = net_arch_of(model.policy)
    log = RunLog(run, plan.out)
    first_step = int(model.num_timesteps)  # a --resume or --init-from run's earlier steps
    league = league_callback(plan, log, first_step)
    log.write(model.num_timesteps)
    terminal = sys.stderr.isatty()
    lines = None  # without a terminal: plain progress lines instead of SB3's bar
    if not args.no_progress and not terminal:
        from meeplezoo.training.cli import progress_callback

        lines = progress_callback(f"train {args.env}")
    try:
        model.learn(total_timesteps=args.timesteps,
                    callback=[*callbacks, league, *([lines] if lines is not None else [])],
                    progress_bar=not args.no_progress and terminal,
                    reset_num_timesteps=not (args.resume or plan.init is not None),
                    tb_log_name="maskable_ppo")
    except BaseException:
        if lines is not None:
            lines.close(final=False)  # the error says the rest
        raise
    run["wall_time_s"] = log.wall_time()
    run["timesteps_done"] = int(model.num_timesteps)
    model.save(plan.out / "final_model.zip")
    (plan.out / "run.json").write_text(json.dumps(run, indent=2) + "\n")
    vec.close()
    print(done_line(plan, run, int(model.num_timesteps) - first_step, time.time() - log.start))
    return 0


def done_line(plan: Plan, run: dict[str, Any], steps: int, seconds: float) -> str:
    """The closing line: this run's own steps and time, then, for a run that continues
    another (``--resume``, ``--init-from``), the totals its run.json and card carry."""
    line = f"saved {plan.out / 'final_model.zip'} after {steps} steps in {seconds:.0f}s"
    if run["timesteps_done"] != steps:
        line += (f" ({run['timesteps_done']} steps and {run['wall_time_s']:.0f}s counting the "
                 "training it continues)")
    warmup = (run.get("init_from") or {}).get("critic_warmup_steps")
    if plan.init is not None and warmup is not None and 0 < steps <= warmup:
        line += f"; the actor did not train: all {steps} steps were the critic's warm-up"
    return line


if __name__ == "__main__":
    raise SystemExit(run_command(main))
