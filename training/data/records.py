"""Game records on disk: every decision of many games, shard by shard (``meeplezoo selfplay``).

    from meeplezoo.training.data.records import Records
    records = Records("runs/records/necro")
    for game in records.iter_games():          # one shard in memory at a time
        print(game.number, game.scores, len(game.actions))
    rows = records.positions("player", games=range(0, 900))   # kept positions + targets

Why a format of its own: value fitting, search tuning and research need the same games
again and again (positions, the moves played, who won), and playing them is the costly
part.  A record folder keeps them once, in a shape that a reader can stream without
loading the whole run, and that a run split over workers, resumed, or played on a Ray
cluster writes identically (a game depends only on the run seed and its number).

A record folder is ``manifest.json`` and ``shards/shard-NNNNN.npz``.  Shard ``k`` holds
games ``k*S .. k*S+S-1`` (``S``: the manifest's ``shard_games``; the last shard may be
short).  A shard is a zip of ``.npy`` arrays, read by ``np.load`` as ``np.savez_compressed``
writes them, but written with fixed timestamps so the same games give the same bytes
(and the same sha256) on the same software.  It is written under a temporary name, renamed
into place, and only then listed in the manifest (itself rewritten by rename), so a shard
counted in the manifest is always whole; a reader refuses a shard whose bytes or format
differ from what the manifest says, naming it.

The arrays of a shard (``D`` decisions, ``G`` games, ``N`` seats; ``K_r`` kept rows of
role ``r``, whose observation has ``O_r`` values and whose catalogue ``A_r`` actions):

    format              str              FORMAT ("meeplezoo-records/1")
    shard               int64            the shard's index
    decision/game       int32   (D,)     the game's number
    decision/ply        int32   (D,)     the decision's index in its game (0, 1, ...)
    decision/seat       int8    (D,)     the acting seat
    decision/action     int16   (D,)     the action played (an index of the seat's catalogue)
    decision/legal      int16   (D,)     how many actions were legal
    decision/row        int32   (D,)     the row of the seat's role's kept arrays, -1: not kept
    observation/<r>     float16 or float32 (K_r, O_r)  the acting seat's observation
    mask/<r>            uint8   (K_r, ceil(A_r/8))     np.packbits of the legal mask
    policy/<r>          float16 (K_r, A_r)  the acting agent's move probabilities (0 if none)
    has_policy/<r>      bool    (K_r,)   whether that row has them
    game/number         int32   (G,)
    game/deal_seed      int64   (G,)     game.new_initial_state(deal_seed) deals it again
    game/agent          int16   (G, N)   each seat's agent: an index of the manifest's agents
    game/role           int8    (G, N)   each seat's role: an index of the manifest's roles
    game/score          float64 (G, N)   state.scores() at the end
    game/place          float64 (G, N)   0-based finishing place from rank_keys (ties share:
                                         two tied firsts are 0.5 each)
    game/win_share      float64 (G, N)   1 alone, 1/k among k co-winners, else 0
    game/decisions      int32   (G,)     the game's decisions (its rows of decision/*)

Decisions are in game order, and within a game in play order.  A kept decision's
observation is float16 only when every value of that role's observations in the shard
survives the cast within 1e-3 relative (``fits_float16``), float32 otherwise; readers get
float32 either way.  Decisions with a single legal action are never kept (nothing was
decided there), though they are in ``decision/*``.  A game is a pure function of its
configuration, deal seed and actions: ``replay`` plays one again from its record.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import zipfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from meeplezoo.envs.core.errors import ConfigError, CorruptStateError

FORMAT_NAME = "meeplezoo-records"
FORMAT_VERSION = 1
FORMAT = f"{FORMAT_NAME}/{FORMAT_VERSION}"
MANIFEST = "manifest.json"
SHARD_FOLDER = "shards"
TEMPORARY = ".tmp"  # a file being written ends so; never listed, removed by a resume
FLOAT16_TOLERANCE = 1e-3  # relative: what an observation may lose in a float16 shard
ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # every member's timestamp: the same games, the same bytes
ACTION_LIMIT = np.iinfo(np.int16).max  # actions and legal counts are int16


class RecordsError(CorruptStateError):
    """A record folder or shard that cannot be read as the manifest says (missing, changed,
    damaged, or of another format version)."""


# -- names and ranges -----------------------------------------------------------------------


def shard_name(index: int) -> str:
    """``shard-00007.npz``: five digits sort the files in game order up to 100,000 shards."""
    return f"shard-{index:05d}.npz"


def shard_path(folder: str | os.PathLike, index: int) -> Path:
    return Path(folder) / SHARD_FOLDER / shard_name(index)


def shard_count(games: int, shard_games: int) -> int:
    return -(-games // shard_games)


def shard_range(index: int, games: int, shard_games: int) -> range:
    """The game numbers of shard ``index`` in a run of ``games`` games."""
    first = index * shard_games
    return range(first, min(first + shard_games, games))


def fits_float16(values: np.ndarray, tolerance: float = FLOAT16_TOLERANCE) -> bool:
    """Whether every value survives a float16 round trip within ``tolerance`` relative
    (zero stays zero; an overflow, a tiny subnormal or a NaN does not survive)."""
    x = np.asarray(values, dtype=np.float32)
    with np.errstate(invalid="ignore", over="ignore"):
        back = x.astype(np.float16).astype(np.float32)
        return bool(np.all(np.abs(back - x) <= tolerance * np.abs(x)))


# -- one game, as the player logs it --------------------------------------------------------


@dataclass
class Kept:
    """A kept decision: the acting seat's view, and its agent's probabilities if any."""

    role: int
    observation: np.ndarray
    mask: np.ndarray
    policy: np.ndarray | None = None


@dataclass
class GameLog:
    """One finished game as the player collects it (``pack_shard`` turns many into
    arrays).  ``kept`` maps a decision's ply to what was kept of it."""

    number: int
    deal_seed: int
    agents: list[int]
    roles: list[int]
    scores: list[float]
    places: list[float]
    win_shares: list[float]
    seats: list[int] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    legal: list[int] = field(default_factory=list)
    kept: dict[int, Kept] = field(default_factory=dict)


