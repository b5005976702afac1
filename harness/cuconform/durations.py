"""What each test is expected to cost, for the progress line's estimate of the time left.

A run keeps the duration of every test it ran in build/<preset>/test-durations.json; the next run of the same build
weighs each test by it. A test with no kept duration (a new test, the first run of a build) is weighed by a default
for its kind: a compile-time case costs seconds of a compiler's time, a GPU test milliseconds, a GPU test without a
GPU (a skip) almost nothing. The estimate only needs the relative costs right: Progress scales them by the rate at
which this run's tests have finished (cuconform/progress.py).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from cuconform.catalog import TestCase

FILE = "test-durations.json"

# Seconds of one worker's time, measured on a shared 2-core machine without a GPU (compile-time cases, cold compile
# cache) and on an H100 (GPU tests). Only their ratios matter.
DEFAULT_S = {
    "compile-nvcc": 2.5,     # nvcc: the host compiler, cudafe++, cicc and ptxas on a small case
    "compile-clang": 1.5,    # clang++: a host and a device compilation
    "compile-nvrtc": 0.2,    # NVRTC: in the test process, no host compilation
    "compile-other": 1.5,
    "exclusive": 1.0,        # timing, memory model, several GPUs: alone on the machine, often long sweeps
    "gpu": 0.05,             # a launch or a few, checked on the host
    "gpu-without-gpu": 0.002,  # skips at once: no CUDA device
    "host": 0.01,            # no GPU needed: a host-side check
}


def kind_of(case: TestCase, gpu_present: bool) -> str:
    if case.area == "compile" or case.compiler:
        return f"compile-{case.compiler}" if f"compile-{case.compiler}" in DEFAULT_S else "compile-other"
    if not case.gpu:
        return "host"
    if not gpu_present:
        return "gpu-without-gpu"
    return "exclusive" if case.exclusive else "gpu"


def load(build_dir: Path) -> dict[str, float]:
    """The kept durations of the build's tests by id; {} when there are none or the file is unreadable."""
    try:
        kept = json.loads((build_dir / FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    tests = kept.get("tests") if isinstance(kept, dict) else None
    if not isinstance(tests, dict):
        return {}
    return {str(k): float(v) for k, v in tests.items() if isinstance(v, (int, float)) and v >= 0}


def expected_s(case: TestCase, kept: dict[str, float], gpu_present: bool) -> float:
    """A kept duration where the test ran on this build with the same kind of device, else its kind's default."""
    kind = kind_of(case, gpu_present)
    if kind != "gpu-without-gpu" and case.test_id in kept:
        return kept[case.test_id]
    return DEFAULT_S[kind]


def save(build_dir: Path, measured: dict[str, float]) -> None:
    """Adds this run's durations to the kept ones. A build folder that cannot be written keeps none (no error)."""
    if not measured:
        return
    kept = load(build_dir)
    kept.update({test_id: round(seconds, 4) for test_id, seconds in measured.items()})
    path = build_dir / FILE
    try:
        temporary = path.with_name(f".{FILE}.{os.getpid()}")
        temporary.write_text(json.dumps({"tests": dict(sorted(kept.items()))}, indent=0) + "\n", encoding="utf-8")
        os.replace(temporary, path)
    except OSError:
        pass
