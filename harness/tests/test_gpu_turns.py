"""Turns on a shared GPU (suites/common/include/cuconform/gpu_turns.h; `scripts/conformance run --gpu-turns`).

On a real build without a GPU: a test binary takes its turn before a GPU rule's SetUp, so a GPU rule that skips here
still waits for a lease another process holds, and gives its own back at its end. The lease is the file's first 8
bytes, CLOCK_MONOTONIC nanoseconds (Python's time.monotonic_ns on Linux), 0 when nobody holds a turn.
"""

import json
import struct
import subprocess
import time

import pytest

from cuconform import options
from cuconform.protocol import GPU_TURNS_ENV
from cuconform.stage_run import launch_for, turns_file
from conftest import REPO, real_builds

BUILDS = real_builds()


def held_until(path, seconds_from_now: float) -> None:
    """A lease that another process holds (or held: a negative time is one that ran out)."""
    lease_end = max(0, time.monotonic_ns() + int(seconds_from_now * 1e9))
    path.write_bytes(struct.pack("<QI", lease_end, 0).ljust(64, b"\0"))


def lease_end(path) -> int:
    return struct.unpack_from("<Q", path.read_bytes())[0]


def one_of_each(build):
    """A binary with a GPU rule and a host rule, and one test of each kind."""
    for binary in sorted((build / "bin").glob("cuconform-*")):
        listed = subprocess.run([str(binary), "--cuconform_list"], capture_output=True, text=True)
        tests = [json.loads(line) for line in listed.stdout.splitlines() if line.startswith("{")]
        gpu = [t["test"] for t in tests if t.get("gpu") and not t.get("exclusive")]
        host = [t["test"] for t in tests if t.get("rule") and not t.get("gpu")]
        if gpu and host:
            return binary, gpu[0], host[0]
    pytest.skip(f"{build.relative_to(REPO)} has no binary with both a GPU rule and a host rule")


def timed(binary, test, turns) -> tuple[float, subprocess.CompletedProcess]:
    env = {GPU_TURNS_ENV: str(turns), "PATH": "/usr/bin:/bin"}
    start = time.monotonic()
    done = subprocess.run(
        [str(binary), f"--gtest_filter={test}"], capture_output=True, text=True, env=env, timeout=120
    )
    return time.monotonic() - start, done


@pytest.fixture(params=BUILDS or [None])
def build(request):
    if request.param is None:
        pytest.skip("no real build here: scripts/test makes build/ci-check")
    return REPO / request.param


def test_a_gpu_rule_waits_for_the_lease_another_process_holds_then_gives_its_own_back(build, tmp_path):
    binary, gpu_test, _ = one_of_each(build)
    turns = tmp_path / "turns"
    held_until(turns, 1.0)
    took, done = timed(binary, gpu_test, turns)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert took >= 0.9, f"{gpu_test} started {took:.2f} s after a lease of 1 s another process held"
    assert lease_end(turns) == 0, "the test's own lease was not given back at its end"


def test_a_host_rule_takes_no_turn(build, tmp_path):
    binary, _, host_test = one_of_each(build)
    turns = tmp_path / "turns"
    held_until(turns, 30.0)
    took, done = timed(binary, host_test, turns)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert took < 20, f"{host_test} waited for the GPU's turn ({took:.1f} s)"


def test_a_lease_that_ran_out_holds_nobody_back(build, tmp_path):
    """The lease of a process that died holding it: over when its time is."""
    binary, gpu_test, _ = one_of_each(build)
    turns = tmp_path / "turns"
    held_until(turns, -0.5)
    took, done = timed(binary, gpu_test, turns)
    assert done.returncode == 0
    assert took < 20 and lease_end(turns) == 0


def test_a_file_that_cannot_hold_turns_is_one_line_and_the_tests_run_without(build, tmp_path):
    binary, gpu_test, _ = one_of_each(build)
    _, done = timed(binary, gpu_test, tmp_path)  # a folder
    assert done.returncode == 0, done.stdout[-2000:]
    said = [line for line in done.stderr.splitlines() if GPU_TURNS_ENV in line]
    assert len(said) == 1 and said[0].endswith("running without turns"), done.stderr


def test_the_harness_asks_for_turns_with_gpu_turns_only_and_for_gpu_processes_only(monkeypatch):
    monkeypatch.setenv(GPU_TURNS_ENV, "/inherited/not/used")
    off = options.settings({})
    on = options.settings({"gpu-turns": ("true", "--gpu-turns")})
    assert on.gpu_turns and not off.gpu_turns
    assert GPU_TURNS_ENV not in launch_for(off, "0").env
    assert GPU_TURNS_ENV not in launch_for(on, None, host=True).env
    assert launch_for(on, "0").env[GPU_TURNS_ENV] == str(turns_file("0"))
    assert turns_file("0") != turns_file("1") and turns_file("GPU-1/2").name.endswith("GPU-1_2")
