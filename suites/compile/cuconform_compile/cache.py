"""The compile cache: what a compiler did with a compile-time case, kept so that the next run need not compile it
again. A compile-time rule's verdict is a function of the case's bytes, the command and the compiler; the cache
stores the compiler's exit code, its output and the device assembly under a key made of exactly those, and the
verdict is judged afresh from them on every run (so a changed diagnostic pattern or expectation takes effect at
once).

The key holds:
- the case file's bytes;
- the command, with the scratch folder's path taken out;
- the toolchain's fingerprint: for every file of the compiler's installation that can change what it does (the
  driver, its sub-tools, the headers of the CUDA toolkit and of clang) its path, size and modification time, and
  the host compiler's version line.

A result taken from the cache says so in the test's output (and as the metric `compile_cache = "hit"`), with the date
it was compiled. `scripts/conformance run --no-compile-cache` (CUCONFORM_COMPILE_CACHE=off) recompiles everything
and refreshes the cache. The cache lives in the build folder (`compile-cache/`), so a clean build starts cold.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from cuconform.protocol import COMPILE_CACHE_ENV

FORMAT = 1
ENV = COMPILE_CACHE_ENV  # "off": neither read nor trust the cache (results are still written)


@dataclass
class Entry:
    returncode: int
    output: str
    assembly: str | None
    seconds: float
    compiled_at: str


def enabled() -> bool:
    return os.environ.get(ENV, "on").lower() not in ("off", "0", "no")


def _stats(path: Path) -> list[str]:
    """'path size mtime' of the file `path`, or of every file under the folder `path` (links followed), sorted."""
    if path.is_file():
        stat = path.stat()
        return [f"{path} {stat.st_size} {stat.st_mtime_ns}"]
    lines = []
    for folder, _, files in os.walk(path, followlinks=True):
        for name in files:
            file = os.path.join(folder, name)
            try:
                stat = os.stat(file)
            except OSError:
                continue
            lines.append(f"{file} {stat.st_size} {stat.st_mtime_ns}")
    return sorted(lines)


def _first_line(command: list[str]) -> str:
    try:
        done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    lines = (done.stdout or done.stderr).strip().splitlines()
    return lines[0] if lines else ""


def fingerprint(paths: list[Path], host_compiler: str | None = None) -> str:
    """A digest that changes when any file of `paths` (files, or folders taken whole) changes, or the host
    compiler's version line does."""
    digest = hashlib.sha256()
    for path in paths:
        for line in _stats(path.resolve()):
            digest.update(line.encode("utf-8", "surrogateescape") + b"\n")
    if host_compiler:
        digest.update(_first_line([host_compiler, "--version"]).encode() + b"\n")
    return digest.hexdigest()


class CompileCache:
    """Entries under `folder`/<key[:2]>/<key>.json, written atomically; unreadable entries count as misses."""

    def __init__(self, folder: Path):
        self.folder = folder

    @staticmethod
    def key(source: bytes, command: list[str], scratch: Path, fingerprint: str) -> str:
        scratch_text = str(scratch)
        portable = [arg.replace(scratch_text, "<scratch>") for arg in command]
        digest = hashlib.sha256()
        digest.update(json.dumps([FORMAT, portable, fingerprint]).encode())
        digest.update(b"\0")
        digest.update(source)
        return digest.hexdigest()

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def get(self, key: str) -> Entry | None:
        try:
            data = json.loads(self._path(key).read_text(encoding="utf-8"))
            return Entry(int(data["returncode"]), str(data["output"]), data.get("assembly"),
                         float(data["seconds"]), str(data["compiled_at"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def put(self, key: str, returncode: int, output: str, assembly: str | None, seconds: float) -> None:
        path = self._path(key)
        entry = {"format": FORMAT, "returncode": returncode, "output": output, "assembly": assembly,
                 "seconds": round(seconds, 3),
                 "compiled_at": datetime.now(timezone.utc).isoformat(timespec="seconds")}
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            partial = path.with_suffix(f".{os.getpid()}.tmp")
            partial.write_text(json.dumps(entry), encoding="utf-8")
            os.replace(partial, path)
        except OSError:
            pass  # a cache that cannot be written only costs time
