"""Consistency of a position: what one saved field cannot say.

``check_position`` reads only the saved fields (cards, tokens, the pending
decision), so a load runs it on any save the schema accepts before the caches
are built; ``ChihouSouseiState.check_invariants`` adds the caches' drift
checks (``caches.check_caches``, ``caches.check_features``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeplezoo.envs.chihou_sousei.board import (
    CELLS,
    MAX_CARDS,
    NEIGHBOURS,
    NUM_CELLS,
    ORIGIN,
    ROUNDS,
)
from meeplezoo.envs.chihou_sousei.data import BIG_CITY, EVENTS, NUM_CARDS, POWER
from meeplezoo.envs.chihou_sousei.data import EVENT as CARD_EVENT
from meeplezoo.envs.chihou_sousei.decisions import (
    CHOICE_EVENTS,
    D_BONUS,
    D_EVENT_ORDER,
    D_EVENT_SOURCE,
    D_EVENT_TARGET,
    D_FM_SOURCE,
    D_FM_TARGET,
    D_MIGRATE,
    D_OVER,
    D_PICK,
    D_PLACE,
    DECISION_NAMES,
    EMPTY,
    MIGRATION_DECISIONS,
    PLANNING_DECISIONS,
    SOURCE_EVENTS,
    START_TOKENS,
    TOTAL_TOKENS,
)
from meeplezoo.envs.chihou_sousei.events import event_options
from meeplezoo.envs.chihou_sousei.planning import forced_move_possible
from meeplezoo.envs.core.game import TERMINAL

if TYPE_CHECKING:
    from meeplezoo.envs.chihou_sousei.state import ChihouSouseiState


def check_position(state: ChihouSouseiState) -> None:
    """The saved fields agree with each other: the cards, the tokens and the
    pending decision.  Reads only those fields, so a load runs it on any
    save the schema accepts before the derived data is built from it."""
    n = state.n
    d = state.decision
    planning = d in PLANNING_DECISIONS
    assert 0 <= state.round <= ROUNDS, f"round {state.round}"
    assert (d == D_OVER) == (state.round == ROUNDS), "the game ends after the last round"
    assert 0 <= state.start < n, f"start player {state.start}"
    assert 0 <= state.stock <= TOTAL_TOKENS - START_TOKENS * n, f"stock {state.stock}"
    on_board = 0
    placed_cards = []
    for s in range(n):
        grid, tok, cells = state.grid[s], state.tokens[s], state.cells[s]
        assert len(grid) == NUM_CELLS == len(tok), f"seat {s}: board size"
        assert cells and cells[0] == ORIGIN and grid[ORIGIN] == BIG_CITY, (
            f"seat {s}: the tableau starts with the big city at (0,0)"
        )
        assert len(set(cells)) == len(cells) <= MAX_CARDS, f"seat {s}: a cell holds two cards"
        occupied = {c for c in range(NUM_CELLS) if grid[c] != EMPTY}
        assert occupied == set(cells), f"seat {s}: grid and card list disagree"
        for i, c in enumerate(cells[1:], 1):
            assert 0 <= grid[c] < NUM_CARDS, f"seat {s}: a second big city at {CELLS[c]}"
            assert any(nb in cells[:i] for nb in NEIGHBOURS[c]), (
                f"seat {s}: card at {CELLS[c]} was not placed next to an earlier card"
            )
            placed_cards.append(grid[c])
        assert all(t >= 0 for t in tok), f"seat {s}: negative tokens"
        assert all(tok[c] == 0 for c in range(NUM_CELLS) if grid[c] == EMPTY), (
            f"seat {s}: tokens on an empty cell"
        )
        assert sum(tok) >= START_TOKENS, f"seat {s}: tokens left the tableau"
        on_board += sum(tok)
    assert on_board + state.stock == TOTAL_TOKENS, "tokens are not conserved"
    # the cards: a row of players+1 per round, each pick placed by the next migration
    row_size = n + 1
    rows_drawn = min(state.round + 1, ROUNDS)
    rows_done = state.round if planning else rows_drawn
    assert len(state.deck) == NUM_CARDS - rows_drawn * row_size, (
        f"deck of {len(state.deck)} cards in round {state.round + 1}"
    )
    assert len(state.discard) == rows_done * (row_size - n), (
        f"{len(state.discard)} discarded cards after {rows_done} planning phases"
    )
    assert len(state.picked) == n, "one picked card (or none) per player"
    cards = state.deck + state.row + state.discard + placed_cards
    if planning:
        check_planning(state)
    else:
        assert not state.row and not state.taken, "the row is cleared after planning"
        cards += [c for c in state.picked if c >= 0]
    assert sorted(cards) == list(range(NUM_CARDS)), "every card is in exactly one place"
    for s in range(n):
        placed_now = False
        if d in MIGRATION_DECISIONS:
            rel = (s - state.start) % n
            placed_now = rel < state.mig_index or (rel == state.mig_index and d != D_PLACE)
            assert (state.picked[s] < 0) == placed_now, (
                f"seat {s}: a picked card waits until its turn to place"
            )
        expected = min(state.round + placed_now, ROUNDS)
        count = len(state.cells[s]) - 1
        assert count == expected, f"seat {s}: {count} cards, not {expected}"
    check_decision(state)


def check_planning(state: ChihouSouseiState) -> None:
    """The row and the picks so far (planning decisions only)."""
    n = state.n
    assert len(state.row) == n + 1 == len(state.taken), "the row has players+1 cards"
    assert 0 <= state.pick_index < n, f"pick index {state.pick_index}"
    due = state.pick_index + (state.decision != D_PICK)  # a bonus follows its own pick
    takers = [t for t in state.taken if t >= 0]
    pickers = {(state.start + j) % n for j in range(due)}
    assert len(takers) == len(set(takers)) and set(takers) == pickers, (
        "the row's cards are taken by the players who have picked, once each"
    )
    for s in range(n):
        expected = state.row[state.taken.index(s)] if s in takers else EMPTY
        assert state.picked[s] == expected, f"seat {s}: picked card is not its row card"


def check_decision(state: ChihouSouseiState) -> None:
    """The pending decision is one the rules can reach from this position."""
    n = state.n
    d = state.decision
    p = state.player
    if d == D_OVER:
        assert p == TERMINAL, "a finished game names no player"
        assert state.marker == EMPTY, "the start marker is returned at the end of a round"
        assert state.pick_index == n and state.mig_index == 0, "the last round was completed"
        assert not (state.fm_left or state.inc_left), "no bonus is open after the game"
        assert state.fm_seat == state.fm_src == state.placed == state.ev_cell == EMPTY, (
            "no cell or tableau is chosen after the game"
        )
        assert state.need == 0 and not state.pending, "nothing is pending after the game"
        return
    if d in PLANNING_DECISIONS:
        assert state.marker == EMPTY, "the start marker is taken at the end of planning"
        assert state.mig_index == 0, f"migration index {state.mig_index} while planning"
        assert p == (state.start + state.pick_index) % n, f"player {p} is not the picker"
        assert state.placed == state.ev_cell == EMPTY, "no card is placed while planning"
        assert state.need == 0 and not state.pending, "nothing migrates while planning"
    else:
        assert state.pick_index == n, "every player has picked before migration"
        assert 0 <= state.mig_index < n, f"migration index {state.mig_index}"
        assert p == (state.start + state.mig_index) % n, f"player {p} is not migrating"
    # the pick bonuses: 2nd and later pickers move a token, the last also grows
    if d in (D_BONUS, D_FM_SOURCE, D_FM_TARGET):
        assert state.fm_left, "a forced move is open"
        assert state.pick_index >= 1, "the first picker has no bonus"
        assert not state.inc_left or state.pick_index == n - 1, "only the last picker grows"
    else:
        assert not (state.fm_left or state.inc_left), "bonuses are open only while asked"
    if d == D_BONUS:
        assert forced_move_possible(state), "a bonus decision offers the forced move"
    if d in (D_FM_SOURCE, D_FM_TARGET):
        assert 0 <= state.fm_seat < n, f"forced move tableau {state.fm_seat}"
        assert len(state.cells[state.fm_seat]) >= 2, "a forced move needs two cards"
        assert state.any_tableau or state.fm_seat == p, "a forced move in your own tableau"
        assert d == D_FM_TARGET or state.any_tableau, "a tableau is chosen only by option"
    else:
        assert state.fm_seat == EMPTY, "a forced move tableau outside a forced move"
    if d == D_FM_TARGET:
        assert state.fm_src in state.cells[state.fm_seat], "the forced move leaves a card"
        assert state.tokens[state.fm_seat][state.fm_src] > 0, "the forced move's card is empty"
    else:
        assert state.fm_src == EMPTY, "a forced move source outside a forced move"
    # migration: the placed card, its pull and its neighbours' events
    if d == D_PLACE:
        assert state.picked[p] >= 0 and state.placed == EMPTY, "a card is waiting to be placed"
        assert state.need == 0 and not state.pending and state.ev_cell == EMPTY, (
            "migration and events follow the placement"
        )
    elif d in MIGRATION_DECISIONS:
        check_placed_card(state)


def check_placed_card(state: ChihouSouseiState) -> None:
    """The card just placed and what it still owes (migration, events)."""
    d = state.decision
    p = state.player
    grid, tok = state.grid[p], state.tokens[p]
    placed = state.placed
    assert placed != ORIGIN and placed == state.cells[p][-1], "the placed card is the newest"
    neighbours = NEIGHBOURS[placed]
    if d == D_MIGRATE:
        sources = [nb for nb in neighbours if grid[nb] != EMPTY and tok[nb] > 0]
        assert state.need > 0 and len(sources) >= 2, "migration asks only between cards"
        assert sum(tok[c] for c in sources) > state.need, "migration asks only with a choice"
        assert tok[placed] + state.need <= POWER[grid[placed]], "migration beyond the power"
        assert not state.pending and state.ev_cell == EMPTY, "events follow the migration"
        return
    assert state.need == 0, "events come after the whole migration"
    pending = state.pending
    assert len(set(pending)) == len(pending), "an event is pending twice"
    for c in pending:
        assert c in neighbours and 0 <= grid[c] < BIG_CITY, "events are the new neighbours'"
    if d == D_EVENT_ORDER:
        assert len(pending) >= 2 and state.ev_cell == EMPTY, "the order asks between events"
        return
    cell = state.ev_cell
    assert cell in neighbours and 0 <= grid[cell] < BIG_CITY, "the event is a neighbour's"
    assert cell not in pending, "the event awaiting a choice is no longer pending"
    kind = CARD_EVENT[grid[cell]]
    asks = D_EVENT_SOURCE if kind in SOURCE_EVENTS else D_EVENT_TARGET
    assert kind in CHOICE_EVENTS and d == asks, f"{EVENTS[kind]} asks no {DECISION_NAMES[d]}"
    assert len(event_options(state, cell)) > 1, "an event asks only with a choice"
