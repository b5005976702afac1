"""Runs the planned batches (plan.py) on worker threads: GPU workers, one or more per GPU, and host workers.

- Batches are handed out in the plan's order: exclusive first, then the longest first. Batches can be added until
  `close()`.
- Exclusive batches run while nothing else runs on any GPU of the run, and see every one of them. Ordinary
  batches of one GPU run several at a time (a test process keeps its GPU busy a small part of its time); the GPU
  time-slices between their contexts, so each kernel still runs alone.
- Tests that need no GPU (compile-time and host rules) run on host workers of their own, one per CPU core by
  default: they never wait for a GPU, and a GPU never waits for them.
- No single process ends the run late: a worker that finds its lane's queue empty takes the tail of the running
  batch of its lane that has the most work left (the tests it has not started, at the pace it has shown so far),
  when that tail is worth a process of its own; the running process stops where the tail starts (runner.py). So a
  long batch is split while it runs, wherever the plan's costs were wrong (a first run knows none).
- Raw results go up as they come, to `settles(record, attempt)`, which says whether the attempt settles the test
  (the run stage, stage_run.py, judges it against its expectation: the scheduler never classifies). A batch with a
  result that does not settle its test runs once more, in the same order; settled results are handed on at once,
  the others after the re-run.
- With `fail_fast`, a binary's first unexpected result settles its test at once (no re-run), and when it is a failure
  (an unexpected pass is not) it ends the binary:
  its running batches are stopped, its queued ones not started, and every test of it without a result is reported
  skipped, naming the test that stopped it (a mutation run: one failure kills a mutant, the rest is time).
- Each worker sees its own GPU (CUDA_VISIBLE_DEVICES) when the run spreads over several.
- Each batch run is kept in `timeline` (worker, binary, tests, start and end, what the plan expected, and whether it
  was split off another); critical_path() reads the run's end from it.
"""

from __future__ import annotations

import threading
import time
import traceback
from collections import deque
from collections.abc import Callable
from contextlib import ExitStack, contextmanager, nullcontext
from dataclasses import dataclass, field

from cuconform.gtest import Attempt
from cuconform.plan import PROCESS_S, Batch, tail_to_give
from cuconform.results import TestRecord
from cuconform.runner import BatchRun, Launch, is_failure, not_run

IDLE_POLL_S = 0.1  # an idle worker looks this often for a tail to take
MIN_TAIL_TESTS = 2  # a tail of fewer tests is not split off
# A running batch's pace (seconds per planned second) is taken from its finished tests once two have finished or they
# were planned to take this long; before that, the plan's costs stand. A guessed cost can be off a hundredfold (a
# test that starts a child process, planned as a launch or two).
PACE_AFTER_S = 0.2
PACE_AFTER_TESTS = 2
PACE_LIMITS = (0.1, 1000.0)


