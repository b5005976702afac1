"""What a run ran on: the GPUs (from `cuconform-deviceinfo`), the build, the host. Every report carries it."""

from __future__ import annotations

import json
import os
import platform
import re
import subprocess
import sys
import threading
from datetime import datetime, timezone
from pathlib import Path

DEVICEINFO = "cuconform-deviceinfo"
BUILD_INFO = "cuconform-build.json"
PROBE_TIMEOUT_S = 120
REPO = Path(__file__).resolve().parents[2]


def read_build_info(build_dir: Path) -> dict:
    """build/<preset>/cuconform-build.json: the compiler, its version, flags and target architectures."""
    path = build_dir / BUILD_INFO
    try:
        info = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        return {"error": f"cannot read {path}: {error}"}
    info["dir"] = str(build_dir)
    return info


def probe_devices(build_dir: Path) -> dict:
    """The GPUs this run sees, as cuconform-deviceinfo prints them; {"devices": [], "error": ...} without one."""
    tool = build_dir / "bin" / DEVICEINFO
    if not tool.exists():
        return {"devices": [], "error": f"{tool} is missing"}
    try:
        done = subprocess.run([str(tool)], capture_output=True, timeout=PROBE_TIMEOUT_S, stdin=subprocess.DEVNULL)
        info = json.loads(done.stdout.decode("utf-8", errors="backslashreplace"))
    except (OSError, ValueError, subprocess.TimeoutExpired) as error:
        return {"devices": [], "error": f"{tool}: {error}"}
    if not isinstance(info, dict) or not isinstance(info.get("devices"), list):
        return {"devices": [], "error": f"{tool} printed no device list"}
    if info["devices"] and not info.get("driver_version"):
        version = driver_version()
        if version:
            info["driver_version"] = version  # the CUDA API gives only the CUDA version the driver supports
    return info


NVIDIA_DRIVER_VERSION = Path("/proc/driver/nvidia/version")


def driver_version(path: Path = NVIDIA_DRIVER_VERSION) -> str | None:
    """The NVIDIA kernel module's version ('580.159.04'), as the driver states it in /proc; None where unreadable."""
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return None
    found = re.search(r"Kernel Module(?: for [\w-]+)?\s+([0-9][0-9.]*)", text)
    return found.group(1) if found else None


class DeviceProbe:
    """Runs the probe in the background (it creates a CUDA context: a fraction of a second) while tests are listed."""

    def __init__(self, build_dir: Path):
        self._result: dict | None = None
        self._thread = threading.Thread(target=self._probe, args=(build_dir,), daemon=True, name="deviceinfo")
        self._thread.start()

    def _probe(self, build_dir: Path) -> None:
        self._result = probe_devices(build_dir)

    def result(self) -> dict:
        self._thread.join()
        return self._result


MATH_REFERENCE = "libcuconform-mathref.so"
MATH_REFERENCE_COMMAND = "scripts/setup math && scripts/build-math-reference"


def find_math_reference(build_dir: Path) -> str | None:
    """Where the math suite's exact (MPFR) reference is, searched as suites/math/reference.cpp does; None when the
    math rules that need it will skip."""
    named = os.environ.get("CUCONFORM_MATHREF")
    candidates = [Path(named)] if named else []
    candidates += [
        build_dir / "lib" / MATH_REFERENCE,
        build_dir.parent.parent / ".mathref" / MATH_REFERENCE,
        Path(".mathref") / MATH_REFERENCE,
        REPO / ".mathref" / MATH_REFERENCE,
    ]
    return next((str(path.resolve()) for path in candidates if path.is_file()), None)


def compute_capability(devices: dict) -> str | None:
    """The CC whose expectations apply: the first GPU's (a run on mixed GPUs is reported, not split, for now)."""
    listed = devices.get("devices") or []
    return listed[0].get("cc") if listed else None


def visible_gpu_count() -> int:
    """How many GPUs this run's processes will see, without initialising CUDA (which can take a second): the
    entries of CUDA_VISIBLE_DEVICES, else the GPUs the NVIDIA driver lists in /proc. The device probe tells the
    truth later; this only sizes the workers of a run that starts before the probe is done."""
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is not None:
        return len([part for part in visible.split(",") if part.strip()])
    gpus = Path("/proc/driver/nvidia/gpus")
    return len(list(gpus.iterdir())) if gpus.is_dir() else 0


def gpu_slots(gpus: int, jobs: int) -> list[str | None]:
    """What each worker sets CUDA_VISIBLE_DEVICES to: one GPU each when there are several and several workers."""
    if gpus < 2 or jobs < 2:
        return [None]
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    names = [part.strip() for part in visible.split(",") if part.strip()] if visible else [str(i) for i in range(gpus)]
    return names[:gpus]


def host_info() -> dict:
    uname = platform.uname()
    return {
        "name": uname.node,
        "system": f"{uname.system} {uname.release}",
        "machine": uname.machine,
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
    }


def git_commit() -> str | None:
    try:
        done = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() or None if done.returncode == 0 else None


MODIFIED_SHOWN = 50  # the modified files a run names at most (their count is always given)


class _ModifiedLook:
    """git_modified in a thread from the run's start: in a copied checkout git status hashes every tracked file (a
    fraction of a second), which the reports at the run's end should not wait for."""

    def __init__(self) -> None:
        self._result: list[dict | None] = []
        self._thread = threading.Thread(target=lambda: self._result.append(_git_modified()), daemon=True)
        self._thread.start()

    def result(self) -> dict | None:
        self._thread.join()
        return self._result[0] if self._result else None


_modified_look: _ModifiedLook | None = None


def look_at_checkout() -> None:
    """Starts finding the modified files (git_modified) in the background; a run calls it as it starts."""
    global _modified_look
    if _modified_look is None:
        _modified_look = _ModifiedLook()


def git_modified() -> dict | None:
    """The tracked files of the checkout that differ from its commit (a run of changes not committed yet must not
    pass for a run of the commit): {"count": N, "files": [at most MODIFIED_SHOWN paths]}; None outside a git
    checkout. Found in the background when look_at_checkout() began it."""
    return _modified_look.result() if _modified_look is not None else _git_modified()


def _git_modified() -> dict | None:
    try:
        done = subprocess.run(
            ["git", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    files = sorted(line[3:] for line in done.stdout.splitlines() if len(line) > 3)
    return {"count": len(files), "files": files[:MODIFIED_SHOWN]}


def now() -> datetime:
    return datetime.now(timezone.utc).astimezone()


def run_name(start: datetime, cc: str | None, build: dict) -> str:
    """'20261122-0512-sm_90-nvcc': when, on what, built by what."""
    target = f"sm_{cc.replace('.', '')}" if cc else "nogpu"
    return f"{start.strftime('%Y%m%d-%H%M')}-{target}-{build.get('compiler') or 'unknown'}"


def command_line() -> list[str]:
    return [sys.executable, *sys.argv]
