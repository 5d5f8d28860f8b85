"""Expert iteration: the search's choices distilled into the network, round after round.

    meeplezoo expert-iterate --checkpoint asian_delivery_v1/ppo_league --players 4 \\
        --rounds 4 --games 200 --gate-games 400 --seed 1 --out runs/exit/asian

Anthony et al. (2017) and AlphaZero: a search guided by the network is stronger than the
network, so the network trained on the search's choices gets stronger, and the next
round's search with it stronger still.  Each round:

1. **Search play** (``search_play``): the learner's seat in each game is played by Gumbel
   IS-MCTS with the current network's prior and value; the other seats are drawn from
   ``--pool`` (``heuristic``, ``random``, checkpoints, ``current``: the current network,
   ``earlier``: a network kept in an earlier round).  Each searched decision gives a policy
   target (the search's improved policy) and, when the game ends, a value target.
2. **Fitting**: from the current network's weights, the actor minimises the cross-entropy
   to the targets and the critic the squared error to the outcomes, on the rows of the last
   ``--window`` search rounds (``imitation.fit_policy``).
3. **The gate**: the fitted network alone (greedy, no search) and the current one play the
   same ``--gate-games`` deals from the same seat against ``--gate-field`` (a team that
   learns some of its roles: from those roles' seats only, ``gate_seats``)
   (``arena.paired``, a new seed each round: the command, ``training/expert_iterate.py``,
   hands it in, since ``fitting/`` sits below ``evaluation/``).  It is kept only if it wins
   at least as often (solo games: scores at least as high); otherwise the current network
   stays and the next round fits again on more rows.

Round 0 gives the start network its critic: an exported checkpoint keeps only its actor
(``init_from``), so the network plays ``--value-games`` games alone against the pool and
the critic is fitted on them with the actor frozen (checked: its logits do not move).
``--keep-value``: the searches' leaves read the start's fitted value file instead (its
card's ``value_file``: ``fit-value`` on thousands of recorded games, which the few games of a
round cannot match), carried with its ``value_fit`` into every round's network; the
critic is still fitted (the network's own value output) but no search reads it.
An asymmetric game's team learns every role (``--roles`` for some), one network per role,
the roles taking turns as the searching seat; the gate then plays the whole team from the
learning roles' seats.

The run folder holds every round (``round_K/``: the rows, the fitted network as a
checkpoint with its value output, the torch weights), ``rounds.jsonl`` (one line per round:
the search's results, the fit, the gate), ``run.json`` and ``best/``: the last kept
network, a checkpoint (or team) with a card saying how it was made.  ``--resume`` carries
on a stopped run from its journal.  Why: PPO on two cores has stalled in two games; a
search is a better teacher than more of the same gradient, and its targets need far fewer
games than PPO's samples.
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path, PurePosixPath
from typing import Any

import numpy as np

from meeplezoo import envs
from meeplezoo.envs.core.errors import ConfigError
from meeplezoo.envs.core.game import Game
from meeplezoo.envs.core.progress import Progress
from meeplezoo.envs.core.workers import default_workers
from meeplezoo.training.agents.opponents import (
    TEAM_FILE,
    CheckpointError,
    checkpoint_folder,
    read_team_card,
)
from meeplezoo.training.agents.specs import add_agents_argument, forms
from meeplezoo.training.agents.zoo import zoo_root
from meeplezoo.training.cli import add_reproduce_step, code_commit
from meeplezoo.training.fitting.onnx import policy_role
from meeplezoo.training.fitting.search_play import (
    CURRENT,
    EARLIER,
    LEGACY_SEARCH,
    OPPONENT_MODELS,
    RoundJob,
    SearchSettings,
    play_round_games,
    search_below_problem,
    stack_rows,
)

JOURNAL = "rounds.jsonl"
NET = "net"  # a round's network as a checkpoint (or team) folder
HELD_OUT_SHARE = 0.1  # of a round's games, kept out of its fit to measure it on new games
# The gate's paired comparison, ``arena.paired``'s signature: ``(env, players, first, second,
# games=, seed=, workers=, opponents=, options=, seats=)`` -> its result dict.
Compare = Callable[..., dict[str, Any]]


# -- the students: torch copies of the checkpoint's actors --------------------------------


def source_members(folder: Path) -> dict[str, Path]:
    """role -> checkpoint folder of a single checkpoint (its card's role) or a team."""
    if (folder / TEAM_FILE).exists():
        _, members, _ = read_team_card(folder)
        return {role: folder / sub for role, sub in members.items()}
    card = json.loads((folder / "card.json").read_text())
    game = envs.make_game(card["env"], num_players=int(card["player_counts"][0]),
                          **card.get("config", {}))
    return {policy_role(game, card): folder}  # cards from before roles name none


def new_policy(game: Game, role: str, card: dict[str, Any]) -> Any:
    """An SB3 actor-critic policy with the card's network, untrained."""
    import gymnasium as gym
    from sb3_contrib.ppo_mask.policies import MlpPolicy

    from meeplezoo.training.fitting.spatial import policy_spec

    net = card.get("net_arch") or [64, 64]
    policy, kwargs = policy_spec(card.get("arch", "mlp"), game.name,
                                 [256] if isinstance(net, dict) else net)
    if isinstance(net, dict):  # a spatial network's card records its extractor's settings
        kwargs = {**kwargs, "features_extractor_kwargs": dict(net)}
    cls = MlpPolicy if policy == "MlpPolicy" else policy
    low, high = game.observation_bounds(role)
    return cls(gym.spaces.Box(low, high, (game.observation_size(role),), np.float32),
               gym.spaces.Discrete(game.num_actions(role)), lambda _: 3e-4, **kwargs)


def students_from(folder: Path, game: Game, roles: list[str]) -> dict[str, Any]:
    """role -> a torch policy with the checkpoint's actor (logits checked against the ONNX
    file's) and a fresh critic."""
    from meeplezoo.training.fitting.init_from import copy_actor, resolve_checkpoint

    students = {}
    for role in roles:
        agent = resolve_checkpoint(folder, game, role, flag="--checkpoint")
        policy = new_policy(game, role, agent.card)
        copy_actor(policy, agent, flag="--checkpoint")
        students[role] = policy
    return students


# -- a round's network on disk -------------------------------------------------------------


def write_network(students: dict[str, Any], game: Game, cards: dict[str, dict], folder: Path,
                  team: dict[str, Any] | None, source: Path) -> Path:
    """The students as a checkpoint (ONNX with the value output, and card), or as a team
    folder of them and the ``source`` team's members of the roles that do not learn; the
    torch weights beside them for ``--resume``.  A card that keeps the source's fitted
    value file (``--keep-value``) gets the file beside it."""
    import torch

    from meeplezoo.training.fitting.onnx import write_onnx

    folder.mkdir(parents=True, exist_ok=True)
    members = source_members(source)
    for role, policy in students.items():
        where = folder / role if team is not None else folder
        write_onnx(policy, game.observation_size(role), game.num_actions(role),
                   where / "policy.onnx")
        (where / "card.json").write_text(json.dumps(cards[role], indent=2) + "\n")
        if cards[role].get("value_file"):
            shutil.copy2(members[role] / cards[role]["value_file"],
                         where / cards[role]["value_file"])
        torch.save(policy.state_dict(), folder.parent / f"{role}.pt")
    if team is not None:
        for role, member in members.items():
            if role not in students:
                shutil.copytree(member, folder / role, dirs_exist_ok=True)
        (folder / TEAM_FILE).write_text(json.dumps(team, indent=2) + "\n")
    return folder


def load_students(round_dir: Path, game: Game, cards: dict[str, dict]) -> dict[str, Any]:
    import torch

    students = {}
    for role, card in cards.items():
        policy = new_policy(game, role, card)
        policy.load_state_dict(torch.load(round_dir / f"{role}.pt", weights_only=True))
        students[role] = policy
    return students


# -- one round -------------------------------------------------------------------------------


def play_round(args: argparse.Namespace, run: dict[str, Any], current: Path,
               earlier: list[Path], settings: SearchSettings | None, round_no: int,
               games: int) -> tuple[dict[str, dict[str, np.ndarray]], list[dict]]:
    from meeplezoo.training.fitting.imitation import map_over_games

    label = "the network alone (the critic's games)" if settings is None else "search play"
    with Progress(games, f"expert-iterate round {round_no}: {label}",
                  style="off" if args.no_progress else "auto") as bar:
        parts = map_over_games(
            play_round_games,
            lambda ids: RoundJob(run["env"], run["config"], ids, args.seed * 1000 + round_no,
                                 str(current), tuple(str(e) for e in earlier),
                                 tuple(run["roles"]), tuple(run["pool"]), settings),
            games, args.workers, bar)
    return stack_rows(parts), [g for p in parts for g in p["games"]]


def window_rows(out: Path, role: str, rounds: list[int]) -> dict[str, np.ndarray]:
    parts = []
    for r in rounds:
        path = out / f"round_{r}" / f"rows_{role}.npz"
        if path.exists():
            with np.load(path) as stored:
                parts.append({k: stored[k] for k in stored.files})
    if not parts:
        raise ConfigError(f"no rows for role {role!r} in rounds {rounds}: play more --games")
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def overrule_figures(before: np.ndarray, after: np.ndarray, played: np.ndarray,
                     masks: np.ndarray) -> dict[str, Any]:
    """How a fit took the search's choices, over the decisions with a choice: ``overruled``,
    how many times the search played another action than the network's favourite
    (``before``); ``overruled_learned``, the share of them that the fitted network
    (``after``) now plays; ``kept_held``, the share of the others it still plays as the
    search did.  A student can agree with its teacher on 95% of the choices and still have
    learned only half of what the search changed, which is the part that makes it
    stronger."""
    choice = np.asarray(masks).sum(axis=1) > 1
    overruled = choice & (played != before)
    kept = choice & ~overruled
    return {"overruled": int(overruled.sum()),
            "overruled_learned": round(float(np.mean(after[overruled] == played[overruled])), 4)
            if overruled.any() else None,
            "kept_held": round(float(np.mean(after[kept] == played[kept])), 4)
            if kept.any() else None}


def fit_students(students: dict[str, Any], out: Path, rounds: list[int], epochs: int,
                 lr: float, seed: int, critic_only: bool,
                 latest: dict[str, dict[str, np.ndarray]] | None = None) -> dict[str, Any]:
    """Each role's policy fitted on its rows of ``rounds`` (``critic_only``: the actor
    frozen); the fit's figures per role.  ``latest``: the round's own rows, played by a
    search from the network the students start as, on which the figures add how the fit
    took the search's overrulings (``overrule_figures``)."""
    from meeplezoo.training.fitting.imitation import favourites, fit_policy
    from meeplezoo.training.fitting.init_from import CRITIC_PARTS, set_trainable

    figures = {}
    for role, policy in students.items():
        data = window_rows(out, role, rounds)
        data["targets"] = data["soft_targets"] >= data["soft_targets"].max(1, keepdims=True)
        own = (latest or {}).get(role)
        before = None if own is None else favourites(policy, own["obs"], own["masks"])
        new_games = None if own is None else held_out_games(own["games"], seed)
        held_out = None
        if new_games is not None:  # the round's rows are the window's last ones
            assert np.array_equal(data["actions"][-len(new_games):], own["actions"])
            held_out = len(data["actions"]) - len(new_games) + np.flatnonzero(new_games)
        actor = [n for n, _ in policy.named_parameters() if not n.startswith(CRITIC_PARTS)]
        if critic_only:
            set_trainable(policy, actor, False)
        try:
            fit = fit_policy(policy, data, epochs, seed=seed, lr=lr, held_out=held_out,
                             log=lambda m, role=role: print(f"{role}: {m}", flush=True))
        finally:
            set_trainable(policy, actor, True)
        figures[role] = {"rows": len(data["actions"]), **{k: round(float(v), 4)
                                                          for k, v in fit.items()}}
        if own is not None:
            after = favourites(policy, own["obs"], own["masks"])
            figures[role].update(overrule_figures(before, after, own["actions"], own["masks"]))
            if new_games is not None:
                rows = np.flatnonzero(new_games)
                figures[role]["new_games"] = {
                    "games": len(np.unique(own["games"][rows])),
                    **overrule_figures(before[rows], after[rows], own["actions"][rows],
                                       own["masks"][rows])}
    return figures


def held_out_games(games: np.ndarray, seed: int) -> np.ndarray | None:
    """Which of a round's rows (by their ``games`` ids) its fit keeps out: whole games,
    ``HELD_OUT_SHARE`` of them (at least one), so that how the student took the search's
    overrulings is also measured on games it did not fit.  On the fitted rows it reads
    higher than on new games: on アジアンデリバリー's round 1 of the @expert-teacher run
    (seed 17), 51% of the overrulings learned on the fitted games, 39% on 60 held-out
    ones (envs/asian_delivery/RULES.md).  None (nothing held out) under two games."""
    ids = np.unique(games)
    if len(ids) < 2:
        return None
    count = max(1, round(HELD_OUT_SHARE * len(ids)))
    chosen = np.random.default_rng([seed, len(ids)]).choice(ids, size=count, replace=False)
    return np.isin(games, chosen)


def gate(args: argparse.Namespace, run: dict[str, Any], candidate: Path, incumbent: Path,
         round_no: int, compare: Compare) -> dict[str, Any]:
    """The candidate and the incumbent, greedy, on the same deals (``compare``: the command
    hands in ``arena.paired``)."""
    result = compare(run["env"], run["config"]["num_players"], str(candidate), str(incumbent),
                    games=args.gate_games, seed=args.seed * 1000 + 500 + round_no,
                    workers=args.workers,
                    opponents=run["gate_field"], seats=run.get("gate_seats"),
                    options={k: v for k, v in run["config"].items() if k != "num_players"})
    keys = ("games", "win_share_a", "win_share_b", "win_share_difference",
            "win_share_difference_ci95", "mean_score_a", "mean_score_b", "score_difference",
            "score_difference_ci95", "seed")
    return {**{k: result[k] for k in keys if k in result}, "kept": keeps(result)}


def keeps(result: dict[str, Any]) -> bool:
    """The gate's rule: the candidate wins at least as often on the same deals, and on a tie
    scores at least as well (solo games: scores at least as well)."""
    if "win_share_difference" in result:
        return (result["win_share_difference"], result["score_difference"]) >= (0.0, 0.0)
    return result["score_difference"] >= 0.0


def round_summary(games: list[dict]) -> dict[str, Any]:
    decisions = sum(g["decisions"] for g in games)
    return {"games": len(games), "decisions": decisions,
            "changed": round(sum(g["changed"] for g in games) / max(decisions, 1), 4),
            "searched": round(sum(g["searched"] for g in games) / max(decisions, 1), 4),
            "learner_win_share": round(float(np.mean([g["win"] for g in games])), 4),
            "learner_mean_score": round(float(np.mean([g["score"] for g in games])), 2)}


# -- the run ---------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[1].strip())
    parser.add_argument("--checkpoint", required=True,
                        help="the start: a checkpoint or team folder, or a zoo name")
    parser.add_argument("--players", type=int, default=None,
                        help="players per game (default: the card's first count)")
    parser.add_argument("--roles", default=None,
                        help="comma-separated roles that learn (default: every role the "
                             "checkpoint plays)")
    parser.add_argument("--rounds", type=int, default=3, help="search rounds after round 0")
    parser.add_argument("--games", type=int, default=100, help="search games a round")
    parser.add_argument("--value-games", type=int, default=100,
                        help="round 0: games of the network alone that fit its critic")
    parser.add_argument("--keep-value", action="store_true",
                        help="the search's leaves read the start checkpoint's fitted value "
                             "file (its card's value_file: fit-value on many recorded games) "
                             "in every round, instead of the critic the rounds fit")
    add_agents_argument(parser, "--pool", default=["heuristic", CURRENT, EARLIER],
                        metavar="OPPONENT",
                        forms=forms(extra=[f"{CURRENT} (the current network)",
                                           f"{EARLIER} (a network kept in an earlier round)"]),
                        what=f"the field of the round's games (default heuristic {CURRENT} "
                             f"{EARLIER})")
    add_agents_argument(parser, "--gate-field", default=["heuristic"],
                        what="the field of the gate's games (default heuristic)")
    parser.add_argument("--gate-games", type=int, default=200)
    parser.add_argument("--simulations", type=int, default=16)
    parser.add_argument("--considered", type=int, default=4,
                        help="root actions Gumbel-top-k keeps for Sequential Halving")
    parser.add_argument("--c-scale", type=float, default=0.3)
    parser.add_argument("--opponent-model", choices=OPPONENT_MODELS, default="occupant",
                        help="who moves the other seats inside the search: occupant (the "
                             "bot that really sits there; default) or network (the current "
                             "network, greedy, as @hard models them: as strong a teacher in "
                             "アジアンデリバリー at a seventh of the CPU)")
    parser.add_argument("--search-below", type=float, default=None, metavar="P",
                        help="search only the decisions where the network's favourite has "
                             "less than probability P (0 < P <= 1); the others play the "
                             "favourite with the network's own distribution as the target. "
                             "Default: search every decision (SearchSettings.search_below: "
                             "in アジアンデリバリー below 0.8 held 87%% of the search's "
                             "overrulings in 39%% of the choices)")
    parser.add_argument("--rollout", default=None,
                        help="value the search's leaves by a playout to the end, the "
                             "learner's seat played by this bot (heuristic, random or a "
                             "checkpoint), instead of by the network's critic")
    parser.add_argument("--window", type=int, default=2,
                        help="rounds of rows each fit uses (the newest ones)")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--workers", type=int, default=default_workers(),
                        help=f"worker processes for the games (default {default_workers()})")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", required=True)
    parser.add_argument("--resume", action="store_true",
                        help="carry on the run in --out from its journal")
    parser.add_argument("--no-progress", action="store_true")
    return parser


