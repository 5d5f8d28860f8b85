"""The agenda: a stack of pending steps that drives a game's flow (grown from Necropolis's).

Rules with nested effects (an action opens a payment, the payment opens a free
build, a train stop asks two seats to choose) are hard to write as one state
machine.  Instead a state keeps ``agenda: list[Item]``, a stack of items
``(code, seat, arg)`` of plain ints (so a saved game stores it as a list of
triples): the top item runs next.

A game names every code once, in one table (``AgendaRules``):

- a ``Decision`` waits for its seat's action.  ``legal(state, item)`` lists the
  legal actions, ``apply(state, item, action)`` plays one (and pops the item
  when the decision is over, or leaves it to be asked again); ``finish(state,
  item)``, if given, runs when nothing is left to ask (an empty legal list).
- a ``Step`` is automatic: ``run(state, item)`` runs at once (the loop has
  already popped it) and may push more items.

``AgendaRules.run(state)`` is the one loop: it runs steps until a decision with
a real choice (two or more legal actions) is on top and returns its legal
actions (``[]`` once the agenda is empty: the game is over).  A decision with
one legal action is taken automatically, one with none is popped and finished,
so a policy only ever sees real choices.  A decision may also give ``choice(state,
item)``, a cheap test that is true only when the item surely offers two or more actions:
the loop then stops there without listing them (``run`` returns None) and the state
lists them when they are first asked for (``AgendaState.pending``), since a look-ahead
often values a position without ever reading its legal actions.
``AgendaRules.run(state, action)``
first plays ``action`` at the pending decision.  A state mixes
in ``AgendaState`` to get all of this as ``push``, ``_run``, ``_apply``,
``pending_legal``, ``current_player`` and ``is_terminal`` (its
``_agenda_over`` hook runs when the agenda runs out).

Patterns (each helper is a few lines, so read them):

- ``push(agenda, *items)``: several items run in the order given.
- compound decision (assign up to 3 workers one at a time): one item whose
  ``arg`` is the count left; its ``apply`` calls ``count_down`` to be asked
  again for the rest.  A choice that ends early (a "done" action) pops it.
- interrupt (another seat decides now): ``interrupt(agenda, code, seats)``
  puts those seats' decisions on top, in the order given; the item below,
  if it was left on the agenda, is asked again afterwards with fresh legal
  actions.

Bookkeeping hook: each code may declare ``marks=(seat_bits, table_bits)``,
what its items may change.  After an item runs, the loop ORs ``seat_bits``
into ``state._dirty[seat]`` and ``table_bits`` into ``state._tdirty`` (a game's
observation cache reads and clears them), from per-code lists built once, so
the loop pays one list lookup per item.  A handler whose effect depends on its
argument marks the extra areas itself.  A game without caches leaves marks at
``(0, 0)`` and still gives its state ``_dirty`` (one int per seat) and
``_tdirty``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from meeplezoo.envs.core.game import TERMINAL

Item = tuple[int, int, int]  # (code, seat, arg)


@dataclass(frozen=True)
class Decision:
    """A code whose items wait for the seat's action."""

    name: str
    legal: Callable[[Any, Item], list[int]]
    apply: Callable[[Any, Item, int], None]
    finish: Callable[[Any, Item], None] | None = None  # nothing left to ask: wrap up
    marks: tuple[int, int] = (0, 0)  # (seat bits, table bits) its items may change
    # true only when the item surely has two or more legal actions (None: always list them)
    choice: Callable[[Any, Item], bool] | None = None


@dataclass(frozen=True)
class Step:
    """A code whose items run at once (popped first; may push more items)."""

    name: str
    run: Callable[[Any, Item], None]
    marks: tuple[int, int] = (0, 0)


def push(agenda: list[Item], *items: Item) -> None:
    """Push ``items`` so that they run in the order given (the first runs next)."""
    if len(items) == 1:
        agenda.append(items[0])
    else:
        agenda.extend(reversed(items))


def count_down(agenda: list[Item], item: Item) -> None:
    """A compound decision took one of its ``item[2]`` parts: ask again for the rest, or pop
    it after the last.  ``item`` must still be on top."""
    if item[2] > 1:
        agenda[-1] = (item[0], item[1], item[2] - 1)
    else:
        agenda.pop()


def interrupt(agenda: list[Item], code: int, seats: Iterable[int], arg: int = 0) -> None:
    """``seats`` each decide ``code`` now, in the order given, before what is below resumes."""
    push(agenda, *[(code, seat, arg) for seat in seats])


def agenda_to_json(agenda: list[Item]) -> list[list[int]]:
    return [list(item) for item in agenda]


def agenda_from_json(data: list[list[int]]) -> list[Item]:
    """The saved triples back as items (the game's schema has checked their types)."""
    return [tuple(item) for item in data]  # type: ignore[misc]


