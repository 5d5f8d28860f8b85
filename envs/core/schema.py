"""Declarative shapes for saved states, checked by one routine.

A game describes the JSON of its saved state once, as a tree of specs::

    Record({
        "rng": RNG_STATE,
        "round": Int(0, 6),
        "players": List(Record({"money": Int(0, 999), "hand": List(Int(0, 59), (0, 8))}),
                        length=num_players),
        "phase": Str(("draft", "build")),
    })

and ``validate(spec, data)`` walks data and spec together.  Every refusal is a
``CorruptStateError`` that names the field by its path (``players[1].money``)
and says what was expected, so a tampered save is never half-loaded, and no
per-game chain of ``if`` statements is needed for types, lengths and ranges.
What a shape cannot say (conservation, a pending decision with a legal move)
stays in the game's ``check_invariants`` and the generic post-load checks of
``envs.core.game.state_from_saved``.

Values are never converted: ``1.0`` is not an integer, ``1`` is not a boolean,
``"3"`` is not a number, NaN and infinity are not numbers of any kind, and an
integer outside its range (however huge) is refused before it reaches numpy.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from meeplezoo.envs.core.errors import CorruptStateError

Length = int | tuple[int, int] | None  # exact, inclusive range, or any


class Spec:
    """One node of a saved-state shape."""

    def check(self, value: Any, path: str) -> None:
        raise NotImplementedError

    def fail(self, path: str, value: Any, expected: str) -> CorruptStateError:
        shown = repr(value)
        if len(shown) > 60:
            shown = shown[:57] + "..."
        where = path or "<root>"
        return CorruptStateError(f"field {where}: expected {expected}, got {shown}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Int(Spec):
    """An integer (never a bool or a float) in ``lo..hi`` inclusive, or one of ``choices``."""

    lo: int | None = None
    hi: int | None = None
    choices: tuple[int, ...] | None = None

    def describe(self) -> str:
        if self.choices is not None:
            return f"an integer in {sorted(self.choices)}"
        if self.lo is not None and self.hi is not None:
            return f"an integer in {self.lo}..{self.hi}"
        if self.lo is not None:
            return f"an integer >= {self.lo}"
        if self.hi is not None:
            return f"an integer <= {self.hi}"
        return "an integer"

    def check(self, value: Any, path: str) -> None:
        ok = _is_int(value)
        if ok and self.choices is not None:
            ok = value in self.choices
        if ok and self.lo is not None:
            ok = value >= self.lo
        if ok and self.hi is not None:
            ok = value <= self.hi
        if not ok:
            raise self.fail(path, value, self.describe())


@dataclass(frozen=True)
class Bool(Spec):
    """``true`` or ``false``; 0, 1 and strings are refused."""

    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, bool):
            raise self.fail(path, value, "true or false")


@dataclass(frozen=True)
class Str(Spec):
    """A string, one of ``choices`` when given."""

    choices: tuple[str, ...] | None = None

    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, str) or (self.choices is not None and value not in self.choices):
            expected = "a string" if self.choices is None else f"one of {list(self.choices)}"
            raise self.fail(path, value, expected)


@dataclass(frozen=True)
class Nullable(Spec):
    """``null`` or a value of ``inner``."""

    inner: Spec

    def check(self, value: Any, path: str) -> None:
        if value is not None:
            self.inner.check(value, path)


def _length_ok(length: Length, n: int) -> bool:
    if length is None:
        return True
    if isinstance(length, int):
        return n == length
    return length[0] <= n <= length[1]


def _describe_length(length: Length) -> str:
    if isinstance(length, int):
        return f"{length}"
    assert length is not None
    return f"{length[0]}..{length[1]}"


@dataclass(frozen=True)
class List(Spec):
    """A JSON array of ``item`` values, of an exact length or a length range."""

    item: Spec
    length: Length = None

    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, list):
            raise self.fail(path, value, "a list")
        if not _length_ok(self.length, len(value)):
            raise self.fail(path, value, f"a list of length {_describe_length(self.length)}")
        for i, x in enumerate(value):
            self.item.check(x, f"{path}[{i}]")


@dataclass(frozen=True)
class Tuple(Spec):
    """A JSON array of fixed length whose entries have their own specs."""

    items: Sequence[Spec]

    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, list) or len(value) != len(self.items):
            raise self.fail(path, value, f"a list of length {len(self.items)}")
        for i, (x, spec) in enumerate(zip(value, self.items)):
            spec.check(x, f"{path}[{i}]")


@dataclass(frozen=True)
class Float(Spec):
    """A finite number (an integer is accepted) in ``lo..hi``; bools and strings are not."""

    lo: float = -math.inf
    hi: float = math.inf

    def check(self, value: Any, path: str) -> None:
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if not (number and math.isfinite(value) and self.lo <= value <= self.hi):
            raise self.fail(path, value, f"a finite number in {self.lo}..{self.hi}")


@dataclass(frozen=True)
class Record(Spec):
    """A JSON object with exactly these keys, plus any of ``optional``; others are refused."""

    fields: dict[str, Spec] = field(default_factory=dict)
    optional: dict[str, Spec] = field(default_factory=dict)

    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, dict):
            raise self.fail(path, value, "an object")
        missing = [k for k in self.fields if k not in value]
        if missing:
            raise CorruptStateError(f"field {path or '<root>'}: missing key(s) {missing}")
        extra = sorted(str(k) for k in value if k not in self.fields and k not in self.optional)
        if extra:
            raise CorruptStateError(
                f"field {path or '<root>'}: unexpected key(s) {extra}; "
                f"allowed: {sorted({*self.fields, *self.optional})}"
            )
        prefix = f"{path}." if path else ""
        for key, spec in self.fields.items():
            spec.check(value[key], prefix + key)
        for key, spec in self.optional.items():
            if key in value:
                spec.check(value[key], prefix + key)


# numpy's PCG64 state: two 128-bit integers and the buffered 32-bit half-word.
U128 = Int(0, 2**128 - 1)
RNG_STATE = Record(
    {
        "bit_generator": Str(("PCG64",)),
        "state": Record({"state": U128, "inc": U128}),
        "has_uint32": Int(0, 1),
        "uinteger": Int(0, 2**32 - 1),
    }
)


def validate(spec: Spec, data: Any, path: str = "") -> None:
    """Raise CorruptStateError naming the first field of ``data`` that ``spec`` refuses."""
    spec.check(data, path)