def check_args(args: argparse.Namespace) -> None:
    for flag, value, least in (("--rounds", args.rounds, 0), ("--games", args.games, 1),
                               ("--value-games", args.value_games, 1),
                               ("--gate-games", args.gate_games, 1),
                               ("--simulations", args.simulations, 1),
                               ("--considered", args.considered, 2),
                               ("--window", args.window, 1), ("--epochs", args.epochs, 1)):
        if value < least:
            raise SystemExit(f"{flag} must be at least {least}, got {value}")
    problem = search_below_problem(args.search_below)
    if problem:
        raise SystemExit(f"--search-below {problem}")
    if args.lr <= 0 or args.c_scale <= 0:
        raise SystemExit(f"--lr and --c-scale must be positive, got {args.lr} and "
                         f"{args.c_scale}")


def check_opponent(spec: str, game: Game) -> None:
    """Refuse an opponent that can sit at none of ``game``'s seats, saying why."""
    from meeplezoo.training.agents.bots import make_bot

    problem: Exception | None = None
    for seat in range(game.num_players):
        try:
            make_bot(spec, game, seed=0, seat=seat)
            return
        except (ConfigError, CheckpointError) as exc:
            problem = exc
    raise SystemExit(f"opponent {spec!r}: {problem}")


def plan_run(args: argparse.Namespace, argv: list[str]) -> tuple[dict[str, Any], Game]:
    """The run's facts (env, config, roles, pool, cards), every input checked."""
    try:
        source = checkpoint_folder(args.checkpoint)
    except CheckpointError as exc:
        raise SystemExit(f"--checkpoint: {exc}") from None
    members = source_members(source)
    cards = {role: json.loads((folder / "card.json").read_text())
             for role, folder in members.items()}
    first = next(iter(cards.values()))
    players = args.players or int(first["player_counts"][0])
    if players not in first["player_counts"]:
        raise SystemExit(f"--players {players}: {args.checkpoint} plays "
                         f"{first['player_counts']}")
    config = {"num_players": players, **first.get("config", {})}
    try:
        game = envs.make_game(first["env"], **config)
    except ConfigError as exc:
        raise SystemExit(f"--players {players}: {exc}") from None
    roles = [r for r in (args.roles or ",".join(cards)).split(",") if r]
    unknown = [r for r in roles if r not in cards]
    if unknown:
        raise SystemExit(f"--roles {', '.join(unknown)}: the checkpoint plays "
                         f"{', '.join(cards)}")
    pool, gate_field = list(args.pool), list(args.gate_field)
    if not pool or not gate_field:
        raise SystemExit("--pool and --gate-field each need at least one opponent")
    for spec in [*(s for s in pool if s not in (CURRENT, EARLIER)), *gate_field]:
        check_opponent(spec, game)
    if args.rollout:
        check_opponent(args.rollout, game)
    if args.keep_value:
        lacking = [role for role, card in cards.items()
                   if role in roles and not card.get("value_file")]
        if lacking:
            raise SystemExit(f"--keep-value: {args.checkpoint} has no fitted value file for "
                             f"{', '.join(lacking)} (its card names no value_file); fit one "
                             "first: meeplezoo fit-value --records ...")
        if args.rollout:
            raise SystemExit("--keep-value and --rollout each say what a leaf is: give one")
    settings = SearchSettings(args.simulations, args.considered, c_scale=args.c_scale,
                              rollout=args.rollout, opponent_model=args.opponent_model,
                              search_below=args.search_below)
    run = {"env": game.name, "config": config, "source": str(source),
           "keep_value": bool(args.keep_value),
           "team": (source / TEAM_FILE).exists(), "roles": roles, "pool": pool,
           "gate_field": gate_field, "gate_seats": gate_seats(game, roles, list(cards)),
           "search": asdict(settings),
           "command": "meeplezoo expert-iterate " + shlex.join(argv),
           "code_commit": code_commit(), "seed": args.seed,
           "source_cards": cards}
    return run, game


