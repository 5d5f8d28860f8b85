"""Agents that play from the engine state: random play and the bots' protocol.

Scripted bots read the ``GameState`` (they are part of the game package and
must only use what their seat may see); learned policies read observation
vectors instead (see ``training.opponents``).
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from envs.core.game import GameState


class StateBot(Protocol):
    """Anything that picks a legal action for the current player of a state."""

    def act(self, state: GameState) -> int: ...


class RandomBot:
    """Uniformly random legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, state: GameState) -> int:
        legal = np.flatnonzero(state.legal_mask())
        return int(legal[self.rng.integers(legal.size)])


def play_game(
    state: GameState, bots: list[StateBot], max_decisions: int | None = None
) -> GameState:
    """Play ``state`` to the end, seat ``i`` moved by ``bots[i]``; returns it."""
    cap = max_decisions or state.game.max_decisions
    for _ in range(cap):
        if state.is_terminal():
            return state
        state.apply(bots[state.current_player()].act(state))
    if not state.is_terminal():
        raise RuntimeError(f"{state.game.name}: game not over after {cap} decisions")
    return state
