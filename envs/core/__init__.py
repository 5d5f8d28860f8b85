"""What every MeepleZoo game shares: the engine interface, the AEC env, the kit."""

from meeplezoo.envs.core.errors import (
    ConfigError,
    CorruptStateError,
    IllegalActionError,
    MeepleZooError,
    UnknownEnvError,
)
from meeplezoo.envs.core.game import TERMINAL, Game, GameState, Option, state_from_saved

__all__ = [
    "TERMINAL",
    "ConfigError",
    "CorruptStateError",
    "Game",
    "GameState",
    "IllegalActionError",
    "MeepleZooError",
    "Option",
    "UnknownEnvError",
    "state_from_saved",
]
