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

from meeplezoo.envs.asian_delivery import actions as A
from meeplezoo.envs.asian_delivery import layout as L
from meeplezoo.envs.asian_delivery.actions import (
    ACTION_CARDS,
    D_COMPANY,
    D_FROM,
    D_FULFIL_AREA,
    D_GROW_MARKER,
    D_GROW_TRACK,
    D_KIND,
    D_MAIN,
    D_PLACE,
    D_REQUEST,
    D_TO,
    D_UPGRADE,
    DECISIONS,
    NUM_ACTIONS,
)
from meeplezoo.envs.asian_delivery.board import (
    DISTANCE,
    NEIGHBOURS,
    NUM_AREAS,
    NUM_DISTRICTS,
    NUM_PORT_POSITIONS,
    PORT,
    PORT_TOUCH,
    port_position,
)
from meeplezoo.envs.asian_delivery.data import (
    COIN_VP,
    COINS_BY_DISTANCE,
    COLOURS,
    COMPANIES,
    DAILIES,
    DAILIES_PER_PLAYER,
    DISTRICTS,
    GROWTH_MARKERS,
    MARKERS,
    MARKET_SIZE,
    REQUESTS,
    ROUNDS,
    SHARED_DAILIES,
    SLOT_ACTIONS,
    SLOT_GAIN,
    SLOTS,
    TRANSPORT,
    WAREHOUSE,
    WORKERS,
)
from meeplezoo.envs.core.game import TERMINAL, GameState, shared_mask
from meeplezoo.envs.core.hidden import redraw
from meeplezoo.envs.core.rng import LazyRng, rng_from_dict, rng_to_dict

NK = L.NKINDS
NC = len(COLOURS)
NT = L.NT
CAT_COINS = L.BREAKDOWN.index("coins")
_TURN = frozenset((D_PLACE, D_REQUEST, D_FULFIL_AREA, D_FROM, D_TO, D_KIND, D_UPGRADE))
_GROWTH = frozenset((D_GROW_TRACK, D_GROW_MARKER))
# the action card each action decision belongs to
_CARD_OF = {
    D_REQUEST: A.FULFIL,
    D_FULFIL_AREA: A.FULFIL,
    D_FROM: A.TRANSPORT,
    D_TO: A.TRANSPORT,
    D_KIND: A.TRANSPORT,
    D_UPGRADE: A.UPGRADE,
}
MASKS_MEMO = "asian_delivery.masks"  # the game's memo (``Game.memo``) of read-only masks


def mask_of(game: Any, legal: list[int]) -> np.ndarray:
    """A shared read-only bool mask for a list of legal actions (memoised on the game)."""
    return shared_mask(game, legal, MASKS_MEMO, NUM_ACTIONS, 200_000)


