"""The fast observation encoder against the plain reference one (``observation_reference``):
every seat's vector at every decision of random games, over the variants, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.hegemony import cards as C
from meeplezoo.envs.hegemony import observation
from meeplezoo.envs.hegemony.actions import ROLE_NAMES
from meeplezoo.envs.hegemony.game import HegemonyGame
from meeplezoo.envs.hegemony.observation import encode, layout
from tests.hegemony.observation_reference import encode as reference_encode

PUBLISHED = dict(
    mc_prep_arrivals="published", mc_policy_vp="published", cc_end_loans="published",
    cc_export_vp=True, swap_target="any", demonstration_discard="published",
    price_high_requires_policy=True, mc_scoring_compare="position", initial_p6="A",
)


def _check_all_seats(st) -> None:
    for seat in range(4):
        fast = encode(st, seat)
        ref = reference_encode(st, seat)
        assert fast.dtype == np.float32 and fast.shape == (layout(ROLE_NAMES[seat]).size,)
        if not np.array_equal(fast.view(np.uint32), ref.view(np.uint32)):
            names = layout(ROLE_NAMES[seat]).names
            wrong = [f"{names[i]}: {fast[i]!r} != {ref[i]!r}"
                     for i in np.flatnonzero(fast.view(np.uint32) != ref.view(np.uint32))]
            raise AssertionError(f"seat {seat} at {st.decision_name()}: " + "; ".join(wrong[:10]))
        assert fast.min() >= 0.0 and fast.max() <= 1.0


@pytest.mark.parametrize(("seed", "options"), [(0, {}), (1, {}), (2, PUBLISHED)])
def test_fast_encoder_matches_reference_through_a_random_game(seed, options) -> None:
    st = HegemonyGame(**options).new_initial_state(seed)
    rng = np.random.default_rng(seed)
    decisions = 0
    while not st.is_terminal():
        _check_all_seats(st)
        legal = np.flatnonzero(st.legal_mask())
        st.apply(int(legal[rng.integers(legal.size)]))
        decisions += 1
    _check_all_seats(st)
    assert decisions > 100


def test_memoised_company_block_follows_an_edit_in_place() -> None:
    """The seats' block is reused while its inputs are unchanged: an edit to a worker, a
    wage or a token must show in the next observation."""
    st = HegemonyGame().new_initial_state(3)
    rng = np.random.default_rng(3)
    for _ in range(150):
        legal = np.flatnonzero(st.legal_mask())
        st.apply(int(legal[rng.integers(legal.size)]))
    _check_all_seats(st)
    seat = next(s for s, c in enumerate(st.seat_card) if c >= 0)
    st.seat_strike[seat] = 1 - st.seat_strike[seat]
    _check_all_seats(st)
    st.seat_workers[seat][0] = 0 if st.seat_workers[seat][0] != 0 else 7
    _check_all_seats(st)
    st.seat_wage[seat] = 2
    _check_all_seats(st)
    before = observation.encode(st, 0)
    st.seat_card[seat] = -1
    assert not np.array_equal(observation.encode(st, 0), before)
    _check_all_seats(st)


def test_kept_card_rows_and_hands_follow_an_edit_in_place() -> None:
    """Markets, Deals, the Export card, Events, the Agenda card and hands are kept while
    unchanged: an edit to any of them must show in the next observation."""
    from meeplezoo.envs.hegemony import cards as C
    from meeplezoo.envs.hegemony import data as D

    st = HegemonyGame().new_initial_state(5)
    rng = np.random.default_rng(5)
    for _ in range(60):
        legal = np.flatnonzero(st.legal_mask())
        st.apply(int(legal[rng.integers(legal.size)]))
    _check_all_seats(st)
    mc_cards = [c.index for c in D.COMPANIES if c.sector == "mc"]
    edits = [
        lambda: st.cc_market.pop(),
        lambda: st.mc_market.append(mc_cards[0]),
        lambda: setattr(st, "deals", [0, 1]),
        lambda: st.deals.pop(),
        lambda: setattr(st, "export", (st.export + 1) % len(C.EXPORTS)),
        lambda: setattr(st, "export", -1),
        lambda: setattr(st, "events", [3, 7]),
        lambda: st.events.reverse(),
        lambda: setattr(st, "agenda_card", (st.agenda_card + 1) % len(C.AGENDAS)),
        lambda: setattr(st, "agenda_card", -1),
        lambda: st.hands[1].append(st.hands[1][0] if st.hands[1] else 0),
        lambda: st.hands[1].clear(),
        lambda: st.bills.__setitem__(2, 4),
        lambda: st.policies.__setitem__(0, (st.policies[0] + 1) % 3),
    ]
    for edit in edits:
        edit()
        _check_all_seats(st)


def test_a_hand_made_state_without_scratch_keys_reads_them_as_zero() -> None:
    st = HegemonyGame().new_initial_state(4)
    st.ctx = {}
    _check_all_seats(st)


def test_s2_3_a_peek_shows_the_deciding_class_its_cards_and_no_one_else() -> None:
    """event_peek: while the State chooses among the top Events, it sees them (and only it);
    re-drawing what it cannot see keeps them in place, so its observation is unchanged."""
    from meeplezoo.envs.hegemony.actions import ST, WC
    from tests.hegemony.test_effects import game, run

    st = game()
    run(st, ST, {"op": "event_peek", "k": 3, "place_or_replace": "place"})
    top = st.event_deck[::-1][:3]
    obs = encode(st, ST)
    names = layout("state").names
    shown = [names[i] for i in np.flatnonzero(obs) if names[i].startswith("peek[")]
    assert shown == [f"peek[event{j + 1}_{C.EVENTS[e].id}]" for j, e in enumerate(top)]
    assert not any(n.startswith("peek[") for n, v in zip(layout("working_class").names,
                                                        encode(st, WC)) if v)
    for seed in range(5):
        other = st.resample_hidden(ST, np.random.default_rng(seed))
        assert other.event_deck[::-1][:3] == top
        assert np.array_equal(encode(other, ST), obs)
