"""Stage 3 of a run, run: the selected tests' processes, and the verdict of each test from its raw results.

The scheduler (scheduler.py) runs batches on its workers and hands each raw first result up to `Running._settles`,
which gives the test the entry that resolve found for it and asks `status.classify` (through the record) whether the
result is expected: the scheduler never classifies. A test ends here once it is settled (after the re-run of its
batch when its first result was unexpected), and goes on to `on_finished`: the journal stage.

A run may start before the device is known (scripts/conformance starts the GPU while pytest starts): then
resolve's result comes later, as a future, and a worker that needs an entry waits for it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path

from cuconform import durations, modules
from cuconform import environment as env
from cuconform import journal as journal_file
from cuconform.catalog import TestCase
from cuconform.gtest import Attempt
from cuconform.options import Settings
from cuconform.protocol import PROFILE_ENV, SANITIZER_ENV
from cuconform.results import TestRecord
from cuconform.runner import Launch
from cuconform.sanitizer import SANITIZER_SLOWDOWN, sanitizer_wrapper
from cuconform.plan import expected_finish, plan_batches, report_order
from cuconform.scheduler import Scheduler
from cuconform.stage_resolve import Resolved

WORKERS_PER_GPU = 4  # test processes sharing one GPU at a time (exclusive tests still run alone)
# The host workers' processes (compilers, host checks) run at a lower priority than the GPU workers': a GPU test's
# host side (its checks, its child processes, its CUDA context) then never waits for a compiler, whose verdict does
# not depend on how fast it runs. (dev1's first run: the GPU tests took 20 % longer while 16 compilers ran.)
HOST_NICE = ("nice", "-n", "5")


@dataclass(frozen=True)
class Workers:
    """How a run spreads: its GPUs (counted before the probe is done) and its GPU and host workers."""

    gpus: int
    jobs: int
    host_jobs: int

    @classmethod
    def of(cls, settings: Settings, gpus: int) -> "Workers":
        """--jobs, else WORKERS_PER_GPU per GPU; --host-jobs, else one per core (for the tests that need no GPU)."""
        return cls(
            gpus,
            settings.jobs or WORKERS_PER_GPU * max(1, gpus),
            settings.host_jobs if settings.host_jobs else (os.cpu_count() or 1),
        )


def launch_for(settings: Settings, slot: str | None, host: bool = False) -> Launch:
    """How a worker starts its processes: the profile, its GPU, the timeout; GPU batches under the sanitizer."""
    child_env = dict(os.environ, **{PROFILE_ENV: settings.profile})
    child_env.pop(SANITIZER_ENV, None)  # set below for the tool's batches only, never inherited
    if slot is not None:
        child_env["CUDA_VISIBLE_DEVICES"] = slot
    if settings.sanitizer and not host:
        # The binary is told the tool too: under it, the sweeps that only repeat what the tool already checked are
        # sampled (cuconform/instrumented.h), so that racecheck of every area ends within one call.
        return Launch(
            env=dict(child_env, **{SANITIZER_ENV: settings.sanitizer}),
            timeout=settings.timeout * SANITIZER_SLOWDOWN,
            wrapper=sanitizer_wrapper(settings.sanitizer),
        )
    return Launch(env=child_env, timeout=settings.timeout, wrapper=HOST_NICE if host else ())


def record_for(case: TestCase, resumed: journal_file.JournalContents | None) -> TestRecord:
    """The record of a selected test: restored from the journal of the run this one continues, or new."""
    entry = resumed.tests.get(case.test_id) if resumed else None
    if entry is not None and entry.get("attempts"):  # one that was not run (an expected skip) is judged again
        try:
            return journal_file.restore(case, entry)
        except (ValueError, TypeError, AttributeError):
            pass  # a journal line this harness cannot read: the test runs again
    return TestRecord(case)


def give_entry(record: TestRecord, resolved: Resolved) -> None:
    """Gives a record the expectation entry resolve found for its test; idempotent."""
    if not record.resolved:
        record.expectation = resolved.entry(record.case.test_id)
        record.resolved = True


class Running:
    """The run stage of one run: its scheduler, started with the first batch, and the verdicts of raw results."""

    def __init__(
        self,
        settings: Settings,
        build_dir: Path,
        workers: Workers,
        resolution: Future,
        on_finished: Callable[[TestRecord], None],
        on_restored: Callable[[TestRecord], None],
        kept: durations.Durations | None = None,
    ):
        self.settings = settings
        self.build_dir = build_dir
        self.durations = kept or durations.Durations(Path(os.devnull))  # none kept: the kinds' defaults
        self.workers = workers
        self.resolution = resolution  # Future[Resolved]: set once the device, and so the chain, is known
        self.on_finished = on_finished
        self.on_restored = on_restored
        self.scheduler: Scheduler | None = None
        self.queued_at: float | None = None  # time.monotonic() when the first batch was queued: the run started
        # Several areas' ordinary GPU tests in one cuconform-multi process (modules.py) with --multi-area (the
        # default), but not where a run must see each binary alone: --fail-fast (it stops a binary at its first
        # failure), a sanitizer run (its tool's report is read per process).
        alone = not settings.multi_area or settings.fail_fast or settings.sanitizer
        self._shares = None if alone else modules.finder()

    @property
    def started(self) -> bool:
        return self.queued_at is not None

    def prepare(self) -> None:
        """Starts the scheduler's workers, idle until the first batch is queued: while the binaries are listed, so
        that the 20-odd threads are running when the plan is made (on an H200's host the first batch started
        0.3 s after the plan began; docs/results/h200-2026-11-29-speed6.md)."""
        self._scheduler()

    @property
    def processes(self) -> int:
        return self.scheduler.processes if self.scheduler else 0

    @property
    def timeline(self) -> list[dict]:
        return sorted(self.scheduler.timeline, key=lambda run: run["start_s"]) if self.scheduler else []

    def start_early(self, records: list[TestRecord]) -> None:
        """Runs `records` before their entries are known (none of them is one any file says to skip)."""
        self._add([record for record in records if not record.restored])

    def start(self, records: list[TestRecord], resolved: Resolved, started_early: set[int]) -> None:
        """Runs `records` (pytest's selection, in its order) in the background, but those started early (their ids
        of object) and those that finished before (restored) or are not run here (an expected skip): those end now.
        Each record is done when its result is in."""
        for record in records:
            give_entry(record, resolved)
            if record.restored:
                record.finish()
                self.on_restored(record)
            elif not record.runs:
                record.finish()
                self.on_finished(record)
        self._add([record for record in records if id(record) not in started_early and not record.restored])
        self._scheduler().close()

    def stop(self) -> None:
        if self.scheduler is not None:
            self.scheduler.stop()

    def expected_finish(self) -> dict[str, tuple[float, str]]:
        """When each test queued so far is expected to finish, and on which lane, by test id
        (plan.expected_finish)."""
        if self.scheduler is None:
            return {}
        return expected_finish(list(self.scheduler.batches), self.workers.jobs, self.workers.host_jobs)

    def report_order(self) -> dict[str, tuple[float, int, int]]:
        """The order in which pytest should report the tests queued so far (plan.report_order)."""
        if self.scheduler is None:
            return {}
        return report_order(list(self.scheduler.batches), self.workers.jobs, self.workers.host_jobs)

    def _add(self, records: list[TestRecord]) -> None:
        if self.queued_at is None:
            self.queued_at = time.monotonic()
        kept = self.durations  # what each test took in earlier runs on this machine: the plan's costs
        gpu_present = self.workers.gpus > 0  # the probe may not be done yet; the driver's GPUs stand in
        self._scheduler().add(
            plan_batches(
                records,
                self.workers.jobs,
                self.settings.batch_size,
                self.workers.host_jobs,
                cost=lambda record: kept.expected_s(record.case, gpu_present),
                gpus=self.workers.gpus,
                measured=lambda record: kept.measured(record.case, gpu_present),
                shares=self._shares,
                isolated_first=self.settings.isolated_first,
                launch_heavy_last=self.settings.launch_heavy_last,
            )
        )

    def _scheduler(self) -> Scheduler:
        if self.scheduler is None:
            workers = self.workers
            self.scheduler = Scheduler(
                jobs=workers.jobs,
                slots=env.gpu_slots(workers.gpus, workers.jobs),
                launch_for=lambda slot, host=False: launch_for(self.settings, slot, host),
                settles=self._settles,
                host_jobs=workers.host_jobs,
                on_finished=self.on_finished,
                fail_fast=bool(getattr(self.settings, "fail_fast", False)),
            )
            self.scheduler.start()
        return self.scheduler

    def _settles(self, record: TestRecord, attempt: Attempt) -> bool:
        """Whether a test's first attempt settles it (the scheduler hands up each raw first result): an unexpected
        one does not, and its batch runs again to tell a flake from a failure."""
        give_entry(record, self.resolution.result())  # a run started early waits here for the device
        return not record.unexpected(attempt)
