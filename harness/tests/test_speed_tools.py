"""The speed tools of issue 35: scripts/speed-figures (the four figures of a device run) and scripts/replay-schedule
(a recorded run replayed through the plan), on small made-up runs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def a_run(folder: Path, batches: list[dict], tests: list[dict]) -> Path:
    folder.mkdir(parents=True)
    (folder / "results.json").write_text(
        json.dumps(
            {
                "environment": {
                    "batches": batches,
                    "processes": len(batches),
                    "phases": {"listed_s": 0.4, "scheduler_started_s": 0.5},
                },
                "counts": {"pass": len(tests)},
                "tests": tests,
            }
        )
    )
    return folder


def test_speed_figures_reads_pytest_times_the_bench_ratio_and_the_report_size(tmp_path):
    batch = {"binary": "cuconform-a", "worker": "cuconform worker 0", "start_s": 0.1, "end_s": 30.0, "tests": 2}
    cold = a_run(tmp_path / "cold", [batch, dict(batch, worker="cuconform host worker 0", end_s=41.0)], [{}, {}])
    warm = a_run(tmp_path / "warm", [batch], [{}, {}])
    (warm / "report.html").write_bytes(b"x" * 1_600_000)
    (tmp_path / "cold.log").write_text("=== 4868 passed, 691 skipped, 181 xfailed in 41.52s ===\n")
    (tmp_path / "warm.log").write_text("== 1 passed in 0.1s ==\n=== 4868 passed in 29.90s (0:00:29) ===\n")
    (tmp_path / "bench.log").write_text("median   direct   28.116 s   harness   30.010 s   ratio  1.067   (...)\n")
    done = subprocess.run(
        [
            sys.executable,
            str(REPO / "scripts" / "speed-figures"),
            "--cold",
            str(cold),
            "--cold-log",
            str(tmp_path / "cold.log"),
            "--warm",
            str(warm),
            "--warm-log",
            str(tmp_path / "warm.log"),
            "--bench-log",
            str(tmp_path / "bench.log"),
            "--no-paint",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "first after a build (pytest): 41.5 s (over the target 30 s)" in lines[1]
    assert "GPU lane 30.0 s, host lane 41.0 s" in lines[2]
    assert "warm compile cache (pytest):  29.9 s (over the target 20 s)" in lines[3]
    assert "1.067 (30.0 s / 28.1 s, median; meets the target 1.1)" in lines[5]
    assert lines[6].startswith("  report.html: 1.60 MB (meets the target 5 MB)")
    assert len(lines) == 7  # both runs had the math reference (or recorded nothing of it)

    results = json.loads((warm / "results.json").read_text())
    results["environment"]["math_reference"] = None  # a run without the MPFR reference: its math rules skipped
    results["tests"] = [{"message": "the MPFR reference library libcuconform-mathref.so was not found"}, {}]
    (warm / "results.json").write_text(json.dumps(results))
    again = subprocess.run(done.args, capture_output=True, text=True, timeout=120)
    assert again.stdout.splitlines()[-1] == (
        "  NOT THE WHOLE QUICK PROFILE: warm ran without the math reference (1 math rules skipped); carry .mathref/ "
        "(scripts/build-math-reference) and measure again"
    )


def test_replay_schedule_replays_a_recorded_run_and_its_progress(tmp_path):
    tests = [
        {"id": f"alpha/A.T{i}", "area": "alpha", "gpu": True, "exclusive": False, "duration": 0.2} for i in range(40)
    ]
    tests += [
        {
            "id": f"compile/C.Case{i}[nvcc]",
            "area": "compile",
            "gpu": False,
            "exclusive": False,
            "compiler": "nvcc",
            "duration": 1.0,
            "status": "pass",
            "metrics": {},
        }
        for i in range(20)
    ]
    batches = [
        {
            "binary": "cuconform-alpha",
            "worker": "cuconform worker 0",
            "start_s": 0.0,
            "end_s": 8.5,
            "tests": 40,
            "exclusive": False,
        }
    ]
    results = tmp_path / "results.json"
    results.write_text(json.dumps({"environment": {"batches": batches}, "tests": tests}))
    done = subprocess.run(
        [
            sys.executable,
            str(REPO / "scripts" / "replay-schedule"),
            str(results),
            "--jobs",
            "2",
            "--host-jobs",
            "2",
            "--progress",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "new plan:" in done.stdout and "host lane at" in done.stdout and "progress:" in done.stdout
