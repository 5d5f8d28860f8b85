"""Component data of Asian Delivery, loaded once from ``asian_delivery.toml``.

The TOML file documents every entry; this module only parses it into small
immutable records and checks the counts the rules rely on.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

COLOURS = ("red", "blue", "yellow", "green")
COLOUR_THEMES = ("construction", "research", "food", "art")
KINDS = ("base", *COLOURS)  # resource kinds: kind 0 = base, kind c+1 = advanced of colour c
TRACKS = ("warehouse", "transport", "stock", "workers")
WAREHOUSE, TRANSPORT, STOCK, WORKERS = range(4)


@dataclass(frozen=True)
class District:
    key: str
    name: str
    colour: int
    terminal: bool
    note: str


@dataclass(frozen=True)
class Company:
    key: str
    name: str
    lean: str
    tracks: tuple[tuple[int, ...], ...]  # per track: values at 0, 1, ... markers removed

    def markers(self, track: int) -> int:
        return len(self.tracks[track]) - 1


@dataclass(frozen=True)
class Request:
    name: str
    colour: int  # -1 for daily cards (no colour)
    base: int
    advanced: int
    vp: int


def _load() -> dict:
    path = Path(__file__).with_name("asian_delivery.toml")
    with path.open("rb") as fh:
        return tomllib.load(fh)


_RAW = _load()
RULES: dict = _RAW["rules"]
DISTRICTS: tuple[District, ...] = tuple(
    District(d["key"], d["name"], COLOURS.index(d["colour"]), bool(d["terminal"]), d["note"])
    for d in _RAW["district"]
)
COMPANIES: tuple[Company, ...] = tuple(
    Company(c["key"], c["name"], c["lean"], tuple(tuple(c[t]) for t in TRACKS))
    for c in _RAW["company"]
)
REQUESTS: tuple[Request, ...] = tuple(
    Request(r["name"], COLOURS.index(r["colour"]), r["base"], r["advanced"], r["vp"])
    for r in _RAW["request"]
)
DAILIES: tuple[Request, ...] = tuple(
    Request(d["name"], -1, d["base"], 0, d["vp"]) for d in _RAW["daily"]
)
SHARED_DAILIES: tuple[Request, ...] = tuple(
    Request(d["name"], -1, d["base"], 0, d["vp"]) for d in _RAW["shared_daily"]
)

ROUNDS: int = RULES["rounds"]
INTERIM_ROUND: int = RULES["interim_after_round"]
MARKET_SIZE: int = RULES["market_size"]
DAILIES_PER_PLAYER: int = RULES["dailies_per_player"]
START_PORT: int = RULES["start_port_base"]
START_RESERVE: int = RULES["start_reserve_base"]
MAX_WORKERS: int = RULES["max_workers"]
SLOT_ACTIONS: tuple[int, ...] = tuple(RULES["slot_actions"])
SLOT_GAIN: tuple[int, ...] = tuple(RULES["slot_base_gain"])
GROWTH_MARKERS: tuple[int, ...] = tuple(RULES["growth_markers"])
MARKERS: int = RULES["markers_per_company"]
INTERIM_VP: tuple[int, int] = tuple(RULES["interim_majority_vp"])
FINAL_VP: tuple[int, int] = tuple(RULES["final_majority_vp"])
DISTRICT_VP: int = RULES["district_majority_vp"]
COIN_VP: int = RULES["coin_vp"]
COINS_BY_DISTANCE: tuple[int, ...] = tuple(RULES["coins_by_distance"])
FIXED_PORT_POSITION: int = RULES["fixed_port_position"]
SLOTS = len(SLOT_ACTIONS)


def _check() -> None:
    assert len(DISTRICTS) == 9, "the city has nine districts"
    assert len(COMPANIES) == 5, "five companies"
    for company in COMPANIES:
        total = sum(company.markers(t) for t in range(len(TRACKS)))
        assert total == MARKERS, f"{company.key}: {total} markers, not {MARKERS}"
        assert company.tracks[WORKERS][-1] <= MAX_WORKERS
        for track in company.tracks:
            assert list(track) == sorted(track), f"{company.key}: tracks only grow"
    for colour in range(len(COLOURS)):
        assert sum(r.colour == colour for r in REQUESTS) == 10, "ten requests per colour"
    assert len(DAILIES) == 16 and len(SHARED_DAILIES) == DAILIES_PER_PLAYER
    assert len(GROWTH_MARKERS) == ROUNDS, "growth at every round end, round 6 included"
    assert len(SLOT_GAIN) == len(SLOT_ACTIONS) == 3


_check()
