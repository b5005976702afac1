"""The compile cache: what a compiler did with a compile-time case, kept so that the next run need not compile it
again. A compile-time rule's verdict is a function of the case's bytes, the command and the compiler; the cache
stores the compiler's exit code, its output and the device assembly under a key made of exactly those, and the
verdict is judged afresh from them on every run (so a changed diagnostic pattern or expectation takes effect at
once).

The key holds:
- the case file's bytes;
- the command, with the scratch folder's path taken out, and the compiler's own path too when the build made it
  (`nvrtc-compile`): its bytes are in the fingerprint instead, so that every build folder shares its results;
- the toolchain's fingerprint: for every file of the compiler's installation that can change what it does (the
  driver, its sub-tools, the headers of the CUDA toolkit and of clang) its path, size and modification time, the
  bytes of a compiler the build made, the version line of the host compiler it runs (nvcc: `gcc` on the PATH or
  NVCC_CCBIN), and the environment variables that change what a compiler does (NVCC_PREPEND_FLAGS, CPATH, ...).

A result taken from the cache says so in the test's output (and as the metric `compile_cache = "hit"`), with the date
it was compiled. `scripts/conformance run --no-compile-cache` (CUCONFORM_COMPILE_CACHE=off) recompiles everything
and refreshes the cache. The cache is run state, not part of a build (cuconform/state.py): it lives in
`<run state>/compile-cache/` (CUCONFORM_COMPILE_CACHE_DIR names another folder), so it outlives a rebuild of the
tree, and every build folder of the machine takes the results it holds for the same case, command and toolchain.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from cuconform import state
from cuconform.protocol import COMPILE_CACHE_ENV

FORMAT = 2
ENV = COMPILE_CACHE_ENV  # "off": neither read nor trust the cache (results are still written)
FOLDER_ENV = "CUCONFORM_COMPILE_CACHE_DIR"
# What changes what a compiler does without changing a file of it: nvcc's extra options and host compiler, the
# include paths every GCC-compatible driver reads, where the host compiler finds its parts, where NVRTC is loaded.
ENVIRONMENT = (
    "NVCC_PREPEND_FLAGS",
    "NVCC_APPEND_FLAGS",
    "NVCC_CCBIN",
    "CPATH",
    "C_INCLUDE_PATH",
    "CPLUS_INCLUDE_PATH",
    "GCC_EXEC_PREFIX",
    "COMPILER_PATH",
    "LD_LIBRARY_PATH",
)


def folder() -> Path:
    """Where the compile cache lives: CUCONFORM_COMPILE_CACHE_DIR, else the run state's compile-cache/."""
    given = os.environ.get(FOLDER_ENV)
    return Path(given) if given else state.folder() / "compile-cache"


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


def _bytes_digest(path: Path) -> str:
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as stream:
            for block in iter(lambda: stream.read(1 << 20), b""):
                digest.update(block)
    except OSError:
        return "unreadable"
    return digest.hexdigest()


def fingerprint(paths: list[Path], host_compiler: str | None = None, built: list[Path] = ()) -> str:
    """A digest that changes when any file of `paths` (files, or folders taken whole) changes, the bytes of a file
    of `built` (compilers the build made: a rebuild gives them a new date, not new bytes) do, the host compiler's
    version line does, or an environment variable of ENVIRONMENT."""
    digest = hashlib.sha256()
    for path in paths:
        for line in _stats(path.resolve()):
            digest.update(line.encode("utf-8", "surrogateescape") + b"\n")
    for path in built:
        digest.update(f"built {_bytes_digest(path)}\n".encode())
    if host_compiler:
        resolved = shutil.which(host_compiler) or host_compiler
        digest.update(f"{os.path.realpath(resolved)} {_first_line([resolved, '--version'])}\n".encode())
    for name in ENVIRONMENT:
        digest.update(f"{name}={os.environ.get(name, '')}\n".encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


class CompileCache:
    """Entries under `folder`/<key[:2]>/<key>.json, written atomically; unreadable entries count as misses."""

    def __init__(self, folder: Path):
        self.folder = folder

    @staticmethod
    def key(
        source: bytes, command: list[str], scratch: Path, fingerprint: str, tool_in_fingerprint: bool = False
    ) -> str:
        """`tool_in_fingerprint`: the compiler's own path (the command's first word) is left out, its bytes being in
        `fingerprint`."""
        scratch_text = str(scratch)
        portable = [arg.replace(scratch_text, "<scratch>") for arg in command]
        if tool_in_fingerprint and portable:
            portable[0] = "<compiler>"
        digest = hashlib.sha256()
        digest.update(json.dumps([FORMAT, portable, fingerprint]).encode())
        digest.update(b"\0")
        digest.update(source)
        return digest.hexdigest()

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def has(self, key: str) -> bool:
        return self._path(key).is_file()

    def get(self, key: str) -> Entry | None:
        try:
            data = json.loads(self._path(key).read_text(encoding="utf-8"))
            return Entry(
                int(data["returncode"]),
                str(data["output"]),
                data.get("assembly"),
                float(data["seconds"]),
                str(data["compiled_at"]),
            )
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def put(self, key: str, returncode: int, output: str, assembly: str | None, seconds: float) -> None:
        path = self._path(key)
        entry = {
            "format": FORMAT,
            "returncode": returncode,
            "output": output,
            "assembly": assembly,
            "seconds": round(seconds, 3),
            "compiled_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        }
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            partial = path.with_suffix(f".{os.getpid()}.tmp")
            partial.write_text(json.dumps(entry), encoding="utf-8")
            os.replace(partial, path)
        except OSError:
            pass  # a cache that cannot be written only costs time
