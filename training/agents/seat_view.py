"""The one door through which a user's state agent sees a game: only its own seat.

An agent written against the state API (``act(state)``, named ``package.module:attribute``
or handed over as a Python object) could read every seat's secrets from the true state:
other hands, deck orders, sealed bids, the engine's own random generator.  A rating of
such an agent says nothing, so no command hands it the true state.  ``agent_bot``
(``training.agents.opponents``), where every Python agent becomes a bot for the arena,
``evaluate``, ``levels``, ``balance``, ``selfplay``, ``play`` and the web table, wraps each
state agent in a ``SeatView``: at every decision the agent gets a fresh copy of the
position in which everything its seat cannot see is re-drawn (``GameState.resample_hidden``)
and the traces that would let it rebuild the truth are replaced:

- the engine's own chance generator (``state.rng``, which every game here keeps): its
  state foretells the draws to come;
- how the position arose, where a state keeps it (Hegemony's ``origin_seed`` and
  ``history``, kept for its saves): a replay from the set-up seed is the true position,
  and the history holds sealed bids not yet revealed.

The copy's legal actions are the true ones (the conformance kit's no-leak check,
``envs/core/testing.py``, holds every game to it), so an answer legal in the copy is legal
in the game.

Agents that read ``(observation, mask)`` need no door: the observation is the seat's own.
The project's own bots named by spec are built without it: the heuristic bots read only
their seat (``tests/training/test_seat_view.py``), and the searches (``ismcts.ISMCTS``, a
card's look-ahead ``search.RolloutSearch``) start each decision from a ``seat_view``
themselves, since Hegemony's re-draws keep the engine's chance generator (docs/evaluation.md,
"What an agent receives").
"""

from __future__ import annotations

from typing import Any

import numpy as np

from meeplezoo.envs.core.game import GameState

# A tag mixed into the door's seed, so its draws are not those of a bot given the same seed.
SEED_TAG = 0x5EA7


def seat_rng(seed: int | None) -> np.random.Generator:
    """The door's generator for an agent built with ``seed``: the same seed gives the same
    re-draws, so a rated game repeats; None draws fresh entropy (as ``RandomBot(None)``)."""
    return np.random.default_rng(None if seed is None else [SEED_TAG, int(seed)])


def seat_view(state: GameState, seat: int, rng: np.random.Generator) -> GameState:
    """A copy of ``state`` that depends only on what ``seat`` knows and on ``rng``:
    hidden cards re-drawn, the chance generator and the provenance (``origin_seed``,
    ``history``) replaced."""
    view = state.resample_hidden(seat, rng)
    if isinstance(getattr(view, "rng", None), np.random.Generator):
        view.rng = np.random.default_rng(int(rng.integers(2**63)))
    if hasattr(view, "origin_seed"):
        view.origin_seed = int(rng.integers(2**63))
    if hasattr(view, "history"):
        view.history = []
    return view


class SeatView:
    """A state agent behind the door: ``act(state)`` hands the agent a ``seat_view`` of
    the state for the seat to move, drawn afresh from the door's own generator
    (``seat_rng(seed)``); the agent's answer is played on the true state, whose ``apply``
    refuses anything but a legal action."""

    def __init__(self, agent: Any, seed: int | None = None) -> None:
        self.inner = agent  # not ``agent``: make_bot reads a network's card from that name
        self.rng = seat_rng(seed)
        self.name = getattr(agent, "name", None) or type(agent).__name__

    def act(self, state: GameState) -> int:
        return self.inner.act(seat_view(state, state.current_player(), self.rng))
