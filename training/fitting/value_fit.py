"""Fit a value network to an exported policy's own games: the leaf value of its search.

    meeplezoo fit-value --checkpoint chihou_sousei_v1/ppo_league --games 2000 \\
        --seed 20261209 --out runs/value/chihou

The shipped networks were exported before exports carried the critic, and their SB3
models are gone, so their search levels could only play games out to the end.  This
gives them a value without retraining the policy: the policy (or team) plays ``--games``
games against itself, sampling its moves so that the positions spread; each seat's
observation is kept at a share (``--keep``) of the decisions, with the value the search
gives that seat at the end of that game (``search.rollout_value``: its win share plus a
tenth of its score margin over the best other seat, in ``score_scale`` units), mapped to
the critic's -1..+1 scale.  A small MLP is fitted by least squares on the games before
the last ``--held-out`` share and judged on those, never on games it saw: its squared error
against the constant that knows only the mean (the card keeps both); the epoch kept is
chosen on the last tenth of the fitting games.

The output folder is a copy of the checkpoint (a team: every member) with ``value.onnx``
beside each ``policy.onnx`` (input ``observation``, output ``value``) and the card naming
it (``value_file``) and how it was made (``value_fit``).  ``PolicyAgent`` then has a
value, and the levels' search (``training.agents.bots``) evaluates its leaves with it.
"""

from __future__ import annotations

import argparse
import json
import shutil
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
from meeplezoo.training.agents.bots import make_bot
from meeplezoo.training.agents.opponents import CheckpointError, checkpoint_folder
from meeplezoo.training.agents.search import OBJECTIVES, rollout_value
from meeplezoo.training.cli import add_reproduce_step, code_commit, reproduce_steps
from meeplezoo.training.fitting.onnx import quiet_onnx_export
from meeplezoo.training.fitting.value_curve import MARGIN_WEIGHT  # the search's own
from meeplezoo.training.fitting.value_records import VALUE_FILE, fit_from_records, member_folders


@dataclass
class Rows:
    """One role's kept positions: observations and the value targets of their games."""

    observations: list[np.ndarray]
    targets: list[float]
    games: list[int]


def play_and_record(env_name: str, spec: str, players: int, games: int, seed: int,
                    keep: float, bar: Progress | None = None) -> dict[str, Rows]:
    """Self-play games of ``spec`` (sampled moves), kept positions by role."""
    game = envs.make_game(env_name, num_players=players)
    rng = np.random.default_rng([seed, 1])
    rows: dict[str, Rows] = {}
    for number in range(games):
        bots = [make_bot(spec, game, seed=seed * 1000 + number * 10 + s, stochastic=True, seat=s)
                for s in range(players)]
        state = game.new_initial_state(int(np.random.default_rng([seed, 0, number])
                                           .integers(2**63 - 1)))
        kept: list[tuple[int, np.ndarray]] = []
        while not state.is_terminal():
            for s in range(players):
                if rng.random() < keep:
                    kept.append((s, state.observation(s)))
            state.apply(int(bots[state.current_player()].act(state)))
        for s, obs in kept:
            target = 2.0 * rollout_value(state, s, MARGIN_WEIGHT, game.score_scale) - 1.0
            role = rows.setdefault(game.seat_role(s), Rows([], [], []))
            role.observations.append(obs)
            role.targets.append(target)
            role.games.append(number)
        if bar is not None:
            bar.update(1)
    return rows