def gate_seats(game: Game, learning: list[str], roles: list[str]) -> list[int] | None:
    """The seats the gate plays from: those of the roles that learn, when a team learns only
    some of its roles (from the others' seats the candidate and the incumbent are the same
    networks and play the same games, which only dilute the difference); None (every seat)
    otherwise."""
    if set(learning) == set(roles):
        return None
    return sorted(seat for role in learning for seat in game.role_seats(role))


def source_label(source: Path) -> str:
    """The start network as a card names it: a shipped one as ``checkpoints/<env>/<name>``
    (where the zoo is installed is this machine's, not the network's), another as given."""
    try:
        relative = source.resolve().relative_to(zoo_root().resolve())
    except ValueError:
        return str(source)
    return str(PurePosixPath("checkpoints", *relative.parts))


def round_cards(run: dict[str, Any], round_no: int, journal: list[dict]) -> dict[str, dict]:
    """Each role's card for a round's network: the source card, re-labelled."""
    cards = {}
    for role, card in run["source_cards"].items():
        if role not in run["roles"]:
            continue
        # a copy (the run's source cards are read again by every round), without the
        # source's measured levels: they are another network's
        card = {k: v for k, v in card.items() if k not in ("levels", "reproduce_note") and (
            run.get("keep_value") or k not in ("value_file", "value_fit"))}
        if not run.get("keep_value"):  # the source's value is not this network's
            card["reproduce"] = [s for s in card.get("reproduce") or []
                                 if s.get("stage") not in ("records", "value")]
        commits = str(run["code_commit"]).split(" && ")
        for k, command in enumerate(str(run["command"]).split(" && ")):  # a --resume: two
            add_reproduce_step(card, "rounds", command, f"expert iteration; this network is "
                               f"round {round_no}'s (round_{round_no}/net)", last=True,
                               code_commit=commits[k] if len(commits) > k else None)
        card.update({
            "name": f"{card['name']}_exit{round_no}",
            # searched, fitted and gated at this count alone: other counts are not measured
            # (Necropolis's solo rounds cost its 2-player network six points of win share)
            "player_counts": [run["config"]["num_players"]],
            "algorithm": f"{card.get('algorithm', 'MaskablePPO')} + expert iteration "
                         "(Gumbel IS-MCTS distilled, meeplezoo expert-iterate)",
            "command": " && ".join(c for c in (card.get("command"), run["command"]) if c),
            "code_commit": " && ".join(c for c in (card.get("code_commit"),
                                                    run["code_commit"]) if c),
            "expert_iteration": {"source": source_label(Path(run["source"])),
                                 "round": round_no,
                                 "source_player_counts": card["player_counts"],
                                 "search": run["search"], "pool": run["pool"],
                                 "rounds": [{k: j[k] for k in ("round", "kept", "play", "gate")
                                             if k in j} for j in journal]},
            "exported_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "evaluation": None,
        })
        cards[role] = card
    return cards


