"""How often each role chooses, and could have chosen, each action: a lineup's habits on
the balance report's paired deals.

    meeplezoo action-counts --env hegemony_v1 \
        --lineup heuristic,heuristic,heuristic,heuristic --games 100 --seed 20261207 \
        --match sell_foreign --json runs/counts.json

Game ``g`` deals and seeds every seat as ``training.balance`` does (``envs.core.balance``),
so the counts describe the very games of a balance cell with the same lineup and seed.  For
each role and each action name that matches ``--match`` (a substring; all actions if
omitted), the report gives the mean number of times per game the action was chosen and the
mean number of decisions where it was legal (decisions the agents were asked: one with a
single legal action is taken by the engine), so a rarely chosen action reads as either
rarely possible or rarely wanted.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from meeplezoo import envs
from meeplezoo.envs.core.balance import play_lineup
from meeplezoo.envs.core.command import run_command
from meeplezoo.envs.core.game import Game
from meeplezoo.envs.core.progress import Progress
from meeplezoo.training.agents.bots import BotCache
from meeplezoo.training.agents.specs import add_agents_argument
from meeplezoo.training.cli import code_commit, parse_options


class _CountingBot:
    """Wraps a seat's bot: counts the chosen action and every legal one, by role."""

    def __init__(self, bot: Any, game: Game, chosen: Counter, legal: Counter) -> None:
        self.bot, self.game, self.chosen, self.legal = bot, game, chosen, legal

    def act(self, state: Any) -> int:
        role = self.game.seat_role(state.current_player())
        for action in np.flatnonzero(state.legal_mask()):
            self.legal[role, self.game.action_name(int(action), role)] += 1
        action = self.bot.act(state)
        self.chosen[role, self.game.action_name(int(action), role)] += 1
        return action


def count_actions(env: str, config: dict[str, Any], lineup: list[str], games: int, seed: int,
                  match: str = "", progress: bool | str | None = "off") -> dict[str, Any]:
    """Per role, per action name containing ``match``: chosen and legal, per game;
    ``progress`` counts the games on stderr (``envs.core.progress``)."""
    game = envs.make_game(env, **config)
    if len(lineup) != game.num_players:
        raise SystemExit(f"--lineup names {len(lineup)} agents; {env} with {config} seats "
                         f"{game.num_players}")
    cache = BotCache(game)
    chosen: Counter = Counter()
    legal: Counter = Counter()

    def build(spec: str, seat: int, bot_seed: int) -> Any:
        return _CountingBot(cache.bot(spec, bot_seed, seat), game, chosen, legal)

    with Progress(games, f"action-counts {env}", style=progress) as bar:
        for g in range(games):
            play_lineup(game, lineup, seed, g, build)
            bar.update()
    names = sorted(legal)
    if match:  # every matching action of every seated role, never legal ones included
        seated = dict.fromkeys(game.seat_role(s) for s in range(game.num_players))
        names = [(role, game.action_name(a, role)) for role in seated
                 for a in range(game.num_actions(role))]
    roles: dict[str, dict[str, dict[str, float]]] = {}
    for role, name in names:
        if match in name:
            roles.setdefault(role, {})[name] = {"chosen_per_game": chosen[role, name] / games,
                                                "legal_per_game": legal[role, name] / games}
    return {"env": env, "config": config, "lineup": lineup, "games": games, "seed": seed,
            "match": match, "code_commit": code_commit(), "roles": roles}


def markdown(report: dict[str, Any]) -> str:
    lines = [f"{report['env']}, lineup {', '.join(report['lineup'])}, {report['games']} games, "
             f"seed {report['seed']}", "",
             "| role | action | chosen per game | legal (decisions per game) |",
             "| --- | --- | --- | --- |"]
    for role, actions in report["roles"].items():
        for name, row in actions.items():
            lines.append(f"| {role} | `{name}` | {row['chosen_per_game']:.3f} | "
                         f"{row['legal_per_game']:.2f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", required=True, choices=envs.list_envs())
    add_agents_argument(parser, "--lineup", required=True,
                        what="the agents, one per seat in seat order")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--match", default="", help="only action names containing this")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--json", type=Path, help="write the report here too")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be at least 1, got {args.games}")
    config = parse_options(args.option)
    report = count_actions(args.env, config, args.lineup,
                           args.games, args.seed, args.match, progress="auto")
    report["command"] = "meeplezoo action-counts " + " ".join(
        sys.argv[1:] if argv is None else argv)
    print(markdown(report))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(run_command(main))
