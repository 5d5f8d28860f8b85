"""Heuristic bot: greedy look-ahead on a hand-written evaluation.

The bot only sees what its seat sees: it first re-draws the hidden request
deck (``resample_hidden``) and plans on that copy.  Each decision is scored by
looking ahead on clones and evaluating the result:

- ``main`` (which action card; there is no voluntary pass): the whole own
  turn is simulated with the bot's own choices for the sub-decisions, then
  evaluated;
- a transport source or destination: every reachable (source, destination)
  pair is tried, filling the load one resource at a time with the kind that
  raises the evaluation most;
- a request: fulfilled in its best area, then evaluated;
- everything else: one ply (apply each legal action, evaluate).

The evaluation (``evaluate``) is victory points plus the worth of what a
player holds: resources (more where they can pay a visible request),
requests close to payable, growth still to pay off, interest markers and
request majorities.  The weights below are its whole tuning.
"""

from __future__ import annotations

from array import array

import numpy as np

from meeplezoo.envs.asian_delivery import layout as L
from meeplezoo.envs.asian_delivery.actions import (
    A_FROM,
    A_SKIP,
    A_TO,
    D_COMPANY,
    D_FROM,
    D_FULFIL_AREA,
    D_GROW_MARKER,
    D_GROW_TRACK,
    D_MAIN,
    D_REQUEST,
    D_TO,
)
from meeplezoo.envs.asian_delivery.board import NUM_AREAS, NUM_DISTRICTS, PORT
from meeplezoo.envs.asian_delivery.data import (
    COIN_VP,
    DAILIES_PER_PLAYER,
    MARKET_SIZE,
    REQUESTS,
    ROUNDS,
    STOCK,
    TRANSPORT,
    WAREHOUSE,
    WORKERS,
)
from meeplezoo.envs.asian_delivery.state import NK, AsianDeliveryState

# -- evaluation weights (VP-equivalents) ----------------------------------------------------
W_BASE_PORT = 0.30  # a base resource in the port warehouse
W_BASE_DISTRICT = 0.40  # ... in a district warehouse
W_RESERVE = 0.25  # ... still in the reserve
W_ADV_USEFUL = 0.90  # an advanced resource some visible request of its colour needs
W_ADV_EXCESS = 0.30  # ... beyond what the visible requests need
W_PAYABLE = 0.55  # share of a request's worth when it is payable now
W_PARTIAL = 0.40  # share scaled by how much of its cost already lies there
TOP_REQUESTS = 3  # requests counted in the potential
W_TRACK = (0.8, 0.5, 0.6, 1.5)  # per level and remaining round: warehouse, transport, ...
W_MARKER = 0.5  # an interest marker (its per-fulfilment bonus)
W_MARKER_WHERE_STOCKED = 0.3  # ... in a district where the player holds resources
W_DISTRICT_LEAD = 2.0  # leading a district's marker majority
W_DISTRICT_TIE = 1.0
W_COLOUR_LEAD = 2.5  # leading a colour's completed-request majority
W_COLOUR_TIE = 1.2
W_COLOUR_SECOND = 0.5
NOISE = 1e-6  # random tie-break

_TURN_OVER = (D_MAIN, D_GROW_TRACK, D_GROW_MARKER, D_COMPANY)


