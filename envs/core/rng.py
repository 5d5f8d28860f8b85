"""Seeded chance for engines: a numpy Generator that survives a JSON round trip."""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.core.errors import CorruptStateError


def new_rng(seed: int | None) -> np.random.Generator:
    """A PCG64 generator; ``None`` draws fresh entropy."""
    return np.random.Generator(np.random.PCG64(seed))


def rng_to_dict(rng: np.random.Generator) -> dict[str, Any]:
    """JSON-safe snapshot of the generator (Python ints stay exact in JSON)."""
    return rng.bit_generator.state


def rng_from_dict(data: Any) -> np.random.Generator:
    if not isinstance(data, dict) or data.get("bit_generator") != "PCG64":
        raise CorruptStateError(f"saved RNG state must be a PCG64 state dict, got {data!r:.80}")
    bit_generator = np.random.PCG64()
    try:
        bit_generator.state = data
    except (TypeError, ValueError, KeyError) as exc:
        raise CorruptStateError(f"saved RNG state is damaged: {exc}") from exc
    return np.random.Generator(bit_generator)