def team_card(run: dict[str, Any], round_no: int) -> dict[str, Any] | None:
    if not run["team"]:
        return None
    team = json.loads((Path(run["source"]) / TEAM_FILE).read_text())
    roles = {role: role for role in team["roles"]}
    return {"name": f"{team.get('name', 'team')}_exit{round_no}", "env": run["env"],
            "roles": roles, "members": roles, "learning": run["roles"],
            "command": run["command"], "code_commit": run["code_commit"],
            "exported_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "evaluation": None}


def save_rows(out: Path, round_no: int, rows: dict[str, dict[str, np.ndarray]]) -> None:
    """A round's rows on disk, once, before its fit: the fit reads its window from there."""
    folder = out / f"round_{round_no}"
    folder.mkdir(parents=True, exist_ok=True)
    for role, data in rows.items():
        np.savez(folder / f"rows_{role}.npz", **data)


def save_round(out: Path, round_no: int, students: dict[str, Any], game: Game,
               run: dict[str, Any], journal: list[dict]) -> Path:
    """A round's fitted network beside the rows ``save_rows`` wrote."""
    return write_network(students, game, round_cards(run, round_no, journal),
                         out / f"round_{round_no}" / NET, team_card(run, round_no),
                         Path(run["source"]))


def read_journal(out: Path) -> list[dict]:
    path = out / JOURNAL
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def append_journal(out: Path, entry: dict[str, Any]) -> None:
    with (out / JOURNAL).open("a") as f:
        f.write(json.dumps(entry) + "\n")


def run_round_zero(args: argparse.Namespace, run: dict[str, Any], game: Game, out: Path,
                   students: dict[str, Any]) -> dict[str, Any]:
    """The start network plays alone; its critic is fitted with the actor frozen."""
    from meeplezoo.training.agents.opponents import PolicyAgent
    from meeplezoo.training.fitting.init_from import LOGIT_TOLERANCE, logit_gap

    start = time.time()
    rows, games = play_round(args, run, Path(run["source"]), [], None, 0, args.value_games)
    save_rows(out, 0, rows)
    fit = fit_students(students, out, [0], args.epochs, args.lr, args.seed, critic_only=True)
    members = source_members(Path(run["source"]))
    gaps = {role: logit_gap(policy, PolicyAgent(members[role]))
            for role, policy in students.items()}
    if max(gaps.values()) > LOGIT_TOLERANCE:
        raise RuntimeError(f"round 0 moved the actor (logit gaps {gaps}): it must fit only "
                           "the critic")
    entry = {"round": 0, "kept": True, "play": round_summary(games), "fit": fit,
             "seconds": round(time.time() - start, 1)}
    save_round(out, 0, students, game, run, [entry])
    return entry


def iterate(argv: list[str] | None, compare: Compare) -> int:
    """The run ``meeplezoo expert-iterate`` asks for (``argv``, default: this process's),
    each round's gate played by ``compare`` (``arena.paired``)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(argv)
    from meeplezoo.training.cli import require_training_extra

    require_training_extra("meeplezoo.training.fitting.expert_iteration")
    check_args(args)
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)  # the fresh critics' first weights
    out = Path(args.out)
    journal = read_journal(out)
    if journal and not args.resume:
        raise SystemExit(f"--out {out} holds a run ({JOURNAL}): give --resume to carry it on, "
                         "or another --out")
    if args.resume and not journal:
        raise SystemExit(f"--resume: {out} has no {JOURNAL} to carry on from")
    if args.resume:  # the run's settings stay; its command gains this one
        run = json.loads((out / "run.json").read_text())
        game = envs.make_game(run["env"], **run["config"])
        run["command"] += " && meeplezoo expert-iterate " + shlex.join(argv)
        run["code_commit"] += " && " + code_commit()  # the code the later rounds ran on
        (out / "run.json").write_text(json.dumps(run, indent=2) + "\n")
    else:
        run, game = plan_run(args, argv)
        try:  # a network the run cannot copy is refused before anything is written
            students = students_from(Path(run["source"]), game, run["roles"])
        except CheckpointError as exc:
            raise SystemExit(str(exc)) from None
        out.mkdir(parents=True, exist_ok=True)
        (out / "run.json").write_text(json.dumps(run, indent=2) + "\n")
    settings = SearchSettings(**{**LEGACY_SEARCH, **run["search"]})
    cards = {role: run["source_cards"][role] for role in run["roles"]}
    if not journal:
        print(f"round 0: {args.value_games} games of the network alone fit its critic ...",
              flush=True)
        journal.append(run_round_zero(args, run, game, out, students))
        append_journal(out, journal[-1])
    kept = [j["round"] for j in journal if j["kept"]]
    students = load_students(out / f"round_{kept[-1]}", game, cards)
    for round_no in range(len(journal), args.rounds + 1):
        start = time.time()
        current = out / f"round_{kept[-1]}" / NET
        earlier = [out / f"round_{r}" / NET for r in kept[:-1]]
        rows, games = play_round(args, run, current, earlier, settings, round_no, args.games)
        save_rows(out, round_no, rows)
        # the search's rows only: round 0's are the start network's own choices
        window = list(range(max(1, round_no - args.window + 1), round_no + 1))
        fit = fit_students(students, out, window, args.epochs, args.lr,
                           args.seed + round_no, critic_only=False, latest=rows)
        entry = {"round": round_no, "play": round_summary(games), "fit": fit}
        candidate = save_round(out, round_no, students, game, run, [*journal, entry])
        entry["gate"] = gate(args, run, candidate, current, round_no, compare)
        entry["kept"] = entry["gate"].pop("kept")
        entry["seconds"] = round(time.time() - start, 1)
        journal.append(entry)
        append_journal(out, entry)
        print(round_line(entry), flush=True)
        if entry["kept"]:
            kept.append(round_no)
        else:  # the next round starts again from the kept network
            students = load_students(out / f"round_{kept[-1]}", game, cards)
    best = out / "best"
    shutil.rmtree(best, ignore_errors=True)
    shutil.copytree(out / f"round_{kept[-1]}" / NET, best)
    print(f"best: round {kept[-1]}'s network, in {best}", flush=True)
    return 0


def round_line(entry: dict[str, Any]) -> str:
    play, gate_ = entry["play"], entry["gate"]
    versus = (f"win share {gate_['win_share_a']:.3f} vs {gate_['win_share_b']:.3f}"
              if "win_share_a" in gate_ else
              f"mean score {gate_['mean_score_a']:.1f} vs {gate_['mean_score_b']:.1f}")
    result = (f"won {play['learner_win_share']:.1%} of" if "win_share_a" in gate_ else
              f"scored {play['learner_mean_score']:.1f} on average in")  # solo: no one to beat
    took = [f"{role + ' ' if len(entry['fit']) > 1 else ''}{f['overruled_learned']:.0%} of "
            f"them, {f['kept_held']:.0%} of the rest" for role, f in entry.get("fit", {}).items()
            if f.get("overruled_learned") is not None and f.get("kept_held") is not None]
    learned = f" (the fit plays {'; '.join(took)} as the search did)" if took else ""
    new = [f"{role + ' ' if len(entry['fit']) > 1 else ''}{n['overruled_learned']:.0%} / "
           f"{n['kept_held']:.0%}" for role, f in entry.get("fit", {}).items()
           if (n := f.get("new_games")) and n.get("overruled_learned") is not None
           and n.get("kept_held") is not None]
    if new:
        games = next(f["new_games"]["games"] for f in entry["fit"].values()
                     if f.get("new_games"))
        learned += (f" (on {games} game{'s' if games != 1 else ''} it did not fit: "
                    f"{'; '.join(new)})")
    share = play.get("searched", 1.0)
    searched = f", searched {share:.1%} of the choices," if share < 1.0 else ""
    return (f"round {entry['round']}: the search {result} "
            f"{play['games']} games{searched} and changed {play['changed']:.1%} of the network's "
            f"choices{learned}; gate ({gate_['games']} paired games): {versus} -> "
            f"{'kept' if entry['kept'] else 'not kept'} ({entry['seconds']:.0f}s)")
