"""The project's own imports run one way (ARCHITECTURE.md): no module of ``meeplezoo/``,
``envs/`` or ``training/`` is part of an import circle, counting imports made inside
functions (they run too; only ``if TYPE_CHECKING:`` imports are left out), the engines never
import the training tools, the core never imports a game, no game imports another, the
front door (``meeplezoo/``) sits on top, and ``training/``'s parts import in the order of
ARCHITECTURE.md's table.

``KNOWN_CIRCLES`` lists any circle allowed for a while (none now), exactly: the test fails
when one grows and when one shrinks, so the list stays true until it is empty.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = {"meeplezoo": ROOT / "meeplezoo", "meeplezoo.envs": ROOT / "envs",
            "meeplezoo.training": ROOT / "training"}
# ``meeplezoo/``'s modules that nothing in ``envs/`` or ``training/`` may import: the front
# door (``make``, the command line).  Its table of commands (``meeplezoo.commands``) is data
# that imports nothing, so the command runner below may read it.
FRONT_DOOR = ("meeplezoo", "meeplezoo.__main__", "meeplezoo.cli")
# training/'s parts, bottom to top (ARCHITECTURE.md's table): a part imports only from parts
# in rows before its own (or its own row; the circle test keeps a row free of circles).
TRAINING_ROWS: list[tuple[str, ...]] = [
    ("cli",), ("agents",), ("data",), ("fitting",), ("evaluation",),
    ("export", "play", "demo", "expert_iterate", "reproduce"), ("web",), ("rllib",)]
KNOWN_CIRCLES: list[set[str]] = []  # none left


def modules() -> dict[str, Path]:
    found = {}
    for prefix, folder in PACKAGES.items():
        for path in folder.rglob("*.py"):
            if prefix == "meeplezoo" and path.parent != folder:
                continue  # only meeplezoo/'s own files (envs/ and training/ are mapped in)
            parts = path.relative_to(folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join((prefix, *parts))] = path
    return found


def runtime_imports(path: Path, known: set[str]) -> set[str]:
    """The project modules ``path`` imports when it runs (top level or in a function)."""
    found: set[str] = set()

    def visit(node: ast.AST, type_only: bool) -> None:
        for child in ast.iter_child_nodes(node):
            only = type_only or (isinstance(child, ast.If)
                                 and "TYPE_CHECKING" in ast.unparse(child.test))
            if not only and isinstance(child, ast.ImportFrom) and child.module:
                for alias in child.names:
                    name = f"{child.module}.{alias.name}"
                    found.add(name if name in known else child.module)
            elif not only and isinstance(child, ast.Import):
                found.update(alias.name for alias in child.names)
            visit(child, only)

    visit(ast.parse(path.read_text()), False)
    return {name for name in found if name in known}


def graph() -> dict[str, set[str]]:
    found = modules()
    known = set(found)
    return {name: runtime_imports(path, known) - {name} for name, path in found.items()}


def circles(edges: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[set[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(component)

    for v in sorted(edges):
        if v not in index:
            strong(v)
    return out


def test_no_import_circle_but_the_listed_ones():
    found = circles(graph())
    new = [sorted(c) for c in found if c not in KNOWN_CIRCLES]
    gone = [sorted(c) for c in KNOWN_CIRCLES if c not in found]
    assert not new, f"import circles: {new} (see ARCHITECTURE.md for how to break one)"
    assert not gone, f"a listed circle changed or is gone: update KNOWN_CIRCLES: {gone}"


@pytest.mark.parametrize("lower, upper", [("meeplezoo.envs", "meeplezoo.training")])
def test_the_engines_never_import_the_training_tools(lower, upper):
    edges = graph()
    wrong = sorted(f"{a} -> {b}" for a, bs in edges.items() if a.startswith(lower + ".")
                   or a == lower for b in bs if b.startswith(upper))
    assert not wrong, wrong


def test_the_core_imports_no_game_and_no_game_another():
    edges = graph()
    games = {p.name for p in (ROOT / "envs").iterdir()
             if (p / "__init__.py").exists() and p.name != "core"}
    wrong = []
    for a, bs in edges.items():
        parts = a.split(".")
        own = parts[2] if len(parts) > 2 and parts[1] == "envs" else None
        for b in bs:
            target = b.split(".")
            other = target[2] if len(target) > 2 and target[1] == "envs" else None
            into_game = other in games and other != own
            if into_game and own in (*games, "core"):
                wrong.append(f"{a} -> {b}")
    assert not wrong, wrong


def test_nothing_below_imports_the_front_door():
    """``meeplezoo/``'s ``make`` and command line sit on top: the engines and the training
    tools never import them (a command run as ``python -m <module>`` is named from the
    data table ``meeplezoo.commands``, not from ``meeplezoo.cli``)."""
    edges = graph()
    below = ("meeplezoo.envs", "meeplezoo.training")
    wrong = sorted(f"{a} -> {b}" for a, bs in edges.items() if a.startswith(below)
                   for b in bs if b in FRONT_DOOR)
    assert not wrong, wrong
    assert edges["meeplezoo.commands"] == set(), "the command table is data: it imports nothing"
    assert "meeplezoo.cli" in edges and "meeplezoo.commands" in edges["meeplezoo.cli"]


def training_row(module: str) -> int | None:
    """The row of ``TRAINING_ROWS`` that holds ``module``'s part; None outside training/."""
    prefix = "meeplezoo.training."
    if not module.startswith(prefix):
        return None
    part = module[len(prefix):].split(".")[0]
    rows = [k for k, row in enumerate(TRAINING_ROWS) if part in row]
    assert rows, f"{module}: part {part!r} is in no row of TRAINING_ROWS (ARCHITECTURE.md)"
    return rows[0]


def test_training_parts_import_in_the_order_of_the_table():
    edges = graph()
    wrong = []
    for a, bs in edges.items():
        row = training_row(a)
        for b in bs:
            if row is not None and (other := training_row(b)) is not None and other > row:
                wrong.append(f"{a} -> {b} ({TRAINING_ROWS[row]} imports {TRAINING_ROWS[other]})")
    assert not wrong, sorted(wrong)
    assert training_row("meeplezoo.training.fitting.expert_iteration") == 3


def test_the_checker_finds_a_circle_through_a_function_import(tmp_path):
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(edges) == [{"a", "b", "c"}]
    source = tmp_path / "m.py"
    source.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import x.t\n"
                      "def f():\n    from x import late\n")
    assert runtime_imports(source, {"x.late", "x.t"}) == {"x.late"}
