"""Errors raised for bad input, each saying what was wrong and what is allowed."""

from __future__ import annotations


class MeepleZooError(Exception):
    """Base class of every error this package raises on purpose."""


class UnknownEnvError(MeepleZooError, KeyError):
    """An env name that is not registered."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class RetiredEnvError(UnknownEnvError):
    """An env id whose rules have changed since; the message names the new id."""


class ConfigError(MeepleZooError, ValueError):
    """A bad env or game configuration (player count, option name or value)."""


class IllegalActionError(MeepleZooError, ValueError):
    """An action that is not legal at the pending decision."""


class CorruptStateError(MeepleZooError, ValueError):
    """A saved state that cannot be loaded (wrong env, wrong version, damaged)."""


class EnvOrderError(MeepleZooError, RuntimeError):
    """An env used out of order: stepped before ``reset()`` or after every agent left."""
