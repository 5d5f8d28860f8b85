"""``ChihouBot``: a greedy player on the final-score breakdown.

Every candidate action is tried on a clone; the bot then finishes its own
follow-up sub-decisions of the same turn greedily (a forced move's target,
migration sources, event order and choices) and scores the position as if the
game ended there: its own total minus the best other total.  Ties go to the
position with fewer tokens on its fullest card (the game's tie-break), then
at random.  Picks have no immediate effect on the score, so a pick is valued
by the best placement of that card in the bot's own tableau (same greedy
follow-up), plus a small bonus for the start-player marker.  The bot reads
only public information (the deck order never enters a decision: the pick
look-ahead places the card at once and stops before the next round).
"""

from __future__ import annotations

import numpy as np

from envs.chihou_sousei.state import D_PICK, D_PLACE, ChihouSouseiState

MARKER_BONUS = 0.5  # value of starting (first pick) next round, in points


class ChihouBot:
    """One-ply greedy on the score breakdown with greedy turn completion."""

    name = "chihou_greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, state: ChihouSouseiState) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = state.current_player()
        if state.decision == D_PICK:
            values = [self._pick_value(state, me, a) for a in legal]
        else:
            values = []
            for action in legal:
                child = state.clone()
                child.apply(action)
                values.append(self._value(self._settle(child, me), me))
        best = max(values)
        choices = [a for a, v in zip(legal, values) if v == best]
        return choices[int(self.rng.integers(len(choices)))]

    # -- evaluation ----------------------------------------------------------------
    @staticmethod
    def _value(state: ChihouSouseiState, me: int) -> tuple[float, int]:
        totals = [sum(parts) for parts in state.score_parts()]
        others = max(t for s, t in enumerate(totals) if s != me)
        return (totals[me] - others, -state.maxtok[me])

    def _settle(self, state: ChihouSouseiState, me: int) -> ChihouSouseiState:
        """Play the rest of ``me``'s current turn greedily (one step at a time)."""
        while state.player == me and state.decision not in (D_PICK, D_PLACE):
            legal = state.legal_actions()
            if len(legal) == 1:
                state.apply(legal[0])
                continue
            best_value = None
            best_action = legal[0]
            for action in legal:
                child = state.clone()
                child.apply(action)
                value = self._value(child, me)
                if best_value is None or value > best_value:
                    best_value, best_action = value, action
            state.apply(best_action)
        return state

    def _pick_value(self, state: ChihouSouseiState, me: int, action: int) -> tuple[float, int]:
        slot = action  # pick:i is action i
        card = state.row[slot]
        marker = MARKER_BONUS if slot == len(state.row) - 1 else 0.0
        trial = state.clone()
        trial.picked[me] = card  # a private what-if: place the card right now
        trial.decision = D_PLACE
        trial.player = me
        trial._mask = None
        best = None
        for place in trial.legal_actions():
            child = trial.clone()
            child.apply(place)
            value = self._value(self._settle(child, me), me)
            if best is None or value > best:
                best = value
        assert best is not None
        return (best[0] + marker, best[1])
