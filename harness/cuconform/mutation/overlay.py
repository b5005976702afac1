"""The overlay build folder of one mutant run: the capture build as the harness sees it, with patched binaries.

    DIR/mutants/<operator>/
        bin/cuconform-<area>        the patched executable of each area the operator changed (a file of its own)
        bin/<every other file>      a link to the capture build's bin/ (cuconform-deviceinfo, ...), suite binaries
                                    of other areas left out: a run of the overlay runs only the mutated areas
        cuconform-build.json, lib/, generated/, ...   links to the capture build's top-level entries

The harness reads a build folder through these (docs/architecture.md): `bin/cuconform-<area>` (resolved: its folder's
parent must be the build folder, so patched binaries are files, not links), `bin/cuconform-deviceinfo`,
`cuconform-build.json` and `lib/` (the math reference). The mutant runs read the machine's kept durations and keep
none of theirs (runs.py: CUCONFORM_KEEP_DURATIONS=0). The CMake files are left out, so the
overlay is no CMake build and `scripts/conformance run` uses it as it is, never rebuilding it.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from cuconform.catalog import is_suite_binary

BIN = "bin"
BUILD_SYSTEM = frozenset(
    {
        "CMakeCache.txt",
        "CMakeFiles",
        "build.ninja",
        ".ninja_deps",
        ".ninja_log",
        "cmake_install.cmake",
        "CTestTestfile.cmake",
        "compile_commands.json",
        "Testing",
    }
)


def make_overlay(build: Path, overlay: Path) -> Path:
    """Makes `overlay` (emptied first) for the capture build `build`, all but the patched binaries, and returns its
    bin/ folder, where the caller writes them (each `bin/cuconform-<area>`, a file)."""
    build = build.resolve()
    if overlay.exists():
        shutil.rmtree(overlay)
    bin_dir = overlay / BIN
    bin_dir.mkdir(parents=True)
    for entry in sorted(build.iterdir()):
        if entry.name in BUILD_SYSTEM or entry.name == BIN:
            continue
        os.symlink(entry, overlay / entry.name)
    for entry in sorted((build / BIN).iterdir()):
        if not is_suite_binary(entry):
            os.symlink(entry, bin_dir / entry.name)
    return bin_dir
