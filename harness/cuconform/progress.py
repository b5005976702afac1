"""The progress of a run on the console: done/total, counts by verdict, the time left.

On a terminal it is one live line, redrawn in place (pytest's per-test letters are left out then); elsewhere (a CI
log, a file) it is a plain line every `--progress-every` seconds. The plugin decides where it goes; this module only
counts and words it.
"""

from __future__ import annotations

import threading
import time
from collections import Counter

from cuconform.status import Verdict

ORDER = [verdict.value for verdict in Verdict]


def duration_text(seconds: float) -> str:
    """'45s', '3m20s', '1h02m'."""
    seconds = max(0, int(round(seconds)))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


class Progress:
    """Counts finished tests (from the scheduler's threads) and estimates the time left from the rate at which this
    run has finished them so far (tests restored from a journal count as done, not towards the rate)."""

    def __init__(self, clock=time.monotonic):
        self._clock = clock
        self._lock = threading.Lock()
        self.total = 0
        self.counts: Counter[str] = Counter()
        self.restored = 0
        self.started = clock()

    def start(self, total: int) -> None:
        with self._lock:
            self.total = total

    def add(self, verdict: str, restored: bool = False) -> None:
        with self._lock:
            self.counts[verdict] += 1
            self.restored += restored

    @property
    def done(self) -> int:
        return sum(self.counts.values())

    def left_s(self) -> float | None:
        """Seconds left at this run's rate; None before the first test of this run has finished."""
        with self._lock:
            ran = self.done - self.restored
            remaining = self.total - self.done
        elapsed = self._clock() - self.started
        if remaining <= 0:
            return 0.0
        if ran <= 0 or elapsed <= 0:
            return None
        return remaining * elapsed / ran

    def line(self) -> str:
        """'[ 120/4000]  3%  118 pass, 2 skip  elapsed 12s, about 6m40s left'"""
        with self._lock:
            counts = dict(self.counts)
            done, total = sum(counts.values()), self.total
        width = len(str(total))
        percent = 100 * done // total if total else 100
        verdicts = ", ".join(f"{counts[v]} {v}" for v in ORDER if counts.get(v)) or "nothing finished yet"
        left = self.left_s()
        elapsed = duration_text(self._clock() - self.started)
        eta = "" if left is None else (", done" if done >= total else f", about {duration_text(left)} left")
        return f"[{done:{width}}/{total}] {percent:3d}%  {verdicts}  (elapsed {elapsed}{eta})"


LIVE_REDRAW_S = 0.1


class Display:
    """Shows a Progress through pytest's terminal reporter (`rewrite`, `write`, `write_line`, `ensure_newline`):
    a live line redrawn in place (`live`), else a plain line every `every` seconds (0: none). Called from pytest's
    main thread only, between its own writes, so the two never interleave."""

    def __init__(self, progress: Progress, reporter, *, live: bool, every: float, clock=time.monotonic):
        self.progress = progress
        self.reporter = reporter
        self.live = live
        self.every = every
        self._clock = clock
        self._last = clock()
        self._drawn = False

    def tick(self) -> None:
        now = self._clock()
        if self.live and now - self._last >= LIVE_REDRAW_S:
            self._draw()
        elif not self.live and self.every and now - self._last >= self.every:
            self.reporter.ensure_newline()
            self.reporter.write_line(f"progress: {self.progress.line()}")
            self._last = now

    def _draw(self) -> None:
        self.reporter.rewrite(self.progress.line(), erase=True)
        self._drawn = True
        self._last = self._clock()

    def announce(self, text: str) -> None:
        """A line that stays above the live line (an unexpected result as it comes)."""
        if self.live:
            self.reporter.rewrite(text, erase=True)
            self.reporter.write("\n")
            self._draw()

    def end(self) -> None:
        """Leaves the live line, with the final counts, above what pytest prints next."""
        if self.live and self._drawn:
            self._draw()
            self.reporter.write("\n")
            self._drawn = False
