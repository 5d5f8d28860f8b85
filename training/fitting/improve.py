"""Policy improvement by rollout search, distilled into the network.

    meeplezoo improve --model runs/x/final_model.zip --search pick \
        --rollouts 8 --games 600 --opponents heuristic --seed 1 --out runs/y

One step of expert iteration. The trained policy plays games against the
opponents, its seat rotating over the seats of its role (every seat in a
symmetric game; in an asymmetric one the opponents must be able to play the
other roles: ``random``, ``heuristic`` or those roles' checkpoints). At its
decisions of the kinds named by ``--search`` (``state.decision_name()``), every
legal action is tried with ``--rollouts`` playouts to the end of the game: the
policy plays its own seat, the opponents theirs, and everything the player
cannot see is re-drawn (``resample_hidden``). The playouts use common random
numbers (the same re-draws and opponent seeds for every candidate), so
candidates are compared on the same futures, not on their luck. The action with
the best mean value (win share, plus ``--margin-weight`` times the score margin
over the best other player in ``score_scale`` units) becomes the label; the
policy's other decisions are labelled with its own choice, so fitting keeps
them. With ``--temperature`` the labels are soft instead (``tilted_targets``).
The network is then fitted to the labels (``imitation.fit_policy``) and saved
as ``final_model.zip`` with a ``run.json`` that chains the commands that made
it, ready for ``training.export --model``. The search itself is
``training.search.RolloutSearch`` (shared with the look-ahead opponents of
``training.export --lookahead``), with the real opponents as its model. Why:
PPO on a 2-core budget stalls where the policy's weak spot is one kind of
decision (地方創生's picks); a search on the true game at those decisions is a
better teacher than more of the same gradient.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from meeplezoo import envs
from meeplezoo.envs.core.command import run_command
from meeplezoo.envs.core.game import Game
from meeplezoo.envs.core.progress import Progress
from meeplezoo.envs.core.rewards import resolve_reward_kind, terminal_rewards, win_share, winners
from meeplezoo.envs.core.workers import default_workers
from meeplezoo.training.agents.search import RolloutSearch, bot_model, searched_choice
from meeplezoo.training.agents.specs import add_agents_argument, forms
from meeplezoo.training.fitting.imitation import agreement, fit_policy, map_over_games


def _play_and_label(job: tuple) -> dict[str, Any]:
    (env_name, config, game_ids, seed, policy_dir, specs, search_kinds, rollouts,
     margin_weight, reward, progress) = job
    from meeplezoo.training.agents.opponents import PolicyBot, load

    game = envs.make_game(env_name, **config)
    agent = load(policy_dir)
    policy = PolicyBot(agent)
    seats = game.role_seats(agent.role if agent.role in game.roles else game.check_role(None))
    factory = bot_model(game, specs)
    obs, masks, targets, actions, returns, wins, is_searched = [], [], [], [], [], [], []
    row_values = []  # per row: each action's mean playout value (NaN where not searched)
    searched = changed = 0
    for game_id in game_ids:  # seeded per game: the data ignores the worker count
        rng = np.random.default_rng([seed, game_id])
        search = RolloutSearch(game, agent, factory, rollouts, margin_weight, rng)
        learner = seats[game_id % len(seats)]  # the policy's role's seats rotate
        field = factory(int(rng.integers(2**31)))
        state = game.new_initial_state(int(rng.integers(2**63 - 1)))
        mine = 0
        while not state.is_terminal():
            seat = state.current_player()
            if seat != learner:
                state.apply(field[seat].act(state))
                continue
            mask = state.legal_mask()
            own = policy.act(state)
            target = np.zeros(len(mask), bool)
            action = own
            searching = state.decision_name() in search_kinds and int(mask.sum()) > 1
            q = np.full(len(mask), np.nan, np.float32)
            if searching:
                values = search.values(state)
                q[list(values)] = list(values.values())
                best = max(values.values())
                target[[a for a, v in values.items() if v == best]] = True
                action = searched_choice(values, own)
                searched += 1
                changed += int(action != own)
            else:
                target[own] = True
            is_searched.append(searching)
            row_values.append(q)
            obs.append(state.observation(seat).copy())
            masks.append(mask.copy())
            targets.append(target)
            actions.append(action)
            state.apply(action)
            mine += 1
        final = terminal_rewards(reward, state.scores(), state.rank_keys(), game.score_scale)
        returns.extend([final[learner]] * mine)
        wins.append(win_share(learner, winners(state.rank_keys())))
        if progress:
            print(f"game {game_id}: searched {searched}, changed {changed}; the searching "
                  f"player's win share so far in this worker {np.mean(wins):.3f}", flush=True)
    return {
        "obs": np.asarray(obs, np.float16).reshape(len(obs), -1),
        "masks": np.asarray(masks, bool),
        "targets": np.asarray(targets, bool),
        "actions": np.asarray(actions, np.int64),
        "returns": np.asarray(returns, np.float32),
        "searched_rows": np.asarray(is_searched, bool),
        "values": np.asarray(row_values, np.float32).reshape(len(obs), -1),
        "searched": searched,
        "changed": changed,
        "wins": wins,
    }


def collect_search_labels(
    env_name: str, config: dict[str, Any], policy_dir: str | Path, games: int, seed: int,
    opponents: list[str], search_kinds: list[str], rollouts: int, margin_weight: float,
    reward: str, workers: int | None = None, progress: bool = False, bar: Any = None,
) -> dict[str, Any]:
    """Labelled decisions of the policy's seat in ``games`` games (the same data
    for any number of ``workers``), with how many were searched and changed, and
    the searching player's win share in each game (the search is also an agent:
    its results say how much there is to distil).  ``progress``: each worker prints a
    line per game; ``bar`` (an ``envs.core.progress.Progress``) counts the games."""
    parts = map_over_games(
        _play_and_label,
        lambda ids: (env_name, config, ids, seed, str(policy_dir), opponents, search_kinds,
                     rollouts, margin_weight, reward, progress),
        games, workers, bar,
    )
    data: dict[str, Any] = {k: np.concatenate([p[k] for p in parts])
                            for k in ("obs", "masks", "targets", "actions", "returns",
                                      "searched_rows", "values")}
    data["searched"] = sum(p["searched"] for p in parts)
    data["changed"] = sum(p["changed"] for p in parts)
    data["win_shares"] = [w for p in parts for w in p["wins"]]  # the searching player's games
    return data


def _label(args: argparse.Namespace, argv: list[str], run: dict[str, Any], game: Game,
           specs: list[str], kinds: list[str], policy_dir: Path,
           commit: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Play and label ``--games`` games; also play the same deals with the policy
    alone, so the facts say what the search adds on equal luck."""
    start = time.time()
    reward = resolve_reward_kind("win", game.num_players)
    print(f"labelling {args.games} games: {args.rollouts} playouts per candidate at "
          f"{', '.join(kinds)} decisions ...", flush=True)
    with Progress(args.games, "improve: the search's games") as bar:
        data = collect_search_labels(
            run["env"], run["config"], policy_dir, args.games, args.seed, specs, kinds,
            args.rollouts, args.margin_weight, reward, args.workers, bar=bar,
        )
    searched, changed = data.pop("searched"), data.pop("changed")
    if searched == 0:
        raise SystemExit(f"no decision of kind {kinds} came up: check --search against "
                         f"{game.name}'s decision_name()")
    with Progress(args.games, "improve: the policy alone on the same deals") as bar:
        alone = collect_search_labels(
            run["env"], run["config"], policy_dir, args.games, args.seed, specs, [],
            args.rollouts, args.margin_weight, reward, args.workers, bar=bar,
        )
    facts = {
        "model": str(args.model),
        "search": kinds, "rollouts": args.rollouts, "games": args.games, "opponents": specs,
        "margin_weight": args.margin_weight, "seed": args.seed,
        "decisions": len(data["actions"]), "searched": searched, "changed": changed,
        "search_win_share": round(float(np.mean(data.pop("win_shares"))), 4),
        "policy_win_share_same_deals": round(float(np.mean(alone["win_shares"])), 4),
        "command": "meeplezoo improve " + shlex.join(argv),
        "code_commit": commit,
        "seconds": round(time.time() - start, 1),
    }
    print(f"searched {searched} decisions; the search changed {changed} "
          f"({changed / searched:.1%}) of the policy's choices; on the same {args.games} deals "
          f"the searching player won {facts['search_win_share']:.1%}, the policy alone "
          f"{facts['policy_win_share_same_deals']:.1%}", flush=True)
    return data, facts


