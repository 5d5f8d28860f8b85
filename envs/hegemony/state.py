"""The game state: every field of a Hegemony position, as plain lists of ints.

Seats 0..3 are the classes WC, MC, CC and the State (``actions.WC`` ...).  Rules live
in the phase modules (``turn``, ``workers``, ``economy``, ``politics``, ``production``);
this module only holds the fields, the set-up of §1 and the saved form.  Every field is
JSON-safe as it stands, so saving is a copy and ``state_schema`` (``saved.py``) checks
each one on load.

Encodings:
- a worker is ``cls * 6 + kind`` (cls 0 WC, 1 MC; kind 0 unskilled, 1 + industry);
  ``-1`` is an empty slot;
- a company seat (``actions.SEAT_NAMES``) holds a card index of ``data.COMPANIES`` or -1;
- a policy section is 0/1/2 for A/B/C; a bill is ``owner * 3 + section`` or -1.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any

import numpy as np

from meeplezoo.envs.core.agenda import AgendaState, Item
from meeplezoo.envs.core.game import GameState
from meeplezoo.envs.core.rng import LazyRng, new_rng, rng_from_dict, rng_to_dict
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony.actions import MAX_SLOTS, NUM_SEATS, ROLE_NAMES, catalogue

if TYPE_CHECKING:
    from meeplezoo.envs.hegemony.game import HegemonyGame

NO_WORKER = -1
KINDS = 6  # unskilled + 5 industries


def worker(cls: int, kind: int) -> int:
    return cls * KINDS + kind


def worker_class(w: int) -> int:
    return w // KINDS


def worker_kind(w: int) -> int:
    return w % KINDS


# name -> how deep its lists nest (0: an int/bool/str, 1: a list of them, 2: a list of lists)
FIELDS: dict[str, int] = {
    # round and turn
    "round": 0, "turn_pass": 0, "main_done": 0, "free_used": 0,
    "agenda": 2, "ctx": 0,
    # how the position arose: the set-up seed and every action since (a save is checked by
    # replaying them, so a loaded game is always one that legal play reaches)
    "origin_seed": 0, "history": 1,
    # policies and bills (§3.1, §10)
    "policies": 1, "bills": 1, "markers_used": 1,
    # money, loans, points (seat-indexed; CC's entry of ``money`` is its Revenue)
    "money": 1, "capital": 0, "loans": 1, "vp": 1, "vp_sources": 2, "influence": 1, "minted": 0,
    # voting cubes (WC, MC, CC)
    "bag": 1, "cube_supply": 1,
    # WC / MC boards
    "prosperity": 1, "unemployed": 2, "unions": 1, "goods": 2, "mc_storage": 1,
    # CC board
    "cc_storage": 1, "ftz": 1, "storage_tiles": 1, "wealth": 0, "prices": 2,
    # State board
    "legitimacy": 1, "legit_tokens": 1, "public_services": 1, "state_goods": 1,
    "benefits": 2, "demonstration": 0,
    # companies, one entry per seat
    "seat_card": 1, "seat_wage": 1, "seat_workers": 2, "seat_committed": 2,
    "seat_machinery": 1, "seat_strike": 1, "seat_face_up": 1,
    # decks (each a list, the top card last) and face-up cards
    "hands": 2, "action_decks": 2, "action_discard": 2,
    "cc_deck": 1, "cc_market": 1, "mc_deck": 1, "mc_market": 1, "company_discard": 1,
    "deal_deck": 1, "deals": 1, "export_deck": 1, "export": 0,
    "immigration": 1, "immigration_seen": 0,
    "event_deck": 1, "events": 1, "agenda_deck": 1, "agenda_card": 0, "last_agenda": 0,
}

# ``clone``'s copy depth per field: ints as they are, lists (the agenda's items are tuples)
# copied, lists of lists copied two deep; ``ctx`` is a dict.
_PLAIN_FIELDS = tuple(n for n, depth in FIELDS.items() if depth == 0 and n != "ctx")
_LIST_FIELDS = tuple(n for n, depth in FIELDS.items() if depth == 1 or n == "agenda")
_NESTED_FIELDS = tuple(n for n, depth in FIELDS.items() if depth == 2 and n != "agenda")
# each group's values read at once (C loops: the clone runs for every look-ahead position)
_PLAIN_OF = operator.itemgetter(*_PLAIN_FIELDS)
_LISTS_OF = operator.itemgetter(*_LIST_FIELDS)
_NESTED_OF = operator.itemgetter(*_NESTED_FIELDS)

# What a state holds besides its fields (set by ``__init__`` and ``clone``).  A state holding
# exactly these and the fields is cloned by copying its dict whole (the plain fields, the game,
# the shared mask and legal actions, ``_tdirty``), then replacing every mutable value.
_OWN = ("game", "_mask", "_legal", "_dirty", "_tdirty", "_obs_memo", "_rng", "_rng_state",
        "turn_memo", "query_memo")
_CLONE_KEYS = len(FIELDS) + len(_OWN)

# an all-False mask per seat, copied for each decision (the sizes never change)
_EMPTY_MASKS = [np.zeros(catalogue(role).size, dtype=bool) for role in ROLE_NAMES]
# up to this many legal actions (most decisions have a few) are set one by one in a mask
_SET_ONE_BY_ONE = 24
BENEFIT_ITEMS = ("money", "food", "lux", "health", "edu", "influence", "cubes")
# Where VP come from, per class (``board.score`` books every change; the breakdown and the
# balance report read it).
VP_SOURCES = ("bills", "prosperity", "exports", "public_services", "benefits", "cards",
              "events", "demonstration", "unions", "wealth", "legitimacy", "agenda",
              "loans", "policies", "stored", "money")


class HegemonyState(LazyRng, AgendaState, GameState):
    """One position.  Flow: the agenda (``turn.build_agenda``, held by the game's rules
    object: ``state.game.rules.agenda``) decides who acts next."""

    game: HegemonyGame

    def __init__(self, game: HegemonyGame) -> None:
        GameState.__init__(self, game)
        self._dirty = [0, 0, 0, 0]
        self._tdirty = 0
        self._legal: list[int] | None = []
        # the observation's memo of this game's last encoding (``observation.StateMemo``): not a
        # field, never saved or compared; a clone starts without one
        self._obs_memo: Any = None
        self.rng = new_rng(None)  # a clone copies it lazily (``LazyRng``)
        # Scratch of one legality check, None outside it: while a decision's legal actions are
        # computed the position stands still, so costly answers are kept meanwhile.  They live
        # on the state, never at module level, so two games in two threads (the web server's
        # tables) never read each other's.  Not fields: never saved, compared or cloned.
        # - ``turn_memo``: while ``turn.main_actions_legal`` lists the card plays, a class's
        #   basic action's legality under the same modifiers, by (class, action, modifiers)
        #   (``effects_basic.can_basic_as``; set aside while money is, ``effects._can_after``).
        # - ``query_memo``: while any decision's legal actions are computed
        #   (``board.legality_memo``), the costlier pure queries of workers and seats
        #   (``board.employed_workers``, ``workers._slot_sources``), by query and arguments.
        self.turn_memo: dict[tuple, bool] | None = None
        self.query_memo: dict[tuple, Any] | None = None

    # -- the saved form -------------------------------------------------------
    def _to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rng": rng_to_dict(self.rng)}
        for name, depth in FIELDS.items():
            value = getattr(self, name)
            if name == "ctx":
                out[name] = dict(value)
            elif depth == 2:
                out[name] = [list(v) for v in value]
            elif depth == 1:
                out[name] = list(value)
            else:
                out[name] = value
        return out

    @classmethod
    def from_dict(cls, game: HegemonyGame, data: dict[str, Any]) -> HegemonyState:
        state = cls(game)
        state.rng = rng_from_dict(data["rng"])
        for name, depth in FIELDS.items():
            value = data[name]
            if name == "ctx":
                value = dict(value)
            elif name == "agenda":
                value = [tuple(item) for item in value]
            elif depth == 2:
                value = [list(v) for v in value]
            elif depth == 1:
                value = list(value)
            setattr(state, name, value)
        return state

    def clone(self) -> HegemonyState:
        """An independent copy: every field's lists copied (``FIELDS`` says how deep), the
        generator's state kept for a lazy copy, the cached legal actions shared."""
        new = HegemonyState.__new__(HegemonyState)
        src = self.__dict__
        if len(src) == _CLONE_KEYS:  # the fields and ``_OWN`` only: one C copy, then the lists
            out = new.__dict__ = src.copy()
        else:  # a state given attributes of its own: they stay behind
            out = new.__dict__
            out["game"] = self.game
            out["_mask"] = self._mask
            out["_legal"] = self._legal
            out["_tdirty"] = self._tdirty
            out.update(zip(_PLAIN_FIELDS, _PLAIN_OF(src)))
        out["_dirty"] = list(self._dirty)
        out["_obs_memo"] = None
        out["turn_memo"] = out["query_memo"] = None  # a clone is outside its source's check
        out["_rng"] = None
        out["_rng_state"] = self.rng_snapshot()
        out.update(zip(_LIST_FIELDS, map(list, _LISTS_OF(src))))
        out.update(zip(_NESTED_FIELDS, [list(map(list, rows)) for rows in _NESTED_OF(src)]))
        out["ctx"] = dict(src["ctx"])
        return new

    def _apply(self, action: int) -> None:
        self.history.append(action)
        self._run(action)

    # -- the GameState hooks that the phase modules fill -----------------------
    def _legal_mask(self) -> np.ndarray:
        mask = _EMPTY_MASKS[self.agenda[-1][1]].copy()
        legal = self.pending()
        if len(legal) <= _SET_ONE_BY_ONE:
            for action in legal:  # cheaper than numpy turning a short list into an index
                mask[action] = True
        else:
            mask[legal] = True
        return mask

    def scores(self) -> list[float]:
        """Final VP once the game is over; before that, as if it ended now (§9's final
        scoring played on a copy), as ``GameState.scores`` promises reward shaping."""
        return [float(v) for v in self._scored().vp]

    def _scored(self) -> HegemonyState:
        if not self.agenda:
            return self
        return self.game.as_if_ended(self)

    def decision_name(self) -> str:
        if not self.agenda:
            return "game_over"
        return self.agenda_rules.name(self.agenda[-1][0])

    # The rules above the state (the encoder, the text view, the final scoring, the
    # invariants, the hidden-information re-deal) are reached through the game, the top of
    # the package, which imports them: no module here imports one above it.
    def observation(self, player: int) -> np.ndarray:
        return self.game.encode(self, player)

    def render(self) -> str:
        return self.game.render_state(self)

    def render_for(self, viewer: int) -> str:
        return self.game.render_state(self, viewer)

    def rank_keys(self) -> list[tuple]:
        return self.game.rank_keys_of(self)

    def score_breakdown(self) -> list[dict[str, float]]:
        """Per class, its VP by source (``VP_SOURCES``), summing to the total of ``scores``
        (before the end, as if it ended now)."""
        scored = self._scored()
        return [{"total": float(scored.vp[c]),
                 **{name: float(v) for name, v in zip(VP_SOURCES, scored.vp_sources[c])}}
                for c in range(4)]

    def check_invariants(self) -> None:
        self.game.check_invariants(self)

    def resample_hidden(self, player: int, rng: np.random.Generator) -> HegemonyState:
        return self.game.resample_hidden(self, player, rng)

    def top(self) -> Item:
        return self.agenda[-1]


