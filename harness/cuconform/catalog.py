"""What a build holds: its suite binaries and, from `<binary> --cuconform_list`, every test with its rule.

docs/architecture.md, "Listing": one JSON object per line; `rule` is null for a test without a rule annotation.
Every rule's section must be a heading of the section registry (spec/sections/, sections.py).
"""

from __future__ import annotations

import fnmatch
import functools
import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from cuconform import sections
from cuconform.environment import REPO
from cuconform.spec import SpecError

BINARY_PREFIX = "cuconform-"
# A variant of a suite binary, cuconform-<area>@<tag> (a mutant of `conformance mutate`, mutation/batches.py): its
# tests have ids of their own (<area>@<tag>/<test>) and are judged by the expectations of <area>'s tests.
VARIANT_MARK = "@"
NOT_SUITES = frozenset({"cuconform-deviceinfo"})
LIST_TIMEOUT_S = 60
COST_HINTS = ("skip", "cached")


class CatalogError(Exception):
    """A binary that cannot be listed, or lists a test cuconform cannot run; str() is one line for the user."""


class BinaryCannotStart(CatalogError):
    """A binary that does not start on this machine (a shared library it needs is missing, it is not an executable
    for this machine): a fact about the machine, not a defect of the suite, so a run goes on without its tests
    (stage_select.Catalog) where a listing the harness cannot read stops it."""

    def __init__(self, binary: Path, why: str):
        super().__init__(f"{binary.name} cannot start here, its tests were not run: {why}")
        self.binary = binary
        self.why = why


# How the dynamic loader says that a program cannot start (it exits 127 before main): `<program>: error while loading
# shared libraries: libnvrtc.so.12: cannot open shared object file: No such file or directory`.
LOADER_FAILED = 127
LOADER_MESSAGE = "error while loading shared libraries"


@dataclass(frozen=True)
class TestCase:
    """One GoogleTest test of one suite binary, and the rule it checks."""

    binary: Path
    name: str  # GoogleTest full name, e.g. "BlockSizes/SyncthreadsCount.CountsNonZero/13"
    rule_name: str  # "SyncthreadsCount.CountsNonZero"
    section: str
    statement: str
    gpu: bool
    exclusive: bool
    param: str | None = None
    file: str | None = None
    line: int | None = None
    # The compiler of this test and its version, when the binary names one per test (cuconform-compile runs each
    # compile-time rule through nvcc, clang and NVRTC); otherwise the build's compiler applies.
    compiler: str | None = None
    compiler_version: str | None = None
    # A process of its own, started fresh, beside other tests (cuconform::IsolatedGpuTest); exclusive implies neither.
    isolated: bool = False
    # A rule about several GPUs (cuconform::MultiGpuTest): exclusive so that its process sees every GPU of the run.
    multi_gpu: bool = False
    # Its test starts child processes of its binary (CHILD_PROCESS_RULE_F): a process start and a CUDA context each.
    child_processes: bool = False
    # What running it will cost, where its binary knows before it runs (docs/architecture.md, "Listing"): "skip" (it
    # cannot run here), "cached" (a compile-time case whose compiler result the compile cache holds). Only the cost
    # estimate reads it (durations.py).
    cost_hint: str | None = None

    @functools.cached_property
    def area(self) -> str:
        return area_of(self.binary)

    @functools.cached_property
    def test_id(self) -> str:
        return f"{self.area}/{self.name}"

    @functools.cached_property
    def expectation_id(self) -> str:
        """The id that expectation entries name it by: its test id, a variant binary's test by its area's."""
        return f"{self.area.partition(VARIANT_MARK)[0]}/{self.name}"

    @property
    def rule_id(self) -> str:
        return f"{self.area}/{self.rule_name}"

    def selected_by(self, patterns: tuple[str, ...] | list[str]) -> bool:
        """Whether --rule `patterns` (fnmatch, over the rule id or the test id) select this test; none: all do."""
        return not patterns or any(
            fnmatch.fnmatchcase(self.rule_id, pattern) or fnmatch.fnmatchcase(self.test_id, pattern)
            for pattern in patterns
        )


def area_of(binary: Path) -> str:
    return binary.name[len(BINARY_PREFIX) :]


