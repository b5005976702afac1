"""Fixtures of the harness's own tests: fake builds made of fake suite binaries (harness/tests/fake/)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from cuconform import catalog
from cuconform import plugin as _plugin  # noqa: F401

# pytester's in-process runs (runpytest) drop the modules each run imported: the plugin and what it imports are
# loaded here once, so that every run's records and verdicts are of the same classes. (A module dropped and imported
# again beside one kept from an earlier run gave a Verdict.PASS that was not Verdict.PASS: test_plugin.py alone,
# without xdist, failed in three tests.)

pytest_plugins = ["pytester"]

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
FAKE = HERE / "fake"
CONFORMANCE = REPO / "scripts" / "conformance"

H100 = {
    "runtime_version": "13.0",
    "driver_cuda_version": "13.0",
    "devices": [{"ordinal": 0, "name": "NVIDIA H100 80GB HBM3", "uuid": "GPU-0", "cc": "9.0", "sm_count": 132}],
}


def fake_case(
    area: str, name: str, *, gpu: bool = True, exclusive: bool = False, compiler: str | None = None
) -> catalog.TestCase:
    """A test of binary cuconform-AREA named NAME, its own rule, for tests that need a TestCase and nothing more."""
    return catalog.TestCase(
        binary=Path(f"bin/cuconform-{area}"),
        name=name,
        rule_name=name,
        section="1",
        statement="s",
        gpu=gpu,
        exclusive=exclusive,
        compiler=compiler,
    )


def real_builds() -> list[str]:
    """The project's real builds to test: those CUCONFORM_TEST_BUILDS names ("build/ci-check build/clang-check"), which
    must exist then, else those of build/gpu, build/ci, build/ci-check, build/clang and build/clang-check that exist."""
    named = os.environ.get("CUCONFORM_TEST_BUILDS", "").split()
    return named or [
        f"build/{name}"
        for name in ("gpu", "ci", "ci-check", "clang", "clang-check")
        if (REPO / "build" / name / "bin").is_dir()
    ]


def build_info(build: Path) -> dict:
    """cuconform-build.json of a real build. The test skips where the build has none or one that predates its
    `selftests` list (both mean the build was not made from this checkout's CMake files: building it makes them)."""
    try:
        info = json.loads((build / "cuconform-build.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        info = {}
    if "selftests" not in info:
        pytest.skip(f"{shown(build)}/cuconform-build.json is missing or old: `cmake --build {shown(build)}` writes it")
    return info


def suite_binaries(build: Path) -> list[str]:
    """The suites that a whole build of `build` puts in bin/ (cuconform-build.json's suites that are not in selftest/),
    as paths in it, with bin/cuconform-deviceinfo, which a run asks for the devices."""
    info = build_info(build)
    suites = [f"bin/{suite}" for suite in info["suites"] if suite not in info["selftests"]]
    return ["bin/cuconform-deviceinfo", *suites]


def skip_unless_built(build: Path, needs: list[str]) -> None:
    """Skip the test, naming the build folder, what it lacks and the command that builds it, where a real build lacks
    one of `needs` (paths in it): a developer who built a few targets (`cmake --build build/ci --target
    cuconform-math`) has a build that is not wrong, only partial, and a complete build is still tested in full."""
    missing = [need for need in needs if not (build / need).exists()]
    if missing:
        folder = shown(build)
        named = ", ".join(missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
        pytest.skip(f"{folder} is built in part: it lacks {named} (`cmake --build {folder}` builds the rest)")


def first_built(builds: list[Path], needs: list[str]) -> Path:
    """The first of `builds` (not empty) that holds every one of `needs`; where none does, the test skips naming what
    the first lacks."""
    complete = [build for build in builds if all((build / need).exists() for need in needs)]
    if not complete:
        skip_unless_built(builds[0], needs)
    return complete[0]


def shown(build: Path) -> str:
    """A build folder as a developer names it: build/ci for one in this checkout."""
    return str(build.relative_to(REPO)) if build.is_relative_to(REPO) else str(build)


def sigint_as_in_a_terminal() -> None:
    """preexec_fn of a run a test stops with SIGINT: SIGINT at its default, as for a terminal's foreground job, where
    this test run inherited it ignored (a shell without job control starts its background jobs so). Python installs
    its KeyboardInterrupt handler only for a SIGINT that is not ignored: the run would not see the test's Ctrl-C
    (two tests hung so in a fresh machine's .ci/run started in the background, 2026-11-29)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@dataclass
class FakeBuild:
    """build/<preset>/ with bin/cuconform-<area> fakes, bin/cuconform-deviceinfo and cuconform-build.json."""

    dir: Path
    expectations: Path
    reports: Path

    @property
    def bin(self) -> Path:
        return self.dir / "bin"

    def area(self, name: str, *tests: str) -> Path:
        binary = self.bin / f"cuconform-{name}"
        shutil.copy(FAKE / "cuconform-fake", binary)
        binary.chmod(0o755)
        (self.bin / f"cuconform-{name}.tests").write_text("\n".join(tests) + "\n")
        return binary

    def modules(self, *areas: str) -> Path:
        """modules/cuconform-multi (the fake) and a module for each of `areas` (made after their binaries)."""
        folder = self.dir / "modules"
        folder.mkdir(exist_ok=True)
        runner = folder / "cuconform-multi"
        shutil.copy(FAKE / "cuconform-multi", runner)
        runner.chmod(0o755)
        for area in areas:
            module = folder / f"cuconform-{area}.so"
            module.write_text("")
            binary = self.bin / f"cuconform-{area}"
            os.utime(module, (binary.stat().st_atime, binary.stat().st_mtime + 1))
        return runner

    def multi_launches(self) -> list[list[str]]:
        """The areas of every process the fake cuconform-multi started."""
        log = self.dir / "modules" / "cuconform-multi.log"
        if not log.exists():
            return []
        return [line.split(" ", 2)[2].split(",") for line in log.read_text().splitlines()]

    def devices(self, info: dict) -> None:
        (self.bin / "cuconform-deviceinfo.json").write_text(json.dumps(info))

    def expect(self, name: str, text: str) -> Path:
        path = self.expectations / f"{name}.toml"
        path.write_text(text)
        return path

    def launches(self, area: str) -> list[list[str]]:
        """The test filter of every process the fake binary of `area` started."""
        log = self.bin / f"cuconform-{area}.log"
        if not log.exists():
            return []
        return [line.split(" ", 3)[3].split(":") for line in log.read_text().splitlines() if line.startswith("start")]

    def completed(self, area: str, after_launches: int = 0) -> list[str]:
        """The tests of `area` that a process ran to their end, after its first `after_launches` processes started
        (a process stopped where another runs the rest starts a test it does not end)."""
        log = self.bin / f"cuconform-{area}.log"
        if not log.exists():
            return []
        names, starts = [], 0
        for line in log.read_text().splitlines():
            starts += line.startswith("start ")
            if line.startswith("done ") and starts > after_launches:
                names.append(line.split(" ", 3)[3])
        return names

    def command(self, *args: str) -> list[str]:
        """scripts/conformance run on this build; the report folder is reports/only."""
        return [
            sys.executable,
            str(CONFORMANCE),
            "run",
            "--build-dir",
            str(self.dir),
            "--expectations",
            str(self.expectations),
            "--output",
            str(self.reports / "only"),
            *args,
        ]

    def run(self, *args: str, timeout: float = 120) -> "Run":
        done = subprocess.run(
            self.command(*args),
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=self.dir,
            errors="backslashreplace",
        )
        return Run(done.returncode, done.stdout, done.stderr, self.reports / "only")

    def start(self, *args: str) -> subprocess.Popen:
        """The run started and left going (stdout and stderr in one pipe), for a test that stops it with a signal."""
        return subprocess.Popen(
            self.command(*args),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            preexec_fn=sigint_as_in_a_terminal,
        )

    def list(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, str(CONFORMANCE), "list", "--build-dir", str(self.dir), *args],
            capture_output=True,
            text=True,
            timeout=60,
        )


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str
    folder: Path

    @property
    def results(self) -> dict:
        return json.loads((self.folder / "results.json").read_text(encoding="utf-8"))

    @property
    def tests(self) -> dict[str, dict]:
        return {test["id"]: test for test in self.results["tests"]}

    def verdicts(self) -> dict[str, str]:
        return {test_id: test["verdict"] for test_id, test in self.tests.items()}


@pytest.fixture
def fake_build(tmp_path: Path) -> FakeBuild:
    build = FakeBuild(tmp_path / "build" / "fake", tmp_path / "expectations", tmp_path / "reports")
    build.bin.mkdir(parents=True)
    build.expectations.mkdir()
    build.expect("common", "# the common base\n")
    shutil.copy(FAKE / "cuconform-deviceinfo", build.bin / "cuconform-deviceinfo")
    (build.dir / "cuconform-build.json").write_text(
        json.dumps({"compiler": "nvcc", "compiler_version": "13.0.88", "flags": "-O3", "architectures": "90"})
    )
    return build


# The compile cache of the user running these tests (the real builds' compile-time rules take their results from
# it, as `scripts/conformance run` does); every other piece of run state is the test's own.
USER_COMPILE_CACHE = os.environ.get("CUCONFORM_COMPILE_CACHE_DIR") or str(
    Path(
        os.environ.get("CUCONFORM_STATE_DIR")
        or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cuconform"
    )
    / "compile-cache"
)


@pytest.fixture
def capture_build(tmp_path: Path) -> Path:
    """A mutation campaign's capture build folder (test_mutation_*.py) holding what the overlay copies or links."""
    build = tmp_path / "build" / "mutation"
    (build / "bin").mkdir(parents=True)
    for area in ("alpha", "beta"):
        shutil.copy(FAKE / "cuconform-fake", build / "bin" / f"cuconform-{area}")
    shutil.copy(FAKE / "cuconform-deviceinfo", build / "bin" / "cuconform-deviceinfo")
    (build / "cuconform-build.json").write_text('{"compiler": "nvcc"}')
    (build / "CMakeCache.txt").write_text("CMAKE_CUDA_COMPILER_LAUNCHER=cuconform.mutation.capture\n")
    (build / "lib").mkdir()
    return build


@pytest.fixture(autouse=True)
def _no_inherited_profile(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CUCONFORM_STATE_DIR", str(tmp_path / "run-state"))  # kept durations: none, and the test's
    monkeypatch.setenv("CUCONFORM_COMPILE_CACHE_DIR", USER_COMPILE_CACHE)
    monkeypatch.delenv("CUCONFORM_PROFILE", raising=False)
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)
