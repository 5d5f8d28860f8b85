"""Each game's rules object (``core.rules.Rules``, issue 48): built once by its ``Game``,
immutable, handed to every state, complete (every decision, step and phase rule named and
resolvable, every card primitive with a declared cost), and filled by no import.
"""

from __future__ import annotations

import dataclasses
import pickle
import subprocess
import sys

import pytest

from meeplezoo import envs
from meeplezoo.envs.core.agenda import AgendaRules
from meeplezoo.envs.core.rules import Choice, Primitive, Rules

GAMES = ("asian_delivery_v1", "chihou_sousei_v1", "hegemony_v1", "necropolis_railway_v1")
# the games whose flow is an agenda; the others give one Choice per decision kind
AGENDA_GAMES = ("hegemony_v1", "necropolis_railway_v1")


def make(name: str):
    return envs.make_game(name)


@pytest.mark.parametrize("name", GAMES)
def test_the_rules_object_is_built_once_per_game_and_handed_to_every_state(name, monkeypatch):
    cls = envs.game_class(name)
    built = []
    original = cls.build_rules
    monkeypatch.setattr(cls, "build_rules", lambda self: built.append(1) or original(self))
    game = cls()
    assert len(built) == 1 and isinstance(game.rules, Rules)
    state = game.new_initial_state(3)
    for _ in range(30):
        if state.is_terminal():
            break
        state.apply(state.legal_actions()[0])
    clone = state.clone()
    assert state.rules is game.rules and clone.rules is game.rules
    assert clone.game.rules is game.rules and len(built) == 1  # states never build their own
    other = cls()
    assert other.rules is not game.rules and len(built) == 2  # one per game


@pytest.mark.parametrize("name", GAMES)
def test_the_rules_object_is_immutable(name):
    rules = make(name).rules
    for field in dataclasses.fields(rules):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(rules, field.name, getattr(rules, field.name))
    with pytest.raises(TypeError):
        rules.phase["new_rule"] = print  # type: ignore[index]
    with pytest.raises(TypeError):
        rules.primitives["new_primitive"] = None  # type: ignore[index]
    assert isinstance(rules.choices, tuple) and isinstance(rules.legal_of, tuple)


@pytest.mark.parametrize("name", GAMES)
def test_every_decision_and_step_is_named_and_resolves(name):
    game = make(name)
    rules = game.rules
    names = rules.names()
    assert names and len(set(names)) == len(names)
    if name in AGENDA_GAMES:
        assert isinstance(rules.agenda, AgendaRules) and not rules.choices
        for code, kind in rules.agenda.codes.items():
            assert rules.agenda.name(code) == kind.name
            assert callable(kind.legal if rules.agenda.is_decision(code) else kind.run)
    else:
        assert rules.agenda is None
        assert all(isinstance(c, Choice) and callable(c.legal) and callable(c.apply)
                   for c in rules.choices)
        assert rules.legal_of == tuple(c.legal for c in rules.choices)
        assert rules.apply_of == tuple(c.apply for c in rules.choices)
    # every pending decision of a played game is one the table names
    state = game.new_initial_state(5)
    for _ in range(200):
        if state.is_terminal():
            break
        assert state.decision_name() in names
        state.apply(state.legal_actions()[-1])


def test_hegemony_phase_rules_and_primitives_resolve_with_declared_costs():
    from meeplezoo.envs.hegemony import cards_vocabulary as V
    from meeplezoo.envs.hegemony import effects

    rules = make("hegemony_v1").rules
    for rule in ("basic_actions", "can_propose", "push_propose", "change_policy",
                 "sell_company", "gain_prosperity", "retrain_sources",
                 "legal_retrain_industry", "apply_retrain"):
        assert rules.phase_rule(rule) is rules.phase[rule]
    with pytest.raises(LookupError, match="no phase rule"):
        rules.phase_rule("no_such_rule")
    assert set(rules.primitives) == set(V.PRIMITIVES) - set(effects.COMPOSITION)
    for op, primitive in rules.primitives.items():
        assert isinstance(primitive, Primitive), op
        assert callable(primitive.can) and callable(primitive.do), op
        assert callable(primitive.cost) and callable(primitive.costs), op  # declared, never absent
    # the money a card may cost is declared by these primitives, and only by them
    spending = {op for op, p in rules.primitives.items()
                if any(p.costs(node) for node in rules.cards.nodes if node["op"] == op)}
    assert {"pay", "machinery", "prosperity"} <= spending <= {
        "pay", "machinery", "prosperity", "storage"}  # (no printed storage tile has a cost)
    cards = rules.cards
    used = {node["op"] for node in cards.nodes}
    assert used <= set(rules.primitives) | set(effects.COMPOSITION) | set(V.EVENT_TASKS)


def test_a_pickled_game_leaves_its_rules_behind_and_builds_them_again():
    game = make("hegemony_v1")
    state = game.new_initial_state(2)
    state.apply(state.legal_actions()[0])
    data = pickle.dumps(state)
    assert b"build_agenda" not in data and b"_can_pay" not in data  # no rule function travels
    revived = pickle.loads(data)
    assert isinstance(revived.game.rules, Rules) and revived.game.rules is not game.rules
    assert revived.legal_actions() == state.legal_actions()
    assert revived.observation(0).tobytes() == state.observation(0).tobytes()


def test_a_hand_made_node_extends_a_copy_of_the_game_only():
    from meeplezoo.envs.hegemony import effects

    game = make("hegemony_v1")
    state = game.new_initial_state(1)
    size = len(game.rules.cards.nodes)
    nid = effects.add_node(state, {"op": "vp", "n": 1}, "WC")
    assert nid == size and len(state.game.rules.cards.nodes) == size + 1
    assert len(game.rules.cards.nodes) == size and state.game is not game  # the game is untouched
    assert state.game.rules.cards.nodes[:size] == game.rules.cards.nodes


IMPORT_TWICE = """
import importlib, sys
from meeplezoo.envs.hegemony import effects, turn, rules
names = {m: {k: id(v) for k, v in vars(sys.modules[m]).items()} for m in list(sys.modules)
         if m.startswith("meeplezoo.envs.hegemony")}
sizes = {m: {k: len(v) for k, v in vars(sys.modules[m]).items()
             if isinstance(v, (dict, list, set))} for m in names}
from meeplezoo.envs.hegemony.game import HegemonyGame
HegemonyGame(); HegemonyGame()
for module in ("effects", "effects_basic", "effects_resources", "turn", "politics"):
    importlib.reload(sys.modules["meeplezoo.envs.hegemony." + module])
after = {m: {k: len(v) for k, v in vars(sys.modules[m]).items()
             if isinstance(v, (dict, list, set))} for m in names}
changed = {m: {k for k in sizes[m] if after[m].get(k) != sizes[m][k]} for m in names}
print({m: sorted(k) for m, k in changed.items() if k})
print(hasattr(effects, "NODES"), hasattr(effects, "CAN"), "phase_rules" in str(list(sys.modules)))
"""


def test_no_registry_is_filled_by_importing_a_module():
    """In a fresh interpreter: making games and importing the interpreter's modules again
    leaves every module-level table as it was, and the old registries are gone."""
    out = subprocess.run([sys.executable, "-c", IMPORT_TWICE], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out == ["{}", "False False False"], out
