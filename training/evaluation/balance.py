"""Class balance report: how each role (a Hegemony class) fares for any mix of agents, on
paired deals, as a designer reads it: markdown tables, JSON with every game, PNG figures.

    meeplezoo balance --env hegemony_v1 --games 1000 --seed 20261202 \
        --workers 2 \
        --team checkpoints/hegemony_v1/<team> --preset bots,team,all+bots,all+random \
        --preset bot:all+random [--cell NAME=ROLE:SPEC,ROLE:SPEC ...] [--option K=V ...] \
        --journal runs/balance/default.jsonl \
        --json runs/balance/default.json --plots runs/balance/default_png
    meeplezoo balance --compare runs/balance/default.json runs/balance/p6A.json

A **cell** is a seat-fixed lineup: one agent per role.  ``--cell NAME=ROLE:SPEC,...`` names
its agents (a role by its name or its short label, e.g. ``working_class`` or ``WC``; a spec
is any of ``training.agents.specs.FORMS``: ``heuristic``, ``random``, a checkpoint folder or
zoo name of that role, a team folder, which plays its member for that role, a level
``NETWORK@LEVEL`` or a ``package.module:attribute`` agent); a role left out plays
``heuristic``.  Presets, with
``CLASS`` a role, its label or ``all`` (one cell per role):

- ``bots``: every role played by its scripted bot; ``team``: every role by ``--team``;
- ``CLASS+bots``: the team's policy for CLASS, bots elsewhere;
- ``CLASS+random``: the team's policy for CLASS, random play elsewhere;
- ``bot:CLASS+random``: CLASS's bot, random play elsewhere;
- ``bot-report``: ``bot:all+random`` and ``bots``, the bot report (what ``meeplezoo
  hegemony-report`` printed, now an alias of ``--env hegemony_v1 --preset bot-report``).

A report with cells where one class plays against random play in every other seat adds a
table of that class's row in each, e.g. each class's bot against three random classes.

Deals and seeds are ``envs.core.balance``'s: game g of every cell deals the same set-up,
and a seat's agent draws the seed the Hegemony bot report (``envs.hegemony.report``) gives
the bot or random seat in the same place: ``CLASS+bots`` at seed S is paired deal by deal
and seed by seed with the published 4-bot table at seed S, ``CLASS+random`` with "CLASS's
bot vs 3 random".  A win is a rank key equal to the best (a shared win counts for each).

A game whose class names a ``balance_stats`` hook (Hegemony: ``envs.hegemony.balance_stats``)
adds its columns: VP by source, the bills each class put forward and passed, per policy and
target section, and where the policies ended; other games report win rates and mean scores.
``--compare a.json b.json`` prints each class's shift in win rate (b - a) with a 95%
interval (``training.balance_compare``).
``--address auto`` plays the games on a Ray cluster, with the same report
(``training.evaluation.cluster``).

Reading it.  A cell on fewer games than ``envs.core.stats.usable_games()`` (93: every 95%
interval within 10 points) is named in a warning at the top, with how far its win rates may
be off and the games that would do; an interval with no bound (a ratio whose bot never won in
some resamples) or none at all says why under its table.  The terminal gets the report cut to
100 columns (``training.evaluation.markdown_fit``); ``--markdown FILE`` keeps it whole.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from meeplezoo import envs
from meeplezoo.envs.core import balance
from meeplezoo.envs.core.command import run_command
from meeplezoo.envs.core.errors import ConfigError, MeepleZooError
from meeplezoo.envs.core.game import Game
from meeplezoo.envs.core.progress import Progress
from meeplezoo.envs.core.stats import USABLE_HALF_WIDTH, usable_games, wilson_half_width
from meeplezoo.training.agents.bots import BotCache, make_bot
from meeplezoo.training.agents.opponents import find_checkpoint, is_team, spec_role
from meeplezoo.training.agents.specs import FORMS, describe_forms, is_python_spec
from meeplezoo.training.agents.zoo import CheckpointError
from meeplezoo.training.cli import code_commit, parse_options
from meeplezoo.training.evaluation import cluster, markdown_fit
from meeplezoo.training.evaluation.balance_compare import strength_markdown
from meeplezoo.training.evaluation.balance_journal import Journal, JournalError
from meeplezoo.training.evaluation.balance_journal import header as journal_header

PRESET_FORMS = ("bots", "team", "CLASS+bots", "CLASS+random", "bot:CLASS+random", "bot-report")
BOT_REPORT = ("bot:all+random", "bots")  # the presets of "bot-report", the old bot report


@dataclass(frozen=True)
class Cell:
    """A seat-fixed lineup: its name and one agent spec per seat."""

    name: str
    specs: tuple[str, ...]


class BalanceError(MeepleZooError, ValueError):
    """A cell, preset or spec the tool cannot play, with what is allowed."""


def _role_index(game: Game, labels: list[str], name: str, where: str) -> int:
    """The seat of a role given by name or short label (case-insensitive); in a symmetric
    game, where every seat plays the same role, the seat's label (``seat1`` ...)."""
    roles = game.agents_are_roles
    for seat in range(game.num_players):
        if name.lower() in ((game.seat_role(seat).lower(),) if roles else ()) + (
                labels[seat].lower(),):
            return seat
    if not roles:
        raise BalanceError(f"{where}: unknown seat {name!r}; {game.name} has one role for "
                           f"every seat, so a cell names seats: {', '.join(labels)} or all")
    choices = ", ".join(f"{game.seat_role(s)} ({labels[s]})" if labels[s] != game.seat_role(s)
                        else game.seat_role(s) for s in range(game.num_players))
    raise BalanceError(f"{where}: unknown role {name!r}; the roles of {game.name} are {choices}")


