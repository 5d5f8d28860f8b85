"""Bots from specs, for evaluation, training opponents and play.

``make_bot`` turns ``random``, ``heuristic``, a checkpoint folder or zoo name into a
``StateBot`` (a checkpoint with a look-ahead card plays its search), and
``OpponentPool`` draws the opponents of a training seat from weighted specs.
Layering: ``opponents`` (networks) <- ``search`` (look-ahead) <- ``bots``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from meeplezoo.envs.core.errors import ConfigError
from meeplezoo.envs.core.game import Game
from meeplezoo.training.agents.ismcts import ISMCTS, SearchBot, network_value
from meeplezoo.training.agents.opponents import (
    CheckpointError,
    OpponentSpec,
    PolicyBot,
    TeamBot,
    find_checkpoint,
    import_agent,
    load,
    network_bot,
    spec_role,
)
from meeplezoo.training.agents.remembered import remembered
from meeplezoo.training.agents.search import lookahead_bot
from meeplezoo.training.agents.specs import is_python_spec
from meeplezoo.training.agents.zoo import tuned_level

# Difficulty levels of a network opponent, named after the spec: ``<zoo name>@<level>``.
# A level is how the network plays: sampled from its policy (a weaker, human-friendly
# player), greedy (its best move: the plain spec), or an information-set search guided by
# it (``training.ismcts``) at a budget of simulations per decision.
# A search level departs from its network's best move on evidence only: no Gumbel noise at
# the root (``gumbel_scale`` 0: the candidates are the prior's top ones) and a departure
# needs its value ahead by one standard error (``min_evidence``).  With the noise, a search
# whose values did not separate its candidates played a sample of the prior, not its best:
# アジアンデリバリー's @hard departed from the network on 15.5% of its choices even with
# values that said nothing, and lost 19.2 points of win share to it (2026-12-03).
LEVELS: dict[str, dict[str, Any]] = {
    "easy": {"play": "sampled"},
    "medium": {"play": "greedy"},
    "hard": {"play": "search", "simulations": 16, "root": "gumbel", "considered": 4,
             "c_scale": 0.3, "normalise_q": False, "gumbel_scale": 0.0, "min_evidence": 1.0},
    "expert": {"play": "search", "simulations": 64, "root": "gumbel", "considered": 8,
               "c_scale": 0.3, "normalise_q": False, "gumbel_scale": 0.0,
               "min_evidence": 1.0},
}


def split_level(spec: OpponentSpec) -> tuple[OpponentSpec, str | None]:
    """``"x/y@hard"`` -> ``("x/y", "hard")``; a spec without a level is returned as it is.
    An unknown level is an error naming the levels."""
    if not isinstance(spec, str) or "@" not in spec:
        return spec, None
    base, level = spec.rsplit("@", 1)
    if level not in LEVELS:
        raise ConfigError(f"{spec!r}: unknown level {level!r}; the levels are "
                          f"{', '.join(LEVELS)} (e.g. {base}@hard)")
    if base in ("random", "heuristic"):
        raise ConfigError(f"{spec!r}: levels are for networks (a checkpoint, team or zoo "
                          f"name), not {base!r}")
    return base, level


def level_bot(base: OpponentSpec, level: str, game: Game, seed: int | None,
              seat: int | None) -> Any:
    """The network ``base`` playing at ``level`` (``LEVELS``, with its card's own tuning:
    ``zoo.tuned_level``)."""
    if LEVELS[level]["play"] != "search":
        return network_bot(base, game, seed, LEVELS[level]["play"] == "sampled", seat)
    agent = load(str(base))
    settings = tuned_level(LEVELS, level, getattr(agent, "card", None))
    value, depth = search_leaves(agent, game)
    movers = network_movers(base, agent, game, seat)
    search = ISMCTS(game, prior=agent, value=value, opponents=movers,
                    simulations=settings["simulations"], root=settings["root"],
                    considered=settings["considered"], c_scale=settings["c_scale"],
                    normalise_q=settings["normalise_q"], seed=0 if seed is None else seed,
                    playout_depth=depth, gumbel_scale=settings["gumbel_scale"],
                    min_evidence=settings["min_evidence"])
    return SearchBot(search, name=f"{base}@{level}")


def network_movers(base: OpponentSpec, agent: Any, game: Game, seat: int | None) -> Any:
    """The opponent model of a search guided by the network ``agent`` (loaded from
    ``base``): it moves every seat it can play in the simulations, greedy (its own policy
    as the opponents' model and the playouts'); the game's bot plays the rest.  A seat
    and seed -> bot factory, as ``ISMCTS(opponents=...)`` takes it."""
    members = getattr(agent, "members", None)
    # the same question is asked again and again inside one search: answered once
    greedy = remembered(network_bot(base, game, None, False, seat))

    def movers(s: int, bot_seed: int) -> Any:
        role = game.seat_role(s)
        plays = members is not None or agent.role in (None, role)
        return greedy if plays else game.heuristic_bot(bot_seed)

    return movers


def has_value(agent: Any, players: int | None = None) -> bool:
    """Whether a loaded network (every member of a team) has a value to search with, at
    ``players`` players when given: a value fitted on games of one player count
    (``fit-value``, its card's ``value_fit.players``) says nothing of another (a 2-player
    value would judge a solo game by a win share it cannot have)."""
    members = getattr(agent, "members", None)
    for member in members.values() if members else [agent]:
        if not member.has_value:
            return False
        fitted = (getattr(member, "card", None) or {}).get("value_fit", {}).get("players")
        if players is not None and fitted is not None and int(fitted) != players:
            return False
    return True


def search_leaves(agent: Any, game: Game) -> tuple[Any, int | None]:
    """How a search level guided by ``agent`` scores its leaves in ``game``: the network's
    value where it has one for this player count (no playout depth), else playouts, cut at
    the game's ``search_playout_depth`` decisions where it names one (None: to the end; a
    game too long to play out at every leaf names it: Hegemony's ``Game``)."""
    if has_value(agent, game.num_players):
        return network_value(agent), None
    return None, game.search_playout_depth


