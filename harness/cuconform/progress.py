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
    """Counts finished tests (from the scheduler's threads) and estimates the time left from what the tests cost:
    each test weighs its expected duration (cuconform/durations.py: kept from earlier runs of the build, else a
    default for its kind), and the weight left is scaled by the rate at which this run has got through weight so far.
    Without weights every test weighs the same. Tests restored from a journal count as done, not towards the rate."""

    def __init__(self, clock=time.monotonic):
        self._clock = clock
        self._lock = threading.Lock()
        self.total = 0
        self.counts: Counter[str] = Counter()
        self.restored = 0
        self.started = clock()
        self._weights: dict[str, float] = {}
        self._default = 1.0
        self._weight_left = 0.0  # of the tests not finished
        self._weight_ran = 0.0  # of the tests this run finished (not restored)

    def start(self, total: int, weights: dict[str, float] | None = None) -> None:
        """`weights`: the expected seconds of each test id of the run (a missing id weighs the mean)."""
        with self._lock:
            self.total = total
            self._weights = dict(weights or {})
            known = len(self._weights)
            mean = sum(self._weights.values()) / known if known else 1.0
            self._default = mean if mean > 0 else 1.0
            self._weight_left = sum(self._weights.values()) + max(0, total - known) * self._default

    def add(self, verdict: str, restored: bool = False, test_id: str | None = None) -> None:
        with self._lock:
            self.counts[verdict] += 1
            self.restored += restored
            weight = self._weights.get(test_id, self._default) if test_id is not None and self._weights else 1.0
            weight = min(weight, self._weight_left) if self.total else weight
            self._weight_left -= weight
            if not restored:
                self._weight_ran += weight

    @property
    def done(self) -> int:
        return sum(self.counts.values())

    def left_s(self) -> float | None:
        """Seconds left: the weight left at the rate this run has got through weight; None before the first test of
        this run has finished."""
        with self._lock:
            ran = self._weight_ran
            remaining = self.total - self.done
            weight_left = self._weight_left
        elapsed = self._clock() - self.started
        if remaining <= 0:
            return 0.0
        if ran <= 0 or elapsed <= 0:
            return None
        return max(weight_left, 0.0) * elapsed / ran

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
MAX_DEFER_S = 120  # a plain progress line waits at most this long for pytest to end its line of letters


class Display:
    """Shows a Progress through pytest's terminal reporter (`rewrite`, `write`, `write_line`, `ensure_newline`):
    a live line redrawn in place (`live`), else a plain line every `every` seconds (0: none). Called from pytest's
    main thread only, between its own writes, so the two never interleave.

    A plain line never splits pytest's line of letters (`....s..F`): when one is due it waits until pytest has ended
    its line (a full line, or the next area's), and only a line that stays open for MAX_DEFER_S is cut."""

    def __init__(self, progress: Progress, reporter, *, live: bool, every: float, clock=time.monotonic):
        self.progress = progress
        self.reporter = reporter
        self.live = live
        self.every = every
        self._clock = clock
        self._last = clock()
        self._drawn = False
        self._due: float | None = None  # when a plain line fell due and is waiting for pytest's line to end

    def tick(self) -> None:
        now = self._clock()
        if self.live and now - self._last >= LIVE_REDRAW_S:
            self._draw()
        elif not self.live and self.every and now - self._last >= self.every:
            if self._due is None:
                self._due = now
            if self._line_is_empty():
                self._write_plain()
            elif now - self._due >= MAX_DEFER_S:
                self.reporter.ensure_newline()
                self._write_plain()

    def line_ended(self) -> None:
        """After pytest wrote a test's letter: a due line goes out if that ended pytest's line."""
        if self._due is not None and self._line_is_empty():
            self._write_plain()

    def line_starts(self) -> None:
        """Before pytest starts a new line of letters (the next area): a due line goes out first."""
        if self._due is not None:
            self.reporter.ensure_newline()
            self._write_plain()

    def _line_is_empty(self) -> bool:
        return getattr(self.reporter, "_width_of_current_line", 0) == 0

    def _write_plain(self) -> None:
        self.reporter.write(f"progress: {self.progress.line()}\n")
        self._last = self._clock()
        self._due = None

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
        """Leaves the live line, with the final counts, above what pytest prints next; a due plain line goes out
        after pytest's last line of letters."""
        if self._due is not None:
            self.line_starts()
        if self.live and self._drawn:
            self._draw()
            self.reporter.write("\n")
            self._drawn = False
