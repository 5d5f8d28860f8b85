"""The re-deal kit: results depend only on what the viewer knows."""

from collections import Counter

import numpy as np

from meeplezoo.envs.core.hidden import redeal, redraw


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


def test_redeal_for_a_viewer_keeps_what_it_sees():
    from meeplezoo.envs.core.hidden import EVERYONE, Hidden, redeal_for

    deck, mine, yours, row = [1, 2, 3], [7, 8], [4, 5], [9]
    places = [Hidden(deck), Hidden(mine, frozenset({0})), Hidden(yours, frozenset({1})),
              Hidden(row, EVERYONE)]
    new_deck, new_mine, new_yours, new_row = redeal_for(0, places, np.random.default_rng(2))
    assert new_mine == mine and new_row == row
    assert len(new_deck) == 3 and len(new_yours) == 2
    assert Counter(new_deck + new_yours) == Counter(deck + yours)
    shuffled = [Hidden([3, 1, 2]), places[1], Hidden([5, 4], frozenset({1})), places[3]]
    assert redeal_for(0, shuffled, np.random.default_rng(2)) == [new_deck, new_mine, new_yours,
                                                                 new_row]
