"""Worker processes that end with the run: the one pool every command's games play in, the
default count of ``--workers``, and SIGTERM turned into an exception.

    with process_pool(2) as pool:
        futures = [pool.submit(work, job) for job in jobs]

Why: a run stopped with SIGTERM died at once and left its worker processes playing, then
waiting forever for more work; Ctrl-C reached every worker and printed a traceback from each.
Here a worker ignores Ctrl-C and dies at SIGTERM; while a pool runs, Ctrl-C and SIGTERM kill
its workers at once and the run then stops with ``KeyboardInterrupt`` or ``Stopped``; and any
other exception out of the pool kills them too instead of waiting for their chunks.  Outside
a pool, ``stop_on_sigterm`` (which ``envs.core.command.run_command`` holds around every
command) makes SIGTERM raise ``Stopped`` as Ctrl-C raises ``KeyboardInterrupt``, so the run's
``finally`` blocks and context managers run: a Ray run's tasks are cancelled, a journal
keeps the games that ended.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager, suppress
from types import FrameType
from typing import Any

DEFAULT_WORKERS = 2  # every command's --workers default (fewer on a one-core machine)
JOIN_S = 5.0  # seconds a killed worker is given to be gone


def default_workers() -> int:
    """``DEFAULT_WORKERS``, or the cores there are when fewer: the same default for every
    command, small enough to leave a shared machine usable."""
    return min(DEFAULT_WORKERS, os.cpu_count() or 1)


class Stopped(KeyboardInterrupt):
    """SIGTERM arrived: the run stops as at Ctrl-C (the same clean-up), with its own exit
    status (128 + the signal's number, as a shell reports it)."""

    def __init__(self, signum: int = signal.SIGTERM) -> None:
        super().__init__(f"stopped by {signal.Signals(signum).name}")
        self.signum = signum


def _raise_stopped(signum: int, _frame: FrameType | None) -> None:
    raise Stopped(signum)


@contextmanager
def stop_on_sigterm() -> Iterator[None]:
    """While it lasts, SIGTERM raises ``Stopped`` in the main thread, where the default would
    end the process at once, without clean-up.  A handler someone else set is kept, and so
    is everything off the main thread (where Python cannot set handlers)."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL):
        yield
        return
    signal.signal(signal.SIGTERM, _raise_stopped)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _worker_start() -> None:
    """In each worker: Ctrl-C is the parent's to handle (it kills the workers), and SIGTERM
    ends the worker (a forked worker would inherit the parent's handler, whose exception the
    pool's worker loop catches and carries on)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _kill_now(pool: ProcessPoolExecutor) -> None:
    """SIGKILL to every worker of the pool: no lock taken, so a signal handler may call it
    (Python 3.14 has ``pool.kill_workers``; before it, the pool keeps its processes in
    ``_processes``, by pid)."""
    for pid in list(getattr(pool, "_processes", None) or {}):
        with suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def kill_workers(pool: ProcessPoolExecutor) -> None:
    """Kill the pool's workers now, drop the chunks not played, and reap them.  The pool's
    manager thread is awaited too: left running, it closes its wake-up pipe while the
    interpreter's exit writes to it (a traceback at every stop)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    _kill_now(pool)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.join(JOIN_S)
    if manager is not None:
        manager.join(JOIN_S)


def _stop(signum: int) -> KeyboardInterrupt:
    """What a run stopped by ``signum`` raises: Ctrl-C's ``KeyboardInterrupt`` or
    ``Stopped``."""
    return KeyboardInterrupt() if signum == signal.SIGINT else Stopped(signum)


class _Pool(ProcessPoolExecutor):
    """A pool that a stop signal ends: ``stop`` kills the workers at once, unless the main
    thread is inside ``submit``, where the pool's manager thread, woken by the dead
    workers, would walk the pending work as ``submit`` adds to it; ``submit`` then raises
    the stop when it returns (and refuses new work after one)."""

    def __init__(self, workers: int) -> None:
        super().__init__(workers, initializer=_worker_start)
        self.stopped: list[int] = []
        self._submitting = False

    def stop(self, signum: int) -> None:
        self.stopped.append(signum)
        if not self._submitting:
            _kill_now(self)

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        if self.stopped:
            raise _stop(self.stopped[0])
        self._submitting = True
        try:
            future = super().submit(fn, *args, **kwargs)
        finally:
            self._submitting = False
        if self.stopped:  # it came during submit: the workers are killed on the way out
            raise _stop(self.stopped[0])
        return future


@contextmanager
def _on_stop_signals(act: Callable[[int], None]) -> Iterator[None]:
    """While it lasts, Ctrl-C and SIGTERM call ``act(signum)`` (in the main thread, where
    their handlers are Python's defaults or ``stop_on_sigterm``'s; a signal the process
    ignores stays ignored)."""
    ours = {signal.SIGINT: (signal.default_int_handler,),
            signal.SIGTERM: (signal.SIG_DFL, _raise_stopped)}
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = {n: signal.getsignal(n) for n in ours if signal.getsignal(n) in ours[n]}
    for n in before:
        signal.signal(n, lambda signum, _frame: act(signum))
    try:
        yield
    finally:
        for n, handler in before.items():
            signal.signal(n, handler)


@contextmanager
def process_pool(workers: int) -> Iterator[ProcessPoolExecutor]:
    """A ``ProcessPoolExecutor`` of ``workers`` processes whose workers never outlive the
    block: it ends as usual when the block does, and on any exception out of it its workers
    are killed rather than awaited.  Ctrl-C or SIGTERM during the block kill the workers at
    once, and the block's next wait on them (or its end) raises ``KeyboardInterrupt`` or
    ``Stopped``: the handler raises nothing itself, because an exception raised wherever
    the main thread happens to be could leave a lock of the pool's held, and the run would
    then hang at exit."""
    pool = _Pool(max(1, workers))
    with _on_stop_signals(pool.stop):
        try:
            yield pool
            pool.shutdown(wait=True)
        except BaseException as exc:
            kill_workers(pool)
            if pool.stopped and not isinstance(exc, KeyboardInterrupt):
                raise _stop(pool.stopped[0]) from None  # the workers' end was the signal's
            raise
    if pool.stopped:
        raise _stop(pool.stopped[0])