def parse_cell(game: Game, labels: list[str], text: str) -> Cell:
    """``NAME=ROLE:SPEC,ROLE:SPEC``: roles left out play ``heuristic``; ``all:SPEC`` puts
    SPEC in every seat (a symmetric game's seats are ``seat1`` ..., ``seat1`` the start
    player)."""
    name, sep, body = text.partition("=")
    if not sep or not name.strip():
        raise BalanceError(f"--cell {text!r} must look like NAME=ROLE:SPEC,ROLE:SPEC,...")
    specs = [balance.HEURISTIC] * game.num_players
    for item in filter(None, (part.strip() for part in body.split(","))):
        role, sep, spec = item.partition(":")
        if not sep or not spec:
            raise BalanceError(f"--cell {name}: {item!r} must look like ROLE:SPEC")
        if role.strip().lower() == "all":
            specs = [spec.strip()] * game.num_players
            continue
        specs[_role_index(game, labels, role.strip(), f"--cell {name}")] = spec.strip()
    return Cell(name.strip(), tuple(specs))


def preset_cells(game: Game, labels: list[str], preset: str, team: str | None) -> list[Cell]:
    """The cells of one preset (``PRESET_FORMS``; ``all`` as CLASS gives one per role)."""
    n = game.num_players
    bot, rnd = balance.HEURISTIC, balance.RANDOM
    if preset == "bot-report":
        return [c for part in BOT_REPORT for c in preset_cells(game, labels, part, team)]
    if preset == "bots":
        return [Cell("bots", (bot,) * n)]
    head, plus, field = preset.rpartition("+")
    as_bot = head.startswith("bot:")
    role = head.removeprefix("bot:")
    if preset != "team" and not (plus and role and field in ("bots", "random")
                                 and not (as_bot and field == "bots")):
        raise BalanceError(f"unknown preset {preset!r}; presets are {', '.join(PRESET_FORMS)} "
                           f"(CLASS: a role, its label or 'all')")
    if not as_bot and team is None:
        raise BalanceError(f"preset {preset!r} plays the team's policies: give --team PATH")
    if preset == "team":
        return [Cell("team", (str(team),) * n)]
    seats = (range(n) if role.lower() == "all"
             else [_role_index(game, labels, role, f"preset {preset!r}")])
    own = bot if as_bot else str(team)
    rest = bot if field == "bots" else rnd
    return [Cell(f"{'bot:' if as_bot else ''}{labels[s]}+{field}",
                 tuple(own if t == s else rest for t in range(n))) for s in seats]


