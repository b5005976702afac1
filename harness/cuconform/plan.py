"""How the selected tests are cut into batches (one process each) and in which order the batches are handed out.

Pure: it reads the tests and what each is expected to cost, and starts nothing (scheduler.py runs the batches; the
simulation in scripts/replay-schedule drives the same plan with recorded durations).

- Tests of one binary run in batches (`--gtest_filter=a:b:c`), in the listing's order; the tests of a binary of one
  kind (exclusive, ordinary, isolated, host-only) are gathered, so that no test of another kind splits them into
  two processes (a CUDA context costs ~0.4 s).
- Exclusive tests run while nothing else runs on any GPU of the run, and see every one of them: the exclusive
  tests of one binary share one batch, wherever the listing puts them. Tests that need several GPUs are exclusive
  for that reason only: in a run of one GPU they see the GPU an ordinary batch sees and skip, so they run as
  ordinary tests there.
- An isolated test (it resets its device, sets a limit before its first launch, or faults on purpose) is a batch
  of its own.
- The ordinary GPU tests of the areas that have a module (modules.py) are gathered across areas: their batches run
  in cuconform-multi, several areas in one process and one CUDA context (the driver creates contexts one at a
  time: docs/design/processes.md). Their tests are named by test id there.
- Tests that need no GPU (compile-time and host rules) go to the host workers, which never wait for a GPU.
- A batch ends once its tests' expected cost reaches the lane's batch length: the lane's whole expected work,
  process start-ups included, over its workers, over SHARES_PER_WORKER, between MIN_BATCH_S and MAX_BATCH_S. Each
  worker then gets a few batches, and the longest-first order below evens out their ends. (A batch whose tail is
  still long when the other workers run dry is split while it runs: scheduler.py.)
- Order: exclusive batches first (each holds every GPU: one that comes up mid-run leaves the other workers idle
  while the running batches drain), then every batch longest first. A test's expected cost is the duration an
  earlier run on this machine kept for it, else its kind's default (durations.py). With `isolated_first` (the
  run's default), the isolated batches come right after the exclusive ones: each is a process start, which stalls
  the launches of the processes beside it, and a batch of many short launches pays that on each
  (docs/results/h200-2026-11-29-speed5.md); run together, they stall only each other (warm runs on an H200 36.0
  and 36.9 s against 37.8 and 40.6 s: -speed6.md). With `launch_heavy_last` (off), the batches of many short
  tests (launch_heavy) come after every other ordinary batch: they then run as fast as alone, but the run was no
  shorter (-speed6.md).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from cuconform.results import TestRecord

FILTER_CHARS_LIMIT = 100_000  # one argument may not exceed 128 KiB on Linux
SHARES_PER_WORKER = 3  # batches per worker of a lane, at the least: room for longest-first to even out the ends
MIN_BATCH = 16  # tests of a guessed cost: fewer than this many share a batch only at a binary's end
MIN_BATCH_S = 2.0  # a process costs ~0.5 s to start (a CUDA context): shorter batches cost more than they balance
MAX_BATCH_S = 30.0

# What a process costs before its first test has run, by lane (durations.py keeps the measured value): a GPU
# binary's start and its CUDA context (~0.4 s on an H100/H200, charged to its first test); cuconform-compile's
# Python start, its cases and its toolchain's fingerprint; a GPU binary whose tests need no GPU makes no context.
PROCESS_S = {"gpu": 0.5, "host": 0.25}
# A batch of at least this many tests, each expected to take at most LAUNCH_HEAVY_TEST_S, is mostly launches and
# synchronizations: what another process's start stalls most (docs/results/h200-2026-11-29-speed5.md: `warp`,
# `sync`, `cooperative_groups`, `wmma`, `atomics`, `intrinsics`, `types`; not `math`, whose kernels run longer).
# The bound is under the default cost of a GPU test (durations.DEFAULT_S["gpu"], 0.02 s): a batch of tests never
# measured on this machine is not taken for one.
LAUNCH_HEAVY_TESTS = 200
LAUNCH_HEAVY_TEST_S = 0.018


class Kind:
    """What a test asks of the machine; the tests of one binary and kind share their batches."""

    EXCLUSIVE, ORDINARY, ISOLATED, HOST = 0, 1, 2, 3


@dataclass
class Batch:
    binary: Path
    records: list[TestRecord]
    exclusive: bool = False
    host: bool = False  # no test of it needs a GPU
    expected_s: float = 0.0  # what its tests are expected to take, summed
    isolated: bool = False
    costs: dict[str, float] = field(default_factory=dict)  # each test's expected seconds, by name
    split_from: str | None = None  # the worker whose running batch gave this one its tests (scheduler.py)
    multi: bool = False  # `binary` is cuconform-multi, running tests of several areas (modules.py)

    @property
    def lane(self) -> str:
        return "host" if self.host else "gpu"

    def cost_of(self, names: list[str]) -> float:
        return sum(self.costs.get(name, 0.0) for name in names)

    def of_areas(self, records: list[TestRecord]) -> "Batch":
        """This batch's tests of the areas of `records`, in order (a cuconform-multi batch's flake re-run)."""
        areas = {record.case.area for record in records}
        kept = [record for record in self.records if record.case.area in areas]
        costs = {self.key(record): self.costs.get(self.key(record), 0.0) for record in kept}
        return Batch(self.binary, kept, host=self.host, costs=costs, expected_s=sum(costs.values()), multi=self.multi)

    def key(self, record: TestRecord) -> str:
        """A test's name in this batch: what its process is given and reports it by (its GoogleTest name; its test
        id in cuconform-multi, where several areas' tests meet)."""
        return record.case.test_id if self.multi else record.case.name


