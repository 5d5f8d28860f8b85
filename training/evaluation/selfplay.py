"""Game records at scale: many games of any agents, every decision kept on disk.

    meeplezoo selfplay --env necropolis_railway_v1 --players 2 \\
        --agents necropolis_railway_v1/ppo_league heuristic --games 10000 --seed 1 \\
        --out runs/records/necro --workers 2
    meeplezoo selfplay ... --out runs/records/necro --resume     # play only what is missing

Why: value fitting and research need the same games many times over, and playing them is
the costly part.  This plays them once into a record folder (``training.data.records``:
the format, the reader and the per-role positions helper), where ``fitting/`` reads them
without importing ``evaluation/``.

Agents are ``make_bot`` specs (``random``, ``heuristic``, a checkpoint or team folder or
zoo name, a level ``<network>@hard``, a ``package.module:attribute`` Python agent, which
plays in this process as in the arena).  Seats rotate with the game number: seat ``s`` of
game ``g`` is played by ``agents[(s + g) % len(agents)]``, so over any ``len(agents)``
consecutive games every agent sits every seat (an agent that plays one role only cannot
sit every seat: give a team).  A network plays its best move (``--sample``: a move drawn
from its policy, for more varied positions) and its move probabilities are kept with the
kept positions; a search level keeps its root's visit shares; other agents keep none.

Every game is seeded from the run's seed and its number alone (each seat's agent seed, then
the deal seed, drawn from ``np.random.default_rng([seed, g])`` as ``evaluate`` and the
arena draw them; the keep draws from ``[seed, g, KEEP_TAG]``; a sampling network draws
from its seat seed as ``make_bot(..., stochastic=True)`` would), so the records are the
same however the games are split over ``--workers``, resumed, or played on a Ray cluster
(``--address``).  Each shard is one chunk of work: when it ends, the driver writes it and
lists it in the manifest, so a killed run loses at most the shards in flight, and
``--resume`` plays those again.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shlex
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from meeplezoo import envs
from meeplezoo.envs.core.command import run_command
from meeplezoo.envs.core.errors import ConfigError, MeepleZooError
from meeplezoo.envs.core.game import Game, GameState
from meeplezoo.envs.core.progress import Progress
from meeplezoo.envs.core.rewards import places, win_share, winners
from meeplezoo.training.agents.bots import make_bot
from meeplezoo.training.agents.ismcts import SearchBot
from meeplezoo.training.agents.opponents import PolicyBot, TeamBot, import_agent, spec_role
from meeplezoo.training.agents.specs import add_agents_argument, is_python_spec
from meeplezoo.training.data import records
from meeplezoo.training.evaluation import cluster

KEEP_TAG = 1  # keeps the keep draws apart from the seeds drawn from [seed, g]
ROTATION = "game g: seat s is played by agents[(s + g) % len(agents)]"
# What a resumed folder must share with the command line (games may grow).
SAME_RUN = ("env", "players", "options", "agents", "seed", "keep", "shard_games", "sample")


def seat_agents(agents: int, players: int, number: int) -> list[int]:
    """The agent index of each seat in game ``number`` (``ROTATION``)."""
    return [(seat + number) % agents for seat in range(players)]


def game_seeds(seed: int, number: int, players: int) -> tuple[list[int], int]:
    """Game ``number``'s seat seeds and deal seed, drawn as ``evaluate`` draws them."""
    rng = np.random.default_rng([seed, number])
    seats = [int(rng.integers(2**31)) for _ in range(players)]
    return seats, int(rng.integers(2**63 - 1))


# -- the seats of a game --------------------------------------------------------------------


class NetworkSeat:
    """A network (a checkpoint, or a team's member for this seat's role) played directly:
    one call gives both its move and its probabilities.  Greedy is ``PolicyAgent.act``'s
    argmax; sampling draws as ``PolicyAgent.act`` does, from ``rng``."""

    needs_observation = True

    def __init__(self, agent: Any, rng: np.random.Generator | None) -> None:
        self.agent, self.rng = agent, rng

    def move(self, state: GameState, observation: np.ndarray,
             mask: np.ndarray) -> tuple[int, np.ndarray]:
        logits = self.agent.logits(observation, mask)
        masked = np.where(mask, logits, -np.inf)
        if self.rng is None:
            action = int(np.argmax(masked))
        else:  # PolicyAgent.act's own draw, expression for expression
            legal = np.flatnonzero(mask)
            z = logits[legal] - logits[legal].max()
            p = np.exp(z)
            action = int(legal[self.rng.choice(legal.size, p=p / p.sum())])
        shifted = np.exp(masked - masked.max())
        return action, shifted / shifted.sum()