def evaluate(s: AsianDeliveryState, me: int) -> float:
    """Victory points of ``me`` plus the estimated worth of its position."""
    v = s.v
    base = L.seat(me)
    vp = float(v[base + L.S_VP])
    if v[L.I_OVER]:
        return vp + 0.01 * v[base + L.S_COMPLETED_TOTAL]
    rnd = v[L.I_ROUND]
    future = ROUNDS - 1 - rnd  # rounds still to come after this one
    late = 1.0 if future > 0 else 0.6
    wh = base + L.S_WH
    cap = v[base + L.S_TRACK + WAREHOUSE]
    markers = base + L.S_MARKERS
    dist = s.dist

    # what the visible market asks for, per colour
    adv_need = [0, 0, 0, 0]
    for k in range(MARKET_SIZE):
        cid = v[L.I_MARKET + k]
        if cid >= 0:
            card = REQUESTS[cid]
            adv_need[card.colour] += card.advanced

    # resources
    worth = W_RESERVE * v[base + L.S_RESERVE]
    adv_held = [0, 0, 0, 0]
    for a in range(NUM_AREAS):
        at = wh + a * NK
        worth += (W_BASE_PORT if a == PORT else W_BASE_DISTRICT) * v[at]
        for c in range(4):
            adv_held[c] += v[at + 1 + c]
    for c in range(4):
        useful = min(adv_held[c], adv_need[c])
        worth += W_ADV_USEFUL * useful + W_ADV_EXCESS * (adv_held[c] - useful)

    # requests close to payable: market cards in their colour's districts, dailies anywhere
    def bonus(a: int) -> int:
        if a == PORT:
            return 0
        extra = v[markers + a]
        if s.coins:
            return extra + (COIN_VP if v[L.G_POS_COINS + a] > 0 else 0)
        return extra + dist[a]

    potentials = []
    for k in range(MARKET_SIZE):
        cid = v[L.I_MARKET + k]
        if cid < 0:
            continue
        card = REQUESTS[cid]
        c = card.colour
        need = card.base + card.advanced
        if need > cap:
            continue
        best = 0.0
        for a in s.colour_positions[c]:
            at = wh + a * NK
            missing = max(0, card.base - v[at]) + max(0, card.advanced - v[at + 1 + c])
            value = card.vp + bonus(a)
            score = (
                W_PAYABLE * value if missing == 0 else W_PARTIAL * value * (1 - missing / need)
            )
            if score > best:
                best = score
        potentials.append(best)
    areas = (PORT,) if s.shared_dailies else range(NUM_AREAS)
    for k in range(DAILIES_PER_PLAYER):
        if not v[base + L.S_DAILY_UP + k]:
            continue
        need = v[base + L.S_DAILY_BASE + k]
        best = 0.0
        for a in areas:
            value = v[base + L.S_DAILY_VP + k] + bonus(a)
            have = v[wh + a * NK]
            score = W_PAYABLE * value if have >= need else W_PARTIAL * value * have / need
            if score > best:
                best = score
        potentials.append(best)
    potentials.sort(reverse=True)
    worth += sum(potentials[:TOP_REQUESTS])

    # growth still to pay off
    tracks = base + L.S_TRACK
    worth += W_TRACK[WAREHOUSE] * v[tracks + WAREHOUSE] * min(future, 2)
    worth += W_TRACK[TRANSPORT] * v[tracks + TRANSPORT] * min(future, 2)
    refills = future if s.growth_first else max(future - 1, 0) + (1 if future else 0)
    worth += W_TRACK[STOCK] * v[tracks + STOCK] * refills * 0.5
    worker_rounds = future if s.growth_first else max(future - 1, 0)
    worth += W_TRACK[WORKERS] * v[tracks + WORKERS] * worker_rounds

    # interest markers and district majorities
    for d in range(NUM_DISTRICTS):
        mine = v[markers + d]
        if not mine:
            continue
        worth += W_MARKER * mine * late
        if v[wh + d * NK : wh + d * NK + NK] != _EMPTY:
            worth += W_MARKER_WHERE_STOCKED * mine
        other = max(v[L.seat(p) + L.S_MARKERS + d] for p in range(s.n) if p != me)
        if mine > other:
            worth += W_DISTRICT_LEAD
        elif mine == other:
            worth += W_DISTRICT_TIE

    # completed-request majorities
    for c in range(4):
        mine = v[base + L.S_COMPLETED + c]
        if not mine:
            continue
        counts = sorted(
            (v[L.seat(p) + L.S_COMPLETED + c] for p in range(s.n) if p != me), reverse=True
        )
        if mine > counts[0]:
            worth += W_COLOUR_LEAD
        elif mine == counts[0]:
            worth += W_COLOUR_TIE
        elif len(counts) > 1 and mine > counts[1]:
            worth += W_COLOUR_SECOND
    return vp + worth * late


_EMPTY = array("i", [0] * NK)


