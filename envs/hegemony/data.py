"""Hegemony's published component data and rule tables, loaded once from four json files.

``companies.json``, ``deals.json``, ``immigration.json`` and ``tables.json`` hold every number
(our Hegemony rules page §1-§11); this module reshapes them into frozen dataclasses, tuples and
small lookups the engine indexes fast, and checks them first (read with ``data_check.Checker``):
a broken file fails at import with a :class:`DataError` naming the file and the entry, so a typo
never reaches a game.

Conventions: industries, resources, classes and policy sections are indexes into the tuples
below; a ``[pN section]`` table is indexed 0, 1, 2 for A, B, C.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from meeplezoo.envs.hegemony.data_check import Checker, DataError

DATA_DIR = Path(__file__).parent
DATA_FILES = ("companies.json", "deals.json", "immigration.json", "tables.json")

INDUSTRIES = ("agri", "lux", "health", "edu", "media")  # industry i produces RESOURCES[i]
RESOURCES = ("food", "lux", "health", "edu", "influence")  # media produces influence
GOODS = RESOURCES[:4]  # storable goods
CLASSES = ("WC", "MC", "CC", "ST")  # seat index = class index
SECTIONS = ("A", "B", "C")  # policy section index 0, 1, 2
POLICIES = 7
WAGE_LEVELS = ("L1", "L2", "L3")
PRICE_STEP_NAMES = ("low", "mid", "high")
UNSKILLED = "U"


@dataclass(frozen=True)
class Slot:
    skill: int | None  # industry index of a skilled slot; None = an unskilled (U) slot
    mc: bool = False  # an MC company's MC slot (MC workers only)
    employee: bool = False  # an MC company's optional WC employee slot


@dataclass(frozen=True)
class CompanyCard:
    index: int  # position in COMPANIES
    id: str
    name: str
    sector: str  # "cc" | "mc" | "public" | "coop"
    industry: int
    cost: int
    production: int  # base production (public "Prod", MC "Base", coop 2)
    slots: tuple[Slot, ...]  # printed order; MC: the MC slot(s) first, then the employee slot
    wages: tuple[int, int, int] | None  # CC/public company wage, MC employee wage, or None
    machinery: int  # CC machinery bonus (0 = cannot take a token)
    bonus: int  # MC employee production bonus (0 if none)
    automated: bool  # CC automated companies (no slots, no wage, always operational)


@dataclass(frozen=True)
class Deal:
    index: int
    id: str
    food: int
    lux: int
    cost: int


# -- checking helpers (the file reader itself is ``data_check.Checker``) ----------------------
def _skill(ck: Checker, value: Any, entry: str) -> int | None:
    """An industry name -> its index; 'U' -> None."""
    if value == UNSKILLED:
        return None
    return ck.choice(value, INDUSTRIES, entry)


# -- companies.json ---------------------------------------------------------------------------

_CC_KEYS = {"id", "name", "industry", "cost", "production", "slots", "wages", "machinery",
            "automated", "deck_copies"}
_MC_KEYS = {"id", "name", "industry", "cost", "production", "mc_slots", "employee", "bonus",
            "wages", "deck_copies"}
_PUBLIC_KEYS = {"id", "name", "industry", "cost", "production", "slots", "wages", "copies",
                "setup"}
_COOP_KEYS = {"id", "name", "industry", "cost", "production", "slots", "copies"}
PUBLIC_SETUPS = ("row1", "lower")


def _wages(ck: Checker, value: Any, entry: str) -> tuple[int, int, int] | None:
    if value is None:
        return None
    low, mid, high = ck.ints(value, f"{entry}.wages", length=3, lo=1, order="<")
    return (low, mid, high)


def _printed_slots(ck: Checker, value: Any, industry: int, entry: str) -> tuple[Slot, ...]:
    """CC/public/coop slots: each is the company's own industry or U (§5.1)."""
    if not isinstance(value, list):
        raise ck.fail(entry, "slots must be a list")
    slots = tuple(Slot(_skill(ck, s, f"{entry}.slots[{i}]")) for i, s in enumerate(value))
    for i, slot in enumerate(slots):
        if slot.skill is not None and slot.skill != industry:
            raise ck.fail(f"{entry}.slots[{i}]", "a skilled slot must be the company's industry")
    return slots


def _company_head(ck: Checker, c: dict, entry: str) -> tuple[str, str, int, int, int]:
    name = ck.get(c, "name", entry)
    if not isinstance(name, str) or not name:
        raise ck.fail(entry, "name must be a non-empty string")
    industry = ck.choice(ck.get(c, "industry", entry), INDUSTRIES, f"{entry}.industry")
    cost = ck.int_(ck.get(c, "cost", entry), f"{entry}.cost")
    production = ck.int_(ck.get(c, "production", entry), f"{entry}.production", lo=1)
    return c["id"], name, industry, cost, production


