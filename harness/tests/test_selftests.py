"""The areas' self-tests: build/<preset>/selftest/cuconform-<area>-selftest (cuconform_add_selftest in
cmake/CuconformSuite.cmake), host-side checks of the models, the litmus engine and the math reference that need no
GPU. Each must exit 0. Runs on the builds CUCONFORM_TEST_BUILDS names, else on those here; a build that lacks some of
the self-tests its cuconform-build.json lists (a build of a few targets) skips, naming them. The harness's own fault
binary (selftest/cuconform-selftest, test_gpu_faults.py) is not among them: its tests are faults on purpose.
"""

import subprocess
from fnmatch import fnmatch

import pytest

from conftest import REPO, build_info, real_builds, skip_unless_built

TIMEOUT_S = 600
SELFTESTS = [
    (build, binary.name)
    for build in real_builds()
    for binary in sorted((REPO / build / "selftest").glob("cuconform-*-selftest"))
]


@pytest.mark.skipif(not real_builds(), reason="no real build here: scripts/test makes build/ci and build/clang")
@pytest.mark.parametrize("build_name", real_builds())
def test_the_build_has_every_self_test(build_name):
    build = REPO / build_name
    listed = [name for name in build_info(build)["selftests"] if fnmatch(name, "cuconform-*-selftest")]
    assert listed, f"{build_name}/cuconform-build.json lists no cuconform-*-selftest"
    skip_unless_built(build, [f"selftest/{name}" for name in listed])  # test_self_test_passes runs each


@pytest.mark.parametrize("build_name, name", SELFTESTS)
def test_self_test_passes(build_name, name):
    binary = REPO / build_name / "selftest" / name
    done = subprocess.run([str(binary)], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=TIMEOUT_S)
    assert done.returncode == 0, (
        f"{build_name}/selftest/{name} exited {done.returncode}:\n{done.stdout[-4000:]}{done.stderr[-2000:]}"
    )
