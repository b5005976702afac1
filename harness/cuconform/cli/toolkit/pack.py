"""scripts/toolkit pack BUILD_DIR: a build's binaries in one .tar.xz to carry to a GPU machine (toolkit.py)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cuconform import toolkit

HELP = "a build's binaries in one .tar.xz to carry to a GPU machine"
DESCRIPTION = (
    "Packs BUILD_DIR's bin/ (the suite binaries, cuconform-deviceinfo, nvrtc-compile; not "
    "cuconform-compile: the compile-time rules need the toolkit, so they run where it is) and "
    "cuconform-build.json into "
    ".carry/<build>.tar.xz, with the shared libraries its binaries load from a toolkit of `install` (libnvrtc.so.12 "
    "and its builtins for a build against 12.9) in <build>/lib/, where the binaries look after the toolkit's folder. "
    "On the GPU machine: tar -xJf .carry/<build>.tar.xz -C build/, then "
    "scripts/conformance run --build-dir build/<build> --no-build. Prints the archive and its size."
)
EPILOG = "exit codes: 0 packed, 2 bad input"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("build_dir", type=Path)
    parser.add_argument("--output", type=Path, help="the archive (default: .carry/<build>.tar.xz)")


def run(args: argparse.Namespace) -> int:
    try:
        archive = toolkit.pack(args.build_dir.resolve(), args.output)
    except toolkit.ToolkitError as error:
        print(f"scripts/toolkit: {error}", file=sys.stderr)
        return 2
    print(f"{archive} ({archive.stat().st_size / 2**20:.1f} MiB)")
    return 0
