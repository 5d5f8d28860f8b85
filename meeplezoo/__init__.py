"""MeepleZoo: PettingZoo environments for modern board games, with the tools to train, rate
and ship AI opponents for them.  The one import name the distribution installs.

    import meeplezoo
    meeplezoo.list_envs()                          # ['asian_delivery_v1', ...]
    env = meeplezoo.make("chihou_sousei_v1", num_players=4)

The repository keeps its top-level folders (``envs/``, ``training/``, ``checkpoints/``);
``pyproject.toml`` maps them into this namespace as ``meeplezoo.envs``,
``meeplezoo.training`` and ``meeplezoo.checkpoints``.  Commands: ``meeplezoo <command>``
or ``python -m meeplezoo <command>`` (``meeplezoo --help`` lists them).
"""

from meeplezoo.envs import (
    game_class,
    list_envs,
    make,
    make_game,
    make_raw,
    register,
)

__version__ = "0.1.0"

__all__ = ["__version__", "game_class", "list_envs", "make", "make_game", "make_raw",
           "register"]
