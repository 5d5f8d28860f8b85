"""The game state: shared supplies, the card row and deck, the players' boards, the
turn context and the agenda that drives play (see ``agenda.py``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from meeplezoo.envs.core.agenda import (
    AgendaRules,
    AgendaState,
    Decision,
    Item,
    Step,
    agenda_from_json,
    agenda_to_json,
)
from meeplezoo.envs.core.game import GameState, shared_mask
from meeplezoo.envs.core.hidden import redraw
from meeplezoo.envs.core.rng import copy_rng, new_rng, rng_from_dict, rng_to_dict
from meeplezoo.envs.necropolis_railway import actions as A
from meeplezoo.envs.necropolis_railway import agenda as G
from meeplezoo.envs.necropolis_railway import data as D
from meeplezoo.envs.necropolis_railway import legal as L
from meeplezoo.envs.necropolis_railway import rounds, stations, turn
from meeplezoo.envs.necropolis_railway.board import (
    NO_WORKER,
    SIDE_A,
    SIDE_B,
    STAFF,
    VOLUNTEER,
    Player,
)
from meeplezoo.envs.necropolis_railway.observation import SeatCache, encode
from meeplezoo.envs.necropolis_railway.saved import LONDON_TOP, check_agenda, supply_at_start
from meeplezoo.envs.necropolis_railway.scoring import SCORE_LINES, score_lines

if TYPE_CHECKING:
    from meeplezoo.envs.necropolis_railway.game import NecropolisRailwayGame


def _d_turn(st: NecropolisState, item: Item, a: int) -> None:
    """The turn menu, or (after round 12) the end move's take-or-decline of a station."""
    if item[2] == A.TURN_END_STATION:
        stations.d_end_station(st, item, a)
    else:
        turn.d_turn(st, item, a)


# What each agenda item may change, for the observation's caches (codes in agenda.py):
# seat areas of the item's seat and table areas.  A few handlers whose effect depends on
# their argument mark extra areas themselves.  tests/necropolis_railway/test_observation.py
# checks that cached observations always equal freshly computed ones.
MO, LO, RA, CO, DS, CG, ST = (G.S_MONEY, G.S_LONDON, G.S_RAIL, G.S_COLS, G.S_DISCS, G.S_CARGO,
                              G.S_STAFF)
SEAT_ALL, TABLE_ALL = G.SEAT_ALL, G.TABLE_ALL
T_ROW, T_SUP, T_TURN, T_DISC = G.T_ROW, G.T_SUP, G.T_TURN, G.T_DISC


def _decision(kind: int, apply: Callable[[NecropolisState, Item, int], None],
              marks: tuple[int, int],
              finish: Callable[[NecropolisState, Item], None] | None = None) -> Decision:
    return Decision(A.DECISIONS[kind], L.LEGAL[kind], apply, finish, marks)


def build_agenda() -> AgendaRules:
    """Every agenda code: decisions (legal actions in legal.py, ``finish`` when nothing is left
    to ask) and automatic steps, with what their items may change.  The game's rules object
    holds it (``NecropolisRailwayGame.build_rules``)."""
    return AgendaRules(_CODES)


