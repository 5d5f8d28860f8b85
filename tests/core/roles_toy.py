"""An asymmetric toy: three roles, private hands, a sealed bid and a compound decision.

Seat 0 is the ``trader``, seat 1 the ``banker``, seat 2 the ``judge``.  Trader and
banker hold 3 hidden cards (values 1..6, twice each).  Each of 3 rounds:

1. the trader bids a card face down (sealed: nobody else sees it yet);
2. the banker bids a card or folds, not knowing the trader's card;
3. both bids are revealed; the higher wins (ties and folds: see below) and scores
   the sum of the bids (a fold scores the trader its own card);
4. the judge audits up to two players, one at a time, then ``done`` (a compound
   decision): each audit of the round's winner earns the judge 2 points and costs
   the winner 2; an audit of the loser costs the judge 1 point if it has one;
5. the bids are discarded and both bidders draw back to 3 while the deck lasts.

A tie goes to the banker.  The roles' action catalogues and observations differ in
size, so every size is keyed by role and the agents are named after the roles.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from meeplezoo.envs.core.actions import ActionCatalogue
from meeplezoo.envs.core.aec import env_functions
from meeplezoo.envs.core.errors import ConfigError
from meeplezoo.envs.core.features import FeatureLayout
from meeplezoo.envs.core.game import TERMINAL, Game, GameState
from meeplezoo.envs.core.hidden import EVERYONE, Hidden, redeal_for
from meeplezoo.envs.core.rng import new_rng, rng_from_dict, rng_to_dict
from meeplezoo.envs.core.schema import RNG_STATE, Bool, Int, List, Record, Str

DECK = [v for v in range(1, 7)] * 2
HAND, ROUNDS, MAX = 3, 3, 6
ROLES = ("trader", "banker", "judge")
TRADER, BANKER, JUDGE = range(3)
CATALOGUES = {role: ActionCatalogue() for role in ROLES}  # one catalogue per role
CATALOGUES["trader"].add("bid", [f"bid:{i}" for i in range(HAND)])
CATALOGUES["banker"].add("bid", [f"bid:{i}" for i in range(HAND)])
FOLD = CATALOGUES["banker"].add("fold", ["fold"])
CATALOGUES["judge"].add("audit", ["audit:trader", "audit:banker"])
AUDIT_DONE = CATALOGUES["judge"].add("done", ["done"])
PHASES = ("trader_bid", "banker_bid", "audit")


def _layout(role: str) -> FeatureLayout:
    layout = FeatureLayout()
    if role != "judge":
        layout.add("hand", HAND)
    layout.add("score", list(ROLES))
    layout.add("round")
    layout.add("bids", ["trader", "banker", "banker_folded"])
    if role == "banker":
        layout.add("trader_has_bid")
    if role == "judge":
        layout.add("audited", ["trader", "banker"])
        layout.add("deck_left")
    return layout


class RolesToyGame(Game):
    name = "toy_roles_v0"
    title = "Roles toy"
    roles = ROLES
    min_players = max_players = default_players = 3
    max_decisions = 100
    score_scale = 10.0

    def __init__(self, num_players: int | None = None, **options: Any) -> None:
        super().__init__(num_players, **options)
        self.layouts = {role: _layout(role) for role in ROLES}

    def seat_role(self, seat: int) -> str:
        if not (isinstance(seat, (int, np.integer)) and 0 <= seat < 3):
            raise ConfigError(f"{self.name}: seat {seat!r} is not a seat 0..2")
        return ROLES[seat]

    def num_actions(self, role: str | None = None) -> int:
        return CATALOGUES[self.check_role(role)].size

    def action_name(self, action: int, role: str | None = None) -> str:
        return CATALOGUES[role].names[self.check_action_index(action, role)]

    def feature_names(self, role: str | None = None) -> list[str]:
        return self.layouts[self.check_role(role)].names

    def new_initial_state(self, seed: int | None = None) -> RolesToyState:
        state = RolesToyState(self)
        state.rng = new_rng(seed)
        state.deck = [int(c) for c in state.rng.permutation(DECK)]
        state.hands = [[state.deck.pop() for _ in range(HAND)] for _ in range(2)]
        state.bids, state.folded, state.revealed = [0, 0], False, False
        state.audited, state.discard = [False, False], []
        state.scores_, state.round, state.phase = [0, 0, 0], 0, "trader_bid"
        return state

    def heuristic_bot(self, seed: int | None = None) -> RolesToyBot:
        return RolesToyBot()

    def state_schema(self) -> Record:
        card = Int(1, MAX)
        return Record({
            "rng": RNG_STATE,
            "deck": List(card, (0, len(DECK))),
            "hands": List(List(Int(0, MAX), HAND), 2),  # 0: an empty slot
            "bids": List(Int(0, MAX), 2),  # 0: no bid (yet, or folded)
            "folded": Bool(), "revealed": Bool(),
            "audited": List(Bool(), 2),
            "discard": List(card, (0, len(DECK))),
            "scores": List(Int(0, 2 * MAX * ROUNDS + 4 * ROUNDS), 3),
            "round": Int(0, ROUNDS),
            "phase": Str(PHASES),
        })

    def state_from_dict(self, data: dict[str, Any]) -> RolesToyState:
        state = RolesToyState(self)
        state.rng = rng_from_dict(data["rng"])
        state.deck, state.discard = list(data["deck"]), list(data["discard"])
        state.hands = [list(h) for h in data["hands"]]
        state.bids, state.audited = list(data["bids"]), list(data["audited"])
        state.folded, state.revealed = data["folded"], data["revealed"]
        state.scores_, state.round, state.phase = list(data["scores"]), data["round"], data["phase"]
        return state


class RolesToyState(GameState):
    game: RolesToyGame

    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        return PHASES.index(self.phase)

    def is_terminal(self) -> bool:
        return self.round >= ROUNDS

    def decision_name(self) -> str:
        return self.phase

    def _legal_mask(self) -> np.ndarray:
        if self.phase == "audit":
            return np.array([not self.audited[0], not self.audited[1], True])
        hand = self.hands[self.current_player()]
        bids = [card > 0 for card in hand]
        return np.array([*bids, True] if self.phase == "banker_bid" else bids)

    def _apply(self, action: int) -> None:
        if self.phase == "trader_bid":
            self.bids[TRADER], self.hands[TRADER][action] = self.hands[TRADER][action], 0
            self.phase = "banker_bid"
        elif self.phase == "banker_bid":
            if action == FOLD:
                self.folded = True
            else:
                self.bids[BANKER], self.hands[BANKER][action] = self.hands[BANKER][action], 0
            self.revealed, self.phase = True, "audit"
        else:
            if action != AUDIT_DONE:
                self.audited[action] = True
            if action == AUDIT_DONE or all(self.audited):
                self._resolve()

    def _winner(self) -> int:
        return TRADER if self.folded or self.bids[TRADER] > self.bids[BANKER] else BANKER

    def _resolve(self) -> None:
        winner = self._winner()
        self.scores_[winner] += sum(self.bids)
        for seat, audited in enumerate(self.audited):
            if audited and seat == winner:
                self.scores_[JUDGE] += 2
                self.scores_[winner] = max(0, self.scores_[winner] - 2)
            elif audited and self.scores_[JUDGE] > 0:
                self.scores_[JUDGE] -= 1
        self.discard += [b for b in self.bids if b]
        for hand in self.hands:
            for i, card in enumerate(hand):
                if card == 0 and self.deck:
                    hand[i] = self.deck.pop()
        self.bids, self.folded, self.revealed = [0, 0], False, False
        self.audited, self.round = [False, False], self.round + 1
        self.phase = "trader_bid"

    def scores(self) -> list[float]:
        return [float(s) for s in self.scores_]

    def observation(self, player: int) -> np.ndarray:
        role = ROLES[player]
        layout = self.game.layouts[role]
        obs = layout.zeros()
        if role != "judge":
            obs[layout.block("hand")] = [c / MAX for c in self.hands[player]]
        obs[layout.block("score")] = [min(s / 50, 1.0) for s in self.scores_]
        obs[layout.block("round")] = self.round / ROUNDS
        own_bid = player == TRADER and self.bids[TRADER]
        shown = [self.bids[TRADER] if self.revealed or own_bid else 0,
                 self.bids[BANKER] if self.revealed else 0]
        obs[layout.block("bids")] = [shown[0] / MAX, shown[1] / MAX, float(self.folded)]
        if role == "banker":
            obs[layout.block("trader_has_bid")] = float(self.bids[TRADER] > 0)
        if role == "judge":
            obs[layout.block("audited")] = [float(a) for a in self.audited]
            obs[layout.block("deck_left")] = len(self.deck) / len(DECK)
        return obs

    def check_invariants(self) -> None:
        cards = self.deck + self.discard + self.bids + [c for h in self.hands for c in h]
        assert Counter(c for c in cards if c) == Counter(DECK), "cards not conserved"
        assert not self.deck or all(all(h) for h in self.hands) or self.phase != "trader_bid", (
            "a hand gap while the deck lasts")
        assert (self.bids[TRADER] > 0) == (self.phase != "trader_bid"), "trader bid out of step"
        assert self.revealed == (self.phase == "audit"), "bids revealed out of step"
        assert not (self.folded and self.bids[BANKER]), "the banker folded and bid"
        assert self.phase == "audit" or not any(self.audited), "audits outside the audit"
        assert self.is_terminal() or self.legal_mask().any(), "nothing to play"

    def resample_hidden(self, player: int, rng: np.random.Generator) -> RolesToyState:
        """Re-deal every card ``player`` cannot see: other hands, the deck, and the
        trader's bid while it is sealed (from the pool of those cards, sorted first)."""
        copy = self.clone()
        bid = [copy.bids[TRADER]] if copy.bids[TRADER] else []
        places = [Hidden(copy.deck),  # nobody sees the deck's order
                  *(Hidden([c for c in copy.hands[s] if c], frozenset({s}))
                    for s in (TRADER, BANKER)),
                  Hidden(bid, EVERYONE if self.revealed else frozenset({TRADER}))]
        copy.deck, *hands, bid = redeal_for(player, places, rng)
        for s, dealt in zip((TRADER, BANKER), hands):
            cards = iter(dealt)
            copy.hands[s] = [next(cards) if c else 0 for c in copy.hands[s]]
        if bid:
            copy.bids[TRADER] = bid[0]
        copy.rng = new_rng(int(rng.integers(2**63)))
        return copy

    def _to_dict(self) -> dict[str, Any]:
        return {"rng": rng_to_dict(self.rng), "deck": list(self.deck),
                "hands": [list(h) for h in self.hands], "bids": list(self.bids),
                "folded": self.folded, "revealed": self.revealed,
                "audited": list(self.audited), "discard": list(self.discard),
                "scores": list(self.scores_), "round": self.round, "phase": self.phase}

    def render(self) -> str:
        return (f"round {self.round + 1}/{ROUNDS} {self.phase}: hands {self.hands} "
                f"bids {self.bids} folded {self.folded} scores {self.scores_}")


class RolesToyBot:
    """Bids its highest card (the banker folds below 3); the judge audits the likely
    winner once."""

    name = "heuristic"

    def act(self, state: RolesToyState) -> int:
        seat = state.current_player()
        if seat == JUDGE:
            winner = state._winner()
            return winner if not any(state.audited) else AUDIT_DONE
        hand = state.hands[seat]
        if seat == BANKER and max(hand) < 3:
            return FOLD
        return int(np.argmax(hand))


env, raw_env = env_functions(RolesToyGame)
