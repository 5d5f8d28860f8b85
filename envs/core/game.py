"""The engine interface every game implements (OpenSpiel's Game/State split).

A ``Game`` is the immutable rule set for one configuration (player count and
options): it knows the action catalogue, the observation layout and how to make
states.  A ``GameState`` is one position; it is mutated by ``apply`` and owns
the random generator for chance events, so a game is a pure function of
(config, seed, actions).  Nothing here knows about PettingZoo or gymnasium.
"""

from __future__ import annotations

import copy
import json
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

import numpy as np

from meeplezoo.envs.core.errors import ConfigError, CorruptStateError, IllegalActionError
from meeplezoo.envs.core.rules import Rules
from meeplezoo.envs.core.schema import Spec, validate

TERMINAL = -1  # current_player() once the game is over
T = TypeVar("T")


@dataclass(frozen=True)
class Option:
    """A game option: its default, the allowed values and what it means."""

    default: Any
    choices: tuple[Any, ...]
    doc: str


def parse_options(items: list[str]) -> dict[str, Any]:
    """``KEY=VALUE`` strings to typed game options (true/false, ints, strings)."""
    options: dict[str, Any] = {}
    for item in items:
        if "=" not in item:
            raise ConfigError(f"option {item!r} must look like KEY=VALUE")
        key, value = item.split("=", 1)
        if value.lower() in ("true", "false"):
            options[key] = value.lower() == "true"
        elif value.lstrip("-").isdigit():
            options[key] = int(value)
        else:
            options[key] = value
    return options


