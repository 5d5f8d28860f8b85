"""The game state: shared supplies, the card row and deck, the players' boards, the
turn context and the agenda that drives play (see ``agenda.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from envs.core.game import TERMINAL, GameState
from envs.core.hidden import redraw
from envs.core.rng import copy_rng, new_rng, rng_from_dict, rng_to_dict
from envs.necropolis_railway import actions as A
from envs.necropolis_railway import agenda as G
from envs.necropolis_railway import data as D
from envs.necropolis_railway import legal as L
from envs.necropolis_railway import rounds, stations, turn
from envs.necropolis_railway.board import NO_WORKER, SIDE_A, SIDE_B, STAFF, VOLUNTEER, Player
from envs.necropolis_railway.observation import SeatCache, encode
from envs.necropolis_railway.saved import LONDON_TOP, check_agenda, supply_at_start
from envs.necropolis_railway.scoring import SCORE_LINES, score_lines

if TYPE_CHECKING:
    from envs.necropolis_railway.game import NecropolisRailwayGame

Item = tuple[int, int, int]



def _d_turn(st: NecropolisState, item: Item, a: int) -> None:
    """The turn menu, or (after round 12) the end move's take-or-decline of a station."""
    if item[2] == A.TURN_END_STATION:
        stations.d_end_station(st, item, a)
    else:
        turn.d_turn(st, item, a)


_DECIDE_BY_KIND = {
    A.K_TAKE: turn.d_take,
    A.K_TURN: _d_turn,
    A.K_PAY: turn.d_pay,
    A.K_LONDON: turn.d_london,
    A.K_NECRO: turn.d_necro,
    A.K_RAIL: turn.d_rail,
    A.K_BONUS_HIRE: turn.d_bonus_hire,
    A.K_PERK: turn.d_perk,
    A.K_VOLUNTEER: turn.d_volunteer,
    A.K_FREE_MORT: turn.d_free_mortuary,
    A.K_INCOME_DISC: stations.d_income_disc,
    A.K_LOAD: stations.d_load,
    A.K_BURY: stations.d_bury,
    A.K_DISMISS: stations.d_dismiss,
    A.K_DISCARD: stations.d_discard,
    A.K_CENTURY: turn.d_century,
    A.K_FINAL: turn.d_final,
}
_DECIDE = [_DECIDE_BY_KIND[k] for k in range(A.NUM_DECISIONS)]
_FINISH = {  # what an exhausted decision does when it leaves the agenda
    A.K_PAY: turn.finish_pay,
    A.K_INCOME_DISC: stations.finish_income_disc,
    A.K_LOAD: lambda st, item: stations.load_all(st.players[item[1]]),
    A.K_BURY: lambda st, item: stations.overflow_all(st.players[item[1]]),
    A.K_DISMISS: stations.finish_dismiss,
}
_AUTO = {
    G.TURN_START: rounds.a_turn_start,
    G.MOVE_START: stations.a_move_start,
    G.MOVE: stations.a_move,
    G.LOAD: stations.a_load,
    G.INCOME: stations.a_income,
    G.UPKEEP: stations.a_upkeep,
    G.NECRO_STOP: stations.a_necro_stop,
    G.DISCARD_CHECK: rounds.a_discard_check,
    G.CLEANUP: rounds.a_cleanup,
    G.NEXT: rounds.a_next,
    G.ROUND_END: rounds.a_round_end,
    G.END_MOVE: stations.a_end_move,
    G.GAME_OVER: rounds.a_game_over,
    G.PHASE: rounds.a_phase,
}


# What each agenda item may change, for the observation's caches (codes in agenda.py):
# seat areas of the item's seat and table areas.  A few handlers whose effect depends on
# their argument mark extra areas themselves.  tests/necropolis_railway/test_observation.py
# checks that cached observations always equal freshly computed ones.
MO, LO, RA, CO, DS, CG, ST = (G.S_MONEY, G.S_LONDON, G.S_RAIL, G.S_COLS, G.S_DISCS, G.S_CARGO,
                              G.S_STAFF)
