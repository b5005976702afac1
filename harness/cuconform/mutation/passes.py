"""The harness runs that judge a batch's mutants: each mutant patched into one overlay build folder
(bin/cuconform-<area>@<operator>, overlay.py), then at most two harness runs over all of them, each with --fail-fast
and without the tests that failed at baseline (--exclude-rule: one of them would stop the binary before its judges).

    focused   (plan.focus) only the judges written in the sources of the objects each mutant changed (a kernel is
              most often tested in its own file): a kill there is a kill. The judges that skipped at baseline run
              here too, as in the whole run: a prerequisite's skip costs milliseconds, a litmus case what it cost at
              baseline, and a kill of theirs here saves the whole area's run
    whole     every mutant not killed so runs its whole area, so that `survived` means every judge of the area
              passed (or skipped) again; with plan.focus_only a mutant its focused tests did not kill survives
              without this run (only a mutant with no focused test runs its whole area)

A runtime operator's mutant (runtime_operators.py) is no patched binary but a script that runs the area's binary
under libcuconform-interpose.so; the calls the library counted in DIR/mutants/<batch>/calls/<mutant>/ decide, once
its runs are over, whether it applied at all (classify.from_calls). One whose area the census (census.py) saw make
no call of its operator's entry points never gets here.

A batch cut in a call goes on in the next (batch_state.py): its state is saved when its mutants are patched and when
its focused run is judged; a run that finished is used as it is, one that was cut goes on at its unfinished tests
(runs.partial_run, `scripts/conformance run --resume`).
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from cuconform.mutation import classify, outcome
from cuconform.mutation.baseline import Judges
from cuconform.mutation.batch_state import FOCUS, Kept, binary_of
from cuconform.mutation.batches import MUTANT_MARK, Slot
from cuconform.mutation.outcome import MutantStatus
from cuconform.mutation.overlay import make_overlay
from cuconform.mutation.plan import Engine, Plan, one_line
from cuconform.mutation.rebuild_pool import threads
from cuconform.mutation.runs import Harness, HarnessRun, partial_run
from cuconform.mutation.runtime_operators import is_runtime, library, read_calls, wrapper_script
from cuconform.results_file import ResultsError, read

CALLS = "calls"
# (the slots patched, their focus, the runs done): saves the batch's state (batch_state.save) as it goes
Checkpoint = Callable[[list[Slot], dict[str, list[str]], list[str]], None]

RUN = "run"
FOCUS_RUN = "run-focus"


class Passes:
    def __init__(self, plan: Plan, engine: Engine, harness: Harness, judges: Judges, say: Callable[[str], None]):
        self.plan = plan
        self.engine = engine
        self.harness = harness
        self.judges = judges
        self.say = say

    def run(
        self,
        folder: Path,
        slots: list[Slot],
        timing: dict,
        kept: Kept | None = None,
        checkpoint: Checkpoint | None = None,
    ) -> None:
        """Patches every mutant of the batch into the overlay in `folder` and judges them; each slot's entry gets
        its status. `timing` gains each step's seconds and counts. `kept`: the batch was cut in a call before, its
        patched binaries, focus and the runs it finished are taken from there (batch_state.py). `checkpoint`
        (ready slots, their focus, the runs done) saves the batch's state when its mutants are patched and when
        its focused run is judged."""
        ready = self._judge(folder, slots, timing, kept, checkpoint or (lambda ready, focus, done: None))
        for slot in ready:
            if is_runtime(slot.op):
                classify.from_calls(slot, read_calls(folder / CALLS / slot.name))

    def _judge(
        self, folder: Path, slots: list[Slot], timing: dict, kept: Kept | None, checkpoint: Checkpoint
    ) -> list[Slot]:
        """The batch's mutants patched and judged by the focused and whole runs; the mutants that could run."""
        if kept is None:
            ready = self._patch_all(folder, slots, timing)
            focus = {slot.name: self.judges.focus(slot, self.plan.build_dir) for slot in ready if self.plan.focus}
            done: list[str] = []
            checkpoint(ready, focus, done)
        else:  # cut in a call before (campaign.py says so): its binaries are patched, maybe its focus run judged
            _, ready, focus = kept.restore(slots)
            done = list(kept.runs_done)
        undecided = [slot for slot in ready if "status" not in slot.entry]
        focused = [slot for slot in undecided if focus.get(slot.name)] if FOCUS not in done else []
        if focused:

            def rules(slot: Slot) -> list[str]:
                return _as_mutant(slot, focus[slot.name])

            ran = self._runs(folder, focused, folder / FOCUS_RUN, rules, "focus", timing)
            for slot in focused:
                tests = ran[slot.name]
                if isinstance(tests, str):
                    continue  # the run could not be made: the whole area decides
                verdict = outcome.judge(focus[slot.name], tests)
                slot.entry.update(seconds=round(_seconds(tests), 3), focused=len(focus[slot.name]))
                if verdict.status is MutantStatus.KILLED or self.plan.focus_only:
                    self._record(slot, verdict, "focused", _seconds(tests))
            undecided = [slot for slot in ready if "status" not in slot.entry]
            done.append(FOCUS)
            checkpoint(ready, focus, done)
        if not self.plan.keep_binaries:  # the disk of the decided ones back before the whole run
            still = {id(slot) for slot in undecided}
            for slot in (slot for slot in ready if id(slot) not in still):
                binary_of(folder, slot).unlink(missing_ok=True)
        if not undecided:
            return ready
        ran = self._runs(folder, undecided, folder / RUN, lambda slot: [], "whole", timing)
        for slot in undecided:
            tests = ran[slot.name]
            if isinstance(tests, str):
                slot.entry.update(status=MutantStatus.ERROR.value, why=f"the harness run: {tests}")
                continue
            verdict = outcome.judge(self.judges.of_area(slot.area), tests)
            self._record(slot, verdict, "whole area", slot.entry.get("seconds", 0.0) + _seconds(tests))
        return ready

    def _patch_all(self, folder: Path, slots: list[Slot], timing: dict) -> list[Slot]:
        """Every mutant's binary in the overlay made in `folder`; the mutants that could be patched."""
        started = time.monotonic()
        bin_dir = make_overlay(self.plan.build_dir, folder)
        with ThreadPoolExecutor(
            max_workers=min(threads(self.plan.build_jobs), len(slots)), thread_name_prefix="patch"
        ) as pool:
            ready = [
                slot
                for slot, patched in zip(slots, pool.map(lambda slot: self._patch(slot, bin_dir), slots))
                if patched
            ]
        timing["patch_seconds"] = round(time.monotonic() - started, 3)
        self.say(f"time:   patched {len(ready)} mutant binaries in {timing['patch_seconds']:.1f} s")
        return ready

    def _patch(self, slot: Slot, bin_dir: Path) -> bool:
        """The mutant's binary in the overlay, its fatbins written over (no host code compiled or linked)."""
        target = bin_dir / f"{slot.binary.name}{MUTANT_MARK}{slot.op.name}"
        try:
            if is_runtime(slot.op):
                if not self._runtime_script(slot, target):
                    return False
            else:
                self.engine.patch_executable(slot.binary, target, [(m.original, m.mutant) for m in slot.changed])
            target.chmod(0o755)
            for companion in slot.binary.parent.glob(f"{slot.binary.name}.*"):  # files it reads beside itself
                os.symlink(companion, bin_dir / f"{target.name}{companion.name[len(slot.binary.name) :]}")
            return True
        except self.engine.mutant_error as error:
            slot.entry.update(status=MutantStatus.INVALID.value, why=f"{slot.binary.name}: {one_line(error)}")
        except Exception as error:  # noqa: BLE001 - one mutant that cannot be patched is its error, not the batch's
            slot.entry.update(
                status=MutantStatus.ERROR.value,
                why=f"patching {slot.binary.name}: {type(error).__name__}: {one_line(error)}",
            )
        return False

    def _runtime_script(self, slot: Slot, target: Path) -> bool:
        """A runtime mutant: the area's binary run under the interposer with the operator named (no copy of it)."""
        interposer = library(self.plan.build_dir)
        if not interposer.is_file():
            slot.entry.update(
                status=MutantStatus.ERROR.value,
                why=f"{interposer} is not built: cmake --build {self.plan.build_dir} --target cuconform-interpose",
            )
            return False
        calls = target.parent.parent / CALLS / slot.name
        if calls.exists():
            shutil.rmtree(calls)
        calls.mkdir(parents=True)
        target.write_text(
            wrapper_script(
                slot.binary.resolve(), slot.op.name, slot.op.description, calls.resolve(), interposer.resolve()
            )
        )
        return True

    def _runs(
        self, folder: Path, slots: list[Slot], output: Path, rules: Callable[[Slot], list[str]], what: str, timing: dict
    ) -> dict[str, dict[str, dict] | str]:
        """One harness run of the mutants' binaries (with their --rule patterns): {mutant: its tests by baseline
        id}, or why the run could not be made. A run of several that cannot be made (one mutant binary that breaks
        the run) is made again for each mutant alone, so that one mutant's error is not the others'."""
        started = time.monotonic()
        binaries, patterns = [slot.name for slot in slots], [r for slot in slots for r in rules(slot)]
        excluded = [r for slot in slots for r in _as_mutant(slot, self.judges.failed_in(slot.area))]
        finished = _finished_run(output)
        if finished is not None:  # made in a call that was cut before its verdicts were recorded
            done = finished
        elif partial_run(output):  # cut in the middle: its tests not finished yet run (its journal keeps the
            # selection, --exclude-rule too), the rest are kept
            self.say(f"time:   going on with the {what} run that was cut ({output})")
            done = self.harness(folder, binaries, output, patterns, resume=True, fail_fast=True)
        else:
            done = self.harness(folder, binaries, output, patterns, fail_fast=True, exclude=excluded)
        seconds = time.monotonic() - started
        tests = len((done.document or {}).get("tests") or [])
        for key, value in (("seconds", seconds), ("tests", tests), ("binaries", len(slots)), ("runs", 1)):
            timing[f"{what}_{key}"] = round(timing.get(f"{what}_{key}", 0) + value, 3)
        self.say(
            f"time:   {what} run: {tests} tests of {len(slots)} mutant binaries in {seconds:.1f} s "
            f"(exit code {done.code}, {output})"
        )
        if done.usable:
            by_mutant = tests_by_binary(done.document)
            return {slot.name: by_mutant.get(slot.name, {}) for slot in slots}
        if len(slots) == 1:
            return {slots[0].name: done.why_not()}
        self.say(f"time:   that run could not be made ({done.why_not()}): each of its mutants runs alone")
        found: dict[str, dict[str, dict] | str] = {}
        for slot in slots:
            found.update(
                self._runs(folder, [slot], output.parent / f"alone-{slot.name}" / output.name, rules, what, timing)
            )
        return found

    def _record(self, slot: Slot, verdict: outcome.Judgement, run: str, seconds: float) -> None:
        classify.from_run(slot, verdict, run, seconds, len(self.judges.of_area(slot.area)))