class Game(ABC):
    """Rules and sizes for one configuration of a game.

    Subclasses set the class attributes and implement the abstract methods.
    Sizes (actions, features) may differ per player for asymmetric games, but
    never with the player count, so one policy can play any count.
    """

    name: ClassVar[str]  # versioned env id, e.g. "chihou_sousei_v1"
    # Kinds of seat whose action catalogues or observations differ (Hegemony's classes).
    # A symmetric game has one role; ``seat_role`` says which seat plays which role.
    roles: ClassVar[tuple[str, ...]] = ("player",)
    # Whether some of the game is hidden from some seat (hands, deck order, sealed bids):
    # such a game must re-draw it in ``GameState.resample_hidden`` (the kit checks).
    hidden_information: ClassVar[bool] = True
    title: ClassVar[str] = ""
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int]
    options: ClassVar[dict[str, Option]] = {}
    max_decisions: ClassVar[int] = 10_000  # safety cap; the env truncates there
    score_scale: ClassVar[float] = 10.0  # VP per unit of reward="score"
    # Where a search without a value cuts its playouts (decisions, then the scores as they
    # stand: ``ISMCTS(playout_depth=...)``); None plays them to the end.  A game too long to
    # play out at every leaf within a search level's cost names a depth.
    search_playout_depth: ClassVar[int | None] = None

    def __init__(self, num_players: int | None = None, **options: Any) -> None:
        if num_players is None:
            num_players = self.default_players
        if (
            isinstance(num_players, bool)
            or not isinstance(num_players, (int, np.integer))
            or not self.min_players <= num_players <= self.max_players
        ):
            raise ConfigError(
                f"{self.name}: num_players={num_players!r} is not allowed; "
                f"use an integer from {self.min_players} to {self.max_players}"
            )
        self.num_players = int(num_players)
        unknown = sorted(set(options) - set(self.options))
        if unknown:
            allowed = ", ".join(sorted(self.options)) or "none"
            raise ConfigError(
                f"{self.name}: unknown option(s) {', '.join(unknown)}; allowed options: {allowed}"
            )
        self.config: dict[str, Any] = {}
        for key, option in self.options.items():
            value = options.get(key, option.default)
            if value not in option.choices or type(value) is not type(option.default):
                raise ConfigError(
                    f"{self.name}: option {key}={value!r} is not allowed; "
                    f"choose one of {list(option.choices)}"
                )
            self.config[key] = value
        # the game's rules object, built once here and read by every state (``GameState.rules``)
        self.rules: Rules = self.build_rules()

    def build_rules(self) -> Rules:
        """The game's rules object (``core.rules``): its decisions and steps, named phase
        rules, card primitives and card tables.  Called once, by ``__init__`` (and again when
        a pickled game is loaded); a game overrides it."""
        return Rules()

    def with_rules(self, rules: Rules) -> Game:
        """A copy of this game that plays by ``rules`` (a test's hand-made card added to the
        table), without the memos; this game and its states keep their own rules."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__getstate__())
        other.rules = rules
        return other

    # -- roles ----------------------------------------------------------------
    def seat_role(self, seat: int) -> str:
        """The role seat ``seat`` plays at this player count (the only role if symmetric)."""
        if not (isinstance(seat, (int, np.integer)) and 0 <= seat < self.num_players):
            raise ConfigError(f"{self.name}: seat {seat!r} is not a seat 0..{self.num_players - 1}")
        if len(self.roles) == 1:
            return self.roles[0]
        raise NotImplementedError(f"{self.name} has roles {self.roles}: it must say seat_role()")

    def role_seats(self, role: str) -> list[int]:
        """The seats that play ``role`` at this player count (may be empty)."""
        self.check_role(role)
        return [s for s in range(self.num_players) if self.seat_role(s) == role]

    def check_role(self, role: str | None) -> str:
        """``role`` if it is one of this game's roles; None names the only role of a
        symmetric game.  Sizes are keyed by role, so a wrong one is an error, never a
        silent default."""
        if role is None and len(self.roles) == 1:
            return self.roles[0]
        if role not in self.roles:
            raise ConfigError(f"{self.name}: role {role!r} is not one of {list(self.roles)}")
        return role

    @property
    def agents_are_roles(self) -> bool:
        """Each seat plays a role of its own: the PettingZoo agents are named after them."""
        return len(self.roles) > 1 and sorted(
            self.seat_role(s) for s in range(self.num_players)) == sorted(self.roles)

    # -- sizes and names (per role) ----------------------------------------------
    @abstractmethod
    def num_actions(self, role: str | None = None) -> int:
        """Size of the role's fixed action catalogue."""

    @abstractmethod
    def action_name(self, action: int, role: str | None = None) -> str:
        """Stable readable name of an action index of the role's catalogue."""

    @abstractmethod
    def feature_names(self, role: str | None = None) -> list[str]:
        """One name per entry of the role's observation, in order."""

    def observation_size(self, role: str | None = None) -> int:
        return len(self.feature_names(role))

    def observation_bounds(self, role: str | None = None) -> tuple[float, float]:
        """Bounds of every observation entry (features are scaled into them)."""
        return 0.0, 1.0

    def action_index(self, name: str, role: str | None = None) -> int:
        """Inverse of ``action_name``; raises a clear error for an unknown name."""
        table = self._action_index_table(self.check_role(role))
        if name not in table:
            raise ConfigError(f"{self.name}: no action named {name!r}")
        return table[name]

    def _action_index_table(self, role: str) -> dict[str, int]:
        cache = self.__dict__.setdefault("_action_tables", {})
        if role not in cache:
            cache[role] = {
                self.action_name(a, role): a for a in range(self.num_actions(role))
            }
        return cache[role]

    # -- states ---------------------------------------------------------------
    @abstractmethod
    def new_initial_state(self, seed: int | None = None) -> GameState:
        """A fresh game whose chance events are drawn from ``seed``."""

    @abstractmethod
    def state_from_dict(self, data: dict[str, Any]) -> GameState:
        """Rebuild a state saved with ``GameState.to_dict`` (the game part only).

        ``state_from_saved`` has already checked ``data`` against ``state_schema()``.
        """

    def state_schema(self) -> Spec | None:
        """The shape of ``GameState._to_dict()`` for this configuration (see envs.core.schema).

        Loading checks every saved field against it before ``state_from_dict`` runs;
        every MeepleZoo game declares one (the conformance kit requires it).
        """
        return None

    def check_action_index(self, action: Any, role: str | None = None) -> int:
        """``action`` as a catalogue index, or IllegalActionError: only integers in range."""
        n = self.num_actions(self.check_role(role))
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise IllegalActionError(
                f"{self.name}: action {action!r} ({type(action).__name__}) is not an action "
                f"index; actions are integers 0..{n - 1}"
            )
        if not 0 <= action < n:
            raise IllegalActionError(f"{self.name}: action {action} is outside 0..{n - 1}")
        return int(action)

    def config_dict(self) -> dict[str, Any]:
        return {"num_players": self.num_players, **self.config}

    def heuristic_bot(self, seed: int | None = None) -> Any:
        """The game's scripted opponent (a ``StateBot``); games override."""
        raise NotImplementedError(f"{self.name} has no heuristic bot")

    # -- memos ------------------------------------------------------------------
    def memo(self, name: str, make: Callable[[], T] = dict) -> T:  # type: ignore[assignment]
        """This game's memo ``name``, made by ``make`` on first use: the tables an engine
        module keeps of pure functions of their keys (a read-only mask by legal actions, an
        encoded part by the numbers it encodes, a bot's sums).  They live on the game, never
        at module level, so two games in two threads never meet (DESIGN.md §8); states share
        their game's, and a racing thread of one game only stores an equal value.  A pickle or
        a copy of the game starts without them (``__getstate__``)."""
        memos = self.__dict__.get("_memos")
        if memos is None:
            memos = self.__dict__.setdefault("_memos", {})
        table = memos.get(name)
        if table is None:
            table = memos.setdefault(name, make())
        return table

    def __getstate__(self) -> dict[str, Any]:
        """The game without its memos (``memo``) and its rules object (it holds functions): a
        pickled state carries its game, whose rules are built again on load."""
        return {k: v for k, v in self.__dict__.items() if k not in ("_memos", "rules")}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.__dict__.update(data)
        self.rules = self.build_rules()

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.config_dict().items())
        return f"{type(self).__name__}({args})"