def level_settings(base: OpponentSpec, level: str, game: Game) -> dict[str, Any]:
    """``LEVELS[level]`` as ``base`` plays it (its card's own tuning, ``zoo.tuned_level``)
    with what a search's leaves are for this network and game (``search_leaves``): its
    ``value``, ``playouts`` to the end, or ``playouts of N decisions``.  A value fitted on
    the place share is ``value (place)`` (``ismcts.value_objective``): it plays otherwise,
    so figures measured with a win-share value are not its figures."""
    settings = dict(LEVELS[level])
    if settings["play"] == "search":
        agent = load(str(base))
        settings = tuned_level(LEVELS, level, getattr(agent, "card", None))
        value, depth = search_leaves(agent, game)
        settings["leaf"] = (("value" if value.objective == "win" else
                             f"value ({value.objective})") if value is not None else
                            f"playouts of {depth} decisions" if depth else "playouts")
    return settings


def make_bot(spec: OpponentSpec, game: Game, seed: int | None = None, stochastic: bool = False,
             lookahead: bool = True, seat: int | None = None) -> Any:
    """A ``StateBot`` for ``random``, ``heuristic``, a checkpoint folder or a team folder,
    optionally at a difficulty level (``<spec>@<level>``, ``LEVELS``).

    A checkpoint plays the seats of its card's role (checked against ``seat`` when
    given); a team plays every seat by that seat's role.  A checkpoint whose card has
    a ``lookahead`` block plays with that search (``training.search.LookaheadBot``)
    unless ``lookahead`` is False.
    """
    spec, level = split_level(spec)
    if level is not None:
        return level_bot(spec, level, game, seed, seat)
    bot = network_bot(spec, game, seed, stochastic, seat)
    card = getattr(getattr(bot, "agent", None), "card", None) or {}
    if not (lookahead and card.get("lookahead")):
        return bot
    try:
        return lookahead_bot(game, bot.agent, card["lookahead"], seed=seed, name=str(spec))
    except (TypeError, ValueError) as exc:
        raise CheckpointError(f"checkpoint {spec}: damaged lookahead block ({exc})") from exc


