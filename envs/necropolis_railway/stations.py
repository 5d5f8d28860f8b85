"""The train: movement, loading in London, the London and Necropolis station steps.

Movement goes one space at a time so that every station reached or passed is
resolved in the order the train gets there (a long move can pass both).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeplezoo.envs.core.agenda import Item, count_down
from meeplezoo.envs.necropolis_railway import actions as A
from meeplezoo.envs.necropolis_railway import agenda as G
from meeplezoo.envs.necropolis_railway import data as D
from meeplezoo.envs.necropolis_railway.board import Player
from meeplezoo.envs.necropolis_railway.legal import dismiss_actions, load_actions
from meeplezoo.envs.necropolis_railway.turn import draw_coffin, take_discs

if TYPE_CHECKING:
    from meeplezoo.envs.necropolis_railway.state import NecropolisState


def a_move_start(st: NecropolisState, item: Item) -> None:
    seat = item[1]
    p = st.players[seat]
    total = st.t_move
    if total > 0 and 0 <= p.express_turn < st.turn_no:
        total += D.EXPRESS_MOVE
    if total > 0:
        if p.pos == D.LONDON:  # leaving London: load first
            st.push((G.LOAD, seat, 0), (G.MOVE, seat, total))
        else:
            st.push((G.MOVE, seat, total))


def a_move(st: NecropolisState, item: Item) -> None:
    seat, left = item[1], item[2]
    p = st.players[seat]
    p.pos = (p.pos + 1) % D.TRACK_LENGTH
    if left > 1:
        st.push((G.MOVE, seat, left - 1))
    if p.pos in (D.LONDON, D.NECROPOLIS):
        if st.phase == G.P_END_MOVES:  # the owner may take the station or decline it
            st.push((A.K_TURN, seat, A.TURN_END_STATION))
        else:
            push_station(st, seat)


def push_station(st: NecropolisState, seat: int) -> None:
    """Queue the steps of the station the seat's train stands on."""
    if st.players[seat].pos == D.LONDON:
        rate = D.UPKEEP
        if st.t_crew and seat == st.t_seat:  # the crew car serves this first London stop only
            rate = D.CREW_UPKEEP
            st.t_crew = False
            st._tdirty |= G.T_TURN  # (observation cache: the turn's crew flag)
        st.push((G.INCOME, seat, 0), (G.LOAD, seat, 0), (G.UPKEEP, seat, rate))
    else:
        st.push((G.NECRO_STOP, seat, 0))


def a_end_move(st: NecropolisState, item: Item) -> None:
    """After the last round: every train goes on to its next station."""
    seat = item[1]
    p = st.players[seat]
    dist = min((D.LONDON - p.pos) % D.TRACK_LENGTH or D.TRACK_LENGTH,
               (D.NECROPOLIS - p.pos) % D.TRACK_LENGTH or D.TRACK_LENGTH)
    if p.pos == D.LONDON:
        st.push((G.LOAD, seat, 0), (G.MOVE, seat, dist))
    else:
        st.push((G.MOVE, seat, dist))


# -- London -----------------------------------------------------------------------------
def a_income(st: NecropolisState, item: Item) -> None:
    seat = item[1]
    p = st.players[seat]
    coffins, mourners, money, choice, orange = p.london_income()
    for _ in range(coffins):
        c = draw_coffin(st)
        if c >= 0:
            p.waiting[c] += 1
    p.waiting_mourners += mourners
    p.money += money
    for _ in range(orange):
        if st.disc_supply[D.ORANGE] > 0:
            st.disc_supply[D.ORANGE] -= 1
            p.discs[D.ORANGE] += 1
    if choice:
        st.push((A.K_INCOME_DISC, seat, choice))


def load_all(p: Player) -> None:
    """Load what fits when no choice is left: every waiting coffin, or one colour's."""
    free = p.coffin_capacity() - sum(p.train)
    for c in range(D.NUM_COFFIN_COLOURS):
        n = min(free, p.waiting[c])
        p.waiting[c] -= n
        p.train[c] += n
        free -= n
    m = min(p.mourner_capacity() - p.train_mourners, p.waiting_mourners)
    p.waiting_mourners -= m
    p.train_mourners += m


