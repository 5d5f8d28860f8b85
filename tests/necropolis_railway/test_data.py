"""Every number in ``necropolis_railway.json`` is read and used by the engine.

A value the engine ignores is a defect (the audit found two: ``workers_per_column`` and
the volunteers' ``upkeep``, now removed, and a 2-slot London layout assumed in code).
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from meeplezoo.envs.necropolis_railway import data as D
from meeplezoo.envs.necropolis_railway.scoring import london_pairs

ENGINE_DIR = Path(D.__file__).parent
_NOT_TABLES = {"DATA_PATH", "RAW"}  # the file's location and its raw text, not tables


def _number_paths(node: Any, path: tuple = ()) -> Iterator[tuple]:
    """Paths of every number in the JSON tree (booleans and null are not numbers)."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _number_paths(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _number_paths(v, (*path, i))
    elif isinstance(node, (int, float)) and not isinstance(node, bool):
        yield path


def _tables_from(raw: dict, tmp: Path) -> dict[str, Any] | Exception:
    """The public tables ``data.py`` builds from ``raw`` (or the error it raises)."""
    tmp.mkdir(parents=True, exist_ok=True)
    (tmp / D.DATA_PATH.name).write_text(json.dumps(raw), encoding="utf-8")
    source = Path(D.__file__).read_text(encoding="utf-8")
    namespace: dict[str, Any] = {"__file__": str(tmp / "data.py"), "__name__": "data_copy"}
    try:
        exec(compile(source, "data_copy.py", "exec"), namespace)
    except Exception as exc:  # a changed number the loader rejects was read too
        return exc
    return {k: namespace[k] for k in _public_names(namespace)}


def _public_names(namespace: dict[str, Any]) -> list[str]:
    """Names of the tables (private ``_NAMES`` are the loader's intermediate steps)."""
    return [k for k in namespace if k.isupper() and not k.startswith("_") and k not in _NOT_TABLES]


def test_every_number_in_the_data_file_reaches_a_table(tmp_path):
    """Changing any one number in a loaded copy of the file changes some table."""
    base = _tables_from(D.RAW, tmp_path / "base")
    assert isinstance(base, dict)
    assert base == {k: getattr(D, k) for k in base}
    ignored = []
    for i, path in enumerate(_number_paths(D.RAW)):
        raw = copy.deepcopy(D.RAW)
        node = raw
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] += 1
        got = _tables_from(raw, tmp_path / str(i))
        if isinstance(got, dict) and got == base:
            ignored.append("/".join(map(str, path)))
    assert not ignored, f"numbers the engine never reads: {ignored}"


def test_every_data_table_is_used_by_the_engine():
    """Each public table of data.py is read by some other engine module."""
    sources = "\n".join(p.read_text(encoding="utf-8") for p in ENGINE_DIR.glob("*.py")
                        if p.name != "data.py")
    unused = [k for k in _public_names(vars(D)) if not re.search(rf"\bD\.{k}\b", sources)]
    assert not unused, f"tables no engine module reads: {unused}"


def test_rule_facility_with_more_slots_is_a_pair_when_all_on_B(tmp_path, monkeypatch):
    """v1: a London facility may have any number of slots in the data file; it scores as a
    fully upgraded pair only when all of its slots are on tile B."""
    raw = copy.deepcopy(D.RAW)
    mortuary = raw["london"]["slots"]["mortuary"]
    mortuary.append(copy.deepcopy(mortuary[-1]))  # a third mortuary slot
    tables = _tables_from(raw, tmp_path)
    assert isinstance(tables, dict)
    assert tables["NUM_SLOTS"] == D.NUM_SLOTS + 1
    assert tables["FACILITY_SLOTS"][0] == (0, 1, 2)
    assert tables["SLOT_NAMES"][:4] == ["mortuary_1", "mortuary_2", "mortuary_3", "chapel_1"]
    monkeypatch.setattr(D, "FACILITY_SLOTS", tables["FACILITY_SLOTS"])
    levels = [0] * tables["NUM_SLOTS"]
    levels[0] = levels[1] = 2
    assert london_pairs(levels) == 0  # two of the mortuary's three slots: not a pair
    levels[2] = 2
    assert london_pairs(levels) == 1
    levels[3] = levels[4] = 2  # the chapel's two slots
    assert london_pairs(levels) == 2
