"""The model zoo: the shipped opponents, listed and found by name from anywhere.

    from meeplezoo.training.agents.opponents import list_zoo, load
    for entry in list_zoo():
        print(entry.name, entry.headline())
    agent = load("chihou_sousei_v1/ppo_league")      # a zoo name, from any directory

    meeplezoo zoo                              # the same list in the terminal

What a network's difficulty level may be called comes from its card's recorded figures
alone (``level_claim``): stronger than the network only where its paired gain's 95% interval
lies above 0 at that player count.  ``agent_offers`` is the list of agents that can play a
table of a given player count, levels labelled so, which the web lobby and ``meeplezoo play
--list-opponents`` show.

A zoo name is ``<env>/<name>``: a folder of the ``meeplezoo.checkpoints`` data package (see its
docstring for the packaging), which ``importlib.resources`` finds in a clone and in a
wheel install alike.  A checkpoint folder given by path keeps working and wins over a
zoo name of the same spelling.  Torch-free: numpy and the standard library only.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.resources
import json
import math
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from meeplezoo.envs.core.command import run_command
from meeplezoo.envs.core.errors import MeepleZooError

ZOO_PACKAGE = "meeplezoo.checkpoints"
TEAM_FILE = "team.json"
CARD_FILE = "card.json"
# what a card's evaluation keeps as headline figures (the rest is in the card itself)
WIN_FIGURES = ("players", "games", "win_rate", "win_rate_ci95")
SCORE_FIGURES = ("games", "mean_score", "mean_score_ci95")
BUILT_IN_FIELDS = ("random", "heuristic")


def percent(share: float) -> str:
    """``0.9925`` -> ``99.3%``: rounded half up, as the README's tables are (a float
    format rounds 0.9925, stored as 0.99249..., down)."""
    return f"{math.floor(share * 1000 + 0.5 + 1e-9) / 10:.1f}%"


class CheckpointError(MeepleZooError, ValueError):
    """A checkpoint that is missing, damaged or made for another env or size."""


def zoo_root() -> Path:
    """The folder that holds the shipped opponents: the ``meeplezoo.checkpoints`` data
    package through ``importlib.resources`` (a wheel install, or a clone's editable one),
    else the ``checkpoints/`` beside ``training/`` in a clone.  Inside the ``meeplezoo``
    namespace, another project's ``checkpoints`` package can never be taken for it."""
    try:
        root = importlib.resources.files(importlib.import_module(ZOO_PACKAGE))
    except ImportError:
        root = None
    if isinstance(root, os.PathLike):  # installed as files (a wheel is unpacked)
        return Path(root)
    return Path(__file__).resolve().parents[2] / "checkpoints"


def _is_checkpoint(folder: Path) -> bool:
    return (folder / CARD_FILE).is_file() or (folder / TEAM_FILE).is_file()


def zoo_folder(name: str) -> Path | None:
    """The folder of zoo name ``<env>/<name>`` (or a team member ``<env>/<team>/<role>``),
    or None when nothing is shipped under that name."""
    relative = PurePosixPath(str(name).replace(os.sep, "/"))
    if len(relative.parts) < 2 or relative.is_absolute() or ".." in relative.parts:
        return None
    folder = zoo_root().joinpath(*relative.parts)
    return folder if _is_checkpoint(folder) else None


def find_checkpoint(spec: str | os.PathLike) -> Path | None:
    """A checkpoint spec as a path: an existing path as it is, else a zoo name's folder,
    else None."""
    path = Path(spec)
    if path.exists():
        return path
    return zoo_folder(os.fspath(spec))


def checkpoint_folder(spec: str | os.PathLike) -> Path:
    """Like ``find_checkpoint``, but a spec that is neither is an error naming the zoo."""
    found = find_checkpoint(spec)
    if found is None:
        shipped = ", ".join(entry.name for entry in list_zoo()) or "none"
        raise CheckpointError(
            f"{os.fspath(spec)}: not a checkpoint folder (a checkpoint folder needs card.json "
            f"and policy.onnx) nor a zoo name <env>/<name>; shipped: {shipped}"
        )
    return found


@dataclass(frozen=True)
class ZooEntry:
    """One shipped opponent and the headline figures of its card.

    ``figures`` maps ``vs_random`` and ``vs_heuristic`` to the win rate against that
    field with its 95% interval (``players``, ``games``, ``win_rate``,
    ``win_rate_ci95``), and, for one that plays solo, ``solo`` to its mean solo score
    with its interval (and ``solo_random``, ``solo_heuristic`` to the bots' on the same
    deals); only what the card has.  A team's ``member_figures`` hold each role's member's
    figures (its card's, played in that role's seat), which its headline lists when the team
    card has none of its own.
    """

    name: str  # the zoo name: what load() and every --opponents/--agents take
    env: str
    player_counts: tuple[int, ...]
    role: str | None  # the seat role it plays; None: any (a team plays every role)
    kind: str  # "policy" or "team"
    path: Path
    roles: tuple[str, ...] = ()  # a team's roles
    figures: dict[str, dict[str, Any]] = field(default_factory=dict)
    member_figures: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    levels: dict[str, dict[str, Any]] = field(default_factory=dict)  # card's ``levels``
    level_overrides: dict[str, dict[str, Any]] = field(default_factory=dict)  # tuned_level

    def headline_lines(self) -> list[str]:
        """The headline, a line per role for a team without figures of its own
        (``role: <its member's headline>``), else one line."""
        if not self.figures and self.member_figures:
            return [f"{role}: {figures_text(figures)}"
                    for role, figures in self.member_figures.items()]
        return [figures_text(self.figures)]

    def headline(self) -> str:
        """``vs random 99.3% [98.5-99.6], vs heuristic 31.9% [29.0-34.8] (4 players)``;
        a team's member lines joined by ``; ``."""
        return "; ".join(self.headline_lines())

    def plays(self, players: int) -> bool:
        """Whether it can take a seat at a table of ``players`` (its card's player counts;
        a team's: those all its members play)."""
        return players in self.player_counts

    def claim(self, level: str, players: int,
              settings: Mapping[str, Any] | None = None) -> LevelClaim:
        """What its card's record allows claiming of ``level`` at ``players`` players (with
        ``settings``: figures recorded with other settings are outdated)."""
        return level_claim({"levels": self.levels}, level, players, settings)

    def level_settings(self, levels: Mapping[str, Mapping[str, Any]],
                       level: str) -> dict[str, Any]:
        """``levels[level]`` as this network plays it: with its card's own tuning
        (``tuned_level``)."""
        return tuned_level(levels, level, {"name": self.name,
                                           TUNING_KEY: self.level_overrides or None})

    def level_lines(self) -> list[str]:
        """Each recorded level and player count in words (``LevelClaim.label``), with its
        cost a decision and, where rated, its Elo."""
        lines = []
        for claim in level_claims({"levels": self.levels}):
            figures = self.levels[claim.level][f"{claim.players}p"]
            cost = (figures.get("cost") or {}).get("median_s")
            lines.append(claim.label + ("" if cost is None else f", {cost:.3f} s a decision")
                         + elo_text(figures.get("arena")))
        return lines


def figures_text(figures: dict[str, dict[str, Any]]) -> str:
    """One card's headline figures as text (see ``ZooEntry.headline``)."""
    parts = []
    for key in ("vs_random", "vs_heuristic"):
        if key in figures:
            f = figures[key]
            low, high = f["win_rate_ci95"]
            parts.append(f"{key.replace('_', ' ')} {percent(f['win_rate'])} "
                         f"[{percent(low)}-{percent(high)}] ({f['players']}p, "
                         f"{f['games']} games)")
    if "solo" in figures:
        f = figures["solo"]
        low, high = f["mean_score_ci95"]
        parts.append(f"solo score {f['mean_score']:.1f} [{low:.1f}-{high:.1f}]")
    return ", ".join(parts) or "no evaluation in its card"


def gain_text(strength: dict[str, Any]) -> str:
    """A level's paired gain over its network alone: in win share, or alone in score."""
    if "win_share_difference" in strength:
        low, high = strength["win_share_difference_ci95"]
        return (f"win share {100 * strength['win_share_difference']:+.1f} points "
                f"[{100 * low:+.1f} to {100 * high:+.1f}]")
    low, high = strength["score_difference_ci95"]
    return f"score {strength['score_difference']:+.1f} [{low:+.1f} to {high:+.1f}]"


def levels_text(levels: dict[str, dict[str, Any]]) -> str:
    """A card's measured levels (``meeplezoo levels --record``) as one line: each level's
    gain over the network alone on the same deals, and its median cost a decision."""
    return "; ".join(f"@{level} {players}: {gain_text(f['strength'])} over the network, "
                     f"{f['cost']['median_s']:.3f} s a decision{elo_text(f.get('arena'))}"
                     for level, counts in levels.items() for players, f in counts.items())


def elo_text(rated: dict[str, Any] | None) -> str:
    """A level's arena rating (``meeplezoo levels --arena --record``) and its table's."""
    if not rated:
        return ""
    low, high = rated["elo_ci95"]
    others = ", ".join(f"{row['agent']} {row['elo']:.0f}" for row in rated["table"]
                       if row["agent"] != rated["agent"])
    return (f", Elo {rated['elo']:.0f} [{low:.0f}-{high:.0f}] over {rated['games']} of a "
            f"{rated['table_games']}-game table (table: {others})")


# What a level's record allows saying of it (``level_claim``): its paired gain over the
# network alone has its 95% interval above 0, below 0, across 0, or there is no figure.
STRONGER = "stronger"
WEAKER = "weaker"
LEVEL = "level"
NOT_MEASURED = "not measured"
OUTDATED = "outdated"  # measured, but with search settings the level no longer has
VERDICTS = (STRONGER, WEAKER, LEVEL, NOT_MEASURED, OUTDATED)
HARD = "hard"  # the level @expert must beat, on the record, to be called harder than it
EXPERT = "expert"


def players_text(players: int) -> str:
    """``alone`` for one player, else ``at 4 players``: where a figure was measured."""
    return "alone" if players == 1 else f"at {players} players"


def counts_text(counts: Iterable[int]) -> str:
    """``(1, 2)`` -> ``1 or 2 players``; ``(1,)`` -> ``1 player (solo)``: what an agent plays."""
    ordered = sorted(counts)
    if not ordered:
        return "no player count"
    if ordered == [1]:
        return "1 player (solo)"
    numbers = ", ".join(map(str, ordered[:-1]))
    return f"{numbers + ' or ' if numbers else ''}{ordered[-1]} players"


@dataclass(frozen=True)
class LevelClaim:
    """What may be claimed of one level of one network at one player count, and the figure
    that says so: the lobby, the zoo listing and ``play`` word a level by it, so a level is
    called harder than its network only where its card measured it so."""

    level: str
    players: int
    verdict: str  # one of VERDICTS
    gain: str = ""  # the deciding figure (``gain_text``), "" when not measured
    games: int | None = None  # the paired deals behind it
    # @expert only: True where its interval lies wholly above @hard's recorded gain at this
    # count (it may be called harder than @hard); False where both are measured and it does
    # not; None where there is nothing to compare it with (any other level, or @hard unmeasured)
    above_hard: bool | None = None
    hard_gain: str = ""  # @hard's figure beside @expert's, when both are recorded

    @property
    def stronger(self) -> bool:
        """Whether the level may be offered as harder than the network at this count."""
        return self.verdict == STRONGER

    @property
    def text(self) -> str:
        """The claim in words with its figure, without the level's name:
        ``weaker than the network at 4 players: win share -19.2 points [-30.8 to -8.3] over
        60 paired deals``."""
        where = players_text(self.players)
        if self.verdict == NOT_MEASURED:
            return f"not measured {where}"
        if self.verdict == OUTDATED:
            deals = f" over {self.games} paired deals" if self.games else ""
            return (f"not measured {where} with its current search settings (an earlier "
                    f"search measured {self.gain}{deals})")
        said = {STRONGER: "stronger than the network", WEAKER: "weaker than the network",
                LEVEL: "no measured difference from the network"}[self.verdict]
        if self.above_hard:
            said = "stronger than the network and than @hard"
        deals = f" over {self.games} paired deals" if self.games else ""
        text = f"{said} {where}: {self.gain}{deals}"
        if self.above_hard is False:
            text += f"; not measured stronger than @hard (@hard: {self.hard_gain})"
        return text

    @property
    def label(self) -> str:
        """``@hard: `` and the claim (``text``)."""
        return f"@{self.level}: {self.text}"


def _deciding_figure(strength: Mapping[str, Any], players: int,
                     where: str) -> tuple[float, float, float] | None:
    """The difference that decides a level's claim and its interval: win share at two or
    more players (what a contest is won by), mean score alone.  None: not recorded."""
    key = "score_difference" if players == 1 else "win_share_difference"
    if key not in strength or f"{key}_ci95" not in strength:
        return None
    value, interval = strength[key], strength[f"{key}_ci95"]
    try:
        low, high = (float(x) for x in interval)
        value = float(value)
    except (TypeError, ValueError) as exc:
        raise CheckpointError(f"{where}: {key} and its 95% interval must be numbers, got "
                              f"{value!r} and {interval!r} ({exc})") from None
    if not low <= high or any(math.isnan(x) for x in (value, low, high)):
        raise CheckpointError(f"{where}: {key}_ci95 {interval!r} is not an interval")
    return value, low, high


def _measured(card: Mapping[str, Any], level: str,
              players: int) -> tuple[Mapping[str, Any], tuple[float, float, float]] | None:
    """A level's recorded strength at ``players`` and its deciding figure, or None."""
    levels = card.get("levels") or {}
    if not isinstance(levels, Mapping):
        raise CheckpointError(f"the card's levels must map a level to its figures, got "
                              f"{type(levels).__name__}")
    counts = levels.get(level) or {}
    figures = counts.get(f"{players}p") if isinstance(counts, Mapping) else None
    strength = figures.get("strength") if isinstance(figures, Mapping) else None
    if not isinstance(strength, Mapping):
        return None
    found = _deciding_figure(strength, players, f"levels.{level}.{players}p.strength")
    return None if found is None else (strength, found)


TUNING_KEY = "level_overrides"  # a card's own tuning of its search levels (``tuned_level``)


def tuned_level(levels: Mapping[str, Mapping[str, Any]], level: str,
                card: Mapping[str, Any] | None) -> dict[str, Any]:
    """``levels[level]`` (``levels``: ``bots.LEVELS``) with ``card``'s own tuning of that
    level: its ``level_overrides`` block, ``{level: {setting: value}}``.

    Why a card and not the level: how far a search may trust its values over its prior
    (``c_scale``), or how many simulations pay, depends on the network's prior and value,
    not on the game's name; a card that measured a better setting carries it, and every
    other network keeps its level (and the figures recorded with it) as it was.  Only a
    search level's existing settings may be tuned, to a value of the same kind (``play``
    never: that is what the level is); anything else is a ``CheckpointError`` that says what
    was wrong and what is allowed.  ``card`` None or without the block: ``levels[level]``
    as it is."""
    settings = levels[level]
    tuned = dict(settings)
    block = (card or {}).get(TUNING_KEY)
    if block is None:
        return tuned
    name = (card or {}).get("name", "a card")
    if not isinstance(block, Mapping):
        raise CheckpointError(f"{name}: {TUNING_KEY} must map a level to its settings, got "
                              f"{type(block).__name__}")
    for tuned_name, block_settings in block.items():
        if tuned_name not in levels:
            raise CheckpointError(f"{name}: {TUNING_KEY} tunes {tuned_name!r}, not a level; "
                                  f"the levels are {', '.join(levels)}")
        if levels[tuned_name].get("play") != "search":
            raise CheckpointError(f"{name}: {TUNING_KEY} tunes {tuned_name!r}, which is not "
                                  "a search level; only a search level's settings can be tuned")
        if not isinstance(block_settings, Mapping) or not block_settings:
            raise CheckpointError(f"{name}: {TUNING_KEY}[{tuned_name!r}] must map settings "
                                  f"to values, got {block_settings!r}")
    changes = block.get(level)
    if changes is None:
        return tuned
    allowed = sorted(k for k in settings if k != "play")
    for key, value in changes.items():
        if key not in allowed:
            raise CheckpointError(f"{name}: {TUNING_KEY}[{level!r}] names {key!r}; a search "
                                  f"level's settings are {', '.join(allowed)}")
        wrong = _tuning_error(value, settings[key])
        if wrong:
            raise CheckpointError(f"{name}: {TUNING_KEY}[{level!r}][{key!r}] must be {wrong}, "
                                  f"got {value!r}")
        tuned[key] = value
    return tuned


def _tuning_error(value: Any, default: Any) -> str | None:
    """What a tuned setting must be to stand for ``default`` (None: ``value`` is that)."""
    if isinstance(default, (bool, str)):
        kind = type(default).__name__
        return None if type(value) is type(default) else f"a {kind}, like its default {default!r}"
    if isinstance(default, int):
        ok = isinstance(value, int) and not isinstance(value, bool) and value >= 1
        return None if ok else f"a whole number of 1 or more, like its default {default}"
    ok = (isinstance(value, (int, float)) and not isinstance(value, bool)
          and math.isfinite(value) and value >= 0)
    return None if ok else f"a finite number of 0 or more, like its default {default}"


def outdated_settings(figures: Mapping[str, Any], settings: Mapping[str, Any]) -> list[str]:
    """The keys of a level's current ``settings`` that its recorded figures ran with
    otherwise (a record made before a setting existed ran without it: outdated too)."""
    recorded = figures.get("settings") if isinstance(figures, Mapping) else None
    recorded = recorded if isinstance(recorded, Mapping) else {}
    return [key for key, value in settings.items() if recorded.get(key) != value]


def level_claim(card: Mapping[str, Any], level: str, players: int,
                settings: Mapping[str, Any] | None = None) -> LevelClaim:
    """What ``card`` (a checkpoint's card or a team's team.json, as a dict) allows claiming
    of ``level`` at ``players`` players, from its recorded ``levels`` figures
    (``meeplezoo levels --record``).

    The deciding figure is the level's paired gain over the network alone on the same
    deals: in win share at two or more players, in mean score alone.  Its 95% interval wholly
    above 0 is ``stronger``, wholly below ``weaker``, touching or across 0 ``level``; no such
    figure at that count is ``not measured``.  Only ``stronger`` may be offered as harder
    than the network.  @expert is compared with @hard as well: there is no paired figure of
    the two, so it is called harder than @hard only where its interval lies wholly above
    @hard's (then its gain exceeds @hard's, and the difference could not be 0 at 95%).
    With ``settings`` (the level's settings today, ``bots.LEVELS[level]``), figures recorded
    with other settings are ``outdated``: they describe a search the level no longer runs.
    A damaged figure is a ``CheckpointError`` naming it; bad arguments a ``ValueError``.
    """
    if not isinstance(card, Mapping):
        raise TypeError(f"card must be a card's dict, got {type(card).__name__}")
    if not isinstance(level, str) or not level:
        raise ValueError(f"level must be a level's name (easy, hard, ...), got {level!r}")
    if isinstance(players, bool) or not isinstance(players, int) or players < 1:
        raise ValueError(f"players must be a player count of 1 or more, got {players!r}")
    found = _measured(card, level, players)
    if found is None:
        return LevelClaim(level, players, NOT_MEASURED)
    strength, (value, low, high) = found
    verdict = STRONGER if low > 0 else WEAKER if high < 0 else LEVEL
    key = "score_difference" if players == 1 else "win_share_difference"
    gain = gain_text({key: value, f"{key}_ci95": [low, high]})
    if settings is not None and outdated_settings(
            card["levels"][level][f"{players}p"], settings):
        games = strength.get("games")
        return LevelClaim(level, players, OUTDATED, gain,
                          games if isinstance(games, int) else None)
    games = strength.get("games")
    games = games if isinstance(games, int) and not isinstance(games, bool) else None
    above_hard, hard_gain = None, ""
    if level == EXPERT and verdict == STRONGER:
        hard = _measured(card, HARD, players)
        if hard is not None:
            _, (hard_value, hard_low, hard_high) = hard
            above_hard = low > hard_high
            hard_gain = gain_text({key: hard_value, f"{key}_ci95": [hard_low, hard_high]})
    return LevelClaim(level, players, verdict, gain, games, above_hard, hard_gain)


def level_claims(card: Mapping[str, Any]) -> list[LevelClaim]:
    """The claim of every level and player count ``card`` records, in its order."""
    levels = card.get("levels") or {}
    claims = []
    for level, counts in levels.items() if isinstance(levels, Mapping) else ():
        for count in counts if isinstance(counts, Mapping) else ():
            digits = str(count)[:-1]
            if str(count) == f"{digits}p" and digits.isdigit() and str(int(digits)) == digits:
                claims.append(level_claim(card, level, int(digits)))
    return claims


def headline_figures(evaluation: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """A card's ``evaluation`` cut to its headline figures (see ``ZooEntry``)."""
    figures: dict[str, dict[str, Any]] = {}
    for key, value in evaluation.items():
        if key.startswith("vs_") and isinstance(value, dict):
            figures[key] = {k: value[k] for k in WIN_FIGURES if k in value}
    for agent, value in (evaluation.get("solo") or {}).items():
        if isinstance(value, dict):
            key = f"solo_{agent}" if agent in BUILT_IN_FIELDS else "solo"
            figures[key] = {k: value[k] for k in SCORE_FIGURES if k in value}
    return figures


def card_file(folder: Path) -> Path:
    """The file that says what a checkpoint folder is: a team's ``team.json`` (one policy
    per role, each in a member folder with its own ``card.json``), else ``card.json`` (one
    network; it need not exist: its reader says what is missing).  Every reader asks this one
    function, so a folder cannot be a team to one command and a network to another; a folder
    holding both files is a ``CheckpointError`` for the same reason."""
    team, card = folder / TEAM_FILE, folder / CARD_FILE
    if team.is_file() and card.is_file():
        raise CheckpointError(f"{folder} holds both {CARD_FILE} and {TEAM_FILE}: a checkpoint "
                              f"folder is one network ({CARD_FILE}) or a team of one network "
                              f"per role ({TEAM_FILE}, its members in folders of their own), "
                              "never both")
    return team if team.is_file() else card


def read_card(folder: Path) -> dict[str, Any]:
    """The card of a checkpoint folder (``card_file``: ``card.json``, or a team's
    ``team.json``); a missing or unreadable one is a ``CheckpointError`` naming it."""
    path = card_file(folder)
    try:
        card = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise CheckpointError(f"{path}: no readable card ({exc})") from exc
    if not isinstance(card, dict):
        raise CheckpointError(f"{path}: a card is a JSON object, got {type(card).__name__}")
    return card


def _entry(folder: Path, name: str) -> ZooEntry:
    """The zoo entry of a shipped folder (a checkpoint or a team)."""
    path = card_file(folder)
    try:
        if path.name == TEAM_FILE:
            team = json.loads(path.read_text())
            roles = tuple(team["roles"])
            counts: set[int] | None = None
            members = {}
            for role, sub in team["roles"].items():
                member = json.loads((folder / sub / CARD_FILE).read_text())
                member_counts = set(member.get("player_counts") or [])
                counts = member_counts if counts is None else counts & member_counts
                members[role] = headline_figures(member.get("evaluation") or {})
            return ZooEntry(name, str(team["env"]), tuple(sorted(counts or ())), None, "team",
                            folder, roles, headline_figures(team.get("evaluation") or {}),
                            {role: f for role, f in members.items() if f},
                            levels=dict(team.get("levels") or {}),
                            level_overrides=team.get(TUNING_KEY) or {})
        card = json.loads(path.read_text())
        role = card.get("role")
        return ZooEntry(name, str(card["env"]), tuple(card.get("player_counts") or ()), role,
                        "policy", folder, (role,) if role else (),
                        headline_figures(card.get("evaluation") or {}),
                        levels=dict(card.get("levels") or {}),
                        level_overrides=card.get(TUNING_KEY) or {})
    except (OSError, json.JSONDecodeError, KeyError, TypeError, AttributeError) as exc:
        raise CheckpointError(f"shipped opponent {name}: damaged card ({exc})") from exc


def list_zoo(env: str | None = None) -> list[ZooEntry]:
    """The shipped opponents (of ``env`` only, if given), by name: every
    ``<env>/<name>`` folder of the zoo with a card or a team file."""
    root = zoo_root()
    entries = []
    for folder in sorted(root.glob("*/*")):
        if folder.is_dir() and _is_checkpoint(folder):
            entry = _entry(folder, f"{folder.parent.name}/{folder.name}")
            if env is None or entry.env == env:
                entries.append(entry)
    return entries


def zoo_entry(name: str) -> ZooEntry | None:
    """The zoo entry of zoo name ``<env>/<name>`` (or a team member's), or None when
    nothing is shipped under that name."""
    folder = zoo_folder(name)
    return None if folder is None else _entry(folder, str(name).replace(os.sep, "/"))


@dataclass(frozen=True)
class AgentOffer:
    """One agent a table may seat, as the lobby and ``play --list-opponents`` offer it:
    its spec and its label, which for a level is what its card measured (``claim``)."""

    spec: str
    label: str
    claim: LevelClaim | None = None  # a level's; None: a bot or a network as it is

    def as_dict(self) -> dict[str, Any]:
        """The offer as the web API sends it."""
        return {"spec": self.spec, "label": self.label,
                "claim": None if self.claim is None else self.claim.verdict,
                "players": None if self.claim is None else self.claim.players}


BOT_LABELS = {"heuristic": "heuristic (the game's rule-based bot)",
              "random": "random (a uniformly random legal move)"}


def agent_offers(env: str, players: int,
                 levels: Iterable[str] | Mapping[str, Mapping[str, Any]]) -> list[AgentOffer]:
    """The agents that can play a table of ``env`` at ``players`` players: the built-in
    bots (they play every count), each shipped network or team whose card plays that count,
    and each of its ``levels`` (the names ``bots.LEVELS`` defines, in its order) that its card
    measured at that count, labelled by what it measured (``level_claim``).  A level not
    measured there is left out: it is not offered as anything, harder or not.  Given as a
    mapping (``bots.LEVELS``: name -> settings), a level measured with settings it no longer
    has (its card's own tuning included, ``tuned_level``) is offered as not measured with
    them, never as harder."""
    if isinstance(players, bool) or not isinstance(players, int) or players < 1:
        raise ValueError(f"players must be a player count of 1 or more, got {players!r}")
    offers = [AgentOffer(bot, BOT_LABELS[bot]) for bot in ("heuristic", "random")]
    names = tuple(levels)
    current = levels if isinstance(levels, Mapping) else {}
    for entry in list_zoo(env):
        if not entry.plays(players):
            continue
        kind = "team" if entry.kind == "team" else "network"
        offers.append(AgentOffer(entry.name, f"{entry.name} (the {kind} as it is)"))
        for level in names:
            claim = entry.claim(level, players, entry.level_settings(current, level)
                                if level in current else None)
            if claim.verdict != NOT_MEASURED:
                offers.append(AgentOffer(f"{entry.name}@{level}",
                                         f"{entry.name}@{level} — {claim.text}", claim))
    return offers


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="meeplezoo zoo",
                                     description="List the shipped opponents")
    parser.add_argument("--env", help="only this env's opponents")
    parser.add_argument("--json", action="store_true", help="print the list as JSON")
    args = parser.parse_args(argv)
    entries = list_zoo(args.env)
    if args.env and not entries:  # a typo must not read as "no opponents shipped"
        from meeplezoo import envs

        envs.game_class(args.env)  # an unknown env: its error names the envs
    if args.json:
        rows = [{"name": e.name, "env": e.env, "player_counts": list(e.player_counts),
                 "role": e.role, "kind": e.kind, "roles": list(e.roles), "figures": e.figures,
                 "member_figures": e.member_figures, "levels": e.levels,
                 "level_claims": [{"level": c.level, "players": c.players,
                                   "claim": c.verdict, "label": c.label}
                                  for c in level_claims({"levels": e.levels})]}
                for e in entries]
        print(json.dumps(rows, indent=2))
        return 0
    print(f"zoo: {zoo_root()}")
    for e in entries:
        players = ",".join(map(str, e.player_counts))
        plays = f"team of {', '.join(e.roles)}" if e.kind == "team" else f"role {e.role or 'any'}"
        print(f"  {e.name}  ({'solo' if players == '1' else players + ' players'}, {plays})")
        for line in e.headline_lines():
            print(f"      {line}")
        for line in e.level_lines():
            print(f"      {line}")
    if not entries:
        print("  (none)")
    return 0


if __name__ == "__main__":
    raise SystemExit(run_command(main))
