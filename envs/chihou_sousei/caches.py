"""The speed caches: derived data kept up to date in play, rebuilt on load.

None of this is a rule: every value here follows from the position (cards,
tokens, decision) and ``check_caches`` compares it with a rebuild.  It exists
so that legal moves, scores and observations cost a few list reads:

- ``frontier[s]``: the empty cells next to seat ``s``'s cards (the ``place`` options);
- score caches: ``icons`` (icon totals), ``ind`` (industry scores), ``region``,
  and ``pop`` / ``maxtok`` (population score, fullest card), recomputed lazily
  for the seats marked ``dirty``;
- observation arrays (real states only, ``state.features``): ``feat`` (one
  seat block per seat), ``rowfeat``, ``deckfeat`` and ``plane`` (every seat's
  own-board plane), so ``observe`` is a few slice copies.

The rules call in through the hooks below (``tokens_changed``, ``card_placed``,
``card_picked``, ``row_drawn``, ``planning_ended``, ``round_ended``), each
named after what just happened in the position.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from meeplezoo.envs.chihou_sousei.actions import ROW_SLOTS
from meeplezoo.envs.chihou_sousei.board import NEIGHBOURS, NUM_CELLS, ROUNDS
from meeplezoo.envs.chihou_sousei.data import BIG_CITY, COLOUR, HAS_ICON, ICONS, NUM_CARDS
from meeplezoo.envs.chihou_sousei.data import EVENT as CARD_EVENT
from meeplezoo.envs.chihou_sousei.decisions import D_OVER, EMPTY, MIGRATION_DECISIONS
from meeplezoo.envs.chihou_sousei.observation import (
    BIG_SLOT,
    BONUS_OFF,
    COORD,
    DECISION_OFF,
    DECK_OFF,
    DECK_VEC,
    EVENT_OFF,
    FM_SOURCE_OFF,
    FM_TABLEAU_OFF,
    ICON_SCALE,
    MIGRATION_OFF,
    NEIGHBOUR_SCALE,
    OBS_SIZE,
    P_ADJ_COLOUR,
    P_ADJ_TOKENS,
    P_FRONTIER,
    P_TOKENS,
    PENDING_OFF,
    PICKED_OFF,
    PICKED_VEC,
    PLACE_CARD_F,
    PLACED_OFF,
    PLANE_CARD,
    PLANE_F,
    PLANE_OFF,
    PLANE_SIZE,
    PROGRESS_OFF,
    ROW_F,
    ROW_OFF,
    ROW_VEC,
    S_TOKENS,
    SEAT_F,
    SEAT_TOKENS_SCALE,
    SLOT_F,
    STOCK_SCALE,
    SUM_ICONS,
    SUM_MARKER,
    SUM_PICKPOS,
    SUM_PLACED,
    SUM_START,
    SUMMARY_OFF,
    TOKEN_FEAT,
    clip01,
    slot_vector,
)
from meeplezoo.envs.chihou_sousei.scoring import (
    group_size,
    industry_scores,
    population_score,
    region_score,
)

if TYPE_CHECKING:
    from meeplezoo.envs.chihou_sousei.state import ChihouSouseiState

# flat own-board plane index of (cell, entry)
PL_TOKENS = [c * PLANE_F + P_TOKENS for c in range(NUM_CELLS)]
PL_FRONTIER = [c * PLANE_F + P_FRONTIER for c in range(NUM_CELLS)]
PL_ADJ_TOKENS = [c * PLANE_F + P_ADJ_TOKENS for c in range(NUM_CELLS)]
PL_ADJ_COLOUR = [c * PLANE_F + P_ADJ_COLOUR for c in range(NUM_CELLS)]
NB_STEP = 1.0 / NEIGHBOUR_SCALE


Features = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


# -- building from scratch (setup, load, and the drift checks) -------------------------
def rebuild(state: ChihouSouseiState) -> None:
    """Every cache from the position alone."""
    n = state.n
    state.frontier = [frontier_of(state, s) for s in range(n)]
    state.icons = [[0, 0, 0] for _ in range(n)]
    for s in range(n):
        for cell in state.cells[s][1:]:
            card = state.grid[s][cell]
            for i in range(3):
                state.icons[s][i] += ICONS[card][i]
    state.ind = industry_scores(state.icons)
    state.region = [region_score(state.grid[s], state.cells[s]) for s in range(n)]
    state.pop = [0] * n
    state.maxtok = [0] * n
    state.dirty = [True] * n
    state.feat, state.rowfeat, state.deckfeat, state.plane = fresh_features(state)


def frontier_of(state: ChihouSouseiState, s: int) -> set[int]:
    grid = state.grid[s]
    return {nb for c in state.cells[s] for nb in NEIGHBOURS[c] if grid[nb] == EMPTY}


def fresh_features(state: ChihouSouseiState) -> Features:
    """The observation arrays from scratch (also refreshes the score caches)."""
    n = state.n
    feat = np.zeros((n, SEAT_F), np.float32)
    in_migration = state.decision in MIGRATION_DECISIONS
    for s in range(n):
        row = feat[s]
        for slot, cell in enumerate(state.cells[s]):
            card = state.grid[s][cell]
            base = slot * SLOT_F
            row[base : base + SLOT_F] = (BIG_SLOT if card == BIG_CITY
                                         else slot_vector(state.game, card, cell))
            row[base + S_TOKENS] = TOKEN_FEAT[state.tokens[s][cell]]
        if state.picked[s] >= 0:
            row[PICKED_OFF:SUMMARY_OFF] = PICKED_VEC[state.picked[s]]
        row[SUM_START] = float(s == state.start)
        row[SUM_MARKER] = float(s == state.marker)
        row[SUM_PLACED] = float(in_migration and state.picked[s] < 0)
        row[SUM_PICKPOS + (s - state.start) % n] = 1.0
        write_summary(state, s, row)
    rowfeat = np.zeros(ROW_SLOTS * ROW_F, np.float32)
    for i, card in enumerate(state.row):
        rowfeat[i * ROW_F : (i + 1) * ROW_F] = ROW_VEC[card]
        rowfeat[i * ROW_F + 1] = float(state.taken[i] >= 0)
    if state.row:
        rowfeat[(len(state.row) - 1) * ROW_F + 2] = 1.0
    return feat, rowfeat, deck_features(state.deck), fresh_plane(state)


def fresh_plane(state: ChihouSouseiState) -> np.ndarray:
    """Every seat's own-board plane from scratch (see ``observation``):
    accumulated from each card outwards, unlike the incremental updates."""
    plane = np.zeros((state.n, NUM_CELLS, PLANE_F), np.float32)
    for s in range(state.n):
        grid, tok, cells = state.grid[s], state.tokens[s], state.cells[s]
        board = plane[s]
        adj_tokens: dict[int, int] = {}
        for cell in cells:
            card = grid[cell]
            board[cell, :PLACE_CARD_F] = PLANE_CARD[card, :PLACE_CARD_F]
            board[cell, P_TOKENS] = TOKEN_FEAT[tok[cell]]
            for nb in NEIGHBOURS[cell]:
                adj_tokens[nb] = adj_tokens.get(nb, 0) + tok[cell]
                if card != BIG_CITY:
                    board[nb, P_ADJ_COLOUR + COLOUR[card]] += NB_STEP
                if grid[nb] == EMPTY:
                    board[nb, P_FRONTIER] = 1.0
        for cell, count in adj_tokens.items():
            board[cell, P_ADJ_TOKENS] = TOKEN_FEAT[count]
    return plane.reshape(state.n, PLANE_SIZE)


def deck_features(deck: list[int]) -> np.ndarray:
    if not deck:
        return np.zeros(DECK_VEC.shape[1], np.float32)
    return np.minimum(DECK_VEC[deck].sum(axis=0), 1.0).astype(np.float32)


# -- the score caches ------------------------------------------------------------------
def score_seat(state: ChihouSouseiState, s: int) -> list[int]:
    """Recompute seat ``s``'s population score and fullest card; returns
    the token count per card (in tableau order)."""
    tok = state.tokens[s]
    counts = [tok[c] for c in state.cells[s]]
    state.pop[s] = population_score(counts, state.mode)
    state.maxtok[s] = max(counts)
    return counts


def write_summary(state: ChihouSouseiState, s: int, row: np.ndarray) -> None:
    """Rescore seat ``s`` and rewrite its summary entries (one slice write:
    numpy item writes are slow, this runs after most steps; the clips are
    written out, a ``min`` call costs more than the rest of an entry)."""
    counts = score_seat(state, s)
    pop = state.pop[s]
    icons = state.icons[s]
    ind = state.ind[s]
    region = state.region[s]
    total = (pop + ind + region + 8) / 64
    i0, i1, i2 = icons[0] / ICON_SCALE, icons[1] / ICON_SCALE, icons[2] / ICON_SCALE
    held = sum(counts) / SEAT_TOKENS_SCALE
    row[SUM_ICONS:SUM_START] = (
        i0 if i0 < 1.0 else 1.0,
        i1 if i1 < 1.0 else 1.0,
        i2 if i2 < 1.0 else 1.0,
        clip01((pop + 8) / 48),
        clip01(ind / 24),
        region / 8,
        total if total < 1.0 else 1.0,
        held if held < 1.0 else 1.0,
        TOKEN_FEAT[state.maxtok[s]],
        len(counts) / 9,
    )
    state.dirty[s] = False


def refresh(state: ChihouSouseiState) -> None:
    """Rescore the seats whose tokens or cards changed (a sketch keeps no
    summary features, so it only rescores)."""
    dirty = state.dirty
    if state.features:
        feat = state.feat
        for s in range(state.n):
            if dirty[s]:
                write_summary(state, s, feat[s])
    else:
        for s in range(state.n):
            if dirty[s]:
                score_seat(state, s)
                dirty[s] = False


# -- hooks: the rules report each change here ------------------------------------------
def tokens_changed(state: ChihouSouseiState, s: int, a: int, b: int = EMPTY) -> None:
    """Seat ``s``'s tokens on cell ``a`` (and ``b``) changed."""
    state.dirty[s] = True
    if not state.features:
        return
    tok = state.tokens[s]
    cells = state.cells[s]
    row = state.feat[s]
    board = state.plane[s]
    row[cells.index(a) * SLOT_F + S_TOKENS] = TOKEN_FEAT[tok[a]]
    board[PL_TOKENS[a]] = TOKEN_FEAT[tok[a]]
    touched = NEIGHBOURS[a]
    if b >= 0:
        row[cells.index(b) * SLOT_F + S_TOKENS] = TOKEN_FEAT[tok[b]]
        board[PL_TOKENS[b]] = TOKEN_FEAT[tok[b]]
        touched += NEIGHBOURS[b]  # a shared neighbour is just written twice
    for nb in touched:  # empty cells hold no tokens: summing all neighbours is exact
        total = 0
        for c in NEIGHBOURS[nb]:
            total += tok[c]
        board[PL_ADJ_TOKENS[nb]] = TOKEN_FEAT[total]


