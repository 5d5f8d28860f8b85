"""Opponents: exported policies (numpy + onnxruntime only), bots, and the pool.

    from meeplezoo.training.agents.opponents import list_zoo, load
    agent = load("chihou_sousei_v1/ppo_league")   # a zoo name (list_zoo()), or a folder
    action = agent.act(observation, action_mask)

``load`` needs neither torch nor stable-baselines3.  A checkpoint is a folder
with ``policy.onnx`` (observation, action_mask -> masked logits) and
``card.json``; it is refused for an env or size it was not made for.  A team folder
(``team.json``, one checkpoint per role) loads as a ``TeamAgent``:
``team.act(observation, action_mask, role=agent)``.  Zoo names and the listing are
``training.zoo``'s (re-exported here).
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from meeplezoo.envs.core.agents import RandomBot
from meeplezoo.envs.core.errors import ConfigError
from meeplezoo.envs.core.game import Game, GameState
from meeplezoo.training.agents.scoreboard import FEATURES as SCOREBOARD
from meeplezoo.training.agents.seat_view import SeatView
from meeplezoo.training.agents.specs import is_python_spec, with_cwd_on_path
from meeplezoo.training.agents.zoo import (
    TEAM_FILE,
    CheckpointError,
    card_file,
    checkpoint_folder,
    find_checkpoint,
)
from meeplezoo.training.agents.zoo import ZooEntry as ZooEntry
from meeplezoo.training.agents.zoo import list_zoo as list_zoo

OpponentSpec = str  # "random", "heuristic", "self", a checkpoint folder or a zoo name
MASKED_LOGIT = -1e8


def names_hash(names: list[str]) -> str:
    """Short fingerprint of feature or action names, stored in the card."""
    return hashlib.sha256("\n".join(names).encode()).hexdigest()[:16]


def action_names_hash(game: Game, role: str | None) -> str:
    """The card's ``action_names_hash`` of ``role``'s action catalogue in ``game``."""
    return names_hash([game.action_name(a, role) for a in range(game.num_actions(role))])


class PolicyAgent:
    """An exported policy: ``act(observation, action_mask) -> int``.

    Deterministic (argmax of the masked logits) unless ``stochastic``; a masked
    action is never chosen, and an all-zero mask is an error.
    """

    def __init__(self, path: str | os.PathLike, stochastic: bool = False, seed: int | None = None):
        folder = checkpoint_folder(path)
        if folder.is_file():
            folder = folder.parent
        card_path, model_path = folder / "card.json", folder / "policy.onnx"
        if card_file(folder).name == TEAM_FILE:
            raise CheckpointError(
                f"{folder} is a team (one policy per role, {TEAM_FILE}): load() gives it as "
                f"a TeamAgent and make_bot plays it by seat; one role's policy is the member "
                f"folder {folder}/<role>")
        if not card_path.exists() or not model_path.exists():
            raise CheckpointError(f"{folder}: a checkpoint folder needs card.json and policy.onnx")
        try:
            self.card: dict[str, Any] = json.loads(card_path.read_text())
            self.observation_size = int(self.card["observation_size"])
            self.action_count = int(self.card["action_count"])
            self.env_name = str(self.card["env"])
            self.role: str | None = self.card.get("role")  # cards before roles: None
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            raise CheckpointError(f"{card_path}: damaged model card ({exc})") from exc
        try:
            import onnxruntime as ort
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise ImportError(
                "loading an opponent needs onnxruntime: pip install onnxruntime"
            ) from exc
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        try:
            self.session = ort.InferenceSession(
                str(model_path), options, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:
            raise CheckpointError(f"{model_path}: not a loadable ONNX model ({exc})") from exc
        self.name = self.card.get("name", folder.name)
        self.path = folder
        self._check_network_fits_card(model_path)
        # exports since the value output (``training.export``) carry the critic's estimate;
        # older ones play as before and have no ``value``
        outputs = [o.name for o in self.session.get_outputs()]
        self._value_session = self._value_file_session(folder, options, ort)
        self.has_value = "value" in outputs or self._value_session is not None
        self._logits_output = outputs[:1]  # the logits alone: the value is not computed
        self.stochastic = stochastic
        self.rng = np.random.default_rng(seed)

    def _value_file_session(self, folder: Path, options: Any, ort: Any) -> Any:
        """The card's ``value_file`` (``training.fitting.value_fit``: a value fitted after
        export, input ``observation`` and perhaps ``scoreboard``, output ``value``) as a
        session, or None.  Sets ``value_reads_scoreboard``."""
        self.value_reads_scoreboard = False
        name = self.card.get("value_file")
        if name is None:
            return None
        path = folder / str(name)
        if not isinstance(name, str) or Path(name).name != name or not path.is_file():
            raise CheckpointError(f"{folder}: card.json names value_file {name!r}, which is "
                                  "not a file of the folder")
        try:
            session = ort.InferenceSession(str(path), options,
                                           providers=["CPUExecutionProvider"])
            feeds = {"observation": np.zeros((2, self.observation_size), np.float32)}
            if [i.name for i in session.get_inputs()] == ["observation", "scoreboard"]:
                self.value_reads_scoreboard = True
                feeds["scoreboard"] = np.zeros((2, len(SCOREBOARD)), np.float32)
            out = session.run(["value"], feeds)[0]
        except Exception as exc:
            raise CheckpointError(f"{path}: not a value network for observations of "
                                  f"{self.observation_size} ({exc})") from exc
        if out.shape not in ((2, 1), (2,)):
            raise CheckpointError(f"{path}: answers values of shape {out.shape[1:]}, not one "
                                  "per observation")
        return session

    def _check_network_fits_card(self, model_path: Path) -> None:
        """Refuse a ``policy.onnx`` whose inputs or output do not have the card's sizes."""
        expected = {"observation": self.observation_size, "action_mask": self.action_count}
        inputs = {i.name: i.shape for i in self.session.get_inputs()}
        problems = [f"it has inputs {sorted(inputs)}, not observation and action_mask"] if set(
            inputs) != set(expected) else []
        for name, size in expected.items():
            shape = inputs.get(name)
            fixed_width = shape is not None and len(shape) == 2 and isinstance(shape[1], int)
            if shape is not None and (len(shape) != 2 or (fixed_width and shape[1] != size)):
                problems.append(f"input {name} has shape {shape}, the card says [batch, {size}]")
        if not problems:
            try:
                out = self.session.run(None, {
                    "observation": np.zeros((1, self.observation_size), np.float32),
                    "action_mask": np.ones((1, self.action_count), np.float32)})[0]
            except Exception as exc:
                problems.append(f"it does not run on the card's sizes ({type(exc).__name__})")
            else:
                if out.shape != (1, self.action_count):
                    problems.append(f"it answers {out.shape[1:]} logits, the card says "
                                    f"{self.action_count}")
        if problems:
            raise CheckpointError(f"{model_path} does not match its card: " + "; ".join(problems))

    def check_compatible(self, game: Game, seat: int | None = None) -> None:
        """Refuse a game (or a seat of it) this checkpoint was not made for, saying why.

        Without ``seat``: the first seat of the checkpoint's role.
        """
        problems = []
        if game.name != self.env_name:
            problems.append(f"it was made for env {self.env_name!r}, not {game.name!r}")
        if seat is None:
            seats = game.role_seats(self.role) if self.role in game.roles else []
            seat = seats[0] if seats else 0
        role = game.seat_role(seat)
        if self.role not in (None, role):
            problems.append(f"it plays role {self.role!r}, and seat {seat} plays {role!r}")
        elif self.role is None and len(game.roles) > 1:
            problems.append(f"its card names no role, and {game.name} has roles {game.roles}")
        if not problems and game.observation_size(role) != self.observation_size:
            problems.append(
                f"observation size {self.observation_size} != {game.observation_size(role)}"
            )
        if not problems and game.num_actions(role) != self.action_count:
            problems.append(f"action count {self.action_count} != {game.num_actions(role)}")
        expected = self.card.get("feature_names_hash")
        if not problems and expected and expected != names_hash(game.feature_names(role)):
            problems.append("the feature names differ (the observation encoder changed)")
        expected = self.card.get("action_names_hash")
        if not problems and expected and expected != action_names_hash(game, role):
            problems.append("the action names differ (the action catalogue changed: its ids "
                            "would now mean other moves)")
        counts = self.card.get("player_counts")
        if counts and game.num_players not in counts:
            problems.append(f"it plays {counts} players, not {game.num_players}")
        seats = self.card.get("seats")
        if seats not in (None, "any") and seat not in seats:
            problems.append(f"it plays seat(s) {seats}, not {seat}")
        if problems:
            raise CheckpointError(f"checkpoint {self.path}: " + "; ".join(problems))

    def logits(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        return self.logits_batch(np.asarray(observation).reshape(1, -1),
                                 np.asarray(action_mask).reshape(1, -1))[0]

    def values_batch(self, observations: np.ndarray, action_masks: np.ndarray,
                     scoreboards: np.ndarray | None = None) -> np.ndarray:
        """The critic's estimate of each row's return (the training reward's scale: rank
        reward from -1 for last to +1 for first, plus any shaping), from the ``value``
        output, or from the card's ``value_file`` (fitted after export, on the same scale);
        a ``CheckpointError`` for an export without either.  A value file that reads the
        scoreboard (``value_reads_scoreboard``) needs each row's ``scoreboards``
        (``training.agents.scoreboard.scoreboard_rows``; ``ismcts.NetworkValue`` passes
        them); other values ignore them."""
        if not self.has_value:
            raise CheckpointError(f"{self.path}: its policy.onnx has no value output (exported "
                                  "before values were) and its card no value_file; export "
                                  "its model again, or fit one: meeplezoo fit-value")
        obs = np.asarray(observations, dtype=np.float32)
        if self._value_session is not None:
            feeds = {"observation": obs}
            if self.value_reads_scoreboard:
                if scoreboards is None:
                    raise CheckpointError(
                        f"{self.path}: its value reads the scoreboard beside the observation "
                        f"({', '.join(SCOREBOARD)}); pass each row's scoreboards "
                        "(training.agents.scoreboard.scoreboard_rows), as the search does")
                board = np.asarray(scoreboards, dtype=np.float32)
                if board.shape != (len(obs), len(SCOREBOARD)):
                    raise CheckpointError(f"{self.path}: scoreboards of shape {board.shape}; "
                                          f"its value reads [{len(obs)}, {len(SCOREBOARD)}]")
                feeds["scoreboard"] = board
            out = self._value_session.run(["value"], feeds)[0]
            return np.asarray(out, dtype=np.float64).reshape(len(obs))
        masks = np.asarray(action_masks, dtype=np.float32)
        out = self.session.run(["value"], {"observation": obs, "action_mask": masks})[0]
        return np.asarray(out, dtype=np.float64).reshape(len(obs))

    def value(self, observation: np.ndarray, action_mask: np.ndarray,
              scoreboard: np.ndarray | None = None) -> float:
        return float(self.values_batch(
            np.asarray(observation).reshape(1, -1), np.asarray(action_mask).reshape(1, -1),
            None if scoreboard is None else np.asarray(scoreboard).reshape(1, -1))[0])

    def logits_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """Masked logits for a batch of rows (one network call)."""
        obs = np.asarray(observations, dtype=np.float32)
        masks = np.asarray(action_masks, dtype=np.float32)
        if obs.ndim != 2 or obs.shape[1] != self.observation_size or masks.shape != (
                len(obs), self.action_count):
            raise CheckpointError(
                f"checkpoint {self.path} takes observations of {self.observation_size} and masks "
                f"of {self.action_count} (per row); got {obs.shape} and {masks.shape}"
            )
        return self.session.run(self._logits_output, {"observation": obs,
                                                      "action_mask": masks})[0]

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """``act`` for a batch of rows: one action per row, never a masked one."""
        masks = np.asarray(action_masks).astype(bool)
        if not masks.any(axis=1).all():
            raise ValueError("act_batch() got a row whose action mask is all zero")
        logits = np.where(masks, self.logits_batch(observations, masks), -np.inf)
        if not self.stochastic:
            return logits.argmax(axis=1)
        z = np.exp(logits - logits.max(axis=1, keepdims=True))
        probs = z / z.sum(axis=1, keepdims=True)
        return np.array([self.rng.choice(len(p), p=p) for p in probs], dtype=np.int64)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        mask = np.asarray(action_mask).astype(bool)
        if not mask.any():
            raise ValueError("act() got an all-zero action mask: nothing is legal")
        logits = self.logits(observation, mask)
        if not self.stochastic:
            return int(np.argmax(np.where(mask, logits, -np.inf)))
        legal = np.flatnonzero(mask)
        z = logits[legal] - logits[legal].max()
        p = np.exp(z)
        return int(legal[self.rng.choice(legal.size, p=p / p.sum())])


def load(path: str | os.PathLike, stochastic: bool = False,
         seed: int | None = None) -> PolicyAgent | TeamAgent:
    """Load an exported opponent: a folder with policy.onnx and card.json, a team folder
    (``team.json``: a ``TeamAgent``, one policy per role), or a zoo name ``<env>/<name>``
    (``list_zoo()``) of either, found from any working directory."""
    folder = checkpoint_folder(path)
    if folder.is_dir() and card_file(folder).name == TEAM_FILE:
        return TeamAgent(folder, stochastic=stochastic, seed=seed)
    return PolicyAgent(folder, stochastic=stochastic, seed=seed)


class PolicyBot:
    """Plays a policy agent from an engine state (a ``StateBot``)."""

    def __init__(self, agent: Any, name: str | None = None) -> None:
        self.agent = agent
        self.name = name or getattr(agent, "name", "policy")

    def act(self, state: GameState) -> int:
        seat = state.current_player()
        return self.agent.act(state.observation(seat), state.legal_mask())


def card_value_path(folder: Path) -> Path | None:
    """The value file a checkpoint folder's card names (``value_file``), where it is a file
    of the folder; None otherwise.  For readers of a folder's value that load no agent
    (digests of what a level read, values compared by ``fit-value``)."""
    name = json.loads((folder / "card.json").read_text()).get("value_file")
    path = folder / name if isinstance(name, str) and name else None
    return path if path is not None and path.is_file() else None


def read_team_card(folder: Path) -> tuple[dict[str, Any], dict[str, str], str]:
    """A team folder's card, its member folder per role and its env's name; a
    ``CheckpointError`` naming what is damaged."""
    try:
        team = json.loads((folder / TEAM_FILE).read_text())
        members: dict[str, str] = dict(team["roles"])
        env_name = str(team["env"])
    except (OSError, json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
        raise CheckpointError(f"{folder}: damaged {TEAM_FILE} ({exc})") from exc
    return team, members, env_name


class TeamAgent:
    """A team checkpoint as ``load`` gives it: one ``PolicyAgent`` per role (``members``).

    ``act(observation, action_mask, role=None)`` plays the member of ``role``; in a
    PettingZoo loop of a game whose agents are named after its roles (Hegemony's classes),
    ``role=agent``.  Without ``role`` it plays the one member whose sizes fit the
    observation and the mask, and says so when several fit.  ``make_bot``, the opponent
    pool, ``training.evaluate``, the arena and ``training.play`` take the team's folder or
    zoo name (or this object, in Python) and seat each member by its seat's role.
    """

    role: str | None = None  # a team plays every role

    def __init__(self, path: str | os.PathLike, stochastic: bool = False,
                 seed: int | None = None) -> None:
        self.path = checkpoint_folder(path)
        self.card, members, self.env_name = read_team_card(self.path)
        self.name = str(self.card.get("name", self.path.name))
        self.stochastic = stochastic
        self.members: dict[str, PolicyAgent] = {}
        for role, sub in members.items():
            agent = PolicyAgent(self.path / sub, stochastic=stochastic, seed=seed)
            if agent.role != role:
                raise CheckpointError(f"team {self.path}: member {sub} plays role "
                                      f"{agent.role!r}, listed as {role!r}")
            self.members[role] = agent
        self.roles = tuple(self.members)

    def check_compatible(self, game: Game, seat: int | None = None) -> None:
        """Refuse a game the team cannot play every seat of (``seat``: that seat's role's
        member must fit it too), saying why."""
        if self.env_name != game.name:
            raise CheckpointError(f"team {self.path} was made for env {self.env_name!r}, "
                                  f"not {game.name!r}")
        missing = sorted({game.seat_role(s) for s in range(game.num_players)} - set(self.members))
        if missing:
            raise CheckpointError(f"team {self.path} has no policy for role(s) {missing}")
        for role, agent in self.members.items():
            seats = game.role_seats(role)
            if seats:
                agent.check_compatible(game, seats[0])
        if seat is not None:
            self.members[game.seat_role(seat)].check_compatible(game, seat)

    def member(self, observation: np.ndarray, action_mask: np.ndarray,
               role: str | None = None) -> PolicyAgent:
        """The member that plays ``role``, or (no role) the only one of these sizes."""
        if role is not None:
            if role not in self.members:
                raise ConfigError(f"team {self.name} has no policy for role {role!r}; its "
                                  f"roles: {', '.join(self.roles)}")
            return self.members[role]
        sizes = (np.asarray(observation).size, np.asarray(action_mask).size)
        fits = [r for r, a in self.members.items() if (a.observation_size, a.action_count) == sizes]
        if len(fits) == 1:
            return self.members[fits[0]]
        raise ValueError(
            f"team {self.name}: {'roles ' + ', '.join(fits) if fits else 'none of its roles'} "
            f"take observations of {sizes[0]} and masks of {sizes[1]}: name the seat's role, "
            f"act(observation, action_mask, role=...), or play the team by seat with "
            f"make_bot(spec, game)")

    def act(self, observation: np.ndarray, action_mask: np.ndarray,
            role: str | None = None) -> int:
        return self.member(observation, action_mask, role).act(observation, action_mask)

    def logits(self, observation: np.ndarray, action_mask: np.ndarray,
               role: str | None = None) -> np.ndarray:
        return self.member(observation, action_mask, role).logits(observation, action_mask)


class TeamBot:
    """A team checkpoint as a ``StateBot``: one policy per role, each seat played by the
    policy of that seat's role.  ``folder``: a team folder or zoo name, or a ``TeamAgent``."""

    def __init__(self, folder: str | os.PathLike | TeamAgent, game: Game,
                 stochastic: bool = False, seed: int | None = None) -> None:
        team = folder if isinstance(folder, TeamAgent) else TeamAgent(
            folder, stochastic=stochastic, seed=seed)
        team.check_compatible(game)
        self.team = team
        self.path = team.path
        self.name = team.name
        self.card = team.card
        self.by_role: dict[str, PolicyBot] = {
            role: PolicyBot(agent, name=f"{self.name}:{role}")
            for role, agent in team.members.items()}

    def act(self, state: GameState) -> int:
        return self.by_role[state.game.seat_role(state.current_player())].act(state)


def is_team(spec: OpponentSpec) -> bool:
    """Whether ``spec`` (a folder or a zoo name) is a team of one policy per role."""
    folder = find_checkpoint(spec)
    return folder is not None and folder.is_dir() and card_file(folder).name == TEAM_FILE


class ObservationBot:
    """A ``StateBot`` over an agent that reads what a seat sees: ``act(observation, mask)``
    (an object with that method, or a plain function of the two)."""

    def __init__(self, agent: Any, name: str | None = None) -> None:
        self.agent = agent
        self.act_on = agent.act if hasattr(agent, "act") else agent
        self.name = name or getattr(agent, "name", None) or getattr(agent, "__name__", "agent")

    def act(self, state: GameState) -> int:
        seat = state.current_player()
        mask = state.legal_mask().astype(np.int8)
        action = self.act_on(state.observation(seat), mask)
        if isinstance(action, np.ndarray) and action.shape in ((), (1,)):
            action = action.reshape(())[()]
        return action  # the state's apply() refuses anything but a legal integer


def agent_bot(agent: Any, seed: int | None = None) -> Any:
    """A ``StateBot`` for a Python agent: a state bot (``act(state)``) behind the door of
    ``seat_view`` (a ``SeatView``: at each decision a copy of the state re-drawn for its
    seat, from a generator seeded by ``seed``), an observation agent (``act(observation,
    mask)`` or a function of the two) wrapped to get its seat's observation and mask.
    Every Python agent of every command becomes a bot here, so none is handed the true
    state."""
    import inspect

    act = agent.act if hasattr(agent, "act") else agent
    if not callable(act):
        raise TypeError(f"{agent!r} is neither a spec string nor an agent with act(): an "
                        "agent is an object with act(observation, mask) or act(state), or "
                        "a function of (observation, mask)")
    try:
        params = [p for p in inspect.signature(act).parameters.values()
                  if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY,
                                                         p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):  # a builtin without a signature: assume (obs, mask)
        params = [None, None]
    if len(params) == 1 and hasattr(agent, "act"):
        return SeatView(agent, seed)
    if len(params) == 2:
        return ObservationBot(agent)
    raise TypeError(f"{agent!r}: act() must take (state) or (observation, mask)")


def spec_role(spec: OpponentSpec) -> str | None:
    """The role a checkpoint plays (None: any role, e.g. bots, teams, older cards)."""
    if isinstance(spec, str) and "@" in spec:  # a level of a network plays its role
        spec = spec.rsplit("@", 1)[0]
    if not isinstance(spec, str) or spec in ("random", "heuristic") or is_team(spec):
        return None
    folder = find_checkpoint(spec)
    if folder is None:
        return None
    try:
        return json.loads((folder / "card.json").read_text()).get("role")
    except (OSError, json.JSONDecodeError, AttributeError):
        return None


def import_agent(spec: str) -> Any:
    """The object a ``package.module:attribute`` spec names (a class is built without
    arguments), checked to be playable: how a CLI takes a Python agent.  The module is
    imported with the current folder first on ``sys.path``, as ``python -m`` would
    (``specs.with_cwd_on_path``): an agent file beside the user works without
    ``PYTHONPATH``."""
    module_name, _, attribute = spec.partition(":")
    with_cwd_on_path()
    importlib.invalidate_caches()  # a module written since the folder was last listed
    try:
        target: Any = importlib.import_module(module_name)
        for part in attribute.split("."):
            target = getattr(target, part)
    except (ImportError, AttributeError, ValueError) as exc:
        raise ConfigError(
            f"agent {spec!r}: cannot import it ({exc}); a Python agent is "
            f"package.module:attribute, the module found in the current folder "
            f"({os.getcwd()}) or on sys.path, the attribute an agent in it") from None
    if isinstance(target, type):
        target = target()
    try:
        agent_bot(target)
    except TypeError as exc:
        raise ConfigError(f"agent {spec!r}: {exc}") from None
    return target


def network_bot(spec: OpponentSpec, game: Game, seed: int | None = None,
                stochastic: bool = False, seat: int | None = None) -> Any:
    """A ``StateBot`` for ``random``, ``heuristic``, a team or a checkpoint's network alone
    (a team or a checkpoint: a folder or a zoo name).

    A checkpoint is checked against ``seat`` (default: the first seat of its role).
    The opponent models of ``training.search`` build their bots with it (no search
    inside a search); ``training.bots.make_bot`` adds a card's look-ahead on top.
    A Python agent (not a string), or the object a ``package.module:attribute`` string
    names, is played through ``agent_bot``: a state agent sees only its seat
    (``seat_view.SeatView``).
    """
    if isinstance(spec, TeamAgent):  # load()'s team: each seat by its role's member
        return TeamBot(spec, game)
    if not isinstance(spec, str | os.PathLike):
        return agent_bot(spec, seed)
    spec = str(spec)
    if spec == "random":
        return RandomBot(seed)
    if spec == "heuristic":
        bot = game.heuristic_bot(seed)
        bot.name = getattr(bot, "name", "heuristic")
        return bot
    if is_python_spec(spec):
        return agent_bot(import_agent(spec), seed)  # a package.module:attribute spec
    if is_team(spec):
        return TeamBot(spec, game, stochastic=stochastic, seed=seed)
    agent = load(spec, stochastic=stochastic, seed=seed)
    agent.check_compatible(game, seat)
    return PolicyBot(agent, name=str(spec))