def pack_shard(index: int, logs: Sequence[GameLog], roles: Sequence[str],
               sizes: Mapping[str, tuple[int, int]]) -> dict[str, np.ndarray]:
    """A shard's arrays (the module docstring's keys) from its games, in game order.
    ``sizes``: each role's (observation size, action count)."""
    logs = sorted(logs, key=lambda log: log.number)
    rows: dict[int, list[Kept]] = {r: [] for r in range(len(roles))}
    row_of: list[np.ndarray] = []
    for log in logs:
        row = np.full(len(log.actions), -1, dtype=np.int32)
        for ply, kept in sorted(log.kept.items()):
            row[ply] = len(rows[kept.role])
            rows[kept.role].append(kept)
        row_of.append(row)
    decisions = [len(log.actions) for log in logs]

    def column(values: Iterable[Any], dtype: Any) -> np.ndarray:
        return np.asarray(list(values), dtype=dtype)

    arrays: dict[str, np.ndarray] = {
        "format": np.array(FORMAT),
        "shard": np.array(index, dtype=np.int64),
        "decision/game": np.repeat(column((log.number for log in logs), np.int32), decisions),
        "decision/ply": np.concatenate([np.arange(n, dtype=np.int32) for n in decisions]
                                       or [np.zeros(0, np.int32)]),
        "decision/seat": column((s for log in logs for s in log.seats), np.int8),
        "decision/action": column((a for log in logs for a in log.actions), np.int16),
        "decision/legal": column((n for log in logs for n in log.legal), np.int16),
        "decision/row": (np.concatenate(row_of) if row_of else np.zeros(0, np.int32)),
        "game/number": column((log.number for log in logs), np.int32),
        "game/deal_seed": column((log.deal_seed for log in logs), np.int64),
        "game/agent": column((log.agents for log in logs), np.int16),
        "game/role": column((log.roles for log in logs), np.int8),
        "game/score": column((log.scores for log in logs), np.float64),
        "game/place": column((log.places for log in logs), np.float64),
        "game/win_share": column((log.win_shares for log in logs), np.float64),
        "game/decisions": column(decisions, np.int32),
    }
    for r, role in enumerate(roles):
        observation_size, actions = sizes[role]
        kept = rows[r]
        # filled row by row: no float32 copy of the whole shard beside the rows themselves
        small = all(fits_float16(k.observation) for k in kept)
        observations = np.empty((len(kept), observation_size),
                                np.float16 if small else np.float32)
        masks = np.empty((len(kept), actions), bool)
        for i, k in enumerate(kept):
            observations[i] = k.observation
            masks[i] = k.mask
        arrays[f"observation/{role}"] = observations
        arrays[f"mask/{role}"] = np.packbits(masks, axis=1)
        policy = np.zeros((len(kept), actions), np.float16)
        has = np.zeros(len(kept), bool)
        for i, k in enumerate(kept):
            if k.policy is not None:
                policy[i] = k.policy
                has[i] = True
        arrays[f"policy/{role}"] = policy
        arrays[f"has_policy/{role}"] = has
    return arrays