class HeuristicBot:
    """Greedy look-ahead bot (see the module docstring)."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, state: AsianDeliveryState) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = state.current_player()
        root = state.resample_hidden(me, self.rng)
        return self._choose(root, me, legal)

    # -- choosing ------------------------------------------------------------------------------
    def _choose(self, s: AsianDeliveryState, me: int, legal: list[int]) -> int:
        kind = s.v[L.I_DECISION]
        if kind == D_COMPANY:
            return int(legal[self.rng.integers(len(legal))])
        if kind in (D_FROM, D_TO):
            return self._choose_transport(s, me, legal)
        best, best_value = legal[0], -1e9
        for a in legal:
            if kind == D_MAIN:
                value = self._turn_value(s, me, a)
            else:
                child = s.clone()
                child.apply(a)
                if kind == D_REQUEST and a != A_SKIP:
                    self._finish_step(child, me)
                value = evaluate(child, me)
            value += NOISE * self.rng.random()
            if value > best_value:
                best, best_value = a, value
        return best

    def _turn_value(self, s: AsianDeliveryState, me: int, action: int) -> float:
        """Play ``action`` and the rest of the own turn with the bot's choices."""
        child = s.clone()
        child.apply(action)
        for _ in range(60):
            if child.is_terminal() or child.current_player() != me:
                break
            if child.v[L.I_DECISION] in _TURN_OVER:
                break
            legal = child.legal_actions()
            child.apply(legal[0] if len(legal) == 1 else self._choose(child, me, legal))
        return evaluate(child, me)

    def _finish_step(self, s: AsianDeliveryState, me: int) -> None:
        """Complete a chosen request in its best area (one ply)."""
        while not s.is_terminal() and s.v[L.I_DECISION] == D_FULFIL_AREA:
            legal = s.legal_actions()
            s.apply(self._choose(s, me, legal))

    def _choose_transport(self, s: AsianDeliveryState, me: int, legal: list[int]) -> int:
        """Score every (source, destination) pair by a greedy load; pick the best."""
        v = s.v
        kind = v[L.I_DECISION]
        best, best_value = A_SKIP if A_SKIP in legal else legal[0], -1e9
        if A_SKIP in legal:
            best_value = evaluate(s, me)
        for a in legal:
            if a == A_SKIP:
                continue
            if kind == D_FROM:
                src = a - A_FROM
                pairs = [(src, b) for b in s.neigh[src]]
            else:
                pairs = [(v[L.I_FROM], a - A_TO)]
            value = max(self._load_value(s, me, src, dst) for src, dst in pairs)
            value += NOISE * self.rng.random()
            if value > best_value:
                best, best_value = a, value
        return best

    def _load_value(self, s: AsianDeliveryState, me: int, src: int, dst: int) -> float:
        """Evaluation after greedily moving up to the transport capacity from
        ``src`` to ``dst`` (tried in place on ``s`` and undone)."""
        v = s.v
        base = L.seat(me)
        wh = base + L.S_WH
        cap = v[base + L.S_TRACK + WAREHOUSE]
        room = 10**6 if dst == PORT else cap - sum(v[wh + dst * NK : wh + dst * NK + NK])
        if room <= 0:
            return -1e9
        moves = []
        best_value = -1e9
        for _ in range(min(room, v[base + L.S_TRACK + TRANSPORT])):
            step_best, step_kind = -1e9, -1
            for r in range(NK):
                if v[wh + src * NK + r] == 0:
                    continue
                v[wh + src * NK + r] -= 1
                v[wh + dst * NK + r] += 1
                value = evaluate(s, me)
                v[wh + src * NK + r] += 1
                v[wh + dst * NK + r] -= 1
                if value > step_best:
                    step_best, step_kind = value, r
            if step_kind < 0 or (moves and step_best <= best_value):
                break
            v[wh + src * NK + step_kind] -= 1
            v[wh + dst * NK + step_kind] += 1
            moves.append(step_kind)
            best_value = step_best
        for r in moves:
            v[wh + src * NK + r] += 1
            v[wh + dst * NK + r] -= 1
        return best_value