def card_placed(state: ChihouSouseiState, p: int, cell: int, card: int) -> None:
    """Seat ``p`` just placed ``card`` on ``cell`` (in its grid and card list)."""
    grid = state.grid[p]
    frontier = state.frontier[p]
    frontier.discard(cell)
    for nb in NEIGHBOURS[cell]:
        if grid[nb] == EMPTY:
            frontier.add(nb)
    if state.features:
        row = state.feat[p]
        base = (len(state.cells[p]) - 1) * SLOT_F
        row[base : base + SLOT_F] = slot_vector(state.game, card, cell)
        row[PICKED_OFF:SUMMARY_OFF] = 0.0
        row[SUM_PLACED] = 1.0
        # the new card holds no tokens yet: only occupancy, colour and frontier change
        board = state.plane[p]
        base = cell * PLANE_F
        board[base : base + PLACE_CARD_F] = PLANE_CARD[card, :PLACE_CARD_F]
        board[PL_FRONTIER[cell]] = 0.0
        colour = PL_ADJ_COLOUR[0] + COLOUR[card]
        for nb in NEIGHBOURS[cell]:
            board[nb * PLANE_F + colour] += NB_STEP
            if grid[nb] == EMPTY:
                board[PL_FRONTIER[nb]] = 1.0
    # only the new card's group can have grown: the other groups are as they were
    state.region[p] = max(state.region[p], group_size(grid, cell))
    if HAS_ICON[card]:
        icons = state.icons[p]
        for i in range(3):
            icons[i] += ICONS[card][i]
        ind = industry_scores(state.icons)
        if ind != state.ind:
            state.ind = ind
            if state.features:  # industry leadership changed: every summary is stale
                state.dirty = [True] * state.n
    state.dirty[p] = True


