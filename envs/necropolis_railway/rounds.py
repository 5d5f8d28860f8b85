"""Turn and round flow: turn set-up and clean-up, end of round, the Turn of the
Century between rounds 6 and 7, and the end of the game (end moves, reverse-order
final purchase)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeplezoo.envs.core.agenda import Item
from meeplezoo.envs.necropolis_railway import actions as A
from meeplezoo.envs.necropolis_railway import agenda as G
from meeplezoo.envs.necropolis_railway import data as D
from meeplezoo.envs.necropolis_railway.turn import refill_slot

if TYPE_CHECKING:
    from meeplezoo.envs.necropolis_railway.state import NecropolisState


def reset_turn(st: NecropolisState, seat: int) -> None:
    st.t_seat = seat
    st.t_card = -1
    st.t_taken_slot = -1  # the row slot the card was taken from (solo row discard)
    st.t_used = [False] * len(G.TURN_USES)
    st.t_tucked_now = False
    st.t_yard = False  # the material yard was used: later tucked cards add movement too
    st.t_move = 0
    st.t_crew = st.t_dining = st.t_baggage = False
    st.t_hired = st.t_built = False


def a_turn_start(st: NecropolisState, item: Item) -> None:
    seat = item[1]
    reset_turn(st, seat)
    st.push((A.K_TAKE, seat, 0), (A.K_TURN, seat, A.TURN_MENU), (G.MOVE_START, seat, 0),
            (G.DISCARD_CHECK, seat, 0), (G.CLEANUP, seat, 0), (G.NEXT, seat, 0))


def a_discard_check(st: NecropolisState, item: Item) -> None:
    if sum(st.players[item[1]].discs) > D.HOLD_LIMIT:
        st.push((A.K_DISCARD, item[1], 0))


def a_cleanup(st: NecropolisState, item: Item) -> None:
    if st.t_card >= 0 and not st.t_tucked_now:
        st.discard.append(st.t_card)
    st.t_card = -1
    if st.num_players == 1:  # solo: one of the row cards not taken leaves, drawn at random
        others = [k for k in range(D.ROW_SIZE) if k != st.t_taken_slot]
        k = others[int(st.rng.integers(len(others)))]
        for c in range(D.NUM_DISC_COLOURS):
            st.disc_supply[c] += st.row_discs[k][c]
        st.discard.append(st.row[k])
        refill_slot(st, k)
        st._tdirty |= G.T_ROW | G.T_DISC  # the row and the disc supply (observation cache)


def a_next(st: NecropolisState, item: Item) -> None:
    st.turn_no += 1
    nxt = item[1] + 1
    if nxt < st.num_players:
        st.push((G.TURN_START, nxt, 0))
    else:
        st.push((G.ROUND_END, 0, 0))


def a_round_end(st: NecropolisState, item: Item) -> None:
    for b, colour in enumerate(st.bonus_spaces):
        if colour >= 0:
            st.disc_supply[colour] += 1
            st.bonus_spaces[b] = -1
    st.round += 1
    reset_turn(st, -1)
    n = st.num_players
    if st.round >= D.ROUNDS:
        st.push((G.PHASE, 0, G.P_END_MOVES), *[(G.END_MOVE, seat, 0) for seat in range(n)],
                (G.PHASE, 0, G.P_FINAL),
                *[(A.K_FINAL, seat, 0) for seat in reversed(range(n))],  # the last seat first
                (G.GAME_OVER, 0, 0))
        return
    st.push((G.PHASE, 0, G.P_ROUNDS), (G.TURN_START, 0, 0))
    if st.round == D.CENTURY_AFTER_ROUND:  # between rounds 6 and 7
        st.push((G.PHASE, 0, G.P_CENTURY), *[(A.K_CENTURY, seat, 0) for seat in range(n)])


def a_phase(st: NecropolisState, item: Item) -> None:
    st.phase = item[2]


def a_game_over(st: NecropolisState, item: Item) -> None:
    st.phase = G.P_OVER
