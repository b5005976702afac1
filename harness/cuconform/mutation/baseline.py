"""A campaign's baseline: the chosen areas run once through the harness (DIR/baseline/, a normal report folder).
Only the tests that pass or skip there judge mutants (outcome.can_kill), and those that fail there are left out of
the mutants' runs (outcome.failures_of); a mutant's focused tests are the judges written in the files of the objects
it changed."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from cuconform.mutation import outcome
from cuconform.mutation.batches import Slot
from cuconform.mutation.plan import CampaignError, Plan
from cuconform.mutation.runs import Harness, partial_run
from cuconform.results_file import ResultsError, read

BASELINE = "baseline"


@dataclass(frozen=True)
class Judges:
    """The baseline's verdicts as the campaign uses them."""

    by_area: dict[str, list[str]]  # area -> the ids of its tests that can kill a mutant, in the baseline's order
    sources: dict[str, str]  # test id -> its source file (source_key)
    # area -> the ids of its tests that failed at baseline: the mutants' runs leave them out (--exclude-rule)
    failures: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, document: dict, areas: tuple[str, ...]) -> "Judges":
        tests = [test for test in document.get("tests") or [] if isinstance(test, dict)]
        return cls(
            {area: outcome.judges_of(tests, area) for area in areas},
            {test["id"]: source_key(str(test.get("source") or "").rpartition(":")[0]) for test in tests},
            {area: outcome.failures_of(tests, area) for area in areas},
        )

    def of_area(self, area: str) -> list[str]:
        return self.by_area.get(area, [])

    def failed_in(self, area: str) -> list[str]:
        return self.failures.get(area, [])

    def focus(self, slot: Slot, build_dir: Path) -> list[str]:
        """The area's judges whose rule is written in the files of the objects the mutant changed, in the baseline's
        order: an object's source, and the files of the area's own folder or of the build folder that its compile
        read (a header of the area; the rules a generated `.inc` holds, as math's; the manifest's `dependencies`)."""
        if slot.sources:  # a runtime operator: the area's files that name one of its APIs
            return [test_id for test_id in self.of_area(slot.area) if self.sources.get(test_id) in slot.sources]
        changed = {m.object for m in slot.changed}
        own = (f"/suites/{slot.area}/", f"{build_dir}/")
        files = {
            source_key(path)
            for manifest in slot.candidates
            if manifest["object"] in changed
            for path in [
                str(manifest.get("source") or ""),
                *(
                    dependency
                    for dependency in manifest.get("dependencies") or []
                    if own[0] in dependency or dependency.startswith(own[1])
                ),
            ]
        } - {""}
        return [test_id for test_id in self.of_area(slot.area) if self.sources.get(test_id) in files]


def source_key(path: str) -> str:
    """A source file as the baseline and the manifests can both name it: its path below suites/ (a build made
    elsewhere names the same file), else the real path ('' for none)."""
    if not path:
        return ""
    marker = "/suites/"
    return "suites/" + path.rsplit(marker, 1)[1] if marker in path else os.path.realpath(path)


def run_baseline(plan: Plan, harness: Harness, reuse: bool, say: Callable[[str], None]) -> tuple[dict, Judges]:
    """The baseline's results document and judges: a finished one kept in DIR/baseline/ when `reuse` (a resumed
    campaign), else a run (one that was cut goes on). CampaignError: a run that cannot judge."""
    folder = plan.output / BASELINE
    if reuse:
        try:
            kept = read(folder).document
        except ResultsError:
            kept = None
        if kept is not None and kept.get("complete", True) is not False:
            judges = Judges.of(kept, plan.areas)
            if any(judges.by_area.values()):
                return kept, judges
    started = time.monotonic()
    if reuse and partial_run(folder):  # cut in its baseline: that run goes on
        say(f"baseline: going on with the run that was cut ({folder})")
        done = harness(plan.build_dir, plan.areas, folder, (), resume=True)
    else:
        done = harness(plan.build_dir, plan.areas, folder, ())
    if not done.usable:
        raise CampaignError(f"the baseline run ({folder}) cannot judge mutants: {done.why_not()}")
    judges = Judges.of(done.document, plan.areas)
    count = sum(len(ids) for ids in judges.by_area.values())
    every = [test for test in done.document.get("tests") or [] if isinstance(test, dict)]
    passed = sum(1 for test in every if test.get("verdict") == "pass" and outcome.can_kill(test))
    if not passed:  # a machine without a GPU skips every GPU rule: those skips alone judge nothing worth a campaign
        raise CampaignError(
            f"no test passed in the baseline run ({folder}, {len(every)} tests): nothing can kill a mutant "
            "(is there a GPU?)"
        )
    slow = sum(1 for test in every if test.get("status") == "timeout")
    failed = sum(len(ids) for ids in judges.failures.values())
    idle = [area for area, ids in judges.by_area.items() if not ids]
    say(
        f"baseline: {count} of {len(every)} tests judge the mutants ({passed} pass, {count - passed} skip; "
        f"{time.monotonic() - started:.1f} s, {folder})"
        + (f"; {slow} timed out (longer than --timeout {plan.timeout:g} s) and cannot judge" if slow else "")
        + (f"; {failed} failed, which the mutants' runs leave out" if failed else "")
        + (f"; no test passed or skipped in {', '.join(idle)}: its mutants can only survive" if idle else "")
    )
    return done.document, judges