def card_picked(state: ChihouSouseiState, slot: int, p: int, card: int) -> None:
    """Seat ``p`` took ``card`` from row slot ``slot`` (observation arrays only)."""
    if not state.features:
        return
    state.rowfeat[slot * ROW_F + 1] = 1.0
    state.feat[p, PICKED_OFF:SUMMARY_OFF] = PICKED_VEC[card]


def row_drawn(state: ChihouSouseiState) -> None:
    """A new row was drawn from the deck (observation arrays only)."""
    if not state.features:
        return
    rowfeat = state.rowfeat
    rowfeat[:] = 0.0
    for i, card in enumerate(state.row):
        rowfeat[i * ROW_F : (i + 1) * ROW_F] = ROW_VEC[card]
    rowfeat[(len(state.row) - 1) * ROW_F + 2] = 1.0
    state.deckfeat = deck_features(state.deck)


def planning_ended(state: ChihouSouseiState) -> None:
    """The marker was taken and the row is being cleared (observation arrays only)."""
    if not state.features:
        return
    if state.marker >= 0:
        state.feat[state.marker, SUM_MARKER] = 1.0
    state.rowfeat[:] = 0.0


def round_ended(state: ChihouSouseiState) -> None:
    """A new start player; no marker, nobody placed (observation arrays only)."""
    if not state.features:
        return
    n = state.n
    start = state.start
    feat = state.feat
    feat[:, SUM_START] = 0.0
    feat[:, SUM_MARKER] = 0.0
    feat[:, SUM_PLACED] = 0.0
    feat[:, SUM_PICKPOS : SUM_PICKPOS + 4] = 0.0
    for s in range(n):
        feat[s, SUM_PICKPOS + (s - start) % n] = 1.0
    feat[start, SUM_START] = 1.0


