"""Where the evaluation commands play their games: here, in local worker processes, or as
tasks on a Ray cluster.

    meeplezoo arena --env chihou_sousei_v1 --players 4 --games 600 --address auto

``evaluate``, ``arena`` and ``balance`` hand their games to ``play_chunks`` with a function
that plays a chunk of them (``envs.core.balance.run_batches`` cuts the chunks and gathers
the results in the order of the games).  ``workers`` says where: a number of local
processes, or ``Workers(address=...)``, a Ray cluster (``auto``: the one this node belongs
to, ``HOST:PORT``, or ``ray://HOST:PORT`` through Ray Client), where every chunk is a task of
one CPU.  Every game is seeded from the run's seed and its number alone, so the results are
the same wherever and however split the games are played.

On a cluster, a task lost with its worker process or its node is played again elsewhere, up
to ``retries`` times (Ray's ``max_retries``); an exception raised by the games is a bug or
a bad agent and is not retried (``retry_exceptions=False``): the run stops with it.  A chunk
still lost after its retries stops the run with ``GamesLost``, which says how many games
were lost, once every other chunk has ended (a ``balance --journal`` keeps those games):
a partial result is never reported as a whole one.

A task runs in the driver's working directory when its node has that folder (the same
path on every node), so a relative checkpoint path means there what it means here; zoo
names are found wherever the package is installed.  Python agents (``module:attribute``)
play in this process.  Ray is imported only when an address is given (the ``rllib``
extra); a process that called ``ray.init`` itself keeps its Ray.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

from meeplezoo.envs.core import balance
from meeplezoo.envs.core.errors import ConfigError, MeepleZooError
from meeplezoo.envs.core.workers import default_workers

RETRIES = 3  # Ray's own default for a task's max_retries
USAGE_STATS_ENV = "RAY_USAGE_STATS_ENABLED"  # off unless the user says otherwise


class GamesLost(MeepleZooError, RuntimeError):
    """Games whose chunk was lost with its worker or node after every retry: the run
    reports nothing."""


@dataclass(frozen=True)
class Workers:
    """Where games play: ``count`` local processes, or the Ray cluster at ``address``
    (every CPU of it), each chunk played again up to ``retries`` times when its worker or
    node is lost."""

    count: int = 1
    address: str | None = None
    retries: int = RETRIES

    def __str__(self) -> str:
        return f"the Ray cluster at {self.address}" if self.address else f"{self.count} worker(s)"


def workers_of(workers: int | Workers) -> Workers:
    return workers if isinstance(workers, Workers) else Workers(count=int(workers))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--workers`` (``envs.core.workers.default_workers``, as every command's), ``--address``
    and ``--retries``, alike in every command."""
    workers = default_workers()
    parser.add_argument("--workers", type=int, default=workers,
                        help=f"local worker processes (default {workers}; not used with "
                             "--address, where every CPU of the cluster plays)")
    parser.add_argument("--address", default=None,
                        help="play the games as tasks on a Ray cluster: auto (the cluster "
                             "of this node), HOST:PORT or ray://HOST:PORT; the results equal "
                             "a local run's with the same seed (docs/cluster.md)")
    parser.add_argument("--retries", type=int, default=RETRIES,
                        help="with --address: how often a chunk of games lost with its "
                             f"worker or node is played again (default {RETRIES}); past "
                             "that the run stops with an error and reports nothing")


def workers_from(args: argparse.Namespace) -> Workers:
    """The ``Workers`` of a command's options, the cluster joined (so a missing Ray or a
    wrong address is said before any game)."""
    if args.retries < 0:
        raise ConfigError(f"--retries must be 0 or more (got {args.retries})")
    where = Workers(args.workers, args.address, args.retries)
    if where.address:
        join(where.address)
    return where


def join(address: str) -> Any:
    """The ``ray`` module, joined to the cluster at ``address`` unless this process runs
    Ray already; a ``ConfigError`` when Ray is missing or no cluster answers."""
    try:
        import ray
    except ImportError:
        raise ConfigError(f"--address {address}: playing on a Ray cluster needs Ray, which is "
                          "not installed: install the rllib extra (make install, or pip "
                          "install -e '.[rllib]')") from None
    if not ray.is_initialized():
        os.environ.setdefault(USAGE_STATS_ENV, "0")
        try:
            ray.init(address=address, logging_level="WARNING")
        except (ConnectionError, ValueError, RuntimeError) as exc:
            raise ConfigError(f"--address {address}: cannot join a Ray cluster there "
                              f"({str(exc).strip().splitlines()[0]})") from None
        nodes = sum(1 for node in ray.nodes() if node.get("Alive"))
        cpus = int(ray.cluster_resources().get("CPU", 0))
        print(f"Ray: {nodes} node(s), {cpus} CPU(s) at {address}", file=sys.stderr)
    return ray