def is_suite_binary(path: Path) -> bool:
    return (
        path.name.startswith(BINARY_PREFIX)
        and path.name not in NOT_SUITES
        and "." not in path.name
        and path.is_file()
        and os.access(path, os.X_OK)
    )


def suite_areas() -> set[str]:
    """The areas of the source tree: each folder of suites/ with a CMakeLists.txt but common/."""
    return {
        folder.name
        for folder in (REPO / "suites").iterdir()
        if (folder / "CMakeLists.txt").exists() and folder.name != "common"
    }


def find_binaries(bin_dir: Path, areas: list[str] | None = None) -> list[Path]:
    """The suite binaries of a build's bin/ folder, sorted; only the named areas when `areas` is given."""
    if not bin_dir.is_dir():
        return []
    found = sorted(path for path in bin_dir.iterdir() if is_suite_binary(path))
    if areas:
        known = {area_of(path): path for path in found}
        unknown = [area for area in areas if area not in known]
        if unknown:
            raise CatalogError(
                f"no area {', '.join(unknown)} in {bin_dir} (areas: {', '.join(sorted(known)) or 'none'})"
            )
        found = [known[area] for area in areas]
    return found


def parse_listing(binary: Path, text: str) -> list[TestCase]:
    """The tests of one listing; raises CatalogError at the first line that is not a well-formed, annotated test
    citing a section of the registry."""
    try:
        registry = sections.load()
    except SpecError as error:
        raise CatalogError(str(error)) from None
    cases = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
            name = entry["test"]
        except (ValueError, KeyError, TypeError):
            raise CatalogError(
                f"{binary.name} --cuconform_list, line {number}: not a test listing: {line[:200]!r}"
            ) from None
        rule = entry.get("rule")
        if not rule:
            where = f" ({entry['file']}:{entry['line']})" if entry.get("file") else ""
            raise CatalogError(
                f"{area_of(binary)}/{name}{where} has no rule annotation: "
                "write it with RULE, RULE_F or RULE_P (docs/architecture.md)"
            )
        section = str(entry.get("section") or "")
        if section not in registry:
            where = f" ({entry['file']}:{entry['line']})" if entry.get("file") else ""
            raise CatalogError(
                f"{area_of(binary)}/{name}{where} cites section {section!r}, which is not in the "
                "section registry (spec/sections/): cite a heading such as '5.4.5.1.3' or "
                "'PG12.9 10.26.4' (docs/architecture.md, 'Sections')"
            )
        cases.append(
            TestCase(
                binary=binary,
                name=name,
                rule_name=rule,
                section=section,
                statement=str(entry.get("statement") or ""),
                gpu=bool(entry.get("gpu")),
                exclusive=bool(entry.get("exclusive")),
                param=entry.get("param"),
                file=entry.get("file"),
                line=entry.get("line"),
                compiler=entry.get("compiler"),
                compiler_version=entry.get("compiler_version"),
                isolated=bool(entry.get("isolated")),
                multi_gpu=bool(entry.get("multi_gpu")),
                child_processes=bool(entry.get("child_processes")),
                cost_hint=entry.get("cost_hint") if entry.get("cost_hint") in COST_HINTS else None,
            )
        )
    return cases


def list_binary(binary: Path) -> list[TestCase]:
    """Runs `<binary> --cuconform_list` (touches no CUDA API) and parses it."""
    try:
        done = subprocess.run(
            [str(binary), "--cuconform_list"], capture_output=True, timeout=LIST_TIMEOUT_S, stdin=subprocess.DEVNULL
        )
    except OSError as error:  # not an executable for this machine, its interpreter missing, ...
        raise BinaryCannotStart(binary, error.strerror or str(error)) from None
    except subprocess.TimeoutExpired as error:
        raise CatalogError(f"cannot list the tests of {binary}: {error}") from None
    if done.returncode != 0:
        detail = done.stderr.decode(errors="backslashreplace").strip().splitlines()[-1:] or [""]
        if done.returncode == LOADER_FAILED and LOADER_MESSAGE in detail[0]:
            raise BinaryCannotStart(binary, detail[0].partition(f"{LOADER_MESSAGE}: ")[2] or detail[0])
        raise CatalogError(f"{binary} --cuconform_list exited with code {done.returncode}: {detail[0]}")
    return parse_listing(binary, done.stdout.decode("utf-8", errors="backslashreplace"))
