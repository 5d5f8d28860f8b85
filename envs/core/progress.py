"""Progress of a long job, on stderr: a bar on a terminal, plain lines everywhere else.

    with Progress(1000, "soak hegemony_v1", unit="game") as progress:
        for game in games:
            ...
            progress.update()

On a terminal (stderr is a TTY) it is a tqdm bar when tqdm is installed.  Otherwise (stderr
is a file or a pipe, or tqdm is missing) it prints a plain line at most every ``interval``
seconds (30 by default; the environment variable ``MEEPLEZOO_PROGRESS_INTERVAL`` sets
another) and, through a timer thread, at least that often while the job runs, however
rarely ``update`` is called, then one line at the end:

    soak hegemony_v1: 120/1000 games (3.95 games/s, about 3.7 min left)
    soak hegemony_v1: 1000/1000 games in 253 s (3.95 games/s)

Progress never goes to stdout, where the commands print their results.  The standard
library is enough (tqdm is optional), so the torch-free envs/ commands use it too; the
training commands' SB3 runs use it through ``training.cli.progress_callback``.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, TextIO

INTERVAL = 30.0  # seconds between plain lines (MEEPLEZOO_PROGRESS_INTERVAL overrides it)
STYLES = ("auto", "bar", "lines", "off")  # auto: a bar on a terminal, else lines


def style_of(progress: bool | str | None) -> str:
    """A command's progress setting as a style: None (not given) is ``auto``, True a bar
    (``lines`` without a terminal when tqdm is missing), False ``off``; a style as it is."""
    if progress is None:
        return "auto"
    if isinstance(progress, bool):
        return "bar" if progress else "off"
    if progress not in STYLES:
        raise ValueError(f"progress style {progress!r}: choose one of {', '.join(STYLES)}")
    return progress


def interval_seconds() -> float:
    """The seconds between plain lines: ``MEEPLEZOO_PROGRESS_INTERVAL`` if set, else
    ``INTERVAL``."""
    text = os.environ.get("MEEPLEZOO_PROGRESS_INTERVAL", "")
    try:
        return max(float(text), 0.0) if text else INTERVAL
    except ValueError:
        return INTERVAL


def duration(seconds: float) -> str:
    """``42 s``, ``7 min``, ``3.5 h``."""
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def _number(value: float) -> str:
    return f"{value:.3g}" if value < 1000 else f"{value:.0f}"


class Progress:
    """Counts a job's units of work (games, steps, mutants) towards ``total`` and shows how
    far it is (see the module docstring).  ``style``: ``auto``, ``bar``, ``lines`` or
    ``off``; ``interval``: the seconds between plain lines (default ``interval_seconds()``;
    0: a line at every update); ``heartbeat``: the timer thread that keeps lines coming
    while ``update`` is not called; ``clock`` and ``stream`` are for tests (default:
    ``time.monotonic`` and stderr as it is when the job starts)."""

    def __init__(self, total: int | None, what: str, *, unit: str = "game",
                 style: bool | str | None = "auto", interval: float | None = None,
                 initial: int = 0, stream: TextIO | None = None,
                 clock: Callable[[], float] = time.monotonic, heartbeat: bool = True) -> None:
        self.total, self.what, self.unit = total, what, unit
        self.interval = interval_seconds() if interval is None else interval
        self.initial, self.done = initial, initial
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self.start = self.last_line = clock()
        self.mode = style_of(style)
        if self.mode == "auto":
            self.mode = "bar" if _isatty(self.stream) else "lines"
        self._bar: Any = None
        if self.mode == "bar":
            self._bar = _tqdm_bar(total, what, unit, initial, self.stream)
            if self._bar is None:
                self.mode = "lines"
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._closed = False
        self._thread: threading.Thread | None = None
        if self.mode == "lines" and heartbeat and self.interval > 0:
            self._thread = threading.Thread(target=self._beat, name="meeplezoo-progress",
                                            daemon=True)
            self._thread.start()

    # -- counting -------------------------------------------------------------------------

    def update(self, n: int = 1) -> None:
        """``n`` more units done."""
        with self._lock:
            self.done += n
            if self._closed:
                return
            if self._bar is not None:
                self._bar.update(n)
            elif self.mode == "lines":
                self._line_if_due()

    def set(self, done: int) -> None:
        """The units done so far (for a loop that counts itself, as SB3 does its steps)."""
        self.update(done - self.done)

    def tick(self) -> None:
        """A line now if one is due (what the timer thread calls)."""
        with self._lock:
            if self.mode == "lines" and not self._closed:
                self._line_if_due()

    def close(self, final: bool = True) -> None:
        """Stop; a plain line says how it ended (unless ``final`` is False: the job failed
        and its error says the rest)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._stop.set()
            if self._bar is not None:
                self._bar.close()
            elif self.mode == "lines" and final:
                self._write(self.line(self.clock(), final=True))
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=1.0)

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, kind: Any, value: Any, trace: Any) -> None:
        self.close(final=kind is None)

    # -- the plain lines ------------------------------------------------------------------

    def line(self, now: float, final: bool = False) -> str:
        """``<what>: done/total units (rate units/s, about N s left)``; the final line says
        how long the job took instead of what is left."""
        elapsed = max(now - self.start, 0.0)
        units = f"{self.unit}s"
        count = f"{self.done}/{self.total}" if self.total is not None else str(self.done)
        made = self.done - self.initial
        rate = made / elapsed if elapsed > 0 else 0.0
        speed = f"{_number(rate)} {units}/s"
        if final:
            return f"{self.what}: {count} {units} in {duration(elapsed)} ({speed})"
        if made <= 0:
            return f"{self.what}: {count} {units} (none done in {duration(elapsed)} so far)"
        if self.total is None:
            return f"{self.what}: {count} {units} ({speed})"
        left = max(self.total - self.done, 0) / rate
        return f"{self.what}: {count} {units} ({speed}, about {duration(left)} left)"

    def _line_if_due(self) -> None:
        now = self.clock()
        if now - self.last_line >= self.interval:
            self.last_line = now
            self._write(self.line(now))

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text + "\n")
            self.stream.flush()
        except (OSError, ValueError):  # a closed pipe or stream: progress is not worth a crash
            pass

    def _beat(self) -> None:
        while True:
            with self._lock:
                due = self.last_line + self.interval - self.clock()
            if self._stop.wait(max(due, 0.01)):
                return
            self.tick()


def _isatty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _tqdm_bar(total: int | None, what: str, unit: str, initial: int, stream: TextIO) -> Any:
    """A tqdm bar on ``stream``, or None without tqdm (an envs/-only install)."""
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, desc=what, unit=unit, initial=initial, file=stream)
