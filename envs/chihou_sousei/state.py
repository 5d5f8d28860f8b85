"""The engine: one position of 地方創生 and the rules that move it forward.

A round is a planning phase (reveal players+1 cards, pick clockwise from the
start player, pick bonuses right after each pick) and a migration phase (each
player, from the start player, places the picked card, pulls tokens into it
and resolves the events of the cards next to it).  Compound turns are split
into small decisions (see ``observation.DECISIONS``).  Only these steps are
made automatically: migration when one card holds the sources or every
available token must move, the last pending event, an event whose choice has
one option, a pick bonus with nothing possible, and the last picker's
compulsory population increase once the forced move is made, declined or
impossible.  Every other decision is asked even with a single legal action
(a forced move's only target, for example).

The state is plain lists of ints (one 145-cell grid per player) plus numpy
feature arrays that are kept up to date incrementally, so ``observation`` is a
few slice copies; ``check_invariants`` rebuilds them from scratch and compares.
Bots look ahead on a ``Sketch``: the same rules without the feature arrays.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from envs.chihou_sousei.actions import (
    EVENT,
    FROM,
    INCREASE,
    NUM_ACTIONS,
    PICK,
    PLACE,
    ROW_SLOTS,
    SKIP,
    TABLEAU,
    TO,
)
from envs.chihou_sousei.board import (
    CELL_INDEX,
    CELLS,
    MAX_CARDS,
    NEIGHBOURS,
    NUM_CELLS,
    ORIGIN,
    RADIUS,
    ROUNDS,
)
from envs.chihou_sousei.data import (
    BIG_CITY,
    CARD_ID,
    CARD_KEYS,
    COLOUR,
    EVENTS,
    HAS_ICON,
    ICONS,
    NUM_CARDS,
    POWER,
)
from envs.chihou_sousei.data import (
    EVENT as CARD_EVENT,
)
from envs.chihou_sousei.observation import (
    BIG_SLOT,
    BONUS_OFF,
    COORD,
    DECISION_OFF,
    DECISIONS,
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
from envs.chihou_sousei.scoring import (
    group_size,
    industry_scores,
    population_score,
    region_score,
)
from envs.core.errors import CorruptStateError, IllegalActionError
from envs.core.game import TERMINAL, GameState
from envs.core.hidden import redraw
from envs.core.rng import copy_rng

TOTAL_TOKENS = 80
START_TOKENS = 16
EMPTY = -1
BIG_CITY_KEY = "big_city"  # a big city's card key in a save

(
    D_PICK,
    D_BONUS,
    D_FM_SOURCE,
    D_FM_TARGET,
    D_PLACE,
    D_MIGRATE,
    D_EVENT_ORDER,
    D_EVENT_SOURCE,
    D_EVENT_TARGET,
) = range(len(DECISIONS))
D_OVER = len(DECISIONS)
DECISION_NAMES = (*DECISIONS, "game_over")
MIGRATION_DECISIONS = (D_PLACE, D_MIGRATE, D_EVENT_ORDER, D_EVENT_SOURCE, D_EVENT_TARGET)
PLANNING_DECISIONS = (D_PICK, D_BONUS, D_FM_SOURCE, D_FM_TARGET)

(
    E_NEWCOMERS,
    E_U_TURN,
    E_TO_THE_CITY,
    E_SPREAD,
    E_GATHER,
    E_FESTIVAL,
    E_PIONEERS,
    E_WELCOME,
    E_LOCAL_JOBS,
    E_RELOCATION,
) = (
    EVENTS.index(k)
    for k in (
        "newcomers",
        "u_turn",
        "to_the_city",
        "spread",
        "gather",
        "festival",
        "pioneers",
        "welcome",
        "local_jobs",
        "relocation",
    )
)
CHOICE_EVENTS = (E_SPREAD, E_GATHER, E_FESTIVAL, E_LOCAL_JOBS, E_RELOCATION)  # may ask a cell

# flat own-board plane index of (cell, entry)
PL_TOKENS = [c * PLANE_F + P_TOKENS for c in range(NUM_CELLS)]
PL_FRONTIER = [c * PLANE_F + P_FRONTIER for c in range(NUM_CELLS)]
PL_ADJ_TOKENS = [c * PLANE_F + P_ADJ_TOKENS for c in range(NUM_CELLS)]
PL_ADJ_COLOUR = [c * PLANE_F + P_ADJ_COLOUR for c in range(NUM_CELLS)]
NB_STEP = 1.0 / NEIGHBOUR_SCALE

# egocentric seat order per (player count, viewer), as index arrays
ORDER = {n: [np.array([(p + k) % n for k in range(n)]) for p in range(n)] for n in range(2, 5)}


class ChihouSouseiState(GameState):
    """One position.  Build with ``ChihouSouseiGame.new_initial_state``."""

    features: ClassVar[bool] = True  # keeps the observation arrays (False: ``Sketch``)

    # -- setup ---------------------------------------------------------------------
    def _setup(self, rng: np.random.Generator) -> None:
        n = self.game.num_players
        self._config()
        self.rng = rng
        self.deck = [int(c) for c in rng.permutation(NUM_CARDS)]
        self.round = 0
        self.start = 0  # seat 0 holds Tokyo, the easternmost big city
        self.marker = EMPTY
        self.stock = TOTAL_TOKENS - START_TOKENS * n
        self.row: list[int] = []
        self.taken: list[int] = []
        self.discard: list[int] = []
        self.picked = [EMPTY] * n
        self.grid = [[EMPTY] * NUM_CELLS for _ in range(n)]
        self.tokens = [[0] * NUM_CELLS for _ in range(n)]
        for s in range(n):
            self.grid[s][ORIGIN] = BIG_CITY
            self.tokens[s][ORIGIN] = START_TOKENS
        self.cells = [[ORIGIN] for _ in range(n)]
        self._reset_turn_fields()
        self._rebuild()
        self._start_round()

    def _config(self) -> None:
        game = self.game
        self.n = game.num_players
        self.mode = game.config["population_scoring"] == "mode"
        self.any_tableau = game.config["forced_move_any_player"]

    def _reset_turn_fields(self) -> None:
        self.decision = D_PICK
        self.player = 0
        self.pick_index = 0
        self.fm_left = False
        self.inc_left = False
        self.fm_seat = EMPTY
        self.fm_src = EMPTY
        self.mig_index = 0
        self.placed = EMPTY
        self.need = 0
        self.pending: list[int] = []
        self.ev_cell = EMPTY

    # -- derived data (rebuilt on load, maintained incrementally in play) -----------
    def _rebuild(self) -> None:
        n = self.n
        self.frontier = [self._frontier(s) for s in range(n)]
        self.icons = [[0, 0, 0] for _ in range(n)]
        for s in range(n):
            for cell in self.cells[s][1:]:
                card = self.grid[s][cell]
                for i in range(3):
                    self.icons[s][i] += ICONS[card][i]
        self.ind = industry_scores(self.icons)
        self.region = [region_score(self.grid[s], self.cells[s]) for s in range(n)]
        self.pop = [0] * n
        self.maxtok = [0] * n
        self.dirty = [True] * n
        self.feat, self.rowfeat, self.deckfeat, self.plane = self._fresh_features()

    def _frontier(self, s: int) -> set[int]:
        grid = self.grid[s]
        return {nb for c in self.cells[s] for nb in NEIGHBOURS[c] if grid[nb] == EMPTY}

    def _fresh_features(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        n = self.n
        feat = np.zeros((n, SEAT_F), np.float32)
        in_migration = self.decision in MIGRATION_DECISIONS
        for s in range(n):
            row = feat[s]
            for slot, cell in enumerate(self.cells[s]):
                card = self.grid[s][cell]
                base = slot * SLOT_F
                row[base : base + SLOT_F] = (
                    BIG_SLOT if card == BIG_CITY else slot_vector(card, cell)
                )
                row[base + S_TOKENS] = TOKEN_FEAT[self.tokens[s][cell]]
            if self.picked[s] >= 0:
                row[PICKED_OFF:SUMMARY_OFF] = PICKED_VEC[self.picked[s]]
            row[SUM_START] = float(s == self.start)
            row[SUM_MARKER] = float(s == self.marker)
            row[SUM_PLACED] = float(in_migration and self.picked[s] < 0)
            row[SUM_PICKPOS + (s - self.start) % n] = 1.0
            self._write_summary(s, row)
        rowfeat = np.zeros(ROW_SLOTS * ROW_F, np.float32)
        for i, card in enumerate(self.row):
            rowfeat[i * ROW_F : (i + 1) * ROW_F] = ROW_VEC[card]
            rowfeat[i * ROW_F + 1] = float(self.taken[i] >= 0)
        if self.row:
            rowfeat[(len(self.row) - 1) * ROW_F + 2] = 1.0
        deckfeat = self._deck_features()
        return feat, rowfeat, deckfeat, self._fresh_plane()

    def _fresh_plane(self) -> np.ndarray:
        """Every seat's own-board plane from scratch (see ``observation``):
        accumulated from each card outwards, unlike the incremental updates."""
        plane = np.zeros((self.n, NUM_CELLS, PLANE_F), np.float32)
        for s in range(self.n):
            grid, tok, cells = self.grid[s], self.tokens[s], self.cells[s]
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
        return plane.reshape(self.n, PLANE_SIZE)

    def _plane_tokens(self, s: int, a: int, b: int = EMPTY) -> None:
        """Seat ``s``'s plane after the tokens on cell ``a`` (and ``b``) changed."""
        tok = self.tokens[s]
        board = self.plane[s]
        board[PL_TOKENS[a]] = TOKEN_FEAT[tok[a]]
        touched = NEIGHBOURS[a]
        if b >= 0:
            board[PL_TOKENS[b]] = TOKEN_FEAT[tok[b]]
            touched += NEIGHBOURS[b]  # a shared neighbour is just written twice
        for nb in touched:  # empty cells hold no tokens: summing all neighbours is exact
            total = 0
            for c in NEIGHBOURS[nb]:
                total += tok[c]
            board[PL_ADJ_TOKENS[nb]] = TOKEN_FEAT[total]

    def _deck_features(self) -> np.ndarray:
        if not self.deck:
            return np.zeros(DECK_VEC.shape[1], np.float32)
        return np.minimum(DECK_VEC[self.deck].sum(axis=0), 1.0).astype(np.float32)

    def _write_summary(self, s: int, row: np.ndarray) -> None:
        """Rewrite seat ``s``'s summary entries (one slice write: numpy item
        writes are slow, this runs after most steps)."""
        counts = self._score_seat(s)
        pop = self.pop[s]
        top = self.maxtok[s]
        icons = self.icons[s]
        ind = self.ind[s]
        region = self.region[s]
        total = (pop + ind + region + 8) / 64
        row[SUM_ICONS:SUM_START] = (
            min(icons[0] / ICON_SCALE, 1.0),
            min(icons[1] / ICON_SCALE, 1.0),
            min(icons[2] / ICON_SCALE, 1.0),
            clip01((pop + 8) / 48),
            clip01(ind / 24),
            region / 8,
            total if total < 1.0 else 1.0,
            min(sum(counts) / SEAT_TOKENS_SCALE, 1.0),
            TOKEN_FEAT[top],
            len(counts) / 9,
        )
        self.dirty[s] = False

    def _score_seat(self, s: int) -> list[int]:
        """Recompute seat ``s``'s population score and fullest card; returns
        the token count per card (in tableau order)."""
        tok = self.tokens[s]
        counts = [tok[c] for c in self.cells[s]]
        self.pop[s] = population_score(counts, self.mode)
        self.maxtok[s] = max(counts)
        return counts

    def _refresh(self) -> None:
        dirty = self.dirty
        for s in range(self.n):
            if dirty[s]:
                self._write_summary(s, self.feat[s])

    # -- token movement (every change of a token goes through these) -------------
    def _move(self, s: int, src: int, dst: int, count: int = 1) -> None:
        tok = self.tokens[s]
        tok[src] -= count
        tok[dst] += count
        self.dirty[s] = True
        if self.features:
            cells = self.cells[s]
            row = self.feat[s]
            row[cells.index(src) * SLOT_F + S_TOKENS] = TOKEN_FEAT[tok[src]]
            row[cells.index(dst) * SLOT_F + S_TOKENS] = TOKEN_FEAT[tok[dst]]
            self._plane_tokens(s, src, dst)

    def _from_stock(self, s: int, dst: int) -> None:
        self.stock -= 1
        tok = self.tokens[s]
        tok[dst] += 1
        self.dirty[s] = True
        if self.features:
            self.feat[s][self.cells[s].index(dst) * SLOT_F + S_TOKENS] = TOKEN_FEAT[tok[dst]]
            self._plane_tokens(s, dst)

    # -- the engine interface ------------------------------------------------------
    def current_player(self) -> int:
        return self.player

    def is_terminal(self) -> bool:
        return self.decision == D_OVER

    def decision_name(self) -> str:
        return DECISION_NAMES[self.decision]

    def _legal_mask(self) -> np.ndarray:
        mask = np.zeros(NUM_ACTIONS, dtype=bool)
        for action in self._legal_list():  # item writes beat fancy indexing on short lists
            mask[action] = True
        return mask

    def _legal_list(self) -> list[int]:
        """The legal actions, in no particular order and without repeats: the
        one statement of the options, for the mask and for sketches (no numpy)."""
        d = self.decision
        p = self.player
        if d == D_PICK:
            return [PICK + i for i, t in enumerate(self.taken) if t < 0]
        if d == D_PLACE:
            return [PLACE - 1 + c for c in self.frontier[p]]
        if d == D_BONUS:
            legal: list[int] = []
            if self.fm_left:
                if self.any_tableau:
                    n = self.n
                    legal = [TABLEAU + k for k in range(n) if len(self.cells[(p + k) % n]) >= 2]
                elif len(self.cells[p]) >= 2:
                    tok = self.tokens[p]
                    legal = [FROM + c for c in self.cells[p] if tok[c]]
            if self.inc_left and self.stock > 0:
                legal.append(INCREASE)
            legal.append(SKIP)
            return legal
        if d == D_MIGRATE:
            grid, tok = self.grid[p], self.tokens[p]
            return [FROM + nb for nb in NEIGHBOURS[self.placed] if grid[nb] != EMPTY and tok[nb]]
        if d == D_EVENT_ORDER:
            return [EVENT - 1 + c for c in self.pending]
        if d == D_EVENT_SOURCE:
            return [FROM + c for c in self.event_options()]
        if d == D_EVENT_TARGET:
            return [TO + c for c in self.event_options()]
        if d == D_FM_SOURCE:
            tok = self.tokens[self.fm_seat]
            return [FROM + c for c in self.cells[self.fm_seat] if tok[c]]
        if d == D_FM_TARGET:
            grid = self.grid[self.fm_seat]
            return [TO + nb for nb in NEIGHBOURS[self.fm_src] if grid[nb] != EMPTY]
        return []

    def _apply(self, action: int) -> None:
        d = self.decision
        if d == D_PICK:
            self._pick(action - PICK)
        elif d == D_BONUS:
            if action == SKIP:  # declines the forced move; a due increase still happens
                self.fm_left = False
                self._bonus_or_next()
            elif action == INCREASE:
                self._increase()
                self._bonus_or_next()
            elif action >= TABLEAU:
                self.fm_seat = (self.player + action - TABLEAU) % self.n
                self.decision = D_FM_SOURCE
            else:
                self.fm_seat = self.player
                self.fm_src = action - FROM
                self.decision = D_FM_TARGET
        elif d == D_PLACE:
            self._place(action - PLACE + 1)
        elif d == D_MIGRATE:
            self._move(self.player, action - FROM, self.placed)
            self.need -= 1
            self._continue_migration()
        elif d == D_EVENT_ORDER:
            cell = action - EVENT + 1
            self.pending.remove(cell)
            if self._resolve_event(cell):
                self._continue_events()
        elif d == D_EVENT_SOURCE:
            self._move(self.player, action - FROM, self.ev_cell)
            self.ev_cell = EMPTY
            self._continue_events()
        elif d == D_EVENT_TARGET:
            self._event_to(action - TO)
            self.ev_cell = EMPTY
            self._continue_events()
        elif d == D_FM_SOURCE:
            self.fm_src = action - FROM
            self.decision = D_FM_TARGET
        elif d == D_FM_TARGET:
            self._move(self.fm_seat, self.fm_src, action - TO)
            self.fm_left = False
            self.fm_seat = EMPTY
            self.fm_src = EMPTY
            self._bonus_or_next()

    # -- planning phase --------------------------------------------------------------
    def _start_round(self) -> None:
        n = self.n
        k = n + 1
        self.row = self.deck[:k]
        self.deck = self.deck[k:]
        self.taken = [EMPTY] * k
        if self.features:
            rowfeat = self.rowfeat
            rowfeat[:] = 0.0
            for i, card in enumerate(self.row):
                rowfeat[i * ROW_F : (i + 1) * ROW_F] = ROW_VEC[card]
            rowfeat[(k - 1) * ROW_F + 2] = 1.0
            self.deckfeat = self._deck_features()
        self.pick_index = 0
        self.player = self.start
        self.decision = D_PICK

    def _pick(self, slot: int) -> None:
        p = self.player
        card = self.row[slot]
        self.taken[slot] = p
        self.picked[p] = card
        if self.features:
            self.rowfeat[slot * ROW_F + 1] = 1.0
            self.feat[p, PICKED_OFF:SUMMARY_OFF] = PICKED_VEC[card]
        j = self.pick_index
        if j >= 1:  # 2nd, 3rd (4p) and last pickers move; the last also grows
            self.fm_left = True
            self.inc_left = j == self.n - 1
        self._bonus_or_next()

    def _forced_move_possible(self) -> bool:
        if not self.fm_left:
            return False
        if self.any_tableau:
            return any(len(cells) >= 2 for cells in self.cells)
        return len(self.cells[self.player]) >= 2  # every tableau holds >= 16 tokens

    def _bonus_or_next(self) -> None:
        """Offer the forced move while it is open; a population increase still
        due is compulsory, so once it is the only bonus left it is made at once."""
        if self._forced_move_possible():
            self.decision = D_BONUS
            return
        if self.inc_left:
            self._increase()
        self._next_pick()

    def _increase(self) -> None:
        """The last picker's population increase: one stock token onto the big
        city; with an empty stock it does nothing."""
        self.inc_left = False
        if self.stock > 0:
            self._from_stock(self.player, ORIGIN)

    def _next_pick(self) -> None:
        self.fm_left = False
        self.inc_left = False
        self.pick_index += 1
        n = self.n
        if self.pick_index < n:
            self.player = (self.start + self.pick_index) % n
            self.decision = D_PICK
            return
        for i, t in enumerate(self.taken):
            if t < 0:
                self.discard.append(self.row[i])
        self.marker = self.taken[n]
        if self.features:
            if self.marker >= 0:
                self.feat[self.marker, SUM_MARKER] = 1.0
            self.rowfeat[:] = 0.0
        self.row = []
        self.taken = []
        self.mig_index = 0
        self.player = self.start
        self.decision = D_PLACE

    # -- migration phase ---------------------------------------------------------------
    def _place(self, cell: int) -> None:
        p = self.player
        card = self.picked[p]
        self.picked[p] = EMPTY
        grid = self.grid[p]
        grid[cell] = card
        cells = self.cells[p]
        cells.append(cell)
        frontier = self.frontier[p]
        frontier.discard(cell)
        for nb in NEIGHBOURS[cell]:
            if grid[nb] == EMPTY:
                frontier.add(nb)
        if self.features:
            row = self.feat[p]
            base = (len(cells) - 1) * SLOT_F
            row[base : base + SLOT_F] = slot_vector(card, cell)
            row[PICKED_OFF:SUMMARY_OFF] = 0.0
            row[SUM_PLACED] = 1.0
            # the new card holds no tokens yet: only occupancy, colour and frontier change
            board = self.plane[p]
            base = cell * PLANE_F
            board[base : base + PLACE_CARD_F] = PLANE_CARD[card, :PLACE_CARD_F]
            board[PL_FRONTIER[cell]] = 0.0
            colour = PL_ADJ_COLOUR[0] + COLOUR[card]
            for nb in NEIGHBOURS[cell]:
                board[nb * PLANE_F + colour] += NB_STEP
                if grid[nb] == EMPTY:
                    board[PL_FRONTIER[nb]] = 1.0
        # only the new card's group can have grown: the other groups are as they were
        self.region[p] = max(self.region[p], group_size(grid, cell))
        if HAS_ICON[card]:
            icons = self.icons[p]
            for i in range(3):
                icons[i] += ICONS[card][i]
            ind = industry_scores(self.icons)
            if ind != self.ind:
                self.ind = ind
                if self.features:  # industry leadership changed: every summary is stale
                    self.dirty = [True] * self.n
        self.dirty[p] = True
        self.placed = cell
        tok = self.tokens[p]
        available = sum(tok[nb] for nb in NEIGHBOURS[cell] if grid[nb] != EMPTY)
        self.need = min(POWER[card], available)
        self._continue_migration()

    def _continue_migration(self) -> None:
        p = self.player
        placed = self.placed
        grid, tok = self.grid[p], self.tokens[p]
        while self.need > 0:
            sources = [nb for nb in NEIGHBOURS[placed] if grid[nb] != EMPTY and tok[nb] > 0]
            if len(sources) == 1:
                self._move(p, sources[0], placed, self.need)
            elif sum(tok[c] for c in sources) <= self.need:
                for c in sources:
                    self._move(p, c, placed, tok[c])
            else:
                self.decision = D_MIGRATE
                return
            self.need = 0
        self.pending = [nb for nb in NEIGHBOURS[placed] if 0 <= grid[nb] < BIG_CITY]
        self._continue_events()

    def _continue_events(self) -> None:
        pending = self.pending
        while pending:
            if len(pending) > 1:
                self.decision = D_EVENT_ORDER
                return
            if not self._resolve_event(pending.pop()):
                return
        self._end_turn()

    def event_options(self, cell: int | None = None) -> list[int]:
        """Cells the placing player may choose for the event of ``cell``
        (default: the event awaiting a choice); empty for choice-free events."""
        if cell is None:
            cell = self.ev_cell
        p = self.player
        grid, tok = self.grid[p], self.tokens[p]
        kind = CARD_EVENT[grid[cell]]
        if kind == E_SPREAD:
            if not tok[cell]:
                return []
            return [nb for nb in NEIGHBOURS[cell] if grid[nb] != EMPTY]
        if kind == E_GATHER:
            return [nb for nb in NEIGHBOURS[cell] if grid[nb] != EMPTY and tok[nb]]
        if kind == E_FESTIVAL:
            return [c for c in self.cells[p] if c != cell and tok[c]]
        if kind == E_LOCAL_JOBS:
            if not self.stock:
                return []
            return [c for c in self.cells[p] if grid[c] < BIG_CITY and HAS_ICON[grid[c]]]
        if kind == E_RELOCATION:
            if not tok[ORIGIN]:
                return []
            return self.cells[p][1:]
        return []

    def _resolve_event(self, cell: int) -> bool:
        """Resolve the event of ``cell``; False when it waits for a choice."""
        p = self.player
        tok = self.tokens[p]
        kind = CARD_EVENT[self.grid[p][cell]]
        if kind == E_NEWCOMERS:
            if self.stock:
                self._from_stock(p, cell)
        elif kind == E_U_TURN:
            if tok[ORIGIN]:
                self._move(p, ORIGIN, cell)
        elif kind == E_TO_THE_CITY:
            if tok[cell]:
                self._move(p, cell, ORIGIN)
        elif kind == E_PIONEERS:
            if tok[cell]:
                self._move(p, cell, self.placed)
        elif kind == E_WELCOME:
            if self.stock:
                self._from_stock(p, self.placed)
        else:
            options = self.event_options(cell)
            if len(options) > 1:
                self.ev_cell = cell
                self.decision = D_EVENT_SOURCE if kind in (E_GATHER, E_FESTIVAL) else D_EVENT_TARGET
                return False
            if options:
                self.ev_cell = cell
                if kind in (E_GATHER, E_FESTIVAL):
                    self._move(p, options[0], cell)
                else:
                    self._event_to(options[0])
                self.ev_cell = EMPTY
        return True

    def _event_to(self, target: int) -> None:
        p = self.player
        cell = self.ev_cell
        kind = CARD_EVENT[self.grid[p][cell]]
        if kind == E_SPREAD:
            self._move(p, cell, target)
        elif kind == E_LOCAL_JOBS:
            self._from_stock(p, target)
        else:  # relocation
            self._move(p, ORIGIN, target)

    def _end_turn(self) -> None:
        self.placed = EMPTY
        self.need = 0
        self.mig_index += 1
        n = self.n
        if self.mig_index < n:
            self.player = (self.start + self.mig_index) % n
            self.decision = D_PLACE
            return
        self._end_round()

    def _end_round(self) -> None:
        n = self.n
        new_start = self.marker if self.marker >= 0 else (self.start + 1) % n
        self.marker = EMPTY
        self.start = new_start
        if self.features:
            feat = self.feat
            feat[:, SUM_START] = 0.0
            feat[:, SUM_MARKER] = 0.0
            feat[:, SUM_PLACED] = 0.0
            feat[:, SUM_PICKPOS : SUM_PICKPOS + 4] = 0.0
            for s in range(n):
                feat[s, SUM_PICKPOS + (s - new_start) % n] = 1.0
            feat[new_start, SUM_START] = 1.0
        self.mig_index = 0
        self.round += 1
        if self.round == ROUNDS:
            self.decision = D_OVER
            self.player = TERMINAL
            return
        self._start_round()

    # -- scores --------------------------------------------------------------------------
    def score_parts(self) -> list[tuple[int, int, int]]:
        """(population, industry, region) per seat, as if the game ended now."""
        self._refresh()
        return [(self.pop[s], self.ind[s], self.region[s]) for s in range(self.n)]

    def score_totals(self) -> list[int]:
        """Total per seat, as if the game ended now (a sketch's cheap scoring)."""
        if True in self.dirty:  # bots score every position they try: keep it lean
            self._refresh()
        pop, ind, region = self.pop, self.ind, self.region
        return [pop[s] + ind[s] + region[s] for s in range(self.n)]

    def scores(self) -> list[float]:
        return [float(sum(parts)) for parts in self.score_parts()]

    def score_breakdown(self) -> list[dict[str, float]]:
        return [
            {
                "population": float(a),
                "industry": float(b),
                "region": float(c),
                "total": float(a + b + c),
            }
            for a, b, c in self.score_parts()
        ]

    def rank_keys(self) -> list[tuple]:
        """Higher total first; tie: fewer tokens on your single fullest card."""
        parts = self.score_parts()
        return [(sum(parts[s]), -self.maxtok[s]) for s in range(self.n)]

    # -- observation ---------------------------------------------------------------------
    def observation(self, player: int) -> np.ndarray:
        if True in self.dirty:
            self._refresh()
        n = self.n
        out = np.zeros(OBS_SIZE, np.float32)
        out[: n * SEAT_F] = self.feat[ORDER[n][player]].ravel()
        d = self.decision
        if d != D_OVER:
            out[DECISION_OFF + d] = 1.0
        out[PROGRESS_OFF] = min(self.round / (ROUNDS - 1), 1.0)
        out[PROGRESS_OFF + 1] = min(self.stock / STOCK_SCALE, 1.0)
        out[PROGRESS_OFF + 2] = len(self.deck) / NUM_CARDS
        if self.row:
            out[ROW_OFF : ROW_OFF + ROW_SLOTS * ROW_F] = self.rowfeat
        out[BONUS_OFF] = self.fm_left
        out[BONUS_OFF + 1] = self.inc_left
        if self.fm_seat >= 0:
            out[FM_TABLEAU_OFF + (self.fm_seat - player) % n] = 1.0
        if self.fm_src >= 0:
            out[FM_SOURCE_OFF : FM_SOURCE_OFF + 2] = COORD[self.fm_src]
            out[FM_SOURCE_OFF + 2] = 1.0
        if self.placed >= 0:
            out[PLACED_OFF : PLACED_OFF + 2] = COORD[self.placed]
            out[PLACED_OFF + 2] = 1.0
            out[MIGRATION_OFF] = self.need / 3
            out[PENDING_OFF] = len(self.pending) / 4
        if self.ev_cell >= 0:
            out[EVENT_OFF + CARD_EVENT[self.grid[self.player][self.ev_cell]]] = 1.0
            out[EVENT_OFF + 10 : EVENT_OFF + 12] = COORD[self.ev_cell]
            out[EVENT_OFF + 12] = 1.0
        out[DECK_OFF:PLANE_OFF] = self.deckfeat
        out[PLANE_OFF:] = self.plane[player]
        return out

    # -- copies and hidden information ---------------------------------------------------
    def clone(self) -> ChihouSouseiState:
        other = self._copy_as(type(self))
        d = other.__dict__
        d["feat"] = self.feat.copy()
        d["rowfeat"] = self.rowfeat.copy()
        d["plane"] = self.plane.copy()
        d["rng"] = copy_rng(self.rng)  # drawn from at setup only; clones stay independent
        return other

    def sketch(self) -> Sketch:
        """A cheap copy for a bot's look-ahead (see ``Sketch``)."""
        other = self._copy_as(Sketch)
        d = other.__dict__
        d["feat"] = d["rowfeat"] = d["deckfeat"] = d["plane"] = None
        d["_legal"] = None
        d["_owned"] = 0xFF  # every seat's lists were just copied (see ``Sketch._own``)
        return other

    def _copy_as(self, cls: type[ChihouSouseiState]) -> Any:
        """A ``cls`` instance with copies of every list play mutates; the
        observation arrays and the generator are still shared."""
        other = object.__new__(cls)
        d = self.__dict__.copy()
        other.__dict__ = d
        d["deck"] = self.deck[:]
        d["row"] = self.row[:]
        d["taken"] = self.taken[:]
        d["discard"] = self.discard[:]
        d["picked"] = self.picked[:]
        d["grid"] = [g[:] for g in self.grid]
        d["tokens"] = [t[:] for t in self.tokens]
        d["cells"] = [c[:] for c in self.cells]
        d["frontier"] = [set(f) for f in self.frontier]
        d["icons"] = [i[:] for i in self.icons]
        d["ind"] = self.ind[:]
        d["region"] = self.region[:]
        d["pop"] = self.pop[:]
        d["maxtok"] = self.maxtok[:]
        d["dirty"] = self.dirty[:]
        d["pending"] = self.pending[:]
        return other

    def resample_hidden(self, player: int, rng: np.random.Generator) -> ChihouSouseiState:
        """Only the order of the undrawn deck is hidden (its contents are public).
        The deck is sorted before the shuffle, so the re-draw depends only on what
        the viewer knows and never on the true order."""
        other = self.clone()
        other.deck = redraw(other.deck, rng)
        return other

    # -- invariants ----------------------------------------------------------------------
    def check_invariants(self) -> None:
        self._check_position()
        n = self.n
        # the incrementally kept score parts (a sketch scores from these alone)
        for s in range(n):
            icons = [sum(ICONS[self.grid[s][c]][i] for c in self.cells[s][1:]) for i in range(3)]
            assert self.icons[s] == icons, f"seat {s}: icon totals drifted"
            region = region_score(self.grid[s], self.cells[s])
            assert self.region[s] == region, f"seat {s}: region score drifted"
            assert self.frontier[s] == self._frontier(s), f"seat {s}: frontier drifted"
        assert self.ind == industry_scores(self.icons), "industry scores drifted"
        if self.decision != D_OVER:
            assert self._legal_mask().any(), "no legal action at a live decision"
        if self.features:
            self._check_features()

    def _check_features(self) -> None:
        feat, rowfeat, deckfeat, plane = self._fresh_features_copy()
        self._refresh()
        assert np.allclose(feat, self.feat), "seat features drifted from the position"
        assert np.allclose(rowfeat, self.rowfeat), "row features drifted"
        assert np.allclose(deckfeat, self.deckfeat), "deck features drifted"
        assert np.array_equal(plane, self.plane), "own-board planes drifted"

    def _fresh_features_copy(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        saved = (self.pop[:], self.maxtok[:], self.dirty[:])
        result = self._fresh_features()
        self.pop, self.maxtok, self.dirty = saved
        return result

    def _check_position(self) -> None:
        """The saved fields agree with each other: the cards, the tokens and the
        pending decision.  Reads only those fields, so a load runs it on any
        save the schema accepts before the derived data is built from it."""
        n = self.n
        d = self.decision
        planning = d in PLANNING_DECISIONS
        assert 0 <= self.round <= ROUNDS, f"round {self.round}"
        assert (d == D_OVER) == (self.round == ROUNDS), "the game ends after the last round"
        assert 0 <= self.start < n, f"start player {self.start}"
        assert 0 <= self.stock <= TOTAL_TOKENS - START_TOKENS * n, f"stock {self.stock}"
        on_board = 0
        placed_cards = []
        for s in range(n):
            grid, tok, cells = self.grid[s], self.tokens[s], self.cells[s]
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
        assert on_board + self.stock == TOTAL_TOKENS, "tokens are not conserved"
        # the cards: a row of players+1 per round, each pick placed by the next migration
        row_size = n + 1
        rows_drawn = min(self.round + 1, ROUNDS)
        rows_done = self.round if planning else rows_drawn
        assert len(self.deck) == NUM_CARDS - rows_drawn * row_size, (
            f"deck of {len(self.deck)} cards in round {self.round + 1}"
        )
        assert len(self.discard) == rows_done * (row_size - n), (
            f"{len(self.discard)} discarded cards after {rows_done} planning phases"
        )
        assert len(self.picked) == n, "one picked card (or none) per player"
        cards = self.deck + self.row + self.discard + placed_cards
        if planning:
            self._check_planning()
        else:
            assert not self.row and not self.taken, "the row is cleared after planning"
            cards += [c for c in self.picked if c >= 0]
        assert sorted(cards) == list(range(NUM_CARDS)), "every card is in exactly one place"
        for s in range(n):
            placed_now = False
            if d in MIGRATION_DECISIONS:
                rel = (s - self.start) % n
                placed_now = rel < self.mig_index or (rel == self.mig_index and d != D_PLACE)
                assert (self.picked[s] < 0) == placed_now, (
                    f"seat {s}: a picked card waits until its turn to place"
                )
            expected = min(self.round + placed_now, ROUNDS)
            count = len(self.cells[s]) - 1
            assert count == expected, f"seat {s}: {count} cards, not {expected}"
        self._check_decision()

    def _check_planning(self) -> None:
        """The row and the picks so far (planning decisions only)."""
        n = self.n
        assert len(self.row) == n + 1 == len(self.taken), "the row has players+1 cards"
        assert 0 <= self.pick_index < n, f"pick index {self.pick_index}"
        due = self.pick_index + (self.decision != D_PICK)  # a bonus follows its own pick
        takers = [t for t in self.taken if t >= 0]
        pickers = {(self.start + j) % n for j in range(due)}
        assert len(takers) == len(set(takers)) and set(takers) == pickers, (
            "the row's cards are taken by the players who have picked, once each"
        )
        for s in range(n):
            expected = self.row[self.taken.index(s)] if s in takers else EMPTY
            assert self.picked[s] == expected, f"seat {s}: picked card is not its row card"

    def _check_decision(self) -> None:
        """The pending decision is one the rules can reach from this position."""
        n = self.n
        d = self.decision
        p = self.player
        if d == D_OVER:
            assert p == TERMINAL, "a finished game names no player"
            assert self.marker == EMPTY, "the start marker is returned at the end of a round"
            assert self.pick_index == n and self.mig_index == 0, "the last round was completed"
            assert not (self.fm_left or self.inc_left), "no bonus is open after the game"
            assert self.fm_seat == self.fm_src == self.placed == self.ev_cell == EMPTY, (
                "no cell or tableau is chosen after the game"
            )
            assert self.need == 0 and not self.pending, "nothing is pending after the game"
            return
        if d in PLANNING_DECISIONS:
            assert self.marker == EMPTY, "the start marker is taken at the end of planning"
            assert self.mig_index == 0, f"migration index {self.mig_index} while planning"
            assert p == (self.start + self.pick_index) % n, f"player {p} is not the picker"
            assert self.placed == self.ev_cell == EMPTY, "no card is placed while planning"
            assert self.need == 0 and not self.pending, "nothing migrates while planning"
        else:
            assert self.pick_index == n, "every player has picked before migration"
            assert 0 <= self.mig_index < n, f"migration index {self.mig_index}"
            assert p == (self.start + self.mig_index) % n, f"player {p} is not migrating"
        # the pick bonuses: 2nd and later pickers move a token, the last also grows
        if d in (D_BONUS, D_FM_SOURCE, D_FM_TARGET):
            assert self.fm_left, "a forced move is open"
            assert self.pick_index >= 1, "the first picker has no bonus"
            assert not self.inc_left or self.pick_index == n - 1, "only the last picker grows"
        else:
            assert not (self.fm_left or self.inc_left), "bonuses are open only while asked"
        if d == D_BONUS:
            assert self._forced_move_possible(), "a bonus decision offers the forced move"
        if d in (D_FM_SOURCE, D_FM_TARGET):
            assert 0 <= self.fm_seat < n, f"forced move tableau {self.fm_seat}"
            assert len(self.cells[self.fm_seat]) >= 2, "a forced move needs two cards"
            assert self.any_tableau or self.fm_seat == p, "a forced move in your own tableau"
            assert d == D_FM_TARGET or self.any_tableau, "a tableau is chosen only by option"
        else:
            assert self.fm_seat == EMPTY, "a forced move tableau outside a forced move"
        if d == D_FM_TARGET:
            assert self.fm_src in self.cells[self.fm_seat], "the forced move leaves a card"
            assert self.tokens[self.fm_seat][self.fm_src] > 0, "the forced move's card is empty"
        else:
            assert self.fm_src == EMPTY, "a forced move source outside a forced move"
        # migration: the placed card, its pull and its neighbours' events
        if d == D_PLACE:
            assert self.picked[p] >= 0 and self.placed == EMPTY, "a card is waiting to be placed"
            assert self.need == 0 and not self.pending and self.ev_cell == EMPTY, (
                "migration and events follow the placement"
            )
        elif d in MIGRATION_DECISIONS:
            self._check_placed_card()

    def _check_placed_card(self) -> None:
        """The card just placed and what it still owes (migration, events)."""
        d = self.decision
        p = self.player
        grid, tok = self.grid[p], self.tokens[p]
        placed = self.placed
        assert placed != ORIGIN and placed == self.cells[p][-1], "the placed card is the newest"
        neighbours = NEIGHBOURS[placed]
        if d == D_MIGRATE:
            sources = [nb for nb in neighbours if grid[nb] != EMPTY and tok[nb] > 0]
            assert self.need > 0 and len(sources) >= 2, "migration asks only between cards"
            assert sum(tok[c] for c in sources) > self.need, "migration asks only with a choice"
            assert tok[placed] + self.need <= POWER[grid[placed]], "migration beyond the power"
            assert not self.pending and self.ev_cell == EMPTY, "events follow the migration"
            return
        assert self.need == 0, "events come after the whole migration"
        pending = self.pending
        assert len(set(pending)) == len(pending), "an event is pending twice"
        for c in pending:
            assert c in neighbours and 0 <= grid[c] < BIG_CITY, "events are the new neighbours'"
        if d == D_EVENT_ORDER:
            assert len(pending) >= 2 and self.ev_cell == EMPTY, "the order asks between events"
            return
        cell = self.ev_cell
        assert cell in neighbours and 0 <= grid[cell] < BIG_CITY, "the event is a neighbour's"
        assert cell not in pending, "the event awaiting a choice is no longer pending"
        kind = CARD_EVENT[grid[cell]]
        asks = D_EVENT_SOURCE if kind in (E_GATHER, E_FESTIVAL) else D_EVENT_TARGET
        assert kind in CHOICE_EVENTS and d == asks, f"{EVENTS[kind]} asks no {DECISION_NAMES[d]}"
        assert len(self.event_options()) > 1, "an event asks only with a choice"

    # -- save / load ---------------------------------------------------------------------
    def _to_dict(self) -> dict[str, Any]:
        def xy(cell: int) -> list[int] | None:
            return list(CELLS[cell]) if cell >= 0 else None

        def key(card: int) -> str | None:
            return None if card < 0 else BIG_CITY_KEY if card == BIG_CITY else CARD_KEYS[card]

        from envs.core.rng import rng_to_dict

        return {
            "rng": rng_to_dict(self.rng),
            "round": self.round,
            "start_player": self.start,
            "start_marker": self.marker,
            "stock": self.stock,
            "deck": [key(c) for c in self.deck],
            "row": [key(c) for c in self.row],
            "taken_by": list(self.taken),
            "discard": [key(c) for c in self.discard],
            "picked": [key(c) for c in self.picked],
            "tableaus": [
                [
                    {"at": xy(c), "card": key(self.grid[s][c]), "tokens": self.tokens[s][c]}
                    for c in self.cells[s]
                ]
                for s in range(self.n)
            ],
            "decision": DECISION_NAMES[self.decision],
            "player": self.player,
            "pick_index": self.pick_index,
            "forced_move_left": self.fm_left,
            "increase_left": self.inc_left,
            "forced_move_tableau": self.fm_seat,
            "forced_move_source": xy(self.fm_src),
            "migration_index": self.mig_index,
            "placed": xy(self.placed),
            "migration_left": self.need,
            "pending_events": [xy(c) for c in self.pending],
            "event_card": xy(self.ev_cell),
        }

    @classmethod
    def from_dict(cls, game: Any, data: dict[str, Any]) -> ChihouSouseiState:
        """Plain construction from a save that ``saved.state_schema`` accepted; the
        position is checked before the derived data is built from it."""
        from envs.core.rng import rng_from_dict

        def card(key: str | None) -> int:
            return EMPTY if key is None else BIG_CITY if key == BIG_CITY_KEY else CARD_ID[key]

        def cell(xy: list[int] | None, field: str) -> int:
            if xy is None:
                return EMPTY
            index = CELL_INDEX.get((xy[0], xy[1]))
            if index is None:
                raise CorruptStateError(
                    f"field state.{field}: {xy} lies outside the board (|x| + |y| <= {RADIUS})"
                )
            return index

        state = cls(game)
        state._config()
        n = state.n
        state.rng = rng_from_dict(data["rng"], "state.rng")
        state.round = data["round"]
        state.start = data["start_player"]
        state.marker = data["start_marker"]
        state.stock = data["stock"]
        state.deck = [card(k) for k in data["deck"]]
        state.row = [card(k) for k in data["row"]]
        state.taken = list(data["taken_by"])
        state.discard = [card(k) for k in data["discard"]]
        state.picked = [card(k) for k in data["picked"]]
        state.grid = [[EMPTY] * NUM_CELLS for _ in range(n)]
        state.tokens = [[0] * NUM_CELLS for _ in range(n)]
        state.cells = [[] for _ in range(n)]
        for s, tableau in enumerate(data["tableaus"]):
            for i, entry in enumerate(tableau):
                c = cell(entry["at"], f"tableaus[{s}][{i}].at")
                state.grid[s][c] = card(entry["card"])
                state.tokens[s][c] = entry["tokens"]
                state.cells[s].append(c)
        state.decision = DECISION_NAMES.index(data["decision"])
        state.player = data["player"]
        state.pick_index = data["pick_index"]
        state.fm_left = data["forced_move_left"]
        state.inc_left = data["increase_left"]
        state.fm_seat = data["forced_move_tableau"]
        state.fm_src = cell(data["forced_move_source"], "forced_move_source")
        state.mig_index = data["migration_index"]
        state.placed = cell(data["placed"], "placed")
        state.need = data["migration_left"]
        state.pending = [
            cell(xy, f"pending_events[{i}]") for i, xy in enumerate(data["pending_events"])
        ]
        state.ev_cell = cell(data["event_card"], "event_card")
        state._check_position()
        state._rebuild()
        return state

    # -- text ----------------------------------------------------------------------------
    def render(self) -> str:
        from envs.chihou_sousei.render import render_state

        return render_state(self)


class Sketch(ChihouSouseiState):
    """A look-ahead copy for bots: the same rules on copies of the same lists,
    but without the observation arrays (scoring only recomputes the population
    and fullest-card counts) and with the generator shared, since the engine
    draws chance only at setup.  Legal actions come as a cached list and
    ``apply`` skips the numpy mask, so trying many moves stays cheap.  A sketch
    cannot be observed; its ``clone`` is another sketch."""

    features = False
    _legal: list[int] | None

    _owned: int  # bit s: seat s's tokens are this sketch's own; bit s + 4: its board

    def clone(self) -> Sketch:
        """Per-seat lists are shared copy-on-write (``_own``): a look-ahead
        step changes one tableau, and copying all of them dominated the cost."""
        other = object.__new__(Sketch)
        d = self.__dict__.copy()
        other.__dict__ = d
        d["deck"] = self.deck[:]
        d["row"] = self.row[:]
        d["taken"] = self.taken[:]
        d["discard"] = self.discard[:]
        d["picked"] = self.picked[:]
        d["grid"] = self.grid[:]
        d["tokens"] = self.tokens[:]
        d["cells"] = self.cells[:]
        d["frontier"] = self.frontier[:]
        d["icons"] = self.icons[:]
        d["ind"] = self.ind[:]
        d["region"] = self.region[:]
        d["pop"] = self.pop[:]
        d["maxtok"] = self.maxtok[:]
        d["dirty"] = self.dirty[:]
        d["pending"] = self.pending[:]
        d["_owned"] = 0
        self._owned = 0  # the inner lists are shared now: both sides copy before writing
        return other

    def _own(self, s: int, board: bool) -> None:
        """Copy seat ``s``'s tokens (and with ``board`` its cards, frontier and
        icons) unless this sketch already holds its own copy."""
        owned = self._owned
        if not owned >> s & 1:
            self.tokens[s] = self.tokens[s][:]
            owned |= 1 << s
        if board and not owned >> (s + 4) & 1:
            self.grid[s] = self.grid[s][:]
            self.cells[s] = self.cells[s][:]
            self.frontier[s] = set(self.frontier[s])
            self.icons[s] = self.icons[s][:]
            owned |= 1 << (s + 4)
        self._owned = owned

    def legal_actions(self) -> list[int]:
        """The legal actions, increasing (the cached list: do not mutate it)."""
        if self._legal is None:
            self._legal = [] if self.decision == D_OVER else sorted(self._legal_list())
        return self._legal

    def apply(self, action: int) -> None:
        if action not in self.legal_actions():
            raise IllegalActionError(self._illegal_message(action, self.legal_mask()))
        self._legal = None
        self._mask = None
        # an action changes the tokens of its player or of the forced move's
        # tableau, and cards only when placing (see ``_move``, ``_from_stock``, ``_place``)
        p = self.player
        if self.decision == D_PLACE or not self._owned >> p & 1:
            self._own(p, self.decision == D_PLACE)
        if self.fm_seat >= 0:
            self._own(self.fm_seat, False)
        self._apply(action)

    def place_now(self, seat: int, card: int) -> None:
        """What-if for judging a pick: ``seat`` places ``card`` at once (the
        card stays in the row too; only the scores of the result are meant)."""
        self.picked[seat] = card
        self.decision = D_PLACE
        self.player = seat
        self._legal = None
        self._mask = None

    def _refresh(self) -> None:
        dirty = self.dirty
        for s in range(self.n):
            if dirty[s]:
                self._score_seat(s)
                dirty[s] = False

    def observation(self, player: int) -> np.ndarray:
        raise TypeError("a sketch keeps no observation features; observe the real state")
