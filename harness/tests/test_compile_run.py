"""Compile-time rules through the whole harness: scripts/conformance runs cuconform-compile of a real build like any
suite, looks each (case, compiler) test's expectation up for that test's own compiler, and every case ends as
expected (pass, skip with its reason, or xfail with its finding). They need no GPU; CI runs them here, once.

By default a deterministic sample (compile_cases.sample: every case through one compiler, each kind of case through
each compiler) keeps scripts/test within its time; CUCONFORM_TEST_COMPILE=all runs every (case, compiler) pair, as
`scripts/conformance run --area compile` does.

CMake writes bin/cuconform-compile when it configures a build; the NVRTC results need bin/nvrtc-compile, which a build
of a few other targets lacks: the tests then skip, naming it, rather than find every NVRTC result a skip."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from cuconform_compile.cases import load_cases, sample
from conftest import CONFORMANCE, REPO, first_built, real_builds

BUILDS = [REPO / name for name in real_builds() if (REPO / name / "bin" / "cuconform-compile").exists()]
NEEDS = ["compile-rules.json", "bin/nvrtc-compile"]
# Compilers are CPU-bound: the compile-time rules run on the host workers (--host-jobs), one per core up to 8.
HOST_JOBS = max(2, min(os.cpu_count() or 2, 8))


def run(tmp_path, *args: str, timeout: float) -> tuple[subprocess.CompletedProcess, dict]:
    """The compile-time rules of the first build that has what they need; the test skips where none has."""
    build = first_built(BUILDS, NEEDS)
    out = tmp_path / "report"
    done = subprocess.run(
        [
            sys.executable,
            str(CONFORMANCE),
            "run",
            "--build-dir",
            str(build),
            "--no-build",
            "--area",
            "compile",
            "--host-jobs",
            str(HOST_JOBS),
            "--output",
            str(out),
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    results = json.loads((out / "results.json").read_text()) if (out / "results.json").exists() else {}
    return done, results


@pytest.mark.skipif(not BUILDS, reason="no build with compile-time rules here (scripts/test makes build/ci)")
def test_expectations_hold_per_compiler(tmp_path):
    """MemorySpace.DeviceNotOnDataMember: nvcc only warns and clang ignores the specifier (expected failures, each
    from its own compiler's entry); NVRTC rejects it as the guide says."""
    done, results = run(tmp_path, "--rule", "compile/MemorySpace.DeviceNotOnDataMember*", timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    by_compiler = {t["compiler"]: t for t in results["tests"]}
    assert set(by_compiler) == {"nvcc", "clang", "nvrtc"}
    assert by_compiler["nvrtc"]["verdict"] == "pass"
    entries = set()
    for compiler in ("nvcc", "clang"):
        test = by_compiler[compiler]
        if test["status"] == "skip":  # that compiler is not installed here
            continue
        assert test["verdict"] == "xfail"
        assert test["expected"]["entry"].startswith("common.toml:")
        entries.add(test["expected"]["entry"])
    assert len(entries) != 1 or by_compiler["clang"]["status"] == "skip"  # one entry per compiler


@pytest.mark.skipif(not BUILDS, reason="no build with compile-time rules here (scripts/test makes build/ci)")
def test_every_compile_time_rule_is_as_expected(tmp_path):
    cases = load_cases(REPO / "suites" / "compile")
    if os.environ.get("CUCONFORM_TEST_COMPILE") == "all":
        names, patterns = None, []
    else:
        names = sample(cases)
        patterns = [arg for name in names for arg in ("--rule", "compile/" + name.replace("[", "[[]"))]
    done, results = run(tmp_path, *patterns, timeout=2400)
    assert done.returncode == 0, done.stdout[-5000:] + done.stderr[-3000:]
    assert results["unexpected"] == 0 and results["complete"]
    tests = results["tests"]
    if names is None:
        assert len(tests) == 3 * len(cases)
    else:
        assert sorted(t["id"].removeprefix("compile/") for t in tests) == names
        assert {t["rule"] for t in tests} == {f"compile/{case.rule}" for case in cases}  # every case, once at least
    assert {t["compiler"] for t in tests} == {"nvcc", "clang", "nvrtc"}
    assert all(t["message"] for t in tests if t["verdict"] == "skip")
    assert not results["stale_expectations"]
