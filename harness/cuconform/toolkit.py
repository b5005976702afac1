"""Other CUDA toolkits for the suite, laid out from the package index's wheels (`scripts/toolkit`, README
"Regression testing a compiler").

The index carries a toolkit's parts as wheels, and a meta-package `cuda-toolkit` whose version is the CUDA release
(13.5.0) and whose dependencies pin each part's version (nvidia-cuda-nvcc 13.5.37, nvidia-cuda-cccl 13.3.5.0.6, ...).
`install` resolves a release through that meta-package, downloads the pinned parts (`pip download --no-deps`) and
unpacks them into build/toolkits/<release>/ as the toolkit's own layout: bin/ (nvcc, ptxas, fatbinary, nvlink,
cudafe++), nvvm/ (cicc, libdevice), include/ (with crt/ and CCCL), lib/ and lib64/ (static cudart, NVRTC).
The 13.x wheels hold that layout under nvidia/cu13/; the 12.x ones hold each part's folder under nvidia/<part>/,
and the 12.x nvcc wheel has only ptxas, libnvvm and libdevice: no nvcc driver, cicc, cudafe++, fatbinary or nvlink,
so a 12.x release installs as an incomplete toolkit that cannot build the suite (`missing` in its manifest).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from cuconform.environment import REPO

TOOLKITS = REPO / "build" / "toolkits"
WHEELS = TOOLKITS / ".wheels"
MANIFEST = "cuconform-toolkit.json"
META_PACKAGE = "cuda-toolkit"

# The parts a toolkit needs, by their 13.x names; 12.x adds "-cu12" (and has no nvvm or crt wheel: both are in nvcc's).
PARTS = (
    "nvidia-cuda-nvcc",
    "nvidia-nvvm",
    "nvidia-cuda-crt",
    "nvidia-cuda-runtime",
    "nvidia-cuda-nvrtc",
    "nvidia-cuda-cccl",
)
# What nvcc needs to build the suite (relative to the root); a toolkit missing one of these is incomplete.
REQUIRED = (
    "bin/nvcc",
    "bin/nvcc.profile",
    "bin/cudafe++",
    "bin/ptxas",
    "bin/fatbinary",
    "bin/nvlink",
    "nvvm/bin/cicc",
    "nvvm/libdevice/libdevice.10.bc",
    "include/cuda_runtime.h",
    "include/crt/host_config.h",
    "include/nvrtc.h",
    "lib/libcudart_static.a",
    "lib/libcudadevrt.a",
    "lib/libnvrtc.so",
)


class ToolkitError(Exception):
    """The toolkit could not be installed; str() is one line for the user."""


@dataclass(frozen=True)
class Pin:
    name: str  # nvidia-cuda-nvcc
    version: str  # 13.5.37 (the meta-package's "==13.5.37.*" without the wildcard)

    @property
    def requirement(self) -> str:
        return f"{self.name}=={self.version}.*"


def meta_requirement(version: str) -> str:
    """`cuda-toolkit==13.5.*` for a release given as 13.5, `cuda-toolkit==13.5.0` for an exact one."""
    if not re.fullmatch(r"\d+\.\d+(\.\d+)*", version):
        raise ToolkitError(f"{version}: a toolkit version is MAJOR.MINOR (13.5) or exact (13.5.0)")
    return f"{META_PACKAGE}=={version}" if version.count(".") >= 2 else f"{META_PACKAGE}=={version}.*"


def part_names(major: int) -> list[str]:
    if major >= 13:
        return list(PARTS)
    return [f"{name}-cu{major}" for name in PARTS if name not in ("nvidia-nvvm", "nvidia-cuda-crt")]


def pins_from_metadata(metadata: str, major: int) -> list[Pin]:
    """The parts' versions as the meta-package's METADATA pins them (`Requires-Dist: nvidia-cuda-nvcc==13.5.37.*;
    ... extra == 'nvcc'`), in PARTS order; ToolkitError naming a part it does not pin."""
    pinned: dict[str, str] = {}
    for line in metadata.splitlines():
        match = re.match(r"Requires-Dist:\s*([A-Za-z0-9_.-]+)\s*==\s*([0-9][0-9A-Za-z.]*?)(\.\*)?\s*(;|$)", line)
        if match:
            pinned.setdefault(match.group(1).lower(), match.group(2))
    pins, absent = [], []
    for name in part_names(major):
        if name in pinned:
            pins.append(Pin(name, pinned[name]))
        else:
            absent.append(name)
    if absent:
        raise ToolkitError(f"{META_PACKAGE} pins no version of {', '.join(absent)}")
    return pins


def wheel_metadata(wheel: Path) -> str:
    with zipfile.ZipFile(wheel) as archive:
        name = next((n for n in archive.namelist() if n.endswith(".dist-info/METADATA")), None)
        if name is None:
            raise ToolkitError(f"{wheel.name} has no METADATA")
        return archive.read(name).decode("utf-8", errors="replace")


def wheel_version(wheel: Path) -> str:
    """The version in a wheel's file name (name-VERSION-tags.whl)."""
    return wheel.name.split("-")[1]


