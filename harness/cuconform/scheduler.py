"""Spreads the selected tests over worker threads, one or more per GPU, in batches.

- Tests of one binary run in batches (`--gtest_filter=a:b:c`), in the listing's order; the tests of a binary of one
  kind (exclusive, ordinary, isolated, host-only) are gathered, so that no test of another kind splits them into
  two processes. Exclusive batches are queued first.
- Exclusive tests run while nothing else runs on any GPU of the run, and see every one of them: the exclusive
  tests of one binary share an exclusive batch, wherever the listing puts them (one process: a CUDA context costs
  ~0.4 s, and a litmus binary has a hundred such tests). Tests that need several GPUs (peer access, one variable
  per device) are exclusive for that reason only: in a run of one GPU they see the GPU an ordinary batch sees and
  skip, so they run as ordinary tests there.
- Ordinary batches of one GPU run several at a time (a test process keeps its GPU busy a small part of its time:
  start-up, host checks); the GPU time-slices between their contexts, so each kernel still runs alone.
- Raw results go up as they come, to `settles(record, attempt)`, which says whether the attempt settles the test
  (the run stage, stage_run.py, judges it against its expectation: the scheduler never classifies). A batch with a
  result that does not settle its test runs once more, in the same order; settled results are handed on at once,
  the others after the re-run.
- Each worker sees its own GPU (CUDA_VISIBLE_DEVICES) when the run spreads over several.
- Tests that need no GPU (compile-time and host rules) run on host workers of their own, one per CPU core by
  default, in smaller batches: they never wait for a GPU, and a GPU never waits for them.
- An isolated test (it resets its device, sets a limit before its first launch, or faults on purpose) is a batch
  of its own.
- Within each kind, batches are queued longest first (by the durations an earlier run kept, else the defaults of
  their kind), so that no long batch starts last and becomes the run's tail.
"""

from __future__ import annotations

import math
import queue
import threading
import time
import traceback
from collections.abc import Callable
from contextlib import ExitStack, contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path

from cuconform.gtest import Attempt
from cuconform.results import TestRecord
from cuconform.runner import BatchRun, Launch

FILTER_CHARS_LIMIT = 100_000  # one argument may not exceed 128 KiB on Linux
MIN_BATCH = 16
# An ordinary batch ends once the tests in it are expected to take this long (from the durations an earlier run of
# the build kept). The contexts of a GPU's processes time-slice, so more, shorter batches do not finish sooner: on an
# H100 (2026-11-26, 4 workers) 5 s batches made the warm quick run 31.7 s against 38.4 s for 2 s batches, while an
# area whose tests are slow (child processes, long sweeps) is still spread over several workers.
BATCH_SECONDS = 5.0


@dataclass
class Batch:
    binary: Path
    records: list[TestRecord]
    exclusive: bool = False
    host: bool = False  # no test of it needs a GPU
    expected_s: float = 0.0  # what its tests are expected to take, summed


def runs_exclusive(record: TestRecord, gpus: int | None = None) -> bool:
    """Whether a test runs alone on every GPU of the run. A test about several GPUs is exclusive only to see them
    all; in a run of `gpus` == 1 every process sees that one GPU, so it runs beside the others (and skips)."""
    case = record.case
    return case.exclusive and not (case.multi_gpu and gpus == 1)