class GameState(ABC):
    """One position of a game.  Subclasses implement the ``_``-prefixed hooks.

    ``apply`` checks legality against a cached mask, so engines may assume the
    action they get in ``_apply`` is legal.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self._mask: np.ndarray | None = None

    @property
    def rules(self) -> Rules:
        """The game's rules object, handed to every state through its game (never copied
        into the state, so a clone or a pickle of a state never carries it)."""
        return self.game.rules

    # -- hooks a game implements -------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """Seat that decides next, or ``TERMINAL``."""

    @abstractmethod
    def _legal_mask(self) -> np.ndarray:
        """Bool vector over the current player's catalogue."""

    @abstractmethod
    def _apply(self, action: int) -> None:
        """Play a legal action (chance events resolve inside, from ``self.rng``)."""

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def scores(self) -> list[float]:
        """Victory points per seat: final once terminal, before that as if it ended now.

        The running value feeds the optional reward shaping in ``training``.
        """

    @abstractmethod
    def observation(self, player: int) -> np.ndarray:
        """float32 features from ``player``'s point of view only."""

    @abstractmethod
    def _to_dict(self) -> dict[str, Any]:
        """JSON-safe game part of the state, including the RNG."""

    @abstractmethod
    def render(self) -> str: ...

    def render_for(self, viewer: int) -> str:
        """The table as seat ``viewer`` sees it: the public view plus that seat's own hidden
        information (a game with hands shows its hand); by default ``render()``."""
        return self.render()

    def rank_keys(self) -> list[tuple]:
        """Per seat, a key where higher ranks better; equal keys share places."""
        return [(s,) for s in self.scores()]

    def score_breakdown(self) -> list[dict[str, float]]:
        """Per seat, the score by category (sums to ``scores()``)."""
        return [{"total": s} for s in self.scores()]

    def seat_roles(self) -> list[str] | None:
        """Per seat, what it chose or was dealt during play (a company in
        アジアンデリバリー), or None; evaluation reports win rates per such choice
        (a balance report).  Not the fixed roles of ``Game.roles`` / ``Game.seat_role``,
        which key the action and observation spaces."""
        return None

    def decision_name(self) -> str:
        """Name of the pending decision kind, for logs and renders."""
        return "decide"

    def check_invariants(self) -> None:
        """Raise AssertionError if a conservation law or bound is broken."""
        return None

    def resample_hidden(self, player: int, rng: np.random.Generator) -> GameState:
        """A copy in which everything ``player`` cannot see is re-drawn.

        Used by the no-leak test (the player's observation must not change) and by
        search.  Games with hidden information override this; a perfect-information
        game sets ``hidden_information = False`` and keeps this plain clone.
        """
        return self.clone()

    # -- shared machinery -------------------------------------------------------
    def legal_mask(self) -> np.ndarray:
        if self._mask is None:
            if self.is_terminal():
                self._mask = np.zeros(self.game.num_actions(self.game.seat_role(0)), dtype=bool)
            else:
                self._mask = self._legal_mask()
        return self._mask

    def legal_actions(self) -> list[int]:
        return np.flatnonzero(self.legal_mask()).tolist()

    def apply(self, action: int) -> None:
        """Play ``action`` for the current player, or raise IllegalActionError."""
        # Fast path: a plain int that the cached mask allows (a finished game's mask allows
        # nothing, so it takes the checks below, as does anything else).
        mask = self._mask
        if (type(action) is int and mask is not None and 0 <= action < mask.shape[0]
                and mask[action]):
            self._mask = None
            self._apply(action)
            return
        if self.is_terminal():
            raise IllegalActionError(f"{self.game.name}: the game is over; no action is legal")
        mask = self.legal_mask()
        is_index = isinstance(action, (int, np.integer)) and not isinstance(action, bool)
        if not is_index or not 0 <= action < mask.shape[0] or not mask[action]:
            raise IllegalActionError(self._illegal_message(action, mask))
        self._mask = None
        self._apply(int(action))

    def _illegal_message(self, action: Any, mask: np.ndarray) -> str:
        player = self.current_player()
        game = self.game
        role = game.seat_role(player)
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            what = (f"action {action!r} ({type(action).__name__}, not an integer index "
                    f"0..{mask.shape[0] - 1})")
        elif 0 <= action < mask.shape[0]:
            what = f"action {int(action)} ({game.action_name(int(action), role)})"
        else:
            what = f"action {action!r} (outside 0..{mask.shape[0] - 1})"
        legal = [f"{a} ({game.action_name(a, role)})" for a in np.flatnonzero(mask)]
        shown = ", ".join(legal[:20]) + (f", ... {len(legal) - 20} more" if len(legal) > 20 else "")
        return (
            f"{game.name}: {what} is illegal for player {player} at decision "
            f"'{self.decision_name()}'; legal: {shown}"
        )

    def clone(self) -> GameState:
        """An independent copy sharing the (immutable) game object."""
        return copy.deepcopy(self, {id(self.game): self.game})

    def to_dict(self) -> dict[str, Any]:
        """Saved state with an envelope naming env, version and config."""
        return {
            "env": self.game.name,
            "config": self.game.config_dict(),
            "state": self._to_dict(),
        }

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {self.game!r}>"


