"""The capture build of a mutation campaign (build/mutation/): a build folder configured from a preset with the
compiler launcher capture.py, so that every object leaves what rebuild.py needs to compile its PTX again."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from cuconform import build
from cuconform.environment import REPO

CAPTURE_MODULE = "cuconform.mutation.capture"
CAPTURE_SCRIPT = "scripts/mutation-capture"  # the same launcher as a script, for a build configured by hand
LAUNCHER_VARIABLE = "CMAKE_CUDA_COMPILER_LAUNCHER"
INTERPOSER_TARGET = "cuconform-interpose"  # the runtime operators' library (runtime_operators.py)


def launcher() -> list[str]:
    """The compiler launcher of the capture build: capture.py, with the harness on its module path."""
    return ["/usr/bin/env", f"PYTHONPATH={REPO / 'harness'}", sys.executable, "-m", CAPTURE_MODULE]


def ensure_capture_build(build_dir: Path, preset: str, jobs: int | None, areas: list[str]) -> None:
    """Configures `build_dir` from `preset` with the capture launcher when it is not configured, checks that an
    existing one has it, and builds the areas' binaries (all of them when none is named) and cuconform-deviceinfo.
    Ninja rebuilds nothing that is up to date, so a build cut by a time limit goes on where it stopped."""
    cache = build_dir / "CMakeCache.txt"
    if not cache.exists():
        build.check_prerequisites(clang=False)
        _cmake(["cmake", "--preset", preset, "-B", str(build_dir), f"-D{LAUNCHER_VARIABLE}={';'.join(launcher())}"])
    else:
        launchers = [
            line.split("=", 1)[1]
            for line in cache.read_text(encoding="utf-8", errors="replace").splitlines()
            if line.startswith(f"{LAUNCHER_VARIABLE}:") and "=" in line
        ]
        if not any(CAPTURE_MODULE in value or CAPTURE_SCRIPT in value for value in launchers):
            raise build.BuildError(
                f"{build_dir} is a build without the capture launcher ({LAUNCHER_VARIABLE}): "
                "give another --build-dir, or remove it"
            )
    command = ["cmake", "--build", str(build_dir)]
    if areas:
        command += ["--target", *_suite_targets(build_dir, areas), "cuconform-deviceinfo", INTERPOSER_TARGET]
    if jobs:
        command += ["-j", str(jobs)]
    _cmake(command)


def _suite_targets(build_dir: Path, areas: list[str]) -> list[str]:
    """The targets of the areas' binaries: the suites of the configured build (its cuconform-build.json, which
    names the variants that share a folder, e.g. math-ftz, too), less those the configure step writes itself
    (bin/cuconform-compile, a script), which need no build. A name that is no suite is left to the plan's check."""
    info = build_dir / "cuconform-build.json"
    try:
        suites = set(json.loads(info.read_text(encoding="utf-8"))["suites"])
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise build.BuildError(f"{info}: cannot read the configured build's suites ({one_line(error)})") from None
    names = [f"cuconform-{area}" for area in areas]
    return [name for name in names if name in suites and not _written_by_configure(build_dir / "bin" / name)]


def _written_by_configure(binary: Path) -> bool:
    try:
        with binary.open("rb") as file:
            return file.read(2) == b"#!"
    except OSError:
        return False


def one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__


def _cmake(command: list[str]) -> None:
    print(f"cuconform: {' '.join(command)}", file=sys.stderr, flush=True)
    try:
        done = subprocess.run(command, cwd=REPO, stdout=sys.stderr, stderr=subprocess.STDOUT)
    except OSError as error:
        raise build.BuildError(f"{command[0]}: {error}") from None
    if done.returncode != 0:
        raise build.BuildError(f"{' '.join(command[:3])} failed with exit code {done.returncode}")