def encode_shard(arrays: Mapping[str, np.ndarray]) -> bytes:
    """The shard file's bytes: each array as ``<key>.npy`` in a deflated zip (what
    ``np.savez_compressed`` writes), keys in sorted order and every timestamp fixed, so
    the same arrays always give the same bytes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for key in sorted(arrays):
            info = zipfile.ZipInfo(f"{key}.npy", date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            with archive.open(info, "w", force_zip64=True) as out:
                np.lib.format.write_array(out, np.asarray(arrays[key]), allow_pickle=False)
    return buffer.getvalue()


# -- writing a folder -----------------------------------------------------------------------


def _write_atomically(path: Path, data: bytes) -> None:
    """``data`` at ``path`` by a temporary file renamed into place: a reader (or a run
    killed half way) sees the old file or the new one, never part of one."""
    temporary = path.with_name(f"{path.name}.{os.getpid()}{TEMPORARY}")
    with open(temporary, "wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temporary, path)


def write_shard(folder: str | os.PathLike, index: int, data: bytes, first_game: int,
                games: int, decisions: int, **extra: Any) -> dict[str, Any]:
    """Write shard ``index``'s bytes into ``folder`` (atomically) and return its manifest
    entry; the caller lists it (``write_manifest``) only after this returns."""
    path = shard_path(folder, index)
    path.parent.mkdir(parents=True, exist_ok=True)
    _write_atomically(path, data)
    return {"index": index, "file": f"{SHARD_FOLDER}/{path.name}", "first_game": first_game,
            "games": games, "decisions": decisions, "bytes": len(data),
            "sha256": hashlib.sha256(data).hexdigest(), **extra}


def write_manifest(folder: str | os.PathLike, manifest: Mapping[str, Any]) -> None:
    """``manifest.json``, rewritten atomically (shards sorted by index)."""
    manifest = dict(manifest)
    manifest["shards"] = sorted(manifest.get("shards", []), key=lambda s: s["index"])
    text = json.dumps(manifest, indent=1, sort_keys=False) + "\n"
    _write_atomically(Path(folder) / MANIFEST, text.encode())


def read_manifest(folder: str | os.PathLike) -> dict[str, Any]:
    """The folder's manifest, checked to be this format's; a ``RecordsError`` naming the
    folder otherwise."""
    path = Path(folder) / MANIFEST
    if not path.is_file():
        raise RecordsError(f"{folder}: no {MANIFEST}: not a record folder (meeplezoo selfplay "
                           "writes one)")
    try:
        manifest = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RecordsError(f"{path}: damaged manifest ({exc})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        found = manifest.get("format") if isinstance(manifest, dict) else None
        raise RecordsError(f"{path}: format {found!r}; this code reads {FORMAT!r}")
    return manifest


def temporary_files(folder: str | os.PathLike) -> list[Path]:
    """Files a killed run left half written (``*.tmp``): never listed, safe to delete."""
    root = Path(folder)
    found = list(root.glob(f"*{TEMPORARY}"))
    if (root / SHARD_FOLDER).is_dir():
        found += list((root / SHARD_FOLDER).glob(f"*{TEMPORARY}"))
    return sorted(found)


def shard_problem(data: bytes, entry: Mapping[str, Any]) -> str | None:
    """What is wrong with a listed shard's bytes (another size, another sha256), or None
    when they are the bytes the manifest lists."""
    if len(data) != entry["bytes"]:
        return f"{len(data)} bytes, the manifest says {entry['bytes']}"
    if hashlib.sha256(data).hexdigest() != entry["sha256"]:
        return "its sha256 differs from the manifest's (the file was changed or damaged)"
    return None


def check_shard_file(folder: str | os.PathLike, entry: Mapping[str, Any]) -> str | None:
    """What is wrong with a listed shard's file (missing, or ``shard_problem``), or None
    when it is the file the manifest lists."""
    path = Path(folder) / entry["file"]
    if not path.is_file():
        return "missing"
    return shard_problem(path.read_bytes(), entry)


# -- reading --------------------------------------------------------------------------------


@dataclass
class GameRecord:
    """One game read back: who sat where, how it ended, and every decision (``rows``: each
    decision's row in its role's kept arrays of the shard, -1 if not kept)."""

    number: int
    deal_seed: int
    agents: list[str]
    roles: list[str]
    scores: np.ndarray
    places: np.ndarray
    win_shares: np.ndarray
    seats: np.ndarray
    actions: np.ndarray
    legal: np.ndarray
    rows: np.ndarray


@dataclass
class Positions:
    """Kept positions of one role with their game's outcome for the acting seat: the rows
    a value (or policy) fit reads.  ``margin``: the seat's final score minus the best other
    seat's (a solo game: the score itself, nobody to beat); ``third``: 0, 1 or 2, the
    third of its game the ply falls in; ``place``: 0-based, ties share."""

    observations: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    seats: np.ndarray
    plies: np.ndarray
    games: np.ndarray
    thirds: np.ndarray
    score: np.ndarray
    margin: np.ndarray
    win_share: np.ndarray
    place: np.ndarray
    policies: np.ndarray | None = None
    has_policy: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.games)


def margins(scores: np.ndarray) -> np.ndarray:
    """Each seat's score minus the best other seat's, per row of ``scores`` (G, N); a solo
    game's margin is its score."""
    scores = np.asarray(scores, dtype=np.float64)
    if scores.shape[1] == 1:
        return scores.copy()
    order = np.sort(scores, axis=1)
    best, second = order[:, -1:], order[:, -2:-1]
    return scores - np.where(scores == best, second, best)