def check_spec(game: Game, spec: str, seat: int, cell: str) -> None:
    """Refuse, saying what is allowed, a spec that is no agent or plays another role."""
    if spec in (balance.HEURISTIC, balance.RANDOM):
        return
    if find_checkpoint(spec.rsplit("@", 1)[0]) is None and not is_python_spec(spec):
        raise BalanceError(f"cell {cell}: {spec!r} is not an agent: a spec is {FORMS}")
    role = None if is_team(spec) else spec_role(spec)
    if role is not None and role != game.seat_role(seat):
        raise BalanceError(f"cell {cell}: {spec} plays role {role!r}, not "
                           f"{game.seat_role(seat)!r}; give it as {role}:{spec}")
    try:
        make_bot(spec, game, 0, seat=seat)
    except (CheckpointError, ConfigError, ValueError) as exc:
        raise BalanceError(f"cell {cell}: {exc}") from None


def _batch(args: tuple[tuple[str, dict[str, Any], int, list[Cell]], list[tuple[int, int]]]
           ) -> list[dict[str, Any]]:
    """Worker: the (cell, game) jobs; deterministic networks are loaded once per batch."""
    (env_name, config, seed, cells), jobs = args
    game = envs.make_game(env_name, **config)
    hook = balance.stats_hook(game)
    cache = BotCache(game)

    def build(spec: str, seat: int, bot_seed: int) -> Any:
        return cache.bot(spec, bot_seed, seat)

    return [{"cell": cells[c].name,
             **balance.play_lineup(game, cells[c].specs, seed, g, build, hook)}
            for c, g in jobs]


def run_cells(env_name: str, config: dict[str, Any], cells: list[Cell], seed: int,
              games: Sequence[int], workers: int | cluster.Workers,
              on_chunk: Callable[[list[dict[str, Any]]], None] | None = None
              ) -> list[dict[str, Any]]:
    """Games ``games`` (their numbers) of every cell, by cell (in the order given) then
    game, played over ``workers`` (processes, or a Ray cluster:
    ``training.evaluation.cluster``); ``on_chunk`` sees each finished chunk."""
    jobs = [(c, g) for c in range(len(cells)) for g in sorted(games)]
    return cluster.play_chunks(_batch, (env_name, config, seed, cells), jobs, workers, on_chunk)


def summarise(game: Game, cells: list[dict[str, Any]],
              results: list[dict[str, Any]]) -> dict[str, Any]:
    """Per cell: a ``envs.core.balance.seat_row`` per class (with its agent) and the hook's
    lineup summary."""
    hook = balance.stats_hook(game)
    labels = balance.role_labels(game, hook)
    out: dict[str, Any] = {}
    for cell in cells:
        records = [r for r in results if r["cell"] == cell["name"]]
        rows = {labels[s]: {"agent": cell["specs"][s], **balance.seat_row(records, s, hook)}
                for s in range(game.num_players)}
        entry: dict[str, Any] = {"classes": rows}
        chosen = balance.chosen_rows(records)
        if chosen:  # what the seats chose in play (a company): its strength in this lineup
            entry["chosen"] = chosen
        if hook and records:
            entry["game"] = hook.lineup_summary([r["game"] for r in records])
        out[cell["name"]] = entry
    return out


def _overview(summary: dict[str, Any], labels: list[str], per: str) -> list[str]:
    lines = [f"### Win rate per {per} and cell, % (95% Wilson interval)", "",
             "| cell | " + " | ".join(labels) + " |", "|" + "---|" * (len(labels) + 1)]
    for name, entry in summary.items():
        rows = entry["classes"]
        lines.append(f"| {name} | " + " | ".join(
            f"{100 * rows[c]['win_rate']:.1f} ({100 * rows[c]['wilson_low']:.1f}-"
            f"{100 * rows[c]['wilson_high']:.1f})" for c in labels) + " |")
    return [*lines, ""]


