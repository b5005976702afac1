"""scripts/census-check: the census on a GPU without a campaign (README, "Host-side operators"), here over fake
areas under the real library built with g++: the control run and the census run both pass, and with no CUDA call
at all every host-side operator is not applicable in every area."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import subprocess
import sys

from conftest import H100, REPO
from test_mutation_runtime import CUDA_INCLUDE, INTERPOSE

SCRIPT = REPO / "scripts" / "census-check"
_LOADER = importlib.machinery.SourceFileLoader("census_check", str(SCRIPT))
_MODULE = importlib.util.module_from_spec(importlib.util.spec_from_loader("census_check", _LOADER))
_LOADER.exec_module(_MODULE)
AREAS = _MODULE.AREAS  # the script's own list


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=600)


def test_without_the_library_it_says_so_in_one_line(fake_build, tmp_path):
    done = run("--build-dir", str(fake_build.dir), "--out", str(tmp_path / "out"), "--work", str(tmp_path / "work"))
    assert done.returncode == 2
    assert done.stdout.strip().splitlines() == [
        f"census-check: {fake_build.dir.resolve() / 'interpose' / 'libcuconform-interpose.so'} is not built "
        f"(cmake --build {fake_build.dir.resolve()} --target cuconform-interpose)"
    ]


def test_it_counts_the_areas_under_the_census_mode_beside_a_control_run(fake_build, tmp_path):
    for area in AREAS:
        fake_build.area(area, "Fake.Pass1", "Fake.Pass2")
    fake_build.devices(H100)
    library = fake_build.dir / "interpose" / "libcuconform-interpose.so"
    library.parent.mkdir()
    command = ["g++", "-std=c++17", "-O1", f"-I{CUDA_INCLUDE}", "-fPIC", "-shared", str(INTERPOSE / "interpose.cpp")]
    subprocess.run([*command, "-o", str(library), "-ldl"], check=True, capture_output=True, timeout=300)
    out, work = tmp_path / "out", tmp_path / "work"
    done = run("--build-dir", str(fake_build.dir), "--out", str(out), "--work", str(work), "--control")
    assert done.returncode == 0, (out / "census-run.log").read_text()
    found = json.loads((out / "census-check.json").read_text())
    assert found["control"]["rc"] == 0 and found["census"]["rc"] == 0
    assert set(found["areas"]) == set(AREAS)
    for area in AREAS:
        assert found["areas"][area]["applicable"] == [] and found["areas"][area]["by_entry"] == {}
        assert "malloc-misaligned" in found["areas"][area]["not_applicable"]
    census_tests = json.loads((work / "census-check" / "run" / "results.json").read_text())["tests"]
    assert {test["id"] for test in census_tests} == {f"{area}@census/Fake.Pass{n}" for area in AREAS for n in (1, 2)}
    assert all(test["status"] == "pass" for test in census_tests)
    control = json.loads((work / "census-control" / "results.json").read_text())["tests"]
    assert len(control) == 2 * len(AREAS) and all(test["status"] == "pass" for test in control)
