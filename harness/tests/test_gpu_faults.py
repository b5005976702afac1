"""The harness on real faults: suites/selftest (build/<preset>/selftest/cuconform-selftest, outside bin/ so a normal
run never collects it) breaks CUDA processes in each way a test can. With a GPU, each fault must be reported as the
crash or timeout it is, every healthy test around them must pass, and nothing may be lost; without a GPU, every
test skips. Runs on the builds CUCONFORM_TEST_BUILDS names (scripts/device-run names build/gpu), else on those here.
"""

import json
import subprocess
import sys

import pytest

from conftest import REPO, build_info, real_builds, skip_unless_built

FAULTS = {
    "selftest/Faults.IllegalAddress": "crash",
    "selftest/Faults.Trap": "crash",
    "selftest/Faults.DeviceAssert": "crash",
    "selftest/Faults.EndlessLoop": "timeout",
    "selftest/Faults.AbortOfTheProcess": "crash",
}
BUILDS = real_builds()


def expectations(folder):
    folder.mkdir()
    (folder / "common.toml").write_text(
        "".join(
            f'[[expect]]\ntests = ["{test}"]\nstatus = "{status}"\nreason = "a deliberate fault"\n'
            f'evidence = "suites/selftest/faults.cu"\n\n'
            for test, status in FAULTS.items()
        )
    )
    return folder


@pytest.mark.skipif(not BUILDS, reason="no real build here: scripts/test makes build/ci and build/clang")
@pytest.mark.parametrize("build_name", BUILDS)
def test_faults_are_reported_and_nothing_around_them_is_lost(build_name, tmp_path, monkeypatch):
    build = REPO / build_name
    assert "cuconform-selftest" in build_info(build)["selftests"], f"{build_name} does not build the selftest binary"
    skip_unless_built(build, ["selftest/cuconform-selftest", "bin/cuconform-deviceinfo"])
    monkeypatch.setenv("PYTHONPATH", str(REPO / "harness"))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "cuconform.plugin",
            str(build / "selftest" / "cuconform-selftest"),
            "--cuconform-build-dir",
            str(build),
            "--cuconform-expectations",
            str(expectations(tmp_path / "expect")),
            "--cuconform-timeout",
            "5",
            "--cuconform-jobs",  # one GPU worker: no idle worker takes a tail while EndlessLoop hangs (a process more)
            "1",
            "--cuconform-output",
            str(tmp_path / "report"),
            "-p",
            "no:cacheprovider",
            "-rA",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=REPO,
    )
    output = done.stdout[-6000:] + done.stderr[-2000:]
    results = json.loads((tmp_path / "report" / "results.json").read_text())
    tests = {test["id"]: test for test in results["tests"]}
    assert len(tests) == 11 and results["complete"], output
    if not results["environment"]["devices"]["devices"]:
        assert done.returncode == 0, output
        assert all(t["verdict"] == "skip" and t["message"].startswith("no CUDA device") for t in tests.values())
        return
    assert done.returncode == 0, output
    for test_id, test in tests.items():
        if test_id in FAULTS:
            assert (test["status"], test["verdict"]) == (FAULTS[test_id], "xfail"), (test_id, test["message"])
        else:
            assert test["verdict"] == "pass", (test_id, test["message"], test["output"])
    assert "cudaErrorIllegalAddress" in tests["selftest/Faults.IllegalAddress"]["message"]
    assert "poisoned" in tests["selftest/Faults.Trap"]["message"]
    assert "SIGABRT" in tests["selftest/Faults.AbortOfTheProcess"]["message"]
    assert tests["selftest/Faults.EndlessLoop"]["duration"] >= 5
    assert results["environment"]["processes"] == 6  # the first, and a fresh one after each of the five faults