@dataclass
class _Running:
    """A batch being run: what the scheduler needs to decide whether to take its tail."""

    batch: Batch
    batch_run: BatchRun
    worker: str
    started: float
    done_expected: float = 0.0  # the plan's cost of the tests that finished here
    done_actual: float = 0.0  # what they took
    finished: set[str] = field(default_factory=set)

    def busy_for(self) -> float:
        """What the test the batch runs now has left, as far as can be told: its planned cost at the batch's pace less
        what it has run, or, once it has run longer than that, as long again as half of what it has run."""
        name, ran = self.batch_run.running()
        if name is None:
            return 0.0
        return max(self.batch.costs.get(name, 0.0) * self.pace() - ran, 0.5 * ran)

    def pace(self) -> float:
        if (
            (self.done_expected < PACE_AFTER_S and len(self.finished) < PACE_AFTER_TESTS)
            or self.done_actual <= 0
            or self.done_expected <= 0
        ):
            return 1.0
        low, high = PACE_LIMITS
        return min(high, max(low, self.done_actual / self.done_expected))


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
    """Runs batches on `jobs` GPU workers and `host_jobs` host workers; GPU worker i uses GPU slot i % len(slots)
    and `launch_for(slot, host)`. Batches can be added until `close()`. Each first result goes to
    `settles(record, attempt)`: False runs the batch again. `split`: whether idle workers take running batches'
    tails."""

    def __init__(
        self,
        *,
        jobs: int,
        slots: list[str | None],
        launch_for: Callable[[str | None, bool], Launch],
        settles: Callable[[TestRecord, Attempt], bool] = lambda record, attempt: True,
        on_finished: Callable[[TestRecord], None] | None = None,
        host_jobs: int = 0,
        split: bool = True,
        fail_fast: bool = False,
    ):
        self.jobs = max(1, jobs)
        self.host_jobs = max(0, host_jobs)
        self.slots = slots or [None]
        self.launch_for = launch_for
        self.settles = settles
        self.on_finished = on_finished or (lambda record: None)
        self.split = split
        self.fail_fast = fail_fast
        self._failed: dict[object, str] = {}  # fail_fast: binary -> the test whose unexpected result ended it
        self.locks = {slot: GpuLock() for slot in self.slots}
        self.batches: list[Batch] = []
        self.processes = 0
        # Each batch run, for finding a run's critical path: binary, tests, exclusive, the worker's name, its start
        # and end in seconds after the scheduler was made, the plan's expected seconds, and the worker it was split
        # off (a flake re-run is a second entry).
        self.timeline: list[dict] = []
        self.created = time.monotonic()
        self._cond = threading.Condition()
        self._queues: dict[str, deque[Batch]] = {"gpu": deque(), "host": deque()}
        self._running: dict[str, list[_Running]] = {"gpu": [], "host": []}
        self._looked = {"gpu": 0.0, "host": 0.0}  # when an idle worker last looked for a tail to take
        self._stopped = threading.Event()
        self._closed = False
        self._finishing = threading.Lock()
        self._threads: list[threading.Thread] = []

    def _lane(self, batch: Batch) -> str:
        return "host" if batch.host and self.host_jobs else "gpu"

    def start(self) -> None:
        for index in range(self.jobs):
            slot = self.slots[index % len(self.slots)]
            self._spawn(f"cuconform worker {index}", "gpu", slot, self.locks[slot])
        for index in range(self.host_jobs):
            self._spawn(f"cuconform host worker {index}", "host", None, None)

    def _spawn(self, name: str, lane: str, slot: str | None, lock: GpuLock | None) -> None:
        thread = threading.Thread(target=self._work, args=(lane, slot, lock), daemon=True, name=name)
        thread.start()
        self._threads.append(thread)

    def add(self, batches: list[Batch]) -> None:
        """Queues batches; they run after those queued before them."""
        with self._cond:
            self.batches += batches
            for batch in batches:
                self._queues[self._lane(batch)].append(batch)
            self._cond.notify_all()

    def close(self) -> None:
        """No more batches: each worker ends when its lane has nothing left to run or to split."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def stop(self) -> None:
        """Stops the run: no new batch starts, running processes are killed, every waiting record is released."""
        self._stopped.set()
        with self._cond:
            running = [entry.batch_run for lane in self._running.values() for entry in lane]
            self._closed = True
            self._cond.notify_all()
        for batch_run in running:
            batch_run.stop()
        for thread in self._threads:
            thread.join(10)
        for batch in self.batches:
            for record in batch.records:
                self._finish(record)

    def join(self) -> None:
        self.close()
        for thread in self._threads:
            thread.join()

    # --- the workers ---------------------------------------------------------------------------------------

    def _work(self, lane: str, slot: str | None, lock: GpuLock | None) -> None:
        launch = self.launch_for(slot, lock is None)
        whole_machine = self.launch_for(self._every_slot(), False) if lock is not None else launch
        while not self._stopped.is_set():
            batch = self._next(lane)
            if batch is None:
                return
            if batch.binary in self._failed:
                self._not_run(batch)
                continue
            with nullcontext() if lock is None else self._every_gpu() if batch.exclusive else lock.shared():
                try:
                    self._run(batch, whole_machine if batch.exclusive else launch, lane)
                except Exception:  # noqa: BLE001 - a harness bug must not leave pytest waiting for ever
                    error = traceback.format_exc()
                    for record in batch.records:
                        if not record.done:
                            if not record.attempts:
                                record.add(Attempt(None, message=f"harness error:\n{error}"))
                            self._finish(record)

    def _next(self, lane: str) -> Batch | None:
        """The next batch for a worker of `lane`: queued, else a running batch's tail; None once the lane is done."""
        with self._cond:
            while not self._stopped.is_set():
                if self._queues[lane]:
                    return self._queues[lane].popleft()
                now = time.monotonic()
                if self.split and now - self._looked[lane] >= IDLE_POLL_S:  # one look per lane and poll
                    self._looked[lane] = now
                    tail = self._tail(lane)
                    if tail is not None:
                        return tail
                if self._closed and not self._running[lane]:
                    return None
                self._cond.wait(IDLE_POLL_S)
        return None

    def _tail(self, lane: str) -> Batch | None:
        """Splits off the tail of the running batch of `lane` with the most work left, when that is worth a process
        of its own (plan.tail_to_give). Called with the condition held."""
        best: tuple[float, _Running, list[str], float] | None = None
        for entry in self._running[lane]:
            if entry.batch.exclusive or entry.batch.isolated:
                continue
            waiting = entry.batch_run.not_started()
            if not waiting:
                continue
            busy = entry.busy_for()
            left = entry.batch.cost_of(waiting) * entry.pace() + busy
            if best is None or left > best[0]:
                best = (left, entry, waiting, busy)
        if best is None:
            return None
        _, entry, waiting, busy = best
        given = tail_to_give(waiting, entry.batch.costs, entry.pace(), PROCESS_S[lane], MIN_TAIL_TESTS, busy)
        if not given or not entry.batch_run.give_away(given):
            return None
        names = set(given)
        batch = entry.batch
        moved = [record for record in batch.records if batch.key(record) in names]
        batch.records = [record for record in batch.records if batch.key(record) not in names]
        tail = Batch(
            entry.batch.binary,
            moved,
            host=entry.batch.host,
            multi=entry.batch.multi,
            split_from=entry.worker,
            costs={name: entry.batch.costs.get(name, 0.0) for name in given},
        )
        tail.expected_s = entry.batch.cost_of(given)
        entry.batch.expected_s -= tail.expected_s
        self.batches.append(tail)
        return tail

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

    # --- one batch -----------------------------------------------------------------------------------------

    def _run(self, batch: Batch, launch: Launch, lane: str) -> None:
        by_name = {batch.key(record): record for record in batch.records}

        def first_result(name: str, attempt: Attempt) -> None:
            record = by_name[name]
            record.add(attempt)
            if self.settles(record, attempt):
                self._finish(record)
            elif self.fail_fast:
                self._finish(record)
                if is_failure(attempt):  # an unexpected pass (an xfail's) ends nothing
                    self._end_binary(batch.binary, name)

        self._run_once(batch, launch, lane, first_result, splittable=True)
        if batch.binary in self._failed:
            self._not_run(batch)
            return
        held = [record for record in batch.records if not record.done]
        if held and not self._stopped.is_set():
            held_names = {batch.key(record) for record in held}

            def second_result(name: str, attempt: Attempt) -> None:
                if name in held_names:
                    by_name[name].add(attempt)

            # The whole batch again (what it kept, if it gave a tail away), in the same order; of a cuconform-multi
            # batch, the tests of the areas whose tests it holds: what a batch of their own binaries would repeat.
            again = batch.of_areas(held) if batch.multi else batch
            self._run_once(again, launch, lane, second_result, splittable=False)
        for record in held:
            self._finish(record)

    def _run_once(
        self, batch: Batch, launch: Launch, lane: str, on_result: Callable[[str, Attempt], None], splittable: bool
    ) -> None:
        gpus = (launch.env or {}).get("CUDA_VISIBLE_DEVICES") if any(self.slots) and not batch.host else None
        entry: _Running | None = None

        def on_result_from(name: str, attempt: Attempt) -> None:
            attempt.gpus = gpus  # which GPU ran it: the reports show how the run spread
            if entry is not None:
                with self._cond:
                    entry.finished.add(name)
                    entry.done_expected += batch.costs.get(name, 0.0)
                    entry.done_actual += attempt.duration
            on_result(name, attempt)

        batch_run = BatchRun(batch.binary, [batch.key(record) for record in batch.records], launch, on_result_from)
        worker = threading.current_thread().name
        start = time.monotonic()
        with self._cond:
            if self._stopped.is_set() or batch.binary in self._failed:  # fail_fast: ended while this one was starting
                return
            entry = _Running(batch, batch_run, worker, start)
            if splittable:
                self._running[lane].append(entry)
            else:  # a re-run keeps its batch whole: it must repeat the first run's order
                self._running.setdefault("rerun", []).append(entry)
        try:
            batch_run.run()
        finally:
            with self._cond:
                for running in self._running.values():
                    if entry in running:
                        running.remove(entry)
                self.processes += batch_run.processes
                self.timeline.append(
                    {
                        "binary": batch.binary.name,
                        "tests": len(batch.records),
                        "exclusive": batch.exclusive,
                        "worker": worker,
                        "start_s": round(start - self.created, 3),
                        "end_s": round(time.monotonic() - self.created, 3),
                        "expected_s": round(batch.expected_s, 3),
                        "processes": batch_run.processes,
                        **({"split_from": batch.split_from} if batch.split_from else {}),
                        **({"host": True} if batch.host else {}),
                        **({"isolated": True} if batch.isolated else {}),
                        **({"areas": sorted({record.case.area for record in batch.records})} if batch.multi else {}),
                        **({"rerun": True} if not splittable else {}),
                        **({"between_tests": batch_run.between_tests} if batch_run.between_tests else {}),
                    }
                )
                self._cond.notify_all()

    def _end_binary(self, binary, name: str) -> None:
        """fail_fast: `name` gave `binary` its first unexpected result; its running batches stop now."""
        with self._cond:
            if binary in self._failed:
                return
            self._failed[binary] = name
            running = [
                entry.batch_run for lane in self._running.values() for entry in lane if entry.batch.binary == binary
            ]
        for batch_run in running:
            batch_run.stop(quiet=True)

    def _not_run(self, batch: Batch) -> None:
        """fail_fast: the batch's tests without a result, reported skipped (their binary ended at a failure)."""
        first = self._failed[batch.binary]
        why = f"not run: --fail-fast stopped {batch.binary.name} at its first unexpected result, {first}"
        for record in batch.records:
            if record.done:
                continue
            if not record.attempts:
                attempt = not_run(why)
                record.add(attempt)
                self.settles(record, attempt)
            self._finish(record)

    def _finish(self, record: TestRecord) -> None:
        with self._finishing:
            if record.done:
                return
            record.finish()
        self.on_finished(record)