def launch_heavy(batch: Batch) -> bool:
    """Whether a GPU batch is many short tests (LAUNCH_HEAVY_TESTS): mostly launches and synchronizations."""
    tests = len(batch.records)
    return not batch.host and tests >= LAUNCH_HEAVY_TESTS and batch.expected_s <= tests * LAUNCH_HEAVY_TEST_S


def runs_exclusive(record: TestRecord, gpus: int | None = None) -> bool:
    """Whether a test runs alone on every GPU of the run. A test about several GPUs is exclusive only to see them
    all; in a run of `gpus` == 1 every process sees that one GPU, so it runs beside the others (and skips)."""
    case = record.case
    return case.exclusive and not (case.multi_gpu and gpus == 1)


def kind_of(record: TestRecord, host_jobs: int, gpus: int | None) -> int:
    if runs_exclusive(record, gpus):
        return Kind.EXCLUSIVE
    if host_jobs and not record.case.gpu:
        return Kind.HOST
    return Kind.ISOLATED if record.case.isolated else Kind.ORDINARY


def batch_length(work_s: float, workers: int) -> float:
    """The expected seconds at which a lane's batch ends: its work, shared by its workers a few times over."""
    return min(MAX_BATCH_S, max(MIN_BATCH_S, work_s / max(workers, 1) / SHARES_PER_WORKER))


