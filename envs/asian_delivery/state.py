"""The state of a game of Asian Delivery and its bookkeeping.

All numbers live in ``self.v`` (see ``layout.py``); only the request deck, the
discard pile and the completed piles are Python lists.  The rules themselves
are in ``setup.py`` (the city and the deal), ``turn.py`` (the main phase and
the three actions) and ``round_end.py`` (refill, growth, settlements); this
module holds the state class, its helpers shared by those modules, saving,
loading, invariants and the observation.
"""

from __future__ import annotations

from array import array
from typing import Any

import numpy as np

from envs.asian_delivery import layout as L
from envs.asian_delivery.actions import D_PLACE, DECISIONS, NUM_ACTIONS
from envs.asian_delivery.board import (
    DISTANCE,
    NEIGHBOURS,
    NUM_AREAS,
    NUM_DISTRICTS,
    NUM_PORT_POSITIONS,
    PORT,
)
from envs.asian_delivery.data import (
    COMPANIES,
    DAILIES,
    DAILIES_PER_PLAYER,
    DISTRICTS,
    MARKERS,
    MARKET_SIZE,
    REQUESTS,
    SHARED_DAILIES,
    WAREHOUSE,
)
from envs.core.errors import CorruptStateError
from envs.core.game import TERMINAL, GameState
from envs.core.rng import rng_from_dict, rng_to_dict

NK = L.NKINDS
_MASKS: dict[tuple[int, ...], np.ndarray] = {}
# Per decision kind: its legal-actions and apply functions, registered by rules.py
LEGAL: list = []
APPLY: list = []


def mask_of(legal: list[int]) -> np.ndarray:
    """A shared read-only bool mask for a list of legal actions (memoised)."""
    key = tuple(legal)
    mask = _MASKS.get(key)
    if mask is None:
        mask = np.zeros(NUM_ACTIONS, dtype=bool)
        mask[list(key)] = True
        mask.flags.writeable = False
        if len(_MASKS) < 200_000:
            _MASKS[key] = mask
    return mask