class SearchSeat:
    """A search level: its move, and the root's visit shares as its probabilities."""

    needs_observation = False

    def __init__(self, bot: SearchBot) -> None:
        self.bot = bot

    def move(self, state: GameState, observation: np.ndarray | None,
             mask: np.ndarray) -> tuple[int, np.ndarray]:
        result = self.bot.search.search(state)
        shares = np.zeros(mask.shape[0])
        for action, visits in result.visits.items():
            shares[action] = visits
        if shares.sum() <= 0:  # one legal action: nothing was searched
            shares[result.action] = 1.0
        return int(result.action), shares / shares.sum()


class PlainSeat:
    """Any other agent (a bot, a Python agent, a look-ahead card): its move, no
    probabilities."""

    needs_observation = False

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    def move(self, state: GameState, observation: np.ndarray | None,
             mask: np.ndarray) -> tuple[int, None]:
        return self.bot.act(state), None


class Table:
    """One worker's agents for many games: each network loaded once per seat and played
    directly (``NetworkSeat``), every other agent built afresh per game with its seat seed,
    as ``make_bot`` would build it."""

    def __init__(self, game: Game, agents: list[Any], sample: bool) -> None:
        self.game, self.agents, self.sample = game, agents, sample
        self._networks: dict[tuple[int, int], tuple[Any, bool]] = {}
        self._plain: set[tuple[int, int]] = set()

    def seats(self, lineup: list[int], seeds: list[int]) -> list[Any]:
        return [self._seat(agent, seat, seeds[seat]) for seat, agent in enumerate(lineup)]

    def _seat(self, agent: int, seat: int, seed: int) -> Any:
        key = (agent, seat)
        if key in self._networks:
            network, sampled = self._networks[key]
            return NetworkSeat(network, np.random.default_rng(seed) if sampled else None)
        bot = make_bot(self.agents[agent], self.game, seed, seat=seat)
        if key not in self._plain:
            network = None
            if isinstance(bot, PolicyBot) and hasattr(bot.agent, "logits"):
                network = bot.agent
            elif isinstance(bot, TeamBot):
                network = bot.by_role[self.game.seat_role(seat)].agent
            if network is not None:  # greedy unless --sample or a sampling level (@easy)
                sampled = self.sample or bool(getattr(network, "stochastic", False))
                self._networks[key] = (network, sampled)
                return self._seat(agent, seat, seed)
            self._plain.add(key)
        return SearchSeat(bot) if isinstance(bot, SearchBot) else PlainSeat(bot)


def play_record(game: Game, seats: list[Any], number: int, deal_seed: int, lineup: list[int],
                keep: float, keep_rng: np.random.Generator) -> records.GameLog:
    """Game ``number`` played to the end, every decision logged and a ``keep`` share of
    those with a choice kept with the acting seat's view."""
    role_index = {role: r for r, role in enumerate(game.roles)}
    roles = [role_index[game.seat_role(s)] for s in range(game.num_players)]
    state = game.new_initial_state(deal_seed)
    log = records.GameLog(number, deal_seed, list(lineup), roles, [], [], [])
    ply = 0
    while not state.is_terminal():
        if ply >= game.max_decisions:
            raise RuntimeError(f"{game.name}: game {number} not over after {ply} decisions")
        seat = state.current_player()
        mask = state.legal_mask()
        legal = int(np.count_nonzero(mask))
        kept = keep_rng.random() < keep and legal > 1
        mover = seats[seat]
        observation = (state.observation(seat) if kept or mover.needs_observation else None)
        action, policy = mover.move(state, observation, mask)
        if kept:
            log.kept[ply] = records.Kept(roles[seat], np.array(observation, np.float32),
                                         mask.copy(), policy)
        log.seats.append(seat)
        log.actions.append(int(action))
        log.legal.append(legal)
        state.apply(int(action))
        ply += 1
    keys = state.rank_keys()
    top = winners(keys)
    log.scores = [float(s) for s in state.scores()]
    log.places = [float(p) for p in places(keys)]
    log.win_shares = [win_share(s, top) for s in range(game.num_players)]
    return log


