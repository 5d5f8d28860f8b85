"""``meeplezoo fit-value --records DIR [DIR ...]``: a checkpoint's value fitted on game
records (one run, or several joined), with its learning curve and baselines in the card.

    meeplezoo selfplay --env asian_delivery_v1 --players 4 \\
        --agents asian_delivery_v1/ppo_league --games 21000 --seed 20261401 --keep 0.05 \\
        --out records/ad
    meeplezoo fit-value --checkpoint asian_delivery_v1/ppo_league --records records/ad \\
        --sizes 2000,5000,10000,20000 --held-out-games 1000 --out runs/value/ad

Why records: values fitted on the 1,200-2,000 games one ``fit-value`` run could afford
explained 6-14% of the outcome; games with the networks cost 0.06-0.6 s of CPU, so ten to a
hundred times more data is cheap, and a learning curve shows whether more would still
help.  The curve and the baselines (``value_curve``) go into the card's ``value_fit`` block
with the records' manifest (command, commit, seed), so the value can be made again from
the card alone.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path

from meeplezoo import envs
from meeplezoo.envs.core.errors import ConfigError
from meeplezoo.training.agents.opponents import (
    CheckpointError,
    TeamAgent,
    card_value_path,
    checkpoint_folder,
    load,
)
from meeplezoo.training.cli import add_reproduce_step, code_commit, reproduce_steps
from meeplezoo.training.data.records import RecordSet
from meeplezoo.training.fitting import value_curve

DEFAULT_SIZES = (2000, 5000, 10000, 20000, 50000)
DEFAULT_HELD_OUT = 1000
VALUE_FILE = "value.onnx"
PLAY_OPTIONS = ("--games", "--keep", "--held-out", "--players")  # the self-play mode's


# the first head's target in words, and its metrics' prefix: a place value's log-loss and
# Brier score are of the place share, not of the winner, and are named so
SHARE_WORDS = {"win": "win share", "place": "place share (1 - place / (N - 1): the share of "
               "the other seats finished above, ties a half)"}
SHARE_KEYS = {"win": "winner", "place": "place"}


def renamed(figures: object, objective: str) -> object:
    """``figures`` (a learning curve or baselines, as ``value_curve`` gives them) with its
    ``winner_*`` metrics named ``place_*`` for a place value: what they score is the place
    share."""
    if objective == "win":
        return figures
    if isinstance(figures, dict):
        return {(f"{SHARE_KEYS[objective]}_{k[len('winner_'):]}" if k.startswith("winner_")
                 else k): renamed(v, objective) for k, v in figures.items()}
    if isinstance(figures, list):
        return [renamed(v, objective) for v in figures]
    return figures


def _sizes(text: str | None, available: int) -> list[int]:
    """The curve's data sizes: named, or the defaults the records can hold (and all of
    them, when that is not a default)."""
    if text is not None:
        try:
            sizes = sorted({int(part) for part in text.split(",") if part.strip()})
        except ValueError:
            raise ConfigError(f"--sizes {text!r}: give game counts separated by commas, e.g. "
                              "2000,5000,10000") from None
        return sizes
    sizes = [size for size in DEFAULT_SIZES if size <= available]
    if not sizes or sizes[-1] < available:
        sizes.append(available)
    return sizes


def member_folders(folder: Path) -> dict[str | None, Path]:
    """role -> member folder (one checkpoint: its own role, or None for a symmetric game)."""
    agent = load(str(folder))
    if isinstance(agent, TeamAgent):
        return {role: member.path for role, member in agent.members.items()}
    return {agent.role: agent.path}


def compared_values(specs: list[str], members: dict[str | None, Path]
                    ) -> dict[str | None, dict[str, Path]]:
    """``--compare-values``: role -> {checkpoint named: its member's value file}, for each
    role fitted here.  A checkpoint without a value for a role fitted here is refused."""
    found: dict[str | None, dict[str, Path]] = {role: {} for role in members}
    for spec in specs:
        theirs = member_folders(checkpoint_folder(spec))
        for role in members:
            folder = theirs.get(role)
            path = None if folder is None else card_value_path(folder)
            if path is None:
                raise ConfigError(f"--compare-values {spec}: it has no value for "
                                  f"{role or 'the game'} (its card names no value_file)")
            found[role][spec] = path
    return found


def fit_from_records(args: argparse.Namespace, argv: list[str] | None,
                     parser: argparse.ArgumentParser) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    clash = [option for option in PLAY_OPTIONS
             if any(w == option or w.startswith(option + "=") for w in words)]
    if clash:
        raise ConfigError(f"{', '.join(clash)}: options of the self-play mode; with --records "
                          "the games, positions and player count are the records' (use "
                          "--sizes and --held-out-games)")
    if args.epochs < 1 or args.hidden < 1:
        raise ConfigError("--epochs and --hidden must be at least 1")
    records = RecordSet(args.records)
    for part in records.parts:
        if not part.complete:
            raise ConfigError(f"--records {part.folder}: {part.games} of "
                              f"{part.games_planned} games are complete; finish the run "
                              "(meeplezoo selfplay ... --resume) first")
    source = checkpoint_folder(args.checkpoint)
    members = member_folders(source)
    first = json.loads((next(iter(members.values())) / "card.json").read_text())
    if first["env"] != records.env:
        raise ConfigError(f"--records {' '.join(args.records)} are games of {records.env}, and "
                          f"{args.checkpoint} plays {first['env']}")
    game = envs.make_game(records.env, **records.manifest.get("config", {}))
    held_out = DEFAULT_HELD_OUT if args.held_out_games is None else args.held_out_games
    sizes = _sizes(args.sizes, records.games - held_out)
    solo = records.players == 1
    scale = float(game.score_scale)
    objective = args.objective or "win"
    if solo and objective != "win":
        raise ConfigError(f"--objective {objective}: a solo game has no place to take (its "
                          "value predicts the score); leave --objective out")
    out = Path(args.out)
    if out.resolve() != source.resolve():
        if out.exists() and any(out.iterdir()):
            raise ConfigError(f"--out {out} exists and is not empty: name a new folder")
        shutil.copytree(source, out, dirs_exist_ok=True)
    command = "meeplezoo fit-value " + " ".join(words)
    runs = records.describe()
    if len(runs) == 1:
        runs = [{key: value for key, value in runs[0].items()
                 if key not in ("folder", "first_game")}]
    compared = compared_values(args.compare_values or [], members)
    for role, member in members.items():
        start = time.time()
        named = role if role is not None else records.roles[0]
        features = game.observation_size(named)
        compare = {spec: value_curve.onnx_predictor(path, features)
                   for spec, path in compared.get(role, {}).items()}
        # passed, not kept here: the curve may replace it by a copy with the scoreboard,
        # and the original (gigabytes at 50,000 games) is then freed
        net, curve, baselines = value_curve.learning_curve(
            value_curve.records_positions(records, named, scale, objective), held_out, sizes,
            solo,
            args.seed, args.epochs, args.hidden,
            scores_now=value_curve.replayed_scores(records, game, scale),
            report=lambda line, named=named: print(
                f"{named}: {line.replace('winner', SHARE_KEYS[objective])}", flush=True),
            scoreboard=args.scoreboard, compare=compare)
        folder = out / member.relative_to(source)
        value_curve.write_onnx(net, features, folder / VALUE_FILE)
        card_path = folder / "card.json"
        card = json.loads(card_path.read_text())
        card["value_file"] = VALUE_FILE
        card["value_fit"] = {
            "command": command, "records": runs[0] if len(runs) == 1 else runs,
            "players": records.players, "role": named, "sizes": sizes, "held_out_games": held_out,
            "epochs": args.epochs, "hidden": args.hidden, "seed": args.seed,
            "commit": code_commit(), "wall_time_s": round(time.time() - start, 1),
            "inputs": ["observation", *(["scoreboard"] if args.scoreboard else [])],
            **({} if solo else {"objective": objective}),
            "target": ("score / score_scale" if solo else
                       f"{SHARE_WORDS[objective]} (logit head, cross-entropy) and score margin "
                       "over the best other seat / score_scale (squared error); value = 2 * "
                       "(share + 0.1 * margin) - 1") + ", at the end of the recorded game",
            "learning_curve": renamed(curve, objective),
            "baselines": renamed(baselines, objective)}
        # a fit replaces the value: the earlier records and fit are no step of this one
        card["reproduce"] = [s for s in reproduce_steps(card)
                             if s.get("stage") not in ("records", "value")]
        for run in runs:  # the records' commands, then this fit's
            if run.get("command"):
                add_reproduce_step(card, "records", run["command"], "record self-play games "
                                   "for the value", code_commit=run.get("code_commit"))
        add_reproduce_step(card, "value", command, "fit the value network on the records",
                           code_commit=code_commit(),
                           wall_time_s=card["value_fit"]["wall_time_s"])
        card_path.write_text(json.dumps(card, indent=2, ensure_ascii=False) + "\n")
        curve, baselines = card["value_fit"]["learning_curve"], card["value_fit"]["baselines"]
        best = curve[-1]["held_out"]
        key = "margin_r2" if solo else f"{SHARE_KEYS[objective]}_log_loss"
        base = baselines.get("as_if_ended_now", baselines["mean"])
        print(f"{named}: held-out {key} {best[key]} at {curve[-1]['games']} games (as if "
              f"ended now: {base.get(key)}; mean only: {baselines['mean'].get(key)}) -> "
              f"{folder / VALUE_FILE}")
        for spec, figures in baselines.get("values", {}).items():
            print(f"{named}: {spec}'s value on the same held-out games: {key} {figures[key]}")
    if not members:
        raise CheckpointError(f"{args.checkpoint}: no member to fit")
    return 0
