"""The authored component data (``prefectures.toml``) as flat lookup tables.

Cards are ids ``0..42`` in file order; every table below is indexed by card id
so the engine never touches the TOML at run time.  ``BIG_CITY`` is the id used
on a tableau for a player's big city (it has no colour, power, icon or event).
"""

from __future__ import annotations

from pathlib import Path

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

DATA_FILE = Path(__file__).with_name("prefectures.toml")


def _load() -> dict:
    with DATA_FILE.open("rb") as handle:
        return tomllib.load(handle)


_RAW = _load()

COLOURS: tuple[str, ...] = tuple(c["key"] for c in _RAW["colour"])
COLOUR_REGIONS: tuple[str, ...] = tuple(c["region"] for c in _RAW["colour"])
INDUSTRIES: tuple[str, ...] = tuple(i["key"] for i in _RAW["industry"])
EVENTS: tuple[str, ...] = tuple(e["key"] for e in _RAW["event"])
EVENT_TEXT: tuple[str, ...] = tuple(e["text"] for e in _RAW["event"])
EVENT_JA: tuple[str, ...] = tuple(e["ja"] for e in _RAW["event"])
EVENT_CHOICE: tuple[str, ...] = tuple(e["choice"] for e in _RAW["event"])
BIG_CITIES: tuple[str, ...] = tuple(b["key"] for b in _RAW["big_city"])
BIG_CITIES_JA: tuple[str, ...] = tuple(b["ja"] for b in _RAW["big_city"])

_PREFS = _RAW["prefecture"]
NUM_CARDS = len(_PREFS)
BIG_CITY = NUM_CARDS  # card id of a big city on a tableau

CARD_KEYS: tuple[str, ...] = tuple(p["key"] for p in _PREFS)  # romaji, lower case
CARD_ROMAJI: tuple[str, ...] = tuple(p["key"].capitalize() for p in _PREFS)
CARD_JA: tuple[str, ...] = tuple(p["ja"] for p in _PREFS)
CARD_NOTE: tuple[str, ...] = tuple(p["note"] for p in _PREFS)
COLOUR: tuple[int, ...] = tuple(COLOURS.index(p["colour"]) for p in _PREFS)
POWER: tuple[int, ...] = tuple(int(p["power"]) for p in _PREFS)
ICONS: tuple[tuple[int, int, int], ...] = tuple(
    tuple(int(ind in p["industries"]) for ind in INDUSTRIES)
    for p in _PREFS  # type: ignore[misc]
)
HAS_ICON: tuple[bool, ...] = tuple(any(icons) for icons in ICONS)
EVENT: tuple[int, ...] = tuple(EVENTS.index(p["event"]) for p in _PREFS)
CARD_ID: dict[str, int] = {key: i for i, key in enumerate(CARD_KEYS)}

MAX_POWER = 3


def _validate() -> None:
    """Fail at import if the data file breaks the rules page's constraints."""
    assert NUM_CARDS == 43, f"expected 43 regional cards, found {NUM_CARDS}"
    assert len(set(CARD_KEYS)) == NUM_CARDS, "duplicate prefecture keys"
    assert len(COLOURS) == 3 and len(INDUSTRIES) == 3, "3 colours and 3 industries"
    assert 8 <= len(EVENTS) <= 12, "the event vocabulary has 8-12 kinds"
    assert len(BIG_CITIES) == 4
    assert set(EVENT_CHOICE) <= {"none", "source", "target"}
    for p in _PREFS:
        assert 1 <= p["power"] <= MAX_POWER, f"{p['key']}: power must be 1..{MAX_POWER}"
        assert set(p["industries"]) <= set(INDUSTRIES), f"{p['key']}: unknown industry"
        assert len(set(p["industries"])) == len(p["industries"]), f"{p['key']}: repeated icon"
    for colour in range(3):
        assert 13 <= COLOUR.count(colour) <= 16, "colours are balanced (about 14-15 each)"


_validate()