def plan_batches(records: list[TestRecord], jobs: int, batch_size: int, host_jobs: int = 0,
                 cost: Callable[[TestRecord], float] | None = None, gpus: int | None = None) -> list[Batch]:
    """The tests of one binary share a batch, those of each kind together: exclusive, ordinary, isolated (one
    each) and, when there are host workers, host-only. With several workers the batches are made small enough for
    every worker to have work, and an ordinary batch ends once `cost` (a test's expected seconds) adds up to
    BATCH_SECONDS. `gpus`: the GPUs of the run, where known (see runs_exclusive)."""

    def kind(record: TestRecord) -> int:
        if runs_exclusive(record, gpus):
            return 0
        if host_jobs and not record.case.gpu:
            return 3
        return 2 if record.case.isolated else 1

    # Each binary's tests of one kind are gathered, wherever the listing puts them: an exclusive, isolated or
    # host-only test between the ordinary tests of a binary would otherwise split them into two processes (a CUDA
    # context costs ~0.4 s), and exclusive ones would each cost an exclusive process. The order of the tests inside
    # a binary and kind is the listing's (the sort is stable).
    runnable = [record for record in records if record.runs]
    first_seen: dict[tuple[int, Path], int] = {}
    for record in runnable:
        first_seen.setdefault((kind(record), record.case.binary), len(first_seen))
    to_run = sorted(runnable, key=lambda record: (kind(record), first_seen[(kind(record), record.case.binary)]))
    on_host = [record for record in to_run if kind(record) == 3]

    def size_for(count: int, workers: int) -> int:
        return max(1, min(batch_size, max(MIN_BATCH, math.ceil(count / max(workers, 1)))))

    gpu_size = size_for(len(to_run) - len(on_host), jobs)
    # Compile-time cases cost from 0.1 s to 10 s of a compiler's time and a cold cache hides which: many small batches
    # let the host workers even out their ends.
    host_size = size_for(len(on_host), host_jobs * 6)
    batches: list[Batch] = []
    current: Batch | None = None
    current_isolated = False
    chars, seconds = 0, 0.0
    for record in to_run:
        exclusive = runs_exclusive(record, gpus)
        host = bool(host_jobs) and not record.case.gpu
        size = host_size if host else gpu_size
        name_chars = len(record.case.name) + 1
        expected = cost(record) if cost else 0.0
        isolated = record.case.isolated
        if (current is None or current.binary != record.case.binary or current.exclusive != exclusive
                or current.host != host or len(current.records) >= size or isolated or current_isolated
                or chars + name_chars > FILTER_CHARS_LIMIT
                or (not exclusive and seconds > 0 and seconds + expected > BATCH_SECONDS)):
            current = Batch(record.case.binary, [], exclusive=exclusive, host=host)
            batches.append(current)
            chars, seconds = 0, 0.0
        current.records.append(record)
        current.expected_s += expected
        current_isolated = isolated
        chars += name_chars
        seconds += expected
    # Exclusive batches first: each holds every GPU, so one that comes up mid-run leaves the GPU workers idle while
    # the running batches drain; at the start there is nothing to drain. Then the longest first. (The sort is
    # stable: batches expected to take as long keep the listing's order.)
    return sorted(batches, key=lambda batch: (not batch.exclusive, -batch.expected_s))


