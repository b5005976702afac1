"""scripts/conformance build: configure and build a preset, optionally with another toolkit (--cuda-root), for
other targets (--arch), or only some areas; prints the build folder last. Needs no GPU."""

from __future__ import annotations

import argparse
import sys

from cuconform import build, options
from cuconform.cli.conformance import build_options
from cuconform.cli.conformance.build_options import BAD_INPUT, EXIT_BAD_INPUT, EXIT_OK
from cuconform.environment import DEVICEINFO

HELP = "configure and build only (another toolkit, other targets)"
DESCRIPTION = (
    "Configures and builds a preset, optionally with another CUDA toolkit (--cuda-root) and for other "
    "targets (--arch); --area builds only those areas' binaries. Prints the build folder as the last line. "
    "Needs no GPU."
)
EPILOG = "exit codes: 0 built, 2 the build failed or a bad option"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    build_options.add_arguments(parser)
    parser.add_argument(
        "--keep-going",
        action="store_true",
        help="build every target that can be built (ninja -k 0); the failures are listed",
    )


def run(args: argparse.Namespace) -> int:
    try:
        settings = options.settings(options.from_arguments(args))
        build_options.split_areas(args)
        preset, build_dir = build_options.where(args, settings, building=True)
        targets = [f"cuconform-{area}" for area in args.area if area != "compile"]
        if "compile" in args.area:
            targets += ["nvrtc-compile"]  # the compile-time rules' script is written when CMake configures
        if args.area:
            targets.append(DEVICEINFO)
        failed = build.ensure_built(
            build_dir,
            preset,
            args.build_jobs,
            always=True,
            cache=build.cache_arguments(preset, args.cuda_root, args.arch),
            targets=targets,
            keep_going=args.keep_going,
        )
    except BAD_INPUT as error:
        print(error, file=sys.stderr)
        return EXIT_BAD_INPUT
    for target in failed:
        print(f"failed: {target}", file=sys.stderr)
    print(build_dir)
    return EXIT_BAD_INPUT if failed else EXIT_OK
