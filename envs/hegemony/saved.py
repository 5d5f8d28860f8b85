"""The shape of a saved Hegemony position (see ``envs.core.schema``): every field of
``state.FIELDS`` typed and bounded, so a tampered file is refused before it is played."""

from __future__ import annotations

from meeplezoo.envs.core.schema import RNG_STATE, Int, List, Record, Tuple
from meeplezoo.envs.hegemony import cards as C
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony.actions import MAX_SLOTS, NUM_SEATS
from meeplezoo.envs.hegemony.state import BENEFIT_ITEMS, KINDS, NO_WORKER, VP_SOURCES
from meeplezoo.envs.hegemony.turn import AGENDA_NAMES, CTX_DEFAULTS

MONEY = Int(-10**6, 10**6)  # money can run short only through loans; wide but finite
COUNT = Int(0, 10**4)
VP = Int(-10**4, 10**4)
AGENDA_MAX = 200
HISTORY_MAX = 20_000  # the env's decision cap
ARG = Int(-1, 10**9)


def _cards_in(n: int) -> Int:
    return Int(0, max(n - 1, 0))


def state_schema() -> Record:
    codes = tuple(sorted(AGENDA_NAMES))
    seat = Int(0, 3)
    section = Int(0, 2)
    company = Int(-1, len(D.COMPANIES) - 1)
    designs = {cls: len(C.ACTION_CARDS[cls]) for cls in D.CLASSES}
    hand = Tuple([List(_cards_in(designs[c]), (0, 40)) for c in D.CLASSES])
    return Record({
        "rng": RNG_STATE,
        "round": Int(1, D.ROUNDS), "turn_pass": Int(0, 5),
        "main_done": Int(0, 1), "free_used": Int(0, 1),
        "agenda": List(Tuple([Int(choices=codes), seat, ARG]), (0, AGENDA_MAX)),
        "ctx": Record({key: Int(-1, 2**31) for key in CTX_DEFAULTS}),
        "origin_seed": Int(0, 2**63 - 1),
        "history": List(Int(0, 1000), (0, HISTORY_MAX)),
        "policies": List(section, 7),
        "bills": List(Int(-1, 11), 7),
        "markers_used": List(Int(0, D.BILL_MARKERS), 4),
        "money": List(MONEY, 4), "capital": MONEY, "loans": List(COUNT, 4),
        "vp": List(VP, 4), "vp_sources": List(List(VP, len(VP_SOURCES)), 4),
        "influence": List(Int(0, D.INFLUENCE_CUBES), 4), "minted": Int(
            -10**7, 10**7),
        "bag": List(Int(0, D.VOTING_CUBES), 3), "cube_supply": List(Int(0, D.VOTING_CUBES), 3),
        "prosperity": List(Int(0, 10), 2),
        "unemployed": List(List(COUNT, KINDS), 2),
        "unions": List(Int(0, 1), 5),
        "goods": List(List(COUNT, 4), 2),
        "mc_storage": List(COUNT, 4),
        "cc_storage": List(COUNT, 4), "ftz": List(COUNT, 2),
        "storage_tiles": List(Int(0, 1), 4), "wealth": Int(0, len(D.WEALTH_THRESHOLDS) - 1),
        "prices": List(List(Int(0, 2), 4), 2),
        "legitimacy": List(Int(D.LEGITIMACY_MIN, D.LEGITIMACY_MAX), 3),
        "legit_tokens": List(Int(0, D.LEGITIMACY_TOKENS), 3),
        "public_services": List(COUNT, 3), "state_goods": List(COUNT, 2),
        "benefits": List(List(COUNT, len(BENEFIT_ITEMS)), 3),
        "demonstration": Int(0, 1),
        "seat_card": List(company, NUM_SEATS),
        "seat_wage": List(Int(-1, 2), NUM_SEATS),
        "seat_workers": List(List(Int(NO_WORKER, 2 * KINDS - 1), MAX_SLOTS), NUM_SEATS),
        "seat_committed": List(List(Int(0, 1), MAX_SLOTS), NUM_SEATS),
        "seat_machinery": List(Int(0, 1), NUM_SEATS),
        "seat_strike": List(Int(0, 1), NUM_SEATS),
        "seat_face_up": List(Int(0, 1), NUM_SEATS),
        "hands": hand, "action_decks": hand, "action_discard": hand,
        "cc_deck": List(company, (0, len(D.CC_DECK))),
        "cc_market": List(company, (0, D.MARKET_SIZE["cc"])),
        "mc_deck": List(company, (0, len(D.MC_DECK))),
        "mc_market": List(company, (0, D.MARKET_SIZE["mc"])),
        "company_discard": List(company, (0, len(D.CC_DECK) + len(D.MC_DECK) + 12)),
        "deal_deck": List(Int(0, len(D.DEALS) - 1), (0, len(D.DEAL_DECK))),
        "deals": List(Int(0, len(D.DEALS) - 1), (0, 2)),
        "export_deck": List(_cards_in(len(C.EXPORTS)), (0, len(C.EXPORTS))),
        "export": Int(-1, len(C.EXPORTS) - 1),
        "immigration": List(Int(0, len(D.IMMIGRATION_DECK) - 1), len(D.IMMIGRATION_DECK)),
        "immigration_seen": Int(0, len(D.IMMIGRATION_DECK)),
        "event_deck": List(_cards_in(len(C.EVENTS)), (0, len(C.EVENTS))),
        "events": List(_cards_in(len(C.EVENTS)), (0, 4)),
        "agenda_deck": List(_cards_in(len(C.AGENDAS)), (0, len(C.AGENDAS))),
        "agenda_card": Int(-1, len(C.AGENDAS) - 1),
        "last_agenda": Int(-1, len(C.AGENDAS) - 1),
    })
