"""Round end: refill, company growth, the interim and final settlements.

Order (body rules): workers come back and every player again has as many
available workers as its worker level, dailies turn face up, the port
warehouse gets the stock level in base resources; then, clockwise from the
start player, each company grows (one marker, two from round 4 on); then the
start player passes left and, after round 3, the interim settlement follows.
Variant ``growth_before_refill`` grows first and refills afterwards.
After round 6 the draft waives only the refill (最終ラウンドは、上記処理を行う
必要はありません): companies still grow, and the final settlement follows.
"""

from __future__ import annotations

from meeplezoo.envs.asian_delivery import layout as L
from meeplezoo.envs.asian_delivery import turn
from meeplezoo.envs.asian_delivery.actions import A_GROW, A_MARKER, D_GROW_MARKER, D_GROW_TRACK
from meeplezoo.envs.asian_delivery.board import NUM_DISTRICTS, PORT
from meeplezoo.envs.asian_delivery.data import (
    COMPANIES,
    DISTRICT_VP,
    FINAL_VP,
    GROWTH_MARKERS,
    INTERIM_ROUND,
    INTERIM_VP,
    ROUNDS,
    SLOTS,
    STOCK,
    WORKERS,
)
from meeplezoo.envs.asian_delivery.state import NK, AsianDeliveryState

CAT_INTERIM, CAT_FINAL, CAT_DISTRICT = 4, 5, 6


def is_last_round(s: AsianDeliveryState) -> bool:
    return s.v[L.I_ROUND] == ROUNDS - 1


def end_round(s: AsianDeliveryState) -> None:
    """Refill (not after round 6), then growth; ``finish_round`` follows."""
    v = s.v
    if not s.growth_first and not is_last_round(s):
        refill(s)
    v[L.I_GROWER] = 0
    next_grower(s)


def refill(s: AsianDeliveryState) -> None:
    """Workers back, available workers = worker level, dailies face up,
    port warehouse += stock level."""
    v = s.v
    for card in range(3):
        v[L.G_OCCUPANCY + card] = 0
        for k in range(SLOTS):
            v[L.I_SLOT_OWNER + card * SLOTS + k] = -1
    for p in range(s.n):
        base = L.seat(p)
        v[base + L.S_WORKERS] = v[base + L.S_TRACK + WORKERS]
        for k in range(3):
            if v[base + L.S_DAILY_PRESENT + k]:
                v[base + L.S_DAILY_UP + k] = 1
        stock = v[base + L.S_TRACK + STOCK]
        v[base + L.S_WH + PORT * NK] += stock
        v[L.I_RECEIVED + p] += stock


# -- growth ----------------------------------------------------------------------------------------
def next_grower(s: AsianDeliveryState) -> None:
    """Hand the growth decision to the next player, or finish the round end."""
    v = s.v
    done = v[L.I_GROWER]
    if done < s.n:
        p = (v[L.I_START] + done) % s.n
        s.set_current(p)
        v[L.G_GROW_LEFT] = GROWTH_MARKERS[v[L.I_ROUND]]
        if legal_grow_track(s):
            s.set_decision(D_GROW_TRACK)
            return
        v[L.G_GROW_LEFT] = 0  # no marker left to remove (cannot happen with 11 markers)
        v[L.I_GROWER] = done + 1
        next_grower(s)
        return
    finish_round(s)


def legal_grow_track(s: AsianDeliveryState) -> list[int]:
    """Tracks that still hold a marker; the worker track only once one of the
    other three tracks is empty."""
    v = s.v
    base = L.seat(v[L.I_CUR]) + L.S_TRACK_MARKERS
    left = v[base : base + 4]
    legal = [A_GROW + t for t in range(3) if left[t] > 0]
    if left[WORKERS] > 0 and min(left[0], left[1], left[2]) == 0:
        legal.append(A_GROW + WORKERS)
    return legal


def do_grow_track(s: AsianDeliveryState, action: int) -> None:
    v = s.v
    p = v[L.I_CUR]
    t = action - A_GROW
    base = L.seat(p)
    track = COMPANIES[v[L.I_COMPANY_OF + p]].tracks[t]
    step = v[L.I_TRACK_STEP + p * 4 + t] + 1
    v[L.I_TRACK_STEP + p * 4 + t] = step
    v[base + L.S_TRACK + t] = track[step]
    v[base + L.S_TRACK_NEXT + t] = track[min(step + 1, len(track) - 1)]
    v[base + L.S_TRACK_MARKERS + t] -= 1
    v[base + L.S_MARKERS_ON_BOARD] -= 1
    s.set_onehot(L.I_TRACK, L.G_TRACK, t)
    s.set_decision(D_GROW_MARKER)


