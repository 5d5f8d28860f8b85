"""The re-deal kit: results depend only on what the viewer knows."""

from collections import Counter

import numpy as np

from envs.core.hidden import redeal, redraw


def test_redraw_depends_only_on_the_multiset():
    a = redraw([5, 1, 3, 3], np.random.default_rng(7))
    b = redraw([3, 3, 1, 5], np.random.default_rng(7))
    assert a == b and sorted(a) == [1, 3, 3, 5]
    assert all(isinstance(c, int) for c in a)


def test_redeal_keeps_each_places_size_and_the_cards():
    hand, deck = [9, 2], [4, 4, 7]
    new_hand, new_deck = redeal([hand, deck], np.random.default_rng(1))
    assert len(new_hand) == 2 and len(new_deck) == 3
    assert Counter(new_hand + new_deck) == Counter(hand + deck)
    same = redeal([[2, 9], [7, 4, 4]], np.random.default_rng(1))
    assert same == [new_hand, new_deck]  # the true order never shows through
    assert redeal([[], [3]], np.random.default_rng(0)) == [[], [3]]
