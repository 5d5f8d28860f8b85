"""Export a trained MaskablePPO policy as an opponent: ONNX + model card.

    meeplezoo export --model runs/x/final_model.zip --name ppo_league \
        [--out checkpoints] [--eval-games 1000]
    meeplezoo export --snapshot runs/x/pool/step_000500000 --name ppo_league
    meeplezoo export --carry checkpoints/x_v0/ppo_league --to-env x_v1 \
        --eval-games 1000

Writes ``<out>/<env>/<name>/policy.onnx`` (inputs ``observation`` float32
[batch, obs] and ``action_mask`` float32 [batch, actions]; output masked
logits) and ``card.json``.  The training facts (env config, steps, seed, wall
time, exact command) come from ``run.json`` beside the model; with
``--eval-games`` the card also records the evaluation it earned.
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from meeplezoo import envs
from meeplezoo.envs.core.command import run_command
from meeplezoo.envs.core.errors import ConfigError
from meeplezoo.training.agents.opponents import action_names_hash, names_hash
from meeplezoo.training.agents.specs import add_agents_argument, forms
from meeplezoo.training.cli import add_reproduce_step, code_commit
from meeplezoo.training.fitting.onnx import (  # the library part, re-exported for callers
    export_model,
    export_snapshot,
    policy_role,
)

# A card's evaluation is keyed by its field (vs_random, vs_heuristic, vs_<folder>): the bots
# and checkpoint folders only, not the other forms an agent may take elsewhere.
EVAL_FIELD_FORMS = "random, heuristic or a checkpoint folder"


def export_lookahead(base: str | Path, name: str, out: str | Path, search: list[str],
                     rollouts: int, margin_weight: float, opponent_model: str,
                     command: str) -> Path:
    """Ship a checkpoint's policy with a decision-time rollout search
    (``training.search``): the same network, a card with a ``lookahead`` block
    that ``make_bot`` plays.  The card keeps how the network was trained and
    says how the look-ahead was added (``command``)."""
    from meeplezoo.training.agents.opponents import PolicyAgent
    from meeplezoo.training.agents.search import LookaheadBot
    from meeplezoo.training.agents.search import opponent_model as model_of

    agent = PolicyAgent(base)  # refuses a folder that is not one policy's checkpoint
    base = Path(agent.path)  # a zoo name's folder
    if agent.card.get("lookahead"):
        raise ConfigError(f"{base} already has a look-ahead; start from the plain network")
    game = envs.make_game(agent.env_name, **agent.card["config"],
                          num_players=agent.card["player_counts"][0])
    model = model_of(game, opponent_model)
    LookaheadBot(game, agent, search, rollouts, margin_weight, model)
    if model is not None:
        model(0)  # every opponent built now: a spec that cannot play is refused before export
    folder = Path(out) / agent.env_name / name
    if folder.resolve() == base.resolve():
        raise ConfigError("the look-ahead checkpoint needs its own --name, not the base's")
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(base / "policy.onnx", folder / "policy.onnx")
    if agent.card.get("value_file"):  # a value fitted after export: the card names it
        shutil.copyfile(base / agent.card["value_file"], folder / agent.card["value_file"])
    card = dict(agent.card)
    card.update({
        "name": name,
        "algorithm": f"{card.get('algorithm', 'MaskablePPO (sb3-contrib)')} + decision-time "
                     "rollout search (training.search)",
        "lookahead": {"search": list(search), "rollouts": rollouts,
                      "margin_weight": margin_weight, "opponent_model": opponent_model,
                      "base": base.name, "command": command, "code_commit": code_commit()},
        "exported_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "evaluation": None,
    })
    if command:
        add_reproduce_step(card, "ship", command, f"the network of {base.name} with a "
                           "look-ahead at play time", code_commit=code_commit())
    (folder / "card.json").write_text(json.dumps(card, indent=2) + "\n")
    return folder


def _family(env_name: str) -> str:
    return env_name.rsplit("_v", 1)[0]


def carry_checkpoint(source: str | Path, to_env: str, out: str | Path = "runs/checkpoints",
                     command: str | None = None, folder: Path | None = None) -> Path:
    """Copy a checkpoint to a newer version of its env, whose rules changed but whose
    observation and action layout did not; the copy awaits a fresh evaluation.

    Refused for another game, or when any feature or action name differs (the
    network would read the new layout wrongly: retrain instead).  The old card's
    evaluation moves to ``carried_from``, so no figure measured under the old rules
    is shown as the new version's.  A team (a folder with ``team.json``) is carried member
    by member (``carry_team``); ``folder`` overrides ``<out>/<to_env>/<name>``.
    """
    from meeplezoo.training.agents.opponents import CheckpointError, PolicyAgent
    from meeplezoo.training.agents.zoo import TEAM_FILE

    if (Path(source) / TEAM_FILE).is_file():
        return carry_team(source, to_env, out, command)
    agent = PolicyAgent(source)
    card = agent.card
    if _family(card["env"]) != _family(to_env) or card["env"] == to_env:
        raise CheckpointError(f"{source}: a checkpoint of {card['env']} can be carried to a "
                              f"newer version of the same game, not to {to_env!r}")
    for players in card["player_counts"]:
        game = envs.make_game(to_env, num_players=players, **card["config"])
        role = policy_role(game, card)
        if (game.observation_size(role), game.num_actions(role)) != (
                card["observation_size"], card["action_count"]) or (
                names_hash(game.feature_names(role)), action_names_hash(game, role)) != (
                card["feature_names_hash"], card.get("action_names_hash")):
            raise CheckpointError(
                f"{source}: {to_env} ({players} players, role {role}) has another "
                "observation or action layout than the checkpoint; retrain it instead")
    folder = folder or Path(out) / to_env / card["name"]
    if folder.exists():
        raise CheckpointError(f"{folder} exists already; remove it or carry another checkpoint")
    folder.mkdir(parents=True)
    shutil.copy2(agent.path / "policy.onnx", folder / "policy.onnx")
    if card.get("value_file"):  # a value fitted after export goes with its network
        shutil.copy2(agent.path / card["value_file"], folder / card["value_file"])
    carried = {"env": card["env"], "evaluation": card.get("evaluation"), "command": command,
               "code_commit": code_commit(),
               "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    new_card = {**card, "env": to_env, "env_version": int(to_env.rsplit("_v", 1)[1]),
                "evaluation": None,
                "carried_from": [*card.get("carried_from", []), carried]}
    if command:
        add_reproduce_step(new_card, "carry", command, f"carry the network from {card['env']}",
                           code_commit=carried["code_commit"])
    (folder / "card.json").write_text(json.dumps(new_card, indent=2, ensure_ascii=False) + "\n")
    return folder


def carry_team(source: str | Path, to_env: str, out: str | Path = "runs/checkpoints",
               command: str | None = None) -> Path:
    """Carry a team checkpoint to ``to_env``: each role's member as ``carry_checkpoint`` does
    (the same layout checks), and ``team.json`` with its evaluation moved to
    ``carried_from``."""
    from meeplezoo.training.agents.opponents import read_team_card
    from meeplezoo.training.agents.zoo import TEAM_FILE, CheckpointError

    source = Path(source)
    team, members, _env = read_team_card(source)
    folder = Path(out) / to_env / team["name"]
    if folder.exists():
        raise CheckpointError(f"{folder} exists already; remove it or carry another checkpoint")
    try:
        for role, member in members.items():
            carry_checkpoint(source / member, to_env, out, command, folder / role)
    except Exception:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    carried = {"env": team["env"], "evaluation": team.get("evaluation"), "command": command,
               "code_commit": code_commit(),
               "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    new_team = {**team, "env": to_env, "evaluation": None,
                "carried_from": [*team.get("carried_from", []), carried]}
    if command:
        add_reproduce_step(new_team, "carry", command, f"carry the team from {team['env']}",
                           code_commit=carried["code_commit"])
    (folder / TEAM_FILE).write_text(json.dumps(new_team, indent=2) + "\n")
    return folder


def export_team(name: str, members: list[str], out: str | Path = "runs/checkpoints",
                command: str | None = None) -> Path:
    """Bundle one checkpoint per role into a team: ``<out>/<env>/<name>/<role>/`` plus
    ``team.json``; ``make_bot`` plays a team in any seat by that seat's role."""
    from meeplezoo.training.agents.opponents import TEAM_FILE, CheckpointError, PolicyAgent

    agents = [PolicyAgent(m) for m in members]  # a team is no member: its error says so
    env_names = {a.env_name for a in agents}
    if len(env_names) != 1:
        raise CheckpointError(f"team members are made for different envs: {sorted(env_names)}")
    env_name = env_names.pop()
    game_cls = envs.game_class(env_name)
    roles = [a.role for a in agents]
    if None in roles or len(set(roles)) != len(roles):
        raise CheckpointError(f"a team needs one checkpoint per role, each naming its role; "
                              f"got roles {roles}")
    if set(roles) != set(game_cls.roles):
        raise CheckpointError(f"a team of {env_name} needs the roles {list(game_cls.roles)}; "
                              f"got {roles}")
    folder = Path(out) / env_name / name
    if folder.exists():
        raise CheckpointError(f"{folder} exists already")
    for agent, role in zip(agents, roles):
        shutil.copytree(agent.path, folder / role)
        if command:  # each member's list ends with the bundle it ships in
            member = json.loads((folder / role / "card.json").read_text())
            add_reproduce_step(member, "team", command, f"bundle the team {name}",
                               code_commit=code_commit())
            (folder / role / "card.json").write_text(
                json.dumps(member, indent=2, ensure_ascii=False) + "\n")
    team = {"name": name, "env": env_name, "roles": {role: role for role in roles},
            "members": {role: str(agent.path) for role, agent in zip(roles, agents)},
            "command": command, "code_commit": code_commit(),
            "exported_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    if command:
        team["reproduce"] = [{"stage": "team", "command": command, "what": "bundle one member "
                              "per role (each member's card lists the steps that made it)",
                              "code_commit": team["code_commit"]}]
    (folder / TEAM_FILE).write_text(json.dumps(team, indent=2) + "\n")
    return folder


def record_export_step(folder: Path, command: str, evaluated: bool) -> None:
    """Add the export's own command to the new card's ``reproduce`` list."""
    card_path = folder / "card.json"
    card = json.loads(card_path.read_text())
    add_reproduce_step(card, "export", command, "ONNX and card" + (
        ", evaluated (the card's evaluation)" if evaluated else ""), code_commit=code_commit())
    card_path.write_text(json.dumps(card, indent=2) + "\n")


def _games(result: Any) -> int:
    """How many games an evaluation entry rests on (a solo entry: its agents' largest)."""
    if not isinstance(result, dict):
        return 0
    if isinstance(result.get("games"), int):
        return result["games"]
    return max((_games(r) for r in result.values()), default=0)


def sb3_and_onnx_agree(model_path: str | Path, folder: str | Path, states: list) -> int:
    """How many of ``states`` the SB3 model and the ONNX export answer differently."""
    from sb3_contrib import MaskablePPO

    from meeplezoo.training.agents.opponents import PolicyAgent

    model = MaskablePPO.load(str(model_path), device="cpu")
    agent = PolicyAgent(folder)
    differ = 0
    for obs, mask in states:
        sb3_action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        differ += int(int(sb3_action) != agent.act(obs, mask))
    return differ


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(description="Export a MaskablePPO model as an opponent")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--model", help="the .zip saved by training.train")
    source.add_argument("--snapshot", help="a league snapshot folder, <run>/pool/step_N")
    source.add_argument("--lookahead", metavar="CHECKPOINT",
                        help="ship this checkpoint's network with a decision-time rollout "
                             "search (--search, --rollouts, --margin-weight, --opponent-model)")
    source.add_argument("--evaluate", metavar="CHECKPOINT",
                        help="evaluate a shipped checkpoint again (--eval-fields) and record "
                             "the results in its card")
    source.add_argument("--carry", metavar="CHECKPOINT",
                        help="copy a checkpoint to a newer version of its env (--to-env) whose "
                             "layout is unchanged; evaluate it there with --eval-games")
    parser.add_argument("--to-env", help="--carry: the env id to carry the checkpoint to")
    add_agents_argument(parser, "--team", metavar="CHECKPOINT", group=source,
                        forms="checkpoint folders or zoo names, one per role",
                        what="bundle these as a team checkpoint named --name")
    parser.add_argument("--name", help="checkpoint name (folder); needed unless --evaluate")
    parser.add_argument("--out", default="runs/checkpoints",
                        help="where <env>/<name>/ is written (default runs/checkpoints; the "
                             "tracked checkpoints/ folder only when you mean to ship it)")
    parser.add_argument("--replace-evaluation", action="store_true",
                        help="let a smaller evaluation replace a larger one in the card")
    parser.add_argument(
        "--eval-games",
        type=int,
        default=0,
        help="evaluate against the --eval-fields (default random and heuristic), record it "
             "in the card and print a summary",
    )
    parser.add_argument("--eval-players", type=int, help="player count of the evaluation")
    parser.add_argument("--json", metavar="FILE",
                        help="also write the evaluation as JSON (the card holds it too; the "
                             "terminal gets a summary)")
    parser.add_argument("--env", help="--model trained elsewhere (no run.json): its env")
    parser.add_argument("--players", type=int, help="--model trained elsewhere: player count")
    parser.add_argument("--role", help="--model trained elsewhere: the role it plays")
    add_agents_argument(parser, "--eval-fields", default=["random", "heuristic"],
                        forms=EVAL_FIELD_FORMS, metavar="FIELD",
                        what="the fields the card's evaluation plays against (default random "
                             "heuristic)")
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument("--progress", action="store_true",
                        help="print each evaluation game's running win share (default: the "
                             "games counted on stderr: a bar on a terminal, else a line every "
                             "30 s with games/s and the time left)")
    parser.add_argument("--search", default="pick",
                        help="--lookahead: comma-separated decision kinds to search")
    parser.add_argument("--rollouts", type=int, default=8,
                        help="--lookahead: playouts per candidate action")
    parser.add_argument("--margin-weight", type=float, default=0.2,
                        help="--lookahead: weight of the score margin in a playout's value")
    add_agents_argument(parser, "--opponent-model", default=["self"],
                        forms="self (the policy), or " + forms(levels=False),
                        what="--lookahead: who moves the other seats in the playouts "
                             "(default self)")
    args = parser.parse_args(argv)
    fields = tuple(args.eval_fields)
    unknown = [f for f in fields if f not in ("random", "heuristic") and not Path(f).is_dir()]
    if unknown or not fields:
        parser.error(f"--eval-fields: {unknown or 'none'}: fields are {EVAL_FIELD_FORMS}")
    if "self" in args.opponent_model and len(args.opponent_model) > 1:
        parser.error(f"--opponent-model {' '.join(args.opponent_model)}: self (the policy "
                     "moves every seat) stands alone; or name the opponents")
    if not (args.evaluate or args.carry) and not args.name:
        parser.error("--name is needed to export a checkpoint: give --name NAME, the "
                     "folder it gets under <out>/<env>/")
    if args.team:
        folder = export_team(args.name, list(args.team), args.out,
                             "meeplezoo export " + shlex.join(argv))
        print(f"exported team {folder}")
        return 0
    if args.carry:
        if args.to_env not in envs.list_envs():
            parser.error(f"--carry needs --to-env, one of {envs.list_envs()}")
        folder = carry_checkpoint(args.carry, args.to_env, args.out,
                                  "meeplezoo export " + shlex.join(argv))
    elif args.evaluate:
        folder = Path(args.evaluate)
        if not args.eval_games:
            parser.error("--evaluate needs --eval-games")
    elif args.snapshot:
        folder = export_snapshot(args.snapshot, args.name, args.out)
    elif args.lookahead:
        if args.rollouts < 1:
            parser.error(f"--rollouts must be at least 1, got {args.rollouts}")
        folder = export_lookahead(
            args.lookahead, args.name, args.out, [k for k in args.search.split(",") if k],
            args.rollouts, args.margin_weight, ",".join(args.opponent_model),
            "meeplezoo export " + shlex.join(argv),
        )
    else:
        run = None
        if args.env is not None:
            if args.env not in envs.list_envs():
                parser.error(f"--env {args.env!r}: choose one of {envs.list_envs()}")
            players = args.players or envs.game_class(args.env).default_players
            run = {"env": args.env, "config": {"num_players": players}, "player_counts": [players],
                   "role": args.role, "command": None}
        from meeplezoo.training.cli import require_training_extra

        require_training_extra("training.export --model")
        folder = export_model(args.model, args.name, args.out, run)
    if args.snapshot or args.model:  # a new network (a carry, a team: their own steps)
        record_export_step(folder, "meeplezoo export " + shlex.join(argv), bool(args.eval_games))
    print(f"evaluating {folder}" if args.evaluate else f"exported {folder}", flush=True)
    if args.eval_games:
        from meeplezoo.training.evaluation.evaluate import evaluate_checkpoint

        card_path = folder / "card.json"
        if not card_path.exists():
            parser.error(f"{folder} has no card.json: not a checkpoint")
        results = evaluate_checkpoint(
            folder, games=args.eval_games, players=args.eval_players, seed=args.seed,
            fields=fields, progress=args.progress, progress_style="auto",
        )
        command = "meeplezoo export " + shlex.join(argv)
        for result in results.values():
            if isinstance(result, dict):
                result.update(command=command, code_commit=code_commit())
        card = json.loads(card_path.read_text())  # read again: the card may be newer
        before = card.get("evaluation") or {}
        smaller = [k for k, r in results.items() if _games(r) < _games(before.get(k))]
        if smaller and not args.replace_evaluation:
            raise SystemExit(
                f"{card_path}: the card's {', '.join(smaller)} evaluation has more games than "
                f"this one ({args.eval_games}); nothing was written (--replace-evaluation "
                "replaces it anyway)")
        card["evaluation"] = {**before, **results}
        if args.evaluate:  # an export's own step already names its evaluation
            add_reproduce_step(card, "ship", command, "evaluate it (the card's evaluation)",
                               code_commit=code_commit())
        card_path.write_text(json.dumps(card, indent=2) + "\n")
        print("\n".join(evaluation_lines(results)))
        print(f"recorded in {card_path}")
        if args.json:
            Path(args.json).write_text(json.dumps(results, indent=2) + "\n")
    return 0


def evaluation_lines(results: dict[str, Any]) -> list[str]:
    """A card's evaluation as a reader wants it after an export: per field the win rate with
    its 95% interval beside a seat's fair share, the mean scores and the rate per seat; alone,
    each agent's mean score.  Every figure stays in the card (and ``--json``)."""
    lines = []
    for key, r in results.items():
        if key == "solo":
            continue
        low, high = r["win_rate_ci95"]
        seats = " ".join(f"{label} {rate:.3f}" if n else f"{label} -" for label, rate, n in
                         zip(r["seat_labels"], r["win_rate_by_seat"], r["games_by_seat"]))
        lines += [f"vs {r['field']} ({r['players']} players, {r['games']} games): win rate "
                  f"{r['win_rate']:.3f} [{low:.3f}-{high:.3f}] (a seat's fair share "
                  f"{r['seat_share_baseline']:.3f}); mean score {r['mean_score']:.1f} against "
                  f"the field's {r['mean_field_score']:.1f}, mean place {r['mean_place']:.2f}",
                  f"  by seat: {seats}"]
    for agent, r in (results.get("solo") or {}).items():
        if not isinstance(r, dict):  # the evaluation's command and commit, beside the agents
            continue
        low, high = r["mean_score_ci95"]
        lines.append(f"solo, {agent} ({r['games']} games): mean score {r['mean_score']:.1f} "
                     f"[{low:.1f}-{high:.1f}]")
    return lines


if __name__ == "__main__":
    np.set_printoptions(precision=3)
    raise SystemExit(run_command(main))
