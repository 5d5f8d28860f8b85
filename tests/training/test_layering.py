"""The training modules import each other in layers: no cycle, not even through imports
made inside functions (which only hide a cycle until someone moves them).  The import graph
is ``tests/test_import_layers.py``'s, which checks the whole package the same way."""

from tests.test_import_layers import circles, graph

T = "meeplezoo.training."


def test_training_modules_have_no_import_cycle():
    edges = {a: {b for b in bs if b.startswith(T)} for a, bs in graph().items()
             if a.startswith(T)}
    # the generic spatial policy reaches game networks through the nets registry only
    assert T + "fitting.nets.chihou_sousei" not in edges[T + "fitting.spatial"]
    assert T + "fitting.nets.chihou_sousei" in edges[T + "fitting.nets"]
    found = circles(edges)
    assert not found, f"import cycle: {found}"
