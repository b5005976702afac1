"""The areas' modules of the project's real builds (modules/, docs/design/processes.md): what each exports, and
that cuconform-multi runs two of them in one process as their executables run alone.

Each module exports its entry only (cmake/module-exports.map). A module that also exported its static data (the
STB_GNU_UNIQUE symbols of C++ templates, GoogleTest's and a statically linked libstdc++'s) shared it with the next
module loaded: with the H200 machines' GCC, which links libstdc++ statically, every second module crashed before
its first test, and the harness quietly ran the rest again in fresh processes (docs/results/h200-2026-11-29-speed7.md).
"""

import re
import shutil
import subprocess

import pytest

from conftest import REPO, real_builds

BUILDS = [name for name in real_builds() if (REPO / name / "modules" / "cuconform-multi").is_file()]
TWO_AREAS = ("dpx", "sync")  # small, each with its own GoogleTest summary to count
SUMMARY = re.compile(r"^\[==========\] (\d+) tests from (\d+) test suites ran\.", re.MULTILINE)


def built(build, area):
    module = build / "modules" / f"cuconform-{area}.so"
    executable = build / "bin" / f"cuconform-{area}"
    if not (module.is_file() and executable.is_file()):
        pytest.skip(f"{build.relative_to(REPO)} lacks {area}'s module or executable (`cmake --build` makes them)")
    return module, executable


@pytest.mark.skipif(not BUILDS, reason="no real build with modules here: scripts/test makes build/ci-check")
@pytest.mark.skipif(shutil.which("nm") is None, reason="needs nm (binutils)")
@pytest.mark.parametrize("build_name", BUILDS)
def test_each_module_exports_its_entry_only(build_name):
    modules = sorted((REPO / build_name / "modules").glob("cuconform-*.so"))
    assert modules, f"{build_name}/modules has no module"
    for module in modules:
        listed = subprocess.run(["nm", "-D", "--defined-only", str(module)], capture_output=True, text=True, check=True)
        exported = sorted(line.split()[-1] for line in listed.stdout.splitlines() if line.strip())
        assert exported == ["cuconform_module_main"], f"{module.name} exports {exported[:10]}"


@pytest.mark.skipif(not BUILDS, reason="no real build with modules here: scripts/test makes build/ci-check")
@pytest.mark.parametrize("build_name", BUILDS)
def test_two_modules_run_in_one_process_each_as_its_executable(build_name):
    build = REPO / build_name
    parts = {area: built(build, area) for area in TWO_AREAS}
    command = [str(build / "modules" / "cuconform-multi")]
    for area, (module, executable) in parts.items():
        command += ["--part", area, str(module), str(executable), "--gtest_color=no"]
    multi = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert multi.returncode in (0, 1), multi.stdout[-2000:] + multi.stderr[-2000:]
    summaries = SUMMARY.findall(multi.stdout)
    alone = []
    for _, executable in parts.values():
        run = subprocess.run([str(executable), "--gtest_color=no"], capture_output=True, text=True, timeout=300)
        alone += SUMMARY.findall(run.stdout)
    assert re.findall(r"^\[ AREA     \] (\S+)$", multi.stdout, re.MULTILINE) == list(TWO_AREAS)
    assert summaries == alone and len(summaries) == 2, f"in one process {summaries}, alone {alone}"
