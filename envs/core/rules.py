"""A game's rules object: the one table of what its rules are, built once by its ``Game``.

Every game keeps its rules in one frozen ``Rules`` that its ``Game`` builds when it is made
(``Game.build_rules``) and hands to every state (``state.game.rules``):

- ``agenda``: a game whose flow is an agenda (``core.agenda``) gives its table of decisions
  and steps (``AgendaRules``: each code's name, legal actions and effect);
- ``choices``: a game whose flow is one pending decision kind gives one ``Choice`` per kind,
  indexed by its number (its name, its legal actions, its effect);
- ``phase``: the named phase rules that a lower layer calls (Hegemony's cards run a basic
  action, a bill or a sale that a phase module above the card interpreter holds);
- ``primitives``: each card primitive with its check, its effect and its declared cost;
- ``cards``: the game's indexed card data (Hegemony's effect nodes), or None.

Nothing is registered by importing a module: the tables are built by functions that the game
calls, and they hold functions, so a pickled game or state leaves them behind and its game
builds them again when it is loaded (``Game.__setstate__``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

EMPTY: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Choice:
    """One decision kind of a game without an agenda: its name, its legal actions
    ``legal(state) -> list[int]`` and its effect ``apply(state, action)``."""

    name: str
    legal: Callable[[Any], list[int]]
    apply: Callable[[Any, int], None]


def no_cost(state: Any, seat: int, node: int) -> int:
    """The cost of a primitive that never spends money."""
    return 0


def never_costs(node: Mapping[str, Any]) -> bool:
    """A primitive that never spends money, whatever its node says."""
    return False


@dataclass(frozen=True, slots=True)
class Primitive:
    """One card primitive: ``can(state, seat, node) -> bool`` (may the seat do the node now),
    ``do(state, seat, node)`` (do it, at once or by pushing its decisions), and its declared
    cost: ``cost(state, seat, node) -> int``, the money it surely spends as optional spending,
    and ``costs(node_data) -> bool``, whether that can be other than 0 for a node (read once
    per node).  A primitive that spends nothing declares ``no_cost`` and ``never_costs``."""

    can: Callable[[Any, int, int], bool]
    do: Callable[[Any, int, int], None]
    cost: Callable[[Any, int, int], int]
    costs: Callable[[Mapping[str, Any]], bool]


def spends_nothing(can: Callable[[Any, int, int], bool],
                   do: Callable[[Any, int, int], None]) -> Primitive:
    """A primitive whose declared cost is nothing (``no_cost``, ``never_costs``)."""
    return Primitive(can, do, no_cost, never_costs)


@dataclass(frozen=True, slots=True)
class Rules:
    """A game's rules for one configuration (see the module's docstring); frozen, so
    assigning to it raises."""

    agenda: Any = None  # core.agenda.AgendaRules, for an agenda game
    choices: tuple[Choice, ...] = ()
    phase: Mapping[str, Any] = field(default_factory=lambda: EMPTY)
    primitives: Mapping[str, Primitive] = field(default_factory=lambda: EMPTY)
    cards: Any = None
    # per decision kind, the ``choices``' legal and apply functions (for the state's lookups)
    legal_of: tuple[Callable[[Any], list[int]], ...] = field(init=False)
    apply_of: tuple[Callable[[Any, int], None], ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "legal_of", tuple(c.legal for c in self.choices))
        object.__setattr__(self, "apply_of", tuple(c.apply for c in self.choices))
        if not isinstance(self.phase, MappingProxyType):
            object.__setattr__(self, "phase", MappingProxyType(dict(self.phase)))
        if not isinstance(self.primitives, MappingProxyType):
            object.__setattr__(self, "primitives", MappingProxyType(dict(self.primitives)))
        names = [c.name for c in self.choices]
        if len(set(names)) != len(names):
            raise ValueError(f"two decision kinds share a name: {names}")

    def names(self) -> list[str]:
        """Every decision and step's name (the agenda's, then the choices')."""
        agenda = [] if self.agenda is None else [k.name for k in self.agenda.codes.values()]
        return agenda + [c.name for c in self.choices]

    def phase_rule(self, name: str) -> Any:
        """A named phase rule, or a clear error naming the rules there are."""
        try:
            return self.phase[name]
        except KeyError:
            raise LookupError(f"no phase rule {name!r}; the rules are {sorted(self.phase)}") \
                from None