def fit(rows: Rows, held_out_from: int, seed: int, epochs: int, hidden: int
        ) -> tuple[Any, dict[str, float]]:
    """An MLP value fitted on the games before ``held_out_from`` (a linear output: the
    margin term may take a target past 1).  The epoch kept is the best on the last tenth of
    those games (the validation games); the figures are the squared error on the held-out
    games, which chose nothing, beside the error of the training games' mean there."""
    import torch

    torch.manual_seed(seed)
    x = torch.as_tensor(np.stack(rows.observations), dtype=torch.float32)
    y = torch.as_tensor(np.asarray(rows.targets), dtype=torch.float32)
    games = np.asarray(rows.games)
    validation_from = held_out_from - max(1, held_out_from // 10)
    fit_rows = torch.as_tensor(games < validation_from)
    val_rows = torch.as_tensor((games >= validation_from) & (games < held_out_from))
    test_rows = torch.as_tensor(games >= held_out_from)
    if min(int(fit_rows.sum()), int(val_rows.sum()), int(test_rows.sum())) == 0:
        raise ConfigError(f"{len(rows.targets)} positions leave no training, validation or "
                          "held-out games: play more --games or keep more (--keep)")
    net = torch.nn.Sequential(torch.nn.Linear(x.shape[1], hidden), torch.nn.ReLU(),
                              torch.nn.Linear(hidden, hidden), torch.nn.ReLU(),
                              torch.nn.Linear(hidden, 1))
    opt = torch.optim.Adam(net.parameters(), lr=1e-3, weight_decay=1e-5)
    xt, yt = x[fit_rows], y[fit_rows]
    generator = torch.Generator().manual_seed(seed)

    def error(rows_: torch.Tensor) -> float:
        with torch.no_grad():
            return float(torch.mean((net(x[rows_]).squeeze(1) - y[rows_]) ** 2))

    best, best_state = float("inf"), None
    for _ in range(epochs):
        net.train()
        for batch in torch.randperm(len(xt), generator=generator).split(256):
            opt.zero_grad()
            loss = torch.mean((net(xt[batch]).squeeze(1) - yt[batch]) ** 2)
            loss.backward()
            opt.step()
        net.eval()
        validation = error(val_rows)
        if validation < best:
            best, best_state = validation, {k: v.clone() for k, v in net.state_dict().items()}
    net.load_state_dict(best_state)
    held = error(test_rows)
    baseline = float(torch.mean((y[test_rows] - yt.mean()) ** 2))
    return net, {"positions": len(yt), "validation_positions": int(val_rows.sum()),
                 "held_out_positions": int(test_rows.sum()), "held_out_mse": round(held, 5),
                 "mean_only_mse": round(baseline, 5),
                 "explained": round(1.0 - held / baseline, 4) if baseline else 0.0}


def write_value_onnx(net: Any, observation_size: int, path: Path) -> None:
    """``observation -> value`` ([batch, 1]) as ONNX (the legacy exporter, as policies)."""
    import torch

    with torch.no_grad(), quiet_onnx_export():
        torch.onnx.export(net, (torch.zeros((1, observation_size)),), str(path),
                          input_names=["observation"], output_names=["value"],
                          dynamic_axes={"observation": {0: "batch"}, "value": {0: "batch"}},
                          opset_version=17, dynamo=False, verbose=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="meeplezoo fit-value", description=__doc__.split(
        "\n\n")[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--checkpoint", required=True,
                        help="a checkpoint or team: folder or zoo name (meeplezoo zoo)")
    parser.add_argument("--out", required=True, help="folder for the copy with its value")
    parser.add_argument("--records", default=None, nargs="+", metavar="FOLDER",
                        help="fit on the games of record folders (meeplezoo selfplay; several "
                             "runs of one game, player count and configuration with "
                             "different seeds join as one, numbered folder after folder) "
                             "with a learning curve (--sizes) instead of playing games here")
    parser.add_argument("--sizes", default=None,
                        help="with --records: data sizes of the learning curve, in games, "
                             "comma-separated (default: 2000,5000,10000,20000 up to what the "
                             "records hold); the value shipped is the largest size's")
    parser.add_argument("--held-out-games", type=int, default=None,
                        help="with --records: the last N games of the records are held out "
                             "and judge every size (default 1000)")
    parser.add_argument("--scoreboard", action="store_true",
                        help="with --records: the value also reads the seat's scoreboard as "
                             "it stands (its margin over the best other seat and its lead "
                             "over the table's mean: a second input of value.onnx, which "
                             "the search fills from the state)")
    parser.add_argument("--compare-values", default=None, nargs="+", metavar="CHECKPOINT",
                        help="with --records: score these checkpoints' values (folder or zoo "
                             "name; a team: each member's) on the same held-out games, into "
                             "the card's baselines, e.g. the value the card ships now")
    parser.add_argument("--objective", default=None, choices=OBJECTIVES,
                        help="with --records: what the value's first head predicts of a "
                             "seat's outcome: its win share (win, the default) or its place "
                             "share, the share of the other seats it finishes above (place: "
                             "what the arena's Elo reads); the search then scores finished "
                             "games by it too")
    parser.add_argument("--games", type=int, default=2000, help="self-play games (default 2000)")
    parser.add_argument("--players", type=int, default=None,
                        help="player count of the games (default: the game's default)")
    parser.add_argument("--keep", type=float, default=0.1,
                        help="share of each seat's positions kept (default 0.1)")
    parser.add_argument("--held-out", type=float, default=0.1,
                        help="share of the games (the last ones) kept out of fitting")
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.records is not None:
        return fit_from_records(args, argv, parser)
    given = [flag for flag, value in (("--sizes", args.sizes),
                                      ("--held-out-games", args.held_out_games),
                                      ("--scoreboard", args.scoreboard or None),
                                      ("--compare-values", args.compare_values),
                                      ("--objective", args.objective))
             if value is not None]
    if given:
        verb = "these belong" if len(given) > 1 else "it belongs"
        raise ConfigError(f"{', '.join(given)}: {verb} to --records (--sizes, "
                          "--held-out-games, --scoreboard, --compare-values and --objective "
                          "judge fits on record folders): name a record "
                          "folder (meeplezoo selfplay), or use --games and --held-out")
    if args.games < 2:
        raise ConfigError(f"--games {args.games}: at least 2 (one to fit, one held out)")
    if not 0.0 < args.keep <= 1.0 or not 0.0 < args.held_out < 1.0:
        raise ConfigError(f"--keep {args.keep} must be in (0, 1] and --held-out "
                          f"{args.held_out} in (0, 1)")
    if args.epochs < 1 or args.hidden < 1:
        raise ConfigError("--epochs and --hidden must be at least 1")
    source = checkpoint_folder(args.checkpoint)
    members = member_folders(source)
    first = json.loads((next(iter(members.values())) / "card.json").read_text())
    env_name = first["env"]
    default = envs.game_class(env_name).default_players
    players = args.players or (default if default in first["player_counts"]
                               else first["player_counts"][0])
    if players not in first["player_counts"]:
        raise ConfigError(f"--players {players}: {args.checkpoint} plays "
                          f"{first['player_counts']}")
    out = Path(args.out)
    if out.resolve() != source.resolve():
        if out.exists() and any(out.iterdir()):
            raise ConfigError(f"--out {out} exists and is not empty: name a new folder")
        shutil.copytree(source, out, dirs_exist_ok=True)
    start = time.time()
    with Progress(args.games, "self-play", unit="game") as bar:
        rows = play_and_record(env_name, str(source), players, args.games, args.seed,
                               args.keep, bar)
    held_out_from = args.games - max(1, round(args.games * args.held_out))
    game: Game = envs.make_game(env_name, num_players=players)
    command = "meeplezoo fit-value " + " ".join(argv if argv is not None else [])
    for role, member in members.items():
        folder = out / member.relative_to(source)
        role_rows = rows.get(role if role is not None else game.seat_role(0))
        if role_rows is None:
            raise CheckpointError(f"no position of role {role!r} was kept: raise --keep")
        net, figures = fit(role_rows, held_out_from, args.seed, args.epochs, args.hidden)
        write_value_onnx(net, game.observation_size(game.seat_role(0) if role is None
                                                    else role), folder / VALUE_FILE)
        card_path = folder / "card.json"
        card = json.loads(card_path.read_text())
        card["value_file"] = VALUE_FILE
        card["value_fit"] = {
            "command": command, "games": args.games, "players": players, "seed": args.seed,
            "keep": args.keep, "held_out_games": args.games - held_out_from,
            "epochs": args.epochs, "hidden": args.hidden, "commit": code_commit(),
            "target": ("2 * score / score_scale - 1" if players == 1 else
                       "2 * (win share + 0.1 * score margin / score_scale) - 1")
            + " at the end of the policy's sampled self-play game",
            "wall_time_s": round(time.time() - start, 1), **figures}
        card["reproduce"] = [s for s in reproduce_steps(card)  # a fit replaces the value
                             if s.get("stage") not in ("records", "value")]
        add_reproduce_step(card, "value", command, "fit the value network on the policy's own "
                           "games", code_commit=code_commit(),
                           wall_time_s=card["value_fit"]["wall_time_s"])
        card_path.write_text(json.dumps(card, indent=2, ensure_ascii=False) + "\n")
        print(f"{role or env_name}: held-out MSE {figures['held_out_mse']} (mean only "
              f"{figures['mean_only_mse']}, explained {figures['explained']:.1%}) on "
              f"{figures['held_out_positions']} positions -> {folder / VALUE_FILE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(run_command(main))
