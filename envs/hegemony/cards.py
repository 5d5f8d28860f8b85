"""Hegemony's authored decks (action cards, Events, Political Agendas, Export cards; our
Hegemony rules page §11.1), loaded once at import.

The four json files beside this module hold the decks; this module reads them, checks every
effect tree against the vocabulary (``cards_vocabulary``, whose docstring is its manual, with
the checks of ``cards_check``), and fails with a :class:`DeckError` that names the file, the
card id and the path inside the tree (``wc_07.effects[0].options[1]``).  The cards are frozen
records (read-only mappings and tuples).

It sits above the vocabulary and its checks, and below everything that reads a card.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from meeplezoo.envs.hegemony.cards_check import (
    check_object,
    check_params,
    check_requirement,
    check_value,
    fail,
    is_int,
    is_list,
    validate_effect,
)
from meeplezoo.envs.hegemony.cards_vocabulary import (
    CLASS_OPTION_TASKS,
    CLASSES,
    EVENT_REWARDS,
    EVENT_TASKS,
    EXPORT_RESOURCES,
    MAX_CHOICE_OPTIONS,
    ROLES,
    DeckError,
)

DECK_DIR = Path(__file__).parent
ACTION_FILE = "action_cards.json"
EVENT_FILE = "events.json"
AGENDA_FILE = "agendas.json"
EXPORT_FILE = "exports.json"


# ---------------------------------------------------------------------------------------------
# Frozen card records


def _freeze(value: Any) -> Any:
    """Read-only copy of parsed json: objects become mapping proxies, lists become tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


@dataclass(frozen=True)
class ActionCard:
    id: str
    role: str
    title: str
    copies: int
    requirement: Mapping[str, Any] | None
    effects: tuple[Mapping[str, Any], ...]
    legitimacy: Mapping[str, int]  # State legitimacy change per class when played for effect
    min_round: int
    note: str


@dataclass(frozen=True)
class EventOption:
    cls: str | None  # the class the option serves (rewards with it), or None for a tier option
    tier: int | None
    reward: Mapping[str, int]


@dataclass(frozen=True)
class Event:
    id: str
    title: str
    min_round: int
    task: Mapping[str, Any]
    options: tuple[EventOption, ...]
    penalty_pair: tuple[str, str] | None  # None: the State picks any two classes (decision #22)
    note: str


@dataclass(frozen=True)
class Agenda:
    id: str
    target: Mapping[str, str]  # "p1".."p5" -> "A" | "B" | "C"
    note: str


@dataclass(frozen=True)
class ExportCard:
    id: str
    offers: Mapping[str, tuple[tuple[int, int], tuple[int, int]]]  # good -> (small, large)
    note: str


def _keys(obj: Any, required: tuple[str, ...], optional: tuple[str, ...], path: str) -> None:
    check_object(obj, path)
    for key in required:
        if key not in obj:
            raise fail(path, f"missing field '{key}'")
    for key in obj:
        if key not in required + optional:
            raise fail(path, f"unknown field '{key}'")


def _text(obj: Mapping[str, Any], key: str, path: str) -> str:
    value = obj[key]
    if not isinstance(value, str) or not value.strip() or "\n" in value:
        raise fail(f"{path}.{key}", "expected a non-empty one-line string")
    return value


def _ids(cards: list[Mapping[str, Any]], prefix: str, path: str) -> None:
    seen: set[str] = set()
    for i, card in enumerate(cards):
        card_id = card.get("id") if isinstance(card, Mapping) else None
        if not isinstance(card_id, str) or not card_id.startswith(prefix) \
                or not card_id[len(prefix):].isdigit():
            raise fail(f"{path}[{i}]", f"id {card_id!r} is not {prefix}NN")
        if card_id in seen:
            raise fail(card_id, "duplicate id")
        seen.add(card_id)


def _items(data: Any, key: str) -> list[Any]:
    _keys(data, ("about", key), (), "file")
    if not isinstance(data["about"], str) or not data["about"].strip():
        raise fail("about", "expected a non-empty string")
    if not isinstance(data[key], list):
        raise fail(key, "expected a list")
    return data[key]


