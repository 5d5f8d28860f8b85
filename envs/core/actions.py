"""Named action catalogues: the action-side twin of ``features.FeatureLayout``.

A game builds one ``ActionCatalogue`` per role at import time, block by block;
each index gets a stable readable name (``place@(+1,-2)``, ``hire@column_3``)
and each block a range, so a decision's legal actions are read as "this block"::

    CATALOGUE = ActionCatalogue()
    TAKE = CATALOGUE.add("take", [f"take:row_{k + 1}" for k in range(3)])  # start index
    SKIP = CATALOGUE.add("skip", ["skip"])
    CATALOGUE.block("take")         # range(0, 3)
    CATALOGUE.index("skip")         # 3
"""

from __future__ import annotations

from collections.abc import Sequence

from meeplezoo.envs.core.errors import ConfigError


class ActionCatalogue:
    """Ordered blocks of uniquely named actions."""

    def __init__(self) -> None:
        self._names: list[str] = []
        self._blocks: dict[str, range] = {}
        self._index: dict[str, int] = {}

    def add(self, block: str, names: Sequence[str]) -> int:
        """Append a block of actions; returns the index of its first action."""
        if block in self._blocks:
            raise ValueError(f"action block {block!r} defined twice")
        clash = [n for n in names if n in self._index] or (
            [n for n in names if list(names).count(n) > 1])
        if clash:
            raise ValueError(f"action name(s) {sorted(set(clash))} used twice")
        start = len(self._names)
        for offset, name in enumerate(names):
            self._index[name] = start + offset
        self._names.extend(names)
        self._blocks[block] = range(start, len(self._names))
        return start

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._names)

    @property
    def size(self) -> int:
        return len(self._names)

    def block(self, name: str) -> range:
        return self._blocks[name]

    def blocks(self) -> dict[str, range]:
        return dict(self._blocks)

    def index(self, name: str) -> int:
        """The index of an action name; a clear error names the blocks for an unknown one."""
        if name not in self._index:
            raise ConfigError(f"no action named {name!r}; blocks: {', '.join(self._blocks)}")
        return self._index[name]

    def block_of(self, action: int) -> str:
        """The block an action index belongs to (for logs and grouped menus)."""
        for name, span in self._blocks.items():
            if action in span:
                return name
        raise IndexError(f"action {action} is outside 0..{self.size - 1}")