class Shard:
    """One shard, checked against its manifest entry, its arrays read when first asked
    (``np.load`` of a zip reads member by member)."""

    def __init__(self, records: Records, entry: Mapping[str, Any]) -> None:
        self.records = records
        self.entry = dict(entry)
        self.index = int(entry["index"])
        self.path = records.folder / entry["file"]
        name = f"{self.path} (shard {self.index})"
        try:
            data = self.path.read_bytes()
        except OSError as exc:
            raise RecordsError(f"{name}: listed in the manifest but not readable ({exc}); "
                               "run the manifest's command again with --resume to play it "
                               "again") from None
        problem = shard_problem(data, entry)
        if problem is not None:
            raise RecordsError(f"{name}: {problem}; run the manifest's command again with "
                               "--resume to play it again (a resume replaces it)")
        try:
            self._npz = np.load(io.BytesIO(data), allow_pickle=False)
            found = str(self._npz["format"])
            index = int(self._npz["shard"])
        except (OSError, ValueError, KeyError, zipfile.BadZipFile) as exc:
            raise RecordsError(f"{name}: not a readable shard ({exc})") from None
        if found != FORMAT:
            raise RecordsError(f"{name}: format {found!r}; this code reads {FORMAT!r}")
        if index != self.index:
            raise RecordsError(f"{name}: the file holds shard {index}")
        self._cache: dict[str, np.ndarray] = {}

    def __getitem__(self, key: str) -> np.ndarray:
        if key not in self._cache:
            try:
                self._cache[key] = self._npz[key]
            except (KeyError, ValueError, zipfile.BadZipFile) as exc:
                raise RecordsError(f"{self.path} (shard {self.index}): no readable array "
                                   f"{key!r} ({exc})") from None
        return self._cache[key]

    def keys(self) -> list[str]:
        """The shard's array keys (the module docstring's)."""
        return list(self._npz.files)

    def __iter__(self) -> Iterator[str]:
        return iter(self.keys())

    def observations(self, role: str) -> np.ndarray:
        return np.asarray(self[f"observation/{role}"], dtype=np.float32)

    def masks(self, role: str) -> np.ndarray:
        actions = self.records.sizes[role][1]
        return np.unpackbits(self[f"mask/{role}"], axis=1, count=actions).astype(bool)

    def games(self) -> Iterator[GameRecord]:
        agents, roles = self.records.agents, self.records.roles
        ends = np.cumsum(self["game/decisions"])
        starts = ends - self["game/decisions"]
        for g, number in enumerate(self["game/number"]):
            cut = slice(int(starts[g]), int(ends[g]))
            yield GameRecord(
                number=int(number), deal_seed=int(self["game/deal_seed"][g]),
                agents=[agents[a] for a in self["game/agent"][g]],
                roles=[roles[r] for r in self["game/role"][g]],
                scores=self["game/score"][g], places=self["game/place"][g],
                win_shares=self["game/win_share"][g], seats=self["decision/seat"][cut],
                actions=self["decision/action"][cut], legal=self["decision/legal"][cut],
                rows=self["decision/row"][cut])

    def positions(self, role: str, wanted: np.ndarray | None = None,
                  policy: bool = False) -> Positions:
        """This shard's kept positions of ``role`` (of the games in ``wanted``, sorted game
        numbers; None: all)."""
        r = self.records.roles.index(role)
        numbers = self["game/number"]
        game = self["decision/game"]
        local = np.searchsorted(numbers, game)
        seat = self["decision/seat"].astype(np.int64)
        ply = self["decision/ply"]
        row = self["decision/row"]
        chosen = (self["game/role"][local, seat] == r) & (row >= 0)
        if wanted is not None:
            chosen &= np.isin(game, wanted)
        where = np.flatnonzero(chosen)
        local, seat, rows = local[where], seat[where], row[where]
        decisions = self["game/decisions"][local]
        scores = self["game/score"]
        out = Positions(
            observations=self.observations(role)[rows], masks=self.masks(role)[rows],
            actions=self["decision/action"][where], seats=seat.astype(np.int8),
            plies=ply[where], games=game[where],
            thirds=np.minimum(2, 3 * ply[where] // np.maximum(decisions, 1)).astype(np.int8),
            score=scores[local, seat], margin=margins(scores)[local, seat],
            win_share=self["game/win_share"][local, seat], place=self["game/place"][local, seat])
        if policy:
            out.policies = np.asarray(self[f"policy/{role}"][rows], dtype=np.float32)
            out.has_policy = self[f"has_policy/{role}"][rows]
        return out


class Records:
    """A record folder: its manifest, and its shards read one at a time.  Nothing is loaded
    for the whole folder unless asked (``game_table`` reads only the per-game arrays)."""

    def __init__(self, folder: str | os.PathLike) -> None:
        self.folder = Path(folder)
        self.manifest = read_manifest(self.folder)
        try:
            self.env: str = self.manifest["env"]
            self.players: int = int(self.manifest["players"])
            self.agents: list[str] = list(self.manifest["agents"])
            self.roles: list[str] = list(self.manifest["roles"])
            self.sizes: dict[str, tuple[int, int]] = {
                role: (int(s["observation"]), int(s["actions"]))
                for role, s in self.manifest["sizes"].items()}
            self.shard_games: int = int(self.manifest["shard_games"])
            self.games_planned: int = int(self.manifest["games"])
            self.entries: list[dict[str, Any]] = sorted(self.manifest["shards"],
                                                        key=lambda s: s["index"])
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordsError(f"{self.folder / MANIFEST}: damaged manifest ({exc})") from None

    @property
    def games(self) -> int:
        """The games of the complete shards (all of ``games_planned`` once the run ends)."""
        return sum(int(e["games"]) for e in self.entries)

    @property
    def complete(self) -> bool:
        return self.games == self.games_planned

    def shard(self, index: int) -> Shard:
        for entry in self.entries:
            if entry["index"] == index:
                return Shard(self, entry)
        raise RecordsError(f"{self.folder}: shard {index} is not among the complete shards "
                           f"({len(self.entries)} listed)")

    def iter_shards(self, indices: Iterable[int] | None = None) -> Iterator[Shard]:
        """The listed shards (or those of ``indices``), one loaded at a time."""
        chosen = None if indices is None else set(indices)
        for entry in self.entries:
            if chosen is None or entry["index"] in chosen:
                yield Shard(self, entry)

    def iter_games(self, games: Iterable[int] | None = None) -> Iterator[GameRecord]:
        """Every game of the complete shards (or of ``games``), in game order."""
        wanted = None if games is None else set(int(g) for g in games)
        for shard in self.iter_shards(self._shards_of(wanted)):
            for game in shard.games():
                if wanted is None or game.number in wanted:
                    yield game

    def game_table(self) -> dict[str, np.ndarray]:
        """The per-game arrays (``game/*``) of every complete shard, joined: small beside
        the observations, which stay unread."""
        parts: dict[str, list[np.ndarray]] = {}
        for shard in self.iter_shards():
            for key in shard:
                if key.startswith("game/"):
                    parts.setdefault(key, []).append(shard[key])
        return {key: np.concatenate(values) for key, values in parts.items()}

    def positions(self, role: str | None = None, games: Iterable[int] | None = None,
                  policy: bool = False) -> Positions:
        """The kept positions of ``role`` (None: a symmetric game's only role) in ``games``
        (None: every complete shard's), shard by shard, with each acting seat's targets
        joined from its game (``Positions``); ``policy``: the agents' probabilities too."""
        if role is None:
            if len(self.roles) != 1:
                raise ConfigError(f"{self.env} has roles {self.roles}: name one")
            role = self.roles[0]
        if role not in self.roles:
            raise ConfigError(f"role {role!r} is not one of {self.roles}")
        wanted = None if games is None else np.unique(np.fromiter(games, dtype=np.int64))
        parts = [shard.positions(role, wanted, policy)
                 for shard in self.iter_shards(self._shards_of(wanted))]
        if not parts:
            size, actions = self.sizes[role]
            parts = [Positions(np.zeros((0, size), np.float32), np.zeros((0, actions), bool),
                               *(np.zeros(0, t) for t in (np.int16, np.int8, np.int32,
                                                          np.int32, np.int8)),
                               *(np.zeros(0) for _ in range(4)),
                               np.zeros((0, actions), np.float32) if policy else None,
                               np.zeros(0, bool) if policy else None)]
        joined = {name: np.concatenate([getattr(p, name) for p in parts])
                  for name in Positions.__dataclass_fields__
                  if getattr(parts[0], name) is not None}
        return Positions(**joined)

    def _shards_of(self, games: Iterable[int] | None) -> list[int] | None:
        """The listed shards that hold any of ``games`` (None: all)."""
        if games is None:
            return None
        indices = {int(g) // self.shard_games for g in games}
        return [e["index"] for e in self.entries if e["index"] in indices]


class RecordSet:
    """Several record folders of one game, read as one run: games are numbered on, folder
    after folder (the first folder's game ``g`` is ``g``, the second's is the first's
    ``games_planned + g``, ...), so a fit can grow its data with a second ``selfplay`` run
    instead of replaying the first.  The folders must agree on env, player count,
    configuration, roles and sizes, and share no deal: two runs of the same seed would
    count each game twice, and a game in both the fitted and the held-out part would
    leak its outcome."""

    def __init__(self, folders: Sequence[str | os.PathLike]) -> None:
        if not folders:
            raise ConfigError("a record set needs at least one record folder")
        self.parts = [Records(folder) for folder in folders]
        first = self.parts[0]
        for part in self.parts[1:]:
            for name, mine, theirs in (
                    ("env", first.env, part.env), ("players", first.players, part.players),
                    ("config", first.manifest.get("config"), part.manifest.get("config")),
                    ("roles", first.roles, part.roles), ("sizes", first.sizes, part.sizes)):
                if mine != theirs:
                    raise ConfigError(f"{part.folder} cannot join {first.folder}: its {name} "
                                      f"is {theirs!r}, not {mine!r}; a record set is one "
                                      "game at one player count and configuration")
        self.offsets = [0]
        for part in self.parts[:-1]:
            self.offsets.append(self.offsets[-1] + part.games_planned)
        self.env, self.players, self.roles = first.env, first.players, first.roles
        self.sizes = first.sizes
        self.manifest = {"config": first.manifest.get("config", {})}
        if len(self.parts) > 1:
            self._refuse_shared_deals()

    def _refuse_shared_deals(self) -> None:
        seen: dict[int, Path] = {}
        for part in self.parts:
            seeds = part.game_table().get("game/deal_seed", np.zeros(0, np.int64))
            shared = [int(s) for s in seeds if int(s) in seen]
            if shared:
                raise ConfigError(f"{part.folder} deals {len(shared)} games that "
                                  f"{seen[shared[0]]} deals too (deal seed {shared[0]}): "
                                  "join runs of different seeds")
            seen.update((int(s), part.folder) for s in seeds)

    @property
    def games(self) -> int:
        return sum(part.games for part in self.parts)

    @property
    def games_planned(self) -> int:
        return sum(part.games_planned for part in self.parts)

    @property
    def complete(self) -> bool:
        return all(part.complete for part in self.parts)

    def describe(self) -> list[dict[str, Any]]:
        """Each folder's run, as a card records it."""
        keys = ("command", "code_commit", "seed", "games", "keep", "agents", "players")
        return [{"folder": part.folder.name, "first_game": offset,
                 **{key: part.manifest.get(key) for key in keys}}
                for part, offset in zip(self.parts, self.offsets)]

    def _split(self, games: Iterable[int] | None) -> list[np.ndarray | None]:
        """Each folder's own game numbers among the set's ``games`` (None: all)."""
        if games is None:
            return [None] * len(self.parts)
        numbers = np.unique(np.fromiter(games, dtype=np.int64))
        ends = [*self.offsets[1:], self.offsets[-1] + self.parts[-1].games_planned]
        return [numbers[(numbers >= start) & (numbers < end)] - start
                for start, end in zip(self.offsets, ends)]

    def iter_games(self, games: Iterable[int] | None = None) -> Iterator[GameRecord]:
        """Every game (or those of ``games``), numbered in the set, in order."""
        for part, offset, local in zip(self.parts, self.offsets, self._split(games)):
            if local is not None and not len(local):
                continue
            for record in part.iter_games(None if local is None else local.tolist()):
                record.number += offset
                yield record

    def positions(self, role: str | None = None, games: Iterable[int] | None = None,
                  policy: bool = False) -> Positions:
        """``Records.positions`` over every folder, games numbered in the set."""
        parts = []
        for part, offset, local in zip(self.parts, self.offsets, self._split(games)):
            if local is not None and not len(local) and parts:
                continue
            found = part.positions(role, None if local is None else local.tolist(), policy)
            found.games = found.games.astype(np.int64) + offset
            parts.append(found)
        if len(parts) == 1:
            return parts[0]
        return Positions(**{name: np.concatenate([getattr(p, name) for p in parts])
                            for name in Positions.__dataclass_fields__
                            if getattr(parts[0], name) is not None})


def positions(folder: str | os.PathLike, role: str | None = None,
              games: Iterable[int] | None = None, policy: bool = False) -> Positions:
    """``Records(folder).positions(role, games, policy)``."""
    return Records(folder).positions(role, games, policy)


def replay(game: Any, record: GameRecord) -> Any:
    """The final state of ``record``'s game played again in ``game`` (the engine of the
    manifest's env and configuration) from its deal seed and actions: a game is a pure
    function of them, so its scores are the record's."""
    state = game.new_initial_state(record.deal_seed)
    for ply, (seat, action) in enumerate(zip(record.seats, record.actions)):
        if state.current_player() != seat:
            raise RecordsError(f"game {record.number}, ply {ply}: seat {seat} is recorded "
                               f"to act, the game has seat {state.current_player()}")
        state.apply(int(action))
    return state
