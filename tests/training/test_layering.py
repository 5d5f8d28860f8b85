"""The training modules import each other in layers: no cycle, not even through imports
made inside functions (which only hide a cycle until someone moves them)."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "training"
PREFIX = "meeplezoo.training."  # how the modules import each other


def _module_name(path: Path) -> str:
    """``training/fitting/nets/chihou_sousei.py`` -> ``fitting.nets.chihou_sousei`` (a
    package: ``fitting.nets``)."""
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == PREFIX[:-1]:
                found |= {alias.name for alias in node.names}
            elif node.module.startswith(PREFIX):
                base = node.module.removeprefix(PREFIX)
                found.add(base)  # and a submodule named in it (``from pkg import module``)
                found |= {f"{base}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Import):
            found |= {a.name.removeprefix(PREFIX) for a in node.names
                      if a.name.startswith(PREFIX)}
    return found


def _graph() -> dict[str, set[str]]:
    modules = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    modules.pop("", None)  # training/__init__.py
    return {name: _imports(path) & set(modules) - {name} for name, path in modules.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt):], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_training_modules_have_no_import_cycle():
    graph = _graph()
    # the generic spatial policy reaches game networks through the nets registry only
    assert "fitting.nets.chihou_sousei" not in graph["fitting.spatial"]
    assert "fitting.nets.chihou_sousei" in graph["fitting.nets"]
    cycle = _cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None
