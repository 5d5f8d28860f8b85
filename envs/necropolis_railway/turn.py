"""A player's turn: take a row card, the turn menu and everything it opens.

Card actions (London / Necropolis / Railway) each once with a disc of their
colour (orange wild); one bonus space; one prestige step; one tucked card;
then ``end_turn`` starts the train.  Also the perks of completed railway pairs,
the Turn of the Century free action and the final purchase, which reuse the
same upgrade / hire / build handlers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeplezoo.envs.core.agenda import Item, count_down
from meeplezoo.envs.necropolis_railway import actions as A
from meeplezoo.envs.necropolis_railway import agenda as G
from meeplezoo.envs.necropolis_railway import data as D
from meeplezoo.envs.necropolis_railway.board import SIDE_A, SIDE_B, STAFF, VOLUNTEER, Player
from meeplezoo.envs.necropolis_railway.legal import mortuary_payment

if TYPE_CHECKING:
    from meeplezoo.envs.necropolis_railway.state import NecropolisState


# -- cards and discs ---------------------------------------------------------------------
def draw_card(st: NecropolisState) -> int:
    """Top card of the deck (the discard pile is shuffled in when the deck is empty)."""
    if not st.deck:
        reshuffle(st)
    return st.deck.pop() if st.deck else -1


def reshuffle(st: NecropolisState) -> None:
    if st.discard:
        st.deck = st.discard
        st.discard = []
        st.rng.shuffle(st.deck)


def take_discs(st: NecropolisState, colour: int) -> int:
    """One disc of ``colour`` from the supply; orange when that colour ran out; -1 if none."""
    supply = st.disc_supply
    if supply[colour] > 0:
        supply[colour] -= 1
        return colour
    if supply[D.ORANGE] > 0:
        supply[D.ORANGE] -= 1
        return D.ORANGE
    return -1


def refill_slot(st: NecropolisState, k: int) -> None:
    """Deal the deck's top card into row slot ``k``; put under it the discs on the back of
    the new top card."""
    st.row[k] = draw_card(st)
    if not st.deck:
        reshuffle(st)
    under = [0] * D.NUM_DISC_COLOURS
    if st.deck:
        for colour in D.CARD_BACK[st.deck[-1]]:
            got = take_discs(st, colour)
            if got >= 0:
                under[got] += 1
    st.row_discs[k] = under


# -- workers and mortuaries ----------------------------------------------------------------
def hire(p: Player, spot: int, cost: int) -> None:
    p.money -= cost
    p.staff_supply -= 1
    p.place_worker(spot, STAFF)


def build(st: NecropolisState, p: Player, kind: int, col: int, mode: int) -> None:
    """mode 0: mourners (train ones with the baggage car) then money; 1: mourners only; 2: free."""
    if mode == 0:
        necro, train, money = mortuary_payment(p, kind, st.t_baggage)
        p.necro_mourners -= necro
        p.train_mourners -= train
        p.money -= money
    elif mode == 1:
        p.necro_mourners -= D.MORTUARY_MOURNERS[kind]
    st.mortuary_supply[kind] -= 1
    p.mortuary[col] = kind + 1


def draw_coffin(st: NecropolisState) -> int:
    """A random coffin colour from the bag (weighted by what is left), -1 if empty."""
    bag = st.bag
    total = sum(bag)
    if total <= 0:
        return -1
    r = int(st.rng.integers(total))
    for c in range(D.NUM_COFFIN_COLOURS):
        if r < bag[c]:
            bag[c] -= 1
            return c
        r -= bag[c]
    raise AssertionError("unreachable")


# -- prestige and perks ----------------------------------------------------------------------
def prestige_step(st: NecropolisState, seat: int) -> None:
    """One step up the prestige track and its '!' bonus (movement or a free mortuary)."""
    p = st.players[seat]
    if p.prestige >= D.PRESTIGE_MAX:
        return
    p.prestige += 1
    st.t_move += D.PRESTIGE_MOVE[p.prestige]  # only counts inside a turn
    kind = D.PRESTIGE_MORTUARY[p.prestige]
    if kind >= 0:
        st.push((A.K_FREE_MORT, seat, kind))


def check_pair(st: NecropolisState, seat: int, pos: int) -> None:
    p = st.players[seat]
    coffin, mourner = p.cars
    if (pos < len(coffin) and pos < len(mourner) and coffin[pos] == SIDE_B
            and mourner[pos] == SIDE_B and not p.pairs[pos]):
        p.pairs[pos] = True
        if not all(p.perks):
            st.push((A.K_PERK, seat, 0))


def rail_upgrade(st: NecropolisState, seat: int, a: int, discount: int, free: bool) -> None:
    p = st.players[seat]
    if a < A.RAIL_FLIP:
        kind = a - A.RAIL_ADD
        cost = D.ADD_COST[len(p.cars[kind])]
        p.cars[kind].append(SIDE_A)
        pos = -1
    else:
        kind, pos = divmod(a - A.RAIL_FLIP, D.CAR_POSITIONS)
        cost = D.FLIP_COST[kind]
        p.cars[kind][pos] = SIDE_B
    if not free:
        p.money -= max(0, cost - discount)
    if pos >= 0:
        check_pair(st, seat, pos)


# -- payments -----------------------------------------------------------------------------------
def begin_payment(st: NecropolisState, seat: int, purpose: int, count: int) -> None:
    st.pay_purpose = purpose
    st.pay_left = count
    st.push((A.K_PAY, seat, purpose))


def pay_disc(st: NecropolisState, seat: int, colour: int) -> None:
    st.players[seat].discs[colour] -= 1
    purpose = st.pay_purpose
    if A.PURPOSE_BONUS <= purpose < A.PURPOSE_PRESTIGE:
        st.bonus_spaces[purpose - A.PURPOSE_BONUS] = colour  # the disc stays on the space
    else:
        st.disc_supply[colour] += 1
    st.pay_left -= 1


def mark_numbers(st: NecropolisState, seat: int) -> None:
    """Tell the observation cache that the seat's numbers and supplies changed."""
    st._dirty[seat] |= G.S_MONEY | G.S_CARGO | G.S_STAFF
    st._tdirty |= G.T_SUP


