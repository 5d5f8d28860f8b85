"""The observation: the pending decision, the public table, then one block per seat
in egocentric order (the viewer first), padded to the most seats the data file
allows (4).  Every entry is named and scaled into [0, 1] by the maxima in the data
file.

Hidden from everyone: the deck order (only the public back of its top card and
its size are shown) and future coffin draws.  The coffin bag's colour counts are
shown: every drawn coffin stays on the table, so anyone can count them.

Speed (the env must run at twice connect-four's decisions/s): the vector is made
of ~50 small parts.  A part is memoised by the values it is made from (a London
board, a column, the train, the decision, disc counts, a seat's money, cargo and
staff numbers), so a changed part costs a lookup and one slice write; the table's
supplies (too many values to memoise) are converted in place.  Numeric parts are
looked up only when their raw numbers changed, a seat's parts only when the agenda
touched that seat, and each observation is one concatenation of the kept blocks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from meeplezoo.envs.core.features import FeatureLayout
from meeplezoo.envs.necropolis_railway import actions as A
from meeplezoo.envs.necropolis_railway import agenda as G
from meeplezoo.envs.necropolis_railway import data as D
from meeplezoo.envs.necropolis_railway.scoring import SCORE_LINES, london_pairs

if TYPE_CHECKING:
    from meeplezoo.envs.necropolis_railway.state import NecropolisState

MAX_PLAYERS = max(D.PLAYER_COUNTS)  # seat blocks, padded
M = D.OBS_MAX
_DC = D.DISC_COLOURS
_CC = D.COFFIN_COLOURS
_F32 = np.float32
_MEMO_CAP = 200_000
_USED = G.TURN_USES
_FLAGS = ("tucked_this_card", "crew_car", "dining_car", "baggage_car", "hired_this_action",
          "built_this_action")
_CARD_PART = (["present"] + [f"trains_{k}" for k in D.ACTION_KEY]
              + [a.lower() for a in D.ABILITIES])


class Part:
    """A named group of features: its names and, for numeric parts, 1/maximum per entry."""

    def __init__(self, names: list[str], maxima: list[float] | None = None) -> None:
        self.names = names
        self.size = len(names)
        self.inv = None if maxima is None else np.array([1.0 / m for m in maxima], dtype=_F32)

    def convert(self, raw: Sequence[float]) -> np.ndarray:
        return np.minimum(np.array(raw, dtype=_F32) * self.inv, 1.0)

    def convert_into(self, raw: Sequence[float], out: np.ndarray) -> None:
        np.multiply(np.array(raw, dtype=_F32), self.inv, out=out)
        np.minimum(out, 1.0, out=out)


def _numeric(pairs: list[tuple[str, float]]) -> Part:
    return Part([n for n, _ in pairs], [m for _, m in pairs])


def _memo(memo: dict, key: Any, make: Callable[[Any], Any]) -> Any:
    got = memo.get(key)
    if got is None:
        if len(memo) > _MEMO_CAP:
            memo.clear()
        got = memo[key] = make(key)
    return got


# -- the pending decision ------------------------------------------------------------------------
PENDING = Part(
    [f"decision[{d}]" for d in A.DECISIONS]
    + [f"decider_seat[+{k}]" for k in range(MAX_PLAYERS)]
    + [f"my_turn_order[{k}]" for k in range(MAX_PLAYERS)]
    + [f"pay_for[{p}]" for p in A.PAY_PURPOSES]
    + ["pay_left"]
    + [f"rail_mode[{m}]" for m in A.RAIL_MODES]
    + [f"free_mortuary[{k}]" for k in D.MORTUARY_KINDS]
    + ["pieces_to_place", "upkeep_per_staff"]
)
TURN = Part([f"turn_used[{u}]" for u in _USED] + [f"turn_flags[{f}]" for f in _FLAGS]
            + ["turn_movement"] + [f"turn_card[{c}]" for c in _CARD_PART])
_P = {n: i for i, n in enumerate(PENDING.names)}


def _card_features(card: int) -> list[float]:
    v = [0.0] * len(_CARD_PART)
    if card >= 0:
        v[0] = 1.0
        for k in range(3):
            v[1 + k] = D.CARD_TRAINS[card][k] / D.MAX_CARD_TRAINS
        v[4 + D.CARD_ABILITY[card]] = 1.0
    return v


_CARD_FEATS = [_card_features(c) for c in range(D.NUM_CARDS)] + [_card_features(-1)]


class _Memos:
    """This module's memo tables of one game (``Game.memo``, never module-level: two games in
    two threads never meet): each value is a pure function of its key (the raw numbers it
    encodes) and is never written to, so threads of one game that race only store equal
    values (a dict assignment or ``clear`` is atomic under the GIL; ``_memo`` returns the value
    it made, never re-reads the dict)."""

    __slots__ = ("bonus", "cargo", "column", "disc_supply", "discs", "head", "london", "money",
                 "pending", "rail", "slot", "staff", "turn")

    def __init__(self) -> None:
        for name in self.__slots__:
            setattr(self, name, {})


def _memos(st: NecropolisState) -> _Memos:
    return st.game.memo("necropolis_railway.observation", _Memos)


def _pending_array(key: tuple) -> np.ndarray:
    kind, rel, order, purpose, pay_left, rail, fm, pieces, upkeep = key
    v = np.zeros(PENDING.size, dtype=_F32)
    if kind >= 0:
        v[kind] = 1.0
        v[_P["decider_seat[+0]"] + rel] = 1.0
    v[_P["my_turn_order[0]"] + order] = 1.0
    if purpose >= 0:
        v[_P[f"pay_for[{A.PAY_PURPOSES[0]}]"] + purpose] = 1.0
        v[_P["pay_left"]] = min(pay_left / 3.0, 1.0)
    if rail >= 0:
        v[_P[f"rail_mode[{A.RAIL_MODES[0]}]"] + rail] = 1.0
    if fm >= 0:
        v[_P[f"free_mortuary[{D.MORTUARY_KINDS[0]}]"] + fm] = 1.0
    v[_P["pieces_to_place"]] = min(pieces / 2.0, 1.0)
    v[_P["upkeep_per_staff"]] = min(upkeep / float(D.UPKEEP), 1.0)
    return v


def _turn_array(key: tuple) -> np.ndarray:
    used, flags, move, card = key
    return np.array(list(used) + list(flags) + [min(move / M["movement"], 1.0)]
                    + _CARD_FEATS[card], dtype=_F32)


_NO_TURN = ((False,) * 6, (False,) * 6, 0, -1)


def decision_parts(st: NecropolisState, player: int) -> tuple[np.ndarray, np.ndarray]:
    purpose = pay_left = rail = fm = -1
    pieces = upkeep = 0
    if st.agenda:
        kind, seat, arg = st.agenda[-1]
        rel = (seat - player) % st.num_players
        if kind == A.K_PAY:
            purpose, pay_left = st.pay_purpose, st.pay_left
        elif kind == A.K_RAIL:
            rail = 1 if arg >= 0 else 0
        elif kind == A.K_FREE_MORT:
            fm = arg
        elif kind == A.K_VOLUNTEER or kind == A.K_INCOME_DISC:
            pieces = arg
        elif kind == A.K_DISMISS:
            upkeep = arg
    else:
        kind, rel = -1, 0
    key = (kind, rel, player, purpose, pay_left, rail, fm, pieces, upkeep)
    memos = _memos(st)
    pending = memos.pending.get(key)
    if pending is None:  # few distinct keys: no cap needed
        pending = memos.pending[key] = _pending_array(key)
    cache = st._obs_cache
    turn = cache.get("turn")
    if turn is None or st._tdirty & G.T_TURN:
        if st.t_seat >= 0:
            tkey = (tuple(st.t_used), (st.t_tucked_now, st.t_crew, st.t_dining, st.t_baggage,
                                       st.t_hired, st.t_built), st.t_move, st.t_card)
        else:
            tkey = _NO_TURN
        turn = cache["turn"] = _memo(memos.turn, tkey, _turn_array)
    return pending, turn


# -- the table -----------------------------------------------------------------------------------
ROW = Part(
    [f"phase[{p}]" for p in G.PHASES] + ["round"]
    + [f"num_players[{k + 1}]" for k in range(MAX_PLAYERS)]
    + [f"row_{k + 1}[{n}]" for k in range(D.ROW_SIZE)
       for n in _CARD_PART + [f"discs_{c}" for c in _DC]]
    + [f"deck_top_back[{c}]" for c in _DC]
)
DISC_SUPPLY = _numeric([(f"disc_supply[{c}]", float(D.DISC_SUPPLY)) for c in _DC])
BONUS = Part([f"bonus_space_taken[{b}]" for b in D.BONUS_SPACES])
SUPPLIES = _numeric(
    [("deck_size", M["deck"]), ("discard_size", M["deck"])]
    + [(f"coffin_bag[{c}]", float(D.COFFINS_PER_COLOUR)) for c in _CC]
    + [(f"mortuary_supply[{k}]", float(max(D.MORTUARY_SUPPLY))) for k in D.MORTUARY_KINDS]
    + [("volunteer_supply", float(D.VOLUNTEER_SUPPLY))]
)
_ROW_DISC_SCALE = 1.0 / M["row_discs"]


def _bonus_array(key: tuple) -> np.ndarray:
    return np.array([b >= 0 for b in key], dtype=_F32)


def _slot_array(key: tuple) -> np.ndarray:
    card, discs = key
    return np.array(_CARD_FEATS[card] + [min(x * _ROW_DISC_SCALE, 1.0) for x in discs],
                    dtype=_F32)


def _head_array(key: tuple) -> np.ndarray:
    phase, rnd, n = key
    v = np.zeros(len(G.PHASES) + 1 + MAX_PLAYERS, dtype=_F32)
    v[phase] = 1.0
    v[len(G.PHASES)] = min(rnd, D.ROUNDS) / D.ROUNDS
    v[len(G.PHASES) + n] = 1.0
    return v


def _back_array(card: int) -> np.ndarray:
    v = np.zeros(D.NUM_DISC_COLOURS, dtype=_F32)
    if card >= 0:
        for c in D.CARD_BACK[card]:
            v[c] += 1.0 / D.MAX_BACK_DISCS
    return v


_BACKS = [_back_array(c) for c in range(D.NUM_CARDS)] + [_back_array(-1)]


def _offsets(parts: list[Part]) -> list[slice]:
    out, o = [], 0
    for part in parts:
        out.append(slice(o, o + part.size))
        o += part.size
    return out


_T_ROW, _T_DISC, _T_BONUS, _T_SUP = _offsets([ROW, DISC_SUPPLY, BONUS, SUPPLIES])
TABLE_SIZE = _T_SUP.stop
_SLOT_SIZE = len(_CARD_PART) + D.NUM_DISC_COLOURS
_HEAD_SIZE = len(G.PHASES) + 1 + MAX_PLAYERS
# the row part's pieces: the head (phase, round, player count), each slot, the deck's top back
_ROW_HEAD = slice(_T_ROW.start, _T_ROW.start + _HEAD_SIZE)
_ROW_SLOTS = [slice(_ROW_HEAD.stop + k * _SLOT_SIZE, _ROW_HEAD.stop + (k + 1) * _SLOT_SIZE)
              for k in range(D.ROW_SIZE)]
_ROW_BACK = slice(_ROW_SLOTS[-1].stop, _T_ROW.stop)
_SLOT_NAMES = [f"slot{k}" for k in range(D.ROW_SIZE)]
assert _ROW_BACK.stop - _ROW_BACK.start == D.NUM_DISC_COLOURS


def _put(cache: dict, name: str, key: Any, memo: dict, make: Callable[[Any], np.ndarray],
         block: np.ndarray, where: slice) -> None:
    """Write the memoised part for ``key`` at ``where`` unless the block holds it already
    (``cache[name]`` is the key last written there)."""
    if cache.get(name) != key:
        cache[name] = key
        block[where] = _memo(memo, key, make)


def table_block(st: NecropolisState) -> np.ndarray:
    """The table block, kept on the state and updated in place where flagged changed.
    (``encode`` copies it into each observation, so updating in place is safe.)"""
    cache = st._obs_cache
    block = cache.get("table")
    dirty = st._tdirty
    if block is None:
        block = cache["table"] = np.zeros(TABLE_SIZE, dtype=_F32)
        dirty = G.TABLE_ALL
    memos = _memos(st)
    if dirty & G.T_ROW:  # a refill changes a slot or two: only changed pieces are written
        _put(cache, "head", (st.phase, st.round, st.num_players), memos.head, _head_array,
             block, _ROW_HEAD)
        row, rd = st.row, st.row_discs
        for k in range(D.ROW_SIZE):
            _put(cache, _SLOT_NAMES[k], (row[k], tuple(rd[k])), memos.slot, _slot_array, block,
                 _ROW_SLOTS[k])
        top = st.deck[-1] if st.deck else -1
        if cache.get("back") != top:
            cache["back"] = top
            block[_ROW_BACK] = _BACKS[top]
    if dirty & G.T_DISC:
        _put(cache, "disc_supply", tuple(st.disc_supply), memos.disc_supply,
             DISC_SUPPLY.convert, block, _T_DISC)
        _put(cache, "bonus", tuple(st.bonus_spaces), memos.bonus, _bonus_array, block, _T_BONUS)
    if dirty & G.T_SUP:
        nums = (len(st.deck), len(st.discard), *st.bag, *st.mortuary_supply, st.vol_supply)
        if cache.get("supplies") != nums:
            cache["supplies"] = nums
            SUPPLIES.convert_into(nums, block[_T_SUP])
    st._tdirty = 0
    return block


# -- a seat's boards -----------------------------------------------------------------------------
MONEY = _numeric([("money", M["money"]), ("prestige", float(D.PRESTIGE_MAX))]
                 + [(f"score_{s}", M["score_line"]) for s in SCORE_LINES]
                 + [("score_total", M["score_total"])])
DISCS = _numeric([(f"discs_{c}", M["discs_held"]) for c in _DC])
CARGO = _numeric([(f"waiting_{c}", M["waiting"]) for c in _CC]
                 + [("waiting_mourners", M["waiting"])]
                 + [(f"train_{c}", M["train_cargo"]) for c in _CC]
                 + [("train_mourners", M["train_cargo"])]
                 + [("necropolis_mourners", M["necropolis_mourners"])]
                 + [(f"overflow_{c}", M["overflow"]) for c in _CC])
STAFF = _numeric([("present", 1.0), ("london_staff", float(D.LONDON_STAFF_SPACES)),
                  ("london_volunteers", float(D.LONDON_STAFF_SPACES)),
                  ("staff_supply", float(D.STAFF_PER_PLAYER)),
                  ("coffin_capacity", M["capacity"]), ("mourner_capacity", M["capacity"])]
                 + [(f"tucked_{a.lower()}", float(D.MAX_TUCKED)) for a in D.ABILITIES])
LONDON = Part([f"london_{s}_{t}" for s in D.SLOT_NAMES for t in ("A", "B")])
RAIL = Part([f"train_at_{i}" for i in range(D.TRACK_LENGTH)]
            + [f"{k}_car_{i + 1}_{t}" for k in D.CAR_KINDS for i in range(D.CAR_POSITIONS)
               for t in ("A", "B")]
            + [f"pair_{i + 1}_perk_earned" for i in range(D.CAR_POSITIONS)]
            + [f"perk_{p}" for p in D.PERKS] + ["express_active"])
_COLUMN_LABELS = (["staff", "volunteer"] + list(D.MORTUARY_KINDS) + ["filled"]
                  + [f"plot_{r + 1}_{k}" for r in range(D.ROWS) for k in _CC])
COLUMNS = [Part([f"column_{c + 1}_{n}" for n in _COLUMN_LABELS]) for c in range(D.COLUMNS)]
SEAT_PARTS = [MONEY, DISCS, CARGO, STAFF, LONDON, RAIL, *COLUMNS]

# numeric parts are memoised by their raw numbers (``_Memos``): a lookup and one slice write
# beat converting


def _london_part(key: tuple) -> tuple[np.ndarray, int]:
    v = np.zeros(LONDON.size, dtype=_F32)
    for s, lvl in enumerate(key):
        if lvl:
            v[2 * s + lvl - 1] = 1.0
    pairs = london_pairs(key)
    return v, pairs


def _rail_part(key: tuple) -> np.ndarray:
    pos, coffin, mourner, pairs, perks, express = key
    v = np.zeros(RAIL.size, dtype=_F32)
    v[pos] = 1.0
    o = D.TRACK_LENGTH
    for kind, row in enumerate((coffin, mourner)):
        for i, side in enumerate(row):
            v[o + kind * 2 * D.CAR_POSITIONS + 2 * i + side - 1] = 1.0
    o += 4 * D.CAR_POSITIONS
    v[o:o + D.CAR_POSITIONS] = pairs
    o += D.CAR_POSITIONS
    v[o:o + len(D.PERKS)] = perks
    v[-1] = float(express)
    return v


def _column_part(key: tuple) -> tuple[np.ndarray, int, int]:
    """Features of one column, its majority x mortuary multiplier and whether it is full."""
    worker, mort, plots = key[0], key[1], key[2:]
    v = np.zeros(len(_COLUMN_LABELS), dtype=_F32)
    if worker:
        v[worker - 1] = 1.0
    if mort:
        v[1 + mort] = 1.0
    fill = sum(1 for k in plots if k >= 0)
    v[5] = fill / D.ROWS
    counts = [0] * D.NUM_COFFIN_COLOURS
    for r, k in enumerate(plots):
        if k >= 0:
            v[6 + D.NUM_COFFIN_COLOURS * r + k] = 1.0
            counts[k] += 1
    return v, max(counts) * D.MORTUARY_MULT[mort], int(fill == D.ROWS)


_S_MONEY, _S_DISCS, _S_CARGO, _S_STAFF, _S_LONDON, _S_RAIL, *_S_COLS = _offsets(SEAT_PARTS)
SEAT_SIZE = _S_COLS[-1].stop


_SCORE_INPUTS = G.S_MONEY | G.S_LONDON | G.S_COLS | G.S_CARGO | G.S_STAFF


class SeatCache:
    """A seat's block (updated in place) and what its parts were computed from."""

    __slots__ = ("block", "caps", "cargo_raw", "col_full", "col_keys", "col_majority",
                 "discs_key", "full", "london_key", "majority", "money_raw", "pairs", "rail_key",
                 "staff_raw")

    def __init__(self) -> None:
        for name in self.__slots__:
            setattr(self, name, None)
        self.col_keys = [None] * D.COLUMNS
        self.col_majority = [0] * D.COLUMNS
        self.col_full = [0] * D.COLUMNS


