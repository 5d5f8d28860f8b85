"""``Sketch``: the bots' cheap look-ahead copy of a position.

Same rules, same score caches, but no observation arrays (``caches`` skips
them when ``features`` is False), legal actions as a cached list, and
copy-on-write tableaus: a bot tries many moves per decision, and copying and
observing were what it paid for.
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.chihou_sousei.decisions import D_PLACE
from meeplezoo.envs.chihou_sousei.state import ChihouSouseiState
from meeplezoo.envs.core.errors import IllegalActionError


class Sketch(ChihouSouseiState):
    """A look-ahead copy for bots: the same rules on copies of the same lists,
    but without the observation arrays (scoring only recomputes the population
    and fullest-card counts) and with the generator shared, since the engine
    draws chance only at setup.  Legal actions come as a cached list and
    ``apply`` skips the numpy mask, so trying many moves stays cheap.  A sketch
    cannot be observed; its ``clone`` is another sketch."""

    features = False
    _legal: list[int] | None

    _owned: int  # bit s: seat s's tokens are this sketch's own; bit s + 4: its board

    def clone(self) -> Sketch:
        """Per-seat lists are shared copy-on-write (``_own``): a look-ahead
        step changes one tableau, and copying all of them dominated the cost."""
        other = object.__new__(Sketch)
        d = self.__dict__.copy()
        other.__dict__ = d
        d["deck"] = self.deck[:]
        d["row"] = self.row[:]
        d["taken"] = self.taken[:]
        d["discard"] = self.discard[:]
        d["picked"] = self.picked[:]
        d["grid"] = self.grid[:]
        d["tokens"] = self.tokens[:]
        d["cells"] = self.cells[:]
        d["frontier"] = self.frontier[:]
        d["icons"] = self.icons[:]
        d["ind"] = self.ind[:]
        d["region"] = self.region[:]
        d["pop"] = self.pop[:]
        d["maxtok"] = self.maxtok[:]
        d["dirty"] = self.dirty[:]
        d["pending"] = self.pending[:]
        d["_owned"] = 0
        self._owned = 0  # the inner lists are shared now: both sides copy before writing
        return other

    def _own(self, s: int, board: bool) -> None:
        """Copy seat ``s``'s tokens (and with ``board`` its cards, frontier and
        icons) unless this sketch already holds its own copy."""
        owned = self._owned
        if not owned >> s & 1:
            self.tokens[s] = self.tokens[s][:]
            owned |= 1 << s
        if board and not owned >> (s + 4) & 1:
            self.grid[s] = self.grid[s][:]
            self.cells[s] = self.cells[s][:]
            self.frontier[s] = set(self.frontier[s])
            self.icons[s] = self.icons[s][:]
            owned |= 1 << (s + 4)
        self._owned = owned

    def legal_actions(self) -> list[int]:
        """The legal actions, increasing (the cached list: do not mutate it)."""
        if self._legal is None:
            # [] once the game is over
            self._legal = sorted(self.game.rules.legal_of[self.decision](self))
        return self._legal

    def apply(self, action: int) -> None:
        if action not in self.legal_actions():
            raise IllegalActionError(self._illegal_message(action, self.legal_mask()))
        self._legal = None
        self._mask = None
        # an action changes the tokens of its player or of the forced move's
        # tableau, and cards only when placing (see ``tokens``, ``migration.play_place``)
        p = self.player
        if self.decision == D_PLACE or not self._owned >> p & 1:
            self._own(p, self.decision == D_PLACE)
        if self.fm_seat >= 0:
            self._own(self.fm_seat, False)
        self.game.rules.apply_of[self.decision](self, action)  # ``_apply``, one call fewer

    def place_now(self, seat: int, card: int) -> None:
        """What-if for judging a pick: ``seat`` places ``card`` at once (the
        card stays in the row too; only the scores of the result are meant)."""
        self.picked[seat] = card
        self.decision = D_PLACE
        self.player = seat
        self._legal = None
        self._mask = None

    def observation(self, player: int) -> np.ndarray:
        raise TypeError("a sketch keeps no observation features; observe the real state")


def sketch_of(state: ChihouSouseiState) -> Sketch:
    """A cheap copy of ``state`` for a bot's look-ahead (see ``Sketch``)."""
    other = state._copy_as(Sketch)
    d = other.__dict__
    d["feat"] = d["rowfeat"] = d["deckfeat"] = d["plane"] = None
    d["_legal"] = None
    d["_owned"] = 0xFF  # every seat's lists were just copied (see ``Sketch._own``)
    return other
