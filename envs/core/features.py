"""Named observation layouts: every entry of a policy's input has a name.

A game builds one ``FeatureLayout`` per (game config, player) at start-up and
fills a preallocated vector by slices, so encoding stays cheap.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


class FeatureLayout:
    """Ordered blocks of named features; ``block(name)`` gives its slice."""

    def __init__(self) -> None:
        self._names: list[str] = []
        self._blocks: dict[str, slice] = {}
        self._labels: dict[str, list[str]] = {}

    def add(self, block: str, labels: Sequence[str] | int = 1) -> slice:
        """Append a block; ``labels`` names its entries (or counts them)."""
        if block in self._blocks:
            raise ValueError(f"feature block {block!r} defined twice")
        if isinstance(labels, int):
            labels = [""] if labels == 1 else [str(i) for i in range(labels)]
        start = len(self._names)
        self._names.extend(f"{block}[{label}]" if label else block for label in labels)
        self._blocks[block] = slice(start, len(self._names))
        self._labels[block] = list(labels)
        return self._blocks[block]

    def block(self, name: str) -> slice:
        return self._blocks[name]

    def labels(self, block: str) -> list[str]:
        """The labels of a block's entries, in order (``[""]`` for a one-entry block)."""
        return list(self._labels[block])

    def offset(self, block: str, label: str) -> int:
        """Index in the vector of one named entry: what a network reads by name."""
        return self._blocks[block].start + self._labels[block].index(label)

    @property
    def names(self) -> list[str]:
        return list(self._names)

    @property
    def size(self) -> int:
        return len(self._names)

    def blocks(self) -> dict[str, slice]:
        return dict(self._blocks)

    def zeros(self) -> np.ndarray:
        return np.zeros(self.size, dtype=np.float32)


def seats_from(player: int, num_players: int) -> list[int]:
    """Seats in egocentric order: the viewer, then the others clockwise."""
    return [(player + k) % num_players for k in range(num_players)]


def relative_seat(seat: int, viewer: int, num_players: int) -> int:
    """Position of ``seat`` in ``viewer``'s egocentric order (0 = viewer)."""
    return (seat - viewer) % num_players


def names_for_range(prefix: str, count: int) -> list[str]:
    return [f"{prefix}{i}" for i in range(count)]
