"""The fixed action catalogue (same for every seat and player count) and decision kinds.

A turn is split into small decisions by the same player: take a row card, then
from the turn menu pick a card action / bonus space / prestige step / tucked
card / end of turn, then the sub-decisions those open (which disc to pay, which
slot to upgrade, where to put staff, ...).  Names are 1-based for people
(``take:row_1``, ``hire@column_3``, ``rail:flip_coffin_car@2``).
"""

from __future__ import annotations

from meeplezoo.envs.core.actions import ActionCatalogue
from meeplezoo.envs.necropolis_railway import data as D

CATALOGUE = ActionCatalogue()

_COLS = [f"column_{c + 1}" for c in range(D.COLUMNS)]

TAKE = CATALOGUE.add("take", [f"take:row_{k + 1}" for k in range(D.ROW_SIZE)])
ACTION = CATALOGUE.add("action", [f"action:{a}" for a in D.ACTIONS])
PAY = CATALOGUE.add("pay", [f"pay:{c}" for c in D.DISC_COLOURS])
UPGRADE = CATALOGUE.add("upgrade", [f"upgrade:{s}" for s in D.SLOT_NAMES])
# spot 0 = London, 1+c = column
HIRE = CATALOGUE.add("hire", ["hire@london"] + [f"hire@{c}" for c in _COLS])
# kind*COLUMNS+col
BUILD = CATALOGUE.add("build", [f"build:{k}@{c}" for k in D.MORTUARY_KINDS for c in _COLS])
RAIL_ADD = CATALOGUE.add("rail_add", [f"rail:add_{k}_car" for k in D.CAR_KINDS])  # + kind
RAIL_FLIP = CATALOGUE.add("rail_flip", [f"rail:flip_{k}_car@{p + 1}" for k in D.CAR_KINDS
                                        for p in range(D.CAR_POSITIONS)])  # + kind*POSITIONS+pos
RAIL_TUCK = CATALOGUE.add("rail_tuck", ["rail:tuck"])
# + kind (the last tile)
RAIL_SELL = CATALOGUE.add("rail_sell", [f"rail:sell_{k}_car" for k in D.CAR_KINDS])
PERK = CATALOGUE.add("perk", [f"perk:{p}" for p in D.PERKS])
VOLUNTEER = CATALOGUE.add("volunteer", ["volunteer@london"] + [f"volunteer@{c}" for c in _COLS])
BONUS = CATALOGUE.add("bonus", [f"bonus:{b}" for b in D.BONUS_SPACES])
PRESTIGE = CATALOGUE.add("prestige", ["prestige"])
USE_TUCKED = CATALOGUE.add("use_tucked", [f"use_tucked:{k + 1}" for k in range(D.MAX_TUCKED)])
GAIN = CATALOGUE.add("gain", [f"gain:{D.DISC_COLOURS[c]}" for c in D.INCOME_DISC_COLOURS])
LOAD = CATALOGUE.add("load", [f"load:{c}" for c in D.COFFIN_COLOURS])
# colour*COLUMNS+col
BURY = CATALOGUE.add("bury", [f"bury:{k}@{c}" for k in D.COFFIN_COLOURS for c in _COLS])
DISMISS = CATALOGUE.add("dismiss", ["dismiss@london"] + [f"dismiss@{c}" for c in _COLS])
DISCARD = CATALOGUE.add("discard", [f"discard:{c}" for c in D.DISC_COLOURS])
END_TURN = CATALOGUE.add("end_turn", ["end_turn"])
SKIP = CATALOGUE.add("skip", ["skip"])

NAMES: tuple[str, ...] = CATALOGUE.names
NUM_ACTIONS = CATALOGUE.size
INDEX = {name: CATALOGUE.index(name) for name in NAMES}

# -- decision kinds ----------------------------------------------------------------
DECISIONS = (
    "take",  # take one row card with its discs
    "turn",  # the turn menu: card actions, bonus space, prestige, tucked card, end_turn
    "pay",  # which disc pays (only asked when the choice matters)
    "london_upgrade",  # London action: which slot to upgrade
    "necropolis",  # Necropolis action: hire and/or build, then skip
    "railway",  # Railway action (or the grey bonus space): add/flip/tuck/sell
    "bonus_hire",  # green bonus space: where the cheap staff goes
    "perk",  # a completed coffin/mourner pair: choose a perk
    "volunteer",  # place a volunteer
    "free_mortuary",  # prestige bonus: where the free mortuary goes
    "income_disc",  # London income: choose a disc colour
    "load",  # London: which coffin colour to load when not all fit
    "bury",  # Necropolis: which coffin goes to which staffed column
    "dismiss",  # London upkeep: which staff to dismiss when money is short
    "discard",  # end of turn: which disc to give back above the hold limit
    "century",  # Turn of the Century free action
    "final_purchase",  # after the end moves: hire one staff or build one mortuary
)
K = {name: i for i, name in enumerate(DECISIONS)}
K_TAKE, K_TURN, K_PAY, K_LONDON, K_NECRO, K_RAIL, K_BONUS_HIRE, K_PERK, K_VOLUNTEER = range(9)
(K_FREE_MORT, K_INCOME_DISC, K_LOAD, K_BURY, K_DISMISS, K_DISCARD, K_CENTURY,
 K_FINAL) = range(9, 17)
NUM_DECISIONS = len(DECISIONS)

# what a payment is for (observation context)
PAY_PURPOSES = tuple(f"action:{a}" for a in D.ACTIONS) + tuple(
    f"bonus:{b}" for b in D.BONUS_SPACES) + ("prestige",)
PURPOSE_BONUS = len(D.ACTIONS)  # purpose index of bonus space 0
PURPOSE_PRESTIGE = len(PAY_PURPOSES) - 1

RAIL_MODES = ("action", "bonus")

# The "turn" decision's argument: 0 the turn menu; TURN_END_STATION the end move's yes/no
# at the station reached after round 12 (``end_turn`` takes the station, ``skip`` declines).
TURN_MENU, TURN_END_STATION = 0, 1