@dataclass(frozen=True)
class Run:
    """What every shard of a run shares (sent once to each worker)."""

    env: str
    config: dict[str, Any]
    agents: tuple[Any, ...]  # spec strings; Python agents (objects) play in this process
    seed: int
    keep: float
    sample: bool


_TABLES: dict[Any, tuple[Game, Table]] = {}  # a worker's game and agents, across its chunks


def _table(run: Run) -> tuple[Game, Table]:
    key = (run.env, json.dumps(run.config, sort_keys=True), run.sample,
           tuple(a if isinstance(a, str) else id(a) for a in run.agents))
    if key not in _TABLES:
        _TABLES.clear()  # one run at a time: the networks of another are let go
        game = envs.make_game(run.env, **run.config)
        _TABLES[key] = (game, Table(game, list(run.agents), run.sample))
    return _TABLES[key]


def play_shards(args: tuple[Run, list[tuple[int, int, int]]]) -> list[dict[str, Any]]:
    """Worker: each job ``(shard, first game, games)`` played and encoded (the shard's
    bytes come back to the driver, which writes them)."""
    run, jobs = args
    game, table = _table(run)
    sizes = {role: (game.observation_size(role), game.num_actions(role)) for role in game.roles}
    out = []
    for index, first, count in jobs:
        logs = []
        for number in range(first, first + count):
            seeds, deal = game_seeds(run.seed, number, game.num_players)
            lineup = seat_agents(len(run.agents), game.num_players, number)
            keep_rng = np.random.default_rng([run.seed, number, KEEP_TAG])
            logs.append(play_record(game, table.seats(lineup, seeds), number, deal, lineup,
                                    run.keep, keep_rng))
        arrays = records.pack_shard(index, logs, game.roles, sizes)
        out.append({"index": index, "first_game": first, "games": count,
                    "decisions": len(arrays["decision/game"]),
                    "kept": int(np.count_nonzero(arrays["decision/row"] >= 0)),
                    "data": records.encode_shard(arrays)})
    return out


# -- the driver -----------------------------------------------------------------------------


def resolve_agents(specs: list[Any]) -> list[Any]:
    """Spec strings as they are (workers build them), ``package.module:attribute`` as the
    object it names (it plays in this process), Python objects as they are."""
    resolved = []
    for spec in specs:
        resolved.append(import_agent(spec) if is_python_spec(spec) else spec)
    return resolved


def agent_name(spec: Any) -> str:
    if isinstance(spec, str):
        return spec
    return str(getattr(spec, "name", None) or getattr(spec, "__name__", None) or repr(spec))


def check_agents(game: Game, specs: list[str], agents: list[Any]) -> None:
    """Refuse, before any game, an agent that cannot sit in every seat of ``game`` (the
    rotation puts it in each), saying why."""
    roles = {game.seat_role(seat) for seat in range(game.num_players)}
    for spec, agent in zip(specs, agents):
        role = spec_role(agent)
        if role is not None and roles != {role}:
            raise ConfigError(f"agent {spec!r} plays only role {role!r}; selfplay rotates "
                              "every agent through every seat: give a team (one policy per "
                              "role) instead")
        try:
            bot = make_bot(agent, game, 0, seat=0)
            if isinstance(bot, PolicyBot) and hasattr(bot.agent, "check_compatible"):
                for seat in range(1, game.num_players):
                    bot.agent.check_compatible(game, seat)
        except MeepleZooError as exc:
            raise ConfigError(f"agent {spec!r} cannot play {game.name} with "
                              f"{game.num_players} player(s): {exc}") from None


def new_manifest(game: Game, settings: dict[str, Any], command: str,
                 commit: str) -> dict[str, Any]:
    """A new run's manifest (no shard yet)."""
    sizes = {role: {"observation": game.observation_size(role),
                    "actions": game.num_actions(role)} for role in game.roles}
    too_big = [role for role, s in sizes.items() if s["actions"] > records.ACTION_LIMIT]
    if too_big:
        raise ConfigError(f"{game.name}: role(s) {too_big} have more actions than a record's "
                          f"int16 action can hold")
    now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    return {"format": records.FORMAT, **settings, "command": command, "code_commit": commit,
            "created": now, "rotation": ROTATION, "config": game.config_dict(),
            "roles": list(game.roles),
            "seat_roles": [game.seat_role(s) for s in range(game.num_players)],
            "sizes": sizes, "sessions": [], "shards": []}