def _version_key(wheel: Path) -> list[int]:
    return [int(part) if part.isdigit() else 0 for part in wheel_version(wheel).split(".")]


def layout_path(member: str) -> str | None:
    """Where a wheel's file goes in the toolkit root, or None for a file the toolkit does not keep.
    13.x: nvidia/cu13/<path> -> <path>. 12.x: nvidia/<part>/<path> -> <path>, with nvcc's nvvm/lib64 kept
    and CCCL's headers at include/ (12.x has no include/cccl/)."""
    parts = member.split("/")
    if len(parts) < 3 or parts[0] != "nvidia" or member.endswith("/"):
        return None
    inner = "/".join(parts[2:])
    if parts[-1] == "__init__.py" or inner.startswith(".metadata/"):
        return None
    return inner


def download(requirements: list[str], into: Path, pip: list[str] | None = None) -> None:
    """`pip download --no-deps` of the requirements into `into` (kept: a second install downloads nothing)."""
    into.mkdir(parents=True, exist_ok=True)
    command = [
        *(pip or [sys.executable, "-m", "pip"]),
        "download",
        "--no-deps",
        "--disable-pip-version-check",
        "--quiet",
        "--dest",
        str(into),
        *requirements,
    ]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        lines = [line for line in (done.stderr + done.stdout).splitlines() if line.strip()]
        raise ToolkitError(f"pip download {' '.join(requirements)}: {lines[-1] if lines else done.returncode}")


def find_wheel(folder: Path, name: str, version: str | None) -> Path | None:
    """The newest wheel of `name` (its version starting with `version` when given) in `folder`."""
    stem = name.replace("-", "_").lower()
    found = []
    for wheel in folder.glob("*.whl"):
        fields = wheel.name.split("-")
        if fields[0].lower() != stem:
            continue
        if version is None or fields[1] == version or fields[1].startswith(version + "."):
            found.append(wheel)
    return max(found, key=_version_key, default=None)


def resolve(version: str, wheels: Path = WHEELS, pip: list[str] | None = None) -> tuple[str, list[Pin], Path]:
    """The exact release, its parts' pins and the meta-package wheel, for VERSION as given."""
    requirement = meta_requirement(version)
    download([requirement], wheels, pip)
    exact = version if version.count(".") >= 2 else None
    candidates = [
        w
        for w in wheels.glob("cuda_toolkit-*.whl")
        if (wheel_version(w) == exact if exact else wheel_version(w).startswith(version + "."))
    ]
    if not candidates:
        raise ToolkitError(f"{requirement}: downloaded, but no such wheel in {wheels}")
    meta = max(candidates, key=_version_key)
    release = wheel_version(meta)
    return release, pins_from_metadata(wheel_metadata(meta), int(release.split(".")[0])), meta


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def unpack(wheel: Path, root: Path) -> list[str]:
    """Extracts the wheel's toolkit files into root (executables keep their mode); returns their paths."""
    written = []
    with zipfile.ZipFile(wheel) as archive:
        for info in archive.infolist():
            target = layout_path(info.filename)
            if target is None:
                continue
            path = root / target
            path.parent.mkdir(parents=True, exist_ok=True)
            with archive.open(info) as source, path.open("wb") as sink:
                shutil.copyfileobj(source, sink)
            mode = (info.external_attr >> 16) & 0o777
            if mode:
                path.chmod(mode)
            written.append(target)
    return written


