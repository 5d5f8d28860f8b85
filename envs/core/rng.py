"""Seeded chance for engines: a numpy Generator that survives a JSON round trip."""

from __future__ import annotations

from typing import Any

import numpy as np

from meeplezoo.envs.core.errors import CorruptStateError
from meeplezoo.envs.core.schema import RNG_STATE, validate


def new_rng(seed: int | None) -> np.random.Generator:
    """A PCG64 generator; ``None`` draws fresh entropy."""
    return np.random.Generator(np.random.PCG64(seed))


def copy_rng(rng: np.random.Generator) -> np.random.Generator:
    """An independent generator in the same state: what a state's ``clone`` needs, so
    the copy's chance events equal the original's without sharing its draws."""
    return rng_in_state(rng.bit_generator.state)


def rng_in_state(state: dict[str, Any]) -> np.random.Generator:
    """A generator set to a PCG64 state taken earlier (a clone may keep the state and
    build the generator only when chance is drawn: ``LazyRng``)."""
    twin = np.random.Generator(np.random.PCG64())
    twin.bit_generator.state = state
    return twin


def rng_to_dict(rng: np.random.Generator) -> dict[str, Any]:
    """JSON-safe snapshot of the generator (Python ints stay exact in JSON)."""
    return rng.bit_generator.state


def rng_from_dict(data: Any, path: str = "rng") -> np.random.Generator:
    """Rebuild a generator saved by ``rng_to_dict``; any damage is a CorruptStateError."""
    validate(RNG_STATE, data, path)
    bit_generator = np.random.PCG64()
    try:
        bit_generator.state = data
    except (TypeError, ValueError, KeyError, OverflowError) as exc:
        raise CorruptStateError(f"saved field {path}: damaged PCG64 state ({exc})") from exc
    return np.random.Generator(bit_generator)


class LazyRng:
    """Mixin for a state whose clones copy the generator only when they first draw.

    Clones are many (search, look-ahead) and chance is rare, so a clone keeps the
    generator's state (``rng_snapshot()``) in ``_rng_state`` and ``rng`` builds the
    generator from it on first use.
    """

    _rng: np.random.Generator | None = None
    _rng_state: dict[str, Any] | None = None

    @property
    def rng(self) -> np.random.Generator:
        if self._rng is None:
            self._rng = rng_in_state(self._rng_state)
            self._rng_state = None
        return self._rng

    @rng.setter
    def rng(self, generator: np.random.Generator) -> None:
        self._rng = generator
        self._rng_state = None

    def rng_snapshot(self) -> dict[str, Any]:
        """The generator's state, without building a generator a clone has not drawn from."""
        return self._rng.bit_generator.state if self._rng is not None else self._rng_state