def open_folder(out: Path, manifest: dict[str, Any], resume: bool) -> dict[str, Any]:
    """The manifest to continue: ``manifest`` for a new folder, or the folder's own when
    ``resume`` and it was made by the same run (else a ``ConfigError`` naming the
    difference); its shards that are not whole are dropped from it (played again)."""
    exists = (out / records.MANIFEST).exists()
    if out.exists() and not out.is_dir():
        raise ConfigError(f"--out {out} is a file, not a folder")
    if not resume:
        if exists or (out.is_dir() and any(out.iterdir())):
            raise ConfigError(f"--out {out} exists and is not empty: give --resume to finish "
                              "the run it holds, or name a new folder")
        return manifest
    if not exists:
        if out.is_dir() and any(out.iterdir()):
            raise ConfigError(f"--resume: {out} has no {records.MANIFEST}: it is not a record "
                              "folder")
        return manifest
    old = records.read_manifest(out)
    for key in SAME_RUN:
        if old.get(key) != manifest[key]:
            raise ConfigError(f"--resume: {out} was recorded with {key} {old.get(key)!r}, not "
                              f"{manifest[key]!r}; name a new --out folder for another run")
    if manifest["games"] < old["games"]:
        raise ConfigError(f"--resume: {out} holds a run of {old['games']} games; --games "
                          f"{manifest['games']} would drop some (give {old['games']} or more)")
    for path in records.temporary_files(out):
        path.unlink()
    whole = []
    for entry in old["shards"]:
        expected = records.shard_range(entry["index"], manifest["games"],
                                       manifest["shard_games"])
        problem = records.check_shard_file(out, entry)
        if problem is None and (entry["first_game"], entry["games"]) == (expected.start,
                                                                         len(expected)):
            whole.append(entry)
        elif problem is not None:
            print(f"{entry['file']}: {problem}: playing it again", file=sys.stderr)
    return {**old, "games": manifest["games"], "shards": whole}


def run_selfplay(env_name: str, players: int, agents: list[Any], games: int, seed: int,
                 out: str | os.PathLike, keep: float = 1.0, shard_games: int = 100,
                 sample: bool = False, workers: int | cluster.Workers = 1,
                 resume: bool = False, options: dict[str, Any] | None = None,
                 progress: bool | str = False, command: str | None = None) -> dict[str, Any]:
    """Play the run's missing shards into ``out`` and return what this call did: games,
    decisions, bytes written, seconds, and the folder's totals.  ``agents``: spec strings
    or Python agents (``make_bot``'s specs)."""
    options = dict(options or {})
    if not agents:
        raise ConfigError("--agents: name at least one agent")
    if games < 1:
        raise ConfigError(f"--games {games}: play at least one game")
    if not 0.0 < keep <= 1.0:
        raise ConfigError(f"--keep {keep}: the share of decisions kept must be in (0, 1]")
    if shard_games < 1:
        raise ConfigError(f"--shard-games {shard_games}: at least one game a shard")
    game = envs.make_game(env_name, num_players=players, **options)
    specs = [agent_name(a) for a in agents]
    resolved = resolve_agents(list(agents))
    check_agents(game, specs, resolved)
    from meeplezoo.training.cli import code_commit

    commit = code_commit()
    command = command or ("meeplezoo selfplay " + shlex.join(
        ["--env", env_name, "--players", str(players), "--agents", *specs, "--games",
         str(games), "--seed", str(seed), "--out", str(out), "--keep", str(keep),
         "--shard-games", str(shard_games), *(["--sample"] if sample else [])]))
    settings = {"env": env_name, "players": players, "options": options, "agents": specs,
                "seed": seed, "keep": keep, "shard_games": shard_games, "sample": sample,
                "games": games}
    folder = Path(out)
    manifest = open_folder(folder, new_manifest(game, settings, command, commit), resume)
    folder.mkdir(parents=True, exist_ok=True)
    session = len(manifest["sessions"])
    manifest["sessions"].append({"command": command, "code_commit": commit, "started":
                                 datetime.datetime.now(datetime.timezone.utc)
                                 .isoformat(timespec="seconds")})
    done = {entry["index"] for entry in manifest["shards"]}
    jobs = [(k, r.start, len(r))
            for k in range(records.shard_count(games, shard_games)) if k not in done
            for r in [records.shard_range(k, games, shard_games)]]
    records.write_manifest(folder, manifest)
    made = {"games": 0, "decisions": 0, "bytes": 0, "shards": 0}
    run = Run(env_name, game.config_dict(), tuple(resolved), seed, keep, sample)
    python_agents = any(not isinstance(a, str) for a in resolved)
    start = time.perf_counter()
    with Progress(sum(j[2] for j in jobs), f"selfplay {env_name}", unit="game",
                  style=progress) as bar:

        def written(part: list[dict[str, Any]]) -> None:
            for result in part:  # the bytes leave the result: the driver keeps no shard
                data = result.pop("data")
                entry = records.write_shard(folder, result["index"], data,
                                            result["first_game"], result["games"],
                                            result["decisions"], kept=result["kept"],
                                            code_commit=commit, session=session)
                manifest["shards"] = [e for e in manifest["shards"]
                                      if e["index"] != entry["index"]] + [entry]
                records.write_manifest(folder, manifest)
                made["games"] += result["games"]
                made["decisions"] += result["decisions"]
                made["bytes"] += entry["bytes"]
                made["shards"] += 1
                bar.update(result["games"])

        cluster.play_chunks(play_shards, run, jobs, workers, written, chunk_size=1,
                            in_process=python_agents)
    seconds = time.perf_counter() - start
    return {**made, "seconds": seconds, "kept_shards": len(done),
            "folder_games": sum(e["games"] for e in manifest["shards"]),
            "folder_bytes": sum(e["bytes"] for e in manifest["shards"]),
            "folder_decisions": sum(e["decisions"] for e in manifest["shards"])}


