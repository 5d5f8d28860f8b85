"""``ChihouBot``: a greedy player on the final-score breakdown.

Every candidate action is tried on a clone; the bot then finishes its own
follow-up sub-decisions of the same turn greedily (a forced move's target,
migration sources, event order and choices) and scores the position as if the
game ended there: its own total minus the best other total.  Ties go to the
position with fewer tokens on its fullest card (the game's tie-break), then
at random.  Picks have no immediate effect on the score, so a pick is valued
by the best placement of that card in the bot's own tableau (same greedy
follow-up), plus a small bonus for the start-player marker, except in the
last round, when there is no next round to start.  The bot reads
only public information (the deck order never enters a decision: the pick
look-ahead places the card at once and stops before the next round).
All look-ahead runs on ``Sketch`` copies of the state (no observation
features, copy-on-write tableaus): the bot is a training opponent and plays
thousands of evaluation games.  ``tests/chihou_sousei/bot_reference.json``
pins every decision, so speed-ups cannot change its play.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from meeplezoo.envs.chihou_sousei.board import ROUNDS
from meeplezoo.envs.chihou_sousei.decisions import D_PICK, D_PLACE
from meeplezoo.envs.chihou_sousei.sketch import Sketch, sketch_of
from meeplezoo.envs.chihou_sousei.state import ChihouSouseiState

MARKER_BONUS = 0.5  # value of starting (first pick) next round, in points; 0 in the last round


class ChihouBot:
    """One-ply greedy on the score breakdown with greedy turn completion."""

    name = "chihou_greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, state: ChihouSouseiState) -> int:
        return self.decide(state)[0]

    def decide(self, state: ChihouSouseiState) -> tuple[int, list[int]]:
        """The chosen action and every action the bot values equally best: the
        imitation warm start learns the whole set, so a student is not taught
        the bot's coin flips among equal placements (most of them are ties)."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0], legal
        me = state.current_player()
        root = sketch_of(state)  # all look-ahead runs on cheap feature-free copies
        root.score_totals()  # score the untouched seats once, before copying
        copies = _copies(root, len(legal))
        if state.decision == D_PICK:
            values = [self._pick_value(trial, me, a) for a, trial in zip(legal, copies)]
        else:
            values = []
            for action, child in zip(legal, copies):
                child.apply(action)
                values.append(self._value(self._settle(child, me), me))
        best = max(values)
        choices = [a for a, v in zip(legal, values) if v == best]
        return choices[int(self.rng.integers(len(choices)))], choices

    # -- evaluation ----------------------------------------------------------------
    @staticmethod
    def _value(state: Sketch, me: int) -> tuple[float, int]:
        totals = state.score_totals()
        mine = totals[me]
        totals[me] = totals[me - 1]  # drop my own total from the max (n >= 2)
        return (mine - max(totals), -state.maxtok[me])

    def _settle(self, state: Sketch, me: int) -> Sketch:
        """Play the rest of ``me``'s current turn greedily (one step at a time);
        returns the resulting position (possibly another sketch than ``state``)."""
        while state.player == me and state.decision not in (D_PICK, D_PLACE):
            legal = state.legal_actions()
            if len(legal) == 1:
                state.apply(legal[0])
                continue
            state.score_totals()
            best_value = None
            best = state
            for action, child in zip(legal, _copies(state, len(legal))):
                child.apply(action)
                value = self._value(child, me)
                if best_value is None or value > best_value:
                    best_value, best = value, child
            state = best
        return state

    def _pick_value(self, trial: Sketch, me: int, action: int) -> tuple[float, int]:
        """Value of picking slot ``action``, judged on ``trial`` (consumed)."""
        slot = action  # pick:i is action i
        card = trial.row[slot]
        rightmost = slot == len(trial.row) - 1
        marker = MARKER_BONUS if rightmost and trial.round < ROUNDS - 1 else 0.0
        trial.place_now(me, card)  # a private what-if: place the card right now
        best = None
        places = trial.legal_actions()
        for place, child in zip(places, _copies(trial, len(places))):
            child.apply(place)
            value = self._value(self._settle(child, me), me)
            if best is None or value > best:
                best = value
        assert best is not None
        return (best[0] + marker, best[1])


def _copies(state: Sketch, count: int) -> Iterator[Sketch]:
    """``count`` independent positions equal to ``state``, made lazily, the
    last being ``state`` itself: one copy fewer per choice tried."""
    for _ in range(count - 1):
        yield state.clone()
    yield state