def finish_layout(root: Path) -> None:
    """What a toolkit has beside the wheels' files: executables marked so, the unversioned .so links CMake's
    find_library looks for, lib64/ (the name FindCUDAToolkit and nvcc.profile of an installed toolkit use) and,
    for 12.x, libnvvm where nvcc.profile's installed layout expects it."""
    for folder in (root / "bin", root / "nvvm" / "bin"):
        for tool in folder.glob("*") if folder.is_dir() else []:
            if tool.is_file() and tool.suffix not in (".profile", ".stub", ".h"):
                tool.chmod(tool.stat().st_mode | 0o755)
    lib = root / "lib"
    for versioned in sorted(lib.glob("lib*.so.*")) if lib.is_dir() else []:
        stem = versioned.name.split(".so.")[0]
        if "builtins" in stem or ".alt" in versioned.name:
            continue
        plain = lib / f"{stem}.so"
        if not plain.exists():
            plain.symlink_to(versioned.name)
    lib64 = root / "lib64"
    if lib.is_dir() and not lib64.exists():
        lib64.symlink_to("lib")


def missing_files(root: Path) -> list[str]:
    return [path for path in REQUIRED if not (root / path).exists()]


def nvcc_version(root: Path) -> str | None:
    """'13.5.37' from `nvcc --version` ('Cuda compilation tools, release 13.5, V13.5.37')."""
    nvcc = root / "bin" / "nvcc"
    if not nvcc.exists():
        return None
    try:
        done = subprocess.run([str(nvcc), "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    match = re.search(r"\bV(\d+\.\d+\.\d+)", done.stdout)
    return match.group(1) if match else None


def read_manifest(root: Path) -> dict | None:
    try:
        return json.loads((root / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def install(
    version: str, toolkits: Path = TOOLKITS, wheels: Path = WHEELS, pip: list[str] | None = None, log=print
) -> Path:
    """Lays out the toolkit of `version` under toolkits/<release>/ and returns its root. Idempotent: a root whose
    manifest names the same wheels (by digest) is left as it is."""
    release, pins, meta = resolve(version, wheels, pip)
    download([pin.requirement for pin in pins], wheels, pip)
    parts = []
    for pin in pins:
        wheel = find_wheel(wheels, pin.name, pin.version)
        if wheel is None:
            raise ToolkitError(f"{pin.requirement}: downloaded, but no such wheel in {wheels}")
        parts.append({"name": pin.name, "version": wheel_version(wheel), "wheel": wheel.name, "sha256": sha256(wheel)})
    root = toolkits / release
    previous = read_manifest(root)
    if previous and previous.get("parts") == parts and missing_files(root) == previous.get("missing"):
        log(f"toolkit {release}: already laid out in {root}")
        return root
    toolkits.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{release}-", dir=toolkits))
    staging.chmod(0o755)
    try:
        for part in parts:
            log(f"toolkit {release}: unpacking {part['wheel']}")
            unpack(wheels / part["wheel"], staging)
        finish_layout(staging)
        missing = missing_files(staging)
        manifest = {
            "release": release,
            "meta_package": meta.name,
            "parts": parts,
            "missing": missing,
            "complete": not missing,
            "nvcc_version": nvcc_version(staging),
        }
        if missing and not {"include/nvrtc.h", "lib/libnvrtc.so"} & set(missing):
            manifest["nvrtc_compile"] = build_nvrtc_compile(staging, log)
        (staging / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
        if root.exists():
            shutil.rmtree(root)
        staging.rename(root)
    finally:
        if staging.exists():
            shutil.rmtree(staging)
    if missing:
        log(f"toolkit {release}: incomplete, the index's wheels lack {', '.join(missing)}: it cannot build the suite")
    return root


NVRTC_SOURCES = ("suites/nvrtc/nvrtc_compile.cpp", "suites/nvrtc/nvrtc_program.cpp")


def build_nvrtc_compile(root: Path, log=print) -> str | None:
    """For a toolkit that cannot build the suite but has NVRTC (12.x from the index): bin/nvrtc-compile, NVRTC on
    the command line (suites/nvrtc), built by the host C++ compiler against this toolkit's NVRTC, so that the
    compile-time rules run through this release's compiler front end (CUCONFORM_NVRTC_COMPILE). Its path, or
    None when it cannot be built (said in one line)."""
    compiler = os.environ.get("CXX") or shutil.which("c++") or shutil.which("g++")
    if compiler is None:
        log("toolkit: no host C++ compiler (c++): bin/nvrtc-compile not built")
        return None
    output = root / "bin" / "nvrtc-compile"
    output.parent.mkdir(parents=True, exist_ok=True)
    command = [
        compiler,
        "-O1",
        "-std=c++17",
        *[str(REPO / source) for source in NVRTC_SOURCES],
        f"-I{REPO / 'suites' / 'nvrtc'}",
        f"-I{root / 'include'}",
        f"-L{root / 'lib'}",
        "-lnvrtc",
        "-Wl,-rpath,$ORIGIN/../lib",
        "-o",
        str(output),
    ]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        log(f"toolkit: bin/nvrtc-compile not built: {(done.stderr.strip().splitlines() or ['?'])[-1]}")
        return None
    return "bin/nvrtc-compile"


CARRY = REPO / ".carry"
NOT_CARRIED = ("cuconform-compile",)  # the compile-time rules run where the toolkit is


def pack(build_dir: Path, archive: Path | None = None, log=print) -> Path:
    """build_dir's bin/ and cuconform-build.json as <archive> (.carry/<build>.tar.xz), paths relative to build/.

    A build made against a toolkit of `install` (build/clang-cuda12.9: its cuconform-nvrtc loads libnvrtc.so.12)
    finds that toolkit's shared libraries through an absolute RUNPATH that the GPU machine lacks, and that machine has
    another CUDA: the pack carries those libraries into <build>/lib/, which every suite binary also searches
    ($ORIGIN/../lib, cmake/CuconformSuite.cmake). Libraries of the system's toolkit are left to the machine's own."""
    import tarfile

    if not (build_dir / "bin").is_dir() or not (build_dir / "cuconform-build.json").is_file():
        raise ToolkitError(f"{build_dir}: no bin/ and cuconform-build.json: build it first (scripts/conformance build)")
    archive = archive or CARRY / f"{build_dir.name}.tar.xz"
    archive.parent.mkdir(parents=True, exist_ok=True)
    binaries = [
        path for path in sorted((build_dir / "bin").iterdir()) if path.is_file() and path.name not in NOT_CARRIED
    ]
    libraries = toolkit_libraries(binaries)
    with tarfile.open(archive, "w:xz", preset=6) as tar:
        tar.add(build_dir / "cuconform-build.json", f"{build_dir.name}/cuconform-build.json")
        for path in binaries:
            tar.add(path, f"{build_dir.name}/bin/{path.name}")
        for name, path in libraries.items():
            tar.add(path, f"{build_dir.name}/lib/{name}")  # the file itself, under the name the loader asks for
            log(f"pack: lib/{name} from {path} ({path.stat().st_size / 2**20:.0f} MiB)")
    return archive


def toolkit_libraries(binaries: list[Path]) -> dict[str, Path]:
    """The shared libraries that `binaries` load from a toolkit of `install` (a folder whose parent holds MANIFEST),
    by the name the loader asks for, with the files that one of them opens by name at run time: NVRTC's
    libnvrtc-builtins.so.<release>, which libnvrtc finds beside itself ($ORIGIN)."""
    found: dict[str, Path] = {}
    for binary in binaries:
        try:
            done = subprocess.run(["ldd", str(binary)], capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise ToolkitError(f"cannot read the libraries {binary} loads (ldd): {error}") from None
        for line in done.stdout.splitlines():
            name, arrow, where = line.strip().partition(" => ")
            path = Path(where.split(" (")[0]) if arrow and where.startswith("/") else None
            if path is None or not (path.resolve().parent.parent / MANIFEST).is_file():
                continue
            found[name] = path.resolve()
            if name.startswith("libnvrtc.so"):
                for builtins in sorted(path.resolve().parent.glob("libnvrtc-builtins.so.*")):
                    found[builtins.name] = builtins
    return found


def folder_size(root: Path) -> int:
    return sum(path.stat().st_size for path in root.rglob("*") if path.is_file() and not path.is_symlink())


def build_name(release: str, preset: str = "gpu") -> str:
    """The build folder of a preset built by a toolkit: build/gpu-cuda13.5.0."""
    return f"{preset}-cuda{release}"


def cmake_cache_arguments(root: Path) -> list[str]:
    """The cache entries that make CMake build with the toolkit at `root`."""
    return [f"-DCMAKE_CUDA_COMPILER={root / 'bin' / 'nvcc'}", f"-DCUDAToolkit_ROOT={root}"]


def release_of(root: Path) -> str:
    manifest = read_manifest(root)
    if manifest and manifest.get("release"):
        return manifest["release"]
    version = nvcc_version(root)
    if version is None:
        raise ToolkitError(f"{root}: no {MANIFEST} and no bin/nvcc: not a CUDA toolkit")
    return version


def environment_for(root: Path) -> dict[str, str]:
    """The process environment under which the toolkit's NVRTC is the one found at run time."""
    env = dict(os.environ)
    lib = str(root / "lib")
    env["LD_LIBRARY_PATH"] = lib + (":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
    return env
