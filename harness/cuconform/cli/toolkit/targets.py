"""scripts/toolkit targets [TARGET...]: compile-only validation of the suite per target (targets.py does it)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cuconform import targets, toolkit
from cuconform.environment import REPO

HELP = "build the suite and run the compile-time rules per target"
DESCRIPTION = targets.__doc__
EPILOG = "exit codes: 0 every target built and its rules ran as expected, 1 otherwise, 2 bad input"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "targets",
        nargs="*",
        type=targets.target_name,
        default=list(targets.DEFAULT_TARGETS),
        metavar="TARGET",
        help=f"targets as CMake spells them (default: {' '.join(targets.DEFAULT_TARGETS)})",
    )
    parser.add_argument("--cuda-root", type=Path, metavar="DIR", help="another toolkit (scripts/toolkit install)")
    parser.add_argument("--preset", default="ci", help="the preset built per target (default: ci, nvcc)")
    parser.add_argument(
        "--rules-only",
        action="store_true",
        help="build only what the compile-time rules need (nvrtc-compile), not the suite",
    )
    parser.add_argument("--build-jobs", type=int, metavar="N", help="parallel compile jobs (default: CMake's)")
    parser.add_argument("--host-jobs", type=int, metavar="N", help="compile-time rules at a time (default: cores)")
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="PATTERN",
        help="only these compile-time rules (fnmatch over test ids, e.g. 'compile/Wmma*')",
    )
    parser.add_argument(
        "--output",
        type=Path,
        default=REPO / "reports" / "targets",
        metavar="DIR",
        help="where each target's report folder and matrix.md/matrix.json go (default: reports/targets/)",
    )


def run(args: argparse.Namespace) -> int:
    try:
        return targets.validate_all(args)
    except toolkit.ToolkitError as error:
        print(f"scripts/toolkit: {error}", file=sys.stderr)
        return 2
