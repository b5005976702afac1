"""The three compilers a compile-time rule runs through, and the command line each one gets.

    nvcc    <nvcc> -arch=sm_90 -std=c++17 -c case.cu -o case.o                (-ptx for a PTX check)
    clang   <clang++> -x cuda --cuda-gpu-arch=sm_90 --cuda-path=<toolkit> -isystem <toolkit>/include/cccl
            -O3 -std=c++17 -c case.cu -o case.o                               (--cuda-device-only -S for PTX)

clang gets -O3 because nvcc optimizes device code at -O3 by default and clang at -O0: the generated code that a
PTX check looks at must come from comparable settings.
    nvrtc   <nvrtc-compile> case.cu -arch=sm_90 -std=c++17 -I<toolkit>/include (--ptx case.ptx for PTX)

`nvrtc-compile` is the small NVRTC driver the build makes (suites/nvrtc/nvrtc_compile.cpp). Where a tool is
missing, its rules skip, saying which tool and how to get it. All three take the toolkit's headers from the same
toolkit, so a case that needs one the toolkit lacks (`requires-header:`) skips for all three, saying which.

A compiler that has no such target (clang 22 has no sm_120f) says so in its driver's own words before it reads the
source. Where a case is rejected with those words, the same command compiles an empty file (`probe_target`): if
that is rejected in the same words, the compiler lacks the target and the case skips, naming the compiler, its
version and the target; if the empty file compiles, the rejection is the case's own and it is judged as usual.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass, replace
from pathlib import Path

from cuconform_compile.cases import CompileCase

VERSION_TIMEOUT_S = 30
PROBE_TIMEOUT_S = 120
TARGET_ENV = "CUCONFORM_COMPILE_TARGET"
# Options by which a case chooses its targets itself; the default -arch is then left out.
_TARGET_OPTIONS = (
    "-arch",
    "--gpu-architecture",
    "-gencode",
    "--generate-code",
    "-code",
    "--gpu-code",
    "--cuda-gpu-arch",
    "--offload-arch",
)
_NVCC_VERSION = re.compile(r"release \S+, V(\d+(?:\.\d+)+)")
_CLANG_VERSION = re.compile(r"clang version (\d+(?:\.\d+)+)")
_NVRTC_VERSION = re.compile(r"nvrtc (\d+(?:\.\d+)+)")
# How each compiler's driver says it has no such target: clang "unsupported CUDA gpu architecture: sm_120f"; nvcc
# "Unsupported gpu architecture 'compute_120f'" or, for a name it has never heard of, "Value 'sm_88' is not defined
# for option 'gpu-architecture'"; NVRTC "invalid value for --gpu-architecture (-arch)".
_NO_SUCH_TARGET = re.compile(
    r"unsupported (?:CUDA )?gpu architecture\b|is not defined for option "
    r"'gpu-(?:architecture|code)'|invalid value for --gpu-architecture",
    re.IGNORECASE,
)
PROBE_SOURCE = "empty-target-probe.cu"


@dataclass(frozen=True)
class Toolchain:
    """Where the tools are. Built from the build's compile-rules configuration (suites/compile/CMakeLists.txt),
    each path overridable by an environment variable: CUCONFORM_NVCC, CUCONFORM_CLANG, CUCONFORM_NVRTC_COMPILE,
    CUCONFORM_CUDA_ROOT; and the run's target (CUCONFORM_COMPILE_TARGET, e.g. sm_80; the build's first
    architecture; else each case's own, sm_90 by default)."""

    cuda_root: Path
    nvcc: str
    clang: str
    nvrtc_compile: str
    target: str | None = None

    @classmethod
    def from_config(cls, config: dict) -> "Toolchain":
        env = os.environ
        return cls(
            cuda_root=Path(env.get("CUCONFORM_CUDA_ROOT") or config["cuda_root"]),
            nvcc=env.get("CUCONFORM_NVCC") or config["nvcc"],
            clang=env.get("CUCONFORM_CLANG") or config["clang"],
            nvrtc_compile=env.get("CUCONFORM_NVRTC_COMPILE") or config["nvrtc_compile"],
            target=target_name(env.get(TARGET_ENV) or config.get("target")),
        )

    def tool(self, compiler: str) -> str:
        return {"nvcc": self.nvcc, "clang": self.clang, "nvrtc": self.nvrtc_compile}[compiler]

    def missing(self, compiler: str) -> str | None:
        """Why `compiler` cannot run here (its rules skip with this reason), or None."""
        tool = self.tool(compiler)
        if _resolve(tool) is not None:
            return None
        how = {
            "nvcc": "install the CUDA toolkit or set CUCONFORM_NVCC",
            "clang": "install clang (apt-get install clang-22) or set CUCONFORM_CLANG",
            "nvrtc": "build the target nvrtc-compile (suites/nvrtc) or set CUCONFORM_NVRTC_COMPILE",
        }[compiler]
        return f"{compiler}: {tool} not found: {how}"

    def inputs(self, compiler: str) -> tuple[list[Path], str | None, list[Path]]:
        """What `compiler`'s results depend on besides the case and the command, for the compile cache: its
        installation's files (folders taken whole), the host compiler whose version counts, and the compilers the
        build made (their bytes count, not their dates)."""
        tool = Path(_resolve(self.tool(compiler)) or self.tool(compiler)).resolve()
        headers = [self.cuda_root / "include"]
        if compiler == "nvcc":
            installation = {tool.parent, (self.cuda_root / "bin").resolve()}  # CUCONFORM_NVCC may point elsewhere
            # nvcc runs `gcc` from the PATH (NVCC_CCBIN or -ccbin choose another) for the host side
            return [*sorted(installation), self.cuda_root / "nvvm", *headers], os.environ.get("NVCC_CCBIN") or "gcc", []
        if compiler == "clang":
            llvm = tool.parent.parent  # <llvm>/bin/clang++ -> <llvm>: its lib/clang holds the CUDA wrappers
            # clang takes libstdc++ from the GCC installation it finds: that GCC's version counts
            return [tool, llvm / "lib" / "clang", self.cuda_root / "nvvm" / "libdevice", *headers], "gcc", []
        libraries = sorted((self.cuda_root / "lib64").glob("libnvrtc*"))
        return [*libraries, *headers], None, [tool]

    def header_dirs(self) -> list[Path]:
        """Where the toolkit keeps the headers every compiler here is given: include/, include/cccl/ and, for a
        toolkit laid out by target, targets/<target>/include/."""
        return [
            self.cuda_root / "include",
            self.cuda_root / "include" / "cccl",
            *sorted(self.cuda_root.glob("targets/*/include")),
        ]

    def missing_headers(self, headers: tuple[str, ...]) -> str | None:
        """Why a case that includes `headers` cannot be compiled here (it skips with this reason), or None."""
        dirs = self.header_dirs()
        lacking = [h for h in headers if not any((d / h).is_file() for d in dirs)]
        if not lacking:
            return None
        names = ", ".join(f"<{h}>" for h in lacking)
        return (
            f"the case needs {names}, which the CUDA toolkit at {self.cuda_root} does not have (looked in "
            f"{', '.join(str(d) for d in dirs)}): install the toolkit package that holds it or set "
            f"CUCONFORM_CUDA_ROOT"
        )

    def version(self, compiler: str) -> str | None:
        """The compiler's version ('13.0.88', '22.1.8', '13.0'), None when it cannot tell."""
        tool = _resolve(self.tool(compiler))
        if tool is None:
            return None
        try:
            done = subprocess.run(
                [tool, "--version"], capture_output=True, text=True, timeout=VERSION_TIMEOUT_S, stdin=subprocess.DEVNULL
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
        pattern = {"nvcc": _NVCC_VERSION, "clang": _CLANG_VERSION, "nvrtc": _NVRTC_VERSION}[compiler]
        match = pattern.search(done.stdout + done.stderr)
        return match.group(1) if match else None

    def command(self, compiler: str, case: CompileCase, output: Path, ptx: bool) -> list[str]:
        """The command that compiles `case` with `compiler`, writing the object (or, with ptx=True, the device
        assembly) to `output`."""
        flags = list(case.flags.get(compiler, ()))
        chooses_target = any(flag.split("=")[0] in _TARGET_OPTIONS for flag in flags)
        source = str(case.path)
        std = f"-std={case.std}"
        arch = case.target(self.target)
        if compiler == "nvcc":
            target = [] if chooses_target else [f"-arch={arch}"]
            mode = ["-ptx"] if ptx else ["-c"]
            return [self.nvcc, *target, std, *mode, source, "-o", str(output), *flags]
        if compiler == "clang":
            target = [] if chooses_target else [f"--cuda-gpu-arch={arch}"]
            mode = ["--cuda-device-only", "-S"] if ptx else ["-c"]
            return [
                self.clang,
                "-x",
                "cuda",
                *target,
                f"--cuda-path={self.cuda_root}",
                "-isystem",
                str(self.cuda_root / "include" / "cccl"),
                "-Wno-unknown-cuda-version",
                "-fno-crash-diagnostics",
                "-O3",
                std,
                *mode,
                source,
                "-o",
                str(output),
                *flags,
            ]
        if compiler == "nvrtc":
            target = [] if chooses_target else [f"-arch={arch}"]
            ptx_out = ["--ptx", str(output)] if ptx else []
            return [
                self.nvrtc_compile,
                *ptx_out,
                source,
                *target,
                std,
                f"-I{self.cuda_root / 'include'}",
                f"-I{self.cuda_root / 'include' / 'cccl'}",
                *flags,
            ]
        raise ValueError(f"unknown compiler {compiler!r}")

    def probe_target(self, compiler: str, case: CompileCase, workdir: Path) -> str | None:
        """Whether `compiler` has no target for `case`: the line in which it rejects an empty file compiled with the
        case's command (its target, standard and flags) as a target it does not have, or None when it compiles
        the empty file or rejects it for any other reason."""
        source = workdir / PROBE_SOURCE
        source.write_text("// an empty translation unit: does the compiler have the target?\n", encoding="utf-8")
        empty = replace(case, path=source, outcome="pass", ptx_match=(), ptx_no_match=())
        command = self.command(compiler, empty, workdir / "empty-target-probe.o", ptx=False)
        try:
            done = subprocess.run(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                timeout=PROBE_TIMEOUT_S,
                cwd=workdir,
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
        if done.returncode == 0:
            return None
        return no_such_target(done.stdout.decode("utf-8", errors="backslashreplace"))


def no_such_target(output: str) -> str | None:
    """The line of a compiler's output that says it has no such target, or None."""
    return next((line.strip() for line in output.splitlines() if _NO_SUCH_TARGET.search(line)), None)


def target_name(text: str | None) -> str | None:
    """'80', 'sm_80', '90a-real' (CMAKE_CUDA_ARCHITECTURES' spelling) -> 'sm_80', 'sm_90a'; None for none or
    'native' and the like (each case's own target then)."""
    match = re.fullmatch(r"(?:sm_)?(\d+[af]?)(?:-real|-virtual)?", (text or "").strip())
    return f"sm_{match.group(1)}" if match else None


def _resolve(tool: str) -> str | None:
    """The executable `tool` names (a path or a name on PATH), or None."""
    if os.sep in tool:
        return tool if os.path.isfile(tool) and os.access(tool, os.X_OK) else None
    return shutil.which(tool)
