"""Heuristic opponent: one-ply greedy on a value estimate, with short look-ahead.

For each legal action the bot plays it on a copy of the position, then follows
its own sub-decisions (pay, upgrade, bury, ...) greedily one ply at a time until
the turn menu, a new turn or another seat comes up, and scores the result with
``value``: the points it would have now plus rough worth of what is still in
play (cargo, discs, income still to come, staff, capacity, pending movement).

It only uses what its seat can see: before looking ahead it re-draws the hidden
deck order and reseeds chance (``resample_hidden``), so no peeking at draws.
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.necropolis_railway import actions as A
from meeplezoo.envs.necropolis_railway import agenda as G
from meeplezoo.envs.necropolis_railway import data as D
from meeplezoo.envs.necropolis_railway.board import Player, london_income_of
from meeplezoo.envs.necropolis_railway.scoring import column_majority, london_pairs
from meeplezoo.envs.necropolis_railway.state import NecropolisState

_ROOT_ONLY = {A.K_TURN, A.K_TAKE, A.K_CENTURY, A.K_FINAL}
_CHAIN_STEPS = 12


class Memos:
    """The bot's memo tables of one game (``Game.memo``, never module-level: two games in two
    threads never meet): a London board's worth by its levels (few boards occur: no cap), and
    column majorities by plots + mortuaries (capped).  Each value is a pure function of its
    key, so threads of one game that race only store equal values."""

    __slots__ = ("london_worth", "majority")

    def __init__(self) -> None:
        self.london_worth: dict[tuple[int, ...], tuple[int, float]] = {}
        self.majority: dict[tuple[int, ...], float] = {}


def memos(st: NecropolisState) -> Memos:
    return st.game.memo("necropolis_railway.bot", Memos)


def income_value(memo: Memos, p: Player) -> float:
    """Worth of one London stop's income."""
    return _london_parts(memo, p.london)[1]


def _london_worth(levels: tuple[int, ...]) -> tuple[int, float]:
    """(pairs, income value) of a London board: both depend on its levels alone."""
    coffins, mourners, money, choice, orange = london_income_of(levels)
    return london_pairs(levels), (1.0 * coffins + 0.45 * mourners + 0.2 * money + 0.5 * choice
                                  + 0.6 * orange)


_MEMO_CAP = 100_000


def _london_parts(memo: Memos, london: list[int]) -> tuple[int, float]:
    key = tuple(london)
    got = memo.london_worth.get(key)
    if got is None:
        got = memo.london_worth[key] = _london_worth(key)
    return got


def _majority(memo: Memos, p: Player) -> float:
    """Column majorities times mortuary multipliers (a float, summed as ``value`` always did);
    the filled plots say each column's fill, so plots and mortuaries are the whole key."""
    key = (*p.plots, *p.mortuary)
    table = memo.majority
    got = table.get(key)
    if got is None:
        if len(table) > _MEMO_CAP:
            table.clear()
        majority = 0.0
        for c in range(D.COLUMNS):
            if p.fill[c]:
                majority += column_majority(p, c) * D.MORTUARY_MULT[p.mortuary[c]]
        got = table[key] = majority
    return got


def free_staffed_plots(p: Player) -> int:
    return sum(D.ROWS - p.fill[c] for c in range(D.COLUMNS) if p.col_worker[c])


def value(st: NecropolisState, seat: int) -> float:
    """Estimated final points of ``seat``."""
    p = st.players[seat]
    memo = memos(st)
    workers = p.london_staff + p.london_vol
    pairs, income = _london_parts(memo, p.london)
    majority = _majority(memo, p)
    money = p.money + D.MONEY_PER_NECRO_MOURNER * p.necro_mourners
    v = (p.prestige * workers + D.PAIR_POINTS * pairs + D.COLUMN_POINTS * p.fill.count(D.ROWS)
         + majority + D.OVERFLOW_POINTS * sum(p.overflow) + money / D.MONEY_PER_POINT)
    if st.is_terminal():
        return v + 0.001 * p.money
    left = max(0, D.ROUNDS - st.round) / D.ROUNDS  # share of the game still to play
    stops = 6.0 * left  # London stops still to come, roughly
    free = free_staffed_plots(p)
    train = sum(p.train)
    v += 1.3 * min(train, free) + 0.6 * max(0, train - free)
    v += (0.9 * min(sum(p.waiting), free) + 0.3 * sum(p.waiting)) * min(1.0, 3 * left)
    v += 0.35 * p.train_mourners + 0.25 * p.waiting_mourners
    v += (0.45 * sum(p.discs) + 0.2 * p.discs[D.ORANGE]) * min(1.0, 4 * left)
    v += stops * income
    v -= stops * 0.35 * p.staff_count() * D.UPKEEP / D.MONEY_PER_POINT
    v += 0.25 * p.prestige * left * 3
    v += workers * 0.6 * left * 3
    for c in range(D.COLUMNS):
        room = D.ROWS - p.fill[c]
        if p.col_worker[c] and room:
            v += min(room, 2) * (0.6 + 0.25 * D.MORTUARY_MULT[p.mortuary[c]]) * left
        if p.mortuary[c]:
            v += 0.3 * D.MORTUARY_MULT[p.mortuary[c]] * room * left
    cap = p.coffin_capacity() - D.BASE_COFFIN_CAP
    v += (0.35 * cap + 0.15 * (p.mourner_capacity() - D.BASE_MOURNER_CAP)) * left * 3
    v += 0.8 * len(p.tucked) * left
    v += 2.0 * sum(p.perks) * left
    if st.t_seat == seat and st.t_move and any(item[0] == G.MOVE_START for item in st.agenda):
        v += move_value(memo, p, st.t_move)
    return v


def move_value(memo: Memos, p: Player, steps: int) -> float:
    """Worth of the stations the train will reach this turn."""
    v = 0.0
    pos = p.pos
    train = sum(p.train)
    free = free_staffed_plots(p)
    for i in range(1, steps + 1):
        q = (pos + i) % D.TRACK_LENGTH
        if q == D.LONDON:
            v += 0.5 * income_value(memo, p) + 0.3 * min(sum(p.waiting), 3)
        elif q == D.NECROPOLIS:
            v += 0.8 * min(train, free) + 0.2 * p.train_mourners
            train = 0
    return v + 0.05 * steps


class GreedyBot:
    """One-ply greedy with a short look-ahead through its own sub-decisions."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, state: NecropolisState) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seat = state.current_player()
        base = state.resample_hidden(seat, self.rng)
        best, best_v = legal[0], -1e18
        for a in legal:
            s = base.clone(share_rng=True)
            s.apply(a)
            self._follow(s, seat)
            v = value(s, seat) + 1e-6 * self.rng.random()
            if v > best_v:
                best, best_v = a, v
        return best

    def _follow(self, s: NecropolisState, seat: int) -> None:
        """Play the seat's own sub-decisions greedily (one ply each)."""
        for _ in range(_CHAIN_STEPS):
            if s.is_terminal() or s.current_player() != seat or s.decision_kind() in _ROOT_ONLY:
                return
            best, best_v = None, -1e18
            for a in s.legal_actions():
                t = s.clone(share_rng=True)
                t.apply(a)
                v = value(t, seat)
                if v > best_v:
                    best, best_v = a, v
            s.apply(best)
