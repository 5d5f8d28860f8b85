"""Hegemony's components in words: each action card, Event, Agenda and Export card with the
effect text of DECKS.md (our authored decks, written for people), each company with its
numbers, each policy with what its sections do, each basic and free action in a sentence.

The card files give the ids and the order the state indexes them by; DECKS.md gives the
text (a test checks that every card of the files has its row there, with the same title).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from meeplezoo.envs.hegemony import data as D

HERE = Path(__file__).parent
CLASS_NAMES = ("Working Class", "Middle Class", "Capitalist Class", "State")
POLICY_NAMES = ("Fiscal Policy", "Labour Market", "Taxation", "Health & Benefits", "Education",
                "Foreign Trade", "Immigration")
INDUSTRY_NAMES = {"agri": "Food", "lux": "Luxury", "health": "Health", "edu": "Education",
                  "media": "Media"}
GOOD_NAMES = {"food": "Food", "lux": "Luxury", "health": "Health", "edu": "Education",
              "influence": "Influence"}
BASIC_TEXT = {
    "propose_bill": "Propose Bill: move a policy one section by the next election",
    "political_pressure": "Political Pressure: put 3 of your cubes into the voting bag",
    "assign_workers": "Assign Workers: move up to 3 of your workers into companies or a union",
    "buy": "Buy Goods & Services: buy goods your class needs",
    "strike": "Strike: stop companies that pay your workers too little",
    "demonstration": "Demonstration: threaten the other classes' points when many are jobless",
    "build_company": "Build Company: build a company from your market",
    "sell_company": "Sell Company: sell one of your companies",
    "sell_foreign": "Sell to Foreign Market: sell goods by the Export card",
    "extra_shift": "Extra Shift: one company produces again",
    "business_deal": "Business Deal: take a trade deal (food and luxury for money)",
    "lobby": "Lobby: pay 30 for 3 influence",
    "event_action": "Event Action: resolve a face-up Event for a class",
    "meet_mps": "Meet with MPs: 2 influence to a class",
    "extra_tax": "Extra Tax: take 10 from a class (it loses 1 legitimacy)",
    "campaign": "Campaign: move Media Influence into your influence",
}
FREE_TEXT = {
    "use_health": "Use Health: spend Health for Prosperity",
    "use_education": "Use Education: train a worker into a skilled one",
    "use_luxury": "Use Luxury: spend Luxury for Prosperity",
    "swap_workers": "Swap Workers: exchange employed and unemployed workers",
    "receive_benefits": "Receive Benefits: take what the State put in your Benefits area",
    "pay_off_loan": "Pay off a loan (50)",
    "adjust_prices": "Adjust Prices of your goods",
    "adjust_wages": "Adjust Wages of your companies",
    "give_bonus": "Give a Bonus: pay workers 5 to stop a strike",
    "buy_storage": "Buy a Storage tile",
}


def _policy_details() -> tuple[tuple[str, str, str], ...]:
    """What each section of each policy means, from the rule tables."""
    tariff = D.FOREIGN_TARIFF
    return (
        tuple(f"public sector of {n} companies" for n in D.PUBLIC_SECTOR_SIZE),
        tuple(f"minimum wage {D.WAGE_LEVELS[level]}" for level in D.MIN_WAGE_LEVEL),
        tuple(f"tax multiplier {b} + {f} per generous Health or Education step"
              for b, f in zip(D.TM_BASE, D.TM_FACTOR)),
        tuple(f"public Health costs {p}" for p in D.PUBLIC_SERVICE_PRICE),
        tuple(f"public Education costs {p}" for p in D.PUBLIC_SERVICE_PRICE),
        tuple(f"import tariff food {t[0]}, luxury {t[1]}; {n} trade deal(s) a round"
              for t, n in zip(tariff, D.DEALS_PER_ROUND)),
        tuple(f"{n} immigration card(s) a round" for n in D.IMMIGRATION_PER_ROUND),
    )


POLICY_DETAILS = _policy_details()


def _deck_rows() -> dict[str, dict[str, str]]:
    """Every table row of DECKS.md whose first cell is a card id, by id, keyed by header."""
    rows: dict[str, dict[str, str]] = {}
    header: list[str] = []
    for line in (HERE / "DECKS.md").read_text(encoding="utf-8").splitlines():
        if not line.startswith("|"):
            header = []
            continue
        cells = [cell.strip().replace("\\|", "|")
                 for cell in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
        if cells[0] == "id":
            header = cells
        elif header and re.fullmatch(r"[a-z]{2}_\d+", cells[0]):
            rows[cells[0]] = dict(zip(header, cells))
    return rows


def _read(name: str, key: str) -> list[dict]:
    return json.loads((HERE / name).read_text(encoding="utf-8"))[key]


DECK_ROWS = _deck_rows()
ACTION_CARDS = {card["id"]: card for card in _read("action_cards.json", "cards")}
EVENTS = _read("events.json", "events")  # in the order the state indexes them
AGENDAS = _read("agendas.json", "agendas")
EXPORTS = _read("exports.json", "exports")


def card_title(card_id: str) -> str:
    return ACTION_CARDS[card_id]["title"]


def card_text(card_id: str) -> str:
    """``Assign Workers (up to 4 workers) — needs 4A or 4B — legitimacy CC -1``."""
    row = DECK_ROWS[card_id]
    text = row["effect"]
    if row.get("requirement", "–") not in ("–", "-", ""):
        text += f" — needs {row['requirement']}"
    if row.get("legitimacy", "–") not in ("–", "-", ""):
        text += f" — legitimacy {row['legitimacy']}"
    return text


def card_options(card_id: str) -> list[str]:
    """The options of a card's ``choice`` (``one of: A | B``), in order; [] if it has none."""
    effect = DECK_ROWS[card_id]["effect"]
    if "one of:" not in effect:
        return []
    return [part.strip() for part in effect.split("one of:", 1)[1].split("|")]


