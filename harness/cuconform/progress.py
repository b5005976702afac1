"""The progress of a run on the console: done/total, counts by verdict, the time left.

On a terminal it is one live line, redrawn in place (pytest's per-test letters are left out then); elsewhere (a CI
log, a file) it is a plain line every `--progress-every` seconds. The plugin decides where it goes; this module only
counts and words it.
"""

from __future__ import annotations

import bisect
import threading
import time
from collections import Counter

from cuconform.status import Verdict

ORDER = [verdict.value for verdict in Verdict]
PRIOR_SHARE = 0.05  # of a lane's planned time: how much of it the plan's own pace counts for, against the run's
# ... but never more than this many seconds: on a fresh 2-core machine the default costs of the compile-time rules
# were 2.5 times the real ones, and a prior of 5% of that plan (40 s) kept the estimate 30-50% high for the first
# 80 s of a 266 s run (8 s of prior: within 17% from the tenth of the run on; 2026-11-29).
PRIOR_MAX_S = 8.0


def duration_text(seconds: float) -> str:
    """'45s', '3m20s', '1h02m'."""
    seconds = max(0, int(round(seconds)))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


class Progress:
    """Counts finished tests (from the scheduler's threads) and estimates the time left.

    With the run's plan (`plan`: each test's expected finish, in seconds after the run started, and its lane, from
    plan.expected_finish) the estimate measures the run against the plan, lane by lane: the expected cost of the
    tests a lane has finished says how far along its plan it is (the plan time by which it expected to have done as
    much), elapsed time over that plan time says how much slower or faster than planned it goes, and the rest of the
    lane's plan, scaled alike, is its time left; the run's is its slowest lane's. So the host workers' compile-time
    rules and the GPU workers' tests are each judged by their own pace, with their parallelism and their exclusive
    phase as the plan has them. Without a plan, each test weighs its expected duration (durations.py) and the weight
    left is scaled by the rate at which the run got through weight so far (every test weighs the same without
    weights). Tests restored from a journal count as done, not towards the pace.
    """

    def __init__(self, clock=time.monotonic):
        self._clock = clock
        self._lock = threading.Lock()
        self.total = 0
        self.counts: Counter[str] = Counter()
        self.restored = 0
        self.started = clock()
        self._weights: dict[str, float] = {}
        self._default = 1.0
        self._ran: list[str | None] = []  # the tests this run finished (not restored), in order
        self._done: set[str] = set()  # every finished test id, restored ones too
        self._plan: dict[str, tuple[float, str]] = {}
        self._lanes: dict[str, tuple[list[float], list[float]]] = {}  # lane -> planned finish times, cumulative cost
        self._origin = self.started

    def start(
        self,
        total: int,
        weights: dict[str, float] | None = None,
        plan: dict[str, tuple[float, str]] | None = None,
        origin: float | None = None,
    ) -> None:
        """`weights`: the expected seconds of each test id of the run (a missing id weighs the mean); `plan`: each
        test's expected finish and lane, in seconds after `origin` (the clock's time the run's first batch could
        start; default: when this Progress was made). May come after the first tests have finished."""
        with self._lock:
            self.total = total
            self._origin = self.started if origin is None else origin
            self._weights = dict(weights or {})
            known = len(self._weights)
            mean = sum(self._weights.values()) / known if known else 1.0
            self._default = mean if mean > 0 else 1.0
            self._plan = dict(plan or {})
            by_lane: dict[str, list[tuple[float, float]]] = {}
            for test_id, (finish, lane) in self._plan.items():
                by_lane.setdefault(lane, []).append((finish, self._weight(test_id)))
            self._lanes = {}
            for lane, entries in by_lane.items():
                entries.sort()
                times, cumulative, total_cost = [], [], 0.0
                for finish, cost in entries:
                    total_cost += cost
                    times.append(finish)
                    cumulative.append(total_cost)
                self._lanes[lane] = (times, cumulative)

    def _weight(self, test_id: str | None) -> float:
        if test_id is None or not self._weights:
            return 1.0
        return self._weights.get(test_id, self._default)

    def add(self, verdict: str, restored: bool = False, test_id: str | None = None) -> None:
        with self._lock:
            self.counts[verdict] += 1
            self.restored += restored
            if test_id is not None:
                self._done.add(test_id)
            if not restored:
                self._ran.append(test_id)

    @property
    def done(self) -> int:
        return sum(self.counts.values())

    def left_s(self) -> float | None:
        """Seconds left; None before the first test of this run has finished."""
        with self._lock:
            remaining = self.total - self.done
            ran = list(self._ran)
            done = set(self._done)
            plan, lanes = self._plan, self._lanes
        elapsed = self._clock() - self.started
        if remaining <= 0:
            return 0.0
        if not ran or elapsed <= 0:
            return None
        if lanes:
            return self._left_by_plan(ran, plan, lanes, max(self._clock() - self._origin, 1e-6))
        weight_ran = sum(self._weight(test_id) for test_id in ran)
        if self._weights:
            waiting = [weight for test_id, weight in self._weights.items() if test_id not in done]
            weight_left = sum(waiting) + max(0, remaining - len(waiting)) * self._default
        else:
            weight_left = remaining
        return weight_left * elapsed / weight_ran if weight_ran > 0 else None

    def _left_by_plan(
        self,
        ran: list[str | None],
        plan: dict[str, tuple[float, str]],
        lanes: dict[str, tuple[list[float], list[float]]],
        elapsed: float,
    ) -> float | None:
        done_cost: dict[str, float] = {}
        for test_id in ran:
            if test_id in plan:
                lane = plan[test_id][1]
                done_cost[lane] = done_cost.get(lane, 0.0) + self._weight(test_id)
        paces: dict[str, float] = {}
        reached_at: dict[str, float] = {}
        stalled: dict[str, float] = {}
        for lane, (times, cumulative) in lanes.items():
            lane_done = done_cost.get(lane, 0.0)
            if lane_done >= cumulative[-1] - 1e-9:
                continue  # the lane has finished
            reached_at[lane] = reached = plan_time(times, cumulative, lane_done)
            if reached > 0:
                # The pace of its first seconds says little: it leans on the plan's until a share of it has gone by.
                prior = min(PRIOR_SHARE * times[-1], PRIOR_MAX_S)
                paces[lane] = (elapsed + prior) / (reached + prior)
            # The lane's next test was due at `due` and has not finished: it goes at most due/elapsed as fast as
            # planned. (A racecheck run said "about 38s left" for five minutes while one batch ran 40 times its plan.)
            due = times[min(bisect.bisect_right(cumulative, lane_done + 1e-9), len(times) - 1)]
            if elapsed > due > 0:
                stalled[lane] = elapsed / due
        left = 0.0
        for lane, reached in reached_at.items():
            times = lanes[lane][0]
            # A lane none of whose tests has finished goes at the other lanes' pace, else at the plan's.
            pace = paces.get(lane) or (max(paces.values()) if paces else 1.0)
            left = max(left, (times[-1] - reached) * max(pace, stalled.get(lane, 0.0)))
        return left

    def percent_done(self) -> int:
        """How much of the run is done, in percent of its expected work when the tests' costs are known (else of its
        tests): on a machine without a GPU, 70% of the tests are GPU rules that skip in the first seconds, and a line
        that said 70% then had minutes to go."""
        with self._lock:
            done, total = sum(self.counts.values()), self.total
            finished = set(self._done)
        if not total:
            return 100
        if not self._weights or done >= total:
            return 100 * done // total
        whole = sum(self._weights.values()) + max(0, total - len(self._weights)) * self._default
        work = sum(self._weight(test_id) for test_id in finished) + max(0, done - len(finished)) * self._default
        return min(100, int(100 * work / whole)) if whole > 0 else 100 * done // total

    def line(self) -> str:
        """'[ 120/4000]  3%  118 pass, 2 skip  elapsed 12s, about 6m40s left'"""
        with self._lock:
            counts = dict(self.counts)
            done, total = sum(counts.values()), self.total
        width = len(str(total))
        percent = self.percent_done()
        verdicts = ", ".join(f"{counts[v]} {v}" for v in ORDER if counts.get(v)) or "nothing finished yet"
        left = self.left_s()
        elapsed = duration_text(self._clock() - self.started)
        eta = "" if left is None else (", done" if done >= total else f", about {duration_text(left)} left")
        return f"[{done:{width}}/{total}] {percent:3d}%  {verdicts}  (elapsed {elapsed}{eta})"


def plan_time(times: list[float], cumulative: list[float], cost: float) -> float:
    """The plan time by which the plan expected `cost` seconds of a lane's tests to be done (interpolated between
    the planned finishes around it)."""
    at = bisect.bisect_left(cumulative, cost)
    if at >= len(times):
        return times[-1]
    before_time, before_cost = (times[at - 1], cumulative[at - 1]) if at else (0.0, 0.0)
    span = cumulative[at] - before_cost
    share = (cost - before_cost) / span if span > 0 else 1.0
    return before_time + share * (times[at] - before_time)


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
