"""Stage 2 of a run, resolve expectations: which entry of expectations/ holds for each selected test.

A pure function of the expectation files, the device's compute capability, what picks an entry (the build's
compiler, the sanitizer tool, the profile) and the tests: `resolve` runs nothing and reads nothing. Its result,
`Resolved`, gives the run stage what judges each raw result and the report stage the chain and the stale entries.
Before the device is known only `skipped_somewhere` can be asked: whether any file says a test must not run.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from cuconform.catalog import TestCase
from cuconform.expectations import Expectation, Expectations, ExpectationFile, chain_names, dated_skips
from cuconform.kinds import Profile
from cuconform.stage_select import Selected
from cuconform.status import Expected


@dataclass(frozen=True)
class Judging:
    """What chooses among the entries, besides the test: the build's compiler, the sanitizer tool, the profile, the
    CUDA toolkit the build used."""

    compiler: str | None
    compiler_version: str | None
    sanitizer: str | None
    profile: Profile | str | None
    toolkit_version: str | None = None

    @classmethod
    def of(cls, build: dict, sanitizer: str | None, profile: Profile | str | None) -> "Judging":
        return cls(
            build.get("compiler"), build.get("compiler_version"), sanitizer or None, profile, build.get("cuda_toolkit")
        )

    def entry_for(self, chain: Expectations, case: TestCase) -> Expectation | None:
        if case.compiler is not None:  # a compile-time rule: its own compiler, not the build's
            # nvcc's and NVRTC's versions are their toolkit's; clang compiles the build's toolkit's headers
            toolkit = case.compiler_version if case.compiler in ("nvcc", "nvrtc") else None
            return chain.lookup(
                case.expectation_id,
                case.compiler,
                case.compiler_version,
                toolkit_version=toolkit or self.toolkit_version,
            )
        return chain.lookup(
            case.expectation_id,
            self.compiler,
            self.compiler_version,
            self.sanitizer,
            self.profile,
            self.toolkit_version,
        )


@dataclass(frozen=True)
class Resolved:
    """What resolve hands on: the chain of the device's CC, each selected test's entry, the stale entries."""

    chain: tuple[str, ...]  # the files of the chain, most specific first
    entries: Mapping[str, Expectation | None]  # test id -> the entry that holds for it (None: none does)
    stale: tuple[Expectation, ...]

    def entry(self, test_id: str) -> Expectation | None:
        return self.entries.get(test_id)


def chain_of(files: Mapping[str, ExpectationFile], cc: str | None) -> Expectations:
    """The files that hold for a device of `cc`: sm_90 -> sm_9x -> common, those that exist (after the skips of
    the rules spec/ dates)."""
    return Expectations([files[name] for name in chain_names(cc) if name in files], dated_skips())


def resolve(
    selected: Selected, files: Mapping[str, ExpectationFile], cc: str | None, judging: Judging, listed: list[TestCase]
) -> Resolved:
    """Each selected test's entry; the entries that match no test of the `listed` binaries are stale."""
    chain = chain_of(files, cc)
    entries = {case.test_id: judging.entry_for(chain, case) for case in selected.cases}
    return Resolved(tuple(chain.chain), MappingProxyType(entries), tuple(stale_entries(chain, listed)))


def stale_entries(chain: Expectations, listed: list[TestCase]) -> list[Expectation]:
    """Entries of the chain that match no listed test. An entry naming an area this run did not list cannot be
    judged, and is left out."""
    areas = {case.area for case in listed}

    def judged(entry: Expectation) -> bool:
        return all(any(fnmatch.fnmatchcase(area, p.split("/", 1)[0]) for area in areas) for p in entry.tests)

    return [entry for entry in chain.stale([case.test_id for case in listed]) if judged(entry)]


def skipped_somewhere(files: Mapping[str, ExpectationFile], judging: Judging):
    """Whether an entry of any expectation file says 'skip' for a test (a known hang on some GPU), as a predicate
    over tests: before the device is known, such a test must not start."""
    skips = [
        *dated_skips(),
        *(entry for file in files.values() for entry in file.expectations if entry.status is Expected.SKIP),
    ]

    def skipped(case: TestCase) -> bool:
        return any(
            entry.matches(
                case.expectation_id,
                judging.compiler,
                judging.compiler_version,
                judging.sanitizer,
                judging.profile,
                judging.toolkit_version,
            )
            for entry in skips
        )

    return skipped