def seat_block(st: NecropolisState, seat: int) -> np.ndarray:
    """Update the areas of a seat's block flagged as changed (marks: state.build_agenda)."""
    p = st.players[seat]
    c = st._seat_cache[seat]
    dirty = st._dirty[seat]
    st._dirty[seat] = 0
    block = c.block
    if block is None:
        block = c.block = np.zeros(SEAT_SIZE, dtype=_F32)
        dirty = G.SEAT_ALL
    memos = _memos(st)
    if dirty & G.S_LONDON:
        key = tuple(p.london)
        if key != c.london_key:
            c.london_key = key
            block[_S_LONDON], c.pairs = _memo(memos.london, key, _london_part)
    if dirty & G.S_RAIL:
        c.caps = (p.coffin_capacity(), p.mourner_capacity())
        key = (p.pos, tuple(p.cars[0]), tuple(p.cars[1]), tuple(p.pairs), tuple(p.perks),
               p.express_turn >= 0)
        if key != c.rail_key:
            c.rail_key = key
            block[_S_RAIL] = _memo(memos.rail, key, _rail_part)
        dirty |= G.S_STAFF  # capacities
    if dirty & G.S_COLS:
        plots, cw, mo = p.plots, p.col_worker, p.mortuary
        keys, maj, full = c.col_keys, c.col_majority, c.col_full
        for col in range(D.COLUMNS):
            b = col * D.ROWS
            key = (cw[col], mo[col], *plots[b:b + D.ROWS])
            if key != keys[col]:
                keys[col] = key
                arr, maj[col], full[col] = _memo(memos.column, key, _column_part)
                block[_S_COLS[col]] = arr
        c.majority, c.full = sum(maj), sum(full)
    if dirty & _SCORE_INPUTS:  # the score lines come from money, London, columns, cargo...
        lines = [p.prestige * (p.london_staff + p.london_vol), D.PAIR_POINTS * c.pairs,
                 D.COLUMN_POINTS * c.full, c.majority, D.OVERFLOW_POINTS * sum(p.overflow),
                 (p.money + D.MONEY_PER_NECRO_MOURNER * p.necro_mourners) // D.MONEY_PER_POINT]
        raw = (p.money, p.prestige, *lines, sum(lines))
        if raw != c.money_raw:
            c.money_raw = raw
            block[_S_MONEY] = _memo(memos.money, raw, MONEY.convert)
    if dirty & G.S_CARGO:
        raw = (*p.waiting, p.waiting_mourners, *p.train, p.train_mourners, p.necro_mourners,
               *p.overflow)
        if raw != c.cargo_raw:
            c.cargo_raw = raw
            block[_S_CARGO] = _memo(memos.cargo, raw, CARGO.convert)
    if dirty & G.S_STAFF:
        tuck = [0] * len(D.ABILITIES)
        for card in p.tucked:
            tuck[D.CARD_ABILITY[card]] += 1
        raw = (1, p.london_staff, p.london_vol, p.staff_supply, *c.caps, *tuck)
        if raw != c.staff_raw:
            c.staff_raw = raw
            block[_S_STAFF] = _memo(memos.staff, raw, STAFF.convert)
    if dirty & G.S_DISCS:
        key = tuple(p.discs)
        if key != c.discs_key:
            c.discs_key = key
            block[_S_DISCS] = _memo(memos.discs, key, DISCS.convert)
    return block


# -- the whole vector ----------------------------------------------------------------------------
TABLE_PARTS = [ROW, DISC_SUPPLY, BONUS, SUPPLIES]
HEAD_PARTS = [PENDING, TURN, *TABLE_PARTS]


def _layout() -> FeatureLayout:
    lay = FeatureLayout()
    groups: dict[str, list[str]] = {}
    for part in HEAD_PARTS:
        for n in part.names:
            block, _, label = n.partition("[")
            groups.setdefault(block, []).append(label[:-1] if label else "")
    for block, labels in groups.items():
        lay.add(block, labels if labels != [""] else 1)
    seat_names = [n for part in SEAT_PARTS for n in part.names]
    for k in range(MAX_PLAYERS):
        lay.add("me" if k == 0 else f"opponent_{k}", seat_names)
    return lay


LAYOUT = _layout()
SIZE = LAYOUT.size
_EMPTY_SEAT = np.zeros(SEAT_SIZE, dtype=_F32)
assert PENDING.size + TURN.size + TABLE_SIZE + MAX_PLAYERS * SEAT_SIZE == SIZE


def encode(st: NecropolisState, player: int) -> np.ndarray:
    n = st.num_players
    dirty = st._dirty
    caches = st._seat_cache
    if caches is None:  # a state's first observation (clones for look-ahead never observe)
        caches = st._seat_cache = [SeatCache() for _ in range(n)]
    pending, turn = decision_parts(st, player)
    parts = [pending, turn, table_block(st)]
    for k in range(MAX_PLAYERS):
        if k < n:
            seat = (player + k) % n
            parts.append(seat_block(st, seat) if dirty[seat] else caches[seat].block)
        else:
            parts.append(_EMPTY_SEAT)
    return np.concatenate(parts)
