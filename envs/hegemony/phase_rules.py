"""The phase rules the card and Event interpreter runs, registered from above.

A card's effect can be a class's basic action (``basic``), a bill (``propose_bill``,
``shift_policy``), a sale of a company, a Prosperity step or a retraining: rules that live
in the phase modules (``workers_free``, ``economy``, ``politics``, ``turn``), which sit *above*
the interpreter (``effects`` and its ``effects_*`` families) because they use its primitives.
So the interpreter never imports them: each phase module registers its rules here when it is
imported, and the interpreter looks them up when a card runs (dependency inversion; ``game.py``
imports every phase module before any state exists, so every rule is in place by then).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# rule name -> the phase module that provides it (documentation and the check below)
PROVIDERS = {
    "basic_actions": "turn",  # name -> (can, start) of every basic action
    "can_propose": "politics",
    "push_propose": "politics",
    "change_policy": "politics",
    "sell_company": "economy",
    "gain_prosperity": "workers_free",
    "retrain_sources": "workers_free",
    "legal_retrain_industry": "workers_free",
    "apply_retrain": "workers_free",
}
_RULES: dict[str, Any] = {}


def provide(**rules: Callable[..., Any] | dict[str, Any]) -> None:
    """Register phase rules by name (each name once, and only the names above)."""
    for name, rule in rules.items():
        if name not in PROVIDERS:
            raise ValueError(f"unknown phase rule {name!r}; the rules are {sorted(PROVIDERS)}")
        if name in _RULES and _RULES[name] is not rule:
            raise ValueError(f"phase rule {name!r} is registered twice")
        _RULES[name] = rule


def rule(name: str) -> Any:
    """A registered rule; a clear error if its phase module was never imported."""
    try:
        return _RULES[name]
    except KeyError:
        raise LookupError(f"phase rule {name!r} is not registered: import "
                          f"meeplezoo.envs.hegemony.{PROVIDERS[name]} (the game does)") from None
