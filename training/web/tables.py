"""The tables of the web server: each a game on the server, its seats (the people's and the
agents'), the links that hold them, its log, undo, saves and loads — and what each link may
see of it.

As in boardgame.io (its ``playerView``), the game runs here and a client only ever receives
a view: the presentation layer's view for the seat its link holds
(``envs.core.present.view``), with the log lines that seat may read; every other seat's
secrets are stripped on the server before anything is sent.  A table hands out one link per
human seat (its credentials), or one for all of them in hot-seat mode, and one for a
watcher, who sees only what is public unless the table is an open practice table.  A view
also says what the others did since its seat last moved (``recent``): the public pieces those
moves touched (``Presenter.touched``) and their log lines, for the page to highlight.

Nothing to peek at: the seed is drawn here from ``secrets`` and shown only when the game ends
(or at a practice table given its seed); undo never goes back past a random event or a
hidden reveal (``step_reveals``); saves live in the table's own folder and load only where
undo could have gone (practice tables aside).  Every request is checked before anything
changes, so a bad one (``TableError``, with the HTTP status to answer) leaves the table as
it was.  No web framework here: ``app`` maps HTTP onto these calls.
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

import numpy as np

from meeplezoo import envs
from meeplezoo.envs.core.errors import (
    ConfigError,
    CorruptStateError,
    IllegalActionError,
    MeepleZooError,
)
from meeplezoo.envs.core.game import Game, GameState, state_from_saved
from meeplezoo.envs.core.present import LogLine, Presenter, view
from meeplezoo.training.agents.bots import LEVELS, split_level
from meeplezoo.training.agents.opponents import CheckpointError
from meeplezoo.training.agents.seating import make_opponent
from meeplezoo.training.agents.zoo import agent_offers, counts_text, zoo_entry, zoo_root

HUMAN = "human"
LOG_SHOWN = 400  # the last lines of the log a view carries
MAX_STEPS = 5000  # bot moves one step request may run (a whole game is at most a few thousand)
# ``fullmatch``, never ``match`` with ``$``: ``$`` also matches before a final newline
SAVE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
SEED_HIGH = 2**53 - 1  # a seed a browser's JavaScript number holds exactly (53 bits)
MAX_SPEC = 200  # characters of one seat's agent spec
REDEALS = 8  # re-deals of a seat's unseen information per step when looking for a reveal


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


def flag(body: dict[str, Any], key: str) -> bool:
    """``body[key]`` as a JSON boolean (absent: false), or a 400 naming the field."""
    value = body.get(key, False)
    if not isinstance(value, bool):
        raise TableError(400, f"field {key!r} must be true or false, got {value!r}")
    return value


def seat_number(text: str | None, players: int) -> int | None:
    """A seat number given as query text (``?seat=2``): ASCII digits only, never ``int()`` of
    whatever was sent (``int('²')`` and ``int('--1')`` raise, and ``int`` of 5,000 digits
    refuses too); None when absent."""
    if text is None:
        return None
    if not re.fullmatch(r"[0-9]{1,3}", text) or int(text) >= players:
        raise TableError(400, f"seat {text[:20]!r} must be a seat number 0..{players - 1}")
    return int(text)


def agents_url(env: str, players: int) -> str:
    """Where the lobby asks which agents can play ``env`` at ``players`` players."""
    return f"/api/agents?env={env}&players={players}"


def is_path(base: Any) -> bool:
    """Whether an agent spec names a folder on this machine (a checkpoint given by path);
    text no path can be (a NUL byte, too long a name) is not one."""
    try:
        return isinstance(base, str) and Path(base).exists()
    except (OSError, ValueError):
        return False


def check_agent(seat: int, spec: str, game: Game, custom: bool = True) -> None:
    """Refuse a shipped agent (a zoo name, at a level or not) that cannot play this table:
    another game's, or one whose card does not play this player count (a 400 naming the
    counts it plays, before anything is loaded).  Without ``custom`` (a server others can
    reach) only the agents the lobby offers are taken: a Python agent would import any
    module of this machine by name, and a folder given by path reads this machine's disk.
    Other specs are left to ``make_opponent``, whose refusals ``create`` reports."""
    if len(spec) > MAX_SPEC or not spec.isprintable():
        raise TableError(400, f"seat {seat}: an agent spec is at most {MAX_SPEC} printable "
                         "characters")
    try:
        base, level = split_level(spec)
    except ConfigError as exc:
        raise TableError(400, f"seat {seat}: an agent cannot play: {exc}") from None
    n = game.num_players
    if not custom:
        offered = {offer.spec for offer in agent_offers(game.name, n, LEVELS)}
        if spec not in offered and not (level and base in offered):
            raise TableError(400, f"seat {seat}: this server takes only the agents it offers "
                             f"(a Python agent or a folder path needs `meeplezoo serve "
                             f"--allow-custom-agents`); the agents for this table: "
                             f"{agents_url(game.name, n)}")
    if is_path(base):  # a folder given by path: its own card is checked when loaded
        return
    try:
        entry = zoo_entry(base)
    except CheckpointError as exc:
        raise TableError(400, f"seat {seat}: an agent cannot play: {exc}") from None
    if entry is None:
        return
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


# -- what a step may have shown -----------------------------------------------------------
def rng_print(state: GameState) -> Any:
    """The engine's random generator as it stands (the ``rng`` of ``to_dict``), or None for
    a game that keeps none where it can be read (every step then counts as a draw)."""
    rng = getattr(state, "rng", None)
    if isinstance(rng, np.random.Generator):
        return json.dumps(rng.bit_generator.state, sort_keys=True, default=str)
    saved = state.to_dict().get("state")
    if isinstance(saved, dict) and "rng" in saved:
        return json.dumps(saved["rng"], sort_keys=True, default=str)
    return None


def step_reveals(before: GameState, action: int, after: GameState, seats: frozenset[int],
                 rng: np.random.Generator, redeals: int = REDEALS) -> str | None:
    """Why the step ``before`` -> ``after`` (``action`` played) must stop undo, or None.

    Undo returns to a saved position, random generator included, so a person who undoes
    after learning something new could choose again knowing it.  A step teaches something
    new in two ways, and this looks for both, the same way in every game:

    - **a random event**: the engine's generator moved (``rng_print`` before and after
      differ): dice, a shuffle, a draw from a bag (Necropolis's and Asian Delivery's draws,
      Hegemony's votes).  It counts whoever may see the result, since the generator's next
      draws would repeat after an undo;
    - **a hidden reveal**: some seat of ``seats`` (the people's) sees, after the step,
      something that what it could see before did not determine: the top of a deck dealt
      from a deck shuffled at set-up (地方創生's row, Hegemony's cards), a card an opponent
      plays from its hand.  Found by re-dealing what the seat cannot see
      (``resample_hidden``, the no-leak tests' tool) and replaying the action: if the action
      is not legal in a re-deal, or the seat's observation after it differs, the step showed
      the seat something hidden.  The observation is the engine's definition of what a seat
      knows (the conformance kit checks that a re-deal never changes it); the presenter's
      view carries the same information but lists some pieces in set order, which can differ
      between positions a seat cannot tell apart.  ``redeals`` re-deals are tried, so a reveal
      from a pool of two unseen cards is missed with chance 2**-redeals.

    An agent's choice itself (which public card it took) is not a reveal: it is what undo
    takes back with the person's move.
    """
    old, new = rng_print(before), rng_print(after)
    if old is None or old != new:
        return "a random event"
    if not getattr(before.game, "hidden_information", True):
        return None
    for seat in sorted(seats):
        seen = after.observation(seat)
        for _ in range(redeals):
            other = before.resample_hidden(seat, rng)
            mask = other.legal_mask()
            if not (action < len(mask) and mask[action]):
                return "a hidden reveal"
            other.apply(action)
            if not np.array_equal(other.observation(seat), seen):
                return "a hidden reveal"
    return None


def canonical(shown: dict[str, Any]) -> dict[str, Any]:
    """``shown`` with each grid section's pieces in board order (row, column, id).  A grid is
    laid out by the pieces' coordinates, so the order carries nothing, but a presenter may
    list them in a set's order (地方創生's free cells), which depends on the server's history
    of that set rather than on the position: two positions a seat cannot tell apart would
    then send different views."""
    for section in shown["sections"]:
        if section.get("layout") == "grid":
            section["pieces"].sort(key=lambda p: (p.get("y") or 0, p.get("x") or 0,
                                                  str(p.get("id"))))
    return shown


@dataclass
class Holder:
    """One link of a table: the seats its credentials hold (none: the watcher's).  In
    hot-seat mode one link holds several seats and shows one at a time: ``shown`` is the
    seat whose hand the screen may show now (changed only by ``Table.pass_screen``)."""

    credentials: str
    seats: frozenset[int]
    shown: int | None = None

    @property
    def kind(self) -> str:
        return "watcher" if not self.seats else "seat" if len(self.seats) == 1 else "hotseat"


@dataclass
class Decision:
    """A person's decision, as undo needs it: the position before it, the log's and the
    moves' lengths then, and the seat that decided."""

    state: GameState
    log_length: int
    seat: int
    moves: int = 0


@dataclass(frozen=True)
class Move:
    """One step played at the table, as the highlights need it: who moved (None: a saved game
    was loaded, before which nothing counts as recent), where its log lines are
    (``log[log_start:log_end]``), and the public pieces it touched (``Presenter.touched``)."""

    seat: int | None
    log_start: int
    log_end: int
    touched: tuple[str, ...] = ()


@dataclass
class Table:
    """One game at one table.  Every public method holds the table's lock."""

    id: str
    game: Game
    presenter: Presenter
    seats: list[str]  # per seat: HUMAN or the agent spec that plays it
    bots: dict[int, Any]
    state: GameState
    seed: int
    holders: list[Holder]
    practice: bool = False  # undo and load freely; the seed may be chosen
    seed_chosen: bool = False
    open: bool = False  # practice only: the watcher sees every seat
    hotseat: bool = False
    log: list[LogLine] = field(default_factory=list)
    history: list[Decision] = field(default_factory=list)  # since the last stop
    moves: list[Move] = field(default_factory=list)  # every step, for the highlights
    undo_stop: str = ""  # what stopped undo last (a random event, a hidden reveal)
    version: int = 0
    redeal: np.random.Generator = field(
        default_factory=lambda: np.random.default_rng(secrets.randbits(128)), repr=False)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def human_seats(self) -> frozenset[int]:
        return frozenset(s for s, who in enumerate(self.seats) if who == HUMAN)

    def holder(self, credentials: str | None) -> Holder | None:
        """The link whose credentials these are (compared in constant time, every one)."""
        found = None
        for holder in self.holders:
            if credentials and secrets.compare_digest(credentials.encode(),
                                                      holder.credentials.encode()):
                found = holder
        return found

    def seat_name(self, seat: int) -> str:
        return self.presenter.seat_name(self.game, seat)

    def seed_shown(self) -> bool:
        """The seed is the whole deal: shown once the game is over, or at a practice table
        whose seed was chosen (its person knows it anyway)."""
        return self.state.is_terminal() or (self.practice and self.seed_chosen)

    # -- what a client sees ------------------------------------------------------------
    def active_seat(self, holder: Holder) -> int | None:
        """The seat a link shows now: its seat to move, else the one it showed last."""
        if not holder.seats:
            return None
        mover = -1 if self.state.is_terminal() else self.state.current_player()
        if mover in holder.seats:
            return mover
        return holder.shown if holder.shown in holder.seats else min(holder.seats)

    def view(self, holder: Holder, seat: int | None = None) -> dict[str, Any]:
        """What ``holder`` may see: its seat's view (``seat``, one of its seats, if given);
        a hot-seat link shows the seat whose turn it is, after the screen has been passed to
        it (until then the public view and ``pass_to``); a watcher the public view (every
        seat at an open practice table), without choices."""
        with self.lock:
            pass_to = None
            if seat is not None:
                if seat not in holder.seats:
                    raise TableError(403, f"seat {seat} is not yours: your link holds "
                                     f"{sorted(holder.seats) or 'no seat (a watcher)'}")
                viewers = frozenset({seat})
            elif not holder.seats:
                viewers = frozenset(range(self.game.num_players)) if self.open else frozenset()
            else:
                seat = self.active_seat(holder)
                if holder.kind == "hotseat" and seat != holder.shown:
                    pass_to = {"seat": seat, "name": self.seat_name(seat)}
                    viewers = frozenset()
                else:
                    viewers = frozenset({seat})
            shown = canonical(view(self.presenter, self.state, viewers))
            if not holder.seats or pass_to:
                shown["prompt"], shown["choices"] = "", []
            mover = shown["to_move"]
            shown["table"] = {
                "id": self.id, "env": self.game.name, "config": self.game.config_dict(),
                "version": self.version, "human_seats": sorted(self.human_seats),
                "your_seats": sorted(holder.seats), "viewer": None if pass_to else seat,
                "link": holder.kind, "watch": not holder.seats, "pass_to": pass_to,
                "practice": self.practice, "open": self.open, "hotseat": self.hotseat,
                "seed": self.seed if self.seed_shown() else None,
                "can_undo": self.may_undo(holder) is None,
                "undo_stop": self.undo_stop,
                "bot_to_move": mover >= 0 and mover not in self.human_seats,
                "players": [{"seat": s, "name": self.seat_name(s),
                             "who": "you" if s in holder.seats else
                             "another person" if who == HUMAN else who}
                            for s, who in enumerate(self.seats)],
            }
            seen = [k for k, line in enumerate(self.log) if line.visible_to(viewers)]
            seen = seen[-LOG_SHOWN:]
            shown["log"] = [self.log[k].text for k in seen]
            shown["recent"] = self.recent(shown, seen, seat, holder)
            return shown

    def recent(self, shown: dict[str, Any], seen: list[int], seat: int | None,
               holder: Holder) -> dict[str, Any]:
        """What the others did since the viewing seat last moved, for the page to highlight:
        ``pieces``, the ids of the pieces those moves touched that this view shows, and
        ``log``, ``[start, end)``: where those moves' lines are in the view's log (``seen``,
        the indexes in ``self.log`` of the lines it shows).  A watcher's recent moves are
        those since a person last moved (at a table of agents only, the last move).

        Nothing here is hidden from the viewer: a move's pieces are public ones
        (``Presenter.touched`` reads the public view), kept only where the view shows them,
        and its log lines are among those the view shows."""
        stop = frozenset({seat}) if seat is not None and holder.seats else self.human_seats
        since: list[Move] = []
        for move in reversed(self.moves):
            if move.seat is None or move.seat in stop:
                break
            since.append(move)
            if not stop:  # nobody's last move to count from: the last move alone
                break
        if not since:
            return {"pieces": [], "log": [0, 0]}
        on_view = {piece["id"] for section in shown["sections"] for piece in section["pieces"]}
        pieces = sorted({pid for move in since for pid in move.touched} & on_view)
        lines = [i for i, k in enumerate(seen) if since[-1].log_start <= k < since[0].log_end]
        return {"pieces": pieces, "log": [lines[0], lines[-1] + 1] if lines else [0, 0]}

    def pass_screen(self, holder: Holder, body: dict[str, Any]) -> None:
        """Hot-seat: the screen has been passed to ``{"seat"}``, whose turn it is; its hand
        may be shown now."""
        seat = integer(body, "seat", low=0, high=self.game.num_players - 1)
        with self.lock:
            if holder.kind != "hotseat":
                raise TableError(409, "only a hot-seat link passes the screen between seats")
            if seat not in holder.seats:
                raise TableError(403, f"seat {seat} is not yours: your link holds "
                                 f"{sorted(holder.seats)}")
            active = self.active_seat(holder)
            if seat != active:
                raise TableError(409, f"the screen goes to {self.seat_name(active)} (seat "
                                 f"{active}), not to seat {seat}")
            holder.shown = seat

    # -- moves ---------------------------------------------------------------------------
    def act(self, holder: Holder, body: dict[str, Any]) -> None:
        """A person's move: ``{"seat", "action", "version"}``, checked before it is played;
        only for a seat the link holds."""
        seat = integer(body, "seat", low=0, high=self.game.num_players - 1)
        action = integer(body, "action", low=0)
        version = integer(body, "version", default=self.version)
        with self.lock:
            self.check_version(version)
            if seat not in self.human_seats:
                raise TableError(403, f"seat {seat} is played by {self.seats[seat]}, not by "
                                 f"you; your seats: {sorted(holder.seats) or 'none'}")
            if seat not in holder.seats:
                raise TableError(403, f"seat {seat} is another person's: your link holds "
                                 f"{sorted(holder.seats) or 'no seat (a watcher)'}")
            if self.state.is_terminal():
                raise TableError(409, "the game is over: start a new table")
            mover = self.state.current_player()
            if mover != seat:
                raise TableError(409, f"it is seat {mover}'s turn, not seat {seat}'s")
            if holder.kind == "hotseat" and holder.shown != seat:
                raise TableError(409, f"pass the screen to {self.seat_name(seat)} first "
                                 "(POST .../pass)")
            if not (action < len(self.state.legal_mask()) and self.state.legal_mask()[action]):
                legal = ", ".join(f"{a} ({self.presenter.label(self.state, a)})"
                                  for a in self.state.legal_actions()[:12])
                raise TableError(400, f"action {action} is not legal now; legal: {legal}")
            self.history.append(Decision(self.state.clone(), len(self.log), seat,
                                         len(self.moves)))
            self.play(action)

    def step(self, body: dict[str, Any]) -> int:
        """Let the agents move, up to ``moves`` of them, until a person's seat is to move
        or the game ends; returns how many moved.  Any link of the table may ask."""
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
                raise TableError(409, f"seat {self.state.current_player()} is a person's to "
                                 "move: an agent step needs an agent to move")
            return done

    def bot_to_move(self) -> bool:
        return not self.state.is_terminal() and \
            self.state.current_player() not in self.human_seats

    def play(self, action: int) -> None:
        """Play ``action`` for whoever is to move; unless the table is a practice table, a
        step that drew or revealed something (``step_reveals``) clears what undo may take
        back, so nobody at the table can choose again knowing it."""
        before = self.state.clone()
        try:
            self.state.apply(int(action))
        except IllegalActionError as exc:  # an agent's bad move: the table stays as it was
            self.state = before
            raise TableError(500, f"the agent of seat {before.current_player()} "
                             f"({self.seats[before.current_player()]}) played an illegal "
                             f"move: {exc}") from None
        start = len(self.log)
        self.log += self.presenter.narrate(before, int(action), self.state)
        self.moves.append(Move(before.current_player(), start, len(self.log), tuple(
            self.presenter.touched(before, int(action), self.state))))
        self.version += 1
        if self.history and not self.practice:  # nothing to stop when nothing can be undone
            stop = step_reveals(before, int(action), self.state, self.human_seats,
                                self.redeal)
            if stop:
                self.history.clear()
                self.undo_stop = stop

    def check_version(self, version: int) -> None:
        if version != self.version:
            raise TableError(409, f"the table has moved on (version {self.version}, you sent "
                             f"{version}): reload the view and choose again")

    def may_undo(self, holder: Holder) -> TableError | None:
        """Why ``holder`` may not undo now, as the refusal to answer (None: it may): a 403
        for a decision that is not the link's, a 409 when there is nothing to take back."""
        if not holder.seats:
            return TableError(403, "a watcher's link cannot undo")
        if not self.history:
            if self.undo_stop and not self.practice:
                return TableError(409, f"nothing to undo: undo stops at the last random event "
                                  f"or hidden reveal (there was {self.undo_stop} since the "
                                  "last decision it could take back); a practice table "
                                  "undoes past them")
            return TableError(409, "nothing to undo: no decision of yours since the game "
                              "began")
        last = self.history[-1].seat
        if last not in holder.seats:
            return TableError(403, f"the last decision at this table was "
                              f"{self.seat_name(last)}'s (seat {last}): only that seat's "
                              "link can take it back")
        return None

    def undo(self, holder: Holder, body: dict[str, Any]) -> None:
        """Back to the link's previous decision (the agents' moves since are undone too), up
        to the last random event or hidden reveal (practice tables: any decision)."""
        version = integer(body, "version", default=self.version)
        with self.lock:
            self.check_version(version)
            refusal = self.may_undo(holder)
            if refusal:
                raise refusal
            last = self.history.pop()
            self.state = last.state
            del self.moves[last.moves:]
            self.log = [*self.log[:last.log_length],
                        LogLine(f"(undone: back to {self.seat_name(last.seat)}'s previous "
                                "decision)")]
            self.version += 1

    # -- saves ---------------------------------------------------------------------------
    def saved(self) -> dict[str, Any]:
        with self.lock:
            return self.state.to_dict()

    def load(self, holder: Holder, data: Any) -> None:
        """Replace the game by a saved one of the same configuration.

        A practice table loads any valid save (undo returns to the game before it).  Any
        other table loads only a position undo could return to by this link (its position
        now, or one before the link's own decisions since the last random event or hidden
        reveal), so a save is never a way back past a draw.  A damaged or foreign save is a
        400 saying why."""
        if not holder.seats:
            raise TableError(403, "a watcher's link cannot load a game")
        try:
            loaded = state_from_saved(type(self.game), data)
        except CorruptStateError as exc:
            raise TableError(400, f"not a valid save: {exc}") from None
        except (ValueError, TypeError, KeyError, IndexError, AttributeError, OverflowError,
                RecursionError) as exc:  # a shape the schema let through and the rebuild not
            raise TableError(400, f"not a valid save: {type(exc).__name__}: {exc}") from None
        if loaded.game.config_dict() != self.game.config_dict():
            raise TableError(400, f"the save is a game of {loaded.game.config_dict()}; this "
                             f"table plays {self.game.config_dict()}")
        with self.lock:
            if self.practice:
                self.history.append(Decision(self.state, len(self.log), min(holder.seats),
                                             len(self.moves)))
                self.state = loaded
                self.moves.append(Move(None, len(self.log), len(self.log)))
                self.log.append(LogLine("(a saved game was loaded)"))
                self.version += 1
                return
            wanted = loaded.to_dict()
            if wanted == self.state.to_dict():
                return  # the table is where the save was made: nothing to change
            for k in range(len(self.history) - 1, -1, -1):
                if self.history[k].seat not in holder.seats:
                    break
                if self.history[k].state.to_dict() == wanted:
                    self.log = [*self.log[:self.history[k].log_length],
                                LogLine("(a saved game was loaded: back to where it was "
                                        "saved)")]
                    self.state = loaded
                    del self.moves[self.history[k].moves:]
                    del self.history[k:]
                    self.version += 1
                    return
            raise TableError(403, "this is not a practice table: a save loads here only at "
                             "the position it was saved, while undo could still return "
                             "there (never past a random event or a hidden reveal); make a "
                             "practice table to load any save")


class Tables:
    """Every table of the server, by id, and the folder saves are written to (one folder
    per table)."""

    def __init__(self, saves: str | Path, custom_agents: bool = True) -> None:
        self.saves = Path(saves)
        self.custom_agents = custom_agents  # Python agents and agent folders by path
        self.tables: dict[str, Table] = {}
        self.lock = threading.Lock()

    def create(self, body: dict[str, Any]) -> Table:
        """A new table from ``{"env", "players", "seats", "options", "practice", "seed",
        "open", "hotseat"}``: ``seats`` lists, per seat, ``human`` or an agent spec (any
        ``meeplezoo play`` opponent).  The seed is drawn here; a client chooses it only at
        a practice table."""
        name = body.get("env")
        if name not in envs.list_envs():
            raise TableError(400, f"unknown env {name!r}; envs: {', '.join(envs.list_envs())}")
        options = body.get("options", {})
        if not isinstance(options, dict):
            raise TableError(400, "field 'options' must be an object of game options")
        practice, opened, hotseat = flag(body, "practice"), flag(body, "open"), flag(
            body, "hotseat")
        if "seed" in body and not practice:
            raise TableError(400, "a table's seed is drawn by the server and shown when the "
                             "game ends (it is the whole deal); choose a seed only at a "
                             "practice table (\"practice\": true)")
        if opened and not practice:
            raise TableError(400, "an open table (the watcher sees every seat) must be a "
                             "practice table (\"practice\": true)")
        chosen = practice and "seed" in body
        seed = integer(body, "seed", low=0, high=SEED_HIGH) if chosen else \
            secrets.randbelow(SEED_HIGH + 1)
        players = body.get("players")
        if players is not None:  # its range is the game's to say (make_game's error)
            players = integer(body, "players")
        try:
            game = envs.make_game(name, **({} if players is None else {"num_players": players}),
                                  **options)
        except (MeepleZooError, TypeError, ValueError) as exc:
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
                check_agent(s, spec, game, self.custom_agents)
        humans = [s for s, spec in enumerate(seats) if spec == HUMAN]
        if hotseat and len(humans) < 2:
            raise TableError(400, "hot-seat mode passes one screen between people's seats: "
                             f"it needs 2 or more 'human' seats, not {len(humans)}")
        try:  # the agents' own seeds: from a chosen seed, else as secret as the deal's
            bots = {s: make_opponent(spec, game, seed + 1 + s if chosen
                                     else secrets.randbelow(2**31), s)
                    for s, spec in enumerate(seats) if spec != HUMAN}
        except (MeepleZooError, CheckpointError, ValueError, TypeError) as exc:
            raise TableError(400, f"an agent cannot play: {without_server_paths(str(exc))}"
                             ) from None
        if hotseat:
            holders = [Holder(secrets.token_urlsafe(18), frozenset(humans))]
        else:
            holders = [Holder(secrets.token_urlsafe(18), frozenset({s})) for s in humans]
        holders.append(Holder(secrets.token_urlsafe(18), frozenset()))  # the watcher
        state = game.new_initial_state(seed)
        for holder in holders:
            holder.shown = min(holder.seats) if holder.seats else None
        table = Table(secrets.token_hex(8), game, envs.presenter(name), seats, bots, state,
                      seed, holders, practice=practice, seed_chosen=chosen, open=opened,
                      hotseat=hotseat)
        for holder in holders:  # the screen starts with the seat that moves first
            if holder.kind == "hotseat":
                holder.shown = table.active_seat(holder)
        with self.lock:
            self.tables[table.id] = table
        return table

    def get(self, table_id: str, credentials: str | None) -> tuple[Table, Holder]:
        """The table and the link these credentials are, or a 404 / 403 saying which."""
        table = self.tables.get(table_id)
        if table is None:
            raise TableError(404, f"no table {table_id[:40]!r}; open tables: "
                             f"{', '.join(sorted(self.tables)) or 'none'}")
        holder = table.holder(credentials)
        if holder is None:
            raise TableError(403, f"table {table_id}: the credentials are missing or wrong "
                             "(each seat's link holds its own; ask the table's host for "
                             "yours)")
        return table, holder

    def listing(self) -> list[dict[str, Any]]:
        """What anyone may know of the open tables: id, game, who plays each seat, and
        whether it is a practice or hot-seat table."""
        return [{"id": t.id, "env": t.game.name, "seats": t.seats,
                 "over": t.state.is_terminal(), "practice": t.practice,
                 "hotseat": t.hotseat, "open": t.open}
                for t in self.tables.values()]

    # -- each table's saves folder -----------------------------------------------------
    def folder(self, table: Table) -> Path:
        return self.saves / table.id

    def save_path(self, table: Table, name: Any) -> Path:
        if not isinstance(name, str) or not SAVE_NAME.fullmatch(name) or ".." in name:
            raise TableError(400, f"save name {str(name)[:80]!r} must be 1-64 letters, "
                             "digits, '_', '-' or '.', starting with a letter or digit")
        return self.folder(table) / f"{name}.json"

    def save(self, table: Table, holder: Holder, name: Any) -> str:
        """Write the table's game into its own folder (a seat's link only)."""
        if not holder.seats:
            raise TableError(403, "a watcher's link cannot save")
        path = self.save_path(table, name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(table.saved()))
        return path.stem

    def read_save(self, table: Table, name: Any) -> Any:
        path = self.save_path(table, name)
        if not path.is_file():
            raise TableError(404, f"no save named {name!r} at this table; its saves: "
                             f"{', '.join(s['name'] for s in self.list_saves(table)) or 'none'}")
        try:
            return json.loads(path.read_text())
        except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
            raise TableError(400, f"save {name!r} is not a saved game: {exc}") from None

    def list_saves(self, table: Table) -> list[dict[str, Any]]:
        """The table's own saves: name, game and configuration."""
        folder = self.folder(table)
        out = []
        for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
            try:
                data = json.loads(path.read_text())
                out.append({"name": path.stem, "env": data.get("env"),
                            "config": data.get("config")})
            except (OSError, UnicodeDecodeError, ValueError, RecursionError, AttributeError):
                continue
        return out
