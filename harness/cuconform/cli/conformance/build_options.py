"""What `run`, `list` and `build` share: the options that choose a build (--preset or --build-dir, --cuda-root,
--arch, --no-build, --build-jobs) and the areas and rules (--area, --rule, --exclude-rule), the build folder they
name, and the errors that are bad input for all three (one line on stderr, exit 2)."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from cuconform import build, options
from cuconform.catalog import CatalogError, area_of, find_binaries, is_suite_binary, suite_areas
from cuconform.expectations import ExpectationError
from cuconform.journal import JournalError
from cuconform.options import OptionError, Settings
from cuconform.shard import SelectionError
from cuconform.spec import SpecError

EXIT_OK, EXIT_UNEXPECTED, EXIT_BAD_INPUT = 0, 1, 2
# Errors whose str() is the one line a user sees: the command prints it and exits 2.
BAD_INPUT = (build.BuildError, CatalogError, ExpectationError, JournalError, OptionError, SelectionError, SpecError)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--preset",
        help=f"CMake preset to build and run: {', '.join(build.presets())} "
        "(default: gpu when nvidia-smi -L finds a GPU, else ci)",
    )
    options.add_arguments(where, ["build-dir"])
    parser.add_argument("--no-build", action="store_true", help="do not configure or build; run what is there")
    parser.add_argument("--build-jobs", metavar="N", help="parallel compile jobs for the build (default: CMake's)")
    parser.add_argument(
        "--cuda-root",
        type=Path,
        metavar="DIR",
        help="build with the CUDA toolkit at DIR (scripts/toolkit install prints one) instead of "
        "the one CMake finds: the build folder is build/<preset>-cuda<release>",
    )
    parser.add_argument(
        "--arch",
        metavar="LIST",
        help="the targets to build device code for, as CMAKE_CUDA_ARCHITECTURES takes them "
        "(80, 90a, 100f, 80;90; clang presets: one, as sm_80): the build folder gains -sm<LIST>",
    )
    parser.add_argument(
        "--area",
        action="append",
        default=[],
        metavar="AREA",
        help="only this area's binary (cuconform-AREA); repeat or comma-separate for several",
    )
    options.add_arguments(parser, ["rule", "exclude-rule"])


def split_areas(args: argparse.Namespace) -> None:
    """--area sync,atomics --area math: one list."""
    args.area = [area for value in args.area for area in value.split(",") if area]


def where(args: argparse.Namespace, settings: Settings, building: bool = False) -> tuple[str | None, Path]:
    """The preset (None: an existing build folder) and the build folder; checks --preset, --build-jobs, --area and
    whether the build can be made on this machine (OptionError). `building`: for `build`, which defaults to the ci
    preset when --arch is given."""
    presets = build.presets()
    if args.preset is not None and args.preset not in presets:
        raise OptionError(f"--preset={args.preset}: must be one of {', '.join(presets)}")
    if args.build_jobs is not None:
        args.build_jobs = options.Option(
            "build-jobs", int, int, None, "", allowed="a whole number greater than 0", valid=lambda v: v > 0
        ).value(args.build_jobs, "--build-jobs")
    preset = args.preset
    if settings.build_dir is not None:
        if args.cuda_root is not None or args.arch is not None:
            raise OptionError("--cuda-root and --arch choose how a preset is built: give --preset, not --build-dir")
        build_dir = settings.build_dir.resolve()
        if not build_dir.is_dir():
            raise OptionError(f"--build-dir={settings.build_dir}: no such folder")
    else:
        preset = preset or ("ci" if building and args.arch else build.default_preset())
        if args.cuda_root is not None:
            args.cuda_root = args.cuda_root.resolve()
            if not (args.cuda_root / "bin" / "nvcc").exists():
                raise OptionError(
                    f"--cuda-root={args.cuda_root}: no bin/nvcc there (scripts/toolkit install "
                    "VERSION lays out a toolkit and prints its root)"
                )
        if args.arch is not None and not re.fullmatch(
            r"(sm_)?\d+[af]?(-real|-virtual)?(;\d+[af]?(-real|-virtual)?)*", args.arch
        ):
            raise OptionError(f"--arch={args.arch}: a CUDA architecture list as CMake takes it: 80, 90a, 100f, 80;90")
        build_dir = build.build_dir_of(preset, args.cuda_root, args.arch)
        configured = (build_dir / "CMakeCache.txt").exists()
        if preset == "gpu" and args.arch is None and not args.no_build and not configured and not build.gpu_present():
            raise OptionError(
                "--preset=gpu: builds for this machine's GPU, and nvidia-smi -L finds none: use "
                "--preset ci or clang here (or --build-dir with a build made on a GPU machine)"
            )
    known = known_areas(
        build_dir, will_build=not args.no_build and (preset is not None or (build_dir / "CMakeCache.txt").exists())
    )
    for area in args.area:
        if area not in known:
            raise OptionError(f"--area={area}: no such area (areas: {', '.join(sorted(known)) or 'none'})")
    return preset, build_dir


def known_areas(build_dir: Path, will_build: bool) -> set[str]:
    """The areas whose binaries the run can have: those built, and those of suites/ when it builds."""
    bin_dir = build_dir / "bin"
    known = {area_of(path) for path in bin_dir.iterdir() if is_suite_binary(path)} if bin_dir.is_dir() else set()
    if will_build:
        known |= suite_areas()
    return known


def ensure_built(args: argparse.Namespace, preset: str | None, build_dir: Path, always: bool) -> None:
    """Configures and builds the build folder unless --no-build (`always`: let ninja check every target)."""
    if not args.no_build:
        build.ensure_built(
            build_dir,
            preset,
            args.build_jobs,
            always=always,
            cache=build.cache_arguments(preset, args.cuda_root, args.arch),
        )


def binaries(args: argparse.Namespace, build_dir: Path) -> list[Path]:
    """The suite binaries of the chosen areas (all without --area); none is bad input."""
    found = find_binaries(build_dir / "bin", args.area or None)
    if not found:
        raise CatalogError(
            f"no suite binaries in {build_dir / 'bin'}: build it first (scripts/conformance run builds what is missing)"
        )
    return found