def legal_grow_marker(s: AsianDeliveryState) -> list[int]:
    """Districts connected to the port through districts holding own markers:
    adjacent to the port, holding an own marker, or next to one."""
    v = s.v
    markers = L.seat(v[L.I_CUR]) + L.S_MARKERS
    neigh = s.neigh
    legal = []
    for d in range(NUM_DISTRICTS):
        if v[L.G_POS_PORT_ADJ + d] or v[markers + d]:
            legal.append(A_MARKER + d)
            continue
        for e in neigh[d]:
            if e != PORT and v[markers + e]:
                legal.append(A_MARKER + d)
                break
    return legal


def do_grow_marker(s: AsianDeliveryState, action: int) -> None:
    v = s.v
    p = v[L.I_CUR]
    v[L.seat(p) + L.S_MARKERS + action - A_MARKER] += 1
    s.set_onehot(L.I_TRACK, L.G_TRACK, -1)
    v[L.G_GROW_LEFT] -= 1
    if v[L.G_GROW_LEFT] > 0 and legal_grow_track(s):
        s.set_decision(D_GROW_TRACK)
        return
    v[L.G_GROW_LEFT] = 0
    v[L.I_GROWER] += 1
    next_grower(s)


def finish_round(s: AsianDeliveryState) -> None:
    """After growth: the final settlement after round 6; otherwise (variant)
    refill, pass the start player left, interim settlement after round 3, then
    the next round."""
    v = s.v
    if is_last_round(s):
        final_settlement(s)
        return
    if s.growth_first:
        refill(s)
    start = v[L.I_START]
    v[L.seat(start) + L.S_IS_START] = 0
    start = (start + 1) % s.n
    v[L.I_START] = start
    v[L.seat(start) + L.S_IS_START] = 1
    if v[L.I_ROUND] + 1 == INTERIM_ROUND:
        colour_majority(s, INTERIM_VP, CAT_INTERIM)
    v[L.G_ROUND + v[L.I_ROUND]] = 0
    v[L.I_ROUND] += 1
    v[L.G_ROUND + v[L.I_ROUND]] = 1
    turn.start_main_phase(s)


# -- settlements ---------------------------------------------------------------------------
def colour_majority(s: AsianDeliveryState, vp: tuple[int, int], category: int) -> None:
    """Per colour: most completed requests ``vp[0]``, second ``vp[1]``.  Tied
    firsts all get ``vp[0]`` and nobody is second; tied seconds all get
    ``vp[1]``.  A player needs at least one card of the colour to place."""
    v = s.v
    for c in range(4):
        counts = [v[L.seat(p) + L.S_COMPLETED + c] for p in range(s.n)]
        top = max(counts)
        if top == 0:
            continue
        firsts = [p for p in range(s.n) if counts[p] == top]
        for p in firsts:
            s.gain_vp(p, category, vp[0])
        if len(firsts) > 1:
            continue
        rest = [x for x in counts if 0 < x < top]
        if rest:
            second = max(rest)
            for p in range(s.n):
                if counts[p] == second:
                    s.gain_vp(p, category, vp[1])


def district_majority(s: AsianDeliveryState) -> None:
    """Per district: the player(s) with the most interest markers (at least 1)."""
    v = s.v
    for d in range(NUM_DISTRICTS):
        counts = [v[L.seat(p) + L.S_MARKERS + d] for p in range(s.n)]
        top = max(counts)
        if top == 0:
            continue
        for p in range(s.n):
            if counts[p] == top:
                s.gain_vp(p, CAT_DISTRICT, DISTRICT_VP)


def final_settlement(s: AsianDeliveryState) -> None:
    v = s.v
    colour_majority(s, FINAL_VP, CAT_FINAL)
    district_majority(s)
    v[L.seat(v[L.I_CUR]) + L.S_TO_MOVE] = 0
    v[L.I_OVER] = 1


def as_if_ended(s: AsianDeliveryState) -> AsianDeliveryState:
    """A copy of ``s`` with the final settlement played now (``scores()`` before the end):
    the running VP alone miss the colour and district majorities the end awards."""
    copy = s.clone()
    final_settlement(copy)
    return copy
