"""The main job (``make demo``): one full game, a short training run, evaluation, export.

1. Plays a full 4-player game of 地方創生 (heuristic bot vs three random players)
   and prints the final table with each player's score breakdown.
2. Trains MaskablePPO for a few minutes with the shipped opponent's recipe, cut
   short (imitation warm start from the heuristic bot, then PPO against the bot,
   its own snapshots and random play, with score-lead shaping), exports it to
   ``runs/demo/checkpoints`` and evaluates it in seat-rotated games against
   random and heuristic fields.
3. Prints the table, with the shipped opponent (``checkpoints/``) beside it.

    meeplezoo demo [--timesteps 40000] [--games 200] [--skip-training]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from meeplezoo import envs
from meeplezoo.envs.core.agents import RandomBot, play_game
from meeplezoo.envs.core.command import run_command
from meeplezoo.envs.core.progress import Progress
from meeplezoo.training import export
from meeplezoo.training.evaluation import evaluate
from meeplezoo.training.fitting import train

ENV = "chihou_sousei_v1"
SHIPPED = Path("checkpoints") / ENV / "ppo_league"


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
    p.add_argument("--timesteps", type=int, default=40_000)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--out", default="runs/demo")
    p.add_argument("--skip-training", action="store_true")
    args = p.parse_args(argv)

    game = envs.make_game(ENV, num_players=4)
    state = game.new_initial_state(seed=2026)
    play_game(state, [game.heuristic_bot(0), RandomBot(1), RandomBot(2), RandomBot(3)])
    print(state.render())
    print("\nFinal table (heuristic bot in seat 0, random players elsewhere):")
    print_final_table(state)

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
    return 0


if __name__ == "__main__":
    raise SystemExit(run_command(main))
