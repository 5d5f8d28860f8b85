"""Shared test set-up: the toy game is registered as an env for core and training tests."""

from meeplezoo import envs

envs.register("toy_v0", "tests.core.toy_game")
envs.register("toy_v1", "tests.core.toy_game_v1")
envs.register("toy_roles_v0", "tests.core.roles_toy")