def sample_warning(summary: dict[str, Any]) -> list[str]:
    """A warning naming the cells on fewer than ``usable_games()`` games, how far their win
    rates may be off, and the games that would do; none when every cell has enough.  Why: on
    8 games an interval spans most of 0-100%, and tables of such cells read as findings."""
    usable = usable_games()
    few: dict[int, list[str]] = {}
    for name, entry in summary.items():
        games = min(row["games"] for row in entry["classes"].values())
        if games < usable:
            few.setdefault(games, []).append(name)
    if not few:
        return []
    parts = [f"{', '.join(names)} on {games} game{'s' * (games != 1)} "
             f"(a win rate within ±{100 * wilson_half_width(games):.0f} points)"
             for games, names in sorted(few.items())]
    return [f"> **Warning: too few games.** Cells {'; '.join(parts)}: their intervals are too "
            f"wide to tell classes apart. {usable} games per cell bring every 95% interval "
            f"within ±{100 * USABLE_HALF_WIDTH:.0f} points (--games {usable} or more).", ""]


def _against_random(report: dict[str, Any], labels: list[str],
                    score_label: str) -> list[str]:
    """One row per cell where one class plays against random play in every other seat (its
    seed group is that class's seat): that class's row.  With ``bot-report`` it is the bot
    report's first table, each class's bot against three random classes."""
    rows = [(cell["name"], labels[cell["seed_group"]]) for cell in report["cells"]
            if cell["seed_group"] < len(labels)]
    if not rows:
        return []
    classes = dict(rows)
    return balance.seat_table(
        "One class against random play in every other seat (its row of each such cell)",
        [(name, report["summary"][name]["classes"][label]) for name, label in rows],
        score_label, ("class", lambda name: classes[name]), first="cell")


def markdown(report: dict[str, Any]) -> str:
    """The header (env, games, seed, options), a warning where cells have too few games,
    the overview, the policy-against-bot and one-against-random tables, then per cell its
    class table and the hook's tables."""
    game = envs.make_game(report["env"], **report["config"])
    hook = balance.stats_hook(game)
    labels = balance.role_labels(game, hook)
    options = {k: v for k, v in report["config"].items() if k != "num_players"}
    score_label = getattr(hook, "SCORE_LABEL", "mean score")
    per = "class" if game.agents_are_roles else "seat"
    lines = [f"## {per.title()} balance: {report['env']}, {report['games']} games per cell, "
             f"seed {report['seed']}, options {options or 'default (none given)'}", "",
             *sample_warning(report["summary"]), *_overview(report["summary"], labels, per),
             *strength_markdown(report), *_against_random(report, labels, score_label)]
    for cell in report["cells"]:
        entry = report["summary"][cell["name"]]
        rows = entry["classes"]
        group = cell["seed_group"]
        seeds = ("the table's" if group == game.num_players
                 else f"{labels[group]} against random")
        lines += balance.seat_table(f"{cell['name']} (seat seeds: {seeds})",
                                    [(c, rows[c]) for c in labels], score_label,
                                    ("agent", lambda c, rows=rows: rows[c]["agent"]), first=per)
        if "chosen" in entry:
            lines += balance.seat_table(
                f"{cell['name']}: by what the seats chose in play (every seat counted)",
                list(entry["chosen"].items()), score_label, first="choice")
        if hook and "game" in entry:
            lines += hook.markdown(entry["game"])
    return "\n".join(lines)


def build_cells(game: Game, hook: ModuleType | None, cell_args: list[str],
                preset_args: list[str], team: str | None) -> list[Cell]:
    """The cells of ``--cell`` and ``--preset`` (comma-separated), checked: unique names,
    every spec an agent of its seat's role."""
    labels = balance.role_labels(game, hook)
    cells = [parse_cell(game, labels, text) for text in cell_args]
    for arg in preset_args:
        for preset in filter(None, (p.strip() for p in arg.split(","))):
            cells += preset_cells(game, labels, preset, team)
    if not cells:
        raise BalanceError("no cells: give --cell NAME=ROLE:SPEC,... and/or --preset "
                           f"({', '.join(PRESET_FORMS)})")
    names = [c.name for c in cells]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise BalanceError(f"cell names given twice: {twice}")
    checked: set[tuple[str, int]] = set()
    for cell in cells:
        for seat, spec in enumerate(cell.specs):
            if (spec, seat) not in checked:
                check_spec(game, spec, seat, cell.name)
                checked.add((spec, seat))
    return cells


