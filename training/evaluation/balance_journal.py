"""A balance run's journal: every finished game on disk as it ends, so a long run that is
stopped (a session's end, a killed job) goes on from where it stopped instead of starting
again.  A 1000-game cell with three Hegemony bots costs over an hour of a core; before the
journal such a run left nothing when it was cut short.

The file is JSON lines: a header (the run's settings: env, options, seed, every cell's lineup
and a digest of the network that plays each seat), then one line per finished game.  A run
given an existing journal checks that the header matches, then replays the first journaled
game of each cell and checks that it comes out the same (the code or an agent that plays it
may have changed since), and plays only the games that are missing.  A header that differs,
a replayed game that differs, or a line that is no game record is refused with what differs:
nothing from another run is ever mixed into a report.

Two things may differ.  The number of games: game ``g`` depends on the seed and ``g`` alone
(``envs.core.balance.deal_seed``), so a run of 1000 games goes on from a journal of 200 and
a run of 200 reports the first 200 of a journal of 1000.  And a team's other members: a seat
played by a team is digested by the member of that seat's role only, so a journal of the
middle class's cell stays valid when the team's working class is replaced.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from meeplezoo.envs.core import balance
from meeplezoo.envs.core.errors import MeepleZooError
from meeplezoo.training.agents.opponents import TEAM_FILE, find_checkpoint, read_team_card

JOURNAL_VERSION = 2  # 2: a team digested per seat by its role's member; games may grow


class JournalError(MeepleZooError, ValueError):
    """A journal that belongs to another run, or that cannot be read, and why."""


def spec_digest(spec: str, role: str | None = None) -> str:
    """``heuristic``/``random`` as they are; a checkpoint folder by the SHA-256 of its ONNX
    files (names and bytes), what its moves depend on (its cards change when figures are
    recorded into them, its network does not).  A team folder with ``role`` (the role of
    the seat it plays): its member of that role only."""
    if spec in (balance.HEURISTIC, balance.RANDOM):
        return spec
    folder = find_checkpoint(spec)
    if folder is None:
        return spec  # an importable agent (module:Class), as make_bot reads it: named
    if role is not None and (folder / TEAM_FILE).is_file():
        _, members, _ = read_team_card(folder)
        if role in members:
            folder = folder / members[role]
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*.onnx")):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def header(env: str, config: dict[str, Any], seed: int, games: int,
           cells: Sequence[tuple[str, Sequence[str]]],
           seat_roles: Sequence[str], commit: str = "unknown") -> dict[str, Any]:
    """What a journal's games depend on: the settings and each seat's agent (``seat_roles``:
    the role each seat plays, which picks a team's member).  ``code_commits`` lists the
    commit of every run that opened the journal, so a report built from it names the code
    its games were played at (provenance only: a replayed game is what checks the code)."""
    return {"journal": "training.balance", "version": JOURNAL_VERSION, "env": env,
            "config": config, "seed": seed, "games": games, "code_commits": [commit],
            "cells": [{"name": name, "specs": list(specs),
                       "digests": [spec_digest(s, r) for s, r in zip(specs, seat_roles)]}
                      for name, specs in cells]}


def _differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    found = [f"{k} {old.get(k)!r} != {new[k]!r}"
             for k in ("version", "env", "config", "seed") if old.get(k) != new[k]]
    old_cells = {c["name"]: c for c in old.get("cells", [])}
    for cell in new["cells"]:
        before = old_cells.get(cell["name"])
        if before is None:
            continue  # a cell added to the run: it starts with no games
        if before["specs"] != cell["specs"]:
            found.append(f"cell {cell['name']!r}: lineup {before['specs']} != {cell['specs']}")
        elif before["digests"] != cell["digests"]:
            changed = [s for s, a, b in zip(cell["specs"], before["digests"], cell["digests"])
                       if a != b]
            found.append(f"cell {cell['name']!r}: the network of {sorted(set(changed))} "
                         "changed since its games were journaled")
    return found


class Journal:
    """An open journal: the games it holds per cell, and ``add`` for newly finished ones."""

    def __init__(self, path: Path, games: dict[str, dict[int, dict[str, Any]]],
                 commits: list[str] | None = None) -> None:
        self.path = path
        self.games = games
        self.commits = commits or []  # the code commit of every run that opened it

    @classmethod
    def open(cls, path: str | Path, run_header: dict[str, Any]) -> Journal:
        """Start ``path`` with ``run_header``, or take up the journal already there when it
        is of the same run (its header may also list cells this run does not play)."""
        path = Path(path)
        if not path.exists() or path.stat().st_size == 0:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(run_header) + "\n")
            return cls(path, {c["name"]: {} for c in run_header["cells"]},
                       run_header.get("code_commits"))
        text = path.read_text()
        lines = text.splitlines()
        try:
            old = json.loads(lines[0])
        except json.JSONDecodeError:
            old = None
        if not isinstance(old, dict) or old.get("journal") != "training.balance":
            raise JournalError(f"{path} is not a training.balance journal (its first line is "
                               "no journal header)")
        differ = _differences(old, run_header)
        if differ:
            raise JournalError(f"{path} is the journal of another run: " + "; ".join(differ)
                               + " (give another --journal path, or remove this one)")
        games: dict[str, dict[int, dict[str, Any]]] = {c["name"]: {} for c in run_header["cells"]}
        kept = [lines[0]]
        for k, line in enumerate(lines[1:], start=2):
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                if k == len(lines) and not text.endswith("\n"):
                    break  # a run cut off while writing its last line: that game plays again
                raise JournalError(f"{path}, line {k}: not JSON") from None
            if not (isinstance(record, dict) and isinstance(record.get("g"), int)
                    and isinstance(record.get("cell"), str)):
                raise JournalError(f"{path}, line {k}: not a game record (needs cell and g)")
            if record["g"] < 0:
                raise JournalError(f"{path}, line {k}: game {record['g']} is negative")
            if record["cell"] in games and record["g"] < run_header["games"]:
                games[record["cell"]][record["g"]] = record  # later games: a longer run's
            kept.append(line)
        known = {c["name"] for c in old.get("cells", [])}
        added = [c for c in run_header["cells"] if c["name"] not in known]
        grown = run_header["games"] > old.get("games", 0)
        commits = old.get("code_commits", ["unknown (a journal older than code_commits)"])
        new_commits = [c for c in run_header.get("code_commits", []) if c not in commits]
        commits = [*commits, *new_commits]
        if added or grown or new_commits:  # the header names every cell, the longest run's
            kept[0] = json.dumps({**old, "games": max(old.get("games", 0), run_header["games"]),
                                  "cells": [*old.get("cells", []), *added],
                                  "code_commits": commits})  # games and every run's commit
        if (added or grown or new_commits or len(kept) < len(lines)
                or not text.endswith("\n")):
            path.write_text("\n".join(kept) + "\n")
        return cls(path, games, commits)

    def missing(self, cell: str, games: int) -> list[int]:
        """The games of ``cell`` not journaled yet, in order."""
        return [g for g in range(games) if g not in self.games[cell]]

    def add(self, records: Iterable[dict[str, Any]]) -> None:
        """Journal finished games (each with its ``cell``) and flush them to disk."""
        with self.path.open("a") as out:
            for record in records:
                line = json.dumps(record)
                self.games[record["cell"]][record["g"]] = json.loads(line)
                out.write(line + "\n")

    def check_replay(self, cell: str, replayed: dict[str, Any]) -> None:
        """Refuse the journal when a journaled game, played again now, differs."""
        kept = self.games[cell].get(replayed["g"])
        if kept is not None and kept != json.loads(json.dumps(replayed)):
            raise JournalError(
                f"{self.path}: game {replayed['g']} of cell {cell!r}, played again, differs "
                "from the journaled one (the rules, an agent or the seeding changed since): "
                "give another --journal path, or remove this one")
