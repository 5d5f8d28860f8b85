"""Re-dealing hidden information for one viewer (what ``resample_hidden`` is made of).

What a seat cannot see (a deck's order, other players' hands, a sealed bid not
yet revealed) must be re-drawn so that the result depends only on what that seat
knows: which cards are unseen, and how many sit in each hidden place.  So the
unseen cards are pooled, put in a canonical order (sorted) and only then
shuffled, and dealt back into the same places in the same numbers.  A re-draw
that shuffled the pool in its current order would carry the true order along.

    hands[1], deck = redeal([hands[1], deck], rng)   # viewer 0 cannot see either
"""

from __future__ import annotations

from collections.abc import Sequence

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