def shared_mask(game: Game, legal: Any, memo: str, size: int, cap: int = 100_000,
                item_writes: int = 0) -> np.ndarray:
    """The read-only bool mask of ``size`` entries that allows exactly ``legal``, shared by
    every position of ``game`` with the same legal actions (the game's memo ``memo``, cleared
    when it holds ``cap`` masks): a lookup costs less than building the mask.  Up to
    ``item_writes`` legal actions are set one by one, more by one fancy index (which is
    cheaper depends on the game's lists: each game keeps the way it measured best)."""
    key = tuple(legal)
    masks = game.memo(memo)
    mask = masks.get(key)
    if mask is None:
        if len(masks) >= cap:
            masks.clear()
        mask = np.zeros(size, dtype=bool)
        if len(key) <= item_writes:
            for action in key:
                mask[action] = True
        else:
            mask[list(key)] = True
        mask.flags.writeable = False
        masks[key] = mask
    return mask


def state_from_saved(game_cls: type[Game], data: Any) -> GameState:
    """Load a saved state, or raise CorruptStateError naming what is wrong.

    Order: the envelope, the config, the game's declared shape (``state_schema``),
    the game's own rebuild and invariants, then ``check_loaded_state``: a state that
    loads can be played on (a legal move where a move is due, observations inside
    their bounds, finite scores) and saves back to exactly what was loaded.
    """
    if not isinstance(data, dict) or not {"env", "config", "state"} <= set(data):
        raise CorruptStateError(
            f"{game_cls.name}: a saved state must be a dict with keys env, config, state; "
            f"got {type(data).__name__}"
            + (f" with keys {sorted(map(str, data))}" if isinstance(data, dict) else "")
        )
    if data["env"] != game_cls.name:
        raise CorruptStateError(f"saved state is for env {data['env']!r}, not {game_cls.name!r}")
    config = data["config"]
    if not isinstance(config, dict) or not all(isinstance(k, str) for k in config):
        raise CorruptStateError(f"{game_cls.name}: saved config must be an object of options")
    try:
        game = game_cls(**config)
    except (ConfigError, TypeError) as exc:
        raise CorruptStateError(f"{game_cls.name}: saved config is invalid: {exc}") from exc
    try:
        schema = game.state_schema()
        if schema is not None:
            validate(schema, data["state"], "state")
        state = game.state_from_dict(data["state"])
        state.check_invariants()
        check_loaded_state(state, data["state"])
    except CorruptStateError as exc:
        message = str(exc)
        if not message.startswith(game_cls.name):
            message = f"{game_cls.name}: {message}"
        raise CorruptStateError(message) from exc
    except Exception as exc:  # a damaged save must never escape as another error
        raise CorruptStateError(
            f"{game_cls.name}: saved state is damaged ({type(exc).__name__}: {exc})"
        ) from exc
    return state