SEAT_ALL, TABLE_ALL = G.SEAT_ALL, G.TABLE_ALL
T_ROW, T_SUP, T_TURN, T_DISC = G.T_ROW, G.T_SUP, G.T_TURN, G.T_DISC
_BITS = {
    A.K_TAKE: (DS, T_ROW | T_SUP | T_TURN | T_DISC),
    A.K_TURN: (0, T_TURN),  # a used tucked card marks its own areas
    A.K_PAY: (DS, T_DISC | T_TURN),  # bonus / prestige effects mark their own areas
    A.K_LONDON: (MO | LO, 0),
    A.K_NECRO: (MO | CO | CG | ST, T_SUP | T_TURN),
    A.K_RAIL: (MO | RA | ST, T_TURN),
    A.K_BONUS_HIRE: (MO | CO | ST, 0),
    A.K_PERK: (MO | RA, T_TURN),
    A.K_VOLUNTEER: (CO | ST, T_SUP),
    A.K_FREE_MORT: (CO, T_SUP),
    A.K_INCOME_DISC: (DS, T_DISC),
    A.K_LOAD: (CG, 0),
    A.K_BURY: (MO | CO | CG, 0),
    A.K_DISMISS: (MO | CO | ST, 0),
    A.K_DISCARD: (DS, T_DISC),
    A.K_CENTURY: (SEAT_ALL, T_SUP | T_TURN),
    A.K_FINAL: (MO | CO | CG | ST, T_SUP),
    G.TURN_START: (0, T_TURN),
    G.MOVE_START: (0, 0),
    G.MOVE: (RA, 0),
    G.LOAD: (CG, 0),
    G.INCOME: (MO | CG | DS, T_SUP | T_DISC),
    G.UPKEEP: (MO, 0),
    G.NECRO_STOP: (MO | CG, 0),
    G.DISCARD_CHECK: (0, 0),
    G.CLEANUP: (0, T_SUP | T_TURN),  # (the solo row discard marks its own areas)
    G.NEXT: (0, 0),
    G.ROUND_END: (0, TABLE_ALL),
    G.END_MOVE: (0, 0),
    G.GAME_OVER: (0, TABLE_ALL),
    G.PHASE: (0, TABLE_ALL),
}
_SEAT_BITS = [0] * (G.PHASE + 1)
_TABLE_BITS = [0] * (G.PHASE + 1)
for _code, (_sb, _tb) in _BITS.items():
    _SEAT_BITS[_code], _TABLE_BITS[_code] = _sb, _tb


def legal_actions_for(st: NecropolisState, item: Item) -> list[int]:
    """Legal actions of a decision item (see legal.py)."""
    return L.LEGAL[item[0]](st, st.players[item[1]], item[2])


_MASKS: dict[tuple, np.ndarray] = {}  # shared read-only masks by legal-action tuple


