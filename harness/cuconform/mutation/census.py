"""A campaign's census: one harness run, before the batches, of every area that has host-side mutants, under
libcuconform-interpose.so in its counting mode (CUCONFORM_RUNTIME_MUTANT=census: every entry point that any operator
wraps is wrapped and counted, none is changed, and each wrapper counts the calls each of its operators would have
changed). A host-side mutant whose operator would have changed no call of its area's census run is `not applicable`
without a run (batches.Planner.runtime_slots): its entry points were never called, or every call was one it passes
through (a launch that succeeded under launch-error-swallowed, an event created without flags under
event-disable-timing-ignored). The others run as before, and their own counts stay the evidence
(classify.from_calls). A census library that does not count what operators would change (no `would-change` file)
settles only the mutants whose entry points were never called.

Why that is exact: a wrapper changes nothing until its operator changes a call, so a mutant's processes behave as the
census's until the first call its operator changes, which is a call the census saw and counted as one the operator
would change; an operator that would change none of the census's calls changes none of the mutant's, and the
mutant's run is the census's, its verdicts the baseline's. The census runs the tests of
the mutants' whole-area runs (every test of the area, less the baseline's failures, with the same profile and
timeout), without --fail-fast: every test runs to its end and counts its calls. An area settles nothing when one of
those tests did not report in the census, or ended otherwise than at baseline (a failed assertion returns, a crash
or a timeout ends the process: the calls it had left were never made; a failure that passed when run again, as at
baseline, made them in its re-run), or when its processes left no operator table (the library was not loaded in that
mode).

Why a run of its own and not the baseline under the library: the baseline is the reference every mutant is judged
against; under the library every driver call of the runtime areas goes through a wrapper and an atomic count, and a
file is written at each process's first call, which changes the timing the ordering rules observe. A separate run
keeps the baseline the suite's plain run.

    DIR/census/
        bin/cuconform-<area>@census   a script: the area's binary under the library in the census mode (overlay.py)
        calls/<area>/                 what the library counted there (runtime_operators.read_calls) and its
                                      operator table (`operators`: "<operator> <entry>..." lines)
        run/, run.log                 the harness run
        census.json                   what the campaign uses: each operator's entry points, per area the entry
                                      points called or why it settles nothing; {"failed": why} for a census that
                                      could not be made (its mutants all run). A resumed campaign reuses it; a
                                      census cut before it was written goes on where it stopped.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from cuconform.files import atomic_write
from cuconform.mutation.batches import MUTANT_MARK
from cuconform.mutation.overlay import make_overlay
from cuconform.mutation.passes import CALLS, as_patterns, tests_by_binary
from cuconform.mutation.plan import Plan
from cuconform.mutation.runs import Harness, partial_run
from cuconform.mutation.runtime_operators import (
    CENSUS,
    OPERATOR_TABLE,
    is_runtime,
    library,
    read_calls,
    wrapper_script,
)

FOLDER = "census"
RESULT = "census.json"
RUN = "run"
FORMAT = 2
ABOUT = "the census: every operator's entry points counted, none changed"


@dataclass(frozen=True)
class Census:
    """What the census found: each operator's entry points (the library's table), per area the entry points its
    tests called, and the areas it cannot settle, with why."""

    wraps: dict[str, frozenset[str]] = field(default_factory=dict)
    called: dict[str, dict[str, int]] = field(default_factory=dict)  # area -> entry point -> calls
    unsettled: dict[str, str] = field(default_factory=dict)  # area -> why its mutants all run
    failed: str | None = None  # why no area settles (the census could not be made)
    would: dict[str, dict[str, int]] = field(default_factory=dict)  # area -> operator -> calls it would change

    def not_applicable(self, operator: str, area: str) -> str | None:
        """Why `operator`'s mutant in `area` is not applicable, or None when it must run (an entry point of its was
        called, the census does not know the operator, or it settles nothing in that area)."""
        entries = self.wraps.get(operator)
        if self.failed or not entries or area not in self.called:
            return None
        wrapped = "entry point" if len(entries) == 1 else f"{len(entries)} entry points"
        calls = sum(count for entry, count in self.called[area].items() if entry in entries)
        if area in self.would:
            if self.would[area].get(operator):
                return None
            if calls or entries & set(self.called[area]):
                return (
                    f"the census: the area's tests made {calls} call{'' if calls == 1 else 's'} of the {wrapped} the "
                    f"operator wraps, none that it would change ({FOLDER}/{RESULT})"
                )
        elif entries & set(self.called[area]):
            return None
        return f"the census: the area's tests made no call of the {wrapped} the operator wraps ({FOLDER}/{RESULT})"

    def document(self) -> dict:
        if self.failed:
            return {"format": FORMAT, "failed": self.failed}
        return {
            "format": FORMAT,
            "operators": {name: sorted(entries) for name, entries in sorted(self.wraps.items())},
            "areas": {
                **{
                    area: {
                        "called": dict(sorted(calls.items())),
                        **({"would_change": dict(sorted(self.would[area].items()))} if area in self.would else {}),
                    }
                    for area, calls in sorted(self.called.items())
                },
                **{area: {"unsettled": why} for area, why in sorted(self.unsettled.items())},
            },
        }

    @classmethod
    def of(cls, document: dict) -> "Census":
        if document.get("failed"):
            return cls(failed=str(document["failed"]))
        areas = document.get("areas") or {}
        return cls(
            {name: frozenset(entries) for name, entries in (document.get("operators") or {}).items()},
            {area: dict(view["called"]) for area, view in areas.items() if isinstance(view.get("called"), dict)},
            {area: str(view["unsettled"]) for area, view in areas.items() if "unsettled" in view},
            would={area: dict(view["would_change"]) for area, view in areas.items() if "would_change" in view},
        )


def areas_to_count(plan: Plan, operators: Iterable) -> tuple[str, ...]:
    """The campaign's areas where one of `operators` (those left to run) is a host-side mutant, in the plan's order."""
    wanted = {area for op in operators if is_runtime(op) for area in op.areas}
    return tuple(area for area in plan.areas if area in wanted)


def take_census(
    plan: Plan,
    harness: Harness,
    baseline: dict,
    areas: tuple[str, ...],
    failures: Callable[[str], list[str]],
    resume: bool,
    say: Callable[[str], None],
) -> tuple[Census, float | None]:
    """The census of `areas` and the seconds it took in this call (None: reused from DIR/census/census.json). The
    mutants' runs leave the baseline's `failures(area)` out: so does the census."""
    folder = plan.output / FOLDER
    kept = _kept(folder / RESULT) if resume else None
    if kept is not None:
        return kept, None
    started = time.monotonic()
    census = _count(plan, harness, baseline, areas, failures, folder, resume, say)
    atomic_write(folder / RESULT, json.dumps(census.document(), indent=1) + "\n")
    seconds = time.monotonic() - started
    if census.failed:
        say(f"time: census failed in {seconds:.1f} s ({census.failed}): every host-side mutant runs")
    else:
        unsettled = f"; {len(census.unsettled)} settle nothing ({', '.join(sorted(census.unsettled))})"
        say(
            f"time: census of {len(areas)} area{'' if len(areas) == 1 else 's'} in {seconds:.1f} s ({folder})"
            + (unsettled if census.unsettled else "")
        )
    return census, seconds


def _kept(path: Path) -> Census | None:
    try:
        document = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return Census.of(document) if isinstance(document, dict) and document.get("format") == FORMAT else None


def _count(
    plan: Plan,
    harness: Harness,
    baseline: dict,
    areas: tuple[str, ...],
    failures: Callable[[str], list[str]],
    folder: Path,
    resume: bool,
    say: Callable[[str], None],
) -> Census:
    interposer = library(plan.build_dir)
    if not interposer.is_file():
        return Census(failed=f"{interposer} is not built")
    binaries = [f"{area}{MUTANT_MARK}{CENSUS}" for area in areas]
    output = folder / RUN
    if resume and partial_run(output):  # cut in a call before: its overlay and counts are kept, its run goes on
        say(f"time: census: going on with the run that was cut ({output})")
        done = harness(folder, binaries, output, (), resume=True)
    else:
        _prepare(plan, folder, areas, interposer)
        excluded = [pattern for area, binary in zip(areas, binaries) for pattern in as_patterns(binary, failures(area))]
        done = harness(folder, binaries, output, (), exclude=excluded)
    if not done.usable:
        return Census(failed=f"the census run: {done.why_not()}")
    ran = tests_by_binary(done.document)
    found = {area: read_calls(folder / CALLS / area) for area in areas}
    if any(calls.unknown_operator for calls in found.values()):
        return Census(failed=f"{interposer} has no census mode (rebuild it: suites/common/interpose)")
    wraps: dict[str, frozenset[str]] = {}
    called: dict[str, dict[str, int]] = {}
    would: dict[str, dict[str, int]] = {}
    unsettled: dict[str, str] = {}
    baseline_tests = {t["id"]: t for t in baseline.get("tests") or [] if isinstance(t, dict) and "id" in t}
    for area, binary in zip(areas, binaries):
        table = _table(folder / CALLS / area / OPERATOR_TABLE)
        wraps.update(table)
        why = _unsettled(area, ran.get(binary, {}), baseline_tests, set(failures(area))) or (
            None if table else f"its processes left no {OPERATOR_TABLE} table (was the library loaded?)"
        )
        if why:
            unsettled[area] = why
            continue
        calls = found[area]
        called[area] = {entry: calls.by_entry.get(entry, 0) for entry in calls.called | set(calls.by_entry)}
        if calls.counts_would:
            would[area] = {op: max(calls.would.get(op, 0), 1) for op in table if calls.would_change(op)}
    return Census(wraps, called, unsettled, would=would)


def _prepare(plan: Plan, folder: Path, areas: tuple[str, ...], interposer: Path) -> None:
    """DIR/census/: an overlay of the build with a census script per area, and an empty calls folder for each."""
    bin_dir = make_overlay(plan.build_dir, folder)  # empties the folder first: a census begun again starts clean
    for area in areas:
        binary = plan.build_dir / "bin" / f"cuconform-{area}"
        calls = folder / CALLS / area
        shutil.rmtree(calls, ignore_errors=True)
        calls.mkdir(parents=True)
        target = bin_dir / f"{binary.name}{MUTANT_MARK}{CENSUS}"
        target.write_text(wrapper_script(binary.resolve(), CENSUS, ABOUT, calls.resolve(), interposer.resolve()))
        target.chmod(0o755)
        for companion in binary.parent.glob(f"{binary.name}.*"):  # files it reads beside itself
            (bin_dir / f"{target.name}{companion.name[len(binary.name) :]}").symlink_to(companion)


def _table(path: Path) -> dict[str, frozenset[str]]:
    """The library's operator table: {operator: its entry points}."""
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError:
        return {}
    return {name: frozenset(entries) for name, *entries in (line.split() for line in lines) if name}


def _unsettled(area: str, ran: dict[str, dict], baseline: dict[str, dict], failed: set[str]) -> str | None:
    """Why the census's tests of `area` cannot settle its mutants, or None: each test the mutants' whole runs take
    (the baseline's, less its failures) reported, and each ended as at baseline (or failed, then passed as there)."""
    wanted = [test_id for test_id in baseline if test_id.split("/", 1)[0] == area and test_id not in failed]
    missing = [test_id for test_id in wanted if test_id not in ran]
    if missing:
        return f"{len(missing)} of its {len(wanted)} tests did not report in the census ({missing[0]} first)"
    for test_id in wanted:
        status, before = ran[test_id].get("status"), baseline[test_id].get("status")
        rerun_passed = ran[test_id].get("verdict") == "flake" and before == "pass"
        if status != before and not rerun_passed:
            return f"{test_id} ended with {status} in the census (at baseline: {before})"
    return None