def _load_labels(paths: list[Path], model_path: Path) -> tuple[dict[str, Any], list[dict]]:
    """Labels earlier runs wrote (``labels.npz`` + ``labels.json``), pooled for a
    refit.  Every set must come from playing ``model_path``; sets from before
    values were stored get NaN values (their rows are fitted to the best set)."""
    parts, sets = [], []
    for path in paths:
        meta = path.with_suffix(".json")
        if not path.exists() or not meta.exists():
            raise SystemExit(f"--labels {path}: needs {path.name} and {meta.name} as "
                             "training.improve writes them")
        facts = json.loads(meta.read_text())
        if Path(facts["model"]).resolve() != model_path.resolve():
            raise SystemExit(f"--labels {path} were made by playing {facts['model']}, not "
                             f"{model_path}: refit the model that made them")
        with np.load(path) as stored:
            part = {key: stored[key] for key in stored.files}
        part.setdefault("values", np.full(part["masks"].shape, np.nan, np.float32))
        parts.append(part)
        sets.append(facts)
    keys = set.intersection(*(set(p) for p in parts))
    return {k: np.concatenate([p[k] for p in parts]) for k in keys}, sets


def tilted_targets(policy: Any, data: dict[str, Any], temperature: float) -> np.ndarray:
    """Per row, the policy's own action distribution, tilted where the search
    measured values: p(a) ~ pi(a) exp((value(a) - best) / T).

    Why: hard best-action labels from a few noisy playouts overrule the policy
    on near-ties and teach noise; the tilt moves it only as far as the value
    gaps say, and the untouched rows anchor everything else (a KL to itself).
    """
    import torch

    rows = len(data["actions"])
    out = np.zeros(data["masks"].shape, np.float32)
    with torch.no_grad():
        for start in range(0, rows, 1024):
            sl = slice(start, min(start + 1024, rows))
            dist = policy.get_distribution(torch.as_tensor(data["obs"][sl]).float(),
                                           action_masks=data["masks"][sl])
            logits = dist.distribution.logits.clone()  # normalised log-probabilities
            values = torch.as_tensor(data["values"][sl]).float()
            measured = values.isfinite()
            best = values.nan_to_num(nan=float("-inf")).amax(-1, keepdim=True)
            tilt = ((values - best) / temperature).masked_fill(~measured, 0.0)
            out[sl] = torch.softmax(logits + tilt, -1).numpy()
    return out


