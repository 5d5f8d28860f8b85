"""The checks of an effect tree against the vocabulary (``cards_vocabulary``): every node, amount
and requirement of a card or an Event task, each failing with a :class:`DeckError` that names
the path inside the tree (``wc_07.effects[0].options[1]``); ``iter_nodes`` walks a tree.

It sits between the vocabulary it reads and the deck loader (``cards``), which runs these
checks on every card at import; the interpreter checks a hand-made node with
``validate_effect`` too (``effects.add_node``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from meeplezoo.envs.hegemony.cards_vocabulary import (
    BASIC_ACTIONS,
    BASIC_MODIFIERS,
    BUNDLE_RESOURCES,
    COMPANY_FILTER,
    COUNT_FILTER_N,
    FORMULA_FRACTION,
    FORMULA_LOOKUP,
    FORMULA_PER,
    GOODS,
    PRIMITIVES,
    REQUIREMENTS,
    DeckError,
    Param,
)


def fail(path: str, message: str) -> DeckError:
    return DeckError(f"{path}: {message}")


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def is_list(value: Any) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, str)


def _check_range(value: float, spec: Param, path: str) -> None:
    if spec.low is not None and value < spec.low:
        raise fail(path, f"{value} is below {spec.low}")
    if spec.high is not None and value > spec.high:
        raise fail(path, f"{value} is above {spec.high}")


def check_params(obj: Mapping[str, Any], specs: Mapping[str, Param], role: str, path: str,
                  skip: tuple[str, ...] = ()) -> None:
    """Every required parameter present, none unknown, each of its declared kind."""
    for name, spec in specs.items():
        if spec.required and name not in obj:
            raise fail(path, f"missing parameter '{name}'")
    for name, value in obj.items():
        if name in skip:
            continue
        if name not in specs:
            raise fail(path, f"unknown parameter '{name}'")
        check_value(value, specs[name], role, f"{path}.{name}")


def check_value(value: Any, spec: Param, role: str, path: str) -> None:
    kind = spec.kind
    if kind == "int":
        if not is_int(value):
            raise fail(path, f"expected an int, got {value!r}")
        _check_range(value, spec, path)
    elif kind == "number":
        if not _is_number(value):
            raise fail(path, f"expected a number, got {value!r}")
        if spec.low is not None and value <= spec.low:  # numbers are fractions: (low, high]
            raise fail(path, f"{value} must be above {spec.low}")
        if spec.high is not None and value > spec.high:
            raise fail(path, f"{value} is above {spec.high}")
    elif kind == "bool":
        if not isinstance(value, bool):
            raise fail(path, f"expected true or false, got {value!r}")
    elif kind == "enum":
        if isinstance(value, bool) or value not in spec.values:
            raise fail(path, f"{value!r} is not one of {list(spec.values)}")
    elif kind == "enum_list":
        if not is_list(value) or not value:
            raise fail(path, f"expected a non-empty list, got {value!r}")
        if len(set(value)) != len(value):
            raise fail(path, f"repeated entries in {list(value)}")
        for i, item in enumerate(value):
            if item not in spec.values:
                raise fail(f"{path}[{i}]", f"{item!r} is not one of {list(spec.values)}")
    elif kind == "int_list":
        if not is_list(value) or len(value) != 3:
            raise fail(path, f"expected a list of three ints, got {value!r}")
        for i, item in enumerate(value):
            if not is_int(item):
                raise fail(f"{path}[{i}]", f"expected an int, got {item!r}")
            _check_range(item, spec, f"{path}[{i}]")
    elif kind == "count_or_any":
        if value != "any":
            if not is_int(value):
                raise fail(path, f"expected an int or \"any\", got {value!r}")
            _check_range(value, spec, path)
    elif kind == "amount":
        check_amount(value, path)
    elif kind == "node":
        validate_effect(value, role, path)
    elif kind == "node_list":
        if not is_list(value):
            raise fail(path, f"expected a list of effect nodes, got {value!r}")
        _check_range(len(value), spec, path + " (length)")
        for i, item in enumerate(value):
            validate_effect(item, role, f"{path}[{i}]")
    elif kind == "cond":
        check_requirement(value, path)
    elif kind == "filter":
        check_object(value, path)
        check_params(value, COMPANY_FILTER, role, path)
    elif kind == "count_filter":
        check_object(value, path)
        if "n" not in value:
            raise fail(path, "missing parameter 'n'")
        check_value(value["n"], COUNT_FILTER_N, role, f"{path}.n")
        check_params(value, COMPANY_FILTER, role, path, skip=("n",))
    elif kind == "bundle":
        check_object(value, path)
        if not value:
            raise fail(path, "an empty bundle")
        for res, amount in value.items():
            if res not in BUNDLE_RESOURCES:
                raise fail(f"{path}.{res}", f"{res!r} is not one of {list(BUNDLE_RESOURCES)}")
            check_amount(amount, f"{path}.{res}")
    elif kind == "offers":
        _check_offers(value, path)
    else:  # pragma: no cover - a typo in the tables above
        raise AssertionError(f"unknown parameter kind {kind}")


def check_object(value: Any, path: str) -> None:
    if not isinstance(value, Mapping):
        raise fail(path, f"expected an object, got {value!r}")


def _check_offers(value: Any, path: str) -> None:
    if not is_list(value) or not value:
        raise fail(path, "expected a non-empty list of [res, quantity, price]")
    for i, offer in enumerate(value):
        where = f"{path}[{i}]"
        if not is_list(offer) or len(offer) != 3:
            raise fail(where, f"expected [res, quantity, price], got {offer!r}")
        res, qty, price = offer
        if res not in GOODS:
            raise fail(where, f"{res!r} is not one of {list(GOODS)}")
        if not (is_int(qty) and 1 <= qty <= 8):
            raise fail(where, f"quantity {qty!r} is not an int 1-8")
        if not (is_int(price) and price > 0 and price % 5 == 0):
            raise fail(where, f"price {price!r} is not a positive multiple of 5")


def check_amount(value: Any, path: str) -> None:
    """An amount is an int or exactly one formula object (``per``, ``lookup``, a cost share)."""
    if is_int(value):
        return
    if not isinstance(value, Mapping):
        raise fail(path, f"not an amount (an int or a formula object): {value!r}")
    if "per" in value:
        specs = FORMULA_PER
        term = value.get("per")
        if "filter" in value and term not in ("employed", "companies"):
            raise fail(path, f"'filter' goes only with per employed or companies, not {term!r}")
    elif "lookup" in value:
        specs = FORMULA_LOOKUP
    elif "fraction_of_cost" in value:
        specs = FORMULA_FRACTION
    else:
        raise fail(path, f"not an amount (int, per, lookup or fraction_of_cost): {value!r}")
    check_params(value, specs, "", path)


def check_requirement(value: Any, path: str) -> None:
    """A requirement is an object with exactly one key of ``REQUIREMENTS``."""
    check_object(value, path)
    if len(value) != 1:
        raise fail(path, f"a requirement has exactly one key, got {sorted(value)}")
    (name, arg), = value.items()
    if name not in REQUIREMENTS:
        raise fail(path, f"unknown requirement '{name}'")
    check_value(arg, REQUIREMENTS[name], "", f"{path}.{name}")


def validate_effect(node: Any, role: str, path: str) -> None:
    """Check one effect tree for ``role``; raise :class:`DeckError` naming ``path`` on a fault."""
    check_object(node, path)
    op = node.get("op")
    if op not in PRIMITIVES:
        raise fail(path, f"unknown op {op!r}")
    primitive = PRIMITIVES[op]
    if role not in primitive.roles:
        raise fail(path, f"'{op}' is not available to {role} (only {list(primitive.roles)})")
    params = {k: v for k, v in node.items() if k != "op"}
    if op == "basic":
        _check_basic(params, role, path)
        return
    check_params(params, primitive.params, role, path)
    if op == "add_worker" and role != "ST" and params["class"] != role:
        raise fail(path, f"a {role} card adds only {role} workers")
    if op == "bag_purge" and params["remove_up_to"] > params["draw"]:
        raise fail(path, "remove_up_to exceeds draw")
    if op == "produce" and role == "WC" and params["company_filter"].get("owner", ["WC"]) != ["WC"]:
        raise fail(f"{path}.company_filter", "WC produces only on its Cooperative Farm")
    if op == "set_wage":
        allowed = _WAGE_TARGETS[role]
        if params["company"] not in allowed:
            raise fail(f"{path}.company", f"{role} may set only {list(allowed)}")
    if op in ("gain", "pay"):
        party = params["from"] if op == "gain" else params["to"]
        if party == role:
            raise fail(path, f"{op} with its own class as the other party")


# Whose wages a card of each role may set: WC owns no wage-paying company, only ST sets public
# wages, and any class may push the wage of a company employing its own workers.
_WAGE_TARGETS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "WC": ("employer_one",),
    "MC": ("own_one", "own_all", "employer_one"),
    "CC": ("own_one", "own_all"),
    "ST": ("public_one", "public_all"),
})


def _check_basic(params: Mapping[str, Any], role: str, path: str) -> None:
    if "action" not in params:
        raise fail(path, "missing parameter 'action'")
    action = params["action"]
    if action not in BASIC_ACTIONS:
        raise fail(f"{path}.action", f"unknown basic action {action!r}")
    if role not in BASIC_ACTIONS[action][1]:
        raise fail(f"{path}.action", f"{role} may not use the basic action '{action}'")
    for name, value in params.items():
        if name == "action":
            continue
        if name not in BASIC_MODIFIERS:
            raise fail(path, f"unknown basic modifier '{name}'")
        spec, actions = BASIC_MODIFIERS[name]
        if action not in actions:
            raise fail(path, f"modifier '{name}' does not go with '{action}'")
        check_value(value, spec, role, f"{path}.{name}")
    if "market_refill" in params and "count" not in params:
        raise fail(path, "market_refill goes only with count")
    if "state_pays_rest" in params and "price_factor" not in params:
        raise fail(path, "state_pays_rest goes only with price_factor")


def iter_nodes(node: Mapping[str, Any]):
    """Yield every node of an effect tree, depth first (the node itself first)."""
    yield node
    for name, value in node.items():
        if name == "op":
            continue
        if name in ("effect", "then", "else") and isinstance(value, Mapping):
            yield from iter_nodes(value)
        elif name in ("options", "effects") and is_list(value):
            for child in value:
                if isinstance(child, Mapping):
                    yield from iter_nodes(child)