def parse_action_card(raw: Any, path: str) -> ActionCard:
    """One action card from parsed json; ``path`` is its id, used in every error message."""
    _keys(raw, ("id", "role", "title", "copies", "effects", "note"),
          ("requirement", "legitimacy", "min_round"), path)
    role = raw["role"]
    if role not in ROLES or not raw["id"].startswith(role.lower() + "_"):
        raise fail(f"{path}.role", f"role {role!r} does not match the id")
    copies = raw["copies"]
    if not is_int(copies) or not 1 <= copies <= 3:
        raise fail(f"{path}.copies", f"expected 1-3 copies, got {copies!r}")
    requirement = raw.get("requirement")
    if requirement is not None:
        check_requirement(requirement, f"{path}.requirement")
    effects = raw["effects"]
    if not is_list(effects) or not effects:
        raise fail(f"{path}.effects", "expected a non-empty list of effect nodes")
    for i, node in enumerate(effects):
        validate_effect(node, role, f"{path}.effects[{i}]")
    legitimacy = raw.get("legitimacy", {})
    check_object(legitimacy, f"{path}.legitimacy")
    if not 1 <= len(legitimacy) <= 2 and "legitimacy" in raw:
        raise fail(f"{path}.legitimacy", "legitimacy symbols name one or two classes")
    for cls, n in legitimacy.items():
        if cls not in CLASSES or n not in (-2, -1, 1, 2) or isinstance(n, bool):
            raise fail(f"{path}.legitimacy.{cls}", f"expected a class and ±1 or ±2, got {n!r}")
    min_round = raw.get("min_round", 1)
    if not is_int(min_round) or not 1 <= min_round <= 5:
        raise fail(f"{path}.min_round", f"expected a round 1-5, got {min_round!r}")
    return ActionCard(raw["id"], role, _text(raw, "title", path), copies,
                      _freeze(requirement), _freeze(list(effects)), _freeze(dict(legitimacy)),
                      min_round, _text(raw, "note", path))


def parse_event(raw: Any, path: str) -> Event:
    """One Event from parsed json (§11.1 Events schema, checked against ``EVENT_TASKS``)."""
    _keys(raw, ("id", "title", "min_round", "task", "options", "no_action", "note"), (), path)
    if raw["min_round"] not in (1, 2) or isinstance(raw["min_round"], bool):
        raise fail(f"{path}.min_round", "expected 1 or 2")
    task = raw["task"]
    check_object(task, f"{path}.task")
    op = task.get("op")
    if op not in EVENT_TASKS:
        raise fail(f"{path}.task", f"unknown task op {op!r}")
    check_params({k: v for k, v in task.items() if k != "op"}, EVENT_TASKS[op], "ST",
                  f"{path}.task")
    if op == "spend_money" and list(task["tiers"]) != sorted(set(task["tiers"])):
        raise fail(f"{path}.task.tiers", "tiers must be strictly ascending")
    options_raw = raw["options"]
    if not is_list(options_raw) or not 1 <= len(options_raw) <= MAX_CHOICE_OPTIONS:
        raise fail(f"{path}.options", "expected 1-4 options")
    options = tuple(_parse_option(o, op, task, f"{path}.options[{i}]")
                    for i, o in enumerate(options_raw))
    keys = [o.cls if o.cls is not None else o.tier for o in options]
    if len(set(keys)) != len(keys):
        raise fail(f"{path}.options", "repeated option")
    _keys(raw["no_action"], ("pair",), (), f"{path}.no_action")
    pair = raw["no_action"]["pair"]
    if pair == "any":
        penalty_pair = None
    elif (is_list(pair) and len(pair) == 2 and len(set(pair)) == 2
          and all(c in CLASSES for c in pair)):
        penalty_pair = (pair[0], pair[1])
    else:
        raise fail(f"{path}.no_action.pair", f"expected two classes or \"any\", got {pair!r}")
    return Event(raw["id"], _text(raw, "title", path), raw["min_round"], _freeze(dict(task)),
                 options, penalty_pair, _text(raw, "note", path))


def _parse_option(raw: Any, op: str, task: Mapping[str, Any], path: str) -> EventOption:
    if op in CLASS_OPTION_TASKS:
        _keys(raw, ("class", "reward"), (), path)
        if raw["class"] not in CLASSES:
            raise fail(f"{path}.class", f"{raw['class']!r} is not one of {list(CLASSES)}")
    else:
        _keys(raw, ("tier", "reward"), (), path)
        n_tiers = len(task["tiers"]) if op == "spend_money" else 1
        if not is_int(raw["tier"]) or not 1 <= raw["tier"] <= n_tiers:
            raise fail(f"{path}.tier", f"expected a tier 1-{n_tiers}, got {raw['tier']!r}")
    reward = raw["reward"]
    check_object(reward, f"{path}.reward")
    if len(reward) != 1:
        raise fail(f"{path}.reward", "a reward has exactly one key")
    (name, value), = reward.items()
    if name not in EVENT_REWARDS:
        raise fail(f"{path}.reward", f"unknown reward '{name}'")
    check_value(value, EVENT_REWARDS[name], "ST", f"{path}.reward.{name}")
    return EventOption(raw.get("class"), raw.get("tier"), _freeze(dict(reward)))


