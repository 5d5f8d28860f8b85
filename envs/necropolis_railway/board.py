"""One player's three boards (London, Railway, Necropolis), train, discs and money.

Plain ints and short lists so cloning and observing stay cheap.  Column and
slot indices are 0-based here; action names are 1-based.
"""

from __future__ import annotations

from typing import Any

from meeplezoo.envs.necropolis_railway import data as D

NO_WORKER, STAFF, VOLUNTEER = 0, 1, 2
SIDE_A, SIDE_B = 1, 2  # railway capacity tile sides

_FIELDS = (
    "money", "prestige", "discs", "london", "london_staff", "london_vol", "col_worker",
    "plots", "fill", "mortuary", "necro_mourners", "overflow", "waiting", "waiting_mourners",
    "pos", "train", "train_mourners", "cars", "tucked", "perks", "pairs", "staff_supply",
    "express_turn", "dismissed",
)


class Player:
    """Everything one seat owns.  ``cars[kind]`` lists tile sides left to right."""

    __slots__ = _FIELDS

    def __init__(self, money: int) -> None:
        self.money = money
        self.prestige = D.START_PRESTIGE
        self.discs = list(D.START_DISCS)  # by disc colour
        self.london = [0] * D.NUM_SLOTS  # 0 printed, 1 tile A, 2 tile B
        self.london_staff = 0
        self.london_vol = 0
        self.col_worker = [NO_WORKER] * D.COLUMNS
        self.plots = [-1] * (D.COLUMNS * D.ROWS)  # col*ROWS+row -> coffin colour or -1
        self.fill = [0] * D.COLUMNS  # plots used per column (bottom up)
        self.mortuary = [0] * D.COLUMNS  # 0 none, 1 bronze, 2 silver, 3 gold
        self.necro_mourners = 0
        self.overflow = [0] * D.NUM_COFFIN_COLOURS
        self.waiting = [0] * D.NUM_COFFIN_COLOURS  # London waiting area coffins
        self.waiting_mourners = D.START_WAITING_MOURNERS
        self.pos = D.START_TRAIN_POS
        self.train = [0] * D.NUM_COFFIN_COLOURS
        self.train_mourners = D.START_TRAIN_MOURNERS
        self.cars: list[list[int]] = [[], []]  # [coffin tiles, mourner tiles]
        self.tucked: list[int] = []  # card indices under the railway board
        self.perks = [False] * len(D.PERKS)
        self.pairs = [False] * D.CAR_POSITIONS  # pair position already earned its perk
        self.staff_supply = D.STAFF_PER_PLAYER
        self.express_turn = -1  # turn number the express perk was gained, -1 = not
        self.dismissed = 0  # staff dismissed at upkeep: out of the game (the memo's 破棄)

    # -- copies and saving ----------------------------------------------------------
    def copy(self) -> Player:
        p = Player.__new__(Player)
        p.money = self.money
        p.prestige = self.prestige
        p.discs = self.discs[:]
        p.london = self.london[:]
        p.london_staff = self.london_staff
        p.london_vol = self.london_vol
        p.col_worker = self.col_worker[:]
        p.plots = self.plots[:]
        p.fill = self.fill[:]
        p.mortuary = self.mortuary[:]
        p.necro_mourners = self.necro_mourners
        p.overflow = self.overflow[:]
        p.waiting = self.waiting[:]
        p.waiting_mourners = self.waiting_mourners
        p.pos = self.pos
        p.train = self.train[:]
        p.train_mourners = self.train_mourners
        p.cars = [self.cars[0][:], self.cars[1][:]]
        p.tucked = self.tucked[:]
        p.perks = self.perks[:]
        p.pairs = self.pairs[:]
        p.staff_supply = self.staff_supply
        p.express_turn = self.express_turn
        p.dismissed = self.dismissed
        return p

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in _FIELDS:
            v = getattr(self, f)
            out[f] = [row[:] for row in v] if f == "cars" else (v[:] if isinstance(v, list) else v)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Player:
        """Plain construction from a save the schema has checked (``saved.state_schema``)."""
        p = cls.__new__(cls)
        for f in _FIELDS:
            v = data[f]
            setattr(p, f, [row[:] for row in v] if f == "cars" else
                    (v[:] if isinstance(v, list) else v))
        return p

    # -- queries -------------------------------------------------------------------------
    def london_income(self) -> tuple[int, int, int, int, int]:
        """(coffins, mourners, money, disc choices, orange discs) of one London stop."""
        return london_income_of(self.london)

    def coffin_capacity(self) -> int:
        return D.BASE_COFFIN_CAP + sum(D.CAR_CAP[0][s] for s in self.cars[0])

    def mourner_capacity(self) -> int:
        return D.BASE_MOURNER_CAP + sum(D.CAR_CAP[1][s] for s in self.cars[1])

    def capacity(self, kind: int) -> int:
        return self.coffin_capacity() if kind == 0 else self.mourner_capacity()

    def cargo(self, kind: int) -> int:
        return sum(self.train) if kind == 0 else self.train_mourners

    def staff_count(self) -> int:
        """Paid staff (volunteers cost no upkeep)."""
        return self.london_staff + self.col_worker.count(STAFF)

    def london_workers(self) -> int:
        return self.london_staff + self.london_vol

    def free_spots(self) -> list[int]:
        """Places a new worker may go: 0 = London, 1 + c = Necropolis column c."""
        spots = [0] if self.london_staff + self.london_vol < D.LONDON_STAFF_SPACES else []
        cw = self.col_worker
        for c in range(D.COLUMNS):
            if cw[c] == NO_WORKER:
                spots.append(1 + c)
        return spots

    def place_worker(self, spot: int, kind: int) -> None:
        if spot == 0:
            if kind == STAFF:
                self.london_staff += 1
            else:
                self.london_vol += 1
        else:
            self.col_worker[spot - 1] = kind

    def full_mourner_cars(self) -> int:
        """Cars completely filled when mourners fill the base car, then tiles in order."""
        left = self.train_mourners
        full = 0
        for cap in [D.BASE_MOURNER_CAP] + [D.CAR_CAP[1][s] for s in self.cars[1]]:
            if left >= cap > 0:
                full += 1
                left -= cap
            else:
                break
        return full

    def buried(self) -> int:
        return sum(self.fill)


def london_income_of(levels: list[int] | tuple[int, ...]) -> tuple[int, int, int, int, int]:
    """(coffins, mourners, money, disc choices, orange discs) of one London stop on a board
    with these slot levels."""
    coffins = mourners = money = choice = orange = 0
    for s in range(D.NUM_SLOTS):
        y = D.SLOT_YIELD[s][levels[s]]
        coffins += y[0]
        mourners += y[1]
        money += y[2]
        choice += y[3]
        orange += y[4]
    return coffins, mourners, money, choice, orange
