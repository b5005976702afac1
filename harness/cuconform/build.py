"""Builds what a run needs: `cmake --preset <preset>` when the build folder is not configured, then
`cmake --build` (a no-op when nothing changed)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from cuconform import toolkit
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
        found += [
            preset["name"]
            for preset in document.get("configurePresets", [])
            if isinstance(preset, dict) and "name" in preset and not preset.get("hidden")
        ]
    return found


def default_preset() -> str:
    return "gpu" if gpu_present() else "ci"


def build_dir_of(preset: str, cuda_root: Path | None = None, arch: str | None = None) -> Path:
    """build/<preset>, build/<preset>-cuda13.5.0 for another toolkit, build/<preset>-sm100a for other targets."""
    name = preset
    if cuda_root is not None:
        name = toolkit.build_name(toolkit.release_of(cuda_root), preset)
    if arch is not None:
        name += "-sm" + "-".join(part.removeprefix("sm_") for part in arch.split(";"))
    return REPO / "build" / name


def cache_arguments(preset: str | None, cuda_root: Path | None, arch: str | None) -> list[str]:
    """The -D options that build a preset with another toolkit or for other targets (nothing for neither)."""
    clang = preset is not None and preset.startswith("clang")
    arguments = []
    if cuda_root is not None:
        arguments += [f"-DCUDAToolkit_ROOT={cuda_root}"] if clang else toolkit.cmake_cache_arguments(cuda_root)
    if arch is not None:
        if clang:
            arguments.append(f"-DCUCONFORM_CLANG_CUDA_ARCH=sm_{arch.removeprefix('sm_')}")
        else:
            targets = ";".join(a.removeprefix("sm_") for a in arch.split(";"))
            if any(a.split("-")[0].endswith("f") for a in targets.split(";")):
                # CMake 3.25 takes no family-specific target (100f): nvcc gets them directly
                arguments += ["-DCMAKE_CUDA_ARCHITECTURES=OFF", f"-DCUCONFORM_CUDA_ARCHITECTURES={targets}"]
            else:
                arguments.append(f"-DCMAKE_CUDA_ARCHITECTURES={targets}")
    return arguments


def ensure_built(
    build_dir: Path,
    preset: str | None,
    jobs: int | None = None,
    always: bool = True,
    cache: list[str] | None = None,
    targets: list[str] | None = None,
    keep_going: bool = False,
) -> list[str]:
    """Configures `build_dir` with `preset` (and the -D options of `cache`, in a folder of its own) when needed and
    builds it (only `targets` when given). A folder that is not a CMake build but holds suite binaries (a copied
    build) is used as it is. With always=False, a build that has binaries is not rebuilt. With keep_going, every
    target that can be built is, and the outputs that failed are returned (BuildError otherwise)."""
    configured = (build_dir / "CMakeCache.txt").exists()
    has_binaries = bool(find_binaries(build_dir / "bin"))
    if not configured:
        if has_binaries:
            return []
        if preset is None:
            raise BuildError(f"{build_dir} holds no suite binaries and no CMake build: give --preset")
        check_prerequisites(preset.startswith("clang"))
        command = ["cmake", "--preset", preset]
        if cache:
            command += ["-B", str(build_dir), *cache]
        _run(command, " ".join(command))
    elif has_binaries and not always:
        return []
    else:
        text = (build_dir / "CMakeCache.txt").read_text(encoding="utf-8", errors="replace")
        check_prerequisites("CUCONFORM_CUDA_COMPILER:STRING=clang" in text)
    command = ["cmake", "--build", str(build_dir)]
    if jobs:
        command += ["-j", str(jobs)]
    if targets:
        command += ["--target", *targets]
    if not keep_going:
        _run(command, " ".join(command))
        return []
    return _run_keep_going([*command, "--", "-k", "0"])


def _run_keep_going(command: list[str]) -> list[str]:
    """Runs the build to the end whatever fails; the outputs of the failed steps (ninja's 'FAILED: <output>')."""
    print(f"cuconform: {' '.join(command)}", file=sys.stderr, flush=True)
    failed = []
    try:
        with subprocess.Popen(
            command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace"
        ) as process:
            for line in process.stdout:
                sys.stderr.write(line)
                if line.startswith("FAILED: "):
                    failed.append(line[len("FAILED: ") :].strip())
    except OSError as error:
        raise BuildError(f"{command[0]}: {error}") from None
    if process.returncode != 0 and not failed:
        raise BuildError(f"{' '.join(command)} failed with exit code {process.returncode}")
    return failed


def check_prerequisites(clang: bool) -> None:
    """What a build needs (cmake, ninja, GoogleTest, the CUDA toolkit, the programs nvcc runs; clang++-22 and the
    programs it runs for the clang preset), as scripts/setup --check checks it. What is missing, scripts/setup
    installs, saying so in one line first (it needs root or sudo); BuildError with its one line when it cannot."""
    groups = ["build", *(["clang"] if clang else [])]
    if _setup("--check", *groups) is None:
        return
    print(
        f"cuconform: the build needs what is missing here: running scripts/setup {' '.join(groups)}",
        file=sys.stderr,
        flush=True,
    )
    error = _setup(*groups)
    if error is not None:
        raise BuildError(error)


def _setup(*arguments: str) -> str | None:
    """scripts/setup with these arguments: None when it succeeds (its lines passed on), else its last line."""
    try:
        done = subprocess.run([str(SETUP), *arguments], capture_output=True, text=True, timeout=3600)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"{SETUP.relative_to(REPO)} {' '.join(arguments)}: {error}"
    if done.returncode == 0:
        sys.stderr.write(done.stderr)
        return None
    return (done.stderr.strip() or done.stdout.strip() or f"exit code {done.returncode}").splitlines()[-1]


def _run(command: list[str], what: str) -> None:
    print(f"cuconform: {what}", file=sys.stderr, flush=True)
    try:
        done = subprocess.run(command, cwd=REPO, stdout=sys.stderr, stderr=subprocess.STDOUT)
    except OSError as error:
        raise BuildError(f"{what}: {error}") from None
    if done.returncode != 0:
        raise BuildError(f"{what} failed with exit code {done.returncode}")
