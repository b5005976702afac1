"""The areas' modules: the shared batches of several areas in one process, so in one CUDA context.

A build with CUCONFORM_MODULES (the default) links each area's objects twice: into `bin/cuconform-<area>`, and into
`modules/cuconform-<area>.so`, which `modules/cuconform-multi` loads beside other areas' modules
(suites/common/src/multi.cpp; docs/design/processes.md says why: the driver creates contexts one at a time, ~0.2 s
each). The plan (plan.py) puts the ordinary GPU tests of the areas that have a module into shared batches of
cuconform-multi; exclusive, isolated and host tests, and the areas without a module (CUCONFORM_OWN_PROCESS_AREAS,
device-linked suites, a mutant binary), keep processes of their own binary.

In a cuconform-multi batch a test is named by its test id (`<area>/<Suite>.<Test>`): its process prints
"[ AREA     ] <area>" before each area's tests (gtest.py reads it), and its command gives each area its module, its
executable (argv[0]: the rules' child processes run from it) and its part of the filter.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from cuconform.catalog import BINARY_PREFIX

FOLDER = "modules"  # build/<preset>/modules, beside bin/
RUNNER = "cuconform-multi"
SUFFIX = ".so"


def is_runner(binary: Path) -> bool:
    return binary.name == RUNNER


def module_of(binary: Path) -> Path | None:
    """The module of a suite binary, when there is one that was built with it: not older than the binary (a binary
    rebuilt alone, or patched by a mutation campaign, runs as itself)."""
    module = binary.parent.parent / FOLDER / (binary.name + SUFFIX)
    try:
        return module if module.stat().st_mtime >= binary.stat().st_mtime else None
    except OSError:
        return None


def runner_for(binary: Path) -> Path | None:
    """cuconform-multi of the build of `binary`, where that binary has a module it can load."""
    runner = binary.parent.parent / FOLDER / RUNNER
    return runner if module_of(binary) is not None and runner.is_file() else None


def finder() -> Callable[[Path], Path | None]:
    """runner_for, asked once per binary."""
    known: dict[Path, Path | None] = {}

    def find(binary: Path) -> Path | None:
        if binary not in known:
            known[binary] = runner_for(binary)
        return known[binary]

    return find


def command(runner: Path, test_ids: Sequence[str], args: Sequence[str]) -> list[str]:
    """cuconform-multi's arguments for `test_ids` (`<area>/<test>`, each area's tests together, in order): one
    `--part <area> <module> <executable> --gtest_filter=... <args>` per area, in the order of their first test."""
    parts: dict[str, list[str]] = {}
    for test_id in test_ids:
        area, _, name = test_id.partition("/")
        parts.setdefault(area, []).append(name)
    bin_dir = runner.parent.parent / "bin"
    line = [str(runner)]
    for area, names in parts.items():
        executable = bin_dir / (BINARY_PREFIX + area)
        module = runner.parent / (BINARY_PREFIX + area + SUFFIX)
        line += ["--part", area, str(module), str(executable), "--gtest_filter=" + ":".join(names), *args]
    return line