def summary_line(out: str | os.PathLike, made: dict[str, Any]) -> str:
    rate = made["games"] / made["seconds"] if made["seconds"] > 0 else 0.0
    line = (f"{out}: {made['games']} games, {made['decisions']:,} decisions, "
            f"{made['bytes']:,} bytes in {made['seconds']:.1f} s ({rate:.2f} games/s)")
    if made["kept_shards"]:
        line += (f"; {made['kept_shards']} shard(s) were already whole; the folder holds "
                 f"{made['folder_games']} games, {made['folder_bytes']:,} bytes")
    return line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="meeplezoo selfplay",
        description="Play games of any agents and keep every decision as records (a "
                    "manifest and npz shards) for value fitting and research")
    parser.add_argument("--env", required=True)
    parser.add_argument("--players", type=int, required=True)
    add_agents_argument(parser, "--agents", required=True,
                        what="the agents; seat s of game g is played by agents[(s + g) mod "
                             "len(agents)]")
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--out", required=True, help="the record folder")
    parser.add_argument("--keep", type=float, default=1.0,
                        help="share of the decisions with a choice whose observation, mask "
                             "and probabilities are kept (default 1.0)")
    parser.add_argument("--shard-games", type=int, default=100,
                        help="games per shard (default 100): a shard is written as it ends")
    parser.add_argument("--sample", action="store_true",
                        help="networks draw their moves from their policy (default: their "
                             "best move)")
    parser.add_argument("--resume", action="store_true",
                        help="finish the run in --out: play only its missing shards (the "
                             "same env, players, agents, seed, keep and shard size)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="game option, e.g. population_scoring=mode")
    cluster.add_arguments(parser)
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="progress bar (default: a bar on a terminal, else a line every "
                             "30 s on stderr; --no-progress: none)")
    args = parser.parse_args(argv)
    from meeplezoo.training.cli import parse_options

    options = parse_options(args.option)
    where = cluster.workers_from(args)
    command = "meeplezoo selfplay " + shlex.join(sys.argv[1:] if argv is None else argv)
    made = run_selfplay(args.env, args.players, args.agents, args.games, args.seed, args.out,
                        args.keep, args.shard_games, args.sample, where, args.resume, options,
                        "auto" if args.progress is None else args.progress, command)
    print(summary_line(args.out, made))
    return 0


if __name__ == "__main__":
    raise SystemExit(run_command(main))
