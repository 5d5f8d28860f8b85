"""The engine: one position of 地方創生 (``ChihouSouseiState``).

The position is plain lists of ints (one 145-cell grid per player) plus the
pending decision.  Compound turns are split into small decisions (see
``observation.DECISIONS``).  Only these steps are made automatically:
migration when one card holds the sources or every available token must
move, the last pending event, an event whose choice has one option, a pick
bonus with nothing possible, and the last picker's compulsory population
increase once the forced move is made, declined or impossible.  Every other
decision is asked even with a single legal action (a forced move's only
target, for example).

The rules live in one module per part of a round, each decision as its
options (``*_options``) and its effect (``play_*``): ``planning`` (picks,
forced move, population increase), ``migration`` (placement, pulling
tokens), ``events`` (the neighbours' events) and ``rounds`` (the row, turn
and round changes, game end); ``tokens`` moves tokens.  ``invariants``
checks a position, ``saved`` converts it to and from a save.  The speed
caches (frontiers, score parts, the observation arrays) are in ``caches``,
kept up to date through its hooks; bots look ahead on a ``sketch.Sketch``,
the same rules without the observation arrays.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from meeplezoo.envs.chihou_sousei import caches, events, rounds
from meeplezoo.envs.chihou_sousei.actions import NUM_ACTIONS
from meeplezoo.envs.chihou_sousei.board import NUM_CELLS, ORIGIN
from meeplezoo.envs.chihou_sousei.data import BIG_CITY, NUM_CARDS
from meeplezoo.envs.chihou_sousei.decisions import (
    D_OVER,
    D_PICK,
    DECISION_NAMES,
    EMPTY,
    START_TOKENS,
    TOTAL_TOKENS,
)
from meeplezoo.envs.chihou_sousei.invariants import check_position
from meeplezoo.envs.chihou_sousei.saved import load_fields, save_fields
from meeplezoo.envs.core.game import GameState, shared_mask
from meeplezoo.envs.core.hidden import redraw
from meeplezoo.envs.core.rng import copy_rng

# read-only masks by options tuple, the game's memo: a lookup costs less than building the mask
MASKS_MEMO = "chihou_sousei.masks"
MASK_MEMO_CAP = 50_000


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
        caches.rebuild(self)
        rounds.start_round(self)

    def _config(self) -> None:
        game = self.game
        self.n = game.num_players
        self.mode = game.config["population_scoring"] == "mode"
        self.any_tableau = game.config["forced_move_any_player"]

    def _reset_turn_fields(self) -> None:
        self.decision = D_PICK
        self.player = 0
        self.pick_index = 0
        self.fm_left = False  # the forced move is still open to the picker
        self.inc_left = False  # the last picker's increase is still due
        self.fm_seat = EMPTY  # the forced move's tableau
        self.fm_src = EMPTY  # the forced move's source cell
        self.mig_index = 0
        self.placed = EMPTY  # the cell of the card being placed
        self.need = 0  # tokens still to pull onto it
        self.pending: list[int] = []  # cells whose events are still to resolve
        self.ev_cell = EMPTY  # the cell whose event awaits a choice

    # -- the engine interface ------------------------------------------------------
    def current_player(self) -> int:
        return self.player

    def is_terminal(self) -> bool:
        return self.decision == D_OVER

    def decision_name(self) -> str:
        return DECISION_NAMES[self.decision]

    def _legal_mask(self) -> np.ndarray:
        # the decision's options (the game's rules object, ``rules.py``), as a shared mask
        return shared_mask(self.game, self.game.rules.legal_of[self.decision](self),
                           MASKS_MEMO, NUM_ACTIONS, MASK_MEMO_CAP, item_writes=NUM_ACTIONS)

    def _apply(self, action: int) -> None:
        self.game.rules.apply_of[self.decision](self, action)

    def event_options(self, cell: int | None = None) -> list[int]:
        """Cells the placing player may choose for the event of ``cell``
        (default: the event awaiting a choice); empty for choice-free events."""
        return events.event_options(self, self.ev_cell if cell is None else cell)

    # -- scores --------------------------------------------------------------------------
    def score_parts(self) -> list[tuple[int, int, int]]:
        """(population, industry, region) per seat, as if the game ended now."""
        caches.refresh(self)
        return [(self.pop[s], self.ind[s], self.region[s]) for s in range(self.n)]

    def score_totals(self) -> list[int]:
        """Total per seat, as if the game ended now (a sketch's cheap scoring)."""
        if True in self.dirty:  # bots score every position they try: keep it lean
            caches.refresh(self)
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

    def observation(self, player: int) -> np.ndarray:
        return caches.observe(self, player)

    # -- copies and hidden information ---------------------------------------------------
    def clone(self) -> ChihouSouseiState:
        other = self._copy_as(type(self))
        d = other.__dict__
        d["feat"] = self.feat.copy()
        d["rowfeat"] = self.rowfeat.copy()
        d["plane"] = self.plane.copy()
        d["rng"] = copy_rng(self.rng)  # drawn from at setup only; clones stay independent
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
        d["pending"] = self.pending[:]
        caches.copy_caches(d, self)
        return other

    def resample_hidden(self, player: int, rng: np.random.Generator) -> ChihouSouseiState:
        """Only the order of the undrawn deck is hidden (its contents are public).
        The deck is sorted before the shuffle, so the re-draw depends only on what
        the viewer knows and never on the true order."""
        other = self.clone()
        other.deck = redraw(other.deck, rng)
        return other

    # -- invariants, save / load, text -------------------------------------------------
    def check_invariants(self) -> None:
        check_position(self)
        caches.check_caches(self)
        if self.decision != D_OVER:
            assert self._legal_mask().any(), "no legal action at a live decision"
        if self.features:
            caches.check_features(self)

    def _to_dict(self) -> dict[str, Any]:
        return save_fields(self)

    @classmethod
    def from_dict(cls, game: Any, data: dict[str, Any]) -> ChihouSouseiState:
        """Plain construction from a save that ``saved.state_schema`` accepted; the
        position is checked before the caches are built from it."""
        state = cls(game)
        state._config()
        load_fields(state, data)
        check_position(state)
        caches.rebuild(state)
        return state

    def render(self) -> str:
        return self.game.render_state(self)  # the text view sits above the state
