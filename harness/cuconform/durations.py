"""What each test is expected to cost: for the plan of a run's batches (plan.py) and the progress line's estimate.

A run keeps the duration of every test it ran in the run state (state.py): `durations/<machine>-<profile>.json`
(`-<sanitizer>` added in the sanitizer mode), keyed by test id. So they hold for every build folder of every checkout
on the machine, and outlive a rebuild; a full-profile or sanitizer run, whose tests take longer, keeps its own. A
test with no kept duration (a new test, a new machine) is weighed by a default for its kind: a compile-time case
costs seconds of a compiler's time (almost nothing when the compile cache has its result), a GPU test
milliseconds, an isolated one a process of its own, one that starts child processes a few tenths of a second for
each, a GPU test without a GPU (a skip) almost nothing.

The first test of a process also pays for the process's start and its CUDA context (~0.4 s): a first test's
duration only lowers what is kept for it (it is kept as measured when nothing was kept before), and plan.py counts
the start of each process on its own (PROCESS_S).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from cuconform import state
from cuconform.catalog import TestCase

FORMAT = 1
FOLDER = "durations"
KEEP_ENV = "CUCONFORM_KEEP_DURATIONS"  # "0": the run reads the kept durations but keeps none of its own
KEEP_NEW = 0.5  # a test's kept duration moves this far towards each new measurement (they vary with the load)

# Seconds of one worker's time, measured on an H200 (GPU tests, compile-time cases through nvcc and NVRTC with 16
# workers, 2026-11-28) and on a shared 2-core machine without a GPU (clang). Only their ratios matter much.
DEFAULT_S = {
    "compile-nvcc": 1.3,  # nvcc: the host compiler, cudafe++, cicc and ptxas on a small case
    "compile-clang": 1.5,  # clang++: a host and a device compilation
    "compile-nvrtc": 0.35,  # NVRTC: a process, the library, one compilation
    "compile-other": 1.5,
    "compile-judged": 0.01,  # no compiler runs: the compile cache has its result, or the case skips here
    "exclusive": 0.05,  # timing, memory model: alone on the machine (H200 quick run: 4.7 s over 173 tests)
    "isolated": 1.0,  # a process of its own: a CUDA context, often a child process or a fault
    "children": 0.5,  # starts child processes: about 0.2-0.5 s each (a process, a context), one to three a rule
    "gpu": 0.02,  # a launch or a few, checked on the host (H200 quick run: 95 s over 4,462 tests)
    "gpu-without-gpu": 0.002,  # skips at once: no CUDA device
    "host": 0.01,  # no GPU needed: a host-side check
}
QUICK = ("gpu-without-gpu", "compile-judged")  # kinds whose cost is their default, whatever was kept


def kind_of(case: TestCase, gpu_present: bool) -> str:
    if case.area == "compile" or case.compiler:
        if case.cost_hint in ("cached", "skip"):
            return "compile-judged"
        return f"compile-{case.compiler}" if f"compile-{case.compiler}" in DEFAULT_S else "compile-other"
    if not case.gpu:
        return "host"
    if not gpu_present:
        return "gpu-without-gpu"
    if case.exclusive:
        return "exclusive"
    if case.isolated:
        return "isolated"
    return "children" if case.child_processes else "gpu"


def path_for(profile: str, sanitizer: str | None = None, machine: str | None = None) -> Path:
    """Where the durations of runs of this profile (and sanitizer tool) on this machine are kept."""
    name = f"{machine or state.machine()}-{state.slug(profile)}" + (f"-{state.slug(sanitizer)}" if sanitizer else "")
    return state.folder() / FOLDER / f"{name}.json"


@dataclass
class Durations:
    """The kept durations of one kind of run on this machine, by test id."""

    path: Path
    tests: dict[str, float] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path) -> "Durations":
        """{} when there are none or the file is unreadable."""
        kept = state.read_json(path) or {}
        tests = kept.get("tests") if kept.get("format") == FORMAT else None
        if not isinstance(tests, dict):
            return cls(path)
        return cls(path, {str(k): float(v) for k, v in tests.items() if isinstance(v, (int, float)) and v >= 0})

    def measured(self, case: TestCase, gpu_present: bool) -> bool:
        """Whether the test's cost is known rather than guessed: kept from an earlier run here, or next to nothing
        (it skips at once, or the compile cache has its result)."""
        return kind_of(case, gpu_present) in QUICK or case.test_id in self.tests

    def expected_s(self, case: TestCase, gpu_present: bool) -> float:
        """A kept duration where the test ran here with the same kind of device and will run as it ran then (a
        compile-time case is compiled), else its kind's default."""
        kind = kind_of(case, gpu_present)
        if kind not in QUICK and case.test_id in self.tests:
            return self.tests[case.test_id]
        return DEFAULT_S[kind]

    def save(self, measured: dict[str, float], opened: set[str] = frozenset()) -> None:
        """Adds this run's durations (`opened`: the tests that were the first of their process) to those kept in
        the file now (another run may have added some since this one read it). A folder that cannot be written
        keeps none (no error)."""
        if not measured or os.environ.get(KEEP_ENV, "1") == "0":
            return
        kept = Durations.load(self.path).tests
        for test_id, seconds in measured.items():
            before = kept.get(test_id)
            if before is None:
                kept[test_id] = seconds
            elif test_id in opened:
                kept[test_id] = min(before, seconds)
            else:
                kept[test_id] = before + KEEP_NEW * (seconds - before)
        self.tests = kept
        state.write_json(self.path, {"format": FORMAT, "tests": {k: round(v, 4) for k, v in kept.items()}})
