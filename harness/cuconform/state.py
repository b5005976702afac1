"""Where cuconform keeps what it learns between runs on this machine: the run state.

    $CUCONFORM_STATE_DIR, else $XDG_CACHE_HOME/cuconform, else ~/.cache/cuconform
        durations/<machine>-<profile>[-<sanitizer>].json    what each test took (durations.py), by test id
        compile-cache/                                      what a compiler did with a compile-time case
                                                            (suites/compile/cuconform_compile/cache.py)

Why there and not in the build folder: neither belongs to one build. A test's duration is a fact about the test and
the machine, and a compiler's verdict on a case a fact about the case, the command and the toolchain: every build
folder of a checkout (a rebuilt `gpu`, `ci`, `clang`, another toolkit's build) and every checkout on the machine
reads the same facts, keyed by what they depend on (a test id; the case's bytes, the command and the toolchain's
fingerprint), so a rebuilt tree's first run schedules by measured costs and takes the compile-time results it
already has. Why a cache folder: everything in it can be made again by running the suite (deleting it costs time,
never a result), which is what XDG_CACHE_HOME is for; a CI system keeps it between jobs as it keeps ccache's
(e.g. actions/cache on ~/.cache/cuconform). What belongs to one build stays in it (its binaries,
cuconform-build.json, compile-rules.json); a run's own record stays in its report folder.

Files here are written whole and moved into place (a reader never sees half a file), and read with a default: a
missing or unreadable file means "nothing learned yet".
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

ENV = "CUCONFORM_STATE_DIR"
NVIDIA_GPUS = Path("/proc/driver/nvidia/gpus")


def folder() -> Path:
    """The run-state folder (not created here)."""
    given = os.environ.get(ENV)
    if given:
        return Path(given)
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "cuconform"


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9.]+", "-", text.lower()).strip("-") or "unknown"


def machine(gpus_dir: Path = NVIDIA_GPUS) -> str:
    """The kind of machine a run's durations hold for, without initialising CUDA: the model of the NVIDIA driver's
    first GPU ('nvidia-h200'), or 'no-gpu'. Runs on two H100s and on one share their durations: a test's cost depends
    on the GPU it runs on, not on how many there are."""
    try:
        informations = sorted(gpus_dir.glob("*/information"))
    except OSError:
        informations = []
    for information in informations:
        try:
            text = information.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        found = re.search(r"^Model:\s*(.+)$", text, re.MULTILINE)
        if found:
            return slug(found.group(1))
    return "no-gpu" if not informations else "gpu"


def read_json(path: Path) -> dict | None:
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def write_json(path: Path, value: dict) -> bool:
    """Writes `value` to `path` whole (a temporary file moved into place); False when it cannot be written (no
    error: run state only saves time)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.{os.getpid()}")
        temporary.write_text(json.dumps(value, indent=0, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(temporary, path)
    except OSError:
        return False
    return True