def run(env_name: str, config: dict[str, Any], cells: list[Cell], seed: int, games: int,
        workers: int | cluster.Workers, command: str = "", journal: str | Path | None = None,
        progress: bool | str | None = "off") -> dict[str, Any]:
    """Play every cell and return the report: settings, cells, summary and every game.
    With ``journal`` (``training.balance_journal``) every game is kept on disk as it ends,
    and the games a journal of the same run already holds are not played again.
    ``progress``: the games counted on stderr (``envs.core.progress``)."""
    if games < 1:
        raise BalanceError(f"--games must be at least 1 (got {games})")
    game = envs.make_game(env_name, **config)
    start = time.perf_counter()
    commit = code_commit()  # the code the games are played with (read before any is played)
    seat_roles = [game.seat_role(s) for s in range(game.num_players)]
    book = (Journal.open(journal, journal_header(env_name, config, seed, games,
                                                 [(c.name, c.specs) for c in cells], seat_roles,
                                                 commit))
            if journal else None)
    results: list[dict[str, Any]] = []
    taken = 0
    todo_total = sum(len(book.missing(c.name, games)) if book else games for c in cells)
    with Progress(todo_total, f"balance {env_name}", style=progress) as bar:

        def done(part: list[dict[str, Any]]) -> None:  # a finished chunk of games
            if book:
                book.add(part)
            bar.update(len(part))

        for cell in cells:  # one at a time, each reported as it ends (a long run shows it)
            kept = dict(book.games[cell.name]) if book else {}
            if kept:  # the journal's games count only if the first of them plays the same now
                book.check_replay(cell.name, run_cells(env_name, config, [cell], seed,
                                                       [min(kept)], 1)[0])
                taken += len(kept)
            todo = book.missing(cell.name, games) if book else range(games)
            fresh = run_cells(env_name, config, [cell], seed, todo, workers, done)
            results += sorted([*kept.values(), *fresh], key=lambda r: r["g"])
            print(f"balance: cell {cell.name}: {games} games done after "
                  f"{time.perf_counter() - start:.0f} s"
                  + (f" ({len(kept)} from the journal)" if kept else ""),
                  file=sys.stderr, flush=True)
    cell_info = [{"name": c.name, "specs": list(c.specs),
                  "roles": list(seat_roles),
                  "seed_group": balance.seed_group(c.specs)} for c in cells]
    report = {"tool": "training.balance", "command": command, "code_commit": commit,
              "env": env_name, "config": config, "seed": seed, "games": games,
              "wall_time_s": round(time.perf_counter() - start, 1), "cells": cell_info,
              "summary": summarise(game, cell_info, results), "results": results}
    if book:  # games taken from it were played at one of its runs' commits
        report["journal"] = {"path": str(book.path), "games_taken": taken,
                             "code_commits": book.commits}
    return report


MERGE_KEYS = ("env", "config", "seed", "games")


def merge_reports(reports: list[dict[str, Any]], command: str = "") -> dict[str, Any]:
    """One report of the cells of several runs on the same deals (same env, options, seed
    and games), so a cell played later pairs with another run's (a policy with the bots'
    table).  A cell in two runs must have the same lineup and the same games; the merged
    report names every run's command and commit."""
    if len(reports) < 2:
        raise BalanceError("--merge takes two reports or more")
    first = reports[0]
    for other in reports[1:]:
        differ = [k for k in MERGE_KEYS if other[k] != first[k]]
        if differ:
            raise BalanceError(
                "--merge: the reports were not played on the same deals: " + "; ".join(
                    f"{k} {first[k]!r} != {other[k]!r}" for k in differ))
    cells: dict[str, dict[str, Any]] = {}
    results: dict[str, list[dict[str, Any]]] = {}
    for report in reports:
        for cell in report["cells"]:
            name = cell["name"]
            games = [r for r in report["results"] if r["cell"] == name]
            if name in cells and (cells[name]["specs"] != cell["specs"]
                                  or results[name] != games):
                raise BalanceError(f"--merge: cell {name!r} differs between the reports "
                                   "(another lineup, or other games)")
            cells.setdefault(name, cell)
            results.setdefault(name, games)
    game = envs.make_game(first["env"], **first["config"])
    cell_info = list(cells.values())
    every = [r for name in cells for r in results[name]]
    commands = [r["command"] for r in reports]
    commits = list(dict.fromkeys(r["code_commit"] for r in reports))
    return {"tool": "training.balance", "command": " && ".join([*commands, command]
                                                              if command else commands),
            "code_commit": ",".join(commits), **{k: first[k] for k in MERGE_KEYS},
            "wall_time_s": round(sum(r["wall_time_s"] for r in reports), 1),
            "cells": cell_info, "summary": summarise(game, cell_info, every),
            "results": every}