def is_deterministic_network(bot: Any) -> bool:
    """A network (or a team of them, one per role) that plays the same way whatever its
    seed: loading it once per worker is enough."""
    if isinstance(bot, PolicyBot):
        return not bot.agent.stochastic
    if isinstance(bot, TeamBot):
        return not any(member.agent.stochastic for member in bot.by_role.values())
    return False


class BotCache:
    """``make_bot`` for many games of one worker: each deterministic network (or team) is
    built once and shared, since loading one costs more than a game and its play does not
    depend on its seed; every other spec gets a fresh bot with the seed given."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._networks: dict[Any, Any] = {}

    def bot(self, spec: Any, seed: int, seat: int) -> Any:
        key = spec if isinstance(spec, str) else id(spec)  # a Python agent: by identity
        if key in self._networks:
            return self._networks[key]
        bot = make_bot(spec, self.game, seed, seat=seat)
        if is_deterministic_network(bot):
            self._networks[key] = bot
        return bot


def parse_weighted(specs: list[str]) -> list[tuple[str, float]]:
    """``["self=3", "random"]`` -> ``[("self", 3.0), ("random", 1.0)]``."""
    weighted = []
    for spec in specs:
        kind, _, weight = spec.partition("=")
        try:
            value = float(weight) if weight else 1.0
        except ValueError:
            raise ConfigError(f"opponent weight in {spec!r} must be a number, e.g. self=3"
                              ) from None
        if value <= 0:
            raise ConfigError(f"opponent weight in {spec!r} must be positive")
        weighted.append((kind, value))
    return weighted


def split_role(spec: str, roles: tuple[str, ...]) -> tuple[str | None, str]:
    """``"working_class:heuristic"`` -> ``("working_class", "heuristic")``: a pool kind bound
    to one of ``roles`` (the part before the first colon names a role of the game); any
    other spec -> ``(None, spec)``."""
    role, sep, rest = spec.partition(":")
    return (role, rest) if sep and rest and role in roles else (None, spec)


class OpponentPool:
    """Draws an opponent per seat and episode, over the kinds given.

    A kind may carry a weight (``self=3,heuristic=1``); the default weight is 1.  In a game
    with roles a kind may be bound to one, ``ROLE:SPEC`` (``state:heuristic=3``): it is drawn
    for that role's seats only, so each role can have a pool of its own (``meeplezoo
    metagame`` trains a best response against each role's equilibrium mixture this way).

    ``self`` means earlier snapshots of the learner, read as ONNX checkpoints
    from ``snapshot_dir`` (written by ``training.train``); the newest is drawn
    half the time, an older one otherwise.  Until a snapshot exists, ``self``
    falls back to the other kinds (or to random play).
    """

    KINDS = ("random", "heuristic", "self")
    # Snapshots kept loaded at once (an ONNX session each, about 15 MiB): a long run with
    # frequent snapshots would otherwise grow by one session per snapshot.  A snapshot put
    # away is rebuilt with the seed it first had, so the pool's draws do not change.
    MAX_LOADED_SNAPSHOTS = 8

    def __init__(
        self,
        game: Game,
        specs: list[OpponentSpec],
        seed: int | None = None,
        snapshot_dir: str | os.PathLike | None = None,
    ) -> None:
        if not specs:
            raise ConfigError("the opponent pool needs at least one kind")
        weighted = parse_weighted(specs)
        bound = [split_role(spec, tuple(game.roles)) for spec, _ in weighted]
        if any(role is not None and spec == "self" for role, spec in bound):
            raise ConfigError("opponent 'self' cannot be bound to a role: the learner's "
                              "snapshots play its own role's seats")
        weighted = [(spec, weight) for (_, spec), (_, weight) in zip(bound, weighted)]
        for spec, _ in weighted:
            base, _level = split_level(spec)  # a network at a level: its network must exist
            if is_python_spec(spec):
                import_agent(spec)  # a package.module:attribute agent; refused if it cannot play
            elif spec not in self.KINDS and find_checkpoint(base) is None:
                raise ConfigError(
                    f"opponent {spec!r} is neither one of {', '.join(self.KINDS)} "
                    "nor a checkpoint or team folder, zoo name, NETWORK@LEVEL or "
                    "package.module:attribute agent"
                )
        self.game = game
        self.specs = [spec for spec, _ in weighted]
        self.weights = [weight for _, weight in weighted]
        self.bound_roles = [role for role, _ in bound]  # None: any role's seats
        self.snapshot_dir = Path(snapshot_dir) if snapshot_dir else None
        self.rng = np.random.default_rng(seed)
        self._bots: dict[str, Any] = {}
        self._seeds: dict[str, int] = {}  # each bot's seed, drawn when it was first built
        self._loaded_snapshots: list[str] = []  # least recently drawn first
        self._roles: dict[str, str | None] = {}
        self._snapshots: list[Path] = []
        self._draws = 0

    def seed(self, seed: int) -> None:
        """Start the draws afresh from ``seed``, as a new pool would.

        The bots built so far are dropped too: each holds a generator seeded when it was
        built and advanced by every game since, so keeping them would make a seeded
        episode depend on what was played before it (gymnasium's reset-seed check).
        """
        self.rng = np.random.default_rng(seed)
        self._bots.clear()
        self._seeds.clear()
        self._loaded_snapshots.clear()
        self._draws = 0

    def _bot(self, spec: str, stochastic: bool = False) -> Any:
        if spec not in self._bots:
            if spec not in self._seeds:
                self._seeds[spec] = int(self.rng.integers(2**31))
            self._bots[spec] = make_bot(spec, self.game, self._seeds[spec],
                                        stochastic=stochastic)
        return self._bots[spec]

    def _snapshot_bot(self, spec: str) -> Any:
        """A snapshot's bot, the least recently drawn put away past ``MAX_LOADED_SNAPSHOTS``."""
        loaded = self._loaded_snapshots
        if spec in loaded:
            loaded.remove(spec)
        loaded.append(spec)
        while len(loaded) > self.MAX_LOADED_SNAPSHOTS:
            self._bots.pop(loaded.pop(0), None)
        return self._bot(spec, stochastic=True)

    def _refresh_snapshots(self) -> None:
        if self.snapshot_dir is None or not self.snapshot_dir.is_dir():
            return
        found = sorted(p.parent for p in self.snapshot_dir.glob("*/card.json"))
        self._snapshots = [p for p in found if (p / "policy.onnx").exists()]

    def _fits(self, spec: str, seat: int | None) -> bool:
        """Whether ``spec`` can move ``seat``: a checkpoint only plays its own role's seats
        (``self``: the learner's snapshots, of the role of the newest)."""
        if seat is None or len(self.game.roles) == 1:
            return True
        if spec == "self":
            spec = str(self._snapshots[-1]) if self._snapshots else "random"
        role = self._roles.get(spec)
        if spec not in self._roles:
            role = self._roles[spec] = spec_role(spec)
        return role is None or role == self.game.seat_role(seat)

    def draw(self, seat: int | None = None) -> Any:
        """An opponent for ``seat`` (in an asymmetric game, one that can play its role)."""
        if "self" in self.specs and self._draws % 50 == 0:
            self._refresh_snapshots()
        self._draws += 1
        role = None if seat is None else self.game.seat_role(seat)
        usable = [i for i, s in enumerate(self.specs)
                  if (s != "self" or self._snapshots) and self._fits(s, seat)
                  and self.bound_roles[i] in (None, role)]
        if not usable:
            return self._bot("random")
        weights = np.array([self.weights[i] for i in usable])
        kind = self.specs[usable[int(self.rng.choice(len(usable), p=weights / weights.sum()))]]
        if kind != "self":
            return self._bot(kind)
        newest = self._snapshots[-1]
        pick = (
            newest
            if self.rng.random() < 0.5
            else self._snapshots[int(self.rng.integers(len(self._snapshots)))]
        )
        return self._snapshot_bot(str(pick))