class AsianDeliveryState(LazyRng, GameState):
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
        # per decision kind, its rule functions: the game's rules object (rules.py)
        return mask_of(self.game, self.game.rules.legal_of[self.v[L.I_DECISION]](self))

    def _apply(self, action: int) -> None:
        self.game.rules.apply_of[self.v[L.I_DECISION]](self, action)

    def scores(self) -> list[float]:
        """Final VP once the game is over; before that, as if it ended now (the final
        settlement played on a copy), as ``GameState.scores`` promises reward shaping."""
        v = self._scored().v
        return [float(v[L.seat(p) + L.S_VP]) for p in range(self.n)]

    def _scored(self) -> AsianDeliveryState:
        if self.is_terminal():
            return self
        return self.game.as_if_ended(self)  # the round-end rules sit above the state

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
        """Per seat, VP by category, summing to ``scores()`` (before the end, as if it
        ended now)."""
        v = self._scored().v
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
        other._rng_state = self.rng_snapshot()
        return other

    def resample_hidden(self, player: int, rng: np.random.Generator) -> AsianDeliveryState:
        """Re-shuffle the request deck (the only hidden information) and the RNG."""
        other = self.clone()
        other.deck = redraw(other.deck, rng)
        other.rng = np.random.Generator(np.random.PCG64(int(rng.integers(2**63 - 1))))
        return other

    def render(self) -> str:
        return self.game.render_state(self)  # the text view sits above the state

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
        """Plain construction: ``game.state_schema()`` has checked every field's type and range."""
        state = cls(game)
        state.v = array("i", data["v"])
        state.deck = list(data["deck"])
        state.discard = list(data["discard"])
        state.completed = [list(pile) for pile in data["completed"]]
        state.rng = rng_from_dict(data["rng"])
        state.derive_city()
        return state

    # -- invariants ------------------------------------------------------------------------
    def check_invariants(self) -> None:
        """What a per-entry range cannot say: one-hots and observed copies in step with
        the internal fields, conservation (cards, resources, markers, VP, coins) and the
        pending decision's context.  Holds after every step; a loaded save must pass it."""
        v = self.v
        assert len(v) == L.STATE_SIZE and v[0] == 0, "state vector damaged"
        self._check_city()
        self._check_requests()
        self._check_decision()
        self._check_action_cards()
        chosen = [v[L.I_COMPANY_OF + p] for p in range(self.n) if v[L.I_COMPANY_OF + p] >= 0]
        assert len(set(chosen)) == len(chosen), "two seats run the same company"
        for c in range(len(COMPANIES)):
            assert v[L.G_COMPANY_FREE + c] == (c not in chosen), "company_free out of step"
        if not self.shared_dailies:
            dailies = v[L.I_DAILY_ID : L.I_DAILY_ID + self.n * DAILIES_PER_PLAYER]
            assert len(set(dailies)) == len(dailies), "a daily card dealt twice"
        for p in range(self.n):
            self._check_seat(p)

    def _check_city(self) -> None:
        v = self.v
        layout = v[L.I_DISTRICT_AT : L.I_DISTRICT_AT + NUM_DISTRICTS].tolist()
        assert sorted(layout) == list(range(NUM_DISTRICTS)), "districts are not a permutation"
        port = v[L.I_PORT_POS]
        if not self.coins:
            terminal_at = [DISTRICTS[d].terminal for d in layout]
            assert port == port_position(terminal_at), "port not where the set-up puts it"
        _assert_one_hot(v, L.G_PORT_POS, NUM_PORT_POSITIONS, port, "city.port_position")
        touch = PORT_TOUCH[port]
        for pos, d in enumerate(layout):
            district = DISTRICTS[d]
            _assert_one_hot(v, L.G_POS_COLOUR + pos * NC, NC, district.colour, "city.colour")
            assert v[L.G_POS_TERMINAL + pos] == district.terminal, "city.terminal out of step"
            assert v[L.G_POS_DISTANCE + pos] == self.dist[pos], "city.distance out of step"
            assert v[L.G_POS_PORT_ADJ + pos] == (pos in touch), "city.port_adjacent out of step"
        if self.coins:  # every coin taken was scored by somebody
            taken = sum(
                COINS_BY_DISTANCE[self.dist[pos]] - v[L.G_POS_COINS + pos]
                for pos in range(NUM_DISTRICTS)
            )
            scored = sum(v[L.I_BREAKDOWN + p * L.NB + CAT_COINS] for p in range(self.n))
            assert taken * COIN_VP == scored, "coins taken and coin VP disagree"

    def _check_requests(self) -> None:
        """Request cards are conserved (deck + discard + market + completed = all of
        them) and the market's observed features show the cards in it."""
        v = self.v
        market = v[L.I_MARKET : L.I_MARKET + MARKET_SIZE].tolist()
        cards = self.deck + self.discard + [c for c in market if c >= 0]
        cards += [c for pile in self.completed for c in pile]
        assert sorted(cards) == list(range(len(REQUESTS))), "request cards not conserved"
        assert v[L.G_DECK] == len(self.deck) and v[L.G_DISCARD] == len(self.discard)
        if min(market) < 0:
            assert not self.deck and not self.discard, "an empty market slot beside a deck"
        for k, cid in enumerate(market):
            present = cid >= 0
            card = REQUESTS[cid] if present else None
            assert v[L.G_MARKET_PRESENT + k] == present, "market.present out of step"
            colour = card.colour if card else -1
            _assert_one_hot(v, L.G_MARKET_COLOUR + k * NC, NC, colour, "market.colour")
            shown = (v[L.G_MARKET_BASE + k], v[L.G_MARKET_ADV + k], v[L.G_MARKET_VP + k])
            printed = (card.base, card.advanced, card.vp) if card else (0, 0, 0)
            assert shown == printed, "market card features out of step"

    def _check_decision(self) -> None:
        """The pending decision, its context fields and whose turn it is agree."""
        v, n = self.v, self.n
        decision, cur, over = v[L.I_DECISION], v[L.I_CUR], v[L.I_OVER]
        rnd, start, grower = v[L.I_ROUND], v[L.I_START], v[L.I_GROWER]
        _assert_one_hot(v, L.G_DECISION, len(DECISIONS), decision, "decision")
        _assert_one_hot(v, L.G_ROUND, ROUNDS, rnd, "round")
        _assert_one_hot(v, L.G_CARD, len(ACTION_CARDS), v[L.I_CARD], "ctx.action_card")
        request_choices = MARKET_SIZE + DAILIES_PER_PLAYER
        _assert_one_hot(v, L.G_REQUEST, request_choices, v[L.I_REQUEST], "ctx.request")
        _assert_one_hot(v, L.G_FROM, NUM_AREAS, v[L.I_FROM], "ctx.transport_from")
        _assert_one_hot(v, L.G_TO, NUM_AREAS, v[L.I_TO], "ctx.transport_to")
        _assert_one_hot(v, L.G_UPCOLOUR, NC, v[L.I_UPCOLOUR], "ctx.upgrade_colour")
        _assert_one_hot(v, L.G_TRACK, NT, v[L.I_TRACK], "ctx.grow_track")
        for p in range(n):
            s = L.seat(p)
            assert v[s + L.S_TO_MOVE] == (p == cur and not over), "to_move out of step"
            assert v[s + L.S_IS_START] == (p == start), "start_player out of step"
        assert start == rnd % n, "the start player passes left once a round"
        if over:
            assert rnd == ROUNDS - 1 and grower == n, "the game ended before the last round end"
        growing = decision in _GROWTH and not over
        in_turn = decision in _TURN
        # context fields are set only while their decision is pending
        assert (v[L.I_CARD] >= 0) == in_turn, "an action card outside a turn's actions"
        assert (v[L.I_REQUEST] >= 0) == (decision == D_FULFIL_AREA), "stray chosen request"
        assert (v[L.I_FROM] >= 0) == (decision in (D_TO, D_KIND)), "stray transport source"
        assert (v[L.I_TO] >= 0) == (decision == D_KIND), "stray transport destination"
        assert v[L.G_MOVED] == 0 or decision == D_KIND, "stray transport count"
        assert v[L.I_UPCOLOUR] < 0 or decision == D_UPGRADE, "stray upgrade colour"
        assert (v[L.I_TRACK] >= 0) == (decision == D_GROW_MARKER and not over), "stray track"
        assert (v[L.G_GROW_LEFT] > 0) == growing, "growth markers left outside growth"
        assert v[L.G_ACTIONS_LEFT] == 0 or in_turn, "actions left outside a turn"
        if decision != D_PLACE:
            assert not any(v[L.G_PLACED : L.G_PLACED + NUM_DISTRICTS]), "stray placed base"
            assert v[L.I_GAIN_TO_PLACE] == 0, "gained base left unplaced after the placement"
        if growing:
            assert grower < n and cur == (start + grower) % n, "growth out of seat order"
            assert v[L.G_GROW_LEFT] <= GROWTH_MARKERS[rnd], "more growth than the round gives"
        elif not over:
            assert grower == (n if rnd > 0 else 0), "growers_done outside growth"
        passed = [v[L.seat(p) + L.S_PASSED] for p in range(n)]
        if decision == D_COMPANY:
            assert rnd == 0 and not any(passed), "company choice after the game began"
            for p in range(n):
                chosen = v[L.I_COMPANY_OF + p] >= 0
                assert chosen == (p < cur), "companies are chosen in seat order"
        elif growing or over:
            assert all(passed), "a round ended before everyone passed"
        else:  # the main phase: a passed player has no worker left
            assert not passed[cur], "a passed player is to move"
            for p in range(n):
                assert not passed[p] or v[L.seat(p) + L.S_WORKERS] == 0, "passed with workers"
            if decision == D_MAIN:
                assert v[L.seat(cur) + L.S_WORKERS] > 0, "to place a worker without one"
        if in_turn:
            self._check_turn_context(decision, cur)

    def _check_turn_context(self, decision: int, cur: int) -> None:
        """A turn's actions: the worker just placed, its slot's actions, the choices made."""
        v = self.v
        card = v[L.I_CARD]
        assert decision == D_PLACE or _CARD_OF[decision] == card, "decision not of its card"
        occupied = v[L.G_OCCUPANCY + card]
        assert occupied > 0, "a turn's card holds no worker"
        slot = occupied - 1
        assert v[L.I_SLOT_OWNER + card * SLOTS + slot] == cur, "the card's last worker is not yours"
        left = v[L.G_ACTIONS_LEFT]
        base = L.seat(cur)
        cap = v[base + L.S_TRACK + WAREHOUSE]
        wh = base + L.S_WH
        if decision == D_PLACE:
            assert left == SLOT_ACTIONS[slot], "actions spent before the base was placed"
            assert v[L.I_GAIN_TO_PLACE] <= SLOT_GAIN[slot], "more base to place than gained"
            assert v[base + L.S_RESERVE] > 0, "placing base from an empty reserve"
            for d in range(NUM_DISTRICTS):
                assert v[L.G_PLACED + d] <= 1 + v[L.G_POS_TERMINAL + d], "too much base placed"
        else:
            assert 0 < left <= SLOT_ACTIONS[slot], "actions left beyond the slot's"
        if decision == D_FULFIL_AREA:
            k = v[L.I_REQUEST]
            if k < MARKET_SIZE:
                assert v[L.I_MARKET + k] >= 0, "the chosen market slot is empty"
            else:
                assert v[base + L.S_DAILY_UP + k - MARKET_SIZE], "the chosen daily is used"
        if decision in (D_TO, D_KIND):
            src = v[L.I_FROM]
            assert sum(v[wh + src * NK : wh + src * NK + NK]) > 0, "transport from an empty area"
        if decision == D_KIND:
            src, dst = v[L.I_FROM], v[L.I_TO]
            assert dst in self.neigh[src], "transport between areas that do not touch"
            room = dst == PORT or sum(v[wh + dst * NK : wh + dst * NK + NK]) < cap
            assert room, "transport into a full warehouse"
            assert v[L.G_MOVED] < v[base + L.S_TRACK + TRANSPORT], "moved beyond the capacity"

    def _check_action_cards(self) -> None:
        """Workers fill each card's slots from the left; a card is emptied once full, so
        it is never full between turns; a seat's workers on cards and in hand are at
        most its worker level during the main phase."""
        v, n = self.v, self.n
        decision = v[L.I_DECISION]
        on_cards = [0] * n
        for c in range(len(ACTION_CARDS)):
            occupied = v[L.G_OCCUPANCY + c]
            owners = v[L.I_SLOT_OWNER + c * SLOTS : L.I_SLOT_OWNER + (c + 1) * SLOTS].tolist()
            assert all(o >= 0 for o in owners[:occupied]), "action card slots out of step"
            assert all(o < 0 for o in owners[occupied:]), "action card slots out of step"
            if decision not in _TURN:
                assert occupied < SLOTS, "a full action card was not cleared"
            for o in owners[:occupied]:
                on_cards[o] += 1
        if decision == D_MAIN or decision in _TURN:
            for p in range(n):
                s = L.seat(p)
                held = v[s + L.S_WORKERS] + on_cards[p]
                assert held <= v[s + L.S_TRACK + WORKERS], "more workers than the level"

    def _check_seat(self, p: int) -> None:
        v = self.v
        s = L.seat(p)
        company = v[L.I_COMPANY_OF + p]
        _assert_one_hot(v, s + L.S_COMPANY, len(COMPANIES), company, "company")
        steps = v[L.I_TRACK_STEP + p * NT : L.I_TRACK_STEP + (p + 1) * NT].tolist()
        placed = sum(v[s + L.S_MARKERS : s + L.S_MARKERS + NUM_DISTRICTS])
        if company < 0:  # before the choice: no company board, nothing received
            assert v[L.I_DECISION] == D_COMPANY, "a seat without a company after the set-up"
            company_fields = (
                v[s + L.S_TRACK : s + L.S_TRACK + NT].tolist()
                + v[s + L.S_TRACK_NEXT : s + L.S_TRACK_NEXT + NT].tolist()
                + v[s + L.S_TRACK_MARKERS : s + L.S_TRACK_MARKERS + NT].tolist()
                + steps
                + [v[s + L.S_MARKERS_ON_BOARD], placed, v[L.I_RECEIVED + p]]
            )
            assert not any(company_fields), "company fields set before the choice"
        else:
            tracks = COMPANIES[company].tracks
            board = 0
            for t in range(NT):
                step = steps[t]
                track = tracks[t]
                assert step < len(track), "track step out of range"
                assert v[s + L.S_TRACK + t] == track[step], "track value out of sync"
                nxt = track[min(step + 1, len(track) - 1)]
                assert v[s + L.S_TRACK_NEXT + t] == nxt, "track next value out of sync"
                assert v[s + L.S_TRACK_MARKERS + t] == len(track) - 1 - step
                board += len(track) - 1 - step
            assert v[s + L.S_MARKERS_ON_BOARD] == board
            # removed, not yet placed (the game can end right after the last marker is placed)
            decision = v[L.I_DECISION]
            in_hand = int(decision == D_GROW_MARKER and v[L.I_CUR] == p and not v[L.I_OVER])
            assert placed + board + in_hand == MARKERS, "interest markers not conserved"
        assert v[s + L.S_WORKERS] <= v[s + L.S_TRACK + WORKERS], "more workers than the level"
        cap = v[s + L.S_TRACK + WAREHOUSE]
        held = v[s + L.S_RESERVE]
        for a in range(NUM_AREAS):
            start = s + L.S_WH + a * NK
            stored = sum(v[start : start + NK])
            if a != PORT:
                assert stored <= cap, f"warehouse over capacity at area {a}"
            held += stored
        assert held == v[L.I_RECEIVED + p] - v[L.I_RETURNED + p], "resources not conserved"
        breakdown = v[L.I_BREAKDOWN + p * L.NB : L.I_BREAKDOWN + (p + 1) * L.NB]
        assert sum(breakdown) == v[s + L.S_VP], "VP out of sync with its breakdown"
        counts = [0] * NC
        for card in self.completed[p]:
            counts[REQUESTS[card].colour] += 1
        assert counts == v[s + L.S_COMPLETED : s + L.S_COMPLETED + NC].tolist()
        assert sum(counts) == v[s + L.S_COMPLETED_TOTAL], "completed_total out of sync"
        for k in range(DAILIES_PER_PLAYER):
            card = self.daily_cards[v[L.I_DAILY_ID + p * DAILIES_PER_PLAYER + k]]
            shown = (v[s + L.S_DAILY_BASE + k], v[s + L.S_DAILY_VP + k])
            assert shown == (card.base, card.vp), "daily features out of step with the card"


def _assert_one_hot(v: array, start: int, size: int, index: int, block: str) -> None:
    """``v[start:start+size]`` is the one-hot of ``index`` (all zero for -1)."""
    expected = [0] * size
    if index >= 0:
        expected[index] = 1
    assert v[start : start + size].tolist() == expected, f"{block} out of step with its index"
