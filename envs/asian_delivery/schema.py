"""The shape of a saved game: every entry of the state vector gets its own range.

The state is one flat integer vector (``layout.py``); a shape of "898 integers"
would let a tampered entry through to crash, hang or leave the observation
space.  So the schema walks the layout's named blocks in order and gives each
entry the range the rules allow for it, from the game's data, and a refusal
names the block: ``field state.v[311] (seat 0 warehouse[N:base]): expected an
integer in 0..8, got -4``.  Whatever a range cannot say (one-hots in step
with their index, conservation, the pending decision's context) is checked by
``AsianDeliveryState.check_invariants``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from meeplezoo.envs.asian_delivery import layout as L
from meeplezoo.envs.asian_delivery.actions import ACTION_CARDS, D_COMPANY, DECISIONS
from meeplezoo.envs.asian_delivery.board import (
    DISTANCE,
    MAX_DISTANCE,
    NUM_AREAS,
    NUM_DISTRICTS,
    NUM_PORT_POSITIONS,
    PORT,
    PORT_TOUCH,
)
from meeplezoo.envs.asian_delivery.data import (
    COIN_VP,
    COINS_BY_DISTANCE,
    COLOURS,
    COMPANIES,
    DAILIES,
    DAILIES_PER_PLAYER,
    DISTRICT_VP,
    DISTRICTS,
    FINAL_VP,
    FIXED_PORT_POSITION,
    GROWTH_MARKERS,
    INTERIM_VP,
    KINDS,
    MARKERS,
    MARKET_SIZE,
    MAX_WORKERS,
    REQUESTS,
    ROUNDS,
    SHARED_DAILIES,
    SLOT_ACTIONS,
    SLOT_GAIN,
    SLOTS,
    START_PORT,
    START_RESERVE,
    STOCK,
    TRACKS,
    TRANSPORT,
    WAREHOUSE,
    Request,
)
from meeplezoo.envs.core.schema import RNG_STATE, Int, List, Record, Spec, Tuple

# -- bounds the rules put on the numbers, from the game's data ---------------------------
MAX_CAPACITY = max(c.tracks[WAREHOUSE][-1] for c in COMPANIES)  # most a district holds
MAX_TRANSPORT = max(c.tracks[TRANSPORT][-1] for c in COMPANIES)
MAX_TRACK_STEPS = tuple(max(c.markers(t) for c in COMPANIES) for t in range(len(TRACKS)))
# resources a player can take from the supply in a game: the set-up base, a
# refill after every round but the last, and per placement its gained base plus
# one advanced resource per upgrade action
MAX_RECEIVED = (
    START_PORT
    + START_RESERVE
    + (ROUNDS - 1) * max(c.tracks[STOCK][-1] for c in COMPANIES)
    + ROUNDS * MAX_WORKERS * max(g + a for g, a in zip(SLOT_GAIN, SLOT_ACTIONS))
)
# the reserve holds at most the set-up base kept back plus one slot's gain
MAX_RESERVE = START_RESERVE + max(SLOT_GAIN)
# requests a player can fulfil: every market card, and each daily once a round
MAX_FULFILS = len(REQUESTS) + DAILIES_PER_PLAYER * ROUNDS
# interest markers a company places in a game (one per growth marker removed)
MAX_PLACED_MARKERS = min(MARKERS, sum(GROWTH_MARKERS))
# the cards that stay out of the market (it is refilled whenever a card leaves)
MAX_DECK = len(REQUESTS) - MARKET_SIZE
COLOUR_CARDS = tuple(sum(r.colour == c for r in REQUESTS) for c in range(len(COLOURS)))

ZERO = Int(choices=(0,))
FLAG = Int(0, 1)


def _index(size: int) -> Int:
    """An index into ``size`` things, or -1 for none."""
    return Int(-1, size - 1)


def _exact(value: int) -> Int:
    return Int(choices=(value,))


def _one_of(values: Sequence[int]) -> Int:
    return Int(choices=tuple(sorted(set(values))))


def _exact_one_hot(size: int, index: int) -> list[Spec]:
    return [_exact(int(i == index)) for i in range(size)]


@dataclass(frozen=True)
class Entry(Spec):
    """One entry of the state vector: a refusal names its layout block and label."""

    name: str
    inner: Spec

    def check(self, value: Any, path: str) -> None:
        self.inner.check(value, f"{path} ({self.name})")


BlockSpecs = dict[str, Spec | Sequence[Spec]]


def _section(section: str, blocks: L.Blocks, table: BlockSpecs) -> list[Spec]:
    """One spec per entry of ``blocks``; every block needs its entry in ``table``."""
    assert [name for name, _ in blocks] == list(table), (
        f"{section}: schema blocks {list(table)} differ from the layout's"
    )
    specs: list[Spec] = []
    for name, labels in blocks:
        spec = table[name]
        per_label = [spec] * len(labels) if isinstance(spec, Spec) else list(spec)
        assert len(per_label) == len(labels), f"{section} {name}: {len(per_label)} specs"
        for label, item in zip(labels, per_label):
            specs.append(Entry(f"{section} {name}" + (f"[{label}]" if label else ""), item))
    return specs


def breakdown_bounds(coins: bool, daily_cards: Sequence[Request]) -> dict[str, int]:
    """Most VP a player can score in each breakdown category."""
    coin_total = sum(
        COINS_BY_DISTANCE[DISTANCE[FIXED_PORT_POSITION - 1][pos]] for pos in range(NUM_DISTRICTS)
    )
    bounds = {
        "request_vp": sum(r.vp for r in REQUESTS)
        + DAILIES_PER_PLAYER * ROUNDS * max(d.vp for d in daily_cards),
        "step_bonus": 0 if coins else MAX_FULFILS * MAX_DISTANCE,
        "interest_bonus": MAX_FULFILS * MAX_PLACED_MARKERS,
        "coins": COIN_VP * coin_total if coins else 0,
        "interim_majority": len(COLOURS) * INTERIM_VP[0],
        "final_majority": len(COLOURS) * FINAL_VP[0],
        "district_majority": NUM_DISTRICTS * DISTRICT_VP,
    }
    assert tuple(bounds) == L.BREAKDOWN
    return bounds


def _track_values(track: int, chosen_always: bool) -> Int:
    """A track's value or next value: one a company prints, or 0 before the choice."""
    values = {value for c in COMPANIES for value in c.tracks[track]}
    return _one_of(sorted(values) if chosen_always else [0, *values])


