"""Runs one batch of tests of one binary: as few processes as it takes, every test accounted for.

One process runs the whole batch (`--gtest_filter=a:b:c`). A reader thread parses its output as it arrives and
hands each result on at once. When a process ends early (a crash, a poisoned context, a kill for inactivity), the
tests that had not started run again in a fresh process. A test that never produced a result is reported with
status None (missing).

A batch can give away the tests it has not started yet (`give_away`): the scheduler hands them to an idle worker
when the batch's tail would otherwise end the run late. The process goes on with the tests it kept and is stopped
when it starts the first test it gave away (its result there is not taken: the other process runs that test), so
every test still has exactly one result.
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

from cuconform import modules
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
        return (
            not self.timed_out
            and self.poisoned is None
            and self.interrupted is None
            and self.returncode in GTEST_EXIT_CODES
        )


def not_run(message: str) -> Attempt:
    """The result of a test a batch did not run because its binary was stopped first (scheduler.py, fail_fast)."""
    return Attempt(Status.SKIP, 0.0, message)


def is_failure(attempt: Attempt) -> bool:
    """Whether a raw result is a failure (fail, crash, timeout) or no result at all: what ends a binary under
    fail_fast when it is unexpected (an unexpected pass or skip does not)."""
    return attempt.status is None or attempt.status.failed


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
    """The command of one process: the binary and its filter; cuconform-multi's tests are test ids, each area's
    part of the filter given with that area's module (modules.py)."""
    if modules.is_runner(binary):
        return [*launch.wrapper, *modules.command(binary, tests, ["--gtest_color=no", *launch.extra_args])]
    return [*launch.wrapper, str(binary), "--gtest_filter=" + ":".join(tests), "--gtest_color=no", *launch.extra_args]


class ProcessRun:
    """One process of a batch. `kill()` may be called from another thread (a run being stopped). `keeps(name)` is
    asked as each test starts: False stops the process there (the test was given away)."""

    def __init__(
        self,
        binary: Path,
        tests: Sequence[str],
        launch: Launch,
        on_result: Callable[[str, Attempt], None],
        keeps: Callable[[str], bool] = lambda name: True,
    ):
        self.binary = binary
        self.tests = tests
        self.launch = launch
        self.parser = StreamParser(on_result, on_start=self._started)
        self._keeps = keeps
        self._process: subprocess.Popen[bytes] | None = None
        self._killed = threading.Event()
        self.cut = threading.Event()  # stopped at a test it gave away

    def _started(self, name: str) -> None:
        if not self._keeps(name):
            self.cut.set()
            self._kill_group()

    def run(self) -> ProcessEnd:
        self._process = process = subprocess.Popen(
            command_for(self.binary, self.tests, self.launch),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=self.launch.env,
            start_new_session=True,
        )
        if self._killed.is_set():  # stopped while it was starting
            self._kill_group()
        reader = threading.Thread(
            target=self._read, args=(process.stdout,), daemon=True, name=f"read {self.binary.name}"
        )
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
        elif self.cut.is_set():
            ending = "was stopped at a test another process runs"
        elif self._killed.is_set():
            ending = "was stopped by the harness"
        else:
            ending = describe_exit(returncode)
        interrupted = self.parser.finish(ending, timed_out=timed_out)
        return ProcessEnd(
            list(self.parser.reported),
            ending,
            returncode,
            timed_out,
            self.parser.poisoned,
            interrupted,
            list(self.parser.outside),
        )

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
        # How each process that ended between two tests ended (a crash or a kill that no test's result carries:
        # the tests after it run again in a fresh process, and this is the only trace of it).
        self.between_tests: list[str] = []
        self._current: ProcessRun | None = None
        self._stopped = threading.Event()
        self._lock = threading.Lock()
        self._owned = set(self.tests)  # the tests this batch still runs (those given away are not)
        self._started: set[str] = set()  # the tests a process of this batch has started
        self._ended = False
        self._quiet = False  # stopped by stop(quiet=True): the test running then gets no result from this batch

    def run(self) -> None:
        remaining = self.tests
        while remaining and not self._stopped.is_set():
            seen: set[str] = set()

            def on_result(name: str, attempt: Attempt) -> None:
                with self._lock:
                    taken = name in self._owned and name not in seen
                    if self._quiet and attempt.status is Status.CRASH and self._stopped.is_set():
                        taken = False  # the process was killed by stop(quiet=True), not by the test
                    if taken:
                        attempt.opened = not seen
                        seen.add(name)
                if taken:
                    self.on_result(name, attempt)

            self._current = ProcessRun(self.binary, remaining, self.launch, on_result, self._keeps)
            if self._stopped.is_set():
                return
            end = self._current.run()
            self.processes += 1
            with self._lock:
                remaining = [name for name in remaining if name not in seen and name in self._owned]
                self._started -= set(remaining)  # not started after all: they run again in the next process
                if not remaining:
                    self._ended = True
            if self._between_tests(end):
                self.between_tests.append(f"{end.ending} after {end.reported[-1]}")
            if not remaining or self._stopped.is_set():
                return
            if end.normal:
                self._report_all(
                    remaining,
                    Attempt(
                        None,
                        message=(f"{self.binary.name} {end.ending} without running this test (is it in the binary?)"),
                        output="".join(end.outside),
                    ),
                )
                return
            if not seen:
                # Nothing started: the process cannot get going. Say so for each test instead of looping.
                status = Status.TIMEOUT if end.timed_out else Status.CRASH
                self._report_all(
                    remaining,
                    Attempt(
                        status,
                        message=(f"{self.binary.name} {end.ending} before this test started"),
                        output="".join(end.outside),
                    ),
                )
                return
        with self._lock:
            self._ended = True

    def _between_tests(self, end: ProcessEnd) -> bool:
        """Whether the process ended otherwise than GoogleTest ends, after a test and before the next, on its own:
        no test was running, none left it poisoned, and the harness did not stop it."""
        return (
            not end.normal
            and end.interrupted is None
            and end.poisoned is None
            and bool(end.reported)
            and not self._current.cut.is_set()
            and not self._stopped.is_set()
        )

    def _keeps(self, name: str) -> bool:
        with self._lock:
            if name not in self._owned:
                return False
            self._started.add(name)
            return True

    def running(self) -> tuple[str | None, float]:
        """The test the batch's process is running now and for how long (None, 0 between tests)."""
        current = self._current
        if current is None:
            return None, 0.0
        return current.parser.open_test, current.parser.open_for()

    def not_started(self) -> list[str]:
        """The tests of the batch that no process has started yet, in order."""
        with self._lock:
            if self._ended:
                return []
            return [name for name in self.tests if name in self._owned and name not in self._started]

    def give_away(self, names: list[str]) -> bool:
        """Leaves `names` (tests not started yet) to another process: this one stops when it reaches the first of
        them. False (nothing given) when one of them has started meanwhile or the batch has ended."""
        with self._lock:
            if (
                self._ended
                or self._stopped.is_set()
                or any(name not in self._owned or name in self._started for name in names)
            ):
                return False
            self._owned -= set(names)
            return True

    def _report_all(self, names: list[str], attempt: Attempt) -> None:
        for name in names:
            self.on_result(name, Attempt(attempt.status, 0.0, attempt.message, attempt.output))

    def stop(self, quiet: bool = False) -> None:
        """Stops the batch: its process is killed, no other starts. `quiet`: the test that was running then is
        left without a result (the caller reports it), instead of a crash 'stopped by the harness'."""
        self._quiet = quiet
        self._stopped.set()
        if self._current is not None:
            self._current.kill()
