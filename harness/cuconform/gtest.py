"""Reads GoogleTest's streaming output, one line at a time, into per-test results.

The parser knows nothing about processes: the runner feeds it lines as they arrive and tells it how the process
ended. Reading the stream (docs/architecture.md, "What a test binary prints"):

    [ RUN      ] A.B          a test starts (its timer starts)
    [       OK ] A.B (3 ms)   pass          [  SKIPPED ] A.B   skip          [  FAILED  ] A.B   fail
    [ POISONED ] <error>      right after an end line: the test broke the CUDA context; fail -> crash
    [ METRIC   ] name = json  a measurement, kept with the test's result
    [ SANITIZER] ...          compute-sanitizer's report (sanitizer mode): pass -> fail, and the report is the message
    [ AREA     ] <area>       cuconform-multi: the tests that follow are <area>'s, named <area>/<test> from here on

A test still open when the stream ends is a crash (or a timeout, when the runner killed it).
"""

from __future__ import annotations

import json
import re
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from cuconform import sanitizer
from cuconform.status import Status
from cuconform.protocol import AREA, FAILED, METRIC, OK, POISONED, RUN, SKIPPED

_END_TAGS = ((OK, Status.PASS), (SKIPPED, Status.SKIP), (FAILED, Status.FAIL))

OUTPUT_HEAD_BYTES = 256 * 1024  # per test: the first and the last part of what it printed are kept
OUTPUT_TAIL_LINES = 2000
MESSAGE_LINES = 12


def decode(raw: bytes) -> str:
    """Test output as text, losslessly enough: invalid UTF-8 bytes become \\xNN escapes."""
    return raw.decode("utf-8", errors="backslashreplace")


@dataclass
class Attempt:
    """One run of one test: its raw status (None when it never ran) and what it printed."""

    status: Status | None
    duration: float = 0.0
    message: str = ""
    output: str = ""
    metrics: dict[str, object] = field(default_factory=dict)
    gpus: str | None = None  # CUDA_VISIBLE_DEVICES of its process, in a run that gave each worker its own GPU
    opened: bool = False  # the first test of its process: its duration includes the process's start-up


class _Output:
    """What one test printed, bounded: the head in full, then the last lines."""

    def __init__(self) -> None:
        self.head: list[str] = []
        self.head_size = 0
        self.tail: deque[str] = deque(maxlen=OUTPUT_TAIL_LINES)
        self.dropped = 0

    def add(self, line: str) -> None:
        if self.head_size < OUTPUT_HEAD_BYTES:
            self.head.append(line)
            self.head_size += len(line)
            return
        if len(self.tail) == self.tail.maxlen:
            self.dropped += 1
        self.tail.append(line)

    def lines(self) -> list[str]:
        return self.head + list(self.tail)

    def text(self) -> str:
        if not self.dropped:
            return "".join(self.head) + "".join(self.tail)
        return "".join(self.head) + f"[... {self.dropped} lines left out ...]\n" + "".join(self.tail)


def _end_of(line: str, name: str) -> tuple[int, Status] | None:
    """Where the end line of test `name` starts in `line`, and its status. A test that printed without a final
    newline puts its end tag mid-line; another test's name (a summary line, a test printing tags) is no match."""
    for tag, status in _END_TAGS:
        at = line.find(tag)
        if at < 0:
            continue
        rest = line[at + len(tag) :]
        if rest.startswith(name):
            after = rest[len(name) :]
            if after.strip() == "" or after.startswith(" (") or after.startswith(", where "):
                return at, status
    return None


_REPORTED_MS = re.compile(r" \((\d+) ms\)\s*$")


def reported_duration(line: str) -> float | None:
    """The time GoogleTest measured for the test inside its process ('[       OK ] A.B (3 ms)'), in seconds; None
    when the line has none. It is what the test cost, whatever the delay of the one reading its output."""
    match = _REPORTED_MS.search(line)
    return int(match.group(1)) / 1000 if match else None


def skip_reason(lines: list[str]) -> str:
    """GoogleTest prints '<file>:<line>: Skipped' and then the reason given to GTEST_SKIP()."""
    for index in range(len(lines) - 1, -1, -1):
        if lines[index].rstrip().endswith("Skipped"):
            reason = "".join(lines[index + 1 :]).strip()
            return reason or "skipped"
    return "".join(lines).strip() or "skipped"


def failure_message(lines: list[str]) -> str:
    """The first failure GoogleTest reported ('<file>:<line>: Failure' and what follows), a few lines of it."""
    start = next((i for i, line in enumerate(lines) if line.rstrip().endswith(": Failure")), None)
    chosen = lines[start:] if start is not None else lines
    chosen = [line for line in chosen if not line.startswith(METRIC)]
    text = "".join(chosen[:MESSAGE_LINES]).strip()
    if len(chosen) > MESSAGE_LINES:
        text += "\n..."
    return text


def parse_metric(line: str) -> tuple[str, object] | None:
    body = line[len(METRIC) :].rstrip("\n")
    name, sep, value = body.partition(" = ")
    if not sep or not name.strip():
        return None
    try:
        return name.strip(), json.loads(value)
    except ValueError:
        return name.strip(), value