# -- reading -----------------------------------------------------------------------------
def observe(state: ChihouSouseiState, player: int) -> np.ndarray:
    """``player``'s observation: slices of the kept arrays plus the few
    entries of the pending decision."""
    if True in state.dirty:
        refresh(state)
    n = state.n
    out = np.zeros(OBS_SIZE, np.float32)
    feat = state.feat  # egocentric order is a rotation: two slice copies, no gather
    split = (n - player) * SEAT_F
    out[:split] = feat[player:].ravel()
    if player:
        out[split : n * SEAT_F] = feat[:player].ravel()
    d = state.decision
    if d != D_OVER:
        out[DECISION_OFF + d] = 1.0
    progress = state.round / (ROUNDS - 1)
    stock = state.stock / STOCK_SCALE
    out[PROGRESS_OFF : PROGRESS_OFF + 3] = (
        progress if progress < 1.0 else 1.0,
        stock if stock < 1.0 else 1.0,
        len(state.deck) / NUM_CARDS,
    )
    if state.row:
        out[ROW_OFF : ROW_OFF + ROW_SLOTS * ROW_F] = state.rowfeat
    if state.fm_left:  # (the array starts at zero: only set entries are written)
        out[BONUS_OFF] = 1.0
    if state.inc_left:
        out[BONUS_OFF + 1] = 1.0
    if state.fm_seat >= 0:
        out[FM_TABLEAU_OFF + (state.fm_seat - player) % n] = 1.0
    if state.fm_src >= 0:
        out[FM_SOURCE_OFF : FM_SOURCE_OFF + 2] = COORD[state.fm_src]
        out[FM_SOURCE_OFF + 2] = 1.0
    if state.placed >= 0:
        out[PLACED_OFF : PLACED_OFF + 2] = COORD[state.placed]
        out[PLACED_OFF + 2] = 1.0
        out[MIGRATION_OFF] = state.need / 3
        out[PENDING_OFF] = len(state.pending) / 4
    if state.ev_cell >= 0:
        out[EVENT_OFF + CARD_EVENT[state.grid[state.player][state.ev_cell]]] = 1.0
        out[EVENT_OFF + 10 : EVENT_OFF + 12] = COORD[state.ev_cell]
        out[EVENT_OFF + 12] = 1.0
    out[DECK_OFF:PLANE_OFF] = state.deckfeat
    out[PLANE_OFF:] = state.plane[player]
    return out


# -- copies and checks ---------------------------------------------------------------------
def copy_caches(d: dict, state: ChihouSouseiState) -> None:
    """Into the attribute dict ``d`` of a copy: independent cache lists (the
    observation arrays are left to the caller: a sketch drops them)."""
    d["frontier"] = [set(f) for f in state.frontier]
    d["icons"] = [i[:] for i in state.icons]
    d["ind"] = state.ind[:]
    d["region"] = state.region[:]
    d["pop"] = state.pop[:]
    d["maxtok"] = state.maxtok[:]
    d["dirty"] = state.dirty[:]


def check_caches(state: ChihouSouseiState) -> None:
    """The incrementally kept score parts and frontiers (a sketch scores and
    places from these alone) equal a rebuild."""
    for s in range(state.n):
        grid, cells = state.grid[s], state.cells[s]
        icons = [sum(ICONS[grid[c]][i] for c in cells[1:]) for i in range(3)]
        assert state.icons[s] == icons, f"seat {s}: icon totals drifted"
        assert state.region[s] == region_score(grid, cells), f"seat {s}: region score drifted"
        assert state.frontier[s] == frontier_of(state, s), f"seat {s}: frontier drifted"
    assert state.ind == industry_scores(state.icons), "industry scores drifted"


def check_features(state: ChihouSouseiState) -> None:
    """The observation arrays equal a rebuild (which must not disturb the
    score caches it refreshes on the way)."""
    saved = (state.pop[:], state.maxtok[:], state.dirty[:])
    feat, rowfeat, deckfeat, plane = fresh_features(state)
    state.pop, state.maxtok, state.dirty = saved
    refresh(state)
    assert np.allclose(feat, state.feat), "seat features drifted from the position"
    assert np.allclose(rowfeat, state.rowfeat), "row features drifted"
    assert np.allclose(deckfeat, state.deckfeat), "deck features drifted"
    assert np.array_equal(plane, state.plane), "own-board planes drifted"