def play_chunks(play: balance.Batch, shared: Any, jobs: Sequence[Any],
                workers: int | Workers = 1,
                on_chunk: Callable[[list[Any]], None] | None = None, *,
                per_worker: bool = False, in_process: bool = False,
                chunk_size: int | None = None) -> list[Any]:
    """``play((shared, chunk))`` over ``jobs`` in chunks, where ``workers`` says; a result
    per job, in the order of ``jobs``.  ``play`` must be importable by name (a module's
    function) and each job's result must depend on the job alone.  ``on_chunk`` sees each
    chunk's results as it ends; ``per_worker``: one chunk per worker (a worker's running
    figures then cover all its games); ``in_process``: every game here, in order (Python
    agents, which cannot travel); ``chunk_size``: jobs per chunk (``selfplay``: one, a
    shard, so each is written as soon as it ends)."""
    where = workers_of(workers)
    count, mapper = max(1, where.count), None
    if in_process:
        count = 1
        if where.address:
            print("python agents play in this process: --address is not used",
                  file=sys.stderr)
    elif where.address:
        ray = join(where.address)
        count = max(1, int(ray.cluster_resources().get("CPU", 1)))
        mapper = _ray_mapper(ray, where.retries)
    size = -(-len(jobs) // count) if per_worker else chunk_size
    return balance.run_batches(play, shared, jobs, count, on_chunk, size=size, mapper=mapper)


def _ray_mapper(ray: Any, retries: int) -> balance.Mapper:
    """``envs.core.balance``'s mapper for Ray: a task per chunk, results as they end."""
    task = ray.remote(max_retries=retries, retry_exceptions=False)(_remote_chunk)
    here = os.getcwd()

    def mapper(play: balance.Batch, shared: Any,
               chunks: list[list[Any]]) -> Iterator[tuple[int, list[Any]]]:
        shared_ref = ray.put(shared)
        pending = {task.remote(play, shared_ref, chunk, here): k
                   for k, chunk in enumerate(chunks)}
        lost, why = 0, ""
        try:
            while pending:
                (ready,), _ = ray.wait(list(pending), num_returns=1)
                k = pending.pop(ready)
                try:
                    part = ray.get(ready)
                except ray.exceptions.RayTaskError as exc:  # the games raised: not retried
                    if isinstance(exc.cause, MeepleZooError):
                        raise exc.cause from None  # a bad agent says why, as it does here
                    missing = _missing_code(exc.cause)
                    if missing:
                        raise ConfigError(
                            f"a Ray worker cannot import what the games need ({missing}): "
                            "install the same meeplezoo, with its extras, on every node "
                            "(docs/cluster.md)") from None
                    raise
                except ray.exceptions.RayError as exc:  # worker or node lost, every retry
                    lost += len(chunks[k])
                    text = str(exc).strip()
                    why = type(exc).__name__ + (f": {text.splitlines()[0]}" if text else "")
                    continue
                yield k, part
        finally:
            for ref in pending:  # the run stopped early: its other tasks end too
                with suppress(ray.exceptions.RayError, ValueError):
                    ray.cancel(ref, force=True)
        if lost:
            total = sum(len(chunk) for chunk in chunks)
            raise GamesLost(f"{lost} of {total} games were lost with their Ray worker or node "
                            f"after {retries} retries ({why}); nothing is reported: run it "
                            "again (a balance --journal keeps the games that ended)")

    return mapper


def _remote_chunk(play: balance.Batch, shared: Any, chunk: list[Any], cwd: str) -> list[Any]:
    """A Ray task: one chunk, in the driver's working directory where this node has it."""
    if os.path.isdir(cwd) and os.getcwd() != cwd:
        os.chdir(cwd)
    return play((shared, chunk))


def _missing_code(cause: BaseException) -> str | None:
    """The import error of a task whose worker lacks this package's code (or a module the
    games need), else None."""
    if isinstance(cause, ImportError):
        return f"{type(cause).__name__}: {cause}"
    found = [line.strip() for line in str(cause).splitlines()
             if line.strip().startswith(("ModuleNotFoundError:", "ImportError:"))]
    return found[-1] if found else None