def event_title(index: int) -> str:
    return EVENTS[index]["title"]


def event_text(index: int) -> str:
    row = DECK_ROWS[EVENTS[index]["id"]]
    penalty = row["no action"].lstrip("−-1 ").replace("State's pick",
                                                       "two classes the State picks")
    return (f"The State may {row['task']}; rewards (Leg = legitimacy with that class): "
            f"{row['options']}; if the State leaves it: -1 legitimacy with {penalty}")


def event_options(index: int) -> list[str]:
    """Each option of an Event in words, in the engine's option order: what the State does
    and what it earns (``Working Class: provide 2 Food, 2 Luxury (the State gains +2
    legitimacy with the WC)``), so an Event Action's choice says its effect.  The deck's row
    lists the rewards in that order, one per option; where it does not, each option reads
    the whole list."""
    row, event = DECK_ROWS[EVENTS[index]["id"]], EVENTS[index]
    rewards = row["options"].split(", ")
    out = []
    for k, option in enumerate(event["options"]):
        reward = rewards[k] if len(rewards) == len(event["options"]) else row["options"]
        cls = option.get("class")
        if cls is not None:
            reward = reward.removeprefix(f"{cls}: ").replace("Leg", "legitimacy")
            who = CLASS_NAMES[("WC", "MC", "CC", "ST").index(cls)]
            out.append(f"{who}: {row['task']} (the State gains {reward} with the {cls})")
        else:
            out.append(f"{row['task']}, {reward}")
    return out


def agenda_text(index: int) -> str:
    target = AGENDAS[index]["target"]
    return "the State scores when the policies read " + ", ".join(
        f"{policy} {section}" for policy, section in target.items())


def export_text(index: int) -> str:
    offers = EXPORTS[index]["offers"]
    return "; ".join(f"{GOOD_NAMES[good]} {small[0]} for {small[1]} or {large[0]} for {large[1]}"
                     for good, (small, large) in offers.items())


def company_text(company: D.CompanyCard) -> str:
    """``Supermarket: Food, cost 16, produces 4; slots Food-skilled, unskilled; wages
    15/20/25; machinery +1``."""
    industry = INDUSTRY_NAMES[D.INDUSTRIES[company.industry]]
    slots = ", ".join(
        "MC worker" if s.mc else "WC employee (optional)" if s.employee
        else f"{INDUSTRY_NAMES[D.INDUSTRIES[s.skill]]}-skilled" if s.skill is not None
        else "unskilled" for s in company.slots)
    parts = [f"{industry}, cost {company.cost}, produces {company.production}"]
    if company.automated:
        parts.append("automated (no workers)")
    elif slots:
        parts.append(f"slots: {slots}")
    if company.wages:
        parts.append("wages L1/L2/L3 " + "/".join(map(str, company.wages)))
    if company.machinery:
        parts.append(f"machinery +{company.machinery}")
    if company.bonus:
        parts.append(f"employee bonus +{company.bonus}")
    return f"{company.name}: " + "; ".join(parts)


def policy_text(policy: int) -> str:
    return f"p{policy + 1} {POLICY_NAMES[policy]}: " + "; ".join(
        f"{section} {what}" for section, what in zip(D.SECTIONS, POLICY_DETAILS[policy]))
