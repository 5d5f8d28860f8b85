"""Migration: placing the picked card and pulling tokens into it (RULES.md,
"2. Migration").

The card goes on an empty cell orthogonally next to one of the player's cards;
then min(power, tokens on the adjacent cards) tokens move onto it, the player
choosing the source token by token, except when there is no real choice (one
source card, or every available token must move).  The events of the
adjacent regional cards follow (``events``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeplezoo.envs.chihou_sousei.actions import FROM, PLACE
from meeplezoo.envs.chihou_sousei.board import NEIGHBOURS
from meeplezoo.envs.chihou_sousei.caches import card_placed
from meeplezoo.envs.chihou_sousei.data import BIG_CITY, POWER
from meeplezoo.envs.chihou_sousei.decisions import D_MIGRATE, EMPTY
from meeplezoo.envs.chihou_sousei.events import continue_events
from meeplezoo.envs.chihou_sousei.tokens import move

if TYPE_CHECKING:
    from meeplezoo.envs.chihou_sousei.state import ChihouSouseiState


def place_options(state: ChihouSouseiState) -> list[int]:
    """Every empty cell next to one of the player's cards (the kept frontier)."""
    return [PLACE - 1 + c for c in state.frontier[state.player]]


def play_place(state: ChihouSouseiState, action: int) -> None:
    cell = action - PLACE + 1
    p = state.player
    card = state.picked[p]
    state.picked[p] = EMPTY
    grid = state.grid[p]
    grid[cell] = card
    state.cells[p].append(cell)
    card_placed(state, p, cell, card)
    state.placed = cell
    tok = state.tokens[p]
    available = sum(tok[nb] for nb in NEIGHBOURS[cell] if grid[nb] != EMPTY)
    state.need = min(POWER[card], available)
    continue_migration(state)


def migrate_options(state: ChihouSouseiState) -> list[int]:
    """The placed card's neighbours that still hold a token."""
    grid, tok = state.grid[state.player], state.tokens[state.player]
    return [FROM + nb for nb in NEIGHBOURS[state.placed] if grid[nb] != EMPTY and tok[nb]]


def play_migrate(state: ChihouSouseiState, action: int) -> None:
    move(state, state.player, action - FROM, state.placed)
    state.need -= 1
    continue_migration(state)


def continue_migration(state: ChihouSouseiState) -> None:
    """Pull the tokens still needed, asking only while there is a choice;
    then queue the events of the placed card's regional neighbours."""
    p = state.player
    placed = state.placed
    grid, tok = state.grid[p], state.tokens[p]
    while state.need > 0:
        sources = [nb for nb in NEIGHBOURS[placed] if grid[nb] != EMPTY and tok[nb] > 0]
        if len(sources) == 1:
            move(state, p, sources[0], placed, state.need)
        elif sum(tok[c] for c in sources) <= state.need:
            for c in sources:
                move(state, p, c, placed, tok[c])
        else:
            state.decision = D_MIGRATE
            return
        state.need = 0
    state.pending = [nb for nb in NEIGHBOURS[placed] if 0 <= grid[nb] < BIG_CITY]
    continue_events(state)