def plan_batches(
    records: list[TestRecord],
    jobs: int,
    batch_size: int,
    host_jobs: int = 0,
    cost: Callable[[TestRecord], float] | None = None,
    gpus: int | None = None,
    measured: Callable[[TestRecord], bool] | None = None,
    shares: Callable[[Path], Path | None] | None = None,
    isolated_first: bool = True,
    launch_heavy_last: bool = False,
) -> list[Batch]:
    """The batches of `records` (those that run), in the order to hand them out. `cost`: a test's expected
    seconds (none: every test costs the same). `measured`: whether that cost was measured on this machine (default:
    it was, where `cost` is given); tests whose cost is a guess are also cut by count, so that a lane's every worker
    gets a batch. `gpus`: the GPUs of the run, where known (see runs_exclusive). `shares`: the cuconform-multi that
    runs a binary's ordinary GPU tests beside other areas', None where they keep their binary's processes.
    `isolated_first`: the isolated batches before the others (after the exclusive ones); `launch_heavy_last`: the
    launch-heavy batches after the others."""
    runnable = [record for record in records if record.runs]
    kinds = {id(record): kind_of(record, host_jobs, gpus) for record in runnable}

    def process_of(record: TestRecord) -> Path:
        """The binary whose processes run the test: its own, or cuconform-multi for an ordinary GPU test of an
        area with a module."""
        binary = record.case.binary
        if shares is not None and kinds[id(record)] == Kind.ORDINARY:
            return shares(binary) or binary
        return binary

    processes = {id(record): process_of(record) for record in runnable}
    # Each binary's tests of one kind are gathered, wherever the listing puts them; inside a binary and kind the
    # order is the listing's (the sort is stable).
    first_seen: dict[tuple[int, Path], int] = {}
    for record in runnable:
        first_seen.setdefault((kinds[id(record)], processes[id(record)]), len(first_seen))
    to_run = sorted(runnable, key=lambda record: first_seen[(kinds[id(record)], processes[id(record)])])
    costs = {id(record): (cost(record) if cost else 0.0) for record in to_run}
    # A binary's tests of one kind over `batch_size` are cut into batches of equal counts, not into full ones and a
    # remainder: a batch of a few tests is planned last, as the cheapest, and its process start ends the run late.
    group_sizes = Counter((kinds[id(record)], processes[id(record)]) for record in to_run)
    size_cap = {group: math.ceil(n / math.ceil(n / batch_size)) for group, n in group_sizes.items()}

    def lane_of(record: TestRecord) -> str:
        return "host" if kinds[id(record)] == Kind.HOST else "gpu"

    known = {id(record): bool(cost) and (measured is None or measured(record)) for record in to_run}
    work = {"gpu": 0.0, "host": 0.0}
    guessed = {"gpu": 0, "host": 0}
    for record in to_run:
        if kinds[id(record)] != Kind.EXCLUSIVE:  # those run alone, on every worker's time
            work[lane_of(record)] += costs[id(record)]
            guessed[lane_of(record)] += not known[id(record)]
    workers = {"gpu": max(jobs, 1), "host": max(host_jobs, 1)}
    length = {lane: batch_length(work[lane], workers[lane]) for lane in workers}
    # Tests of a guessed cost are cut by count too: enough batches for every worker to have one (compile-time cases
    # cost from 0.1 s to 10 s of a compiler's time, so the host lane cuts them smaller: about 6 per worker).
    count_cut = {
        lane: max(MIN_BATCH, math.ceil(guessed[lane] / (workers[lane] * per)))
        for lane, per in (("gpu", 1), ("host", 6))
    }

    batches: list[Batch] = []
    current: Batch | None = None
    chars, seconds, unknown = 0, 0.0, 0
    for record in to_run:
        kind = kinds[id(record)]
        lane = lane_of(record)
        binary = processes[id(record)]
        multi = binary != record.case.binary
        name = record.case.test_id if multi else record.case.name
        expected = costs[id(record)]
        isolated = kind == Kind.ISOLATED
        exclusive = kind == Kind.EXCLUSIVE
        if (
            current is None
            or current.binary != binary
            or current.exclusive != exclusive
            or current.host != (lane == "host")
            or isolated
            or current.isolated
            or len(current.records) >= size_cap[(kind, binary)]
            or (unknown >= count_cut[lane] and not exclusive)
            or chars + len(name) + 1 > FILTER_CHARS_LIMIT
            or (not exclusive and seconds > 0 and seconds + expected > length[lane])
        ):
            current = Batch(binary, [], exclusive=exclusive, host=lane == "host", isolated=isolated, multi=multi)
            batches.append(current)
            chars, seconds, unknown = 0, 0.0, 0
        current.records.append(record)
        current.costs[name] = expected
        current.expected_s += expected
        chars += len(name) + 1
        seconds += expected
        unknown += not known[id(record)]
    # Exclusive batches first, then (with isolated_first) the isolated ones, then the longest first, (with
    # launch_heavy_last) the launch-heavy ones after the rest (the sort is stable: batches expected to take as long
    # keep the listing's order).
    return sorted(
        batches,
        key=lambda batch: (
            not batch.exclusive,
            not (isolated_first and batch.isolated),
            launch_heavy_last and not batch.exclusive and launch_heavy(batch),
            -batch.expected_s,
        ),
    )


