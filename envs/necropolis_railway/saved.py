"""What a saved position may hold: its shape (``state_schema``) and its agenda (``check_agenda``).

Loading checks a save against the schema before anything is rebuilt, so types,
lengths and ranges are refused with the field's name.  Every bound comes from
the data file.  Money and mourners have no cap in the rules, so their bound is
what no game can pass: every way of gaining them, at its most, on every turn.

The agenda (a stack of ``(code, seat, arg)`` items, see ``agenda.py``) is only
built in a few shapes: a turn's frame, the Turn of the Century, the end moves
and the final purchase.  ``check_agenda`` reads it from the bottom against
those shapes and the position (phase, round, turn, train, payment), so a
tampered save cannot leave the engine a decision it could never reach.
``NecropolisState.check_invariants`` runs it after every step of the tests.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeplezoo.envs.core.agenda import Item
from meeplezoo.envs.core.schema import RNG_STATE, Bool, Int, List, Record, Tuple
from meeplezoo.envs.necropolis_railway import actions as A
from meeplezoo.envs.necropolis_railway import agenda as G
from meeplezoo.envs.necropolis_railway import data as D
from meeplezoo.envs.necropolis_railway.board import NO_WORKER, SIDE_A, SIDE_B, STAFF, VOLUNTEER

if TYPE_CHECKING:
    from meeplezoo.envs.necropolis_railway.board import Player
    from meeplezoo.envs.necropolis_railway.state import NecropolisState

# -- bounds from the data file -------------------------------------------------------------------
LONDON_TOP = len(D.SLOT_COST[0])  # London slot levels: printed, then one per upgrade cost
_TRAINS_MAX = max(sum(t) for t in D.CARD_TRAINS)  # the turn card's three actions
_PRESTIGE_MOVES = sum(D.PRESTIGE_MOVE)  # each prestige level's '!' comes once per seat
_YARD_MAX = D.YARD_MOVE * (D.MAX_TUCKED + 1)  # the yard: every tucked card, one tucked later
SEAT_MOVE_MAX = (_TRAINS_MAX + max(D.BONUS_MOVE) + _PRESTIGE_MOVES + _YARD_MAX
                 + D.EXPRESS_MOVE)  # spaces one train moves in one turn, at most


def t_move_max(num_players: int) -> int:
    """The turn's movement; in the Turn of the Century every seat's prestige '!' adds to it."""
    return _TRAINS_MAX + max(D.BONUS_MOVE) + _YARD_MAX + num_players * _PRESTIGE_MOVES


def _london_yield_max(key: int) -> int:
    """Most of one yield (coffin, mourner, money, disc choice, orange) a London stop gives."""
    return sum(max(level[key] for level in slot) for slot in D.SLOT_YIELD)


INCOME_CHOICES_MAX = _london_yield_max(3)
# stops at one station per seat and game: each turn's move (it passes a station once per
# lap), then the end move's one station
STOPS_MAX = D.ROUNDS * -(-SEAT_MOVE_MAX // D.TRACK_LENGTH) + 1
COFFIN_CAP_MAX = D.BASE_COFFIN_CAP + D.CAR_POSITIONS * max(D.CAR_CAP[0])
MOURNER_CAP_MAX = D.BASE_MOURNER_CAP + D.CAR_POSITIONS * max(D.CAR_CAP[1])
MONEY_MAX = (max(D.START_MONEY) + STOPS_MAX * _london_yield_max(2)
             + D.COLUMNS * D.ROWS * D.MATCH_MONEY  # a match bonus per plot
             + D.ROUNDS * (max(D.BONUS_MONEY) + D.SELL_VALUE  # one bonus space, one sale
                           + D.DINING_MONEY * (1 + D.CAR_POSITIONS))  # one dining car
             + D.ROYAL_MONEY)
MOURNERS_MAX = (D.START_TRAIN_MOURNERS + D.START_WAITING_MOURNERS
                + STOPS_MAX * _london_yield_max(1) + D.ROUNDS * max(D.BONUS_MOURNERS))
FREE_MORTUARIES_MAX = max(1, D.ROYAL_STEPS)  # prestige '!' mortuaries pending at once
_LONDON_STOP = (G.UPKEEP, G.LOAD, G.INCOME)  # pushed at a London stop, the top runs first


def agenda_max(num_players: int) -> int:
    """Longest agenda at a decision: the end moves under a London stop."""
    n = num_players
    turn = 3 + max(2 + 1 + FREE_MORTUARIES_MAX, 1 + len(_LONDON_STOP))
    century = 2 + n + FREE_MORTUARIES_MAX
    end_moves = 1 + n + 1 + (n - 1) + 1 + len(_LONDON_STOP)
    return max(turn, century, end_moves)


def supply_at_start(num_players: int) -> list[int]:
    """Mortuaries of each kind in the supply at the start (solo: its own count)."""
    if num_players == 1:
        return [D.SOLO_MORTUARY_SUPPLY] * len(D.MORTUARY_KINDS)
    return list(D.MORTUARY_SUPPLY)


# -- the schema ----------------------------------------------------------------------------------
def _player_schema(num_players: int) -> Record:
    coffins = List(Int(0, D.COFFINS_PER_COLOUR), D.NUM_COFFIN_COLOURS)
    return Record({
        "money": Int(0, MONEY_MAX),
        "prestige": Int(0, D.PRESTIGE_MAX),
        "discs": List(Int(0, D.DISC_SUPPLY), D.NUM_DISC_COLOURS),
        "london": List(Int(0, LONDON_TOP), D.NUM_SLOTS),
        "london_staff": Int(0, D.LONDON_STAFF_SPACES),
        "london_vol": Int(0, min(D.LONDON_STAFF_SPACES, D.VOLUNTEER_SUPPLY)),
        "col_worker": List(Int(choices=(NO_WORKER, STAFF, VOLUNTEER)), D.COLUMNS),
        "plots": List(Int(-1, D.NUM_COFFIN_COLOURS - 1), D.COLUMNS * D.ROWS),  # -1: empty
        "fill": List(Int(0, D.ROWS), D.COLUMNS),
        "mortuary": List(Int(0, len(D.MORTUARY_KINDS)), D.COLUMNS),  # 0: none
        "necro_mourners": Int(0, MOURNERS_MAX),
        "overflow": coffins,
        "waiting": coffins,
        "waiting_mourners": Int(0, MOURNERS_MAX),
        "pos": Int(0, D.TRACK_LENGTH - 1),
        "train": List(Int(0, min(D.COFFINS_PER_COLOUR, COFFIN_CAP_MAX)), D.NUM_COFFIN_COLOURS),
        "train_mourners": Int(0, MOURNER_CAP_MAX),
        "cars": Tuple([List(Int(choices=(SIDE_A, SIDE_B)), (0, D.CAR_POSITIONS))
                       for _ in D.CAR_KINDS]),
        "tucked": List(Int(0, D.NUM_CARDS - 1), (0, D.MAX_TUCKED)),
        "perks": List(Bool(), len(D.PERKS)),
        "pairs": List(Bool(), D.CAR_POSITIONS),
        "staff_supply": Int(0, D.STAFF_PER_PLAYER),
        "express_turn": Int(-1, D.ROUNDS * num_players),  # -1: no express perk
        "dismissed": Int(0, D.STAFF_PER_PLAYER),
    })


AGENDA_CODES = tuple(range(A.NUM_DECISIONS)) + tuple(range(G.AUTO, G.PHASE + 1))


def state_schema(num_players: int) -> Record:
    """Every field of a saved position for ``num_players`` players."""
    n = num_players
    card = Int(0, D.NUM_CARDS - 1)
    arg_max = max(t_move_max(n) + D.EXPRESS_MOVE, D.TRACK_LENGTH)  # a move's spaces is the most
    fields = {
        "rng": RNG_STATE,
        "players": List(_player_schema(n), n),
        "disc_supply": List(Int(0, D.DISC_SUPPLY), D.NUM_DISC_COLOURS),
        "bag": List(Int(0, D.COFFINS_PER_COLOUR), D.NUM_COFFIN_COLOURS),
        "mortuary_supply": Tuple([Int(0, s) for s in supply_at_start(n)]),
        "vol_supply": Int(0, D.VOLUNTEER_SUPPLY),
        # a bonus space holds a disc of its colour or an orange one, or none (-1)
        "bonus_spaces": Tuple([Int(choices=(-1, colour, D.ORANGE)) for colour in D.BONUS_COLOUR]),
        "round": Int(0, D.ROUNDS),
        "turn_no": Int(0, D.ROUNDS * n),
        "phase": Int(0, len(G.PHASES) - 1),
        "pay_purpose": Int(0, len(A.PAY_PURPOSES) - 1),
        "pay_left": Int(0, max(D.PRESTIGE_COST)),
        "agenda": List(Tuple([Int(choices=AGENDA_CODES), Int(0, n - 1), Int(-1, arg_max)]),
                       (0, agenda_max(n))),
        "deck": List(card, (0, D.NUM_CARDS)),
        "discard": List(card, (0, D.NUM_CARDS)),
        "row": List(card, D.ROW_SIZE),
        "row_discs": List(List(Int(0, D.MAX_BACK_DISCS), D.NUM_DISC_COLOURS), D.ROW_SIZE),
        "t_seat": Int(-1, n - 1),  # -1: between turns
        "t_card": Int(-1, D.NUM_CARDS - 1),
        "t_taken_slot": Int(-1, D.ROW_SIZE - 1),
        "t_used": List(Bool(), len(G.TURN_USES)),
        "t_tucked_now": Bool(),
        "t_move": Int(0, t_move_max(n)),
        "t_crew": Bool(),
        "t_dining": Bool(),
        "t_baggage": Bool(),
        "t_yard": Bool(),
        "t_hired": Bool(),
        "t_built": Bool(),
    }
    return Record(fields)


# -- the agenda's grammar -------------------------------------------------------------------------
_ZERO_ARG = (A.K_TAKE, A.K_LONDON, A.K_NECRO, A.K_PERK, A.K_LOAD, A.K_BURY, A.K_DISCARD,
             A.K_CENTURY, A.K_FINAL, G.TURN_START, G.MOVE_START, G.LOAD, G.INCOME, G.NECRO_STOP,
             G.DISCARD_CHECK, G.CLEANUP, G.NEXT, G.ROUND_END, G.END_MOVE, G.GAME_OVER)
_RAIL_BONUS = tuple(b for b, d in enumerate(D.BONUS_RAIL) if d >= 0)
_HIRE_COSTS = tuple(c for c in D.BONUS_HIRE if c >= 0)
_UPKEEP_RATES = (D.UPKEEP, D.CREW_UPKEEP)
(_USED_LONDON, _USED_NECRO, _USED_RAIL, _USED_BONUS, _USED_PRESTIGE,
 _USED_TUCKED) = range(len(G.TURN_USES))


def _code_name(code: int) -> str:
    if code < G.AUTO:
        return A.DECISIONS[code]
    return next(k for k, v in vars(G).items() if v == code and k.isupper() and k != "AUTO")


class _Reader:
    """Reads the agenda from the bottom; failures name the item (``agenda[i]``)."""

    def __init__(self, agenda: list[Item]) -> None:
        self.items = agenda
        self.i = 0

    def peek(self) -> Item | None:
        return self.items[self.i] if self.i < len(self.items) else None

    def peek_code(self) -> int:
        item = self.peek()
        return -1 if item is None else item[0]

    def where(self) -> str:
        item = self.peek()
        return f"agenda[{self.i}] {list(item) if item else 'end'}"

    def take(self, code: int, seat: int, arg: int = 0) -> Item:
        item = self.peek()
        assert item == (code, seat, arg), (
            f"{self.where()}: expected [{code}, {seat}, {arg}] ({_code_name(code)})")
        self.i += 1
        return item

    def take_code(self, code: int, seat: int) -> Item:
        """The next item, of ``code`` for ``seat``, whatever its argument."""
        item = self.peek()
        assert item is not None and item[:2] == (code, seat), (
            f"{self.where()}: expected {_code_name(code)} for seat {seat}")
        self.i += 1
        return item

    def end(self) -> None:
        assert self.i == len(self.items), f"{self.where()}: nothing may follow here"


def check_agenda(st: NecropolisState) -> None:
    """Assert the agenda is one the rules build, agreeing with the position."""
    ag = st.agenda
    for i, item in enumerate(ag):
        assert isinstance(item, tuple) and len(item) == 3, f"agenda[{i}] is not (code, seat, arg)"
        code, _, arg = item
        if code in _ZERO_ARG:
            assert arg == 0, f"agenda[{i}] {list(item)}: {_code_name(code)} takes no argument"
    if not any(item[0] == A.K_PAY for item in ag):
        assert st.pay_left == 0, "pay_left: discs are owed but no payment is pending"
    n = st.num_players
    if not ag:
        assert st.phase == G.P_OVER, "phase: an empty agenda is a finished game ('over')"
        _assert_between_turns(st, D.ROUNDS, move_allowed=False)
        return
    assert ag[-1][0] < G.AUTO, f"agenda[{len(ag) - 1}] {list(ag[-1])}: the top is not a decision"
    r = _Reader(ag)
    phase = st.phase
    if phase == G.P_ROUNDS:
        _rounds(st, r)
    elif phase == G.P_CENTURY:
        _assert_between_turns(st, D.CENTURY_AFTER_ROUND, move_allowed=True)
        r.take(G.TURN_START, 0)
        r.take(G.PHASE, 0, G.P_ROUNDS)
        seat = n - 1  # the century decisions run from seat 0; the last seat's is the lowest
        while r.peek_code() == A.K_CENTURY:
            r.take(A.K_CENTURY, seat)
            seat -= 1
        if r.peek() is not None:  # what the seat that just chose still has to place
            assert seat >= 0, f"{r.where()}: every seat's century action is done"
            _effects(st, r, seat, bonus=False)
    elif phase == G.P_END_MOVES:
        _assert_between_turns(st, D.ROUNDS, move_allowed=False)
        r.take(G.GAME_OVER, 0)
        for seat in range(n):  # reverse seat order: the last seat buys first
            r.take(A.K_FINAL, seat)
        r.take(G.PHASE, 0, G.P_FINAL)
        seat = n - 1
        while r.peek_code() == G.END_MOVE:
            r.take(G.END_MOVE, seat)
            seat -= 1
        assert seat >= 0, f"{r.where()}: every seat's end move is done"
        _movement(st, r, seat, end_move=True)
    elif phase == G.P_FINAL:
        _assert_between_turns(st, D.ROUNDS, move_allowed=False)
        r.take(G.GAME_OVER, 0)
        seat = 0
        while r.peek_code() == A.K_FINAL:
            r.take(A.K_FINAL, seat)
            seat += 1
    else:
        raise AssertionError("phase 'over' with decisions left on the agenda")
    r.end()


def _assert_between_turns(st: NecropolisState, rnd: int, move_allowed: bool) -> None:
    """Outside a turn: no turn card, nothing used (the century's prestige may add movement)."""
    assert st.round == rnd, f"round: {st.round} in this phase, expected {rnd}"
    assert st.turn_no == rnd * st.num_players, f"turn_no {st.turn_no}: {rnd} full rounds played"
    assert st.t_seat == -1 and st.t_card == -1 and st.t_taken_slot == -1, (
        "t_seat, t_card, t_taken_slot: no turn is under way")
    assert not any(st.t_used), "t_used: no turn is under way"
    assert not (st.t_tucked_now or st.t_crew or st.t_dining or st.t_baggage or st.t_yard
                or st.t_hired or st.t_built), "turn flags: no turn is under way"
    assert move_allowed or st.t_move == 0, "t_move: no turn is under way"


def _rounds(st: NecropolisState, r: _Reader) -> None:
    s = st.t_seat
    n = st.num_players
    assert s >= 0 and st.round < D.ROUNDS, "t_seat, round: the rounds phase is in a turn"
    assert st.turn_no == st.round * n + s, f"turn_no {st.turn_no}: round {st.round}, seat {s}"
    r.take(G.NEXT, s)
    r.take(G.CLEANUP, s)
    if r.peek_code() == A.K_DISCARD:  # the hold limit after the move
        r.take(A.K_DISCARD, s)
        _assert_card_taken(st, s)
        return
    r.take(G.DISCARD_CHECK, s)
    if r.peek_code() != G.MOVE_START:
        _assert_card_taken(st, s)
        _movement(st, r, s, end_move=False)
        return
    r.take(G.MOVE_START, s)
    r.take(A.K_TURN, s, A.TURN_MENU)
    if r.peek_code() == A.K_TAKE:
        r.take(A.K_TAKE, s)
        assert st.t_card == -1 and st.t_taken_slot == -1 and st.t_move == 0, (
            "t_card, t_taken_slot, t_move: no card is taken yet")
        assert not any(st.t_used), "t_used: no card is taken yet"
        assert not (st.t_tucked_now or st.t_crew or st.t_dining or st.t_baggage or st.t_yard
                    or st.t_hired or st.t_built), "turn flags: no card is taken yet"
        return
    _assert_card_taken(st, s)
    code = r.peek_code()
    if code == A.K_PAY:
        _payment(st, r, s)
    elif code == A.K_LONDON:
        r.take(A.K_LONDON, s)
        assert st.t_used[_USED_LONDON], "t_used: a London upgrade without the London action"
    elif code == A.K_NECRO:
        r.take(A.K_NECRO, s)
        assert st.t_used[_USED_NECRO], "t_used: a Necropolis choice without its action"
        assert not (st.t_hired and st.t_built), "t_hired, t_built: the action is complete"
    elif code == A.K_RAIL and r.peek()[2] < 0:  # type: ignore[index]
        r.take(A.K_RAIL, s, -1)
        assert st.t_used[_USED_RAIL], "t_used: a Railway choice without the Railway action"
    elif code >= 0:
        _effects(st, r, s, bonus=True)


def _assert_card_taken(st: NecropolisState, s: int) -> None:
    """After the take: the turn card and its slot; flags only with the use that sets them."""
    assert st.t_card >= 0 and st.t_taken_slot >= 0, "t_card, t_taken_slot: a card was taken"
    used = st.t_used
    if st.t_tucked_now:
        tucked = st.players[s].tucked
        assert used[_USED_RAIL] and tucked and tucked[-1] == st.t_card, (
            "t_tucked_now: the turn card is the last card tucked by the Railway action")
    assert used[_USED_NECRO] or not (st.t_hired or st.t_built), (
        "t_hired, t_built: set only by the Necropolis action")
    assert used[_USED_TUCKED] or not (st.t_crew or st.t_dining or st.t_baggage or st.t_yard), (
        "t_crew, t_dining, t_baggage, t_yard: set only by using a tucked card")


def _payment(st: NecropolisState, r: _Reader, s: int) -> None:
    purpose = st.pay_purpose
    r.take(A.K_PAY, s, purpose)
    p = st.players[s]
    if purpose == A.PURPOSE_PRESTIGE:
        assert st.t_used[_USED_PRESTIGE] and p.prestige < D.PRESTIGE_MAX, (
            "t_used, prestige: paying for a prestige step")
        assert 1 <= st.pay_left <= D.PRESTIGE_COST[p.prestige + 1], (
            "pay_left: at most the next prestige step's cost")
    else:
        assert st.pay_left == 1, "pay_left: an action or bonus space costs one disc"
        if purpose < A.PURPOSE_BONUS:
            assert st.t_used[purpose], "t_used: paying for an action not chosen"
        else:
            assert st.t_used[_USED_BONUS], "t_used: paying for a bonus space not chosen"
            assert st.bonus_spaces[purpose - A.PURPOSE_BONUS] == -1, (
                "bonus_spaces: the space being paid for already holds a disc")


def _effects(st: NecropolisState, r: _Reader, s: int, bonus: bool) -> None:
    """What an action leaves to place: a bonus space's hire or railway upgrade, a perk, its
    volunteers, prestige '!' mortuaries.  At least one item; nothing above them."""
    if bonus and r.peek_code() == A.K_BONUS_HIRE:
        cost = r.take_code(A.K_BONUS_HIRE, s)[2]
        assert st.t_used[_USED_BONUS] and cost in _HIRE_COSTS and any(
            c == cost and st.bonus_spaces[b] >= 0 for b, c in enumerate(D.BONUS_HIRE)
        ), f"agenda[{r.i - 1}]: a bonus hire needs its bonus space taken this turn"
    code = r.peek_code()
    if code == -1:
        assert r.i > 0 and r.items[r.i - 1][0] == A.K_BONUS_HIRE, "agenda: nothing pending"
        return
    where = r.where()
    item = r.take_code(code, s)
    arg = item[2]
    p = st.players[s]
    if code == A.K_RAIL and bonus:
        assert arg in _RAIL_BONUS and st.t_used[_USED_BONUS] and st.bonus_spaces[arg] >= 0, (
            f"{where}: a discounted railway upgrade needs its bonus space taken this turn")
    elif code == A.K_PERK:
        pass
    elif code == A.K_VOLUNTEER:
        assert p.perks[D.VOLUNTEERS], f"{where}: volunteers come with the volunteers perk"
        assert 1 <= arg <= min(D.PERK_VOLUNTEERS, st.vol_supply), (
            f"{where}: volunteers to place: 1..{D.PERK_VOLUNTEERS}, and in the supply")
    elif code == A.K_FREE_MORT:
        assert st.t_used[_USED_PRESTIGE] or p.perks[D.ROYAL], (
            f"{where}: a free mortuary comes with a prestige step (the action or royal perk)")
        _assert_free_mortuary(p, arg, where)
        for _ in range(FREE_MORTUARIES_MAX - 1):
            if r.peek_code() != A.K_FREE_MORT:
                break
            where = r.where()
            _assert_free_mortuary(p, r.take_code(A.K_FREE_MORT, s)[2], where)
    else:
        raise AssertionError(f"{where}: not something an action leaves to place")


def _assert_free_mortuary(p: Player, kind: int, where: str) -> None:
    """A prestige '!' mortuary of a level the seat has reached."""
    assert kind >= 0 and any(D.PRESTIGE_MORTUARY[level] == kind
                             for level in range(p.prestige + 1)), (
        f"{where}: no prestige level reached gives this mortuary")


def _express(st: NecropolisState, p: Player) -> int:
    return D.EXPRESS_MOVE if 0 <= p.express_turn < st.turn_no else 0


def _movement(st: NecropolisState, r: _Reader, s: int, end_move: bool) -> None:
    """The train's move: loading when it leaves London, or a station's steps."""
    p = st.players[s]
    moving = r.peek_code() == G.MOVE
    if moving:
        where = r.where()
        left = r.take_code(G.MOVE, s)[2]
        if end_move:  # the move to the next station, still in London loading
            to_station = min((D.LONDON - p.pos) % D.TRACK_LENGTH or D.TRACK_LENGTH,
                             (D.NECROPOLIS - p.pos) % D.TRACK_LENGTH or D.TRACK_LENGTH)
            assert left == to_station, f"{where}: the end move goes to the next station"
        else:
            assert 1 <= left <= st.t_move + _express(st, p), (
                f"{where}: spaces left exceed the turn's movement")
    code = r.peek_code()
    where = r.where()
    if code == A.K_LOAD and moving:  # leaving London: load before the move
        r.take(A.K_LOAD, s)
        assert p.pos == D.LONDON, f"{where}: loading happens in London"
        if not end_move:
            assert left == st.t_move + _express(st, p), f"{where}: the move has not started"
        return
    assert not (end_move and moving), f"{where}: the end move stops at the first station"
    if code == A.K_TURN:
        r.take(A.K_TURN, s, A.TURN_END_STATION)
        assert end_move and p.pos in (D.LONDON, D.NECROPOLIS), (
            f"{where}: take-or-decline is asked at a station after the last round")
    elif code == A.K_BURY:
        r.take(A.K_BURY, s)
        assert p.pos == D.NECROPOLIS, f"{where}: burying happens at the Necropolis"
    elif code in (G.UPKEEP, A.K_DISMISS):
        assert p.pos == D.LONDON, f"{where}: upkeep happens in London"
        rate = r.take_code(code, s)[2]
        assert rate in ((D.UPKEEP,) if end_move else _UPKEEP_RATES), (
            f"{where}: upkeep per staff is {D.UPKEEP} (or the crew car's {D.CREW_UPKEEP})")
        if code == G.UPKEEP:
            where = r.where()
            if r.peek_code() == G.LOAD:
                r.take(G.LOAD, s)
                where = r.where()
                choices = r.take_code(A.K_INCOME_DISC, s)[2]
                assert 1 <= choices <= p.london_income()[3], (
                    f"{where}: more disc choices than the London board gives")
            else:
                r.take(A.K_LOAD, s)
    else:
        raise AssertionError(f"{where}: not a step of the train's move")
