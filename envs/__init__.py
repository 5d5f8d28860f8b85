"""MeepleZoo: PettingZoo AEC environments for modern board games.

    from meeplezoo import envs
    envs.list_envs()                      # ['asian_delivery_v1', ...]
    env = envs.make("chihou_sousei_v1", num_players=4)

Each env is also in PettingZoo's registry as ``meeplezoo/<name>``.
"""

from __future__ import annotations

import importlib
import re
from typing import Any

from meeplezoo.envs.core.errors import RetiredEnvError, UnknownEnvError
from meeplezoo.envs.core.game import Game

# env name -> game module; its env()/raw_env() come from envs.core.aec.env_functions
_MODULES = {
    "chihou_sousei_v1": "meeplezoo.envs.chihou_sousei",
    "asian_delivery_v1": "meeplezoo.envs.asian_delivery",
    "necropolis_railway_v1": "meeplezoo.envs.necropolis_railway",
    "hegemony_v1": "meeplezoo.envs.hegemony",
}

# Retired env id -> the id that replaced it.  An id changes whenever its rules do
# (each game's RULES.md has the version history); asking for an old one is an error
# that names the new one, as PettingZoo does for its retired versions.
_RETIRED = {
    "chihou_sousei_v0": "chihou_sousei_v1",
    "asian_delivery_v0": "asian_delivery_v1",
    "necropolis_railway_v0": "necropolis_railway_v1",
    "hegemony_v0": "hegemony_v1",
}


def retired() -> dict[str, str]:
    """Every retired env id and the id that replaced it."""
    return dict(_RETIRED)


def register(name: str, module: str) -> None:
    """Add an env: ``module`` must define ``env`` and ``raw_env`` (see envs.core.aec)."""
    _MODULES[name] = module


def list_envs() -> list[str]:
    """Names of every registered env."""
    return sorted(_MODULES)


def _module(name: str) -> Any:
    if name in _RETIRED:
        raise RetiredEnvError(
            f"env {name!r} is retired: its rules changed; use {_RETIRED[name]!r} "
            f"(its RULES.md version history says what changed)"
        )
    if name not in _MODULES:
        raise UnknownEnvError(f"unknown env {name!r}; available envs: {', '.join(list_envs())}")
    return importlib.import_module(_MODULES[name])


def game_class(name: str) -> type[Game]:
    """The engine's Game class of an env."""
    return _module(name).raw_env.game_class


def make_game(name: str, **config: Any) -> Game:
    """The plain engine (no PettingZoo) for ``num_players`` and options."""
    return game_class(name)(**config)


def make(name: str, **config: Any) -> Any:
    """The wrapped PettingZoo AEC env (``env()`` of the game's module)."""
    return _module(name).env(**config)


def make_raw(name: str, **config: Any) -> Any:
    """The unwrapped AEC env, with ``state``, ``save_state`` and ``action_name``."""
    return _module(name).raw_env(**config)


def presenter(name: str) -> Any:
    """The presentation layer of an env (its package's ``present.PRESENTER``: prompts, labels,
    card text and the log, for the terminal and the web table); the plain
    ``envs.core.present.Presenter`` for a game without one."""
    _module(name)
    try:
        module = importlib.import_module(_MODULES[name] + ".present")
    except ModuleNotFoundError as exc:
        if exc.name != _MODULES[name] + ".present":
            raise
        from meeplezoo.envs.core.present import Presenter

        return Presenter()
    return module.PRESENTER


def _register_with_pettingzoo() -> None:
    try:
        from pettingzoo import register
    except ImportError:  # older PettingZoo without a registry
        return
    from pettingzoo import aec_registry

    for name, module in _MODULES.items():
        env_id = f"meeplezoo/{name}"
        if re.sub(r"_v(\d+)$", r"-v\1", env_id) not in aec_registry:
            register("aec", env_id, entry_point=f"{module}:env")


def seat_env_id(name: str) -> str:
    """The gymnasium id of an env's single-seat view: ``chihou_sousei_v1`` ->
    ``meeplezoo/ChihouSouseiSeat-v1`` (``training.seat_env.SeatEnv``; needs the train extra)."""
    base, version = name.rsplit("_v", 1)
    camel = "".join(part.capitalize() for part in base.split("_"))
    return f"meeplezoo/{camel}Seat-v{version}"


# The learner's role a registered seat env of an asymmetric game takes when neither a role
# nor a seat is given (its seats have different action catalogues and observations, so a
# seat env is one role's view): ``gymnasium.make("meeplezoo/HegemonySeat-v1",
# role="state")`` or ``seat=3`` picks another.  Written here, not read from the game, so
# that registering imports no game; a test checks each against the game's roles.
SEAT_ENV_ROLES: dict[str, str] = {"hegemony_v1": "working_class"}


def _register_with_gymnasium() -> None:
    """Gymnasium views, registered by entry point (nothing is imported until made):
    each env's single seat (an asymmetric game's: one role's, ``role=``), and the
    Necropolis solo game."""
    import gymnasium

    for name in _MODULES:
        if seat_env_id(name) not in gymnasium.registry:
            kwargs: dict[str, Any] = {"env_name": name}
            if name in SEAT_ENV_ROLES:
                kwargs["default_role"] = SEAT_ENV_ROLES[name]
            gymnasium.register(id=seat_env_id(name),
                               entry_point="meeplezoo.training.fitting.seat_env:SeatEnv",
                               kwargs=kwargs)
    solo = "meeplezoo/NecropolisRailwaySolo-v1"
    if solo not in gymnasium.registry:
        gymnasium.register(
            id=solo, entry_point="meeplezoo.envs.necropolis_railway.solo:NecropolisSoloEnv")


_register_with_pettingzoo()
_register_with_gymnasium()

__all__ = ["game_class", "list_envs", "make", "make_game", "make_raw", "presenter", "register",
           "seat_env_id"]