def build_companies(raw: dict, file: str = "companies.json") -> dict[str, Any]:
    """Company designs and the decks built from them (§11.2, set-up §1.2-§1.3)."""
    ck = Checker(file)
    ck.keys(raw, {"about", "cc", "mc", "public", "coop", "start"}, "top level")
    groups = {s: ck.get(raw, s, "top level") for s in ("cc", "mc", "public")}
    for sector, rows in groups.items():
        if not isinstance(rows, list) or not rows:
            raise ck.fail(sector, "expected a non-empty list of companies")
    coop = ck.get(raw, "coop", "top level")
    entries = [*groups["cc"], *groups["mc"], *groups["public"], coop]
    ck.unique([ck.get(c, "id", "company") for c in entries], "companies")

    cards: list[CompanyCard] = []
    cc_deck: list[int] = []
    mc_deck: list[int] = []
    row1: list[int] = []
    lower: list[int] = []
    public_cards: list[int] = []

    for c in groups["cc"]:
        entry = f"cc {c['id']}"
        ck.keys(c, _CC_KEYS, entry)
        cid, name, industry, cost, production = _company_head(ck, c, entry)
        automated = c.get("automated", False)
        if not isinstance(automated, bool):
            raise ck.fail(entry, "automated must be true or false")
        slots = _printed_slots(ck, ck.get(c, "slots", entry), industry, entry)
        wages = _wages(ck, ck.get(c, "wages", entry), entry)
        machinery = ck.int_(ck.get(c, "machinery", entry), f"{entry}.machinery")
        if automated and (slots or wages is not None or machinery):
            raise ck.fail(entry, "an automated company has no slots, no wage and no machinery")
        if not automated and (not slots or wages is None or cost < 1):
            raise ck.fail(entry, "a staffed CC company needs slots, wages and a cost")
        index = len(cards)
        cards.append(CompanyCard(index, cid, name, "cc", industry, cost, production, slots,
                                 wages, machinery, 0, automated))
        cc_deck += [index] * ck.int_(ck.get(c, "deck_copies", entry), f"{entry}.deck_copies")

    for c in groups["mc"]:
        entry = f"mc {c['id']}"
        ck.keys(c, _MC_KEYS, entry)
        cid, name, industry, cost, production = _company_head(ck, c, entry)
        mc_raw = ck.get(c, "mc_slots", entry)
        if not isinstance(mc_raw, list) or mc_raw[:1] != [INDUSTRIES[industry]] \
                or mc_raw[1:] not in ([], [UNSKILLED]):
            raise ck.fail(f"{entry}.mc_slots", "expected [industry] or [industry, 'U'] (§5.1)")
        slots = [Slot(_skill(ck, s, f"{entry}.mc_slots"), mc=True) for s in mc_raw]
        employee_raw = ck.get(c, "employee", entry)
        wages = _wages(ck, ck.get(c, "wages", entry), entry)
        bonus = ck.int_(ck.get(c, "bonus", entry), f"{entry}.bonus")
        if employee_raw is None:
            if wages is not None or bonus or len(slots) != 2:
                raise ck.fail(entry, "an MC-only company has two MC slots, no wage, no bonus")
        else:
            skill = _skill(ck, employee_raw, f"{entry}.employee")
            if skill is not None and skill != industry:
                raise ck.fail(f"{entry}.employee", "must be 'U' or the company's industry")
            if wages is None or not bonus or len(slots) != 1 or cost < 1:
                raise ck.fail(entry, "an employee company has one MC slot, a wage and a bonus")
            slots.append(Slot(skill, employee=True))
        index = len(cards)
        cards.append(CompanyCard(index, cid, name, "mc", industry, cost, production,
                                 tuple(slots), wages, 0, bonus, False))
        mc_deck += [index] * ck.int_(ck.get(c, "deck_copies", entry), f"{entry}.deck_copies")

    for c in groups["public"]:
        entry = f"public {c['id']}"
        ck.keys(c, _PUBLIC_KEYS, entry)
        cid, name, industry, cost, production = _company_head(ck, c, entry)
        slots = _printed_slots(ck, ck.get(c, "slots", entry), industry, entry)
        wages = _wages(ck, ck.get(c, "wages", entry), entry)
        if not slots or wages is None or cost < 1:
            raise ck.fail(entry, "a public company needs slots, wages and a cost")
        index = len(cards)
        cards.append(CompanyCard(index, cid, name, "public", industry, cost, production, slots,
                                 wages, 0, 0, False))
        setup = ck.choice(ck.get(c, "setup", entry), PUBLIC_SETUPS, f"{entry}.setup")
        (row1 if setup == 0 else lower).append(index)
        public_cards += [index] * ck.int_(ck.get(c, "copies", entry), f"{entry}.copies", lo=1)

    entry = f"coop {coop.get('id')}"
    ck.keys(coop, _COOP_KEYS, entry)
    cid, name, industry, cost, production = _company_head(ck, coop, entry)
    slots = _printed_slots(ck, ck.get(coop, "slots", entry), industry, entry)
    if not slots or any(s.skill is not None for s in slots):
        raise ck.fail(entry, "the Cooperative Farm has only U slots (any WC worker)")
    coop_index = len(cards)
    cards.append(CompanyCard(coop_index, cid, name, "coop", industry, cost, production, slots,
                             None, 0, 0, False))
    coop_cards = ck.int_(ck.get(coop, "copies", entry), f"{entry}.copies", lo=1)

    start = ck.table(ck.get(raw, "start", "top level"), ("cc", "mc"), "start")
    cc_start, mc_start = (_start_copies(ck, ids, sector, cards)
                          for sector, ids in zip(("cc", "mc"), start))
    if not cc_deck or not mc_deck:
        raise ck.fail("cc/mc", "every company deck needs at least one card")
    return {
        "COMPANIES": tuple(cards), "CC_DECK": tuple(cc_deck), "CC_START": tuple(cc_start),
        "MC_DECK": tuple(mc_deck), "MC_START": tuple(mc_start), "PUBLIC_ROW1": tuple(row1),
        "PUBLIC_LOWER": tuple(lower), "PUBLIC_CARDS": tuple(public_cards),
        "COOP_FARM": coop_index, "COOP_FARM_CARDS": coop_cards,
    }


def _start_copies(ck: Checker, ids: Any, sector: str,
                  cards: list[CompanyCard]) -> list[int]:
    """The extra starting copies of one sector, as company indexes in the listed order."""
    by_id = {c.id: c for c in cards}
    if not isinstance(ids, list) or not ids:
        raise ck.fail(f"start.{sector}", "expected a non-empty list of company ids")
    for cid in ids:
        if cid not in by_id or by_id[cid].sector != sector:
            raise ck.fail(f"start.{sector}", f"{cid!r} is not a {sector} company")
    return [by_id[cid].index for cid in ids]


