"""Set-up for 4 players (§1.2, §1.3): the board, the decks and the starting workers."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from meeplezoo.envs.core.rng import new_rng
from meeplezoo.envs.hegemony import cards as C
from meeplezoo.envs.hegemony import codes as K
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony.actions import (
    CC,
    CC_SEATS,
    CLASSES,
    MC,
    MC_SEATS,
    PUBLIC_SEATS,
    ST,
    WC,
)
from meeplezoo.envs.hegemony.state import HegemonyState, empty_state, worker
from meeplezoo.envs.hegemony.turn import draw_actions, immigrate, reset_ctx

if TYPE_CHECKING:
    from meeplezoo.envs.hegemony.game import HegemonyGame

L2 = 1  # wage level index of L2


def _shuffled(st: HegemonyState, cards: list[int]) -> list[int]:
    return [int(c) for c in st.rng.permutation(cards)] if cards else []


def _place(st: HegemonyState, seat: int, company: str, wage: int = L2) -> None:
    card = D.COMPANY_BY_ID[company]
    st.seat_card[seat] = card.index
    st.seat_face_up[seat] = 1
    st.seat_wage[seat] = wage if card.wages is not None else -1


def _staff(st: HegemonyState, seat: int, *workers: int) -> None:
    """Starting workers stand in the seat's slots in printed order (none committed)."""
    for k, w in enumerate(workers):
        st.seat_workers[seat][k] = w


def new_game(game: HegemonyGame, seed: int | None) -> HegemonyState:
    st = empty_state(game)
    if seed is None:  # a fresh game still records its seed: loading replays from it
        seed = int(np.random.default_rng().integers(2**62))
    st.origin_seed = int(seed)
    st.rng = new_rng(st.origin_seed)
    cfg = game.config
    st.policies = list(D.START_POLICIES)
    if cfg["initial_p6"] == "A":
        st.policies[5] = 0
    st.money = list(D.START_MONEY)
    st.influence = list(D.START_INFLUENCE)
    st.bag = [D.BAG_START_CUBES] * 3
    st.cube_supply = [D.VOTING_CUBES - D.BAG_START_CUBES] * 3
    st.public_services = list(D.START_PUBLIC_SERVICES)
    st.mc_storage = list(D.MC_START_STORAGE)
    st.cc_storage = list(D.CC_START_STORAGE)

    # public sector: row 1 face up at L2, rows 2 and 3 face down (§1.2)
    for k, company in enumerate(D.PUBLIC_ROW1):
        _place(st, PUBLIC_SEATS[k], D.COMPANIES[company].id)
    for row in (1, 2):
        for k, company in enumerate(D.PUBLIC_LOWER):
            seat = PUBLIC_SEATS[3 * row + k]
            _place(st, seat, D.COMPANIES[company].id)
            st.seat_face_up[seat] = 0
    # private sector
    for k, company in enumerate(D.CC_START):
        _place(st, CC_SEATS[k], D.COMPANIES[company].id)
    for k, company in enumerate(D.MC_START):
        _place(st, MC_SEATS[k], D.COMPANIES[company].id)

    # decks (the top card is the last)
    st.cc_deck = _shuffled(st, list(D.CC_DECK))
    st.mc_deck = _shuffled(st, list(D.MC_DECK))
    st.cc_market = [st.cc_deck.pop() for _ in range(D.MARKET_SIZE["cc"])]
    st.mc_market = [st.mc_deck.pop() for _ in range(D.MARKET_SIZE["mc"])]
    st.deal_deck = _shuffled(st, list(D.DEAL_DECK))
    st.deals = [st.deal_deck.pop()]
    st.export_deck = _shuffled(st, list(range(len(C.EXPORTS))))
    st.export = st.export_deck.pop() if st.export_deck else -1
    st.immigration = _shuffled(st, list(range(len(D.IMMIGRATION_DECK))))
    st.agenda_deck = _shuffled(st, list(range(len(C.AGENDAS))))
    st.agenda_card = st.agenda_deck.pop() if st.agenda_deck else -1
    _deal_first_events(st)
    for cls in (WC, MC, CC, ST):
        designs = [i for i, card in enumerate(C.ACTION_CARDS[CLASSES[cls]])
                   for _ in range(card.copies)]
        st.action_decks[cls] = _shuffled(st, designs)
        draw_actions(st, cls, D.HAND_SIZE)

    _starting_workers(st)
    reset_ctx(st)
    st.push((K.SETUP_SKILL, MC, 0), (K.ROUND, WC, 1))
    st._run()
    return st


def _deal_first_events(st: HegemonyState) -> None:
    """Two Events face up; one marked round >= 2 goes back into the deck and is replaced
    (§1.3).  The deck is shuffled again after each return, so the draw stays fair."""
    deck = _shuffled(st, list(range(len(C.EVENTS))))
    while len(st.events) < 2 and any(C.EVENTS[c].min_round < 2 for c in deck):
        card = deck.pop()
        if C.EVENTS[card].min_round >= 2:
            deck.append(card)
            deck = _shuffled(st, deck)
            continue
        st.events.append(card)
    st.event_deck = deck


def _starting_workers(st: HegemonyState) -> None:
    """§1.3 starting workers for 4 players (none committed)."""
    by_id = {D.COMPANIES[st.seat_card[s]].id: s for s in range(len(st.seat_card))
             if st.seat_card[s] >= 0 and st.seat_face_up[s]}
    agri, lux, health, edu = (1 + D.INDUSTRIES.index(i) for i in ("agri", "lux", "health", "edu"))
    u = 0
    _staff(st, by_id["supermarket"], worker(WC, agri), worker(WC, u))
    _staff(st, by_id["college"], worker(WC, edu), worker(WC, u))
    _staff(st, by_id["university_hospital"], worker(WC, health), worker(WC, u), worker(WC, u))
    st.unemployed[WC][u] += 1
    immigrate(st, WC, 2)
    _staff(st, by_id["technical_university"], worker(MC, edu), worker(MC, u), worker(MC, u))
    _staff(st, by_id["shopping_mall"], worker(MC, lux), worker(MC, u))
    _staff(st, by_id["convenience_store"], worker(MC, agri))
    _staff(st, by_id["doctors_office"], worker(MC, health))
    immigrate(st, MC, 2)  # MC draws its own cards; its skilled worker is the SETUP_SKILL choice