def record_in_team(report: dict[str, Any], team: str | Path) -> list[Path]:
    """Write the report's figures into the team's cards: each member's ``CLASS+random`` and
    ``CLASS+bots`` rows become its card's ``vs_random`` / ``vs_heuristic`` evaluation (what
    the zoo lists), and every cell's per-class rows go to ``team.json``'s evaluation under
    ``balance`` (``balance k=v ...`` for other options; cells of earlier runs stay), each
    with the report's command, commit and seed.  Returns the files written."""
    folder = find_checkpoint(str(team))
    if not is_team(folder):
        raise BalanceError(f"--record: {team} is not a team folder")
    team_card = json.loads((folder / "team.json").read_text())
    game = envs.make_game(report["env"], **report["config"])
    labels = balance.role_labels(game, balance.stats_hook(game))
    source = {k: report[k] for k in ("command", "code_commit", "seed", "config")}
    fields = {"random": "random", "bots": "heuristic"}  # cell CLASS+others -> card's field
    written = []
    for seat, label in enumerate(labels):
        role = game.seat_role(seat)
        card_path = folder / team_card["roles"][role] / "card.json"
        card = json.loads(card_path.read_text())
        evaluation = dict(card.get("evaluation") or {})
        found = {field: report["summary"][f"{label}+{others}"]["classes"][label]
                 for others, field in fields.items() if f"{label}+{others}" in report["summary"]}
        if not found:
            continue
        for field, row in found.items():
            evaluation[f"vs_{field}"] = {
                "field": field, "role": role,
                "players": game.num_players, "games": row["games"],
                "win_rate": row["win_rate"], "win_rate_ci95": [row["wilson_low"],
                                                               row["wilson_high"]],
                "mean_score": row["mean_score"], **source}
        card["evaluation"] = evaluation
        card_path.write_text(json.dumps(card, indent=2) + "\n")
        written.append(card_path)
    options = {k: v for k, v in report["config"].items() if k != "num_players"}
    key = "balance" + "".join(f" {k}={v}" for k, v in sorted(options.items()))
    evaluation = dict(team_card.get("evaluation") or {})
    cells = dict(evaluation.get(key, {}))  # runs of other cells under these options stay
    for name, entry in report["summary"].items():
        cells[name] = {"games": report["games"], **source, "classes": {
            label: {k: row[k] for k in ("agent", "games", "win_rate", "wilson_low",
                                        "wilson_high", "mean_score")}
            for label, row in entry["classes"].items()}}
    team_card["evaluation"] = {**evaluation, key: cells}
    (folder / "team.json").write_text(json.dumps(team_card, indent=2) + "\n")
    return [*written, folder / "team.json"]


def print_recorded(paths: list[Path]) -> None:
    for path in paths:
        print(f"<!-- recorded in {path} -->", file=sys.stderr)


