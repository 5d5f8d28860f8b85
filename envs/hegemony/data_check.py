"""The reader of Hegemony's data files: ``Checker`` reads values out of one file's json tree
and fails with a :class:`DataError` naming the file and the entry (``companies.json: mc
doctors_office: ...``), so a broken file fails at import and a typo never reaches a game.

It sits below ``data``, which reshapes the four files with it once at import; it imports
nothing of the package.
"""

from __future__ import annotations

import re
from typing import Any

_ID = re.compile(r"^[a-z][a-z0-9_]*$")


class DataError(ValueError):
    """A data file breaks a rule of its format; the message names the file and the entry."""


class Checker:
    """Reads values out of one file's tree, failing with ``file: entry: problem``."""

    def __init__(self, file: str) -> None:
        self.file = file

    def fail(self, entry: str, problem: str) -> DataError:
        return DataError(f"{self.file}: {entry}: {problem}")

    def get(self, node: Any, key: str, entry: str) -> Any:
        if not isinstance(node, dict):
            raise self.fail(entry, f"expected an object holding {key!r}")
        if key not in node:
            raise self.fail(entry, f"missing key {key!r}")
        return node[key]

    def keys(self, node: Any, allowed: set[str], entry: str) -> None:
        """Reject unknown keys (a typo would otherwise be silently ignored); '_' keys are notes."""
        if not isinstance(node, dict):
            raise self.fail(entry, "expected an object")
        extra = sorted(k for k in node if k not in allowed and not k.startswith("_"))
        if extra:
            raise self.fail(entry, f"unknown keys {extra}")

    def int_(self, value: Any, entry: str, lo: int = 0, hi: int | None = None) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(entry, f"expected an integer, got {value!r}")
        if value < lo or (hi is not None and value > hi):
            raise self.fail(entry, f"{value} is outside {lo}..{'' if hi is None else hi}")
        return value

    def ints(self, value: Any, entry: str, length: int | None = None, lo: int = 0,
             order: str = "") -> tuple[int, ...]:
        """A list of ints; ``order`` is '' (any), '<=' (non-decreasing) or '<' (increasing)."""
        if not isinstance(value, list):
            raise self.fail(entry, f"expected a list, got {value!r}")
        if length is not None and len(value) != length:
            raise self.fail(entry, f"expected {length} numbers, got {len(value)}")
        out = tuple(self.int_(v, f"{entry}[{i}]", lo) for i, v in enumerate(value))
        for i in range(1, len(out)):
            if (order == "<" and out[i] <= out[i - 1]) or (order == "<=" and out[i] < out[i - 1]):
                raise self.fail(entry, f"must be {'increasing' if order == '<' else 'sorted'}")
        return out

    def choice(self, value: Any, options: tuple[str, ...], entry: str) -> int:
        if value not in options:
            raise self.fail(entry, f"{value!r} is not one of {list(options)}")
        return options.index(value)

    def table(self, node: Any, labels: tuple[str, ...], entry: str) -> tuple[Any, ...]:
        """The values of an object keyed by exactly ``labels``, in that order."""
        if not isinstance(node, dict) or sorted(node) != sorted(labels):
            raise self.fail(entry, f"expected exactly the keys {list(labels)}")
        return tuple(node[k] for k in labels)

    def int_table(self, node: Any, labels: tuple[str, ...], entry: str,
                  lo: int = 0) -> tuple[int, ...]:
        values = self.table(node, labels, entry)
        return tuple(self.int_(v, f"{entry}.{k}", lo) for k, v in zip(labels, values))

    def unique(self, ids: list[str], entry: str) -> None:
        for i in ids:
            if not isinstance(i, str) or not _ID.match(i):
                raise self.fail(f"{entry} {i!r}", "id must be snake_case")
        seen = {i for i in ids if ids.count(i) > 1}
        if seen:
            raise self.fail(entry, f"duplicate ids {sorted(seen)}")
