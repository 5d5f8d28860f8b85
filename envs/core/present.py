"""The presentation layer's shared shapes: a position as a person reads it.

A game's ``present`` module (beside its ``render``) subclasses ``Presenter``: every decision
as a prompt in words, every action with a readable label, every card and company with its
text and icons (``Piece``, grouped in ``Section``s), and a log of what happened and why
(``LogLine``), and per move the public pieces it touched (``Presenter.touched``: the web table
highlights the others' moves on the board).  The terminal (``meeplezoo play``) and the web
table (``meeplezoo serve``) both read it, so they say the same things.

Hidden information: ``sections(state, viewers)`` may show a seat's secrets (its hand, its
bid) only when that seat is among ``viewers``; ``view`` puts the prompt and the choices in
only for a viewer who is to move; a log line names the seats that may read it
(``seen_by``; None: everyone).  The tests check that a view does not change when what its
viewers cannot see is re-dealt (``GameState.resample_hidden``).

This base class is the plain fallback for a game without its own module: the action names
as labels, the decision kind as the prompt and the text render as the board.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from meeplezoo.envs.core.game import Game, GameState


@dataclass
class Piece:
    """One thing on the table: a card, a company, a cell, a player's board.

    ``id`` is unique in a view: a choice that acts on the piece names it as its target, so
    the web table highlights the piece and plays the choice when it is clicked.  ``detail``
    is the full text (shown on hover or tap); ``badges`` are short icons (an industry, a
    disc); ``tags`` are style hints (a colour, ``empty``, ``mine``); ``x``/``y``/``w`` place
    it in a ``grid`` section.
    """

    id: str
    title: str
    lines: list[str] = field(default_factory=list)
    detail: str = ""
    badges: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    x: int | None = None
    y: int | None = None
    w: int = 1


@dataclass
class Section:
    """A group of pieces: ``row`` (side by side), ``grid`` (by ``x``/``y``) or ``list``.
    ``terminal``: the text render lacks it, so terminal play prints it too (with each
    piece's detail under it unless ``details`` is off)."""

    id: str
    title: str
    pieces: list[Piece] = field(default_factory=list)
    layout: str = "row"
    note: str = ""
    terminal: bool = False
    details: bool = True


@dataclass(frozen=True)
class LogLine:
    """One line of the game log; ``seen_by`` the seats that may read it (None: all), and
    ``not_for`` the seats that read another line in its place (a secret move's own seat
    reads what it did; a watcher holding no seat reads the public line)."""

    text: str
    seen_by: frozenset[int] | None = None
    not_for: frozenset[int] = frozenset()

    def visible_to(self, viewers: frozenset[int]) -> bool:
        if self.seen_by is not None:
            return bool(self.seen_by & viewers)
        return not self.not_for & viewers


class Presenter:
    """How a game reads to a person.  Games override what their names do not say."""

    rules: list[str] = []  # the game in a few lines, for a newcomer (the web's "How to play")

    # -- seats and decisions ----------------------------------------------------------
    def seat_name(self, game: Game, seat: int) -> str:
        """What a seat is called at the table (``seat 2``, ``Tokyo``, ``Working Class``)."""
        role = game.seat_role(seat)
        return f"seat {seat}" + (f" ({role})" if len(game.roles) > 1 else "")

    def prompt(self, state: GameState) -> str:
        """The pending decision in words, addressed to the player to move."""
        return f"Decide: {state.decision_name().replace('_', ' ')}"

    def label(self, state: GameState, action: int) -> str:
        """A legal action of the player to move, in words (before it is played)."""
        return self.name(state, action)

    def group(self, state: GameState, action: int) -> str:
        """The heading a choice is listed under (the catalogue block by default)."""
        return self.name(state, action).split(":")[0].split("@")[0]

    def target(self, state: GameState, action: int) -> str | None:
        """The id of the piece the action acts on (clicking it plays the action)."""
        return None

    def secret(self, state: GameState, action: int) -> bool:
        """Whether the other seats may not learn the action (a sealed bid)."""
        return False

    # -- the table ----------------------------------------------------------------
    def status(self, state: GameState) -> str:
        """One line: the round, the phase, who is to move."""
        if state.is_terminal():
            return "The game is over."
        return f"{self.seat_name(state.game, state.current_player())} to move"

    def sections(self, state: GameState, viewers: frozenset[int]) -> list[Section]:
        """The board; a seat's secrets only for ``viewers`` (a plain text board here)."""
        text = state.render_for(min(viewers)) if len(viewers) == 1 else state.render()
        return [Section("board", "Board", [Piece("board", "", text.splitlines())], "list")]

    def summary(self, state: GameState, seat: int) -> list[str]:
        """Short public lines about a seat for its score panel (money, hand size, ...)."""
        return []

    # -- the log ------------------------------------------------------------------
    def narrate(self, before: GameState, action: int, after: GameState) -> list[LogLine]:
        """What ``action`` did, from ``before`` to ``after``: the move, then what followed
        and why.  The first line is the move, hidden from the others when it is secret."""
        seat = before.current_player()
        who = self.seat_name(before.game, seat)
        text = f"{who}: {self.label(before, action)}"
        if not self.secret(before, action):
            return [LogLine(text)]
        return [LogLine(text, frozenset({seat})),
                LogLine(f"{who}: {self.hidden_move(before, action)}", not_for=frozenset({seat}))]

    def hidden_move(self, state: GameState, action: int) -> str:
        """How a secret move reads to the seats that may not see it."""
        return "makes a secret choice"

    # -- what a move touched ------------------------------------------------------------
    def touched(self, before: GameState, action: int, after: GameState) -> list[str]:
        """The ids of the pieces ``action`` touched, from ``before`` to ``after``, for the
        web table to highlight where an agent's (or another person's) move happened.

        Only what everyone may see: the pieces of the public view (``sections`` with no
        viewer) that appeared or changed, and the action's target when the move is not
        secret and the target is a public piece.  A piece a seat alone sees (a card in a
        hand) is never named, so a highlight tells nobody more than the public board does.
        An empty space that appears (``empty``: 地方創生's free cells, shown to a seat about
        to place) is where the next move may go, not where this one went.  A game whose
        public view misses where a move happened overrides this.
        """
        old = piece_prints(self.sections(before, frozenset()))
        shown = self.sections(after, frozenset())
        new = piece_prints(shown)
        spaces = {piece.id for section in shown for piece in section.pieces
                  if "empty" in piece.tags}
        out = [pid for pid, now in new.items()
               if old.get(pid) != now and (pid in old or pid not in spaces)]
        target = None if self.secret(before, action) else self.target(before, action)
        if target is not None and target not in out and (target in new or target in old):
            out.append(target)
        return out

    # -- helpers ----------------------------------------------------------------
    @staticmethod
    def name(state: GameState, action: int) -> str:
        game = state.game
        return game.action_name(action, game.seat_role(state.current_player()))


def choices(presenter: Presenter, state: GameState) -> list[dict[str, Any]]:
    """The legal actions of the player to move, each with its label, group and target."""
    return [{"action": a, "name": presenter.name(state, a), "label": presenter.label(state, a),
             "group": presenter.group(state, a), "target": presenter.target(state, a)}
            for a in state.legal_actions()]


def places(state: GameState) -> list[str]:
    """1-based places from ``rank_keys``, ties marked ``=`` (two firsts are ``1=``)."""
    keys = state.rank_keys()
    out = []
    for key in keys:
        place = 1 + sum(other > key for other in keys)
        tied = sum(other == key for other in keys) > 1
        out.append(f"{place}{'=' if tied else ''}")
    return out


def seats(presenter: Presenter, state: GameState) -> list[dict[str, Any]]:
    """Every seat's public panel: its name, score and breakdown, and the summary lines."""
    game = state.game
    scores = state.scores()
    breakdown = state.score_breakdown()
    ranked = places(state) if state.is_terminal() else [""] * game.num_players
    return [{"seat": s, "name": presenter.seat_name(game, s), "role": game.seat_role(s),
             "score": scores[s], "breakdown": {k: v for k, v in breakdown[s].items()
                                                if k != "total"},
             "place": ranked[s], "summary": presenter.summary(state, s),
             "to_move": not state.is_terminal() and state.current_player() == s}
            for s in range(game.num_players)]


def view(presenter: Presenter, state: GameState, viewers: frozenset[int]) -> dict[str, Any]:
    """Everything ``viewers`` may see of ``state``, JSON-safe: the board, the seats, and
    the prompt and choices when one of them is to move."""
    over = state.is_terminal()
    player = -1 if over else state.current_player()
    mine = player in viewers
    return {
        "env": state.game.name,
        "title": getattr(state.game, "title", "") or state.game.name,
        "status": presenter.status(state),
        "over": over,
        "to_move": player,
        "sections": [asdict(s) for s in presenter.sections(state, viewers)],
        "seats": seats(presenter, state),
        "rules": presenter.rules,
        "prompt": presenter.prompt(state) if mine else "",
        "choices": choices(presenter, state) if mine else [],
    }


def piece_prints(sections: list[Section]) -> dict[str, tuple[Any, ...]]:
    """Each piece's id and what it shows (its text, icons, style and place): two positions'
    prints differ for a piece exactly where a person would see it change."""
    return {piece.id: (piece.title, tuple(piece.lines), piece.detail, tuple(piece.badges),
                       tuple(piece.tags), piece.x, piece.y, piece.w)
            for section in sections for piece in section.pieces}


def sections_text(sections: list[Section]) -> list[str]:
    """The sections the text render lacks (``terminal``), as lines for the terminal."""
    lines: list[str] = []
    for section in sections:
        if not section.terminal:
            continue
        lines.append(f"{section.title}:" + (f" {section.note}" if section.note else ""))
        for piece in section.pieces:
            head = f"  {piece.title}"
            text = "; ".join([*piece.lines, *(f"[{b}]" for b in piece.badges)])
            lines.append(f"{head}: {text}" if text else head)
            if section.details and piece.detail and piece.detail not in piece.lines:
                lines.append(f"      {piece.detail}")
    return lines
