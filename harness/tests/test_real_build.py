"""scripts/conformance on the project's real builds (made by scripts/test): on a machine without a GPU every rule
runs or skips, every GPU rule skips for want of a device, and the run exits 0.

CUCONFORM_TEST_BUILDS names the builds to check (e.g. "build/ci build/clang"); they must exist then. Without it,
the builds that exist are checked (conftest.real_builds). A build of a few targets skips, naming what it lacks.
"""

import json
import subprocess
import sys

import pytest

from cuconform.catalog import area_of, find_binaries
from conftest import CONFORMANCE, REPO, real_builds, skip_unless_built, suite_binaries

BUILDS = real_builds()


def no_gpu_here(build) -> bool:
    done = subprocess.run([str(build / "bin" / "cuconform-deviceinfo")], capture_output=True, text=True)
    return json.loads(done.stdout)["devices"] == []


@pytest.mark.skipif(not BUILDS, reason="no real build here: scripts/test makes build/ci and build/clang")
@pytest.mark.parametrize("build_name", BUILDS)
def test_a_run_without_a_gpu_skips_every_gpu_rule_and_exits_0(build_name, tmp_path):
    build = REPO / build_name
    assert (build / "bin").is_dir(), f"{build_name} was not built"
    skip_unless_built(build, suite_binaries(build))
    if not no_gpu_here(build):
        pytest.skip("this machine has a GPU: the no-GPU run does not apply")
    # The compile-time rules need no GPU and take minutes: test_compile_run.py runs them once, for every build.
    areas = [area_of(binary) for binary in find_binaries(build / "bin") if area_of(binary) != "compile"]
    done = subprocess.run(
        [
            sys.executable,
            str(CONFORMANCE),
            "run",
            "--build-dir",
            str(build),
            "--no-build",
            "--area",
            ",".join(areas),
            "--output",
            str(tmp_path / "report"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    results = json.loads((tmp_path / "report" / "results.json").read_text())
    tests = results["tests"]
    assert tests and results["unexpected"] == 0 and results["complete"]
    gpu = [t for t in tests if t["gpu"]]
    assert gpu, "no GPU rule in the build"
    wrong = [t["id"] for t in gpu if t["verdict"] != "skip" or not t["message"].startswith("no CUDA device")]
    assert not wrong, f"GPU rules that did not skip for want of a device: {wrong[:10]}"
    assert all(t["rule"] and t["section"] and t["statement"] for t in tests)
    assert results["environment"]["build"]["compiler"] in ("nvcc", "clang")