class AgendaRules:
    """One game's table of agenda codes and the loop that runs them."""

    def __init__(self, codes: Mapping[int, Decision | Step]) -> None:
        size = max(codes) + 1 if codes else 0
        names: dict[str, int] = {}
        for code, kind in codes.items():
            if not (isinstance(code, int) and code >= 0):
                raise ValueError(f"agenda code {code!r} is not a non-negative int")
            if not isinstance(kind, (Decision, Step)):
                raise TypeError(f"agenda code {code} ({kind!r}) is neither a Decision nor a Step")
            if kind.name in names:
                raise ValueError(f"agenda codes {names[kind.name]} and {code} share the name "
                                 f"{kind.name!r}")
            names[kind.name] = code
        self.codes: dict[int, Decision | Step] = dict(codes)
        # Per-code lists, indexed by code, for the loop (None / 0 where a code is unused).
        self._legal: list[Callable | None] = [None] * size  # None: not a decision
        self._apply: list[Callable | None] = [None] * size
        self._finish: list[Callable | None] = [None] * size
        self._choice: list[Callable | None] = [None] * size
        self._step: list[Callable | None] = [None] * size
        self._seat_marks = [0] * size
        self._table_marks = [0] * size
        for code, kind in codes.items():
            if isinstance(kind, Decision):
                self._legal[code] = kind.legal
                self._apply[code] = kind.apply
                self._finish[code] = kind.finish
                self._choice[code] = kind.choice
            else:
                self._step[code] = kind.run
            self._seat_marks[code], self._table_marks[code] = kind.marks

    def is_decision(self, code: int) -> bool:
        return isinstance(self.codes.get(code), Decision)

    def name(self, code: int) -> str:
        return self.codes[code].name

    def legal(self, state: Any) -> list[int]:
        """The pending item's legal actions, computed afresh ([] for an empty agenda)."""
        if not state.agenda:
            return []
        item = state.agenda[-1]
        return self._legal[item[0]](state, item)  # type: ignore[misc]

    def run(self, state: Any, action: int | None = None) -> list[int] | None:
        """Play ``action`` (legal: the caller checked) at the pending decision if one is given,
        then run the agenda until a decision with a real choice is on top; its legal actions
        ([] when the agenda ran out; None when its ``choice`` said there is a choice without
        listing them).  One call per decision, for speed."""
        ag = state.agenda
        dirty = state._dirty
        tdirty = state._tdirty
        apply_of = self._apply
        seat_marks = self._seat_marks
        table_marks = self._table_marks
        if action is not None:
            item = ag[-1]
            code = item[0]
            apply_of[code](state, item, action)  # type: ignore[misc]
            bits = seat_marks[code]
            if bits:
                dirty[item[1]] |= bits
            tdirty |= table_marks[code] | state._tdirty
        legal_of = self._legal
        finish_of = self._finish
        run_of = self._step
        choice_of = self._choice
        while ag:
            item = ag[-1]
            code = item[0]
            legal_for = legal_of[code]
            if legal_for is not None:  # a decision
                sure = choice_of[code]
                if sure is not None and sure(state, item):
                    state._tdirty = tdirty
                    return None
                legal = legal_for(state, item)
                if len(legal) > 1:
                    state._tdirty = tdirty
                    return legal
                if legal:  # one option: take it
                    apply_of[code](state, item, legal[0])  # type: ignore[misc]
                else:  # nothing left to ask: finish it
                    ag.pop()
                    finish = finish_of[code]
                    if finish is None:
                        continue
                    finish(state, item)
            else:
                ag.pop()
                run_of[code](state, item)  # type: ignore[misc]
            bits = seat_marks[code]
            if bits:
                dirty[item[1]] |= bits
            tdirty |= table_marks[code] | state._tdirty
        state._tdirty = tdirty
        return []


class AgendaState:
    """Mixin for a ``GameState`` whose flow is its agenda: it gives the state ``push``, the run
    loop and the ``GameState`` hooks that only read the agenda.  The state sets ``agenda``,
    ``_legal`` (the pending legal actions; None while a decision's ``choice`` spared listing
    them: read them through ``pending``), ``_dirty`` and ``_tdirty``; the agenda table is the
    game's rules object's (``Game.build_rules``), read through ``agenda_rules``."""

    agenda: list[Item]
    _legal: list[int] | None
    _dirty: list[int]
    _tdirty: int

    @property
    def agenda_rules(self) -> AgendaRules:
        """The agenda table: the game's rules object's (``state.game.rules.agenda``), built
        once by the game, so a pickle or a copy of a state never carries it."""
        return self.game.rules.agenda  # type: ignore[attr-defined]

    def push(self, *items: Item) -> None:
        """Push ``items`` so that they run in the order given (the first runs next)."""
        if len(items) == 1:
            self.agenda.append(items[0])
        else:
            self.agenda.extend(reversed(items))

    def _run(self, action: int | None = None) -> None:
        """Play ``action`` if given, then run the agenda to the next real choice (or to the
        end of the game)."""
        self._legal = self.agenda_rules.run(self, action)
        if not self.agenda:
            self._agenda_over()

    def _agenda_over(self) -> None:
        """The agenda ran out: the game is over.  A game may record it (a phase, its caches)."""

    def _apply(self, action: int) -> None:
        self._run(action)

    def pending(self) -> list[int]:
        """The pending decision's legal actions, listed once per position (``_legal``)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self.agenda_rules.legal(self)
        return legal

    def pending_legal(self) -> list[int]:
        """The pending decision's legal actions, computed afresh (empty once the game is over)."""
        return self.agenda_rules.legal(self)

    def current_player(self) -> int:
        return self.agenda[-1][1] if self.agenda else TERMINAL

    def is_terminal(self) -> bool:
        return not self.agenda
