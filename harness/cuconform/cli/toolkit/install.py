"""scripts/toolkit install VERSION: a CUDA toolkit laid out from the package index's wheels (toolkit.py)."""

from __future__ import annotations

import argparse
import sys

from cuconform import toolkit

HELP = "lay out a CUDA toolkit from the package index's wheels"
DESCRIPTION = (
    "Downloads the wheels of CUDA VERSION (pip download --no-deps, through the meta-package cuda-toolkit "
    "that pins each part) and lays out a toolkit under build/toolkits/<release>/. Prints its root last."
)
EPILOG = "exit codes: 0 a complete toolkit, 1 an incomplete one, 2 bad input or a failed download"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("version", help="13.5 (the newest 13.5.x) or an exact release, 13.5.0")


def run(args: argparse.Namespace) -> int:
    try:
        root = toolkit.install(args.version, log=lambda line: print(line, file=sys.stderr, flush=True))
    except toolkit.ToolkitError as error:
        print(f"scripts/toolkit: {error}", file=sys.stderr)
        return 2
    manifest = toolkit.read_manifest(root) or {}
    state = "complete" if manifest.get("complete") else "incomplete: lacks " + ", ".join(manifest.get("missing", []))
    print(
        f"nvcc {manifest.get('nvcc_version') or 'absent'}, {toolkit.folder_size(root) / 2**20:.0f} MiB, {state}",
        file=sys.stderr,
    )
    print(root)
    return 0 if manifest.get("complete") else 1