class StreamParser:
    """Turns one process's output into Attempts, handed to `on_result(test_name, attempt)` as each test ends.

    `timer_start` is the monotonic time of the last test start or end: the runner's inactivity timeout counts from
    it. Fed from one thread at a time (the runner's reader thread, then `finish` once it is joined).
    """

    def __init__(
        self,
        on_result: Callable[[str, Attempt], None],
        clock: Callable[[], float] = time.monotonic,
        on_start: Callable[[str], None] | None = None,
    ):
        self._on_result = on_result
        self._on_start = on_start
        self._clock = clock
        self.timer_start = clock()
        self.reported: list[str] = []
        self.poisoned: str | None = None
        self.outside = deque(maxlen=200)  # lines printed outside any test (start-up, summary)
        self._open: str | None = None
        self._open_printed: str | None = None  # the open test's name as GoogleTest prints it (no area)
        self._area = ""  # "<area>/" after cuconform-multi's [ AREA ] line
        self._open_since = 0.0
        self._open_output = _Output()
        self._metrics: dict[str, object] = {}
        self._sanitizer: list[str] = []  # compute-sanitizer's report lines while the open test ran
        self._pending: tuple[str, Attempt] | None = None  # ended; waits to see whether [ POISONED ] follows

    @property
    def open_test(self) -> str | None:
        return self._open

    def open_for(self) -> float:
        """How long the open test has been running (0 when none is)."""
        return self._clock() - self._open_since if self._open is not None else 0.0

    def feed(self, raw: bytes) -> None:
        line = decode(raw)  # a line, or a piece of a very long one (the runner reads at most 64 KiB at a time)
        if self._pending is not None:
            if line.startswith(POISONED):
                self._poison(line)
                return
            self._emit_pending()
        if self._open is not None:
            self._feed_open(line)
        elif line.startswith(RUN):
            self._start(line[len(RUN) :].strip())
        elif line.startswith(AREA):
            self._area = line[len(AREA) :].strip() + "/"
            self.outside.append(line)
        elif line.startswith(POISONED):
            self.poisoned = line[len(POISONED) :].strip()
            self.outside.append(line)
        else:
            self.outside.append(line)

    def _start(self, printed: str) -> None:
        name = self._area + printed
        self._open = name
        self._open_printed = printed
        self._open_since = self.timer_start = self._clock()
        self._open_output = _Output()
        self._metrics = {}
        self._sanitizer = []
        if self._on_start is not None:
            self._on_start(name)

    def _feed_open(self, line: str) -> None:
        name = self._open
        end = _end_of(line, self._open_printed)
        if end is None:
            if line.startswith(METRIC):
                metric = parse_metric(line)
                if metric:
                    self._metrics[metric[0]] = metric[1]
            elif sanitizer.is_report(line):
                self._sanitizer.append(line[len(sanitizer.PREFIX) :].rstrip())
            self._open_output.add(line)
            return
        at, status = end
        if at:
            self._open_output.add(line[:at] + "\n")
        now = self.timer_start = self._clock()
        lines = self._open_output.lines()
        if status is Status.SKIP:
            message = skip_reason(lines)
        elif status is Status.FAIL:
            message = failure_message(lines)
        else:
            message = ""
        if self._sanitizer and status is not Status.SKIP:
            report = "\n".join(self._sanitizer[:MESSAGE_LINES])
            message = f"compute-sanitizer reported an error while the test ran:\n{report}\n{message}".rstrip()
            status = Status.FAIL
        # GoogleTest's own measure when it has one: the reader's clock also counts how late the lines were read,
        # which on a loaded machine can be more or less than the test took.
        measured, reported = max(now - self._open_since, 1e-6), reported_duration(line[at:])
        if reported is not None:
            duration = reported if reported > 0 else min(measured, 0.001)  # "0 ms": under a millisecond
        else:
            duration = measured
        attempt = Attempt(status, duration, message, self._open_output.text(), self._metrics)
        self._open = None
        self._pending = (name, attempt)

    def _poison(self, line: str) -> None:
        name, attempt = self._pending
        error = line[len(POISONED) :].strip()
        self.poisoned = error
        attempt.output += line
        if attempt.status is Status.FAIL:
            attempt.status = Status.CRASH
            attempt.message = f"the test left the CUDA context poisoned: {error}\n{attempt.message}".rstrip()
        else:
            attempt.message = (attempt.message + f"\n(the CUDA context was poisoned after it: {error})").strip()
        self._emit_pending()

    def _emit_pending(self) -> None:
        name, attempt = self._pending
        self._pending = None
        self.reported.append(name)
        self._on_result(name, attempt)
        return name

    def finish(self, ending: str, timed_out: bool = False) -> str | None:
        """The stream has ended: `ending` says how the process ended ('exited with code 1', 'killed by SIGSEGV',
        ...). A test still open is a crash, or a timeout when the runner killed it for inactivity; its name is
        returned."""
        if self._pending is not None:
            self._emit_pending()
        if self._open is None:
            return None
        name = self._open
        self._open = None
        duration = max(self._clock() - self._open_since, 1e-6)
        output = self._open_output.text()
        if timed_out:
            attempt = Attempt(Status.TIMEOUT, duration, f"no result after {ending}", output, self._metrics)
        else:
            last = "".join(self._open_output.lines()[-MESSAGE_LINES:]).strip()
            message = f"the process {ending} while the test was running" + (
                f"; it printed last:\n{last}" if last else ""
            )
            attempt = Attempt(Status.CRASH, duration, message, output, self._metrics)
        self.reported.append(name)
        self._on_result(name, attempt)
        return name
