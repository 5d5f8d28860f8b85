"""Hegemony's rules object (``core.rules.Rules``), built once by each ``HegemonyGame``.

It holds, in one frozen table that every state reads through its game
(``st.game.rules``):

- ``agenda``: the agenda table of every decision and step, joining every phase module and the
  card interpreter's families (``turn.build_agenda``);
- ``phase``: the phase rules a card's effect runs (``PHASE_RULES`` below): they live in the
  phase modules, above the card interpreter, so the interpreter reaches them here by name
  (``st.game.rules.phase["sell_company"]``), never by an import;
- ``primitives``: each card primitive with its check, its effect and its declared cost
  (``core.rules.Primitive``), from the families' ``PRIMITIVES`` tables: a card's money costs
  are the ``cost`` of its ``pay``, ``machinery``, ``prosperity`` and ``storage`` nodes
  (``effects_resources`` and ``effects_companies``), which ``effects.playable`` sums;
- ``cards``: the node table of every action card and Event (``effects.build_nodes``).

Nothing is registered by importing a module: this module only reads the phase modules' and
the families' tables when a game builds its rules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from meeplezoo.envs.core.rules import Primitive, Rules
from meeplezoo.envs.hegemony import economy, effects, effects_basic, politics, turn, workers_free

# the card interpreter's families (``effects_*``, each with its ``PRIMITIVES`` table), as
# ``turn`` joins them
FAMILIES = tuple(module for module in turn.PHASE_MODULES
                 if module.__name__.rsplit(".", 1)[1].startswith("effects_"))


def phase_rules() -> dict[str, Callable[..., Any] | Mapping[str, Any]]:
    """The phase rules a card's effect runs, by name, from the phase modules that hold them."""
    return {
        "basic_actions": MappingProxyType(turn.BASIC),  # name -> (can, start) of each basic action
        "can_propose": politics.can_propose,
        "push_propose": politics.push_propose,
        "change_policy": politics.change_policy,
        "sell_company": economy.sell_company,
        "gain_prosperity": workers_free.gain_prosperity,
        "retrain_sources": workers_free.retrain_sources,
        "legal_retrain_industry": workers_free.legal_retrain_industry,
        "apply_retrain": workers_free.apply_retrain,
    }


def primitives() -> Mapping[str, Primitive]:
    """Every card primitive, joined from the families (each op once; every leaf primitive of
    the vocabulary has one: ``effects.check_primitives``)."""
    joined: dict[str, Primitive] = {}
    for family in FAMILIES:
        for op, primitive in family.PRIMITIVES.items():
            if op in joined:
                raise ValueError(f"primitive {op!r} is defined twice ({family.__name__})")
            joined[op] = primitive
    effects.check_primitives(joined)
    return MappingProxyType(joined)


def build_rules() -> Rules:
    """A game's rules object (``HegemonyGame.build_rules``)."""
    prims = primitives()
    return Rules(agenda=turn.build_agenda(), phase=phase_rules(), primitives=prims,
                 cards=effects.build_nodes(prims, effects_basic.widens))