def _global_table(coins: bool) -> BlockSpecs:
    fixed = FIXED_PORT_POSITION - 1
    request_values = {
        "base": [0, *(r.base for r in REQUESTS)],
        "advanced": [0, *(r.advanced for r in REQUESTS)],
        "vp": [0, *(r.vp for r in REQUESTS)],
    }
    company_tracks = [(c, t) for c in COMPANIES for t in range(len(TRACKS))]
    return {
        "decision": FLAG,
        "ctx.actions_left": Int(0, max(SLOT_ACTIONS)),
        "ctx.action_card": FLAG,
        # one base per district, two on a district with a terminal icon
        "ctx.placed_here_this_turn": Int(0, 1 + max(int(d.terminal) for d in DISTRICTS)),
        "ctx.request": FLAG,
        "ctx.transport_from": FLAG,
        "ctx.transport_to": FLAG,
        "ctx.transport_moved": Int(0, MAX_TRANSPORT - 1),  # the move ends at the capacity
        "ctx.upgrade_colour": FLAG,
        "ctx.growth_markers_left": Int(0, max(GROWTH_MARKERS)),
        "ctx.grow_track": FLAG,
        "round": FLAG,
        "action_card_workers": Int(0, SLOTS),
        "city.colour": FLAG,
        "city.terminal": FLAG,
        "city.distance": (
            [_exact(DISTANCE[fixed][pos]) for pos in range(NUM_DISTRICTS)]
            if coins
            else Int(1, MAX_DISTANCE)
        ),
        "city.port_adjacent": (
            [_exact(int(pos in PORT_TOUCH[fixed])) for pos in range(NUM_DISTRICTS)]
            if coins
            else FLAG
        ),
        "city.coins": (
            [Int(0, COINS_BY_DISTANCE[DISTANCE[fixed][pos]]) for pos in range(NUM_DISTRICTS)]
            if coins
            else ZERO
        ),
        "city.port_position": _exact_one_hot(NUM_PORT_POSITIONS, fixed) if coins else FLAG,
        "market.present": FLAG,
        "market.colour": FLAG,
        "market.base": _one_of(request_values["base"]),
        "market.advanced": _one_of(request_values["advanced"]),
        "market.vp": _one_of(request_values["vp"]),
        "deck_size": Int(0, MAX_DECK),
        "discard_size": ZERO,  # no rule discards a request
        "company_free": FLAG,
        "company_track.start": [_exact(c.tracks[t][0]) for c, t in company_tracks],
        "company_track.end": [_exact(c.tracks[t][-1]) for c, t in company_tracks],
        "company_track.markers": [_exact(c.markers(t)) for c, t in company_tracks],
    }