def a_load(st: NecropolisState, item: Item) -> None:
    seat = item[1]
    p = st.players[seat]
    if load_actions(p):
        st.push((A.K_LOAD, seat, 0))
    else:
        load_all(p)


def a_upkeep(st: NecropolisState, item: Item) -> None:
    seat, rate = item[1], item[2]
    p = st.players[seat]
    if dismiss_actions(p, rate):
        st.push((A.K_DISMISS, seat, rate))
    else:
        p.money -= rate * p.staff_count()


# -- Necropolis ---------------------------------------------------------------------------
def a_necro_stop(st: NecropolisState, item: Item) -> None:
    seat = item[1]
    p = st.players[seat]
    if st.t_dining and seat == st.t_seat:  # the dining car serves this first stop only
        p.money += D.DINING_MONEY * p.full_mourner_cars()
        st.t_dining = False
        st._tdirty |= G.T_TURN  # (observation cache: the turn's dining flag)
    p.necro_mourners += p.train_mourners
    p.train_mourners = 0
    if sum(p.train):
        st.push((A.K_BURY, seat, 0))


def overflow_all(p: Player) -> None:
    for c in range(D.NUM_COFFIN_COLOURS):
        p.overflow[c] += p.train[c]
        p.train[c] = 0


def bury(p: Player, colour: int, col: int) -> None:
    row = p.fill[col]
    p.plots[col * D.ROWS + row] = colour
    p.fill[col] = row + 1
    p.train[colour] -= 1
    if D.PLOT_COLOUR[col][row] == colour:
        p.money += D.MATCH_MONEY


# -- decision handlers --------------------------------------------------------------------
def d_end_station(st: NecropolisState, item: Item, a: int) -> None:
    """The end move's station: ``end_turn`` takes its actions, ``skip`` declines them (no
    income, loading or upkeep in London; the cargo stays on the train at the Necropolis)."""
    st.agenda.pop()
    if a == A.END_TURN:
        push_station(st, item[1])


def d_income_disc(st: NecropolisState, item: Item, a: int) -> None:
    p = st.players[item[1]]
    colour = D.INCOME_DISC_COLOURS[a - A.GAIN]
    st.disc_supply[colour] -= 1
    p.discs[colour] += 1
    count_down(st.agenda, item)  # one of item[2] discs chosen


def finish_income_disc(st: NecropolisState, item: Item) -> None:
    """None of the choosable colours is left: an orange disc instead, if any."""
    p = st.players[item[1]]
    for _ in range(item[2]):
        got = take_discs(st, D.ORANGE)
        if got >= 0:
            p.discs[got] += 1


def d_load(st: NecropolisState, item: Item, a: int) -> None:
    p = st.players[item[1]]
    c = a - A.LOAD
    p.waiting[c] -= 1
    p.train[c] += 1


def d_bury(st: NecropolisState, item: Item, a: int) -> None:
    colour, col = divmod(a - A.BURY, D.COLUMNS)
    bury(st.players[item[1]], colour, col)


def d_dismiss(st: NecropolisState, item: Item, a: int) -> None:
    """A dismissed staff leaves the game (the memo's 破棄), not back to the supply."""
    p = st.players[item[1]]
    spot = a - A.DISMISS
    if spot == 0:
        p.london_staff -= 1
    else:
        p.col_worker[spot - 1] = 0
    p.dismissed += 1


def finish_dismiss(st: NecropolisState, item: Item) -> None:
    p = st.players[item[1]]
    p.money -= item[2] * p.staff_count()


def d_discard(st: NecropolisState, item: Item, a: int) -> None:
    c = a - A.DISCARD
    st.players[item[1]].discs[c] -= 1
    st.disc_supply[c] += 1