class GpuLock:
    """Shared for ordinary batches, exclusive for an exclusive test; a waiting exclusive test goes first."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._sharing = 0
        self._exclusive = False
        self._waiting = 0

    @contextmanager
    def shared(self):
        with self._cond:
            self._cond.wait_for(lambda: not self._exclusive and not self._waiting)
            self._sharing += 1
        try:
            yield
        finally:
            with self._cond:
                self._sharing -= 1
                self._cond.notify_all()

    @contextmanager
    def exclusive(self):
        with self._cond:
            self._waiting += 1
            self._cond.wait_for(lambda: not self._exclusive and not self._sharing)
            self._waiting -= 1
            self._exclusive = True
        try:
            yield
        finally:
            with self._cond:
                self._exclusive = False
                self._cond.notify_all()


class Scheduler:
    """Runs batches on `jobs` workers; worker i uses GPU slot i % len(slots) and `launch_for(slot)`. Batches can be
    added until `close()`. Each first result goes to `settles(record, attempt)`: False runs the batch again."""

    def __init__(self, *, jobs: int, slots: list[str | None], launch_for: Callable[[str | None, bool], Launch],
                 settles: Callable[[TestRecord, Attempt], bool] = lambda record, attempt: True,
                 on_finished: Callable[[TestRecord], None] | None = None, host_jobs: int = 0):
        self.jobs = max(1, jobs)
        self.host_jobs = max(0, host_jobs)
        self.slots = slots or [None]
        self.launch_for = launch_for
        self.settles = settles
        self.on_finished = on_finished or (lambda record: None)
        self.locks = {slot: GpuLock() for slot in self.slots}
        self.batches: list[Batch] = []
        self.processes = 0
        # Each batch run, for finding a run's critical path: binary, tests, exclusive, the worker's name, and its
        # start and end in seconds after the scheduler was made (a flake re-run is a second entry).
        self.timeline: list[dict] = []
        self._created = time.monotonic()
        self._queue: queue.SimpleQueue[Batch | None] = queue.SimpleQueue()
        self._host_queue: queue.SimpleQueue[Batch | None] = queue.SimpleQueue()
        self._stopped = threading.Event()
        self._closed = False
        self._running: set[BatchRun] = set()
        self._mutex = threading.Lock()
        self._finishing = threading.Lock()
        self._threads: list[threading.Thread] = []
        self._host_threads: list[threading.Thread] = []

    def start(self) -> None:
        for index in range(self.jobs):
            slot = self.slots[index % len(self.slots)]
            thread = threading.Thread(target=self._work, args=(slot, self._queue, self.locks[slot]), daemon=True,
                                      name=f"cuconform worker {index}")
            thread.start()
            self._threads.append(thread)
        for index in range(self.host_jobs):
            thread = threading.Thread(target=self._work, args=(None, self._host_queue, None), daemon=True,
                                      name=f"cuconform host worker {index}")
            thread.start()
            self._host_threads.append(thread)

    def add(self, batches: list[Batch]) -> None:
        """Queues batches; they run after those queued before them."""
        with self._mutex:
            self.batches += batches
        for batch in batches:
            (self._host_queue if batch.host and self.host_jobs else self._queue).put(batch)

    def close(self) -> None:
        """No more batches: each worker ends when the queue is empty."""
        with self._mutex:
            if self._closed:
                return
            self._closed = True
        for _ in self._threads:
            self._queue.put(None)
        for _ in self._host_threads:
            self._host_queue.put(None)

    def stop(self) -> None:
        """Stops the run: no new batch starts, running processes are killed, every waiting record is released."""
        self._stopped.set()
        with self._mutex:
            running = list(self._running)
        for batch_run in running:
            batch_run.stop()
        self.close()
        for thread in self._threads + self._host_threads:
            thread.join(10)
        for batch in self.batches:
            for record in batch.records:
                self._finish(record)

    def join(self) -> None:
        self.close()
        for thread in self._threads + self._host_threads:
            thread.join()

    def _work(self, slot: str | None, batches: queue.SimpleQueue, lock: GpuLock | None) -> None:
        launch = self.launch_for(slot, lock is None)
        whole_machine = self.launch_for(self._every_slot(), False) if lock is not None else launch
        while not self._stopped.is_set():
            batch = batches.get()
            if batch is None or self._stopped.is_set():
                return
            with nullcontext() if lock is None else self._every_gpu() if batch.exclusive else lock.shared():
                try:
                    self._run(batch, whole_machine if batch.exclusive else launch)
                except Exception:  # noqa: BLE001 - a harness bug must not leave pytest waiting for ever
                    error = traceback.format_exc()
                    for record in batch.records:
                        if not record.done:
                            if not record.attempts:
                                record.add(Attempt(None, message=f"harness error:\n{error}"))
                            self._finish(record)

    def _every_slot(self) -> str | None:
        """CUDA_VISIBLE_DEVICES for a process that sees every GPU of the run."""
        named = [slot for slot in self.slots if slot is not None]
        return ",".join(named) if named else None

    @contextmanager
    def _every_gpu(self):
        """Exclusive use of every GPU, taken in one order so that two exclusive batches cannot deadlock."""
        with ExitStack() as held:
            for slot in self.slots:
                held.enter_context(self.locks[slot].exclusive())
            yield

    def _run(self, batch: Batch, launch: Launch) -> None:
        by_name = {record.case.name: record for record in batch.records}

        def first_result(name: str, attempt: Attempt) -> None:
            record = by_name[name]
            record.add(attempt)
            if self.settles(record, attempt):
                self._finish(record)

        self._run_once(batch, launch, first_result)
        held = [record for record in batch.records if not record.done]
        if held and not self._stopped.is_set():
            held_names = {record.case.name for record in held}

            def second_result(name: str, attempt: Attempt) -> None:
                if name in held_names:
                    by_name[name].add(attempt)

            self._run_once(batch, launch, second_result)  # the whole batch, in the same order
        for record in held:
            self._finish(record)

    def _run_once(self, batch: Batch, launch: Launch, on_result: Callable[[str, Attempt], None]) -> None:
        gpus = (launch.env or {}).get("CUDA_VISIBLE_DEVICES") if any(self.slots) and not batch.host else None

        def on_result_from(name: str, attempt: Attempt) -> None:
            attempt.gpus = gpus  # which GPU ran it: the reports show how the run spread
            on_result(name, attempt)

        batch_run = BatchRun(batch.binary, [record.case.name for record in batch.records], launch, on_result_from)
        with self._mutex:
            if self._stopped.is_set():
                return
            self._running.add(batch_run)
        start = time.monotonic()
        try:
            batch_run.run()
        finally:
            with self._mutex:
                self._running.discard(batch_run)
                self.processes += batch_run.processes
                self.timeline.append({"binary": batch.binary.name, "tests": len(batch.records),
                                      "exclusive": batch.exclusive, "worker": threading.current_thread().name,
                                      "start_s": round(start - self._created, 3),
                                      "end_s": round(time.monotonic() - self._created, 3)})

    def _finish(self, record: TestRecord) -> None:
        with self._finishing:
            if record.done:
                return
            record.finish()
        self.on_finished(record)
