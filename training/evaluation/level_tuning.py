"""``meeplezoo levels --tune LEVEL.SETTING=VALUE``: write a card's own tuning of its search
levels (its ``level_overrides`` block, read by ``zoo.tuned_level``) as a recorded step.

    meeplezoo levels --checkpoint chihou_sousei_v1/ppo_league --tune hard.c_scale=1.0

Why a command and not a hand edit: a card's ``reproduce`` list must remake the card from
its steps alone, and a tuning is part of what the card ships (its search levels play with
it, its figures are measured with it, the benchmark's pins read it).  The command checks
the block as every reader will (``tuned_level``) before anything is written, adds its own
step to the card's ``reproduce`` list, and says which recorded figures the tuning leaves
outdated (they name the settings they ran with; ``meeplezoo levels ... --record`` measures
them again).  ``SETTING=default`` removes a tuning: the level's table value holds again.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from meeplezoo.envs.core.errors import ConfigError
from meeplezoo.training.agents.zoo import TUNING_KEY, outdated_settings, tuned_level
from meeplezoo.training.cli import add_reproduce_step

DEFAULT = "default"  # SETTING=default: back to the level's table value
REMOVE = object()  # what ``default`` parses to (never a setting's value, whatever its kind)


def parse_tuning(words: list[str], levels: Mapping[str, Mapping[str, Any]]
                 ) -> dict[tuple[str, str], Any]:
    """``LEVEL.SETTING=VALUE`` words -> ``{(level, setting): value}``; VALUE is read as JSON
    (``1.0``, ``64``, ``true``, ``"x"``), or ``default`` (``REMOVE``: drop the tuning).
    Only a search level's existing settings (``play`` excepted) may be named, once each."""
    changes: dict[tuple[str, str], Any] = {}
    for word in words:
        target, equals, text = word.partition("=")
        level, dot, setting = target.partition(".")
        if not equals or not dot or not level or not setting or not text:
            raise ConfigError(f"--tune {word!r}: write LEVEL.SETTING=VALUE, e.g. "
                              "hard.c_scale=1.0 (or hard.c_scale=default to remove a tuning)")
        searched = [name for name, table in levels.items() if table.get("play") == "search"]
        if level not in searched:
            raise ConfigError(f"--tune {word!r}: {level!r} is not a search level; the search "
                              f"levels are {', '.join(searched)}")
        allowed = sorted(k for k in levels[level] if k != "play")
        if setting not in allowed:
            raise ConfigError(f"--tune {word!r}: @{level} has no setting {setting!r}; its "
                              f"settings are {', '.join(allowed)}")
        if (level, setting) in changes:
            raise ConfigError(f"--tune names {level}.{setting} twice")
        if text == DEFAULT:
            changes[(level, setting)] = REMOVE
            continue
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            raise ConfigError(f"--tune {word!r}: {text!r} is not a value; write a number "
                              "(1.0, 64), true or false, a quoted string, or default") from None
        if isinstance(value, float) and not math.isfinite(value):
            raise ConfigError(f"--tune {word!r}: {text!r} is not a finite number")
        changes[(level, setting)] = value
    if not changes:
        raise ConfigError("--tune: name at least one LEVEL.SETTING=VALUE")
    return changes


def tuned_block(card: Mapping[str, Any], changes: Mapping[tuple[str, str], Any],
                levels: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """The card's ``level_overrides`` block with ``changes`` made: a value equal to the
    table's, or ``REMOVE`` (``default``), removes the setting (a level left with none leaves
    the block), so the block holds only what differs from the table.  Checked by
    ``tuned_level`` for every level it names (its ``CheckpointError`` says what is allowed)."""
    old = card.get(TUNING_KEY) or {}
    if not isinstance(old, Mapping):
        raise ConfigError(f"{card.get('name', 'the card')}: its {TUNING_KEY} is "
                          f"{type(old).__name__}, not a block of levels; mend it by hand first")
    block = {level: dict(settings) for level, settings in old.items()}
    for (level, setting), value in changes.items():
        settings = block.setdefault(level, {})
        if value is REMOVE or (value == levels[level][setting]
                                and type(value) is type(levels[level][setting])):
            settings.pop(setting, None)
        else:
            settings[setting] = value
    block = {level: settings for level, settings in block.items() if settings}
    for level in block:
        tuned_level(levels, level, {"name": card.get("name", "the card"), TUNING_KEY: block})
    return block


def outdated_lines(card: Mapping[str, Any], levels: Mapping[str, Mapping[str, Any]]
                   ) -> list[str]:
    """One line per recorded figure (level, player count) that the card's tuning leaves
    measured with other settings."""
    out = []
    for level, counts in (card.get("levels") or {}).items():
        if level not in levels or not isinstance(counts, Mapping):
            continue
        settings = tuned_level(levels, level, card)
        for count, figures in counts.items():
            keys = outdated_settings(figures, settings)
            if keys:
                out.append(f"@{level} {count}: its figures ran with other {', '.join(keys)}; "
                           f"measure again with meeplezoo levels ... --levels {level} --record")
    return out


def write_tuning(card_path: Path, changes: Mapping[tuple[str, str], Any],
                 levels: Mapping[str, Mapping[str, Any]], command: str,
                 commit: str | None) -> list[str]:
    """Write the tuned block into the card at ``card_path`` with its ``tune`` step (after
    every step of the list: it tunes the network the list made); the lines to print."""
    card = json.loads(card_path.read_text())
    block = tuned_block(card, changes, levels)
    if block:
        card[TUNING_KEY] = block
    else:
        card.pop(TUNING_KEY, None)
    said = ", ".join(f"{level}.{setting}={'the table value' if value is REMOVE else value}"
                     for (level, setting), value in changes.items())
    add_reproduce_step(card, "tune", command, f"tune the search levels: {said}", last=True,
                       code_commit=commit)
    card_path.write_text(json.dumps(card, indent=2, ensure_ascii=False) + "\n")
    lines = [f"{card_path}: {TUNING_KEY} = {json.dumps(block) if block else 'none'}"]
    return lines + outdated_lines(card, levels)
