"""Builds what a run needs: `cmake --preset <preset>` when the build folder is not configured, then
`cmake --build` (a no-op when nothing changed)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from cuconform.catalog import find_binaries
from cuconform.environment import REPO

SETUP = REPO / "scripts" / "setup"


class BuildError(Exception):
    """The build could not be made; str() is one line for the user."""


def gpu_present() -> bool:
    """Whether `nvidia-smi -L` lists a GPU: it chooses the default preset (gpu, else ci)."""
    if shutil.which("nvidia-smi") is None:
        return False
    try:
        done = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0 and "GPU " in done.stdout


def presets() -> list[str]:
    """The configure presets --preset may name (CMakePresets.json and CMakeUserPresets.json, hidden ones left out)."""
    found = []
    for name in ("CMakePresets.json", "CMakeUserPresets.json"):
        try:
            document = json.loads((REPO / name).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        found += [preset["name"] for preset in document.get("configurePresets", [])
                  if isinstance(preset, dict) and "name" in preset and not preset.get("hidden")]
    return found


def default_preset() -> str:
    return "gpu" if gpu_present() else "ci"


def build_dir_of(preset: str) -> Path:
    return REPO / "build" / preset


def ensure_built(build_dir: Path, preset: str | None, jobs: int | None = None, always: bool = True) -> None:
    """Configures `build_dir` with `preset` when needed and builds it. A folder that is not a CMake build but holds
    suite binaries (a copied build) is used as it is. With always=False, a build that has binaries is not rebuilt."""
    configured = (build_dir / "CMakeCache.txt").exists()
    has_binaries = bool(find_binaries(build_dir / "bin"))
    if not configured:
        if has_binaries:
            return
        if preset is None:
            raise BuildError(f"{build_dir} holds no suite binaries and no CMake build: give --preset")
        check_prerequisites(preset.startswith("clang"))
        _run(["cmake", "--preset", preset], f"cmake --preset {preset}")
    elif has_binaries and not always:
        return
    else:
        cache = (build_dir / "CMakeCache.txt").read_text(encoding="utf-8", errors="replace")
        check_prerequisites("CUCONFORM_CUDA_COMPILER:STRING=clang" in cache)
    command = ["cmake", "--build", str(build_dir)]
    if jobs:
        command += ["-j", str(jobs)]
    _run(command, " ".join(command))


def check_prerequisites(clang: bool) -> None:
    """What a build needs (cmake, ninja, GoogleTest, the CUDA toolkit; clang++-22 for the clang preset), as
    scripts/setup checks it; BuildError with its one line (what is missing, the command that installs it)."""
    command = [str(SETUP), "--check", "build", *(["clang"] if clang else [])]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise BuildError(f"{SETUP.relative_to(REPO)} --check: {error}") from None
    if done.returncode != 0:
        raise BuildError((done.stderr.strip() or done.stdout.strip()).splitlines()[-1])


def _run(command: list[str], what: str) -> None:
    print(f"cuconform: {what}", file=sys.stderr, flush=True)
    try:
        done = subprocess.run(command, cwd=REPO, stdout=sys.stderr, stderr=subprocess.STDOUT)
    except OSError as error:
        raise BuildError(f"{what}: {error}") from None
    if done.returncode != 0:
        raise BuildError(f"{what} failed with exit code {done.returncode}")
