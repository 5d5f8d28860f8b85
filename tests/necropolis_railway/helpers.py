"""Helpers to set up positions for the rule tests (they keep every conservation law)."""

from __future__ import annotations

from meeplezoo.envs.necropolis_railway import actions as A
from meeplezoo.envs.necropolis_railway import agenda as G
from meeplezoo.envs.necropolis_railway import data as D
from meeplezoo.envs.necropolis_railway.game import NecropolisRailwayGame
from meeplezoo.envs.necropolis_railway.state import NecropolisState


def new(n: int = 2, seed: int = 0) -> NecropolisState:
    return NecropolisRailwayGame(n).new_initial_state(seed)


def card(card_id: int) -> int:
    """Card index of a card id."""
    return D.CARD_IDS.index(card_id)


def card_with(trains: tuple[int, int, int], ability: str) -> int:
    """Index of a card with these trains (L, N, R) and railway ability."""
    want = D.ABILITIES.index(ability)
    for i in range(D.NUM_CARDS):
        if D.CARD_TRAINS[i] == trains and D.CARD_ABILITY[i] == want:
            return i
    raise LookupError(f"no card {trains} {ability}")


def names(st: NecropolisState) -> list[str]:
    return [A.NAMES[a] for a in st.legal_actions()]


def act(st: NecropolisState, *action_names: str) -> None:
    for name in action_names:
        st.apply(A.INDEX[name])
        st.check_invariants()


def refresh(st: NecropolisState) -> None:
    """After editing a state by hand: recompute the pending decision's legal actions."""
    st._mask = None
    st._dirty = [G.SEAT_ALL] * st.num_players  # the observation caches see everything anew
    st._tdirty = G.TABLE_ALL
    st._run()


def discs(**counts: int) -> list[int]:
    return [counts.get(c, 0) for c in D.DISC_COLOURS]


def set_discs(st: NecropolisState, seat: int, **counts: int) -> None:
    """Give a seat exactly these discs, to or from the supply."""
    p = st.players[seat]
    want = discs(**counts)
    for c in range(D.NUM_DISC_COLOURS):
        st.disc_supply[c] += p.discs[c] - want[c]
        p.discs[c] = want[c]
        assert st.disc_supply[c] >= 0


def set_row(st: NecropolisState, k: int, card_index: int, **under: int) -> None:
    """Put a card in row slot k (swapping it with wherever it was) with these discs under."""
    old = st.row[k]
    if card_index != old:
        for pile in (st.deck, st.discard, st.row):
            if card_index in pile:
                pile[pile.index(card_index)] = old
                break
        else:
            raise LookupError("card is not in the deck, discard or row")
        st.row[k] = card_index
    want = discs(**under)
    for c in range(D.NUM_DISC_COLOURS):
        st.disc_supply[c] += st.row_discs[k][c] - want[c]
        assert st.disc_supply[c] >= 0
    st.row_discs[k] = want


def set_deck_top(st: NecropolisState, card_index: int) -> None:
    """Make ``card_index`` (in the deck) the deck's top card."""
    i = st.deck.index(card_index)
    st.deck[i], st.deck[-1] = st.deck[-1], st.deck[i]


def set_coffins(st: NecropolisState, seat: int, where: str, **colours: int) -> None:
    """Set a seat's coffins on the train / waiting area / overflow, to or from the bag."""
    p = st.players[seat]
    row = getattr(p, where)
    for k, name in enumerate(D.COFFIN_COLOURS):
        want = colours.get(name, 0)
        st.bag[k] += row[k] - want
        row[k] = want
        assert st.bag[k] >= 0


def start_turn(st: NecropolisState, card_index: int, money: int | None = None, **held: int
               ) -> int:
    """At a 'take' decision: the current seat takes ``card_index`` (no discs under it)
    holding exactly ``held`` discs.  Returns the seat."""
    assert st.decision_name() == "take", st.decision_name()
    seat = st.current_player()
    set_row(st, 0, card_index)
    set_discs(st, seat, **held)
    if money is not None:
        st.players[seat].money = money
    refresh(st)
    act(st, "take:row_1")
    return seat


def finish_turn(st: NecropolisState) -> None:
    """End the turn if the turn menu is pending (it ends by itself when nothing is left)."""
    if st.decision_name() == "turn":
        act(st, "end_turn")


def no_hiring(st: NecropolisState, seat: int) -> None:
    """Put all of a seat's staff supply on its boards so no more can be hired."""
    p = st.players[seat]
    for col in range(D.COLUMNS):
        if p.col_worker[col] == 0 and p.staff_supply:
            p.col_worker[col] = 1
            p.staff_supply -= 1
    moved = min(p.staff_supply, D.LONDON_STAFF_SPACES - p.london_staff - p.london_vol)
    p.london_staff += moved
    p.staff_supply -= moved
