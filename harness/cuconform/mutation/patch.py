"""Mutant executables without a link: the mutant fatbin is written over the object's padded fatbin in a copy of the
linked binary (capture.py left the room), and which objects each binary holds."""

import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

from cuconform.mutation.capture import manifest_path


class PatchError(RuntimeError):
    """A fatbin is not found exactly once in the executable, or a mutant does not fit."""


def patch_executable(src: Path, dst: Path, replacements: list[tuple[bytes, bytes]]) -> None:
    """Write `dst`: `src` with each (original padded fatbin, mutant fatbin) replaced, the mutant followed by zeros
    up to the original's length. Each original must occur exactly once in `src`. `dst` is a copy of `src` (the
    kernel's copy) with only the fatbins written over; where each original lies in `src` is searched once per
    binary and kept (a campaign patches one binary for many mutants)."""
    taken = []
    for original, mutant in replacements:
        if len(mutant) > len(original):
            raise PatchError(f"mutant fatbin of {len(mutant)} bytes does not fit the {len(original)} of the original")
        at = _offset(Path(src), original)
        if any(at < end and start < at + len(original) for start, end, _ in taken):
            raise PatchError(f"{src}: two replacements overlap at offset {at}")
        taken.append((at, at + len(original), mutant + bytes(len(original) - len(mutant))))
    dst = Path(dst)
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dst)
    with open(dst, "r+b") as stream:
        for at, _, data in taken:
            stream.seek(at)
            stream.write(data)
    os.chmod(dst, 0o755)


_OFFSETS: dict[tuple, int | str] = {}  # (binary, its size and time, the original's digest) -> offset, or the error


def _offset(src: Path, original: bytes) -> int:
    """Where `original` lies in `src`: it must occur exactly once (PatchError otherwise)."""
    status = src.stat()
    key = (str(src.resolve()), status.st_size, status.st_mtime_ns, len(original), hashlib.sha256(original).digest())
    found = _OFFSETS.get(key)
    if found is None:
        data = src.read_bytes()
        at = data.find(original)
        if at < 0:
            found = f"{src}: the original fatbin ({len(original)} bytes) is not in the executable"
        elif data.find(original, at + 1) >= 0:
            found = f"{src}: the original fatbin ({len(original)} bytes) occurs more than once"
        else:
            found = at
        _OFFSETS[key] = found
    if isinstance(found, str):
        raise PatchError(found)
    return found


def _object_inputs(build_dir, binary):
    """The objects ninja links into `binary` (transitively), or None when ninja does not build it (a script)."""
    result = subprocess.run(
        ["ninja", "-C", str(build_dir), "-t", "inputs", str(binary.relative_to(build_dir))],
        capture_output=True,
        text=True,
    )
    if result.returncode and "unknown tool" in result.stderr + result.stdout:  # ninja before 1.11
        return _target_objects(build_dir, binary.name)
    if result.returncode:
        return None
    return [line for line in result.stdout.splitlines() if line.endswith(".o")]


def _target_objects(build_dir, target):
    """The objects in CMake's object folder of `target` (CMakeFiles/<target>.dir), None if there is none."""
    folders = list(build_dir.glob(f"**/CMakeFiles/{target}.dir"))
    if not folders:
        return None
    return [str(path.relative_to(build_dir)) for folder in folders for path in sorted(folder.rglob("*.o"))]


def dependencies_of(build_dir: Path) -> dict[str, list[str]]:
    """{object path: the files its compile read (its source, headers, generated .inc files)}, from the dependency
    log ninja keeps (`ninja -t deps`); {} where ninja cannot tell."""
    result = subprocess.run(["ninja", "-C", str(build_dir), "-t", "deps"], capture_output=True, text=True)
    if result.returncode:
        return {}
    found: dict[str, list[str]] = {}
    current = None
    for line in result.stdout.splitlines():
        if line and not line[0].isspace() and ": #deps" in line:
            current = found.setdefault(str(build_dir / line.split(": #deps", 1)[0]), [])
        elif line.strip() and current is not None:
            current.append(str(build_dir / line.strip()))  # an absolute path stays as it is
    return found


def objects_of(build_dir: Path, names=None) -> dict[Path, list[dict]]:
    """{binary path: [manifest of each of its objects that capture compiled]} for the binaries in build_dir/bin that
    ninja links (only those called `names`, if given; the objects of the libraries they link included: `ninja -t
    inputs` is transitive). A binary linked from objects compiled without capture maps to []. Each manifest gets
    `dependencies`: the files its compile read (dependencies_of)."""
    build_dir = Path(build_dir).resolve()
    dependencies = dependencies_of(build_dir)
    binaries = {}
    for binary in sorted((build_dir / "bin").iterdir()):
        if not binary.is_file() or not os.access(binary, os.X_OK) or (names is not None and binary.name not in names):
            continue
        objects = _object_inputs(build_dir, binary)
        if objects is None:
            continue
        manifests = []
        for object_path in objects:
            path = manifest_path(build_dir / object_path)
            if path.is_file():
                manifest = json.loads(path.read_text())
                manifest["dependencies"] = dependencies.get(str(build_dir / object_path), [])
                manifests.append(manifest)
        binaries[binary] = manifests
    return binaries