def _seat_table(coins: bool, shared: bool, chosen_always: bool,
                daily_cards: Sequence[Request]) -> BlockSpecs:
    tracks = range(len(TRACKS))
    bounds = breakdown_bounds(coins, daily_cards)
    daily_base: Spec | list[Spec]
    daily_vp: Spec | list[Spec]
    if shared:  # everyone holds the shared dailies in their order
        daily_base = [_exact(card.base) for card in daily_cards]
        daily_vp = [_exact(card.vp) for card in daily_cards]
    else:
        daily_base = _one_of([card.base for card in daily_cards])
        daily_vp = _one_of([card.vp for card in daily_cards])
    return {
        "present": _exact(1),
        "to_move": FLAG,
        "start_player": FLAG,
        "passed": FLAG,
        "company": FLAG,
        "track_value": [_track_values(t, chosen_always) for t in tracks],
        "track_next_value": [_track_values(t, chosen_always) for t in tracks],
        "track_markers_left": [Int(0, MAX_TRACK_STEPS[t]) for t in tracks],
        "workers_available": Int(0, MAX_WORKERS),
        "reserve_base": Int(0, MAX_RESERVE),
        "vp": Int(0, sum(bounds.values())),
        "completed": [Int(0, COLOUR_CARDS[c]) for c in range(len(COLOURS))],
        "completed_total": Int(0, len(REQUESTS)),
        "daily.present": _exact(1),  # a daily never leaves its owner
        "daily.face_up": FLAG,
        "daily.base": daily_base,
        "daily.vp": daily_vp,
        "warehouse": [
            Int(0, MAX_RECEIVED if area == PORT else MAX_CAPACITY)
            for area in range(NUM_AREAS)
            for _ in KINDS
        ],
        "markers": Int(0, MAX_PLACED_MARKERS),
        "markers_on_company_board": Int(0, MARKERS),
    }


def _per_player(n: int, per_seat: Sequence[Spec], absent: Spec = ZERO) -> list[Spec]:
    """A block with one group of entries per seat; seats beyond ``n`` hold ``absent``."""
    return [
        spec if p < n else absent for p in range(L.MAX_PLAYERS) for spec in per_seat
    ]


def _internal_table(n: int, coins: bool, shared: bool, chosen_always: bool,
                    daily_cards: Sequence[Request]) -> BlockSpecs:
    bounds = breakdown_bounds(coins, daily_cards)
    decisions = [d for d in range(len(DECISIONS)) if not (chosen_always and d == D_COMPANY)]
    daily_ids: list[Spec] = (
        [_exact(k) for k in range(DAILIES_PER_PLAYER)]
        if shared
        else [Int(0, len(daily_cards) - 1)] * DAILIES_PER_PLAYER
    )
    return {
        "decision": _one_of(decisions),
        "current_player": Int(0, n - 1),
        "start_player": Int(0, n - 1),
        "round": Int(0, ROUNDS - 1),
        "game_over": FLAG,
        "card": _index(len(ACTION_CARDS)),
        "request": _index(MARKET_SIZE + DAILIES_PER_PLAYER),
        "from": _index(NUM_AREAS),
        "to": _index(NUM_AREAS),
        "upgrade_colour": _index(len(COLOURS)),
        "track": _index(len(TRACKS)),
        "growers_done": Int(0, n),
        "port_position": _exact(FIXED_PORT_POSITION - 1) if coins else Int(
            0, NUM_PORT_POSITIONS - 1
        ),
        "market_card": _index(len(REQUESTS)),
        "district_at": Int(0, NUM_DISTRICTS - 1),
        "slot_owner": _index(n),
        "company_of": _per_player(
            n, [Int(0, len(COMPANIES) - 1) if chosen_always else _index(len(COMPANIES))],
            absent=_exact(-1),
        ),
        "track_step": _per_player(n, [Int(0, MAX_TRACK_STEPS[t]) for t in range(len(TRACKS))]),
        "received": _per_player(n, [Int(0, MAX_RECEIVED)]),
        "returned": _per_player(n, [Int(0, MAX_RECEIVED)]),
        "breakdown": _per_player(n, [Int(0, bound) for bound in bounds.values()]),
        "daily_id": _per_player(n, daily_ids),
        "gain_to_place": Int(0, max(SLOT_GAIN)),
    }


@cache
def state_schema(n: int, coins: bool, shared: bool, chosen_always: bool) -> Record:
    """The saved state of an ``n``-player game with these options (see module doc)."""
    daily_cards = SHARED_DAILIES if shared else DAILIES
    vector: list[Spec] = [Entry("padding", ZERO)]
    vector += _section("global", L.GLOBAL_BLOCKS, _global_table(coins))
    seat = _seat_table(coins, shared, chosen_always, daily_cards)
    absent: BlockSpecs = {name: ZERO for name, _ in L.SEAT_BLOCKS}  # padding seats
    for p in range(L.MAX_PLAYERS):
        vector += _section(f"seat {p}", L.SEAT_BLOCKS, seat if p < n else absent)
    vector += _section(
        "internal",
        L.INTERNAL_BLOCKS,
        _internal_table(n, coins, shared, chosen_always, daily_cards),
    )
    assert len(vector) == L.STATE_SIZE
    card = Int(0, len(REQUESTS) - 1)
    return Record({
        "v": Tuple(vector),
        "deck": List(card, (0, MAX_DECK)),
        "discard": List(card, 0),
        "completed": List(List(card, (0, len(REQUESTS))), n),
        "rng": RNG_STATE,
    })
