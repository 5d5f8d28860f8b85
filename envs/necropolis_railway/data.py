"""Loads ``necropolis_railway.json`` into flat tables the engine indexes fast.

Every number of the game design lives in the JSON file (our own design, not the
published components); this module only reshapes it: colours become indices,
London slots become one flat list (facility by facility, as many slots as the file
gives each), cards become tuples.  Every number in the file must reach a public
table here and every public table must be used by the engine
(``tests/necropolis_railway/test_data.py``): a value the engine ignores is a defect.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA_PATH = Path(__file__).with_name("necropolis_railway.json")


def load_raw() -> dict[str, Any]:
    with DATA_PATH.open(encoding="utf-8") as fh:
        return json.load(fh)


RAW = load_raw()
_ENGINE = RAW["engine"]

PLAYER_COUNTS: tuple[int, ...] = tuple(int(n) for n in RAW["players"])

# -- colours -----------------------------------------------------------------
DISC_COLOURS: tuple[str, ...] = tuple(RAW["discs"]["colours"])  # blue green grey orange
NUM_DISC_COLOURS = len(DISC_COLOURS)
ORANGE = DISC_COLOURS.index(_ENGINE["card_action_colour"]["wild"])
DISC_SUPPLY = int(RAW["discs"]["supply_per_colour"])
HOLD_LIMIT = int(RAW["discs"]["hold_limit_end_of_turn"])
START_DISCS = [int(_ENGINE["start_discs"][c]) for c in DISC_COLOURS]
_BACK_LETTER = {k: DISC_COLOURS.index(v) for k, v in _ENGINE["disc_back_letters"].items()
               if not k.startswith("_")}
INCOME_DISC_COLOURS = tuple(DISC_COLOURS.index(c) for c in _ENGINE["income_disc_choice_colours"])

COFFIN_COLOURS: tuple[str, ...] = tuple(RAW["coffins"]["colours"])  # black white red yellow
NUM_COFFIN_COLOURS = len(COFFIN_COLOURS)
COFFINS_PER_COLOUR = int(RAW["coffins"]["per_colour"])

# -- structure ----------------------------------------------------------------
ROUNDS = int(RAW["rounds"])
CENTURY_AFTER_ROUND = int(RAW["turn_of_century_after_round"])
ROW_SIZE = int(RAW["card_row_size"])
TRACK_LENGTH = int(RAW["track"]["length"])
LONDON = int(RAW["track"]["london"])
NECROPOLIS = int(RAW["track"]["necropolis"])

_START = RAW["start"]
START_MONEY = [int(m) for m in _START["money_by_seat"]]
START_TRAIN_POS = int(_START["train_pos"])
START_TRAIN_COFFINS = int(_START["train_coffins_random"])
START_TRAIN_MOURNERS = int(_START["train_mourners"])
START_WAITING_MOURNERS = int(_START["london_waiting_mourners"])
START_STAFF_COLUMNS = [int(c) for c in _START["necropolis_staff_columns"]]
START_PRESTIGE = int(_START["prestige"])

# -- the three card actions -----------------------------------------------------
ACTIONS = ("london", "necropolis", "railway")
ACTION_COLOUR = tuple(DISC_COLOURS.index(_ENGINE["card_action_colour"][a]) for a in ACTIONS)
ACTION_KEY = ("L", "N", "R")  # card "trains" keys

# -- cards ----------------------------------------------------------------------
ABILITIES: tuple[str, ...] = tuple(RAW["railway_card_abilities"])  # BAGGAGE CREW DINING YARD
BAGGAGE, CREW, DINING, YARD = (ABILITIES.index(k) for k in ("BAGGAGE", "CREW", "DINING", "YARD"))
CARD_IDS: tuple[int, ...] = tuple(int(c["id"]) for c in RAW["cards"])
NUM_CARDS = len(CARD_IDS)
# indexed by card index 0..NUM_CARDS-1 (card id = CARD_IDS[index])
CARD_TRAINS: tuple[tuple[int, int, int], ...] = tuple(
    tuple(int(c["trains"][k]) for k in ACTION_KEY) for c in RAW["cards"]
)
CARD_ABILITY: tuple[int, ...] = tuple(ABILITIES.index(c["rail_ability"]) for c in RAW["cards"])
CARD_BACK: tuple[tuple[int, ...], ...] = tuple(
    tuple(_BACK_LETTER[ch] for ch in c["back"]) for c in RAW["cards"]
)
CARD_BACK_KEY: tuple[str, ...] = tuple(c["back"] for c in RAW["cards"])
MAX_CARD_TRAINS = max(max(t) for t in CARD_TRAINS) or 1
MAX_BACK_DISCS = max(len(b) for b in CARD_BACK) or 1
CREW_UPKEEP = int(_ENGINE["card_ability_values"]["CREW"]["upkeep_per_staff"])
DINING_MONEY = int(_ENGINE["card_ability_values"]["DINING"]["money_per_full_mourner_car"])
YARD_MOVE = int(_ENGINE["card_ability_values"]["YARD"]["movement_per_tucked_card"])

# -- London board ---------------------------------------------------------------
_FACILITIES: tuple[str, ...] = tuple(_ENGINE["london_facility_order"])
_YIELD_KEYS = ("coffin", "mourner", "money", "disc_choice", "orange")
SLOT_NAMES: list[str] = []
SLOT_YIELD: list[tuple[tuple[int, ...], ...]] = []  # [slot][level] -> yields by _YIELD_KEYS
SLOT_COST: list[tuple[int, int]] = []  # [slot] -> (to A, to B)
FACILITY_SLOTS: list[tuple[int, ...]] = []  # [facility] -> its slot indices (any number)
for _fac in _FACILITIES:
    _first = len(SLOT_NAMES)
    for _i, _slot in enumerate(RAW["london"]["slots"][_fac]):
        SLOT_NAMES.append(f"{_fac}_{_i + 1}")
        SLOT_YIELD.append(tuple(
            tuple(int(_slot[lvl].get(k, 0)) for k in _YIELD_KEYS) for lvl in ("printed", "A", "B")
        ))
        SLOT_COST.append((int(_slot["costA"]), int(_slot["costB"])))
    FACILITY_SLOTS.append(tuple(range(_first, len(SLOT_NAMES))))
NUM_SLOTS = len(SLOT_NAMES)
LONDON_STAFF_SPACES = int(RAW["london"]["staff_spaces"])
PAIR_POINTS = int(RAW["london"]["pair_points"])

# -- railway board ----------------------------------------------------------------
_RAIL = RAW["railway"]
BASE_COFFIN_CAP = int(_RAIL["base_capacity"]["coffin"])
BASE_MOURNER_CAP = int(_RAIL["base_capacity"]["mourner"])
CAR_POSITIONS = int(_RAIL["car_positions"])
ADD_COST = [int(c) for c in _RAIL["add_cost_by_position"]]
CAR_KINDS = ("coffin", "mourner")
CAR_CAP = ((0, int(_RAIL["coffin_car"]["A"]), int(_RAIL["coffin_car"]["B"])),
           (0, int(_RAIL["mourner_car"]["A"]), int(_RAIL["mourner_car"]["B"])))  # [kind][side]
FLIP_COST = (int(_RAIL["coffin_car"]["flip_cost"]), int(_RAIL["mourner_car"]["flip_cost"]))
SELL_VALUE = int(_RAIL["sell_value"])
MAX_TUCKED = int(_RAIL["max_tucked_cards"])
PERKS: tuple[str, ...] = tuple(_RAIL["perks"])  # express volunteers royal_patronage
EXPRESS, VOLUNTEERS, ROYAL = range(3)
_PERK_FX = _ENGINE["perk_effects"]
EXPRESS_MOVE = int(_PERK_FX["express"]["movement"])
PERK_VOLUNTEERS = int(_PERK_FX["volunteers"]["volunteers"])
ROYAL_STEPS = int(_PERK_FX["royal_patronage"]["prestige_steps"])
ROYAL_MONEY = int(_PERK_FX["royal_patronage"]["money"])

# -- Necropolis board ---------------------------------------------------------------
_NEC = RAW["necropolis"]
COLUMNS = int(_NEC["columns"])
ROWS = int(_NEC["rows"])
PLOT_COLOUR: tuple[tuple[int, ...], ...] = tuple(
    tuple(COFFIN_COLOURS.index(c) for c in col) for col in _NEC["plot_colours_bottom_to_top"]
)
MATCH_MONEY = int(_NEC["match_bonus_money"])
COLUMN_POINTS = int(_NEC["column_complete_points"])
OVERFLOW_POINTS = int(_NEC["overflow_points_each"])

_MORT = RAW["mortuaries"]
MORTUARY_KINDS: tuple[str, ...] = ("bronze", "silver", "gold")
MORTUARY_MOURNERS = tuple(int(_MORT[k]["cost_mourners"]) for k in MORTUARY_KINDS)
MORTUARY_MULT = (int(_MORT["none_multiplier"]),
                 *(int(_MORT[k]["multiplier"]) for k in MORTUARY_KINDS))  # 0 none, 1..3 b/s/g
MORTUARY_SUPPLY = tuple(int(_MORT[k]["supply"]) for k in MORTUARY_KINDS)
SOLO_MORTUARY_SUPPLY = int(_ENGINE["solo"]["mortuary_supply_each"])
MONEY_PER_MISSING_MOURNER = int(_MORT["money_per_missing_mourner"])

HIRE_COST = int(RAW["staff"]["hire_cost"])
UPKEEP = int(RAW["staff"]["upkeep"])
STAFF_PER_PLAYER = int(RAW["staff"]["supply_per_player"])
VOLUNTEER_SUPPLY = int(RAW["volunteers"]["supply"])

# -- prestige -----------------------------------------------------------------------
PRESTIGE_MAX = int(RAW["prestige"]["max"])
PRESTIGE_COST = [0 if c is None else int(c) for c in RAW["prestige"]["step_cost_discs"]]
PRESTIGE_MOVE = [0] * (PRESTIGE_MAX + 1)
PRESTIGE_MORTUARY = [-1] * (PRESTIGE_MAX + 1)  # kind index or -1
for _lvl, _fx in _ENGINE["prestige_bonus_effects"].items():
    PRESTIGE_MOVE[int(_lvl)] = int(_fx.get("movement", 0))
    if "mortuary" in _fx:
        PRESTIGE_MORTUARY[int(_lvl)] = MORTUARY_KINDS.index(_fx["mortuary"])

# -- bonus spaces ----------------------------------------------------------------------
BONUS_SPACES: tuple[str, ...] = tuple(k for k in RAW["bonus_spaces"] if k != "reset")
_BFX = _ENGINE["bonus_space_effects"]
BONUS_COLOUR = tuple(DISC_COLOURS.index(_BFX[b]["colour"]) for b in BONUS_SPACES)
BONUS_MONEY = tuple(int(_BFX[b].get("money", 0)) for b in BONUS_SPACES)
BONUS_COFFINS = tuple(int(_BFX[b].get("coffins_to_waiting", 0)) for b in BONUS_SPACES)
BONUS_MOURNERS = tuple(int(_BFX[b].get("mourners_to_necropolis", 0)) for b in BONUS_SPACES)
BONUS_MOVE = tuple(int(_BFX[b].get("movement", 0)) for b in BONUS_SPACES)
BONUS_HIRE = tuple(int(_BFX[b]["hire_cost"]) if "hire_cost" in _BFX[b] else -1
                   for b in BONUS_SPACES)
BONUS_RAIL = tuple(int(_BFX[b]["rail_discount"]) if "rail_discount" in _BFX[b] else -1
                   for b in BONUS_SPACES)

# -- observation scales -------------------------------------------------------------------
OBS_MAX = {k: float(v) for k, v in _ENGINE["observation_maxima"].items() if not k.startswith("_")}

# -- end scoring ------------------------------------------------------------------------
MONEY_PER_NECRO_MOURNER = int(_ENGINE["scoring"]["money_per_necropolis_mourner"])
MONEY_PER_POINT = int(_ENGINE["scoring"]["money_per_point"])