def empty_state(game: HegemonyGame) -> HegemonyState:
    """Every field at its zero value (set-up fills them)."""
    st = HegemonyState(game)
    st.round, st.turn_pass, st.main_done, st.free_used = 1, 0, 0, 0
    st.agenda, st.ctx = [], {}
    st.origin_seed, st.history = 0, []
    st.policies, st.bills, st.markers_used = list(D.START_POLICIES), [-1] * 7, [0] * 4
    st.money, st.capital, st.loans = [0] * 4, 0, [0] * 4
    st.vp, st.influence, st.minted = [0] * 4, [0] * 4, 0
    st.vp_sources = [[0] * len(VP_SOURCES) for _ in range(4)]
    st.bag, st.cube_supply = [0] * 3, [0] * 3
    st.prosperity, st.unemployed, st.unions = [0, 0], [[0] * KINDS, [0] * KINDS], [0] * 5
    st.goods, st.mc_storage = [[0] * 4, [0] * 4], [0] * 4
    st.cc_storage, st.ftz, st.storage_tiles, st.wealth = [0] * 4, [0, 0], [0] * 4, 0
    st.prices = [[D.START_PRICE_STEP] * 4, [D.START_PRICE_STEP] * 4]
    st.legitimacy, st.legit_tokens = [D.START_LEGITIMACY] * 3, [0] * 3
    st.public_services, st.state_goods = [0, 0, 0], [0, 0]
    st.benefits, st.demonstration = [[0] * len(BENEFIT_ITEMS) for _ in range(3)], 0
    st.seat_card, st.seat_wage = [-1] * NUM_SEATS, [-1] * NUM_SEATS
    st.seat_workers = [[NO_WORKER] * MAX_SLOTS for _ in range(NUM_SEATS)]
    st.seat_committed = [[0] * MAX_SLOTS for _ in range(NUM_SEATS)]
    st.seat_machinery, st.seat_strike = [0] * NUM_SEATS, [0] * NUM_SEATS
    st.seat_face_up = [0] * NUM_SEATS
    st.hands = [[] for _ in range(4)]  # design indexes into the class's ``cards.ACTION_CARDS``
    st.action_decks = [[] for _ in range(4)]
    st.action_discard = [[] for _ in range(4)]  # face up: played and discarded cards
    st.cc_deck, st.cc_market, st.mc_deck, st.mc_market = [], [], [], []
    st.company_discard = []
    st.deal_deck, st.deals, st.export_deck, st.export = [], [], [], -1
    st.immigration, st.event_deck, st.events = [], [], []
    st.immigration_seen = 0  # cards drawn so far: the bottom of the deck is public (§1.4)
    st.agenda_deck, st.agenda_card, st.last_agenda = [], -1, -1
    return st