def parse_agenda(raw: Any, path: str) -> Agenda:
    """One Political Agenda: a section for each of policies 1-5."""
    _keys(raw, ("id", "target", "note"), (), path)
    _keys(raw["target"], tuple(f"p{n}" for n in range(1, 6)), (), f"{path}.target")
    for policy, section in raw["target"].items():
        if section not in ("A", "B", "C"):
            raise fail(f"{path}.target.{policy}", f"{section!r} is not A, B or C")
    return Agenda(raw["id"], _freeze(dict(raw["target"])), _text(raw, "note", path))


def parse_export(raw: Any, path: str) -> ExportCard:
    """One Export card: a small and a large [quantity, price] offer for each good."""
    _keys(raw, ("id", "offers", "note"), (), path)
    _keys(raw["offers"], EXPORT_RESOURCES, (), f"{path}.offers")
    offers: dict[str, tuple[tuple[int, int], tuple[int, int]]] = {}
    for res in EXPORT_RESOURCES:
        pair = raw["offers"][res]
        where = f"{path}.offers.{res}"
        if not is_list(pair) or len(pair) != 2:
            raise fail(where, "expected [[q_small, price], [q_large, price]]")
        for i, offer in enumerate(pair):
            if not (is_list(offer) and len(offer) == 2 and all(is_int(x) and x > 0
                                                                   for x in offer)):
                raise fail(f"{where}[{i}]", f"expected [quantity, price], got {offer!r}")
        (q1, m1), (q2, m2) = pair
        offers[res] = ((q1, m1), (q2, m2))
    return ExportCard(raw["id"], MappingProxyType(offers), _text(raw, "note", path))


def _parse_file(name: str, data: Any, key: str, prefix: str | None, parse) -> list[Any]:
    """Parse every entry of one deck file; any fault is re-raised naming the file."""
    try:
        items = _items(data, key)
        if prefix is not None:
            _ids(items, prefix, key)
        return [parse(item, item["id"]) for item in items]
    except DeckError as error:
        raise DeckError(f"{name}: {error}") from None


def parse_action_cards(data: Any, name: str = ACTION_FILE) -> list[ActionCard]:
    """All action cards of a parsed ``action_cards.json``; ids are checked per role prefix."""
    try:
        items = _items(data, "cards")
        seen: set[str] = set()
        for i, item in enumerate(items):
            card_id = item.get("id") if isinstance(item, Mapping) else None
            if not isinstance(card_id, str) or card_id[:3] not in ("wc_", "mc_", "cc_", "st_") \
                    or not card_id[3:].isdigit():
                raise fail(f"cards[{i}]", f"id {card_id!r} is not wc_NN, mc_NN, cc_NN or st_NN")
            if card_id in seen:
                raise fail(card_id, "duplicate id")
            seen.add(card_id)
        return [parse_action_card(item, item["id"]) for item in items]
    except DeckError as error:
        raise DeckError(f"{name}: {error}") from None


def parse_events(data: Any, name: str = EVENT_FILE) -> list[Event]:
    return _parse_file(name, data, "events", "ev_", parse_event)


def parse_agendas(data: Any, name: str = AGENDA_FILE) -> list[Agenda]:
    return _parse_file(name, data, "agendas", "ag_", parse_agenda)


def parse_exports(data: Any, name: str = EXPORT_FILE) -> list[ExportCard]:
    return _parse_file(name, data, "exports", "ex_", parse_export)


def _read(name: str) -> Any:
    with (DECK_DIR / name).open(encoding="utf-8") as handle:
        return json.load(handle)


_CARDS = parse_action_cards(_read(ACTION_FILE))
ACTION_CARDS: dict[str, tuple[ActionCard, ...]] = {
    role: tuple(card for card in _CARDS if card.role == role) for role in ROLES
}
ACTION_DECK: dict[str, tuple[str, ...]] = {
    role: tuple(card.id for card in cards for _ in range(card.copies))
    for role, cards in ACTION_CARDS.items()
}
CARD_BY_ID: dict[str, ActionCard] = {card.id: card for card in _CARDS}
EVENTS: tuple[Event, ...] = tuple(parse_events(_read(EVENT_FILE)))
AGENDAS: tuple[Agenda, ...] = tuple(parse_agendas(_read(AGENDA_FILE)))
EXPORTS: tuple[ExportCard, ...] = tuple(parse_exports(_read(EXPORT_FILE)))
