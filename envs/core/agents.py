"""Agents that play from the engine state: random play and the bots' protocol.

Scripted bots read the ``GameState`` (they are part of the game package and
must only use what their seat may see); learned policies read observation
vectors instead (see ``training.opponents``).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from meeplezoo.envs.core.game import GameState


class StateBot(Protocol):
    """Anything that picks a legal action for the current player of a state."""

    def act(self, state: GameState) -> int: ...


@runtime_checkable
class TeacherBot(StateBot, Protocol):
    """A bot that also says which actions it values equally best.

    ``decide(state)`` returns ``(action, best)``: the action ``act`` would play and
    every legal action it values exactly as high (``action`` among them).  Imitation
    (``training.imitation``) fits a student to the whole set, so the student is not
    taught the teacher's coin flips among ties; a bot without ``decide`` teaches
    its one action.
    """

    def decide(self, state: GameState) -> tuple[int, list[int]]: ...


def teacher_choice(bot: StateBot, state: GameState) -> tuple[int, list[int]]:
    """The bot's action and its set of equally best actions (``[action]`` for a plain
    ``StateBot``); a ``TeacherBot`` whose set misses its own action is an error."""
    if isinstance(bot, TeacherBot):
        action, best = bot.decide(state)
        action, best = int(action), [int(a) for a in best]
        if action not in best:
            raise ValueError(f"{type(bot).__name__}.decide() chose {action}, "
                             f"outside its own best set {best}")
        return action, best
    action = int(bot.act(state))
    return action, [action]


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
