"""The benchmark: a frozen, versioned protocol that measures an agent design against fixed
references, so that two papers (or two runs a year apart) report comparable figures.

    meeplezoo benchmark my_pkg.agents:greedy --json bench.json --markdown bench.md --plot b.png
    meeplezoo benchmark runs/checkpoints/necropolis_railway_v1/mine --env necropolis_railway_v1
    meeplezoo benchmark my_pkg.agents:greedy --games 20     # a quick look: not the protocol
    meeplezoo benchmark --references                        # the references' own figures
    meeplezoo benchmark --list                              # the protocol's cells

The protocol (``PROTOCOL``, version ``meeplezoo-bench/3``) is literal data in this module: for
every game and player count with shipped opponents, a *cell* names its reference field
(``random``, ``heuristic``, each shipped network, and each level its card measured as stronger
than the network when the protocol was frozen), its games and its seed.  The references are
written out rather than read from the zoo, so a new card or a new measurement never changes
the protocol; any change to the table changes its digest (``Protocol.digest``, pinned by a
test) and must come with a new version.  Every game is seeded from the cell's seed and the
deal's number alone (``arena.play_games``), so the figures do not depend on ``--workers``,
nor on whether the games run here or on a Ray cluster (``--address``).

What a cell measures, for each candidate (an agent named as every command names agents,
``training.agents.specs``; each is played through the seat-only door like any agent, so it
never sees what its seat may not):

- **Elo** (two or more players): the candidate joins the references in a seat-rotated round
  robin (``arena.round_robin``: each deal played once per rotation of its lineup, every lineup
  equally often), rated by a Bradley-Terry fit to every pair of seats by finishing place, with
  ``random`` at 0 and 95% intervals from a bootstrap over deals (``arena.rate``).  Each
  candidate has a round robin of its own with the references (the same deals and schedule
  for every candidate), so its figures never depend on which other candidates were named in
  the same command.  A candidate that is also a reference joins as a copy of itself
  (``<name> (candidate)``), so it is measured as any candidate is.
- **Win share against each reference**, two ways.  *Paired* (the headline): the candidate and
  the reference each play the same ``paired_deals`` deals from the same seat (deal ``d``: seat
  ``d mod players``) with ``heuristic`` in every other seat (``arena.paired_field``,
  ``arena.play_seated``); the difference of their win shares (a co-win shared) with a paired
  bootstrap interval, and of their mean scores (``arena.differences``: ``a`` the candidate,
  ``b`` the reference).  A seat's games depend on the deal, the seat and the field only, so
  each agent plays the pairing once and is compared with every reference.  *Head to head*:
  in the candidate's round robin, the share of the pairs of seats in which it finished ahead
  of the reference (a tie half), with a bootstrap interval over deals.
- **Solo** (one player): every agent plays the same deals alone (``arena.solo_scores``); the
  candidate's mean score with its interval, and its paired score difference from each
  reference on the same deals.

A candidate that cannot take every seat of a cell (another game's network, a network for
another player count, a policy of one role of an asymmetric game) skips that cell, and the
report says why; a spec that names no agent at all is an error before any game.  ``--games
N`` plays N games in each round robin (rounded up to whole cycles of its lineups), N deals
in each pairing and N solo deals; ``--env``/``--players`` keep some cells; either way the
report says it is not the protocol.  The report (JSON, Markdown, one PNG plot) carries the
protocol's version and digest, whether the run was the protocol, the command and the code
commit; ``--references`` adds the references' own round robin (without a candidate), the
figures ``docs/benchmark.md`` publishes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shlex
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from meeplezoo.envs.core.command import run_command
from meeplezoo.envs.core.errors import ConfigError, MeepleZooError
from meeplezoo.training.agents.specs import add_agents_argument
from meeplezoo.training.evaluation import cluster
from meeplezoo.training.evaluation.arena import (
    ARENA_FORMS,
    BUILT_IN,
    Entrant,
    check_entrants,
    differences,
    paired_field,
    play_seated,
    rate,
    resolve,
    round_robin,
    solo_scores,
    table_lines,
)
from meeplezoo.training.evaluation.ratings import deal_wins, interval, resample_weights

# -- the protocol ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    """One game and player count of the protocol: its references, games and seed."""

    env: str
    players: int
    references: tuple[str, ...]
    games: int  # the round robin's games (rounded up to whole cycles); solo: the deals
    paired_deals: int  # the pairing's deals; solo: 0 (its games are paired already)
    seed: int
    # each network reference's fingerprint (``reference_fingerprint``) when frozen: a
    # network shipped again under the same name is another reference
    pins: tuple[tuple[str, str], ...] = ()

    @property
    def name(self) -> str:
        return f"{self.env} {'solo' if self.players == 1 else f'{self.players}p'}"


@dataclass(frozen=True)
class Protocol:
    """A versioned benchmark: its cells, the Elo anchor, the pairing's field and the
    bootstrap's resamples."""

    version: str
    anchor: str
    pairing_field: str
    resamples: int
    cells: tuple[Cell, ...]

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def digest(self) -> str:
        """The first 16 hex digits of the SHA-256 of the protocol as sorted JSON."""
        text = json.dumps(self.as_dict(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]


# Frozen: change nothing here without a new version (tests/training/test_benchmark.py pins
# the digest).  The references are what ``zoo_references`` named from the cards at commit
# c6a673a: @hard in every cell; 地方創生's @expert, measured stronger than the network but
# not above @hard, is not a rung of its own.  Games are sized so that one candidate as cheap
# as a network takes about 40 minutes on 2 cores (docs/benchmark.md has the costs).
# Version 2 (2026-12-07) differs from version 1 by one pin: 地方創生's @hard plays with its
# card's tuning (``c_scale`` 1.0, ``level_overrides``); every cell, seed, game count and
# other reference is version 1's (docs/benchmark.md, "Versions").
# Version 3 (2026-12-08) differs from version 2 by 地方創生's two pins: its network's folder
# ships a value fitted on the place share (``fit-value --objective place``), which its
# @hard reads (the network's own play is unchanged, but its pin hashes every ONNX file of
# the folder); every cell, seed, game count and other reference is version 2's.
PROTOCOL = Protocol(
    version="meeplezoo-bench/3",
    anchor="random",
    pairing_field="heuristic",
    resamples=1000,
    cells=(
        Cell("asian_delivery_v1", 4,
             ("random", "heuristic", "asian_delivery_v1/ppo_league",
              "asian_delivery_v1/ppo_league@hard"),
             games=200, paired_deals=160, seed=46_1401,
             pins=(("asian_delivery_v1/ppo_league", "ccd80569cf9994b3"),
                   ("asian_delivery_v1/ppo_league@hard", "8f2e5230af38f2ea"))),
        Cell("chihou_sousei_v1", 4,
             ("random", "heuristic", "chihou_sousei_v1/ppo_league",
              "chihou_sousei_v1/ppo_league@hard"),
             games=400, paired_deals=200, seed=46_2401,
             pins=(("chihou_sousei_v1/ppo_league", "d6d7258f74d363af"),
                   ("chihou_sousei_v1/ppo_league@hard", "644b65366744612f"))),
        Cell("hegemony_v1", 4,
             ("random", "heuristic", "hegemony_v1/ppo_classes", "hegemony_v1/ppo_classes@hard"),
             games=160, paired_deals=80, seed=46_3401,
             pins=(("hegemony_v1/ppo_classes", "19e4dd4c3b63d9a9"),
                   ("hegemony_v1/ppo_classes@hard", "7ba8d70620f53a9a"))),
        Cell("necropolis_railway_v1", 1,
             ("random", "heuristic", "necropolis_railway_v1/ppo_league",
              "necropolis_railway_v1/ppo_league_exit6", "necropolis_railway_v1/ppo_league@hard"),
             games=100, paired_deals=0, seed=46_4101,
             pins=(("necropolis_railway_v1/ppo_league", "5f59843fb704c62b"),
                   ("necropolis_railway_v1/ppo_league_exit6", "73813f4032181665"),
                   ("necropolis_railway_v1/ppo_league@hard", "2ca5ff5dd6b7f2e8"))),
        Cell("necropolis_railway_v1", 2,
             ("random", "heuristic", "necropolis_railway_v1/ppo_league",
              "necropolis_railway_v1/ppo_league@hard"),
             games=400, paired_deals=200, seed=46_4201,
             pins=(("necropolis_railway_v1/ppo_league", "5f59843fb704c62b"),
                   ("necropolis_railway_v1/ppo_league@hard", "2ca5ff5dd6b7f2e8"))),
    ),
)


def zoo_references(env: str, players: int) -> list[str]:
    """The references the zoo would name for a cell today, by the rule version 1 was frozen
    with: random, heuristic, each shipped network that plays ``players``, and each level its
    card measures stronger than the network there (``zoo.level_claim``), @expert only where
    it measures above @hard as well.  For writing a new version's table (``--list`` says
    when the zoo has moved on), never for running one."""
    from meeplezoo.training.agents.bots import LEVELS
    from meeplezoo.training.agents.zoo import EXPERT, list_zoo

    entries = [entry for entry in list_zoo(env) if entry.plays(players)]
    names = ["random", "heuristic", *(entry.name for entry in entries)]
    for entry in entries:
        for level in LEVELS:
            claim = entry.claim(level, players, entry.level_settings(LEVELS, level))
            if claim.stronger and (level != EXPERT or claim.above_hard):
                names.append(f"{entry.name}@{level}")
    return names


def reference_fingerprint(spec: str) -> str | None:
    """What a network reference plays with, as 16 hex digits: the SHA-256 of its ONNX files
    (policy and fitted value; every member of a team), and for a level its ``LEVELS``
    settings as this network plays them (its card's own tuning, ``zoo.tuned_level``) too.
    None for the bots (``random``, ``heuristic``: their play is the env's, pinned by its
    version and the bot-reference tests)."""
    from meeplezoo.training.agents.bots import LEVELS, split_level
    from meeplezoo.training.agents.ismcts import cards_objective
    from meeplezoo.training.agents.zoo import checkpoint_folder, read_card, tuned_level

    if spec in BUILT_IN:
        return None
    base, level = split_level(spec)
    folder = checkpoint_folder(str(base))
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*.onnx")):
        digest.update(path.relative_to(folder).as_posix().encode())
        digest.update(path.read_bytes())
    if level is not None:
        card = read_card(folder)
        settings = tuned_level(LEVELS, level, card)
        members = ({role: read_card(folder / sub) for role, sub in card["roles"].items()}
                   if "roles" in card else {None: card})  # a team: its members' values
        objective = cards_objective(members) if settings["play"] == "search" else "win"
        if objective != "win":  # a card field that changes play (pins before it: win)
            settings["objective"] = objective
        digest.update(json.dumps({"level": level, **settings}, sort_keys=True).encode())
    return digest.hexdigest()[:16]


def changed_references(cells: list[Cell]) -> list[str]:
    """The cells' network references whose files or level settings differ from the pins
    the protocol was frozen with: figures against them are not the protocol's."""
    return [f"{spec} ({cell.name})" for cell in cells for spec, pin in cell.pins
            if reference_fingerprint(spec) != pin]


def select(protocol: Protocol, env_names: list[str] | None = None,
           players: list[int] | None = None) -> list[Cell]:
    """The cells of ``env_names`` (default all) at ``players`` (default all)."""
    known = {cell.env for cell in protocol.cells}
    unknown = sorted(set(env_names or []) - known)
    if unknown:
        raise ConfigError(f"--env {', '.join(unknown)}: no cell of {protocol.version}; its "
                          f"envs are {', '.join(sorted(known))}")
    cells = [cell for cell in protocol.cells
             if (not env_names or cell.env in env_names) and (not players
                                                              or cell.players in players)]
    if not cells:
        raise ConfigError(f"no cell of {protocol.version} at --players "
                          f"{', '.join(map(str, players or []))}"
                          + (f" in {', '.join(env_names)}" if env_names else "")
                          + f"; its cells are {', '.join(c.name for c in protocol.cells)}")
    return cells


def status_text(games: int | None, cells: list[Cell], protocol: Protocol,
                changed: list[str] = ()) -> str:
    """``the protocol``, or ``not the protocol (...)`` saying how the run differs."""
    how = []
    if games is not None:
        how.append(f"scaled to {games} game{'' if games == 1 else 's'}")
    if len(cells) < len(protocol.cells):
        how.append("only " + ", ".join(cell.name for cell in cells))
    if changed:
        how.append("references changed since it was frozen: " + ", ".join(changed))
    return f"not the protocol ({'; '.join(how)})" if how else "the protocol"


# -- who plays ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seated:
    """A candidate in one cell: its entrant, or why it cannot play there."""

    label: str
    entrant: Entrant | None
    skipped: str = ""


def seat_candidates(cell: Cell, candidates: list[Any]) -> tuple[list[Entrant], list[Seated]]:
    """The cell's references and each candidate, resolved; a spec that names no agent is an
    error, a candidate that cannot sit in every seat of the cell is skipped with the reason."""
    config = {"num_players": cell.players}
    entrants = [resolve(spec, cell.env, config) for spec in candidates]  # a bad spec: now
    references = [resolve(spec, cell.env, config) for spec in cell.references]
    check_entrants(cell.env, config, references)
    seated: dict[str, Seated] = {}
    for entrant in entrants:
        as_reference(entrant, references)  # a name clash with a reference is an error
        known = seated.get(entrant.label)
        if known is not None:
            if known.entrant is not None and known.entrant.spec != entrant.spec:
                raise ConfigError(f"two different agents are both named {entrant.label!r}")
            continue
        try:
            check_entrants(cell.env, config, [entrant])
        except (MeepleZooError, ValueError) as exc:
            seated[entrant.label] = Seated(entrant.label, None, str(exc))
            continue
        seated[entrant.label] = Seated(entrant.label, entrant)
    return references, list(seated.values())


def as_reference(entrant: Entrant, references: list[Entrant]) -> Entrant | None:
    """The reference ``entrant`` is (the same label and the same spec), or None."""
    for reference in references:
        if reference.label == entrant.label:
            if reference.spec != entrant.spec:
                raise ConfigError(f"two different agents are both named {entrant.label!r}")
            return reference
    return None


# -- one cell -------------------------------------------------------------------------------


def head_to_head(per_deal: np.ndarray, agent: int, other: int, seed: int,
                 resamples: int) -> dict[str, Any]:
    """The share of the pairs of seats in which ``agent`` finished ahead of ``other`` (a
    tie half), with a bootstrap interval over deals (``ratings.deal_wins``' matrices)."""
    ahead, behind = per_deal[:, agent, other], per_deal[:, other, agent]
    pairs = ahead + behind
    weights = resample_weights(len(per_deal), resamples, seed)
    boot_pairs = weights @ pairs
    met = boot_pairs > 0
    share = float(ahead.sum() / pairs.sum()) if pairs.sum() else None
    boot = (weights @ ahead)[met] / boot_pairs[met]
    return {"share": share, "share_ci95": interval(boot) if len(boot) else None,
            "pairs": int(pairs.sum())}


def arena_of(cell: Cell, config: dict, entrants: list[Entrant], games: int, resamples: int,
             anchor: str, workers: int | cluster.Workers, progress: bool | str,
             desc: str) -> tuple[dict[str, Any], np.ndarray]:
    """A round robin of ``entrants`` on the cell's deals: its games, deals and rating table,
    and its per-deal pairwise wins (``ratings.deal_wins``)."""
    lineups, results = round_robin(cell.env, config, entrants, games, cell.seed, workers,
                                   progress, desc)
    per_deal = deal_wins(lineups, results, len(entrants), cell.players)
    return ({"games": len(lineups), "deals": len(per_deal),
             "table": rate(entrants, lineups, results, cell.players, cell.seed, resamples,
                           anchor_label=anchor)}, per_deal)


def multi_cell(cell: Cell, references: list[Entrant], seated: list[Seated], protocol: Protocol,
               games: int | None, with_references: bool, workers: int | cluster.Workers,
               progress: bool | str) -> dict[str, Any]:
    """A cell of two or more players: the pairing (each agent once), then each candidate's
    round robin with the references."""
    config = {"num_players": cell.players}
    resamples, seed = protocol.resamples, cell.seed
    deals = games or cell.paired_deals
    field = resolve(protocol.pairing_field, cell.env, config)
    seats, lineups = paired_field([field], cell.players, deals, seed)
    outcomes: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for entrant in [*references, *(s.entrant for s in seated if s.entrant is not None)]:
        if entrant.label not in outcomes:  # a candidate that is a reference: its games
            _, shares, scores = play_seated(cell.env, config, entrant, seats, lineups, seed,
                                            workers, progress)
            outcomes[entrant.label] = (shares, scores)
    out: dict[str, Any] = {
        "pairing": {"field": protocol.pairing_field, "deals": deals,
                    "seats": "deal d: seat d mod players, the field in every other seat",
                    "references": {r.label: {"win_share": float(outcomes[r.label][0].mean()),
                                             "mean_score": float(outcomes[r.label][1].mean())}
                                   for r in references}}}
    if with_references:
        out["reference_round_robin"], _ = arena_of(
            cell, config, references, games or cell.games, resamples, protocol.anchor,
            workers, progress, f"{cell.name} references")
    out["candidates"] = []
    for candidate in seated:
        if candidate.entrant is None:
            out["candidates"].append({"agent": candidate.label, "skipped": candidate.skipped})
            continue
        label, entrant = candidate.label, candidate.entrant
        if as_reference(entrant, references) is not None:  # rated as a copy of itself
            entrant = Entrant(f"{label} (candidate)", entrant.spec)
        arena, per_deal = arena_of(cell, config, [*references, entrant], games or cell.games,
                                   resamples, protocol.anchor, workers, progress,
                                   f"{cell.name} {label}")
        row = next(r for r in arena["table"] if r["agent"] == entrant.label)
        out["candidates"].append({
            "agent": label,
            **{k: row[k] for k in ("elo", "elo_ci95", "win_share", "mean_score", "games")},
            "paired": {r.label: differences(outcomes[label], outcomes[r.label], cell.players,
                                            seed, resamples) for r in references},
            "head_to_head": {r.label: head_to_head(per_deal, len(references), k, seed,
                                                   resamples)
                             for k, r in enumerate(references)},
            "round_robin": arena})
    return out


def solo_cell(cell: Cell, references: list[Entrant], seated: list[Seated], protocol: Protocol,
              games: int | None, workers: int | cluster.Workers,
              progress: bool | str) -> dict[str, Any]:
    """A solo cell: every agent on the same deals; the candidates' mean scores and their
    paired differences from each reference."""
    config = {"num_players": 1}
    deals = games or cell.games
    playing = [s.entrant for s in seated if s.entrant is not None]
    entrants = list(references)
    for entrant in playing:
        if entrant.label not in {e.label for e in entrants}:  # a reference plays once
            entrants.append(entrant)
    scores = solo_scores(cell.env, config, entrants, deals, cell.seed, workers, progress,
                         f"{cell.name}")
    by_label = {e.label: scores[k] for k, e in enumerate(entrants)}
    weights = resample_weights(deals, protocol.resamples, cell.seed) / deals
    table = sorted(({"agent": label, "mean_score": float(s.mean()),
                     "mean_score_ci95": interval(weights @ s), "games": deals}
                    for label, s in by_label.items()), key=lambda row: -row["mean_score"])
    none = np.zeros(deals)
    candidates = []
    for candidate in seated:
        if candidate.entrant is None:
            candidates.append({"agent": candidate.label, "skipped": candidate.skipped})
            continue
        mine = by_label[candidate.label]
        candidates.append({
            "agent": candidate.label, "mean_score": float(mine.mean()),
            "mean_score_ci95": interval(weights @ mine), "games": deals,
            "paired": {r.label: differences((none, mine), (none, by_label[r.label]), 1,
                                            cell.seed, protocol.resamples)
                       for r in references}})
    return {"deals": deals, "table": table, "candidates": candidates}


# -- the run --------------------------------------------------------------------------------


def run_benchmark(candidates: list[Any], protocol: Protocol = PROTOCOL,
                  games: int | None = None, env_names: list[str] | None = None,
                  players: list[int] | None = None, references: bool = False,
                  workers: int | cluster.Workers = 1, progress: bool | str = False,
                  command: str | None = None) -> dict[str, Any]:
    """Benchmark ``candidates`` (spec strings or Python agents) under ``protocol``: the
    report as a dict (see the module's docstring; ``markdown`` writes it for people).
    ``references``: also the references' own round robin."""
    from meeplezoo.training.cli import code_commit

    if games is not None and games < 1:
        raise ConfigError(f"--games must be 1 or more (got {games})")
    if not candidates and not references:
        raise ConfigError("name an agent to benchmark (or give --references for the "
                          "references' own figures)")
    cells = select(protocol, env_names, players)
    seated = [(cell, *seat_candidates(cell, list(candidates))) for cell in cells]
    started = time.perf_counter()
    out_cells = []
    for cell, refs, sitting in seated:
        began = time.perf_counter()
        if cell.players == 1:
            figures = solo_cell(cell, refs, sitting, protocol, games, workers, progress)
        else:
            figures = multi_cell(cell, refs, sitting, protocol, games, references, workers,
                                 progress)
        out_cells.append({"env": cell.env, "players": cell.players, "seed": cell.seed,
                          "references": [r.label for r in refs], **figures,
                          "took_s": round(time.perf_counter() - began, 1)})
    changed = changed_references(cells)
    status = status_text(games, cells, protocol, changed)
    return {"protocol": protocol.version, "protocol_digest": protocol.digest(),
            "full_protocol": status == "the protocol", "status": status,
            "changed_references": changed,
            "command": command, "code_commit": code_commit(),
            "candidates": [s.label for s in seated[0][2]] if seated else [],
            "references_benchmarked": references, "anchor": protocol.anchor,
            "resamples": protocol.resamples,
            "played_on": str(cluster.workers_of(workers)),
            "took_s": round(time.perf_counter() - started, 1), "cells": out_cells}


# -- the report -----------------------------------------------------------------------------


def cell_title(cell: dict[str, Any]) -> str:
    count = "solo" if cell["players"] == 1 else f"{cell['players']} players"
    return f"`{cell['env']}`, {count}"


def points(value: float, ci: list[float]) -> str:
    """A win share difference in points: ``+12.0 [+4.5 to +19.5]``."""
    return f"{100 * value:+.1f} [{100 * ci[0]:+.1f} to {100 * ci[1]:+.1f}]"


def score_gap(value: float, ci: list[float]) -> str:
    return f"{value:+.1f} [{ci[0]:+.1f} to {ci[1]:+.1f}]"


def summary_lines(cell: dict[str, Any]) -> list[str]:
    """A cell's headline: each candidate's Elo (solo: mean score) and its paired difference
    from each reference, the skipped candidates and why; then the references' own round
    robin where it was played (solo without a candidate: every agent's mean score)."""
    refs = cell["references"]
    rated = [c for c in cell["candidates"] if "skipped" not in c]
    solo = cell["players"] == 1
    lines = []
    if rated:
        what, unit = ("mean score", "score") if solo else ("Elo", "points")
        lines += ["| candidate | " + what + " | 95% interval | " + ("" if solo else "win share | ")
                  + " | ".join(f"vs `{r}` ({unit})" for r in refs) + " |",
                  "| --- | ---: | --- |" + ("" if solo else " ---: |") + " --- |" * len(refs)]
    for c in rated:
        if solo:
            gaps = [score_gap(c["paired"][r]["score_difference"],
                              c["paired"][r]["score_difference_ci95"]) for r in refs]
            low, high = c["mean_score_ci95"]
            figures = f"{c['mean_score']:.1f} | {low:.1f} to {high:.1f}"
        else:
            gaps = [points(c["paired"][r]["win_share_difference"],
                           c["paired"][r]["win_share_difference_ci95"]) for r in refs]
            low, high = c["elo_ci95"]
            figures = f"{c['elo']:.0f} | {low:.0f} to {high:.0f} | {c['win_share']:.3f}"
        lines.append(f"| `{c['agent']}` | {figures} | " + " | ".join(gaps) + " |")
    skipped = [f"- `{c['agent']}` skipped: {c['skipped']}" for c in cell["candidates"]
               if "skipped" in c]
    lines += ([""] if lines and skipped else []) + skipped
    arena = cell.get("reference_round_robin")
    if arena:
        lines += [*([""] if lines else []), f"The references' own round robin "
                  f"({arena['games']} games, {arena['deals']} deals):", "",
                  *table_lines({"players": cell["players"], "ratings": arena["table"]})]
    if solo and not rated:
        lines += [*([""] if lines else []), *table_lines({"players": 1,
                                                          "scores": cell["table"]})]
    return lines


def detail_lines(cell: dict[str, Any]) -> list[str]:
    """A cell's further tables: head to head, the pairing's references, each candidate's
    round robin (solo: every agent's mean score)."""
    refs = cell["references"]
    rated = [c for c in cell["candidates"] if "skipped" not in c]
    if cell["players"] == 1:
        return ["", "Every agent on the same deals:", "",
                *table_lines({"players": 1, "scores": cell["table"]})] if rated else []
    lines = []
    if rated:
        lines += ["", "Head to head in the candidate's round robin (the share of the pairs of "
                  "seats in which it finished ahead of the reference, a tie half; 95% "
                  "interval over deals):", "",
                  "| candidate | " + " | ".join(f"vs `{r}`" for r in refs) + " |",
                  "| --- |" + " --- |" * len(refs)]
        for c in rated:
            shares = []
            for r in refs:
                h = c["head_to_head"][r]
                shares.append("-" if h["share"] is None else
                              f"{h['share']:.3f} [{h['share_ci95'][0]:.3f} to "
                              f"{h['share_ci95'][1]:.3f}] ({h['pairs']:.0f} pairs)")
            lines.append(f"| `{c['agent']}` | " + " | ".join(shares) + " |")
    pairing = cell["pairing"]
    lines += ["", f"The pairing: {pairing['deals']} deals, the agent in seat d mod "
              f"{cell['players']} of deal d, `{pairing['field']}` in every other seat; the "
              "references there:", "", "| reference | win share | mean score |",
              "| --- | ---: | ---: |"]
    lines += [f"| `{r}` | {f['win_share']:.3f} | {f['mean_score']:.1f} |"
              for r, f in pairing["references"].items()]
    for c in rated:
        arena = c["round_robin"]
        lines += ["", f"Round robin of `{c['agent']}` ({arena['games']} games, "
                  f"{arena['deals']} deals):", "",
                  *table_lines({"players": cell["players"], "ratings": arena["table"]})]
    return lines


def cell_intro(cell: dict[str, Any], report: dict[str, Any]) -> str:
    if cell["players"] == 1:
        return (f"Seed {cell['seed']}: every agent plays the same {cell['deals']} deals "
                "alone; mean scores with 95% bootstrap intervals"
                + (", and each candidate's score difference from each reference on the same "
                   "deals (paired interval)." if any("paired" in c for c in cell["candidates"])
                   else "."))
    arena = next((c["round_robin"] for c in cell["candidates"] if "round_robin" in c),
                 cell.get("reference_round_robin"))
    games = f"round robins of {arena['games']} games" if arena else "no round robin"
    text = f"Seed {cell['seed']}: {games}; Elo with `{report['anchor']}` = 0."
    if any("paired" in c for c in cell["candidates"]):
        text += (" \"vs\" columns: the candidate's win share minus the reference's, in "
                 f"points, each in the same seat of the same {cell['pairing']['deals']} deals "
                 f"against `{cell['pairing']['field']}`, with its paired 95% interval.")
    return text


def markdown(report: dict[str, Any], details: bool = True) -> str:
    """The report for people: its header, then each cell's tables (``details``: the head
    to head, the pairing's references and every round robin too)."""
    lines = [f"# Benchmark {report['protocol']}: {report['status']}", "",
             f"- protocol: `{report['protocol']}` (digest {report['protocol_digest']}); "
             f"**{report['status']}**",
             f"- command: `{report['command'] or 'run_benchmark (Python)'}`",
             f"- code commit: {report['code_commit']}",
             f"- candidates: {', '.join(f'`{c}`' for c in report['candidates']) or 'none'}"
             + ("; with the references' own round robins"
                if report["references_benchmarked"] else ""),
             f"- played on {report['played_on']} in {report['took_s']:.0f} s"]
    for cell in report["cells"]:
        lines += ["", f"## {cell_title(cell)}", "", cell_intro(cell, report), "",
                  *summary_lines(cell), *(detail_lines(cell) if details else [])]
    return "\n".join(lines) + "\n"


def plot(report: dict[str, Any], path: Path) -> None:
    """One PNG: a panel per cell, each agent's Elo (solo: mean score) with its 95% interval,
    the candidates in colour.  The references' Elo is from their own round robin where it
    was played, else from the first candidate's (they differ little: the same references
    and deals)."""
    from meeplezoo.training.evaluation.balance_plots import load_pyplot

    plt = load_pyplot("benchmark: --plot")
    cells = report["cells"]
    columns = min(3, len(cells))
    rows_n = -(-len(cells) // columns)
    fig, axes = plt.subplots(rows_n, columns, figsize=(max(7.0, 5.2 * columns), 3.4 * rows_n),
                             squeeze=False)
    for ax, cell in zip(axes.flat, cells):
        rated = [c for c in cell["candidates"] if "skipped" not in c]
        refs = cell["references"]
        if cell["players"] == 1:
            by_label = {r["agent"]: r for r in cell["table"]}
            rows = [(label, by_label[label]["mean_score"], by_label[label]["mean_score_ci95"],
                     False) for label in refs]
            rows += [(c["agent"], c["mean_score"], c["mean_score_ci95"], True) for c in rated]
            ax.set_xlabel("mean score")
        else:
            arena = cell.get("reference_round_robin") or (rated[0]["round_robin"] if rated
                                                            else {"table": []})
            rows = [(r["agent"], r["elo"], r["elo_ci95"], False) for r in arena["table"]
                    if r["agent"] in refs]
            rows += [(c["agent"], c["elo"], c["elo_ci95"], True) for c in rated]
            ax.set_xlabel(f"Elo ({report['anchor']} = 0)")
        rows.sort(key=lambda row: row[1])
        for y, (_, value, (low, high), mine) in enumerate(rows):
            ax.errorbar(value, y, xerr=[[value - low], [high - value]], fmt="o",
                        color="tab:red" if mine else "tab:gray", capsize=3)
        ax.set_yticks(range(len(rows)))
        ax.set_yticklabels([label.split("/")[-1] + (" (candidate)" if mine else "")
                            for label, _, _, mine in rows], fontsize=8)
        ax.set_title(cell_title(cell).replace("`", ""), fontsize=9)
        ax.grid(axis="x", alpha=0.3)
    for ax in list(axes.flat)[len(cells):]:
        ax.axis("off")
    fig.suptitle(f"{report['protocol']}: {report['status']}\n95% intervals; candidates in "
                 "red, references in grey", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def protocol_lines(protocol: Protocol) -> list[str]:
    """The protocol's cells as a Markdown table (``--list``)."""
    lines = [f"{protocol.version} (digest {protocol.digest()}): Elo anchor "
             f"{protocol.anchor}, pairing field {protocol.pairing_field}, "
             f"{protocol.resamples} bootstrap resamples", "",
             "| cell | references | round robin games | paired deals | seed |",
             "| --- | --- | ---: | ---: | ---: |"]
    for cell in protocol.cells:
        games = f"{cell.games} (solo deals)" if cell.players == 1 else str(cell.games)
        lines.append(f"| {cell.name} | {', '.join(f'`{r}`' for r in cell.references)} | "
                     f"{games} | {cell.paired_deals or '-'} | {cell.seed} |")
    for cell in protocol.cells:
        today = zoo_references(cell.env, cell.players)
        if today != list(cell.references):
            lines.append(f"\nNote: the zoo would name other references for {cell.name} today "
                         f"({', '.join(today)}); {protocol.version} keeps its own, frozen.")
    return lines


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    envs_known = sorted({cell.env for cell in PROTOCOL.cells})
    parser = argparse.ArgumentParser(
        description=f"The frozen benchmark {PROTOCOL.version}: each agent against the fixed "
                    "references of every game and player count with shipped opponents "
                    "(Elo, paired win share against each reference, solo mean score); "
                    "docs/benchmark.md")
    add_agents_argument(parser, "agents", forms=ARENA_FORMS, default=[],
                        what="the agents to benchmark, each in a round robin of its own with "
                             "the references")
    parser.add_argument("--references", action="store_true",
                        help="also (or, with no agent, only) the references' own round robin")
    parser.add_argument("--games", type=int,
                        help="a quick look: N games a round robin, N deals a pairing and N "
                             "solo deals (the report then says it is not the protocol)")
    parser.add_argument("--env", action="append", choices=envs_known, metavar="ENV",
                        help=f"only this game ({', '.join(envs_known)}; repeat the flag for "
                             "more; not the protocol)")
    parser.add_argument("--players", action="append", type=int, metavar="N",
                        help="only this player count (repeat the flag for more; not the "
                             "protocol)")
    cluster.add_arguments(parser)
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="progress bar (default: a bar on a terminal, else a line every "
                             "30 s; --no-progress: none)")
    parser.add_argument("--json", metavar="FILE", help="write the report as JSON")
    parser.add_argument("--markdown", metavar="FILE", help="write the report as Markdown")
    parser.add_argument("--plot", metavar="FILE",
                        help="write one PNG figure (matplotlib: the report extra)")
    parser.add_argument("--list", action="store_true", help="print the protocol and exit")
    args = parser.parse_intermixed_args(argv)  # agents before, between or after options
    if args.list:
        print("\n".join(protocol_lines(PROTOCOL)))
        return 0
    if args.plot:  # a missing matplotlib is said before the games, not after
        from meeplezoo.training.evaluation.balance_plots import load_pyplot

        load_pyplot("benchmark: --plot")
    progress = "auto" if args.progress is None else args.progress
    command = f"meeplezoo benchmark {shlex.join(argv)}".strip()
    changed = changed_references(select(PROTOCOL, args.env, args.players))
    if changed:  # said before the games, not only in the report after them
        print(f"warning: references changed since {PROTOCOL.version} was frozen: "
              f"{', '.join(changed)}; the figures will not be the protocol's", file=sys.stderr)
    try:
        where = cluster.workers_from(args)
        report = run_benchmark(args.agents, PROTOCOL, args.games, args.env, args.players,
                               args.references, where, progress, command)
    except (MeepleZooError, ValueError) as exc:
        raise SystemExit(f"benchmark: {exc}") from None
    print(markdown(report, details=False), end="")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    if args.markdown:
        Path(args.markdown).write_text(markdown(report))
    if args.plot:
        plot(report, Path(args.plot))
    return 0


if __name__ == "__main__":
    raise SystemExit(run_command(main))

