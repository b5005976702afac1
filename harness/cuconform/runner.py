"""Runs one batch of tests of one binary: as few processes as it takes, every test accounted for.

One process runs the whole batch (`--gtest_filter=a:b:c`). A reader thread parses its output as it arrives and
hands each result on at once. When a process ends early (a crash, a poisoned context, a kill for inactivity), the
tests that had not started run again in a fresh process. A test that never produced a result is reported with
status None (missing).
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from cuconform.gtest import Attempt, StreamParser
from cuconform.status import Status

READ_LINE_LIMIT = 64 * 1024
GTEST_EXIT_CODES = (0, 1)  # all passed; some failed


@dataclass
class Launch:
    """How to start a binary: the environment and extra arguments of every process of a batch."""

    env: dict[str, str] | None = None
    extra_args: Sequence[str] = ()
    timeout: float = 60.0
    wrapper: Sequence[str] = ()  # a command the binary runs under, e.g. compute-sanitizer and its options


@dataclass
class ProcessEnd:
    """How one process ended and what it got through."""

    reported: list[str]
    ending: str
    returncode: int | None
    timed_out: bool
    poisoned: str | None
    interrupted: str | None  # the test that was running when the process ended
    outside: list[str] = field(default_factory=list)

    @property
    def normal(self) -> bool:
        """GoogleTest's own end: every test it was given and that it has, it ran."""
        return (not self.timed_out and self.poisoned is None and self.interrupted is None
                and self.returncode in GTEST_EXIT_CODES)


def describe_exit(returncode: int | None) -> str:
    if returncode is None:
        return "did not exit"
    if returncode < 0:
        try:
            return f"was killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"was killed by signal {-returncode}"
    return f"exited with code {returncode}"


def command_for(binary: Path, tests: Sequence[str], launch: Launch) -> list[str]:
    return [*launch.wrapper, str(binary), "--gtest_filter=" + ":".join(tests), "--gtest_color=no", *launch.extra_args]


class ProcessRun:
    """One process of a batch. `kill()` may be called from another thread (a run being stopped)."""

    def __init__(self, binary: Path, tests: Sequence[str], launch: Launch, on_result: Callable[[str, Attempt], None]):
        self.binary = binary
        self.tests = tests
        self.launch = launch
        self.parser = StreamParser(on_result)
        self._process: subprocess.Popen[bytes] | None = None
        self._killed = threading.Event()

    def run(self) -> ProcessEnd:
        self._process = process = subprocess.Popen(
            command_for(self.binary, self.tests, self.launch), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, env=self.launch.env, start_new_session=True)
        if self._killed.is_set():  # stopped while it was starting
            self._kill_group()
        reader = threading.Thread(target=self._read, args=(process.stdout,), daemon=True,
                                  name=f"read {self.binary.name}")
        reader.start()
        timed_out = False
        while reader.is_alive():
            left = self.parser.timer_start + self.launch.timeout - time.monotonic()
            if left <= 0:
                timed_out = True
                self._kill_group()
                break
            reader.join(left)
        reader.join()
        returncode = process.wait()
        self._kill_group()  # whatever it started and left behind
        if timed_out:
            ending = f"{self.launch.timeout:g} s: the process was killed"
        elif self._killed.is_set():
            ending = "was stopped by the harness"
        else:
            ending = describe_exit(returncode)
        interrupted = self.parser.finish(ending, timed_out=timed_out)
        return ProcessEnd(list(self.parser.reported), ending, returncode, timed_out, self.parser.poisoned,
                          interrupted, list(self.parser.outside))

    def _read(self, stream) -> None:
        with stream:
            for line in iter(lambda: stream.readline(READ_LINE_LIMIT), b""):
                self.parser.feed(line)

    def _kill_group(self) -> None:
        if self._process is None:
            return
        try:
            os.killpg(self._process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def kill(self) -> None:
        self._killed.set()
        self._kill_group()


class BatchRun:
    """Runs `tests` of `binary` until each has a result; `on_result` gets every result as it comes."""

    def __init__(self, binary: Path, tests: Sequence[str], launch: Launch, on_result: Callable[[str, Attempt], None]):
        self.binary = binary
        self.tests = list(tests)
        self.launch = launch
        self.on_result = on_result
        self.processes = 0
        self._current: ProcessRun | None = None
        self._stopped = threading.Event()

    def run(self) -> None:
        remaining = self.tests
        while remaining and not self._stopped.is_set():
            wanted = set(remaining)
            seen: set[str] = set()

            def on_result(name: str, attempt: Attempt) -> None:
                if name in wanted and name not in seen:
                    seen.add(name)
                    self.on_result(name, attempt)

            self._current = ProcessRun(self.binary, remaining, self.launch, on_result)
            if self._stopped.is_set():
                return
            end = self._current.run()
            self.processes += 1
            remaining = [name for name in remaining if name not in seen]
            if not remaining or self._stopped.is_set():
                return
            if end.normal:
                self._report_all(remaining, Attempt(None, message=(
                    f"{self.binary.name} {end.ending} without running this test (is it in the binary?)"),
                    output="".join(end.outside)))
                return
            if not seen:
                # Nothing started: the process cannot get going. Say so for each test instead of looping.
                status = Status.TIMEOUT if end.timed_out else Status.CRASH
                self._report_all(remaining, Attempt(status, message=(
                    f"{self.binary.name} {end.ending} before this test started"), output="".join(end.outside)))
                return

    def _report_all(self, names: list[str], attempt: Attempt) -> None:
        for name in names:
            self.on_result(name, Attempt(attempt.status, 0.0, attempt.message, attempt.output))

    def stop(self) -> None:
        self._stopped.set()
        if self._current is not None:
            self._current.kill()