def after_paid(st: NecropolisState, seat: int, purpose: int) -> None:
    p = st.players[seat]
    if purpose > 2:
        mark_numbers(st, seat)  # prestige or a bonus space's money / coffins / mourners
    if purpose == 0:
        st.push((A.K_LONDON, seat, 0))
    elif purpose == 1:
        st.t_hired = st.t_built = False
        st.push((A.K_NECRO, seat, 0))
    elif purpose == 2:
        st.push((A.K_RAIL, seat, -1))
    elif purpose == A.PURPOSE_PRESTIGE:
        prestige_step(st, seat)
    else:
        b = purpose - A.PURPOSE_BONUS
        p.money += D.BONUS_MONEY[b]
        for _ in range(D.BONUS_COFFINS[b]):
            c = draw_coffin(st)
            if c >= 0:
                p.waiting[c] += 1
        p.necro_mourners += D.BONUS_MOURNERS[b]
        st.t_move += D.BONUS_MOVE[b]
        if D.BONUS_HIRE[b] >= 0:
            st.push((A.K_BONUS_HIRE, seat, D.BONUS_HIRE[b]))
        if D.BONUS_RAIL[b] >= 0:
            st.push((A.K_RAIL, seat, b))


# -- decision handlers: (state, item, action) ------------------------------------------------------
def d_take(st: NecropolisState, item: Item, a: int) -> None:
    seat = item[1]
    p = st.players[seat]
    k = a - A.TAKE
    st.t_card = st.row[k]
    st.t_taken_slot = k
    under = st.row_discs[k]
    for c in range(D.NUM_DISC_COLOURS):
        p.discs[c] += under[c]
    refill_slot(st, k)
    st.agenda.pop()


def d_turn(st: NecropolisState, item: Item, a: int) -> None:
    seat = item[1]
    p = st.players[seat]
    if a == A.END_TURN:
        st.agenda.pop()
    elif a < A.ACTION + 3:
        act = a - A.ACTION
        st.t_used[act] = True
        st.t_move += D.CARD_TRAINS[st.t_card][act]
        begin_payment(st, seat, act, 1)
    elif A.BONUS <= a < A.BONUS + len(D.BONUS_SPACES):
        st.t_used[3] = True
        begin_payment(st, seat, A.PURPOSE_BONUS + a - A.BONUS, 1)
    elif a == A.PRESTIGE:
        st.t_used[4] = True
        begin_payment(st, seat, A.PURPOSE_PRESTIGE, D.PRESTIGE_COST[p.prestige + 1])
    else:  # use a tucked card: one-shot ability, no movement of its own
        st.t_used[5] = True
        card = p.tucked.pop(a - A.USE_TUCKED)
        ability = D.CARD_ABILITY[card]
        if ability == D.BAGGAGE:
            st.t_baggage = True
        elif ability == D.CREW:
            st.t_crew = True
        elif ability == D.DINING:
            st.t_dining = True
        elif ability == D.YARD:  # +1 per tucked card, itself included (one tucked later: d_rail)
            st.t_yard = True
            st.t_move += D.YARD_MOVE * (len(p.tucked) + 1)
        st.discard.append(card)
        mark_numbers(st, seat)  # (observation cache: tucked cards, discard pile)


