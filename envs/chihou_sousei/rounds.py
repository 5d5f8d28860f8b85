"""The flow of a round (RULES.md, "A round" and "3. Round end").

A round draws a row of players+1 cards, lets everyone pick (``planning``),
then lets everyone place and migrate in turn from the start player
(``migration``, ``events``).  The player who took the rightmost row card holds
the start marker and starts the next round; if nobody took it the start
passes to the left (seat + 1).  The game ends after the 8th round.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeplezoo.envs.chihou_sousei.board import ROUNDS
from meeplezoo.envs.chihou_sousei.caches import planning_ended, round_ended, row_drawn
from meeplezoo.envs.chihou_sousei.decisions import D_OVER, D_PICK, D_PLACE, EMPTY
from meeplezoo.envs.core.game import TERMINAL

if TYPE_CHECKING:
    from meeplezoo.envs.chihou_sousei.state import ChihouSouseiState


def start_round(state: ChihouSouseiState) -> None:
    """Draw the row; the start player picks first."""
    k = state.n + 1
    state.row = state.deck[:k]
    state.deck = state.deck[k:]
    state.taken = [EMPTY] * k
    row_drawn(state)
    state.pick_index = 0
    state.player = state.start
    state.decision = D_PICK


def end_planning(state: ChihouSouseiState) -> None:
    """Everyone has picked: the row's leftover card is discarded, the taker
    of the rightmost card holds the marker, and the start player places first."""
    for i, t in enumerate(state.taken):
        if t < 0:
            state.discard.append(state.row[i])
    state.marker = state.taken[state.n]
    planning_ended(state)
    state.row = []
    state.taken = []
    state.mig_index = 0
    state.player = state.start
    state.decision = D_PLACE


def end_turn(state: ChihouSouseiState) -> None:
    """The placing player's turn is over (migration and events resolved)."""
    state.placed = EMPTY
    state.need = 0
    state.mig_index += 1
    n = state.n
    if state.mig_index < n:
        state.player = (state.start + state.mig_index) % n
        state.decision = D_PLACE
        return
    end_round(state)


def end_round(state: ChihouSouseiState) -> None:
    """The marker holder starts the next round (else the start passes to seat + 1)."""
    n = state.n
    new_start = state.marker if state.marker >= 0 else (state.start + 1) % n
    state.marker = EMPTY
    state.start = new_start
    round_ended(state)
    state.mig_index = 0
    state.round += 1
    if state.round == ROUNDS:
        state.decision = D_OVER
        state.player = TERMINAL
        return
    start_round(state)


def over_options(state: ChihouSouseiState) -> list[int]:
    """Nothing is legal once the game is over."""
    return []