# -- deals.json and immigration.json -----------------------------------------------------------


def build_deals(raw: dict, file: str = "deals.json") -> tuple[tuple[Deal, ...], tuple[int, ...]]:
    """The Business Deal designs and the 20-card deck (§11.2)."""
    ck = Checker(file)
    ck.keys(raw, {"about", "deals"}, "top level")
    rows = ck.get(raw, "deals", "top level")
    if not isinstance(rows, list) or not rows:
        raise ck.fail("deals", "expected a non-empty list")
    ck.unique([ck.get(d, "id", "deal") for d in rows], "deals")
    deals: list[Deal] = []
    deck: list[int] = []
    for i, d in enumerate(rows):
        entry = f"deal {d['id']}"
        ck.keys(d, {"id", "food", "lux", "cost", "copies"}, entry)
        food = ck.int_(ck.get(d, "food", entry), f"{entry}.food")
        lux = ck.int_(ck.get(d, "lux", entry), f"{entry}.lux")
        cost = ck.int_(ck.get(d, "cost", entry), f"{entry}.cost", lo=1)
        if food + lux == 0:
            raise ck.fail(entry, "a deal brings at least one good")
        deals.append(Deal(i, d["id"], food, lux, cost))
        deck += [i] * ck.int_(ck.get(d, "copies", entry), f"{entry}.copies", lo=1)
    return tuple(deals), tuple(deck)


def build_immigration(raw: dict, file: str = "immigration.json",
                      ) -> tuple[tuple[int | None, int | None], ...]:
    """The 25 Immigration cards as (wc_skill, mc_skill), None = unskilled (§11.2)."""
    ck = Checker(file)
    ck.keys(raw, {"about", "cards"}, "top level")
    groups = ck.get(raw, "cards", "top level")
    if not isinstance(groups, list) or not groups:
        raise ck.fail("cards", "expected a non-empty list")
    deck: list[tuple[int | None, int | None]] = []
    for i, g in enumerate(groups):
        entry = f"cards[{i}]"
        ck.keys(g, {"wc", "mc", "copies"}, entry)
        card = (_skill(ck, ck.get(g, "wc", entry), f"{entry}.wc"),
                _skill(ck, ck.get(g, "mc", entry), f"{entry}.mc"))
        deck += [card] * ck.int_(ck.get(g, "copies", entry), f"{entry}.copies", lo=1)
    return tuple(deck)


# -- tables.json ---------------------------------------------------------------------------------


def _policy_section(ck: Checker, key: str, entry: str) -> tuple[int, int]:
    """'2B' -> (policy index 1, section index 1)."""
    if not isinstance(key, str) or len(key) != 2 or key[0] not in "1234567" \
            or key[1] not in SECTIONS:
        raise ck.fail(entry, f"{key!r} is not a policy and section such as '2B'")
    return int(key[0]) - 1, SECTIONS.index(key[1])


