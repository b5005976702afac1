"""Stage 1 of a run, select: which tests this run runs (session.py says the order of the stages).

The binaries of one build are listed (`--cuconform_list`, catalog.py), --rule keeps the tests it names and
--exclude-rule leaves out those it names (pytest's -k, -m and --deselect choose among its items before this stage
sees them), and `--shard K/N` takes this run's share (shard.py). The result, `Selected`, goes to every later stage.
Choosing tests reads no expectation file and no journal: whether a resumed run selected the same tests is the
journal stage's question.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from cuconform.catalog import BinaryCannotStart, CatalogError, TestCase, list_binary
from cuconform.shard import Selection, SelectionError, Shard

LIST_WORKERS = 16  # binaries listed at once
_WILDCARD = re.compile(r"[*?[]")  # what makes an fnmatch pattern more than the text it matches


class Catalog:
    """The tests of the binaries of one build, each binary listed once (in the background when prefetched)."""

    def __init__(self, build_dir: Path):
        self.build_dir = build_dir.resolve()
        self.listed: dict[Path, list[TestCase]] = {}
        # The binaries that do not start on this machine, each with the one line that says why: the run goes on
        # without their tests, says so in its console summary and results.json (`unstartable`), and exits 1.
        self.unstartable: dict[Path, str] = {}
        self._pending: dict[Path, Future] = {}

    def prefetch(self, binaries: list[Path]) -> None:
        """Lists the binaries in the background, all at once, while pytest starts."""
        pool = ThreadPoolExecutor(max_workers=min(LIST_WORKERS, max(1, len(binaries))), thread_name_prefix="list")
        for binary in binaries:
            self._pending[binary.resolve()] = pool.submit(list_binary, binary.resolve())
        pool.shutdown(wait=False)

    def list(self, binary: Path) -> list[TestCase]:
        binary = binary.resolve()
        if binary.parent.parent != self.build_dir:
            raise CatalogError(f"{binary} is not a binary of the build {self.build_dir}: one run covers one build")
        if binary not in self.listed:
            pending = self._pending.pop(binary, None)
            try:
                self.listed[binary] = pending.result() if pending else list_binary(binary)
            except BinaryCannotStart as error:
                self.unstartable[binary] = str(error)
                self.listed[binary] = []
        return self.listed[binary]

    def cases(self) -> list[TestCase]:
        """Every test of the binaries listed so far (the expectations' stale entries are judged against them)."""
        return [case for cases in self.listed.values() for case in cases]


def by_rules(
    cases: list[TestCase], rules: tuple[str, ...] | list[str], excluded: tuple[str, ...] | list[str] = ()
) -> list[TestCase]:
    """The tests that --rule `rules` select (all of them without a pattern), less those that an --exclude-rule
    pattern of `excluded` matches. A pattern without a wildcard names one rule or test id and is looked up in a set,
    so that thousands of them (a mutation campaign's focused tests over many binaries, and the baseline failures it
    leaves out) cost no more than a few."""
    if rules:
        chosen = _matcher(rules)
        cases = [case for case in cases if chosen(case)]
    if excluded:
        left_out = _matcher(excluded)
        cases = [case for case in cases if not left_out(case)]
    return list(cases)


def _matcher(patterns: tuple[str, ...] | list[str]) -> Callable[[TestCase], bool]:
    """Whether one of `patterns` (fnmatch, over the rule id or the test id) matches a test."""
    exact = {pattern for pattern in patterns if not _WILDCARD.search(pattern)}
    wild = [pattern for pattern in patterns if pattern not in exact]
    return lambda case: case.rule_id in exact or case.test_id in exact or bool(wild and case.selected_by(wild))


def filters_text(rules: tuple[str, ...] | list[str], excluded: tuple[str, ...] | list[str] = ()) -> list[str]:
    """--rule and --exclude-rule as the user wrote them, for the line that says they selected nothing."""
    return [f"--rule={pattern}" for pattern in rules] + [f"--exclude-rule={pattern}" for pattern in excluded]


@dataclass(frozen=True)
class Selected:
    """What select hands on: this run's tests, in run order, and the selection they are a share of."""

    cases: tuple[TestCase, ...]
    selection: Selection  # the whole selection before sharding: results.json and the journal record it

    @property
    def test_ids(self) -> list[str]:
        return [case.test_id for case in self.cases]


def select(cases: list[TestCase], shard: Shard | None, before: Selected | None = None) -> Selected:
    """This run's share of `cases` (the tests every filter left, in run order): all of them, or its shard's. A run
    selects once, or twice with the same tests (started before pytest, then from pytest's items): `before`."""
    test_ids = [case.test_id for case in cases]
    selection = Selection.of(test_ids, shard)
    if before is not None and selection != before.selection:
        raise SelectionError(f"pytest selected {selection.size} tests, the run started with {before.selection.size}")
    share = selection.share(test_ids)
    return Selected(tuple(case for case in cases if case.test_id in share), selection)