class AsianDeliveryState(GameState):
    """One position.  Build with ``AsianDeliveryGame.new_initial_state``."""

    # set by setup.new_state / from_dict, shared (immutable) between clones
    n: int
    coins: bool
    shared_dailies: bool
    growth_first: bool
    random_companies: bool
    neigh: tuple[tuple[int, ...], ...]
    dist: tuple[int, ...]
    colour_positions: tuple[tuple[int, ...], ...]
    daily_cards: tuple

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.n = game.num_players
        self.coins = bool(game.config["distance_coins"])
        self.shared_dailies = bool(game.config["shared_port_dailies"])
        self.growth_first = bool(game.config["growth_before_refill"])
        self.random_companies = bool(game.config["random_companies"])
        self.daily_cards = SHARED_DAILIES if self.shared_dailies else DAILIES
        self.v = array("i", bytes(4 * L.STATE_SIZE))
        self.deck: list[int] = []
        self.discard: list[int] = []
        self.completed: list[list[int]] = [[] for _ in range(self.n)]
        self._rng: np.random.Generator | None = None
        self._rng_state: dict | None = None

    @property
    def rng(self) -> np.random.Generator:
        """The state's generator; a clone materialises its copy on first use."""
        if self._rng is None:
            generator = np.random.Generator(np.random.PCG64())
            generator.bit_generator.state = self._rng_state
            self._rng = generator
            self._rng_state = None
        return self._rng

    @rng.setter
    def rng(self, generator: np.random.Generator) -> None:
        self._rng = generator
        self._rng_state = None

    def derive_city(self) -> None:
        """Tables that follow from the port position and the district layout."""
        v = self.v
        pos = v[L.I_PORT_POS]
        self.neigh = NEIGHBOURS[pos]
        self.dist = DISTANCE[pos]
        self.colour_positions = tuple(
            tuple(d for d in range(NUM_DISTRICTS) if DISTRICTS[v[L.I_DISTRICT_AT + d]].colour == c)
            for c in range(4)
        )

    # -- small helpers the rule modules share -------------------------------------------
    def set_decision(self, kind: int) -> None:
        v = self.v
        v[L.G_DECISION + v[L.I_DECISION]] = 0
        v[L.I_DECISION] = kind
        v[L.G_DECISION + kind] = 1

    def set_current(self, p: int) -> None:
        v = self.v
        v[L.seat(v[L.I_CUR]) + L.S_TO_MOVE] = 0
        v[L.I_CUR] = p
        v[L.seat(p) + L.S_TO_MOVE] = 1

    def set_onehot(self, internal: int, block: int, value: int) -> None:
        """Set an index stored at ``internal`` and its one-hot block (-1 = none)."""
        v = self.v
        old = v[internal]
        if old >= 0:
            v[block + old] = 0
        v[internal] = value
        if value >= 0:
            v[block + value] = 1

    def gain_vp(self, p: int, category: int, amount: int) -> None:
        v = self.v
        v[L.I_BREAKDOWN + p * L.NB + category] += amount
        v[L.seat(p) + L.S_VP] += amount

    def track_value(self, p: int, track: int) -> int:
        return self.v[L.seat(p) + L.S_TRACK + track]

    def total_at(self, p: int, area: int) -> int:
        start = L.seat(p) + L.S_WH + area * NK
        return sum(self.v[start : start + NK])

    def request_of(self, p: int, k: int) -> tuple[int, int, int, int]:
        """(colour, base, advanced, vp) of request choice ``k`` (market slot or daily)."""
        if k < MARKET_SIZE:
            card = REQUESTS[self.v[L.I_MARKET + k]]
            return card.colour, card.base, card.advanced, card.vp
        card = self.daily_cards[self.v[L.I_DAILY_ID + p * DAILIES_PER_PLAYER + k - MARKET_SIZE]]
        return -1, card.base, 0, card.vp

    # -- engine interface -------------------------------------------------------------
    def current_player(self) -> int:
        v = self.v
        return TERMINAL if v[L.I_OVER] else v[L.I_CUR]

    def is_terminal(self) -> bool:
        return self.v[L.I_OVER] == 1

    def _legal_mask(self) -> np.ndarray:
        return mask_of(LEGAL[self.v[L.I_DECISION]](self))

    def _apply(self, action: int) -> None:
        APPLY[self.v[L.I_DECISION]](self, action)

    def scores(self) -> list[float]:
        v = self.v
        return [float(v[L.seat(p) + L.S_VP]) for p in range(self.n)]

    def seat_roles(self) -> list[str] | None:
        """Each seat's company key once chosen (``"-"`` before the choice)."""
        v = self.v
        return [
            COMPANIES[v[L.I_COMPANY_OF + p]].key if v[L.I_COMPANY_OF + p] >= 0 else "-"
            for p in range(self.n)
        ]

    def rank_keys(self) -> list[tuple]:
        v = self.v
        return [
            (v[L.seat(p) + L.S_VP], v[L.seat(p) + L.S_COMPLETED_TOTAL]) for p in range(self.n)
        ]

    def score_breakdown(self) -> list[dict[str, float]]:
        v = self.v
        result = []
        for p in range(self.n):
            row = {
                name: float(v[L.I_BREAKDOWN + p * L.NB + i]) for i, name in enumerate(L.BREAKDOWN)
            }
            row["total"] = float(v[L.seat(p) + L.S_VP])
            result.append(row)
        return result

    def decision_name(self) -> str:
        return "game_over" if self.is_terminal() else DECISIONS[self.v[L.I_DECISION]]

    def observation(self, player: int) -> np.ndarray:
        return L.observe(self.v, player, self.n)

    def clone(self) -> AsianDeliveryState:
        other = object.__new__(AsianDeliveryState)
        other.__dict__.update(self.__dict__)
        other.v = self.v[:]
        other.deck = self.deck[:]
        other.discard = self.discard[:]
        other.completed = [c[:] for c in self.completed]
        other._rng = None  # copied lazily: chance is rare, clones are many
        other._rng_state = (
            self._rng.bit_generator.state if self._rng is not None else self._rng_state
        )
        return other

    def resample_hidden(self, player: int, rng: np.random.Generator) -> AsianDeliveryState:
        """Re-shuffle the request deck (the only hidden information) and the RNG."""
        other = self.clone()
        other.deck = [int(c) for c in rng.permutation(sorted(other.deck))]
        other.rng = np.random.Generator(np.random.PCG64(int(rng.integers(2**63 - 1))))
        return other

    def render(self) -> str:
        from envs.asian_delivery.render import render_text

        return render_text(self)

    # -- saving ---------------------------------------------------------------------------
    def _to_dict(self) -> dict[str, Any]:
        return {
            "v": self.v.tolist(),
            "deck": list(self.deck),
            "discard": list(self.discard),
            "completed": [list(c) for c in self.completed],
            "rng": rng_to_dict(self.rng),
        }

    @classmethod
    def from_dict(cls, game: Any, data: dict[str, Any]) -> AsianDeliveryState:
        state = cls(game)
        values = data["v"]
        if not isinstance(values, list) or len(values) != L.STATE_SIZE:
            raise CorruptStateError(
                f"{game.name}: saved 'v' must be a list of {L.STATE_SIZE} integers"
            )
        if not all(type(x) is int for x in values):
            raise CorruptStateError(f"{game.name}: saved 'v' holds non-integers")
        state.v = array("i", values)

        def int_list(x: Any, what: str) -> list[int]:
            if not isinstance(x, list) or not all(type(c) is int for c in x):
                raise CorruptStateError(f"{game.name}: saved {what} must be a list of integers")
            return list(x)

        state.deck = int_list(data["deck"], "deck")
        state.discard = int_list(data["discard"], "discard")
        completed = data["completed"]
        if not isinstance(completed, list) or len(completed) != state.n:
            raise CorruptStateError(f"{game.name}: saved completed piles do not match players")
        state.completed = [int_list(c, "completed pile") for c in completed]
        state.rng = rng_from_dict(data["rng"])
        if not 0 <= state.v[L.I_PORT_POS] < NUM_PORT_POSITIONS or not all(
            0 <= state.v[L.I_DISTRICT_AT + d] < NUM_DISTRICTS for d in range(NUM_DISTRICTS)
        ):
            raise CorruptStateError(f"{game.name}: saved city layout is damaged")
        state.derive_city()
        return state

    # -- invariants ------------------------------------------------------------------------
    def check_invariants(self) -> None:
        v, n = self.v, self.n
        assert len(v) == L.STATE_SIZE and v[0] == 0, "state vector damaged"
        assert v[L.I_OVER] in (0, 1)
        assert 0 <= v[L.I_DECISION] < len(DECISIONS), "bad decision kind"
        assert sum(v[L.G_DECISION : L.G_DECISION + len(DECISIONS)]) == 1
        assert v[L.G_DECISION + v[L.I_DECISION]] == 1, "decision one-hot out of sync"
        assert 0 <= v[L.I_CUR] < n and 0 <= v[L.I_START] < n, "bad seat"
        assert 0 <= v[L.I_ROUND] < 6
        assert sorted(v[L.I_DISTRICT_AT + d] for d in range(NUM_DISTRICTS)) == list(
            range(NUM_DISTRICTS)
        ), "districts are not a permutation"
        # request cards are conserved: deck + discard + market + completed piles = all 40
        market = [v[L.I_MARKET + k] for k in range(MARKET_SIZE) if v[L.I_MARKET + k] >= 0]
        cards = self.deck + self.discard + market + [c for pile in self.completed for c in pile]
        assert sorted(cards) == list(range(len(REQUESTS))), "request cards not conserved"
        assert v[L.G_DECK] == len(self.deck) and v[L.G_DISCARD] == len(self.discard)
        for k in range(MARKET_SIZE):
            assert v[L.G_MARKET_PRESENT + k] == (v[L.I_MARKET + k] >= 0)
        for c in range(3):  # action cards: left-justified slots
            occ = v[L.G_OCCUPANCY + c]
            assert 0 <= occ <= 3
            owners = [v[L.I_SLOT_OWNER + c * 3 + s] for s in range(3)]
            assert all(o >= 0 for o in owners[:occ]) and all(o < 0 for o in owners[occ:])
            if v[L.I_DECISION] == 1 or v[L.I_DECISION] >= 9:  # between turns: never full
                assert occ < 3, "a full action card was not cleared"
        gain = v[L.I_GAIN_TO_PLACE]
        assert gain >= 0, "negative gained base to place"
        if gain:
            assert v[L.I_DECISION] == D_PLACE, "gained base left unplaced after the placement step"
            assert gain <= v[L.seat(v[L.I_CUR]) + L.S_RESERVE], "gained base not in the reserve"
        for p in range(n):
            s = L.seat(p)
            assert v[s + L.S_PRESENT] == 1
            company = v[L.I_COMPANY_OF + p]
            if company < 0:
                assert v[L.I_ROUND] == 0 and v[L.I_DECISION] == 0
                continue
            tracks = COMPANIES[company].tracks
            board = 0
            for t in range(4):
                step = v[L.I_TRACK_STEP + p * 4 + t]
                assert 0 <= step < len(tracks[t]), "track step out of range"
                assert v[s + L.S_TRACK + t] == tracks[t][step], "track value out of sync"
                assert v[s + L.S_TRACK_MARKERS + t] == len(tracks[t]) - 1 - step
                board += len(tracks[t]) - 1 - step
            assert v[s + L.S_MARKERS_ON_BOARD] == board
            placed = sum(v[s + L.S_MARKERS : s + L.S_MARKERS + NUM_DISTRICTS])
            # removed, not yet placed (the game can end right after the last marker is placed)
            in_hand = int(v[L.I_DECISION] == 10 and v[L.I_CUR] == p and not v[L.I_OVER])
            assert placed + board + in_hand == MARKERS, "interest markers not conserved"
            assert 0 <= v[s + L.S_WORKERS] <= v[s + L.S_TRACK + 3] <= 5
            cap = v[s + L.S_TRACK + WAREHOUSE]
            held = v[s + L.S_RESERVE]
            assert held >= 0
            for a in range(NUM_AREAS):
                start = s + L.S_WH + a * NK
                kinds = v[start : start + NK]
                assert min(kinds) >= 0, "negative resources"
                if a != PORT:
                    assert sum(kinds) <= cap, f"warehouse over capacity at area {a}"
                held += sum(kinds)
            assert held == v[L.I_RECEIVED + p] - v[L.I_RETURNED + p], "resources not conserved"
            breakdown = v[L.I_BREAKDOWN + p * L.NB : L.I_BREAKDOWN + (p + 1) * L.NB]
            assert sum(breakdown) == v[s + L.S_VP] and min(breakdown) >= 0, "VP out of sync"
            counts = [0, 0, 0, 0]
            for card in self.completed[p]:
                counts[REQUESTS[card].colour] += 1
            assert counts == list(v[s + L.S_COMPLETED : s + L.S_COMPLETED + 4])
            assert sum(counts) == v[s + L.S_COMPLETED_TOTAL]
            for k in range(DAILIES_PER_PLAYER):
                assert 0 <= v[L.I_DAILY_ID + p * DAILIES_PER_PLAYER + k] < len(self.daily_cards)