def build_tables(raw: dict, company_ids: dict[str, int],
                 file: str = "tables.json") -> dict[str, Any]:
    """Every rule table and constant of tables.json, checked, as plain ints and tuples."""
    ck = Checker(file)
    top = {"about", "game", "components", "set_up", "population", "prosperity_vp",
           "preparation", "wealth", "prices", "storage", "policies", "imf", "taxes",
           "state_influence", "end_game", "loans", "actions"}
    ck.keys(raw, top, "top level")
    for key in top - {"about"}:
        ck.get(raw, key, "top level")
    t: dict[str, Any] = {}

    def consts(section: str, names: dict[str, str], lo: int = 0) -> None:
        node = raw[section]
        ck.keys(node, set(names), section)
        for key, name in names.items():
            t[name] = ck.int_(ck.get(node, key, section), f"{section}.{key}", lo)

    consts("game", {"rounds": "ROUNDS", "turns_per_round": "TURNS_PER_ROUND",
                    "hand_size": "HAND_SIZE", "draw_per_round": "DRAW_PER_ROUND",
                    "bill_markers": "BILL_MARKERS", "election_draw": "ELECTION_DRAW"}, lo=1)

    comp = raw["components"]
    scalar = {"voting_cubes_per_class": "VOTING_CUBES", "bag_start_per_class": "BAG_START_CUBES",
              "influence_cubes": "INFLUENCE_CUBES", "machinery_tokens": "MACHINERY_TOKENS",
              "strike_tokens": "STRIKE_TOKENS", "legitimacy_tokens": "LEGITIMACY_TOKENS",
              "storage_tiles": "STORAGE_TILES"}
    ck.keys(comp, {*scalar, "company_spaces", "market_size"}, "components")
    for key, name in scalar.items():
        t[name] = ck.int_(ck.get(comp, key, "components"), f"components.{key}")
    if t["BAG_START_CUBES"] > t["VOTING_CUBES"]:
        raise ck.fail("components.bag_start_per_class", "more than the cubes of a class")
    spaces = ck.int_table(ck.get(comp, "company_spaces", "components"), ("cc", "mc", "public"),
                          "components.company_spaces", lo=1)
    t["COMPANY_SPACES"] = dict(zip(("cc", "mc", "public"), spaces))
    market = ck.int_table(ck.get(comp, "market_size", "components"), ("cc", "mc"),
                          "components.market_size", lo=1)
    t["MARKET_SIZE"] = dict(zip(("cc", "mc"), market))

    t.update(_policy_tables(ck, raw))
    t.update(_set_up(ck, raw["set_up"], company_ids, t))

    pop = raw["population"]
    ck.keys(pop, {"bands"}, "population")
    bands = ck.get(pop, "bands", "population")
    if not isinstance(bands, list) or not bands:
        raise ck.fail("population.bands", "expected a non-empty list")
    pairs = []
    for i, b in enumerate(bands):
        ck.keys(b, {"min_workers", "population"}, f"population.bands[{i}]")
        pairs.append((ck.int_(ck.get(b, "min_workers", f"population.bands[{i}]"),
                              f"population.bands[{i}].min_workers"),
                      ck.int_(ck.get(b, "population", f"population.bands[{i}]"),
                              f"population.bands[{i}].population", lo=1)))
    ck.ints([p[0] for p in pairs], "population.bands min_workers", order="<")
    ck.ints([p[1] for p in pairs], "population.bands population", order="<=")
    if pairs[0][0] != 0:
        raise ck.fail("population.bands[0]", "the first band must start at 0 workers")
    t["POPULATION_BANDS"] = tuple(pairs)

    pros = ck.table(raw["prosperity_vp"], ("WC", "MC"), "prosperity_vp")
    t["WC_PROSPERITY_VP"] = ck.ints(pros[0], "prosperity_vp.WC", length=11, order="<=")
    t["MC_PROSPERITY_VP"] = ck.ints(pros[1], "prosperity_vp.MC", length=11, order="<=")
    prep = raw["preparation"]
    ck.keys(prep, {"prosperity_decay", "new_unskilled"}, "preparation")
    t["PROSPERITY_DECAY"] = ck.int_table(ck.get(prep, "prosperity_decay", "preparation"),
                                         ("WC", "MC"), "preparation.prosperity_decay")
    t["PREP_NEW_UNSKILLED"] = ck.int_table(ck.get(prep, "new_unskilled", "preparation"),
                                           ("WC", "MC"), "preparation.new_unskilled")

    wealth = raw["wealth"]
    ck.keys(wealth, {"thresholds", "vp_per_step_moved"}, "wealth")
    t["WEALTH_THRESHOLDS"] = ck.ints(ck.get(wealth, "thresholds", "wealth"),
                                     "wealth.thresholds", length=16, order="<")
    if t["WEALTH_THRESHOLDS"][0] != 0:
        raise ck.fail("wealth.thresholds", "level 0 needs 0 capital")
    t["WEALTH_STEP_VP"] = ck.int_(ck.get(wealth, "vp_per_step_moved", "wealth"),
                                  "wealth.vp_per_step_moved")

    t.update(_prices(ck, raw["prices"], raw["storage"]))
    t.update(_taxes(ck, raw["taxes"]))

    si = raw["state_influence"]
    ck.keys(si, {"by_lowest_legitimacy"}, "state_influence")
    by_lowest = ck.ints(ck.get(si, "by_lowest_legitimacy", "state_influence"),
                        "state_influence.by_lowest_legitimacy", length=t["LEGITIMACY_MAX"],
                        order="<=")
    t["STATE_INFLUENCE"] = (0, *by_lowest)

    end = raw["end_game"]
    ck.keys(end, {"policy_vp", "policy_vp_mc_published", "money_per_vp", "wc_money_vp_cap",
                  "stored_per_vp", "loan_shortfall_step"}, "end_game")
    t["END_POLICY_VP"] = ck.ints(ck.get(end, "policy_vp", "end_game"), "end_game.policy_vp",
                                 length=6, order="<=")
    t["END_POLICY_VP_MC_PUBLISHED"] = ck.ints(
        ck.get(end, "policy_vp_mc_published", "end_game"), "end_game.policy_vp_mc_published",
        length=6, order="<=")
    money = ck.table(ck.get(end, "money_per_vp", "end_game"), CLASSES, "end_game.money_per_vp")
    t["MONEY_PER_VP"] = tuple(None if m is None else ck.int_(m, f"end_game.money_per_vp.{c}", 1)
                              for c, m in zip(CLASSES, money))
    t["WC_MONEY_VP_CAP"] = ck.int_(ck.get(end, "wc_money_vp_cap", "end_game"),
                                   "end_game.wc_money_vp_cap")
    t["STORED_PER_VP"] = ck.int_table(ck.get(end, "stored_per_vp", "end_game"), RESOURCES,
                                      "end_game.stored_per_vp", lo=1)
    t["LOAN_SHORTFALL_STEP"] = ck.int_(ck.get(end, "loan_shortfall_step", "end_game"),
                                       "end_game.loan_shortfall_step", lo=1)

    consts("loans", {"cards": "LOAN_CARDS", "value": "LOAN_VALUE", "interest": "LOAN_INTEREST",
                     "repay": "LOAN_REPAY", "repay_end": "LOAN_REPAY_END"})
    consts("actions", {k: k.upper() for k in _ACTION_KEYS})
    return t


_ACTION_KEYS = (
    "assign_max_workers", "buy_max_sources", "strike_max_companies", "political_pressure_cubes",
    "immediate_vote_cost", "demonstration_margin", "lobby_cost", "lobby_influence",
    "meet_mps_influence", "extra_tax", "campaign_max", "give_bonus", "storage_tile_cost",
    "use_health_vp", "free_service_units_per_legitimacy", "mc_export_vp", "benefits_vp",
    "bill_pass_vp", "bill_support_vp", "union_min_workers", "union_vp")


