"""Mutant executables without a link: the mutant fatbin is written over the object's padded fatbin in a copy of the
linked binary (capture.py left the room), and which objects each binary holds."""
import json
import os
import subprocess
from pathlib import Path

from cuconform.mutation.capture import manifest_path


class PatchError(RuntimeError):
    """A fatbin is not found exactly once in the executable, or a mutant does not fit."""


def patch_executable(src: Path, dst: Path, replacements: list[tuple[bytes, bytes]]) -> None:
    """Write `dst`: `src` with each (original padded fatbin, mutant fatbin) replaced, the mutant followed by zeros
    up to the original's length. Each original must occur exactly once in `src`."""
    data = bytearray(Path(src).read_bytes())
    taken = []
    for original, mutant in replacements:
        if len(mutant) > len(original):
            raise PatchError(f"mutant fatbin of {len(mutant)} bytes does not fit the {len(original)} of the original")
        at = data.find(original)
        if at < 0:
            raise PatchError(f"{src}: the original fatbin ({len(original)} bytes) is not in the executable")
        if data.find(original, at + 1) >= 0:
            raise PatchError(f"{src}: the original fatbin ({len(original)} bytes) occurs more than once")
        if any(at < end and start < at + len(original) for start, end in taken):
            raise PatchError(f"{src}: two replacements overlap at offset {at}")
        taken.append((at, at + len(original)))
        data[at : at + len(original)] = mutant + bytes(len(original) - len(mutant))
    dst = Path(dst)
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.write_bytes(bytes(data))
    os.chmod(dst, 0o755)


def _object_inputs(build_dir, binary):
    """The objects ninja links into `binary` (transitively), or None when ninja does not build it (a script)."""
    result = subprocess.run(["ninja", "-C", str(build_dir), "-t", "inputs", str(binary.relative_to(build_dir))],
                            capture_output=True, text=True)
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


def objects_of(build_dir: Path, names=None) -> dict[Path, list[dict]]:
    """{binary path: [manifest of each of its objects that capture compiled]} for the binaries in build_dir/bin that
    ninja links (only those called `names`, if given; the objects of the libraries they link included: `ninja -t
    inputs` is transitive). A binary linked from objects compiled without capture maps to []."""
    build_dir = Path(build_dir).resolve()
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
                manifests.append(json.loads(path.read_text()))
        binaries[binary] = manifests
    return binaries