def load_report(path: str | Path) -> dict[str, Any]:
    """A report written by ``--json``, or a SystemExit saying why it is not one."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise SystemExit(f"balance: {path}: cannot read a report ({exc})") from None
    if data.get("tool") != "training.balance":
        raise SystemExit(f"balance: {path} is not a training.balance --json report")
    return data


def build_parser() -> argparse.ArgumentParser:
    """``balance``'s options (``hegemony_report`` checks its command lines with them)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", default="hegemony_v1")
    parser.add_argument("--games", type=int, default=1000, help="games per cell")
    parser.add_argument("--seed", type=int, default=0)
    cluster.add_arguments(parser)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--cell", action="append", default=[],
                        metavar="NAME=ROLE:SPEC,ROLE:SPEC",
                        help="a lineup (repeatable): ROLE a role or its label (WC), SPEC "
                             "as below; a role left out plays heuristic")
    describe_forms(parser, "SPEC", FORMS)
    parser.add_argument("--preset", action="append", default=[],
                        help=f"comma-separated presets: {', '.join(PRESET_FORMS)} (CLASS: a "
                             "role, its label or all; bot-report: bot:all+random and bots, "
                             "each class's bot against random play and the all-bot table)")
    parser.add_argument("--team", help="the team folder the policy presets play")
    parser.add_argument("--json", metavar="FILE", help="write settings, summary and every game")
    parser.add_argument("--markdown", metavar="FILE",
                        help="write the whole report to FILE (the terminal gets it cut to 100 "
                             "columns: the widest tables lose their last columns there)")
    parser.add_argument("--plots", metavar="DIR", help="write PNG figures (matplotlib)")
    parser.add_argument("--journal", metavar="FILE",
                        help="keep every finished game in FILE (JSON lines) and, when FILE "
                             "holds games of this same run, play only the missing ones (a long "
                             "run that was stopped goes on; a journal of fewer or more --games "
                             "of the same seed serves too)")
    parser.add_argument("--record", action="store_true",
                        help="write the figures into --team's cards (members: CLASS+random, "
                             "CLASS+bots as vs_random, vs_heuristic; team.json: every cell)")
    parser.add_argument("--record-report", metavar="REPORT.json",
                        help="write an earlier --json report's figures into --team's cards, as "
                             "--record does, with that report's command, commit and seed (no "
                             "games played)")
    parser.add_argument("--compare", nargs=2, metavar=("A.json", "B.json"),
                        help="per class, the shift from A to B (no games played)")
    parser.add_argument("--merge", nargs="+", metavar="REPORT.json",
                        help="one report (--json, --markdown, --record) of the cells of runs "
                             "on the same deals (no games played)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.compare:
        from meeplezoo.training.evaluation.balance_compare import compare_markdown

        show(compare_markdown(load_report(args.compare[0]), load_report(args.compare[1]),
                              *args.compare), args.markdown)
        return 0
    if args.record_report:
        if not args.team:
            raise SystemExit("balance: --record-report writes into --team's cards: give "
                             "--team PATH")
        try:
            print_recorded(record_in_team(load_report(args.record_report), args.team))
        except BalanceError as exc:
            raise SystemExit(f"balance: {exc}") from None
        return 0
    try:
        if args.record and not args.team:
            raise BalanceError("--record writes into --team's cards: give --team PATH")
        if args.merge:
            report = merge_reports([load_report(p) for p in args.merge],
                                   "meeplezoo balance --merge " + shlex.join(
                                       args.merge))
            return _write(report, args)
        if args.games < 1:
            raise BalanceError(f"--games must be at least 1 (got {args.games})")
        config = parse_options(args.option)
        game = envs.make_game(args.env, **config)
        config = {**config, "num_players": game.num_players}
        cells = build_cells(game, balance.stats_hook(game), args.cell, args.preset, args.team)
        command = "meeplezoo balance " + shlex.join(sys.argv[1:] if argv is None
                                                              else argv)
        report = run(args.env, config, cells, args.seed, args.games,
                     cluster.workers_from(args), command, args.journal, progress="auto")
        return _write(report, args)
    except (BalanceError, ConfigError, JournalError, cluster.GamesLost) as exc:
        raise SystemExit(f"balance: {exc}") from None


def show(text: str, markdown_path: str | None) -> None:
    """Print ``text`` cut to the terminal's 100 columns (``markdown_fit``), saying where the
    whole is, and write it whole to ``markdown_path``."""
    shown, cut = markdown_fit.fit(text)
    print(shown)
    if cut:
        print(markdown_fit.cut_note(cut, markdown_path))
    if markdown_path:
        Path(markdown_path).write_text(text + "\n")


def _write(report: dict[str, Any], args: argparse.Namespace) -> int:
    """Record (``--record``), print and write (``--markdown``, ``--json``, ``--plots``)."""
    if args.record:
        print_recorded(record_in_team(report, args.team))
    show(markdown(report), args.markdown)
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(report) + "\n")
    if args.plots:
        from meeplezoo.training.evaluation.balance_plots import write_plots

        for path in write_plots(report, args.plots):
            print(f"<!-- figure: {path} -->")
    return 0


if __name__ == "__main__":
    raise SystemExit(run_command(main))
