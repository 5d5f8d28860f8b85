"""Re-dealing hidden information for one viewer (what ``resample_hidden`` is made of).

What a seat cannot see (a deck's order, other players' hands, a sealed bid not
yet revealed) must be re-drawn so that the result depends only on what that seat
knows: which cards are unseen, and how many sit in each hidden place.  So the
unseen cards are pooled, put in a canonical order (sorted) and only then
shuffled, and dealt back into the same places in the same numbers.  A re-draw
that shuffled the pool in its current order would carry the true order along.

    hands[1], deck = redeal([hands[1], deck], rng)   # viewer 0 cannot see either

``Hidden`` names a place together with the seats that see it (a deck: nobody; a
hand: its owner; a sealed bid: its owner until revealed, then everyone), and
``redeal_for(viewer, places, rng)`` re-deals exactly the places that viewer cannot
see, which is a game's whole ``resample_hidden`` for its cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


def redraw(cards: Sequence[int], rng: np.random.Generator) -> list[int]:
    """The unseen ``cards`` in a fresh random order that depends only on their multiset."""
    return [int(c) for c in rng.permutation(sorted(cards))]


def redeal(places: Sequence[Sequence[int]], rng: np.random.Generator) -> list[list[int]]:
    """Pool the cards of every hidden place, re-draw them, and deal them back: each place
    gets as many cards as it had, in the order the places are given."""
    pool = redraw([c for place in places for c in place], rng)
    dealt, start = [], 0
    for place in places:
        dealt.append(pool[start:start + len(place)])
        start += len(place)
    return dealt


EVERYONE = frozenset(range(64))  # seen by every seat (a revealed card, a public row)


@dataclass(frozen=True)
class Hidden:
    """Cards in one place of the game and the seats that may see them."""

    cards: Sequence[int]
    seen_by: frozenset[int] = frozenset()  # empty: nobody (a deck's order)

    def visible_to(self, seat: int) -> bool:
        return seat in self.seen_by


def redeal_for(viewer: int, places: Sequence[Hidden],
               rng: np.random.Generator) -> list[list[int]]:
    """Each place's cards after re-dealing what ``viewer`` cannot see: the places it
    sees keep their cards, the others are pooled, re-drawn and dealt back in the same
    numbers (so the result depends only on what the viewer knows)."""
    unseen = [i for i, place in enumerate(places) if not place.visible_to(viewer)]
    dealt = redeal([places[i].cards for i in unseen], rng)
    out = [list(place.cards) for place in places]
    for i, cards in zip(unseen, dealt):
        out[i] = cards
    return out
