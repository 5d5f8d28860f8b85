"""Events: what the regional cards next to a placed card do (RULES.md, "Events").

Every event moves at most one token and is mandatory; one that cannot act
does nothing.  The placing player orders several pending events (the last
one resolves by itself) and chooses a cell where an event offers more than
one (a single option is taken automatically).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeplezoo.envs.chihou_sousei.actions import EVENT, FROM, TO
from meeplezoo.envs.chihou_sousei.board import NEIGHBOURS, ORIGIN
from meeplezoo.envs.chihou_sousei.data import BIG_CITY, HAS_ICON
from meeplezoo.envs.chihou_sousei.data import EVENT as CARD_EVENT
from meeplezoo.envs.chihou_sousei.decisions import (
    D_EVENT_ORDER,
    D_EVENT_SOURCE,
    D_EVENT_TARGET,
    E_FESTIVAL,
    E_GATHER,
    E_LOCAL_JOBS,
    E_NEWCOMERS,
    E_PIONEERS,
    E_RELOCATION,
    E_SPREAD,
    E_TO_THE_CITY,
    E_U_TURN,
    E_WELCOME,
    EMPTY,
    SOURCE_EVENTS,
)
from meeplezoo.envs.chihou_sousei.rounds import end_turn
from meeplezoo.envs.chihou_sousei.tokens import from_stock, move

if TYPE_CHECKING:
    from meeplezoo.envs.chihou_sousei.state import ChihouSouseiState


def event_options(state: ChihouSouseiState, cell: int) -> list[int]:
    """Cells the placing player may choose for the event of ``cell``; empty
    for choice-free events and for a choice event that cannot act."""
    p = state.player
    grid, tok = state.grid[p], state.tokens[p]
    kind = CARD_EVENT[grid[cell]]
    if kind == E_SPREAD:  # from this card to an adjacent card
        if not tok[cell]:
            return []
        return [nb for nb in NEIGHBOURS[cell] if grid[nb] != EMPTY]
    if kind == E_GATHER:  # from an adjacent card to this card
        return [nb for nb in NEIGHBOURS[cell] if grid[nb] != EMPTY and tok[nb]]
    if kind == E_FESTIVAL:  # from any other card to this card
        return [c for c in state.cells[p] if c != cell and tok[c]]
    if kind == E_LOCAL_JOBS:  # from the stock to a card showing an industry icon
        if not state.stock:
            return []
        return [c for c in state.cells[p] if grid[c] < BIG_CITY and HAS_ICON[grid[c]]]
    if kind == E_RELOCATION:  # from the big city to a regional card
        if not tok[ORIGIN]:
            return []
        return state.cells[p][1:]
    return []


def resolve_event(state: ChihouSouseiState, cell: int) -> bool:
    """Resolve the event of ``cell``; False when it waits for a choice."""
    p = state.player
    tok = state.tokens[p]
    kind = CARD_EVENT[state.grid[p][cell]]
    if kind == E_NEWCOMERS:
        if state.stock:
            from_stock(state, p, cell)
    elif kind == E_U_TURN:
        if tok[ORIGIN]:
            move(state, p, ORIGIN, cell)
    elif kind == E_TO_THE_CITY:
        if tok[cell]:
            move(state, p, cell, ORIGIN)
    elif kind == E_PIONEERS:
        if tok[cell]:
            move(state, p, cell, state.placed)
    elif kind == E_WELCOME:
        if state.stock:
            from_stock(state, p, state.placed)
    else:
        options = event_options(state, cell)
        if len(options) > 1:
            state.ev_cell = cell
            state.decision = D_EVENT_SOURCE if kind in SOURCE_EVENTS else D_EVENT_TARGET
            return False
        if options:
            state.ev_cell = cell
            if kind in SOURCE_EVENTS:
                move(state, p, options[0], cell)
            else:
                event_to(state, options[0])
            state.ev_cell = EMPTY
    return True


def event_to(state: ChihouSouseiState, target: int) -> None:
    """Resolve the target-choosing event of ``state.ev_cell`` onto ``target``."""
    p = state.player
    cell = state.ev_cell
    kind = CARD_EVENT[state.grid[p][cell]]
    if kind == E_SPREAD:
        move(state, p, cell, target)
    elif kind == E_LOCAL_JOBS:
        from_stock(state, p, target)
    else:  # relocation
        move(state, p, ORIGIN, target)


def continue_events(state: ChihouSouseiState) -> None:
    """Resolve pending events, asking for the order while two or more remain;
    the turn ends when none is left."""
    pending = state.pending
    while pending:
        if len(pending) > 1:
            state.decision = D_EVENT_ORDER
            return
        if not resolve_event(state, pending.pop()):
            return
    end_turn(state)


# -- the decisions ---------------------------------------------------------------------------
def order_options(state: ChihouSouseiState) -> list[int]:
    return [EVENT - 1 + c for c in state.pending]


def play_order(state: ChihouSouseiState, action: int) -> None:
    cell = action - EVENT + 1
    state.pending.remove(cell)
    if resolve_event(state, cell):
        continue_events(state)


def source_options(state: ChihouSouseiState) -> list[int]:
    return [FROM + c for c in event_options(state, state.ev_cell)]


def play_source(state: ChihouSouseiState, action: int) -> None:
    move(state, state.player, action - FROM, state.ev_cell)
    state.ev_cell = EMPTY
    continue_events(state)


def target_options(state: ChihouSouseiState) -> list[int]:
    return [TO + c for c in event_options(state, state.ev_cell)]


def play_target(state: ChihouSouseiState, action: int) -> None:
    event_to(state, action - TO)
    state.ev_cell = EMPTY
    continue_events(state)