def _policy_tables(ck: Checker, raw: dict) -> dict[str, Any]:
    t: dict[str, Any] = {}
    pol = raw["policies"]
    names = {"public_sector_size_by_p1": "PUBLIC_SECTOR_SIZE",
             "imf_loans_by_p1": "IMF_LOAN_THRESHOLD",
             "deal_tariff_per_good_by_p6": "DEAL_TARIFF_PER_GOOD",
             "deals_per_round_by_p6": "DEALS_PER_ROUND",
             "immigration_per_round_by_p7": "IMMIGRATION_PER_ROUND"}
    ck.keys(pol, {*names, "min_wage_level_by_p2"}, "policies")
    for key, name in names.items():
        t[name] = ck.int_table(ck.get(pol, key, "policies"), SECTIONS, f"policies.{key}")
    levels = ck.table(ck.get(pol, "min_wage_level_by_p2", "policies"), SECTIONS,
                      "policies.min_wage_level_by_p2")
    t["MIN_WAGE_LEVEL"] = tuple(ck.choice(v, WAGE_LEVELS, f"policies.min_wage_level_by_p2.{s}")
                                for s, v in zip(SECTIONS, levels))

    imf = raw["imf"]
    ck.keys(imf, {"shift", "repay"}, "imf")
    shift = {(p, s): s for p in range(POLICIES) for s in range(len(SECTIONS))}
    moves = ck.get(imf, "shift", "imf")
    if not isinstance(moves, dict):
        raise ck.fail("imf.shift", "expected an object")
    for before, after in moves.items():
        entry = f"imf.shift.{before}"
        p, s = _policy_section(ck, before, entry)
        p2, s2 = _policy_section(ck, after, entry)
        if p2 != p or s2 != s + 1:
            raise ck.fail(entry, "the IMF moves a policy one section towards C")
        shift[(p, s)] = s2
    t["IMF_SHIFT"] = shift
    t["IMF_REPAY"] = ck.int_(ck.get(imf, "repay", "imf"), "imf.repay", lo=1)
    return t