_CODES = {
    A.K_TAKE: _decision(A.K_TAKE, turn.d_take, (DS, T_ROW | T_SUP | T_TURN | T_DISC)),
    A.K_TURN: _decision(A.K_TURN, _d_turn, (0, T_TURN)),  # (a used tucked card marks its own)
    # (bonus space and prestige effects mark their own areas)
    A.K_PAY: _decision(A.K_PAY, turn.d_pay, (DS, T_DISC | T_TURN), turn.finish_pay),
    A.K_LONDON: _decision(A.K_LONDON, turn.d_london, (MO | LO, 0)),
    A.K_NECRO: _decision(A.K_NECRO, turn.d_necro, (MO | CO | CG | ST, T_SUP | T_TURN)),
    A.K_RAIL: _decision(A.K_RAIL, turn.d_rail, (MO | RA | ST, T_TURN)),
    A.K_BONUS_HIRE: _decision(A.K_BONUS_HIRE, turn.d_bonus_hire, (MO | CO | ST, 0)),
    A.K_PERK: _decision(A.K_PERK, turn.d_perk, (MO | RA, T_TURN)),
    A.K_VOLUNTEER: _decision(A.K_VOLUNTEER, turn.d_volunteer, (CO | ST, T_SUP)),
    A.K_FREE_MORT: _decision(A.K_FREE_MORT, turn.d_free_mortuary, (CO, T_SUP)),
    A.K_INCOME_DISC: _decision(A.K_INCOME_DISC, stations.d_income_disc, (DS, T_DISC),
                               stations.finish_income_disc),
    A.K_LOAD: _decision(A.K_LOAD, stations.d_load, (CG, 0),
                        lambda st, item: stations.load_all(st.players[item[1]])),
    A.K_BURY: _decision(A.K_BURY, stations.d_bury, (MO | CO | CG, 0),
                        lambda st, item: stations.overflow_all(st.players[item[1]])),
    A.K_DISMISS: _decision(A.K_DISMISS, stations.d_dismiss, (MO | CO | ST, 0),
                           stations.finish_dismiss),
    A.K_DISCARD: _decision(A.K_DISCARD, stations.d_discard, (DS, T_DISC)),
    A.K_CENTURY: _decision(A.K_CENTURY, turn.d_century, (SEAT_ALL, T_SUP | T_TURN)),
    A.K_FINAL: _decision(A.K_FINAL, turn.d_final, (MO | CO | CG | ST, T_SUP)),
    G.TURN_START: Step("TURN_START", rounds.a_turn_start, (0, T_TURN)),
    G.MOVE_START: Step("MOVE_START", stations.a_move_start, (0, 0)),
    G.MOVE: Step("MOVE", stations.a_move, (RA, 0)),
    G.LOAD: Step("LOAD", stations.a_load, (CG, 0)),
    G.INCOME: Step("INCOME", stations.a_income, (MO | CG | DS, T_SUP | T_DISC)),
    G.UPKEEP: Step("UPKEEP", stations.a_upkeep, (MO, 0)),
    G.NECRO_STOP: Step("NECRO_STOP", stations.a_necro_stop, (MO | CG, 0)),
    G.DISCARD_CHECK: Step("DISCARD_CHECK", rounds.a_discard_check, (0, 0)),
    # (the solo row discard marks its own areas)
    G.CLEANUP: Step("CLEANUP", rounds.a_cleanup, (0, T_SUP | T_TURN)),
    G.NEXT: Step("NEXT", rounds.a_next, (0, 0)),
    G.ROUND_END: Step("ROUND_END", rounds.a_round_end, (0, TABLE_ALL)),
    G.END_MOVE: Step("END_MOVE", stations.a_end_move, (0, 0)),
    G.GAME_OVER: Step("GAME_OVER", rounds.a_game_over, (0, TABLE_ALL)),
    G.PHASE: Step("PHASE", rounds.a_phase, (0, TABLE_ALL)),
}


MASKS_MEMO = "necropolis_railway.masks"  # the game's memo of read-only masks by legal tuple


class NecropolisState(AgendaState, GameState):
    """One position.  ``agenda[-1]`` is the pending decision once ``_run`` stops (the agenda's
    loop, ``push``, ``_apply`` and the turn order come from ``AgendaState``)."""

    game: NecropolisRailwayGame

    def __init__(self, game: NecropolisRailwayGame, seed: int | None = None,
                 _empty: bool = False) -> None:
        super().__init__(game)
        self.num_players = game.num_players
        self._obs_cache: dict = {}
        self._seat_cache: list[SeatCache] | None = None  # made by the first observation
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
    def _agenda_over(self) -> None:
        self.phase = G.P_OVER
        self._tdirty = TABLE_ALL

    # -- GameState hooks --------------------------------------------------------------------------
    def _legal_mask(self) -> np.ndarray:
        return shared_mask(self.game, self._legal, MASKS_MEMO, A.NUM_ACTIONS)

    def apply(self, action: int) -> None:
        """Fast path for a legal Python int; anything else goes through the checked base."""
        if type(action) is int and action in self._legal and self.agenda:
            self._mask = None
            self._apply(action)
        else:
            super().apply(action)

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
        return self.game.render_state(self)  # the text view sits above the state

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
        st.t_seat = self.t_seat  # the turn fields (_TURN_FIELDS), written out: bots clone a lot
        st.t_card = self.t_card
        st.t_taken_slot = self.t_taken_slot
        st.t_used = self.t_used[:]
        st.t_tucked_now = self.t_tucked_now
        st.t_move = self.t_move
        st.t_crew = self.t_crew
        st.t_dining = self.t_dining
        st.t_baggage = self.t_baggage
        st.t_yard = self.t_yard
        st.t_hired = self.t_hired
        st.t_built = self.t_built
        st._legal = self._legal
        return st

    def resample_hidden(self, player: int, rng: np.random.Generator) -> NecropolisState:
        """Re-deal the deck's order (keeping a top card with the same public back) and
        re-seed chance (future coffin draws)."""
        st = self.clone(share_rng=True)  # the generator is replaced: copying it is waste
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
            "agenda": agenda_to_json(self.agenda),
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
        st.agenda = agenda_from_json(data["agenda"])
        for f in _TURN_FIELDS:
            v = data[f]
            setattr(st, f, list(v) if isinstance(v, list) else v)
        return st

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