def _planned(batches: list[Batch], jobs: int, host_jobs: int):
    """(batch, lane, when its process starts, when its last test is expected to end), if the batches run as planned:
    each lane's workers take them in order (exclusive ones one at a time, before the others), a process costing
    PROCESS_S to start."""
    import heapq

    for lane, workers in (("gpu", max(jobs, 1)), ("host", max(host_jobs, 1))):
        if lane == "host" and not host_jobs:
            continue
        mine = [batch for batch in batches if batch.lane == lane or (lane == "gpu" and not host_jobs)]
        clock = 0.0
        for batch in (batch for batch in mine if batch.exclusive):
            end = clock + PROCESS_S[lane] + batch.cost_of([batch.key(record) for record in batch.records])
            yield batch, lane, clock, end
            clock = end
        free = [(clock, index) for index in range(workers)]
        for batch in (batch for batch in mine if not batch.exclusive):
            start, index = heapq.heappop(free)
            end = start + PROCESS_S[lane] + batch.cost_of([batch.key(record) for record in batch.records])
            yield batch, lane, start, end
            heapq.heappush(free, (end, index))


def expected_finish(batches: list[Batch], jobs: int, host_jobs: int) -> dict[str, tuple[float, str]]:
    """When each test is expected to finish, and on which lane, by test id, if the batches run as planned
    (_planned). The progress line measures the run against it (progress.py)."""
    finish: dict[str, tuple[float, str]] = {}
    for batch, lane, start, _ in _planned(batches, jobs, host_jobs):
        at = start + PROCESS_S[lane]
        for record in batch.records:
            at += batch.costs.get(batch.key(record), 0.0)
            finish[record.case.test_id] = (at, lane)
    return finish


def report_order(batches: list[Batch], jobs: int, host_jobs: int) -> dict[str, tuple[float, int, int]]:
    """The order in which to report the tests, by test id: batch by batch, in the order the plan expects them to
    end, each batch's tests in its order (plugin.py has pytest report them so: it waits for each test in turn)."""
    order: dict[str, tuple[float, int, int]] = {}
    for number, (batch, _, _, end) in enumerate(_planned(batches, jobs, host_jobs)):
        for index, record in enumerate(batch.records):
            order[record.case.test_id] = (end, number, index)
    return order


def tail_to_give(
    waiting: list[str], costs: dict[str, float], pace: float, start_s: float, min_tests: int = 2, busy_s: float = 0.0
) -> list[str]:
    """The tail of a running batch that an idle worker should take: of `waiting` (the tests not started yet, in
    order; `costs` their planned seconds, `pace` how many seconds the batch has taken per planned second), the
    running process keeps what it finishes by the time a new process, `start_s` to start, finishes the rest; it is
    `busy_s` more with the test it runs now. [] when that is not worth a process: fewer than `min_tests` tests wait,
    or their work (and what the running test has left) is under three starts."""
    if len(waiting) < min_tests and not (waiting and busy_s > 3 * start_s):
        return []
    left = sum(costs.get(name, 0.0) for name in waiting) * pace
    if left + busy_s < 3 * start_s:
        return []
    keep_s = (left + start_s - busy_s) / 2
    if keep_s <= 0:
        return list(waiting)  # the running test alone takes longer than the rest would in a new process
    kept, spent = 0, 0.0
    for name in waiting[:-1]:
        cost = costs.get(name, 0.0) * pace
        if spent + cost > keep_s and kept:
            break
        spent += cost
        kept += 1
    return waiting[max(kept, 1) :]
