"""A tiny card game with chance and hidden hands, to test the core on its own.

Each player holds 2 hidden cards from a shuffled deck of 1..9 (twice).  On a
turn you play a hand slot (score its value, draw a replacement while the deck
lasts) or, once per game, pass.  The game ends when every hand is empty.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from meeplezoo.envs.core.aec import env_functions
from meeplezoo.envs.core.features import FeatureLayout, seats_from
from meeplezoo.envs.core.game import TERMINAL, Game, GameState, Option
from meeplezoo.envs.core.rng import new_rng, rng_from_dict, rng_to_dict
from meeplezoo.envs.core.schema import RNG_STATE, Bool, Int, List, Record

DECK = [v for v in range(1, 10)] * 2
HAND = 2


class ToyGame(Game):
    name = "toy_v0"
    title = "Toy"
    min_players = 2
    max_players = 3
    default_players = 2
    options = {
        "leaky": Option(False, (False, True), "observation shows the deck (a bug on purpose)")
    }
    max_decisions = 100

    def __init__(self, num_players: int | None = None, **options: Any) -> None:
        super().__init__(num_players, **options)
        self.layout = FeatureLayout()
        self.layout.add("hand", HAND)
        self.layout.add("score", [f"seat+{k}" for k in range(self.max_players)])
        self.layout.add("deck_left")
        self.layout.add("deck_top")

    def num_actions(self, role: str | None = None) -> int:
        return HAND + 1

    def action_name(self, action: int, role: str | None = None) -> str:
        return "pass" if self.check_action_index(action, role) == HAND else f"play:{action}"

    def feature_names(self, role: str | None = None) -> list[str]:
        return self.layout.names

    def new_initial_state(self, seed: int | None = None) -> ToyState:
        state = ToyState(self)
        state.rng = new_rng(seed)
        state.deck = [int(c) for c in state.rng.permutation(DECK)]
        state.hands = [[state.deck.pop() for _ in range(HAND)] for _ in range(self.num_players)]
        state.scores_ = [0] * self.num_players
        state.passed = [False] * self.num_players
        state.turn = 0
        return state

    def heuristic_bot(self, seed: int | None = None) -> HighCardBot:
        return HighCardBot()

    def state_schema(self) -> Record:
        n = self.num_players
        return Record({
            "rng": RNG_STATE,
            "deck": List(Int(1, 9), (0, len(DECK))),
            "hands": List(List(Int(0, 9), HAND), n),  # 0: an empty slot
            "scores": List(Int(0, sum(DECK)), n),
            "passed": List(Bool(), n),
            "turn": Int(0, n - 1),
        })

    def state_from_dict(self, data: dict[str, Any]) -> ToyState:
        state = ToyState(self)
        state.rng = rng_from_dict(data["rng"])
        state.deck = list(data["deck"])
        state.hands = [list(h) for h in data["hands"]]
        state.scores_ = list(data["scores"])
        state.passed = list(data["passed"])
        state.turn = data["turn"]
        return state


class ToyState(GameState):
    game: ToyGame

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.turn

    def is_terminal(self) -> bool:
        return all(card == 0 for hand in self.hands for card in hand)

    def _legal_mask(self) -> np.ndarray:
        mask = np.zeros(HAND + 1, dtype=bool)
        hand = self.hands[self.turn]
        mask[:HAND] = [card > 0 for card in hand]
        mask[HAND] = not self.passed[self.turn]
        return mask

    def _apply(self, action: int) -> None:
        if action == HAND:
            self.passed[self.turn] = True
        else:
            self.scores_[self.turn] += self.hands[self.turn][action]
            self.hands[self.turn][action] = self.deck.pop() if self.deck else 0
        n = self.game.num_players
        for k in range(1, n + 1):  # skip players with empty hands
            nxt = (self.turn + k) % n
            if any(self.hands[nxt]):
                self.turn = nxt
                break

    def scores(self) -> list[float]:
        return [float(s) for s in self.scores_]

    def observation(self, player: int) -> np.ndarray:
        layout = self.game.layout
        obs = layout.zeros()
        obs[layout.block("hand")] = [c / 9 for c in self.hands[player]]
        for k, seat in enumerate(seats_from(player, self.game.num_players)):
            obs[layout.block("score").start + k] = min(self.scores_[seat] / 100, 1.0)
        obs[layout.block("deck_left")] = len(self.deck) / len(DECK)
        if self.game.config["leaky"] and self.deck:
            obs[layout.block("deck_top")] = self.deck[-1] / 9
        return obs

    def check_invariants(self) -> None:
        unplayed = self.deck + [c for h in self.hands for c in h if c]
        assert not Counter(unplayed) - Counter(DECK), "cards not from the deck"
        assert sum(self.scores_) + sum(unplayed) == sum(DECK), "points not conserved"
        assert not self.deck or all(all(h) for h in self.hands), "hand gap while deck lasts"
        assert self.is_terminal() or any(self.hands[self.turn]), "turn on an empty hand"

    def resample_hidden(self, player: int, rng: np.random.Generator) -> ToyState:
        copy = self.clone()
        pool = list(copy.deck)
        others = [s for s in range(self.game.num_players) if s != player]
        for seat in others:
            pool += [c for c in copy.hands[seat] if c]
        pool = [int(c) for c in rng.permutation(sorted(pool))]  # the seen facts alone decide
        for seat in others:
            copy.hands[seat] = [pool.pop() if c else 0 for c in copy.hands[seat]]
        copy.deck = pool
        copy.rng = np.random.Generator(np.random.PCG64(int(rng.integers(2**31))))
        return copy

    def _to_dict(self) -> dict[str, Any]:
        return {
            "rng": rng_to_dict(self.rng),
            "deck": list(self.deck),
            "hands": [list(h) for h in self.hands],
            "scores": list(self.scores_),
            "passed": list(self.passed),
            "turn": self.turn,
        }

    def render(self) -> str:
        return " | ".join(
            f"P{i}: hand={h} score={s}" for i, (h, s) in enumerate(zip(self.hands, self.scores_))
        )


class HighCardBot:
    """Plays its highest card; never passes."""

    name = "heuristic"

    def act(self, state: ToyState) -> int:
        hand = state.hands[state.current_player()]
        return int(np.argmax(hand))


env, raw_env = env_functions(ToyGame)
