"""An opponent spec made into the bot of a seat: the one way every seat-taking command
(``meeplezoo play``'s terminal table, ``meeplezoo serve``'s web tables) turns what a person
typed into a player.

A spec is a built-in bot (``random``, ``heuristic``), a checkpoint or team folder, a zoo
name ``<env>/<name>``, either of those at a level (``<zoo name>@hard``, ``bots.LEVELS``),
or a Python agent ``package.module:attribute`` (``specs.FORMS``).  ``resolve_opponent``
checks it and names the ``make_bot`` spec it stands for; ``make_opponent`` makes the bot.
Above ``bots`` (it makes bots); nothing in ``agents/`` imports it.
"""

from __future__ import annotations

from typing import Any

from meeplezoo.envs.core.errors import ConfigError
from meeplezoo.envs.core.game import Game
from meeplezoo.training.agents.bots import make_bot, split_level
from meeplezoo.training.agents.opponents import CheckpointError, checkpoint_folder, import_agent
from meeplezoo.training.agents.specs import is_python_spec

BUILT_IN = ("random", "heuristic")


def resolve_opponent(spec: str) -> str:
    """A ``make_bot`` spec for ``spec``: a built-in bot, the folder of a checkpoint given by
    path or by zoo name (``training.opponents.checkpoint_folder``, the one lookup that
    ``load`` uses too), with its level if it names one (``<zoo name>@hard``), or a Python
    agent ``package.module:attribute`` (checked to import and to play)."""
    if spec in BUILT_IN:
        return spec
    base, level = split_level(spec)
    if is_python_spec(base):
        import_agent(base)
        return base
    try:
        folder = str(checkpoint_folder(base))
    except CheckpointError as exc:
        raise ConfigError(f"opponent {spec!r} is not random, heuristic or "
                          f"package.module:attribute, and {exc}") from None
    return folder + (f"@{level}" if level else "")


def make_opponent(spec: str, game: Game, seed: int, seat: int) -> Any:
    """The bot that plays ``seat`` for ``spec`` (any opponent spec ``resolve_opponent``
    takes); a ``ConfigError`` or ``CheckpointError`` says why a spec cannot play."""
    return make_bot(resolve_opponent(spec), game, seed=seed, seat=seat)