def d_pay(st: NecropolisState, item: Item, a: int) -> None:
    seat = item[1]
    pay_disc(st, seat, a - A.PAY)
    if st.pay_left <= 0:
        st.agenda.pop()
        after_paid(st, seat, item[2])


def finish_pay(st: NecropolisState, item: Item) -> None:
    """Prestige with exactly as many discs as the step costs: all of them go."""
    seat = item[1]
    discs = st.players[seat].discs
    for c in range(D.NUM_DISC_COLOURS):
        while discs[c] > 0 and st.pay_left > 0:
            pay_disc(st, seat, c)
    after_paid(st, seat, item[2])


def d_london(st: NecropolisState, item: Item, a: int) -> None:
    p = st.players[item[1]]
    s = a - A.UPGRADE
    p.money -= D.SLOT_COST[s][p.london[s]]
    p.london[s] += 1
    st.agenda.pop()


def d_necro(st: NecropolisState, item: Item, a: int) -> None:
    p = st.players[item[1]]
    if a == A.SKIP:
        st.agenda.pop()
        return
    if a < A.BUILD:
        hire(p, a - A.HIRE, D.HIRE_COST)
        st.t_hired = True
    else:
        kind, col = divmod(a - A.BUILD, D.COLUMNS)
        build(st, p, kind, col, 0)
        st.t_built = True
    if st.t_hired and st.t_built:
        st.agenda.pop()


def d_rail(st: NecropolisState, item: Item, a: int) -> None:
    seat, bonus_space = item[1], item[2]
    p = st.players[seat]
    st.agenda.pop()
    if a == A.RAIL_TUCK:
        p.tucked.append(st.t_card)
        st.t_tucked_now = True
        if st.t_yard:  # the yard counts every card tucked when the train moves
            st.t_move += D.YARD_MOVE
    elif a >= A.RAIL_SELL:
        p.cars[a - A.RAIL_SELL].pop()
        p.money += D.SELL_VALUE
    else:
        discount = D.BONUS_RAIL[bonus_space] if bonus_space >= 0 else 0
        rail_upgrade(st, seat, a, discount, False)


def d_bonus_hire(st: NecropolisState, item: Item, a: int) -> None:
    hire(st.players[item[1]], a - A.HIRE, item[2])
    st.agenda.pop()


def d_perk(st: NecropolisState, item: Item, a: int) -> None:
    seat = item[1]
    p = st.players[seat]
    st.agenda.pop()
    perk = a - A.PERK
    p.perks[perk] = True
    if perk == D.EXPRESS:  # counts from the next turn on (the Turn of the Century is between)
        p.express_turn = st.turn_no - (1 if st.phase == G.P_CENTURY else 0)
    elif perk == D.VOLUNTEERS:
        n = min(D.PERK_VOLUNTEERS, st.vol_supply)
        if n > 0:
            st.push((A.K_VOLUNTEER, seat, n))
    elif perk == D.ROYAL:
        p.money += D.ROYAL_MONEY
        for _ in range(D.ROYAL_STEPS):
            prestige_step(st, seat)


def d_volunteer(st: NecropolisState, item: Item, a: int) -> None:
    p = st.players[item[1]]
    p.place_worker(a - A.VOLUNTEER, VOLUNTEER)
    st.vol_supply -= 1
    count_down(st.agenda, item)  # one of item[2] volunteers placed


def d_free_mortuary(st: NecropolisState, item: Item, a: int) -> None:
    kind, col = divmod(a - A.BUILD, D.COLUMNS)
    build(st, st.players[item[1]], kind, col, 2)
    st.agenda.pop()


def d_century(st: NecropolisState, item: Item, a: int) -> None:
    """Turn of the Century: one free action (no money, no discs, the train stays)."""
    seat = item[1]
    p = st.players[seat]
    st.agenda.pop()
    if a == A.SKIP:
        return
    if a < A.HIRE:
        p.london[a - A.UPGRADE] += 1
    elif a < A.BUILD:
        hire(p, a - A.HIRE, 0)
    elif a < A.RAIL_ADD:
        kind, col = divmod(a - A.BUILD, D.COLUMNS)
        build(st, p, kind, col, 1)
    else:
        rail_upgrade(st, seat, a, 0, True)


def d_final(st: NecropolisState, item: Item, a: int) -> None:
    """Final purchase (reverse seat order): hire one staff or build one mortuary."""
    p = st.players[item[1]]
    st.agenda.pop()
    if a == A.SKIP:
        return
    if a < A.BUILD:
        hire(p, a - A.HIRE, D.HIRE_COST)
    else:
        kind, col = divmod(a - A.BUILD, D.COLUMNS)
        build(st, p, kind, col, 0)
