"""Planning: the picks from the row and the pick bonuses (RULES.md, "1. Planning").

Players pick one row card each, clockwise from the start player.  Right after
a pick, the 2nd and later pickers may make a forced move (one token from a
card to an orthogonally adjacent card: in their own tableau, or in any with
``forced_move_any_player``), and the last picker also adds one stock token to
their big city.  The forced move may be declined (``skip``); the increase is
compulsory, so it is made at once when it is the only bonus left.  Each
decision has its options (``*_options``, action indices) and its effect
(``play_*``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeplezoo.envs.chihou_sousei.actions import FROM, INCREASE, PICK, SKIP, TABLEAU, TO
from meeplezoo.envs.chihou_sousei.board import NEIGHBOURS, ORIGIN
from meeplezoo.envs.chihou_sousei.caches import card_picked
from meeplezoo.envs.chihou_sousei.decisions import D_BONUS, D_FM_SOURCE, D_FM_TARGET, D_PICK, EMPTY
from meeplezoo.envs.chihou_sousei.rounds import end_planning
from meeplezoo.envs.chihou_sousei.tokens import from_stock, move

if TYPE_CHECKING:
    from meeplezoo.envs.chihou_sousei.state import ChihouSouseiState


# -- pick ------------------------------------------------------------------------------
def pick_options(state: ChihouSouseiState) -> list[int]:
    return [PICK + i for i, t in enumerate(state.taken) if t < 0]


def play_pick(state: ChihouSouseiState, action: int) -> None:
    slot = action - PICK
    p = state.player
    card = state.row[slot]
    state.taken[slot] = p
    state.picked[p] = card
    card_picked(state, slot, p, card)
    j = state.pick_index
    if j >= 1:  # 2nd, 3rd (4p) and last pickers move; the last also grows
        state.fm_left = True
        state.inc_left = j == state.n - 1
    bonus_or_next(state)


# -- the bonuses -------------------------------------------------------------------------
def forced_move_possible(state: ChihouSouseiState) -> bool:
    if not state.fm_left:
        return False
    if state.any_tableau:
        return any(len(cells) >= 2 for cells in state.cells)
    return len(state.cells[state.player]) >= 2  # every tableau holds >= 16 tokens


def bonus_or_next(state: ChihouSouseiState) -> None:
    """Offer the forced move while it is open; a population increase still
    due is compulsory, so once it is the only bonus left it is made at once."""
    if forced_move_possible(state):
        state.decision = D_BONUS
        return
    if state.inc_left:
        increase(state)
    next_pick(state)


def increase(state: ChihouSouseiState) -> None:
    """The last picker's population increase: one stock token onto the big
    city; with an empty stock it does nothing."""
    state.inc_left = False
    if state.stock > 0:
        from_stock(state, state.player, ORIGIN)


def next_pick(state: ChihouSouseiState) -> None:
    state.fm_left = False
    state.inc_left = False
    state.pick_index += 1
    n = state.n
    if state.pick_index < n:
        state.player = (state.start + state.pick_index) % n
        state.decision = D_PICK
        return
    end_planning(state)


def bonus_options(state: ChihouSouseiState) -> list[int]:
    """Start the forced move (a source card, or with the option a tableau),
    make the increase now, or decline the forced move."""
    p = state.player
    legal: list[int] = []
    if state.fm_left:
        if state.any_tableau:
            n = state.n
            legal = [TABLEAU + k for k in range(n) if len(state.cells[(p + k) % n]) >= 2]
        elif len(state.cells[p]) >= 2:
            tok = state.tokens[p]
            legal = [FROM + c for c in state.cells[p] if tok[c]]
    if state.inc_left and state.stock > 0:
        legal.append(INCREASE)
    legal.append(SKIP)
    return legal


def play_bonus(state: ChihouSouseiState, action: int) -> None:
    if action == SKIP:  # declines the forced move; a due increase still happens
        state.fm_left = False
        bonus_or_next(state)
    elif action == INCREASE:
        increase(state)
        bonus_or_next(state)
    elif action >= TABLEAU:
        state.fm_seat = (state.player + action - TABLEAU) % state.n
        state.decision = D_FM_SOURCE
    else:
        state.fm_seat = state.player
        state.fm_src = action - FROM
        state.decision = D_FM_TARGET


# -- the forced move -----------------------------------------------------------------------
def fm_source_options(state: ChihouSouseiState) -> list[int]:
    """Any card of the chosen tableau that holds a token."""
    tok = state.tokens[state.fm_seat]
    return [FROM + c for c in state.cells[state.fm_seat] if tok[c]]


def play_fm_source(state: ChihouSouseiState, action: int) -> None:
    state.fm_src = action - FROM
    state.decision = D_FM_TARGET


def fm_target_options(state: ChihouSouseiState) -> list[int]:
    """Any card orthogonally next to the source (there is one: a tableau of
    two or more cards is connected)."""
    grid = state.grid[state.fm_seat]
    return [TO + nb for nb in NEIGHBOURS[state.fm_src] if grid[nb] != EMPTY]


def play_fm_target(state: ChihouSouseiState, action: int) -> None:
    move(state, state.fm_seat, state.fm_src, action - TO)
    state.fm_left = False
    state.fm_seat = EMPTY
    state.fm_src = EMPTY
    bonus_or_next(state)
