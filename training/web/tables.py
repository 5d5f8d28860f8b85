"""The tables of the web server: each a game on the server, its seats (the person's and the
agents'), its log, undo, saves and loads — and what one client may see of it.

As in boardgame.io, the game runs here and a client only ever receives a view: the
presentation layer's view for the seats the person holds (``envs.core.present.view``), with
the log lines those seats may read.  Every request is checked before anything changes, so a
bad one (``TableError``, with the HTTP status to answer) leaves the table as it was.  No web
framework here: ``app`` maps HTTP onto these calls.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from meeplezoo import envs
from meeplezoo.envs.core.errors import (
    ConfigError,
    CorruptStateError,
    IllegalActionError,
    MeepleZooError,
)
from meeplezoo.envs.core.game import Game, GameState, state_from_saved
from meeplezoo.envs.core.present import LogLine, Presenter, view
from meeplezoo.training.agents.bots import split_level
from meeplezoo.training.agents.opponents import CheckpointError
from meeplezoo.training.agents.zoo import counts_text, zoo_entry, zoo_root
from meeplezoo.training.play import make_opponent

HUMAN = "human"
LOG_SHOWN = 400  # the last lines of the log a view carries
MAX_STEPS = 5000  # bot moves one step request may run (a whole game is at most a few thousand)
SAVE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


class TableError(Exception):
    """A request the table refuses, with the HTTP status to answer and a message that says
    what was wrong and what is allowed."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def integer(body: dict[str, Any], key: str, default: int | None = None,
            low: int | None = None, high: int | None = None) -> int:
    """``body[key]`` as an int in ``low..high``, or a 400 naming the field."""
    value = body.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise TableError(400, f"field {key!r} must be an integer, got {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise TableError(400, f"field {key!r} must be in {low}..{high}, got {value}")
    return value


def agents_url(env: str, players: int) -> str:
    """Where the lobby asks which agents can play ``env`` at ``players`` players."""
    return f"/api/agents?env={env}&players={players}"


def check_agent(seat: int, spec: str, game: Game) -> None:
    """Refuse a shipped agent (a zoo name, at a level or not) that cannot play this table:
    another game's, or one whose card does not play this player count (a 400 naming the
    counts it plays, before anything is loaded).  Other specs are left to ``make_opponent``,
    whose refusals ``create`` reports."""
    try:
        base, _ = split_level(spec)
    except ConfigError as exc:
        raise TableError(400, f"seat {seat}: an agent cannot play: {exc}") from None
    if Path(base).exists():  # a folder given by path: its own card is checked when loaded
        return
    try:
        entry = zoo_entry(base)
    except CheckpointError as exc:
        raise TableError(400, f"seat {seat}: an agent cannot play: {exc}") from None
    if entry is None:
        return
    n = game.num_players
    if entry.env != game.name:
        raise TableError(400, f"seat {seat}: {spec} cannot play {game.name}: it is an agent "
                         f"of {entry.env} (the agents for this table: "
                         f"{agents_url(game.name, n)})")
    if not entry.plays(n):
        raise TableError(400, f"seat {seat}: {spec} cannot play {n} players: it plays "
                         f"{counts_text(entry.player_counts)} (the agents for {n} players: "
                         f"{agents_url(game.name, n)})")


def without_server_paths(message: str) -> str:
    """An error's text with the server's zoo folder cut out: a client learns the zoo name
    (``necropolis_railway_v1/ppo_league``), never where the server keeps it."""
    root = str(zoo_root())
    return message.replace(root + os.sep, "").replace(root, "the zoo")


@dataclass
class Table:
    """One game at one table.  Every public method holds the table's lock."""

    id: str
    game: Game
    presenter: Presenter
    seats: list[str]  # per seat: HUMAN or the agent spec that plays it
    bots: dict[int, Any]
    state: GameState
    credentials: str
    log: list[LogLine] = field(default_factory=list)
    history: list[tuple[GameState, int]] = field(default_factory=list)  # at the person's moves
    version: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def human_seats(self) -> frozenset[int]:
        return frozenset(s for s, who in enumerate(self.seats) if who == HUMAN)

    # -- what a client sees ------------------------------------------------------------
    def view(self, seat: int | None = None) -> dict[str, Any]:
        """The view for the person's seats (or only ``seat``, one of them)."""
        with self.lock:
            viewers = self.human_seats
            if seat is not None:
                if seat not in viewers:
                    raise TableError(403, f"seat {seat} is not yours: you hold "
                                     f"{sorted(viewers) or 'no seat (watch mode)'}")
                viewers = frozenset({seat})
            shown = view(self.presenter, self.state, viewers)
            mover = shown["to_move"]
            shown["table"] = {
                "id": self.id, "env": self.game.name, "config": self.game.config_dict(),
                "version": self.version, "human_seats": sorted(self.human_seats),
                "watch": not self.human_seats, "can_undo": bool(self.history),
                "bot_to_move": mover >= 0 and mover not in self.human_seats,
                "players": [{"seat": s, "who": "you" if who == HUMAN else who,
                             "name": self.presenter.seat_name(self.game, s)}
                            for s, who in enumerate(self.seats)],
            }
            lines = [line.text for line in self.log if line.visible_to(viewers)]
            shown["log"] = lines[-LOG_SHOWN:]
            return shown

    # -- moves ---------------------------------------------------------------------------
    def act(self, body: dict[str, Any]) -> None:
        """The person's move: ``{"seat", "action", "version"}``, checked before it is played."""
        seat = integer(body, "seat", low=0, high=self.game.num_players - 1)
        action = integer(body, "action", low=0)
        version = integer(body, "version", default=self.version)
        with self.lock:
            self.check_version(version)
            if seat not in self.human_seats:
                raise TableError(403, f"seat {seat} is played by {self.seats[seat]}, not by "
                                 f"you; your seats: {sorted(self.human_seats) or 'none'}")
            if self.state.is_terminal():
                raise TableError(409, "the game is over: start a new table or load a save")
            mover = self.state.current_player()
            if mover != seat:
                raise TableError(409, f"it is seat {mover}'s turn, not seat {seat}'s")
            if not (action < len(self.state.legal_mask()) and self.state.legal_mask()[action]):
                legal = ", ".join(f"{a} ({self.presenter.label(self.state, a)})"
                                  for a in self.state.legal_actions()[:12])
                raise TableError(400, f"action {action} is not legal now; legal: {legal}")
            self.history.append((self.state.clone(), len(self.log)))
            self.play(action)

    def step(self, body: dict[str, Any]) -> int:
        """Let the agents move, up to ``moves`` of them, until a seat of the person is to move
        or the game ends; returns how many moved."""
        moves = integer(body, "moves", default=1, low=1, high=MAX_STEPS)
        version = integer(body, "version", default=self.version)
        with self.lock:
            self.check_version(version)
            done = 0
            while done < moves and self.bot_to_move():
                mover = self.state.current_player()
                self.play(self.bots[mover].act(self.state))
                done += 1
            if not done and not self.state.is_terminal():
                raise TableError(409, f"seat {self.state.current_player()} is yours to move: "
                                 "an agent step needs an agent to move")
            return done

    def bot_to_move(self) -> bool:
        return not self.state.is_terminal() and \
            self.state.current_player() not in self.human_seats

    def play(self, action: int) -> None:
        before = self.state.clone()
        try:
            self.state.apply(int(action))
        except IllegalActionError as exc:  # an agent's bad move: the table stays as it was
            self.state = before
            raise TableError(500, f"the agent of seat {before.current_player()} "
                             f"({self.seats[before.current_player()]}) played an illegal "
                             f"move: {exc}") from None
        self.log += self.presenter.narrate(before, int(action), self.state)
        self.version += 1

    def check_version(self, version: int) -> None:
        if version != self.version:
            raise TableError(409, f"the table has moved on (version {self.version}, you sent "
                             f"{version}): reload the view and choose again")

    def undo(self, body: dict[str, Any]) -> None:
        """Back to the person's previous decision (the agents' moves since are undone too)."""
        version = integer(body, "version", default=self.version)
        with self.lock:
            self.check_version(version)
            if not self.history:
                raise TableError(409, "nothing to undo: you have not moved yet at this table")
            self.state, kept = self.history.pop()
            self.log = [*self.log[:kept], LogLine("(undone: back to your previous decision)")]
            self.version += 1

    # -- saves ---------------------------------------------------------------------------
    def saved(self) -> dict[str, Any]:
        with self.lock:
            return self.state.to_dict()

    def load(self, data: Any) -> None:
        """Replace the game by a saved one of the same configuration (undo returns to the
        game before it); a damaged or foreign save is a 400 saying why."""
        try:
            loaded = state_from_saved(type(self.game), data)
        except CorruptStateError as exc:
            raise TableError(400, f"not a valid save: {exc}") from None
        if loaded.game.config_dict() != self.game.config_dict():
            raise TableError(400, f"the save is a game of {loaded.game.config_dict()}; this "
                             f"table plays {self.game.config_dict()}")
        with self.lock:
            self.history.append((self.state, len(self.log)))
            self.state = loaded
            self.log.append(LogLine("(a saved game was loaded)"))
            self.version += 1


class Tables:
    """Every table of the server, by id, and the folder saves are written to."""

    def __init__(self, saves: str | Path) -> None:
        self.saves = Path(saves)
        self.tables: dict[str, Table] = {}
        self.lock = threading.Lock()

    def create(self, body: dict[str, Any]) -> Table:
        """A new table from ``{"env", "players", "seats", "seed", "options"}``: ``seats``
        lists, per seat, ``human`` or an agent spec (any ``meeplezoo play`` opponent)."""
        name = body.get("env")
        if name not in envs.list_envs():
            raise TableError(400, f"unknown env {name!r}; envs: {', '.join(envs.list_envs())}")
        options = body.get("options", {})
        if not isinstance(options, dict):
            raise TableError(400, "field 'options' must be an object of game options")
        seed = integer(body, "seed", default=0, low=0, high=2**31 - 1)
        try:
            players = body.get("players")
            game = envs.make_game(name, **({"num_players": players} if players else {}),
                                  **options)
        except (MeepleZooError, TypeError) as exc:
            raise TableError(400, str(exc)) from None
        seats = body.get("seats")
        if not (isinstance(seats, list) and len(seats) == game.num_players
                and all(isinstance(s, str) and s.strip() for s in seats)):
            raise TableError(400, f"field 'seats' must list {game.num_players} seat(s), each "
                             "'human' or an agent (random, heuristic, a zoo name, "
                             "<zoo name>@easy|medium|hard|expert, package.module:attribute)")
        seats = [s.strip() for s in seats]
        for s, spec in enumerate(seats):
            if spec != HUMAN:
                check_agent(s, spec, game)
        try:
            bots = {s: make_opponent(spec, game, seed + 1 + s, s)
                    for s, spec in enumerate(seats) if spec != HUMAN}
        except (MeepleZooError, CheckpointError, ValueError, TypeError) as exc:
            raise TableError(400, f"an agent cannot play: {without_server_paths(str(exc))}"
                             ) from None
        table = Table(secrets.token_hex(4), game, envs.presenter(name), seats, bots,
                      game.new_initial_state(seed), secrets.token_urlsafe(18))
        with self.lock:
            self.tables[table.id] = table
        return table

    def get(self, table_id: str, credentials: str | None) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise TableError(404, f"no table {table_id!r}; open tables: "
                             f"{', '.join(sorted(self.tables)) or 'none'}")
        if not credentials or not secrets.compare_digest(credentials, table.credentials):
            raise TableError(403, f"table {table_id}: the credentials are missing or wrong "
                             "(the browser that created a table keeps them)")
        return table

    def listing(self) -> list[dict[str, Any]]:
        """What anyone may know of the open tables: id, game, who plays each seat."""
        return [{"id": t.id, "env": t.game.name, "seats": t.seats, "over": t.state.is_terminal()}
                for t in self.tables.values()]

    # -- the saves folder -----------------------------------------------------------------
    def save_path(self, name: Any) -> Path:
        if not isinstance(name, str) or not SAVE_NAME.match(name) or ".." in name:
            raise TableError(400, f"save name {name!r} must be 1-64 letters, digits, '_', "
                             "'-' or '.', starting with a letter or digit")
        return self.saves / f"{name}.json"

    def save(self, table: Table, name: Any) -> str:
        path = self.save_path(name)
        self.saves.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(table.saved()))
        return path.stem

    def read_save(self, name: Any) -> Any:
        path = self.save_path(name)
        if not path.is_file():
            raise TableError(404, f"no save named {name!r}; saves: "
                             f"{', '.join(s['name'] for s in self.list_saves()) or 'none'}")
        try:
            return json.loads(path.read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise TableError(400, f"save {name!r} is not a saved game: {exc}") from None

    def list_saves(self) -> list[dict[str, Any]]:
        out = []
        for path in sorted(self.saves.glob("*.json")) if self.saves.is_dir() else []:
            try:
                data = json.loads(path.read_text())
                out.append({"name": path.stem, "env": data.get("env"),
                            "config": data.get("config")})
            except (OSError, UnicodeDecodeError, json.JSONDecodeError, AttributeError):
                continue
        return out