def check_loaded_state(state: GameState, saved: Any) -> None:
    """Refuse a loaded state that could not be played on soundly (CorruptStateError)."""
    game = state.game
    n = game.num_players
    if state.is_terminal():
        if state.current_player() != TERMINAL:
            raise CorruptStateError("a finished game names a player to move")
    else:
        player = state.current_player()
        if not (isinstance(player, (int, np.integer)) and 0 <= player < n):
            raise CorruptStateError(f"player to move {player!r} is not a seat 0..{n - 1}")
        mask = state.legal_mask()
        if mask.shape != (game.num_actions(game.seat_role(player)),) or not mask.any():
            raise CorruptStateError(
                f"the pending decision '{state.decision_name()}' has no legal action"
            )
    scores = np.asarray(state.scores(), dtype=float)
    if scores.shape != (n,) or not np.isfinite(scores).all():
        raise CorruptStateError(f"scores {scores.tolist()} are not {n} finite numbers")
    for seat in range(n):
        role = game.seat_role(seat)
        obs = state.observation(seat)
        low, high = game.observation_bounds(role)
        if (
            obs.shape != (game.observation_size(role),)
            or obs.dtype != np.float32
            or not ((obs >= low) & (obs <= high)).all()
        ):
            bad = np.flatnonzero(~((obs >= low) & (obs <= high)))[:3]
            names = game.feature_names(role)
            shown = ", ".join(f"{names[i]}={obs[i]}" for i in bad if i < len(names))
            raise CorruptStateError(
                f"seat {seat}'s observation leaves its space [{low}, {high}]: {shown}"
            )
    again = json.dumps(state._to_dict(), sort_keys=True)
    if again != json.dumps(saved, sort_keys=True):
        raise CorruptStateError("the saved state does not read back as saved (a field was "
                                "converted, dropped or out of step with the others)")