def _previous_run(model_path: Path) -> dict[str, Any]:
    """How the model was made: ``run.json`` beside it, or a snapshot's ``card.json``."""
    for name in ("run.json", "card.json"):
        meta = model_path.parent / name
        if meta.exists():
            run = json.loads(meta.read_text())
            if name == "card.json":  # a league snapshot: the card carries the run's facts
                run["timesteps_done"] = run.get("training_steps")
                run.setdefault("config", {})["num_players"] = run["player_counts"][0]
            return run
    raise FileNotFoundError(
        f"{model_path.parent} has neither run.json nor card.json: the new run could not say "
        "how the model it starts from was made"
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", required=True,
                        help="MaskablePPO .zip from training.train (final_model.zip or a "
                             "snapshot's pool/step_N/model.zip)")
    parser.add_argument("--search", default="pick",
                        help="comma-separated decision kinds to search (decision_name())")
    parser.add_argument("--rollouts", type=int, default=8, help="playouts per candidate action")
    parser.add_argument("--games", type=int, default=200, help="labelled games")
    add_agents_argument(parser, "--opponents", default=["heuristic"], forms=forms(levels=False),
                        metavar="OPPONENT",
                        what="the other seats, and the search's model of them (default "
                             "heuristic; networks play greedily, no levels: no search inside "
                             "the search)")
    parser.add_argument("--margin-weight", type=float, default=0.2,
                        help="weight of the score margin (in score_scale units) in a playout's "
                             "value, next to the win share")
    parser.add_argument("--labels",
                        help="comma-separated labels.npz of earlier runs on the same --model: "
                             "refit on them only, no new games")
    parser.add_argument("--temperature", type=float, default=None,
                        help="soft targets instead of best-action labels: searched decisions "
                             "get the policy's own distribution tilted by the playout values, "
                             "p(a) ~ pi(a) exp(value(a) / T); every other decision keeps the "
                             "policy's own distribution (e.g. T = 0.05)")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--lr", type=float, default=1e-4)
    parser.add_argument("--workers", type=int, default=default_workers(),
                        help=f"worker processes for the games (default {default_workers()})")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", required=True)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(argv)
    from meeplezoo.training.cli import require_training_extra

    require_training_extra("meeplezoo.training.fitting.improve")
    for name, value in (("--rollouts", args.rollouts), ("--games", args.games),
                        ("--epochs", args.epochs)):
        if value < 1:
            raise SystemExit(f"{name} must be at least 1, got {value}")
    if args.temperature is not None and args.temperature <= 0:
        raise SystemExit(f"--temperature must be positive, got {args.temperature}")
    import torch
    from sb3_contrib import MaskablePPO

    from meeplezoo.training.cli import code_commit
    from meeplezoo.training.fitting.onnx import card_for, policy_role, write_onnx

    torch.set_num_threads(1)
    model_path = Path(args.model)
    if not model_path.exists():
        raise SystemExit(f"--model {model_path}: no such file")
    run = _previous_run(model_path)
    game = envs.make_game(run["env"], **run["config"])
    specs = list(args.opponents)
    if "self" in specs:
        raise SystemExit("--opponents: 'self' is not an opponent here; name a checkpoint folder")
    kinds = [k for k in args.search.split(",") if k]
    model = MaskablePPO.load(str(model_path), device="cpu")
    role = policy_role(game, run)  # it plays every seat of its role
    if model.observation_space.shape[0] != game.observation_size(role):
        raise SystemExit(f"{model_path} takes {model.observation_space.shape[0]} features but "
                         f"{game.name} gives {game.observation_size(role)}")
    out = Path(args.out)
    policy_dir = out / "search_policy"  # the policy that plays and rolls out, as an opponent
    write_onnx(model.policy, game.observation_size(role), game.num_actions(role),
               policy_dir / "policy.onnx")
    (policy_dir / "card.json").write_text(json.dumps(card_for(game, "search_policy", "any", run)))
    start = time.time()
    if args.labels:
        data, label_sets = _load_labels([Path(p) for p in args.labels.split(",") if p],
                                        model_path)
    else:
        data, labelling = _label(args, argv, run, game, specs, kinds, policy_dir, code_commit())
        np.savez(out / "labels.npz", **data)
        (out / "labels.json").write_text(json.dumps(labelling, indent=2) + "\n")
        label_sets = [labelling]
    searched = sum(f["searched"] for f in label_sets)
    changed = sum(f["changed"] for f in label_sets)
    if args.temperature is not None and not np.isfinite(data["values"]).any():
        raise SystemExit("--temperature needs per-action values, which these labels lack "
                         "(made before values were stored): label again")
    if args.temperature is not None:
        data["soft_targets"] = tilted_targets(model.policy, data, args.temperature)
    fit = fit_policy(model.policy, data, args.epochs, seed=args.seed, lr=args.lr,
                     log=lambda m: print(m, flush=True))
    fit["searched_agreement"] = agreement(model.policy, data["obs"], data["masks"],
                                          data["targets"], np.flatnonzero(data["searched_rows"]))
    print(f"after fitting, the policy's favourite is one of the search's best at "
          f"{fit['searched_agreement']:.1%} of the searched decisions (before: "
          f"{1 - changed / searched:.1%})", flush=True)
    model.save(out / "final_model.zip")
    seconds = round(time.time() - start, 1)
    commands = [run.get("command"), "meeplezoo improve " + shlex.join(argv)]
    commits = [run.get("code_commit"), code_commit()]
    if args.labels:  # the labels came from earlier commands: they belong to the recipe
        commands[1:1] = [f["command"] for f in label_sets]
        commits[1:1] = [f["code_commit"] for f in label_sets]
        seconds += sum(f["seconds"] for f in label_sets)
    run.update({
        "algorithm": "MaskablePPO (sb3-contrib) + rollout-search distillation",
        "command": " && ".join(c for c in commands if c),
        "code_commit": " && ".join(c for c in commits if c),
        "wall_time_s": round((run.get("wall_time_s") or 0.0) + seconds, 1),
        "improvement": {
            "method": "rollout search distilled (training.improve)",
            "searched": searched, "changed": changed, "decisions": len(data["actions"]),
            "label_sets": [{k: v for k, v in f.items() if k not in ("command", "code_commit")}
                           for f in label_sets],
            "fit": {"epochs": args.epochs, "lr": args.lr, "temperature": args.temperature,
                    **fit},
            "seconds": seconds,
        },
    })
    for key in ("name", "evaluation", "exported_at", "reproduce", "reproduce_note"):
        run.pop(key, None)  # a snapshot card's own fields are not facts of this run
    (out / "run.json").write_text(json.dumps(run, indent=2) + "\n")
    print(f"saved {out / 'final_model.zip'} in {seconds:.0f}s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(run_command(main))