def _set_up(ck: Checker, su: Any, company_ids: dict[str, int],
            t: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    ck.keys(su, {"policies", "tax_multiplier", "money", "influence", "public_services",
                 "mc_storage", "cc_storage", "legitimacy", "legitimacy_min", "legitimacy_max",
                 "wage_level", "price_step", "workers"}, "set_up")
    pols = ck.table(ck.get(su, "policies", "set_up"), tuple("1234567"), "set_up.policies")
    out["START_POLICIES"] = tuple(ck.choice(v, SECTIONS, f"set_up.policies.{i + 1}")
                                  for i, v in enumerate(pols))
    out["START_TAX_MULTIPLIER"] = ck.int_(ck.get(su, "tax_multiplier", "set_up"),
                                          "set_up.tax_multiplier", lo=1)
    out["START_MONEY"] = ck.int_table(ck.get(su, "money", "set_up"), CLASSES, "set_up.money")
    out["START_INFLUENCE"] = ck.int_table(ck.get(su, "influence", "set_up"), CLASSES,
                                          "set_up.influence")
    out["START_PUBLIC_SERVICES"] = ck.int_table(ck.get(su, "public_services", "set_up"),
                                                ("health", "edu", "influence"),
                                                "set_up.public_services")
    out["MC_START_STORAGE"] = ck.int_table(ck.get(su, "mc_storage", "set_up"), GOODS,
                                           "set_up.mc_storage")
    out["CC_START_STORAGE"] = ck.int_table(ck.get(su, "cc_storage", "set_up"), GOODS,
                                           "set_up.cc_storage")
    lo = ck.int_(ck.get(su, "legitimacy_min", "set_up"), "set_up.legitimacy_min", lo=1)
    hi = ck.int_(ck.get(su, "legitimacy_max", "set_up"), "set_up.legitimacy_max", lo=lo)
    out["LEGITIMACY_MIN"], out["LEGITIMACY_MAX"] = lo, hi
    out["START_LEGITIMACY"] = ck.int_(ck.get(su, "legitimacy", "set_up"), "set_up.legitimacy",
                                      lo=lo, hi=hi)
    out["START_WAGE_LEVEL"] = ck.choice(ck.get(su, "wage_level", "set_up"), WAGE_LEVELS,
                                        "set_up.wage_level")
    out["START_PRICE_STEP"] = ck.choice(ck.get(su, "price_step", "set_up"), PRICE_STEP_NAMES,
                                        "set_up.price_step")
    p2 = out["START_POLICIES"][1]
    if out["START_WAGE_LEVEL"] < t["MIN_WAGE_LEVEL"][p2]:
        raise ck.fail("set_up.wage_level", "below the starting p2 minimum wage")

    workers = ck.table(ck.get(su, "workers", "set_up"), ("WC", "MC"), "set_up.workers")
    staffed, unskilled, skilled, cards = [], [], [], []
    for cls, w in zip(("WC", "MC"), workers):
        entry = f"set_up.workers.{cls}"
        ck.keys(w, {"staffed", "unemployed_unskilled", "unemployed_skilled_choice",
                    "immigration_cards"}, entry)
        ids = ck.get(w, "staffed", entry)
        if not isinstance(ids, list):
            raise ck.fail(f"{entry}.staffed", "expected a list of company ids")
        for cid in ids:
            if cid not in company_ids:
                raise ck.fail(f"{entry}.staffed", f"unknown company {cid!r}")
        staffed.append(tuple(company_ids[c] for c in ids))
        unskilled.append(ck.int_(ck.get(w, "unemployed_unskilled", entry),
                                 f"{entry}.unemployed_unskilled"))
        skilled.append(ck.int_(ck.get(w, "unemployed_skilled_choice", entry),
                               f"{entry}.unemployed_skilled_choice"))
        cards.append(ck.int_(ck.get(w, "immigration_cards", entry),
                             f"{entry}.immigration_cards"))
    if set(staffed[0]) & set(staffed[1]):
        raise ck.fail("set_up.workers", "a company is staffed by both classes")
    out["START_STAFFED"] = tuple(staffed)
    out["START_UNEMPLOYED_UNSKILLED"] = tuple(unskilled)
    out["START_UNEMPLOYED_SKILLED_CHOICE"] = tuple(skilled)
    out["START_IMMIGRATION_CARDS"] = tuple(cards)
    return out


def _prices(ck: Checker, prices: Any, storage: Any) -> dict[str, Any]:
    t: dict[str, Any] = {}
    ck.keys(prices, {"steps", "state_goods", "media_influence", "public_service_by_section",
                     "foreign_base", "foreign_tariff_by_p6"}, "prices")
    steps = ck.table(ck.get(prices, "steps", "prices"), GOODS, "prices.steps")
    t["PRICE_STEPS"] = tuple(ck.ints(s, f"prices.steps.{g}", length=3, lo=1, order="<")
                             for g, s in zip(GOODS, steps))
    t["STATE_GOODS_PRICE"] = ck.int_table(ck.get(prices, "state_goods", "prices"),
                                          ("food", "lux"), "prices.state_goods", lo=1)
    t["MEDIA_INFLUENCE_PRICE"] = ck.int_(ck.get(prices, "media_influence", "prices"),
                                         "prices.media_influence", lo=1)
    t["PUBLIC_SERVICE_PRICE"] = ck.int_table(
        ck.get(prices, "public_service_by_section", "prices"), SECTIONS,
        "prices.public_service_by_section")
    t["FOREIGN_BASE"] = ck.int_table(ck.get(prices, "foreign_base", "prices"), ("food", "lux"),
                                     "prices.foreign_base", lo=1)
    tariffs = ck.table(ck.get(prices, "foreign_tariff_by_p6", "prices"), SECTIONS,
                       "prices.foreign_tariff_by_p6")
    t["FOREIGN_TARIFF"] = tuple(ck.int_table(v, ("food", "lux"),
                                             f"prices.foreign_tariff_by_p6.{s}")
                                for s, v in zip(SECTIONS, tariffs))

    ck.keys(storage, {"mc", "cc", "ftz", "state_margin"}, "storage")
    t["MC_STORAGE_CAP"] = ck.int_table(ck.get(storage, "mc", "storage"), GOODS, "storage.mc", 1)
    t["CC_STORAGE_CAP"] = ck.int_table(ck.get(storage, "cc", "storage"), GOODS, "storage.cc", 1)
    t["FTZ_CAP"] = ck.int_table(ck.get(storage, "ftz", "storage"), ("food", "lux"),
                                "storage.ftz", 1)
    t["STATE_STOCK_MARGIN"] = ck.int_(ck.get(storage, "state_margin", "storage"),
                                      "storage.state_margin")
    return t


def _taxes(ck: Checker, taxes: Any) -> dict[str, Any]:
    t: dict[str, Any] = {}
    ck.keys(taxes, {"tm_base_by_p3", "tm_factor_by_p3", "tm_mod_by_p4_p5", "income_tax_rate",
                    "corporate_tax_bands", "corporate_tax"}, "taxes")
    t["TM_BASE"] = ck.int_table(ck.get(taxes, "tm_base_by_p3", "taxes"), SECTIONS,
                                "taxes.tm_base_by_p3")
    t["TM_FACTOR"] = ck.int_table(ck.get(taxes, "tm_factor_by_p3", "taxes"), SECTIONS,
                                  "taxes.tm_factor_by_p3")
    t["TM_MOD"] = ck.int_table(ck.get(taxes, "tm_mod_by_p4_p5", "taxes"), SECTIONS,
                               "taxes.tm_mod_by_p4_p5")
    rows = ck.table(ck.get(taxes, "income_tax_rate", "taxes"), tuple(f"2{s}" for s in SECTIONS),
                    "taxes.income_tax_rate")
    t["INCOME_TAX_RATE"] = tuple(
        ck.int_table(row, tuple(f"3{s}" for s in SECTIONS), f"taxes.income_tax_rate.2{p2}")
        for p2, row in zip(SECTIONS, rows))
    bands = ck.ints(ck.get(taxes, "corporate_tax_bands", "taxes"), "taxes.corporate_tax_bands",
                    order="<")
    if not bands or bands[0] != 0:
        raise ck.fail("taxes.corporate_tax_bands", "the first band must start at 0")
    t["CORPORATE_TAX_BANDS"] = bands
    rows = ck.table(ck.get(taxes, "corporate_tax", "taxes"), tuple(f"3{s}" for s in SECTIONS),
                    "taxes.corporate_tax")
    t["CORPORATE_TAX"] = tuple(ck.ints(r, f"taxes.corporate_tax.3{s}", length=len(bands),
                                       order="<=") for s, r in zip(SECTIONS, rows))
    return t


# -- load once at import ---------------------------------------------------------------------------


def load_raw(name: str, directory: Path = DATA_DIR) -> dict[str, Any]:
    """One data file's json tree; a file that is not valid json fails naming the file."""
    try:
        with (directory / name).open(encoding="utf-8") as fh:
            raw = json.load(fh)
    except (OSError, json.JSONDecodeError) as exc:
        raise DataError(f"{name}: cannot be read: {exc}") from exc
    if not isinstance(raw, dict) or not isinstance(raw.get("about"), str):
        raise DataError(f"{name}: top level: expected an object with an 'about' string")
    return raw


_c = build_companies(load_raw("companies.json"))
COMPANIES: tuple[CompanyCard, ...] = _c["COMPANIES"]
COMPANY_BY_ID: dict[str, CompanyCard] = {c.id: c for c in COMPANIES}
CC_DECK: tuple[int, ...] = _c["CC_DECK"]
CC_START: tuple[int, ...] = _c["CC_START"]
MC_DECK: tuple[int, ...] = _c["MC_DECK"]
MC_START: tuple[int, ...] = _c["MC_START"]
PUBLIC_ROW1: tuple[int, ...] = _c["PUBLIC_ROW1"]
PUBLIC_LOWER: tuple[int, ...] = _c["PUBLIC_LOWER"]
PUBLIC_CARDS: tuple[int, ...] = _c["PUBLIC_CARDS"]  # all 12 public cards (3 + 3 x 3)
COOP_FARM: int = _c["COOP_FARM"]
COOP_FARM_CARDS: int = _c["COOP_FARM_CARDS"]

DEALS, DEAL_DECK = build_deals(load_raw("deals.json"))
IMMIGRATION_DECK = build_immigration(load_raw("immigration.json"))

_t = build_tables(load_raw("tables.json"), {c.id: c.index for c in COMPANIES})
ROUNDS: int = _t["ROUNDS"]
TURNS_PER_ROUND: int = _t["TURNS_PER_ROUND"]
HAND_SIZE: int = _t["HAND_SIZE"]
DRAW_PER_ROUND: int = _t["DRAW_PER_ROUND"]
BILL_MARKERS: int = _t["BILL_MARKERS"]
ELECTION_DRAW: int = _t["ELECTION_DRAW"]  # cubes drawn per election (§7.2)

VOTING_CUBES: int = _t["VOTING_CUBES"]  # per class WC, MC, CC
BAG_START_CUBES: int = _t["BAG_START_CUBES"]  # per class, in the bag at set-up
INFLUENCE_CUBES: int = _t["INFLUENCE_CUBES"]
MACHINERY_TOKENS: int = _t["MACHINERY_TOKENS"]
STRIKE_TOKENS: int = _t["STRIKE_TOKENS"]
LEGITIMACY_TOKENS: int = _t["LEGITIMACY_TOKENS"]
STORAGE_TILES: int = _t["STORAGE_TILES"]
COMPANY_SPACES: dict[str, int] = _t["COMPANY_SPACES"]  # by sector: cc 12, mc 8, public 9
MARKET_SIZE: dict[str, int] = _t["MARKET_SIZE"]  # by sector: cc 4, mc 3

START_POLICIES: tuple[int, ...] = _t["START_POLICIES"]  # [policy 0..6] = section
START_TAX_MULTIPLIER: int = _t["START_TAX_MULTIPLIER"]
START_MONEY: tuple[int, ...] = _t["START_MONEY"]  # WC, MC, CC revenue, ST treasury
START_INFLUENCE: tuple[int, ...] = _t["START_INFLUENCE"]  # [class]; ST: Personal Influence
START_PUBLIC_SERVICES: tuple[int, ...] = _t["START_PUBLIC_SERVICES"]  # health, edu, influence
MC_START_STORAGE: tuple[int, ...] = _t["MC_START_STORAGE"]  # [good]
CC_START_STORAGE: tuple[int, ...] = _t["CC_START_STORAGE"]  # [good]
START_LEGITIMACY: int = _t["START_LEGITIMACY"]  # each of the three tracks
LEGITIMACY_MIN: int = _t["LEGITIMACY_MIN"]
LEGITIMACY_MAX: int = _t["LEGITIMACY_MAX"]
START_WAGE_LEVEL: int = _t["START_WAGE_LEVEL"]  # 0 = L1; the starting companies' wage
START_PRICE_STEP: int = _t["START_PRICE_STEP"]  # 1 = mid
START_STAFFED: tuple[tuple[int, ...], ...] = _t["START_STAFFED"]  # [WC, MC] fully staffed cos
START_UNEMPLOYED_UNSKILLED: tuple[int, ...] = _t["START_UNEMPLOYED_UNSKILLED"]  # WC, MC
START_UNEMPLOYED_SKILLED_CHOICE: tuple[int, ...] = _t["START_UNEMPLOYED_SKILLED_CHOICE"]
START_IMMIGRATION_CARDS: tuple[int, ...] = _t["START_IMMIGRATION_CARDS"]  # WC, MC

POPULATION_BANDS: tuple[tuple[int, int], ...] = _t["POPULATION_BANDS"]  # (min workers, pop)
WC_PROSPERITY_VP: tuple[int, ...] = _t["WC_PROSPERITY_VP"]
MC_PROSPERITY_VP: tuple[int, ...] = _t["MC_PROSPERITY_VP"]
PROSPERITY_DECAY: tuple[int, ...] = _t["PROSPERITY_DECAY"]  # WC, MC, each Preparation
PREP_NEW_UNSKILLED: tuple[int, ...] = _t["PREP_NEW_UNSKILLED"]  # WC, MC, each Preparation
WEALTH_THRESHOLDS: tuple[int, ...] = _t["WEALTH_THRESHOLDS"]
WEALTH_STEP_VP: int = _t["WEALTH_STEP_VP"]

PRICE_STEPS: tuple[tuple[int, int, int], ...] = _t["PRICE_STEPS"]  # [good] = (low, mid, high)
STATE_GOODS_PRICE: tuple[int, ...] = _t["STATE_GOODS_PRICE"]  # food, lux
MEDIA_INFLUENCE_PRICE: int = _t["MEDIA_INFLUENCE_PRICE"]
PUBLIC_SERVICE_PRICE: tuple[int, ...] = _t["PUBLIC_SERVICE_PRICE"]  # [p4 / p5 section]
FOREIGN_BASE: tuple[int, ...] = _t["FOREIGN_BASE"]  # food, lux
FOREIGN_TARIFF: tuple[tuple[int, ...], ...] = _t["FOREIGN_TARIFF"]  # [p6 section] = (food, lux)
MC_STORAGE_CAP: tuple[int, ...] = _t["MC_STORAGE_CAP"]  # [good]
CC_STORAGE_CAP: tuple[int, ...] = _t["CC_STORAGE_CAP"]  # [good]; a storage tile adds as much
FTZ_CAP: tuple[int, ...] = _t["FTZ_CAP"]  # food, lux
STATE_STOCK_MARGIN: int = _t["STATE_STOCK_MARGIN"]  # ST caps = production + this

PUBLIC_SECTOR_SIZE: tuple[int, ...] = _t["PUBLIC_SECTOR_SIZE"]  # [p1 section]
IMF_LOAN_THRESHOLD: tuple[int, ...] = _t["IMF_LOAN_THRESHOLD"]  # [p1 section]
MIN_WAGE_LEVEL: tuple[int, ...] = _t["MIN_WAGE_LEVEL"]  # [p2 section] = lowest legal level
DEAL_TARIFF_PER_GOOD: tuple[int, ...] = _t["DEAL_TARIFF_PER_GOOD"]  # [p6 section]
DEALS_PER_ROUND: tuple[int, ...] = _t["DEALS_PER_ROUND"]  # [p6 section]
IMMIGRATION_PER_ROUND: tuple[int, ...] = _t["IMMIGRATION_PER_ROUND"]  # [p7 section]
IMF_SHIFT: dict[tuple[int, int], int] = _t["IMF_SHIFT"]  # all 21 (policy, section) keys
IMF_REPAY: int = _t["IMF_REPAY"]  # per loan, when the IMF check repays

TM_BASE: tuple[int, ...] = _t["TM_BASE"]  # [p3 section]
TM_FACTOR: tuple[int, ...] = _t["TM_FACTOR"]  # [p3 section]
TM_MOD: tuple[int, ...] = _t["TM_MOD"]  # [p4 or p5 section]
INCOME_TAX_RATE: tuple[tuple[int, ...], ...] = _t["INCOME_TAX_RATE"]  # [p2 section][p3 section]
CORPORATE_TAX_BANDS: tuple[int, ...] = _t["CORPORATE_TAX_BANDS"]  # lower bounds of Revenue
CORPORATE_TAX: tuple[tuple[int, ...], ...] = _t["CORPORATE_TAX"]  # [p3 section][band]
STATE_INFLUENCE: tuple[int, ...] = _t["STATE_INFLUENCE"]  # [lowest legitimacy 0..10]

END_POLICY_VP: tuple[int, ...] = _t["END_POLICY_VP"]  # [policies 1-5 in own section]
END_POLICY_VP_MC_PUBLISHED: tuple[int, ...] = _t["END_POLICY_VP_MC_PUBLISHED"]
MONEY_PER_VP: tuple[int | None, ...] = _t["MONEY_PER_VP"]  # [class]; None = no money VP
WC_MONEY_VP_CAP: int = _t["WC_MONEY_VP_CAP"]
STORED_PER_VP: tuple[int, ...] = _t["STORED_PER_VP"]  # [resource] units per end-game VP
LOAN_SHORTFALL_STEP: int = _t["LOAN_SHORTFALL_STEP"]  # 1 VP lost per this much still owed

LOAN_CARDS: int = _t["LOAN_CARDS"]
LOAN_VALUE: int = _t["LOAN_VALUE"]
LOAN_INTEREST: int = _t["LOAN_INTEREST"]
LOAN_REPAY: int = _t["LOAN_REPAY"]
LOAN_REPAY_END: int = _t["LOAN_REPAY_END"]

ASSIGN_MAX_WORKERS: int = _t["ASSIGN_MAX_WORKERS"]
BUY_MAX_SOURCES: int = _t["BUY_MAX_SOURCES"]
STRIKE_MAX_COMPANIES: int = _t["STRIKE_MAX_COMPANIES"]
POLITICAL_PRESSURE_CUBES: int = _t["POLITICAL_PRESSURE_CUBES"]
IMMEDIATE_VOTE_COST: int = _t["IMMEDIATE_VOTE_COST"]
DEMONSTRATION_MARGIN: int = _t["DEMONSTRATION_MARGIN"]  # unemployed >= open WC slots + this
LOBBY_COST: int = _t["LOBBY_COST"]
LOBBY_INFLUENCE: int = _t["LOBBY_INFLUENCE"]
MEET_MPS_INFLUENCE: int = _t["MEET_MPS_INFLUENCE"]
EXTRA_TAX: int = _t["EXTRA_TAX"]
CAMPAIGN_MAX: int = _t["CAMPAIGN_MAX"]
GIVE_BONUS: int = _t["GIVE_BONUS"]
STORAGE_TILE_COST: int = _t["STORAGE_TILE_COST"]
USE_HEALTH_VP: int = _t["USE_HEALTH_VP"]
FREE_SERVICE_UNITS_PER_LEGITIMACY: int = _t["FREE_SERVICE_UNITS_PER_LEGITIMACY"]
MC_EXPORT_VP: int = _t["MC_EXPORT_VP"]
BENEFITS_VP: int = _t["BENEFITS_VP"]
BILL_PASS_VP: int = _t["BILL_PASS_VP"]
BILL_SUPPORT_VP: int = _t["BILL_SUPPORT_VP"]
UNION_MIN_WORKERS: int = _t["UNION_MIN_WORKERS"]
UNION_VP: int = _t["UNION_VP"]


# -- small lookups over the tables -----------------------------------------------------------------


def population(workers: int) -> int:
    """Population for a class owning ``workers`` workers (§1.3, WC and MC alike)."""
    pop = POPULATION_BANDS[0][1]
    for least, value in POPULATION_BANDS:
        if workers >= least:
            pop = value
    return pop


def wealth_level(capital: int) -> int:
    """The highest Wealth level whose threshold ``capital`` reaches (§8); 0 below 10."""
    return max(i for i, need in enumerate(WEALTH_THRESHOLDS) if capital >= need or i == 0)


def corporate_tax(p3: int, revenue: int) -> int:
    """CC corporate tax on ``revenue`` (after employment tax) under p3 section ``p3`` (§6.4)."""
    band = max(i for i, low in enumerate(CORPORATE_TAX_BANDS) if revenue >= low or i == 0)
    return CORPORATE_TAX[p3][band]


def tax_multiplier(p3: int, p4: int, p5: int) -> int:
    """TM = base(p3) + factor(p3) x (mod(p4) + mod(p5)) (§6.4)."""
    return TM_BASE[p3] + TM_FACTOR[p3] * (TM_MOD[p4] + TM_MOD[p5])


if tax_multiplier(*START_POLICIES[2:5]) != START_TAX_MULTIPLIER:
    raise DataError("tables.json: set_up.tax_multiplier: does not match the starting policies "
                    f"({tax_multiplier(*START_POLICIES[2:5])} by the taxes tables)")