def _finished_run(output: Path) -> HarnessRun | None:
    """A harness run that finished in `output` before (a batch resumed after a cut), or None."""
    try:
        document = read(output).document
    except ResultsError:
        return None
    if document.get("complete", True) is False:
        return None
    return HarnessRun(document, 0, output.with_name(output.name + ".log"))


def tests_by_binary(document: dict) -> dict[str, dict[str, dict]]:
    """A batch run's tests by mutant binary (<area>@<operator>; the census's <area>@census), each under its baseline
    id (<area>/<test>)."""
    found: dict[str, dict[str, dict]] = {}
    for test in document.get("tests") or []:
        if not isinstance(test, dict) or "id" not in test:
            continue
        binary, _, name = str(test["id"]).partition("/")
        area = binary.partition(MUTANT_MARK)[0]
        found.setdefault(binary, {})[f"{area}/{name}"] = test
    return found


def _seconds(tests: dict[str, dict]) -> float:
    return sum(test.get("duration") or 0.0 for test in tests.values())


def _as_mutant(slot: Slot, test_ids: list[str]) -> list[str]:
    """The baseline's `test_ids` (<area>/<test>) as patterns that name exactly the mutant binary's same tests
    (<area>@<operator>/<test>), for --rule and --exclude-rule."""
    return as_patterns(slot.name, test_ids)


def as_patterns(binary: str, test_ids: list[str]) -> list[str]:
    """The baseline's `test_ids` (<area>/<test>) as patterns that name exactly the same tests of `binary`."""
    return [_literal(f"{binary}/{test_id.split('/', 1)[1]}") for test_id in test_ids]


def _literal(text: str) -> str:
    """`text` as a --rule pattern that matches only itself (the harness looks one without a wildcard up exactly)."""
    return "".join(f"[{c}]" if c in "*?[" else c for c in text)