class NecropolisState(GameState):
    """One position.  ``agenda[-1]`` is the pending decision once ``_run`` stops."""

    game: NecropolisRailwayGame

    def __init__(self, game: NecropolisRailwayGame, seed: int | None = None,
                 _empty: bool = False) -> None:
        super().__init__(game)
        self.num_players = game.num_players
        self._obs_cache: dict = {}
        self._seat_cache = [SeatCache() for _ in range(self.num_players)]
        self._dirty = [SEAT_ALL] * self.num_players  # what changed per seat since encoded
        self._tdirty = TABLE_ALL
        self._legal: list[int] = []
        if _empty:
            return
        n = self.num_players
        self.rng = new_rng(seed)
        self.players = [Player(D.START_MONEY[s]) for s in range(n)]
        self.disc_supply = [D.DISC_SUPPLY - D.START_DISCS[c] * n
                            for c in range(D.NUM_DISC_COLOURS)]
        self.bag = [D.COFFINS_PER_COLOUR] * D.NUM_COFFIN_COLOURS
        each = D.SOLO_MORTUARY_SUPPLY if n == 1 else None
        self.mortuary_supply = [each if each is not None else s for s in D.MORTUARY_SUPPLY]
        self.vol_supply = D.VOLUNTEER_SUPPLY
        self.bonus_spaces = [-1] * len(D.BONUS_SPACES)
        self.round = 0
        self.turn_no = 0
        self.phase = G.P_ROUNDS
        self.pay_purpose = 0
        self.pay_left = 0
        self.agenda: list[Item] = []
        rounds.reset_turn(self, -1)
        for p in self.players:
            for _ in range(D.START_TRAIN_COFFINS):
                c = turn.draw_coffin(self)
                if c >= 0:
                    p.train[c] += 1
            for col in D.START_STAFF_COLUMNS:
                p.col_worker[col] = STAFF
                p.staff_supply -= 1
        self.deck = list(range(D.NUM_CARDS))
        self.rng.shuffle(self.deck)
        self.discard: list[int] = []
        self.row = [-1] * D.ROW_SIZE
        self.row_discs = [[0] * D.NUM_DISC_COLOURS for _ in range(D.ROW_SIZE)]
        for k in range(D.ROW_SIZE):
            turn.refill_slot(self, k)
        self.agenda.append((G.TURN_START, 0, 0))
        self._run()

    # -- the agenda -------------------------------------------------------------------------------
    def push(self, item: Item) -> None:
        self.agenda.append(item)

    def _run(self) -> None:
        """Run automatic steps until a decision with a real choice is pending."""
        ag = self.agenda
        dirty = self._dirty
        tdirty = self._tdirty
        seat_bits = _SEAT_BITS
        table_bits = _TABLE_BITS
        legal_for = L.LEGAL
        players = self.players
        while ag:
            item = ag[-1]
            code = item[0]
            if code < G.AUTO:  # a decision
                legal = legal_for[code](self, players[item[1]], item[2])
                if len(legal) > 1:
                    self._legal = legal
                    self._tdirty = tdirty
                    return
                if legal:  # one option: take it
                    _DECIDE[code](self, item, legal[0])
                else:  # nothing left to ask: finish it
                    ag.pop()
                    fin = _FINISH.get(code)
                    if fin is None:
                        continue
                    fin(self, item)
            else:
                ag.pop()
                _AUTO[code](self, item)
            bits = seat_bits[code]
            if bits:
                dirty[item[1]] |= bits
            tdirty |= table_bits[code] | self._tdirty
        self._legal = []
        self.phase = G.P_OVER
        self._tdirty = TABLE_ALL

    # -- GameState hooks --------------------------------------------------------------------------
    def current_player(self) -> int:
        return self.agenda[-1][1] if self.agenda else TERMINAL

    def is_terminal(self) -> bool:
        return not self.agenda

    def _legal_mask(self) -> np.ndarray:
        key = tuple(self._legal)
        mask = _MASKS.get(key)
        if mask is None:
            if len(_MASKS) > 100_000:
                _MASKS.clear()
            mask = np.zeros(A.NUM_ACTIONS, dtype=bool)
            mask[self._legal] = True
            mask.flags.writeable = False
            _MASKS[key] = mask
        return mask

    def apply(self, action: int) -> None:
        """Fast path for a legal Python int; anything else goes through the checked base."""
        if type(action) is int and action in self._legal and self.agenda:
            self._mask = None
            self._apply(action)
        else:
            super().apply(action)

    def _apply(self, action: int) -> None:
        item = self.agenda[-1]
        code = item[0]
        _DECIDE[code](self, item, action)
        bits = _SEAT_BITS[code]
        if bits:
            self._dirty[item[1]] |= bits
        self._tdirty |= _TABLE_BITS[code]
        self._run()

    def decision_kind(self) -> int:
        return self.agenda[-1][0] if self.agenda else -1

    def decision_name(self) -> str:
        return A.DECISIONS[self.agenda[-1][0]] if self.agenda else "over"

    def scores(self) -> list[float]:
        return [float(sum(score_lines(p))) for p in self.players]

    def score_breakdown(self) -> list[dict[str, float]]:
        out = []
        for p in self.players:
            lines = score_lines(p)
            d = {name: float(v) for name, v in zip(SCORE_LINES, lines)}
            d["total"] = float(sum(lines))
            out.append(d)
        return out

    def rank_keys(self) -> list[tuple]:
        """Score, then most money left, then most coffins buried."""
        return [(sum(score_lines(p)), p.money, p.buried()) for p in self.players]

    def observation(self, player: int) -> np.ndarray:
        return encode(self, player)

    def render(self) -> str:
        from envs.necropolis_railway.render import render

        return render(self)

    # -- copies -----------------------------------------------------------------------------------
    def clone(self, share_rng: bool = False) -> NecropolisState:
        """An independent copy; ``share_rng`` (bots' look-ahead only) reuses the generator."""
        st = NecropolisState(self.game, _empty=True)
        if share_rng:
            st.rng = self.rng
        else:
            st.rng = copy_rng(self.rng)
        st.players = [p.copy() for p in self.players]
        st.disc_supply = self.disc_supply[:]
        st.bag = self.bag[:]
        st.mortuary_supply = self.mortuary_supply[:]
        st.vol_supply = self.vol_supply
        st.bonus_spaces = self.bonus_spaces[:]
        st.round = self.round
        st.turn_no = self.turn_no
        st.phase = self.phase
        st.pay_purpose = self.pay_purpose
        st.pay_left = self.pay_left
        st.agenda = self.agenda[:]
        st.deck = self.deck[:]
        st.discard = self.discard[:]
        st.row = self.row[:]
        st.row_discs = [d[:] for d in self.row_discs]
        for f in _TURN_FIELDS:
            v = getattr(self, f)
            setattr(st, f, v[:] if isinstance(v, list) else v)
        st._legal = self._legal
        return st

    def resample_hidden(self, player: int, rng: np.random.Generator) -> NecropolisState:
        """Re-deal the deck's order (keeping a top card with the same public back) and
        re-seed chance (future coffin draws)."""
        st = self.clone()
        st.rng = new_rng(int(rng.integers(2**63)))
        if st.deck:
            top_back = D.CARD_BACK_KEY[st.deck[-1]]
            st.deck = redraw(st.deck, rng)  # depends only on what the player knows
            for i in range(len(st.deck) - 1, -1, -1):
                if D.CARD_BACK_KEY[st.deck[i]] == top_back:
                    st.deck[i], st.deck[-1] = st.deck[-1], st.deck[i]
                    break
        return st

    # -- saving -----------------------------------------------------------------------------------
    def _to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rng": rng_to_dict(self.rng),
            "players": [p.to_dict() for p in self.players],
            "disc_supply": self.disc_supply[:],
            "bag": self.bag[:],
            "mortuary_supply": self.mortuary_supply[:],
            "vol_supply": self.vol_supply,
            "bonus_spaces": self.bonus_spaces[:],
            "round": self.round,
            "turn_no": self.turn_no,
            "phase": self.phase,
            "pay_purpose": self.pay_purpose,
            "pay_left": self.pay_left,
            "agenda": [list(item) for item in self.agenda],
            "deck": self.deck[:],
            "discard": self.discard[:],
            "row": self.row[:],
            "row_discs": [d[:] for d in self.row_discs],
        }
        for f in _TURN_FIELDS:
            v = getattr(self, f)
            out[f] = v[:] if isinstance(v, list) else v
        return out

    @classmethod
    def from_dict(cls, game: NecropolisRailwayGame, data: dict[str, Any]) -> NecropolisState:
        """Plain construction: ``state_schema`` has checked every field's type, length and
        range.  The pending decision's legal actions are left to ``NecropolisRailwayGame``,
        which first checks the agenda (``saved.check_agenda``)."""
        st = cls(game, _empty=True)
        st.rng = rng_from_dict(data["rng"])
        st.players = [Player.from_dict(p) for p in data["players"]]
        for f in ("disc_supply", "bag", "mortuary_supply", "bonus_spaces", "deck", "discard",
                  "row"):
            setattr(st, f, list(data[f]))
        for f in ("vol_supply", "round", "turn_no", "phase", "pay_purpose", "pay_left"):
            setattr(st, f, data[f])
        st.row_discs = [list(d) for d in data["row_discs"]]
        st.agenda = [tuple(item) for item in data["agenda"]]
        for f in _TURN_FIELDS:
            v = data[f]
            setattr(st, f, list(v) if isinstance(v, list) else v)
        return st

    def pending_legal(self) -> list[int]:
        """The pending decision's legal actions, computed afresh (empty once the game is over)."""
        return legal_actions_for(self, self.agenda[-1]) if self.agenda else []

    # -- invariants -------------------------------------------------------------------------------
    def check_invariants(self) -> None:
        """Conservation of every piece, each board's consistency, and an agenda the rules
        build (``saved.check_agenda``) whose pending decision has the legal actions the
        engine offers (two or more: a single one is played automatically)."""
        n = self.num_players
        ps = self.players
        assert len(self.row) == D.ROW_SIZE and len(self.row_discs) == D.ROW_SIZE
        for c in range(D.NUM_DISC_COLOURS):
            total = self.disc_supply[c] + sum(d[c] for d in self.row_discs)
            total += sum(p.discs[c] for p in ps) + self.bonus_spaces.count(c)
            assert total == D.DISC_SUPPLY, f"disc colour {c} not conserved: {total}"
            assert self.disc_supply[c] >= 0
        for c in range(D.NUM_COFFIN_COLOURS):
            total = self.bag[c] + sum(p.waiting[c] + p.train[c] + p.overflow[c]
                                      + p.plots.count(c) for p in ps)
            assert total == D.COFFINS_PER_COLOUR, f"coffin colour {c} not conserved: {total}"
            assert self.bag[c] >= 0
        supply0 = supply_at_start(n)
        for k in range(len(D.MORTUARY_KINDS)):
            built = sum(p.mortuary.count(k + 1) for p in ps)
            assert self.mortuary_supply[k] + built == supply0[k], "mortuaries not conserved"
            assert self.mortuary_supply[k] >= 0
        vols = sum(p.london_vol + p.col_worker.count(VOLUNTEER) for p in ps)
        assert self.vol_supply + vols == D.VOLUNTEER_SUPPLY, "volunteers not conserved"
        cards = self.deck + self.discard + self.row + [c for p in ps for c in p.tucked]
        if self.t_card >= 0 and not self.t_tucked_now:
            cards.append(self.t_card)
        assert sorted(cards) == list(range(D.NUM_CARDS)), "cards not conserved"
        assert 0 <= self.round <= D.ROUNDS
        assert -1 <= self.t_taken_slot < D.ROW_SIZE
        for seat, p in enumerate(ps):
            assert p.money >= 0, "negative money"
            assert 0 <= p.prestige <= D.PRESTIGE_MAX
            assert min(p.discs) >= 0 and min(p.waiting) >= 0 and min(p.train) >= 0
            assert p.dismissed >= 0
            assert (p.staff_supply + p.staff_count() + p.dismissed
                    == D.STAFF_PER_PLAYER), "staff not conserved (supply + boards + dismissed)"
            assert p.london_staff + p.london_vol <= D.LONDON_STAFF_SPACES
            assert sum(p.train) <= p.coffin_capacity(), "coffins over capacity"
            assert p.train_mourners <= p.mourner_capacity(), "mourners over capacity"
            assert p.necro_mourners >= 0 and p.waiting_mourners >= 0 and p.train_mourners >= 0
            assert 0 <= p.pos < D.TRACK_LENGTH
            assert len(p.tucked) <= D.MAX_TUCKED
            for kind in range(len(D.CAR_KINDS)):
                assert len(p.cars[kind]) <= D.CAR_POSITIONS
                assert all(s in (SIDE_A, SIDE_B) for s in p.cars[kind])
            for col in range(D.COLUMNS):
                f = p.fill[col]
                assert 0 <= f <= D.ROWS
                plots = p.plots[col * D.ROWS:(col + 1) * D.ROWS]
                assert all(x >= 0 for x in plots[:f]) and all(x == -1 for x in plots[f:]), (
                    f"players[{seat}].plots: column {col + 1} is not filled bottom up to its fill")
                assert 0 <= p.mortuary[col] <= len(D.MORTUARY_KINDS)
                assert p.col_worker[col] in (NO_WORKER, STAFF, VOLUNTEER)
            assert all(0 <= lvl <= LONDON_TOP for lvl in p.london)
            coffin, mourner = p.cars
            for pos in range(D.CAR_POSITIONS):
                both_b = (pos < len(coffin) and pos < len(mourner)
                          and coffin[pos] == SIDE_B and mourner[pos] == SIDE_B)
                assert p.pairs[pos] == both_b, (
                    f"players[{seat}].pairs[{pos}]: earned exactly when both tiles are on B")
            pending = sum(1 for item in self.agenda if item[:2] == (A.K_PERK, seat))
            assert sum(p.perks) + pending == min(sum(p.pairs), len(D.PERKS)), (
                f"players[{seat}].perks: one perk (chosen or pending) per pair earned")
            assert (p.express_turn >= 0) == p.perks[D.EXPRESS], (
                f"players[{seat}].express_turn: set exactly when the express perk is held")
            assert p.express_turn <= self.turn_no, (
                f"players[{seat}].express_turn: the perk was gained in a later turn")
        if self.agenda and self.agenda[-1][0] == A.K_TAKE:
            for p in ps:
                assert sum(p.discs) <= D.HOLD_LIMIT, "hold limit broken between turns"
        check_agenda(self)
        legal = self.pending_legal()
        assert self._legal == legal, "the cached legal actions are not the pending decision's"
        assert not self.agenda or len(legal) >= 2, (
            f"agenda[-1]: the pending decision '{self.decision_name()}' offers no choice")

_TURN_FIELDS = ("t_seat", "t_card", "t_taken_slot", "t_used", "t_tucked_now", "t_move",
                "t_crew", "t_dining", "t_baggage", "t_yard", "t_hired", "t_built")

