"""The main job (``make demo``): one full game, a short training run, evaluation, export.

1. Plays a full 4-player game of 地方創生 (heuristic bot vs three random players)
   and prints the final table with each player's score breakdown.
2. Trains MaskablePPO for a minute or two with the shipped opponent's recipe, cut
   short (imitation warm start from the heuristic bot, then PPO against the bot,
   its own snapshots and random play, with score-lead shaping), exports it to
   ``runs/demo/checkpoints`` and evaluates it in seat-rotated games against
   random and heuristic fields.
3. Prints the table, with the shipped opponent (``checkpoints/``) beside it.

    meeplezoo demo [--timesteps 20000] [--games 200] [--skip-training]

It says how long it will take as it starts (``estimate_s``: about 2 minutes on 2 idle
cores, after the install) and how long it took at the end.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from meeplezoo import envs
from meeplezoo.envs.core.agents import RandomBot, play_game
from meeplezoo.envs.core.command import run_command
from meeplezoo.envs.core.errors import ConfigError
from meeplezoo.envs.core.progress import Progress
from meeplezoo.training import export
from meeplezoo.training.evaluation import evaluate
from meeplezoo.training.fitting import train

ENV = "chihou_sousei_v1"
SHIPPED = Path("checkpoints") / ENV / "ppo_league"

# What each part cost on this project's machine (2 idle cores; see ``estimate_s``), so the
# demo can say how long it will take before it starts: seconds of the fixed parts (the one
# game, imitation of the heuristic bot, export), per 1,000 PPO steps, and per evaluation
# game (the average over the random and heuristic fields).
# Measured by a whole demo run (20,480 PPO steps, 600 evaluation games) on otherwise idle
# cores: 31.5 s of fixed parts (200 imitation games and 6 epochs, the export), 55 s of PPO
# at 378 steps/s, 11 s of evaluation at 54 games/s.
MEASURED_ON = "2026-12-04, commit 9da3a67"
FIXED_S = 31.5
PER_1K_STEPS_S = 2.69
PER_EVAL_GAME_S = 0.0183


def estimate_s(timesteps: int, games: int, rows: int, training: bool) -> float:
    """The demo's wall time on 2 idle cores, from the parts measured (``MEASURED_ON``)."""
    train = FIXED_S + PER_1K_STEPS_S * timesteps / 1000 if training else 0.0
    return train + PER_EVAL_GAME_S * 2 * rows * games


def print_final_table(state) -> None:
    breakdown = state.score_breakdown()
    places = evaluate.places(state.rank_keys())
    cats = [k for k in breakdown[0] if k != "total"]
    print(f"{'seat':6} {'player':10} " + " ".join(f"{c:>12}" for c in cats)
          + f" {'total':>7} {'place':>6}")
    for seat, parts in enumerate(breakdown):
        who = "heuristic" if seat == 0 else "random"
        print(f"{seat:<6} {who:10} " + " ".join(f"{parts[c]:>12.0f}" for c in cats)
              + f" {parts['total']:>7.0f} {places[seat] + 1:>6.1f}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--timesteps", type=int, default=20_000)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--out", default="runs/demo")
    p.add_argument("--skip-training", action="store_true")
    args = p.parse_args(argv)
    if args.timesteps < 1 or args.games < 1:
        raise ConfigError(f"--timesteps {args.timesteps} and --games {args.games}: each must "
                          "be at least 1")
    rows_planned = 1 + (not args.skip_training) + SHIPPED.exists()
    guess = estimate_s(args.timesteps, args.games, rows_planned, not args.skip_training)
    print(f"The demo takes about {guess / 60:.1f} minutes on 2 idle cores (measured "
          f"{MEASURED_ON}); longer on a busy machine.\n", flush=True)
    began = time.monotonic()
    took: dict[str, float] = {}

    game = envs.make_game(ENV, num_players=4)
    state = game.new_initial_state(seed=2026)
    play_game(state, [game.heuristic_bot(0), RandomBot(1), RandomBot(2), RandomBot(3)])
    print(state.render())
    print("\nFinal table (heuristic bot in seat 0, random players elsewhere):")
    print_final_table(state)
    took["game"] = time.monotonic() - began

    rows = []
    if not args.skip_training:
        out = Path(args.out)
        print(f"\nTraining MaskablePPO for {args.timesteps} steps (4 players) ...", flush=True)
        train.main(["--env", ENV, "--players", "4", "--timesteps", str(args.timesteps),
                    "--opponents", "heuristic=3,self=1,random=1", "--shaping", "0.5",
                    "--imitate-games", "200", "--imitate-epochs", "6", "--lr", "1e-4",
                    "--seed", "0", "--out", str(out), "--n-envs", "8", "--net", "256,256"])
        folder = export.export_model(out / "final_model.zip", "demo", out / "checkpoints")
        rows.append(("demo (just trained)", str(folder)))
        took["training"] = time.monotonic() - began - sum(took.values())
    if SHIPPED.exists():
        rows.append(("shipped opponent", str(SHIPPED)))
    rows.append(("heuristic bot", "heuristic"))
    config = {"num_players": 4}
    print(f"\nEvaluation: {args.games} seat-rotated 4-player games per cell "
          "(a seat's fair share is 25%)")
    print(f"{'agent':22} {'vs 3 random':>14} {'vs 3 heuristic':>16}")
    with Progress(2 * len(rows) * args.games, "demo: evaluation") as bar:
        for label, spec in rows:
            cells = []
            for field in ("random", "heuristic"):
                r = evaluate.versus_field(ENV, config, spec, field, args.games, seed=7,
                                          workers=2, bar=bar)
                lo, hi = r["win_rate_ci95"]
                cells.append(f"{r['win_rate']:.1%} [{lo:.0%},{hi:.0%}]")
            print(f"{label:22} {cells[0]:>14} {cells[1]:>16}", flush=True)
    took["evaluation"] = time.monotonic() - began - sum(took.values())
    print(f"\nThe demo took {sum(took.values()) / 60:.1f} minutes ("
          + ", ".join(f"{part} {seconds:.0f} s" for part, seconds in took.items()) + ").")
    return 0


if __name__ == "__main__":
    raise SystemExit(run_command(main))
