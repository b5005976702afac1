"""A mutation campaign: how many injected compiler bugs the suite notices (README.md, "Measuring the suite's
sensitivity"; `scripts/conformance mutate`).

    capture build   build/mutation, configured from a preset with the capture launcher (capture.py): every object
                    leaves <object>.mut/manifest.json, what rebuild.py needs to compile its PTX again
    baseline        the chosen areas, run once through the harness (DIR/baseline/): the tests that pass there judge
    sites           each object's PTX scanned once for every operator's sites (sites.py, DIR/sites.json): ptxas runs
                    only for an (operator, object) with a site; the generic integer operators are sampled (sample.py)
    batches         the operators in order, grouped until a batch holds `plan.batch_mutants` mutants to run. A batch's
                    (operator, object) pairs are rebuilt on every host core while the previous batch runs on the GPU;
                    each mutant (operator, area) is patched into one overlay (overlay.py, DIR/mutants/<batch>/) as
                    bin/cuconform-<area>@<operator>, so that one harness run judges every mutant of the batch: first
                    the focused tests (those written in the mutated objects' sources), then the whole areas of the
                    mutants not killed yet. Each operator is then appended to DIR/mutation.jsonl, so that --resume
                    goes on where a cut campaign stopped (a cut batch runs again)
    reports         DIR/results.json (the baseline's results and a `mutation` section), summary.md, report.html

The engine (operators.py, rebuild.py, patch.py, capture.py, sites.py: plan.Engine) and the harness runs (runs.py) are
given to the `Campaign`, so that its tests run it with fakes of both; mutation.jsonl is progress.py's.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from cuconform.catalog import area_of
from cuconform.mutation import outcome
from cuconform.mutation.equivalent import Equivalents
from cuconform.mutation.outcome import MutantStatus
from cuconform.mutation.overlay import make_overlay
from cuconform.mutation.plan import CampaignError, Engine, Plan, one_line
from cuconform.mutation.progress import PROGRESS, Progress
from cuconform.mutation.report import PART, results_document
from cuconform.mutation.runs import Harness, partial_run, subprocess_harness
from cuconform.reports import write_documents
from cuconform.results_file import ResultsError, read

BASELINE = "baseline"
MUTANTS = "mutants"
RUN = "run"
FOCUS_RUN = "run-focus"
WORK = "work"
SITES = "sites.json"
MUTANT_MARK = "@"  # bin/cuconform-<area>@<operator>: a mutant binary in a batch's overlay, the area the harness sees


# --- the campaign ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Invalid:
    object: str
    why: str


@dataclass(frozen=True)
class Broken:
    """The engine failed on an object in a way that is not a rejected mutant (a bug to report, not a score)."""

    object: str
    why: str


CANCELLED = Broken("", "the campaign was stopped")  # a rebuild not made because the campaign was cut


@dataclass(eq=False)
class Slot:
    """One mutant: an operator in one area (the objects of the area's binary where the operator has a site)."""

    op: object
    area: str
    binary: Path
    candidates: list[dict]  # the manifests to rebuild
    entry: dict  # what mutation.jsonl records of it
    changed: list = field(default_factory=list)  # the MutantFatbins of the objects it changed

    @property
    def name(self) -> str:
        """Its binary's area in the batch overlay: <area>@<operator>."""
        return f"{self.area}{MUTANT_MARK}{self.op.name}"


@dataclass
class Batch:
    label: str  # its folder under DIR/mutants/: batch-<first operator>
    operators: list
    slots: dict[str, list[Slot]]  # operator name -> its slots to build (areas where it has a site, kept by the sample)
    entries: dict[str, list[dict]]  # operator name -> every area's entry, in the plan's area order
    sampled_out: dict[str, list[dict]]  # operator name -> the mutants the sample left out

    def mutants(self) -> int:
        return sum(len(slots) for slots in self.slots.values())


@dataclass
class Built:
    """A batch's rebuilds: each (operator, object)'s result, and what they cost."""

    results: dict[tuple[str, str], object]
    wall: float = 0.0
    cpu: float = 0.0  # the rebuilds' seconds added up (on the threads of --build-jobs)
    by_operator: dict[str, float] = field(default_factory=dict)


class Campaign:
    def __init__(self, plan: Plan, engine: Engine, equivalents: Equivalents, harness: Harness | None = None,
                 say: Callable[[str], None] = print):
        self.plan = plan
        self.engine = engine
        self.equivalents = equivalents
        self.harness = harness or subprocess_harness(plan)
        self.say = say
        self.baseline: dict | None = None
        self._judges: dict[str, list[str]] = {}
        self._sources: dict[str, str] = {}  # test id -> its source file, from the baseline
        self._objects: dict[str, tuple[Path, list[dict]]] = {}
        self._sites: dict[str, dict[str, int]] | None = None  # object -> {operator: sites}; None: unknown
        self._stop = threading.Event()  # set when the campaign is cut: rebuilds not begun are not made

    @property
    def output(self) -> Path:
        return self.plan.output

    def objects(self) -> dict[str, tuple[Path, list[dict]]]:
        """Each chosen area's binary and the manifests of its objects (none: every operator is not applicable)."""
        by_area = {area_of(binary): (binary, manifests)
                   for binary, manifests in self.engine.objects(self.plan.build_dir).items()}
        return {area: by_area.get(area, (self.plan.build_dir / "bin" / f"cuconform-{area}", []))
                for area in self.plan.areas}

    def run(self, resume: bool = False) -> dict:
        """Runs (or goes on with) the campaign; returns the results document it wrote to DIR/results.json."""
        progress_path = self.output / PROGRESS
        if resume:
            progress = Progress.read(progress_path)
            if progress.header != self.plan.header():
                raise CampaignError(f"{progress_path}: recorded for another campaign (build, areas, operators, "
                                    "timeout, profile, sample or expectations differ): leave those options out with "
                                    "--resume")
        else:
            if progress_path.exists():
                raise CampaignError(f"{self.output} holds a campaign already: --resume goes on with it, or give "
                                    "another --output")
            progress = Progress(progress_path)
        self.output.mkdir(parents=True, exist_ok=True)
        self._objects = self.objects()
        if progress.header is None:  # before the baseline: a campaign cut in its baseline resumes too
            progress.start(self.plan.header())
        self.baseline = self.run_baseline(reuse=resume)
        self._sites = self.index_sites()
        done = progress.done
        batches = self.batches([self.engine.operator(name) for name in self.plan.operators if name not in done])
        if batches:
            self.say(f"plan: {sum(len(b.operators) for b in batches)} operators left, "
                     f"{sum(b.mutants() for b in batches)} mutants to build and run in {len(batches)} batches "
                     f"(at most 2 harness runs each); {self.plan.sample.describe()}")
        # The next batch's mutants are rebuilt (host cores) while this one's harness runs use the GPU.
        ahead = ThreadPoolExecutor(max_workers=1, thread_name_prefix="next-batch")
        try:
            upcoming = ahead.submit(self.build, batches[0]) if batches else None
            for index, batch in enumerate(batches):
                waiting = time.monotonic()
                built = upcoming.result()
                waited = time.monotonic() - waiting
                if index + 1 < len(batches):
                    upcoming = ahead.submit(self.build, batches[index + 1])
                for record in self.judge(batch, built, waited, f"{index + 1}/{len(batches)}"):
                    progress.append(record)
        except BaseException:
            self._stop.set()  # Ctrl-C, SIGTERM: the rebuilds queued are dropped, not made before the exit
            raise
        finally:
            ahead.shutdown(wait=False, cancel_futures=True)
        return self.write_reports(progress)

    def report_only(self) -> dict:
        """Writes DIR/results.json, summary.md and report.html from what mutation.jsonl holds, running nothing."""
        progress = Progress.read(self.output / PROGRESS)
        try:
            self.baseline = read(self.output / BASELINE).document
        except ResultsError as error:
            raise CampaignError(f"{self.output / BASELINE}: no baseline run to report on ({error})") from None
        return self.write_reports(progress)

    def write_reports(self, progress: Progress) -> dict:
        document = results_document(self.baseline, progress.operators, self.plan, self.equivalents)
        write_documents(self.output, document, [PART])
        return document

    def run_baseline(self, reuse: bool) -> dict:
        folder = self.output / BASELINE
        if reuse:
            try:
                kept = read(folder).document
            except ResultsError:
                kept = None
            if kept is not None and kept.get("complete", True) is not False:
                self._set_judges(kept)
                if any(self._judges.values()):
                    return kept
        started = time.monotonic()
        if reuse and partial_run(folder):  # cut in its baseline: that run goes on
            self.say(f"baseline: going on with the run that was cut ({folder})")
            done = self.harness(self.plan.build_dir, self.plan.areas, folder, (), resume=True)
        else:
            done = self.harness(self.plan.build_dir, self.plan.areas, folder, ())
        if not done.usable:
            raise CampaignError(f"the baseline run ({folder}) cannot judge mutants: {done.why_not()}")
        self._set_judges(done.document)
        judges = sum(len(ids) for ids in self._judges.values())
        tests = len(done.document.get("tests") or [])
        if not judges:
            raise CampaignError(f"no test passed in the baseline run ({folder}, {tests} tests): nothing can kill a "
                                "mutant (is there a GPU?)")
        slow = sum(1 for test in done.document.get("tests") or [] if test.get("status") == "timeout")
        idle = [area for area, ids in self._judges.items() if not ids]
        self.say(f"baseline: {judges} of {tests} tests pass and judge the mutants "
                 f"({time.monotonic() - started:.1f} s, {folder})"
                 + (f"; {slow} timed out (longer than --timeout {self.plan.timeout:g} s) and cannot judge"
                    if slow else "")
                 + (f"; no test passed in {', '.join(idle)}: its mutants can only survive" if idle else ""))
        return done.document

    def _set_judges(self, document: dict) -> None:
        tests = [test for test in document.get("tests") or [] if isinstance(test, dict)]
        self._judges = {area: outcome.judges_of(tests, area) for area in self.plan.areas}
        self._sources = {test["id"]: _source_key(str(test.get("source") or "").rpartition(":")[0]) for test in tests}

    def index_sites(self) -> dict[str, dict[str, int]] | None:
        """Each object's sites per operator (DIR/sites.json), or None when the engine cannot tell."""
        if self.engine.sites_of is None:
            return None
        started = time.monotonic()
        manifests = list({m["object"]: m for _, listed in self._objects.values() for m in listed}.values())
        found = self.engine.sites_of(manifests, self.output / SITES, self.plan.build_jobs)
        pairs = sum(1 for counts in found.values() for sites in counts.values() if sites)
        self.say(f"time: sites of {len(found)} objects scanned in {time.monotonic() - started:.1f} s: "
                 f"{pairs} (operator, object) pairs have a site, of {len(found) * len(self.engine.operators)}")
        return found

    # --- planning -------------------------------------------------------------------------------------------

    def batches(self, operators: list) -> list[Batch]:
        """The operators in order, grouped into batches of about `plan.batch_mutants` mutants to run."""
        batches: list[Batch] = []
        for op in operators:
            entries, slots, sampled_out = self._slots(op)
            if not batches or (batches[-1].mutants() and batches[-1].mutants() + len(slots) > self.plan.batch_mutants):
                batches.append(Batch(f"batch-{op.name}", [], {}, {}, {}))
            batch = batches[-1]
            batch.operators.append(op)
            batch.slots[op.name], batch.entries[op.name], batch.sampled_out[op.name] = slots, entries, sampled_out
        return batches

    def _slots(self, op) -> tuple[list[dict], list[Slot], list[dict]]:
        """Every area's entry for `op`; the mutants to build (an area where it has a site, kept by the sample); the
        mutants the sample left out."""
        entries, slots, sampled_out = [], [], []
        for area, (binary, manifests) in self._objects.items():
            entry = {"operator": op.name, "family": op.family, "area": area, "objects": [], "sites": 0,
                     "killed_by": None, "seconds": 0.0}
            candidates = [m for m in manifests if self._sites is None
                          or self._sites.get(m["object"], {}).get(op.name)]
            if candidates and not self.plan.sample.keeps(op.name, area):
                sampled_out.append({"operator": op.name, "area": area,
                                    "sites": sum(self._sites.get(m["object"], {}).get(op.name, 0)
                                                 for m in candidates) if self._sites is not None else None})
                continue
            entries.append(entry)
            why_equivalent = self.equivalents.why(op.name, area)
            if candidates and why_equivalent and self._sites is not None:  # no need to build what never runs
                entry.update(status=MutantStatus.EQUIVALENT.value, why=why_equivalent,
                             objects=[_short(m["object"]) for m in candidates],
                             sites=sum(self._sites[m["object"]][op.name] for m in candidates))
            elif candidates:
                slots.append(Slot(op, area, binary, candidates, entry))
            else:
                entry.update(status=MutantStatus.NOT_APPLICABLE.value)
        return entries, slots, sampled_out

    # --- rebuilding -----------------------------------------------------------------------------------------

    def build(self, batch: Batch) -> Built:
        """Every (operator, object) of the batch's mutants built (once, if several binaries link the object), on
        `plan.build_jobs` threads: its MutantFatbin, None (nothing to change), Invalid or Broken."""
        started = time.monotonic()
        pairs = {(slot.op.name, manifest["object"]): (slot.op, manifest)
                 for slots in batch.slots.values() for slot in slots for manifest in slot.candidates}
        built = Built({})
        if not pairs:
            return built
        work = self.output / MUTANTS / batch.label / WORK

        def one(index: int, op, manifest: dict):
            if self._stop.is_set():
                return CANCELLED, 0.0
            begun = time.monotonic()
            workdir = work / f"{index:04d}-{op.name}-{Path(manifest['object']).name}"
            workdir.mkdir(parents=True, exist_ok=True)
            try:
                result = self.engine.build_mutant(manifest, op, workdir)
            except self.engine.mutant_error as error:
                result = Invalid(manifest["object"], one_line(error))
            except Exception as error:  # noqa: BLE001 - an engine bug on one object is reported, the campaign goes on
                result = Broken(manifest["object"], f"{type(error).__name__}: {one_line(error)}")
            return result, time.monotonic() - begun

        with ThreadPoolExecutor(max_workers=min(self._threads(), len(pairs)), thread_name_prefix="mutant") as pool:
            futures = {key: pool.submit(one, index, op, manifest)
                       for index, (key, (op, manifest)) in enumerate(sorted(pairs.items(), key=lambda kv: kv[0]))}
        for key, future in futures.items():
            result, seconds = future.result()
            built.results[key] = result
            built.cpu += seconds
            built.by_operator[key[0]] = built.by_operator.get(key[0], 0.0) + seconds
        built.wall = time.monotonic() - started
        return built

    def _threads(self) -> int:
        return self.plan.build_jobs or os.cpu_count() or 1

    # --- judging one batch ----------------------------------------------------------------------------------

    def judge(self, batch: Batch, built: Built, waited: float, label: str) -> list[dict]:
        """The batch's mutants judged: its records, one per operator, for mutation.jsonl."""
        started = time.monotonic()
        folder = self.output / MUTANTS / batch.label
        to_run = [slot for op in batch.operators for slot in batch.slots[op.name]
                  if self._classify(slot, built.results)]
        timing = {"mutants": batch.mutants(), "rebuilds": len(built.results), "rebuild_wall": round(built.wall, 3),
                  "rebuild_cpu": round(built.cpu, 3), "waited": round(waited, 3)}
        names = batch.operators[0].name + (f" .. {batch.operators[-1].name}" if len(batch.operators) > 1 else "")
        self.say(f"time: batch {label} ({_count(len(batch.operators), 'operator')}: {names}): "
                 f"{len(built.results)} (operator, object) rebuilds in "
                 f"{built.wall:.1f} s ({built.cpu:.1f} s over the threads), waited {waited:.1f} s for them; "
                 f"{len(to_run)} of {batch.mutants()} mutants to run")
        if to_run:
            self._run_batch(folder, to_run, timing)
        if not self.plan.keep_binaries:
            for scratch in (folder / WORK, folder / "bin"):
                shutil.rmtree(scratch, ignore_errors=True)
        seconds = time.monotonic() - started + waited
        runs = timing.get("focus_seconds", 0.0) + timing.get("whole_seconds", 0.0)
        records = []
        for op in batch.operators:
            share = 1 / len(batch.operators)
            record = {"operator": op.name, "family": op.family, "seconds": round(seconds * share, 3),
                      "build_seconds": round(built.by_operator.get(op.name, 0.0), 3),
                      "run_seconds": round(runs * share, 3), "batch": {"label": batch.label, **timing},
                      "mutants": batch.entries[op.name]}
            if batch.sampled_out[op.name]:
                record["sampled_out"] = batch.sampled_out[op.name]
            self.say(operator_line(record))
            records.append(record)
        return records

    def _classify(self, slot: Slot, results: dict) -> bool:
        """Fills the slot's entry from its rebuilds; whether it has a mutant to run."""
        found = [results.get((slot.op.name, m["object"])) for m in slot.candidates]
        slot.changed = [r for r in found if r is not None and not isinstance(r, (Invalid, Broken))]
        invalid = [r for r in found if isinstance(r, Invalid)]
        broken = [r for r in found if isinstance(r, Broken)]
        entry = slot.entry
        entry.update(objects=[_short(m.object) for m in slot.changed], sites=sum(_sites(m) for m in slot.changed))
        if invalid:
            entry["invalid_objects"] = [{"object": _short(i.object), "why": i.why} for i in invalid]
        why_equivalent = self.equivalents.why(slot.op.name, slot.area)
        if broken:
            entry.update(status=MutantStatus.ERROR.value, why=f"{_short(broken[0].object)}: {broken[0].why}")
        elif not slot.changed and not invalid:
            entry.update(status=MutantStatus.NOT_APPLICABLE.value)
        elif not slot.changed:
            entry.update(status=MutantStatus.INVALID.value, why=f"{_short(invalid[0].object)}: {invalid[0].why}")
        elif why_equivalent:
            entry.update(status=MutantStatus.EQUIVALENT.value, why=why_equivalent)
        else:
            return True
        return False

    def _run_batch(self, folder: Path, slots: list[Slot], timing: dict) -> None:
        """Patches every mutant of the batch into one overlay (bin/cuconform-<area>@<operator>) and judges them in
        two harness runs. With `plan.focus`, first only the judges written in the sources of the objects each
        mutant changed (a kernel is most often tested in its own file): a kill there is a kill. Then every mutant
        not killed so runs its whole area, so that `survived` means every judge of the area passed; with
        `plan.focus_only` a mutant its focused tests did not kill survives without that run (only a mutant with no
        focused test runs its whole area)."""
        started = time.monotonic()
        bin_dir = make_overlay(self.plan.build_dir, folder)

        def patch(slot: Slot) -> bool:
            target = bin_dir / f"{slot.binary.name}{MUTANT_MARK}{slot.op.name}"
            try:
                self.engine.patch_executable(slot.binary, target, [(m.original, m.mutant) for m in slot.changed])
                target.chmod(0o755)
                for companion in slot.binary.parent.glob(f"{slot.binary.name}.*"):  # files it reads beside itself
                    os.symlink(companion, bin_dir / f"{target.name}{companion.name[len(slot.binary.name):]}")
                return True
            except self.engine.mutant_error as error:
                slot.entry.update(status=MutantStatus.INVALID.value, why=f"{slot.binary.name}: {one_line(error)}")
            except Exception as error:  # noqa: BLE001
                slot.entry.update(status=MutantStatus.ERROR.value,
                                  why=f"patching {slot.binary.name}: {type(error).__name__}: {one_line(error)}")
            return False

        with ThreadPoolExecutor(max_workers=min(self._threads(), len(slots)), thread_name_prefix="patch") as pool:
            ready = [slot for slot, patched in zip(slots, pool.map(patch, slots)) if patched]
        timing["patch_seconds"] = round(time.monotonic() - started, 3)
        self.say(f"time:   patched {len(ready)} mutant binaries in {timing['patch_seconds']:.1f} s")

        undecided = list(ready)
        focus = {slot.name: self._focus(slot) for slot in ready} if self.plan.focus else {}
        focused = [slot for slot in ready if focus.get(slot.name)]
        if focused:
            def rules(slot: Slot) -> list[str]:
                return [_literal(f"{slot.name}/{test_id.split('/', 1)[1]}") for test_id in focus[slot.name]]

            ran = self._runs(folder, focused, folder / FOCUS_RUN, rules, "focus", timing)
            for slot in focused:
                tests = ran[slot.name]
                if isinstance(tests, str):
                    continue  # the run could not be made: the whole area decides
                verdict = outcome.judge(focus[slot.name], tests)
                slot.entry.update(seconds=round(_seconds(tests), 3), focused=len(focus[slot.name]))
                if verdict.status is MutantStatus.KILLED or self.plan.focus_only:
                    self._record(slot, verdict, "focused", _seconds(tests))
                    undecided = [other for other in undecided if other is not slot]
        if not self.plan.keep_binaries:  # the disk of the decided ones back before the whole run
            still = {id(slot) for slot in undecided}
            for slot in (slot for slot in ready if id(slot) not in still):
                (bin_dir / f"{slot.binary.name}{MUTANT_MARK}{slot.op.name}").unlink(missing_ok=True)
        if not undecided:
            return
        ran = self._runs(folder, undecided, folder / RUN, lambda slot: [], "whole", timing)
        for slot in undecided:
            tests = ran[slot.name]
            if isinstance(tests, str):
                slot.entry.update(status=MutantStatus.ERROR.value, why=f"the harness run: {tests}")
                continue
            verdict = outcome.judge(self._judges.get(slot.area, []), tests)
            self._record(slot, verdict, "whole area", slot.entry.get("seconds", 0.0) + _seconds(tests))

    def _runs(self, folder: Path, slots: list[Slot], output: Path, rules: Callable[[Slot], list[str]], what: str,
              timing: dict) -> dict[str, dict[str, dict] | str]:
        """One harness run of the mutants' binaries (with their --rule patterns): {mutant: its tests by baseline
        id}, or why the run could not be made. A run of several that cannot be made (one mutant binary that breaks
        the run) is made again for each mutant alone, so that one mutant's error is not the others'."""
        started = time.monotonic()
        done = self.harness(folder, [slot.name for slot in slots], output, [r for slot in slots for r in rules(slot)])
        seconds = time.monotonic() - started
        tests = len((done.document or {}).get("tests") or [])
        for key, value in (("seconds", seconds), ("tests", tests), ("binaries", len(slots)), ("runs", 1)):
            timing[f"{what}_{key}"] = round(timing.get(f"{what}_{key}", 0) + value, 3)
        self.say(f"time:   {what} run: {tests} tests of {len(slots)} mutant binaries in {seconds:.1f} s "
                 f"(exit code {done.code}, {output})")
        if done.usable:
            by_mutant = _tests_by_mutant(done.document)
            return {slot.name: by_mutant.get(slot.name, {}) for slot in slots}
        if len(slots) == 1:
            return {slots[0].name: done.why_not()}
        self.say(f"time:   that run could not be made ({done.why_not()}): each of its mutants runs alone")
        found: dict[str, dict[str, dict] | str] = {}
        for slot in slots:
            found.update(self._runs(folder, [slot], output.parent / f"alone-{slot.name}" / output.name, rules,
                                    what, timing))
        return found

    def _focus(self, slot: Slot) -> list[str]:
        """The area's judges whose rule is written in the files of the objects the mutant changed, in the baseline's
        order: an object's source, and the files of the area's own folder or of the build folder that its compile
        read (a header of the area; the rules a generated `.inc` holds, as math's; the manifest's `dependencies`)."""
        changed = {m.object for m in slot.changed}
        own = (f"/suites/{slot.area}/", f"{self.plan.build_dir}/")
        sources = {_source_key(path) for manifest in slot.candidates if manifest["object"] in changed
                   for path in [str(manifest.get("source") or ""),
                                *(dependency for dependency in manifest.get("dependencies") or []
                                  if own[0] in dependency or dependency.startswith(own[1]))]} - {""}
        return [test_id for test_id in self._judges.get(slot.area, []) if self._sources.get(test_id) in sources]

    def _record(self, slot: Slot, verdict, run: str, seconds: float) -> None:
        slot.entry.update(status=verdict.status.value, killed_by=verdict.killed_by, seconds=round(seconds, 3),
                          run=run, judges=len(self._judges.get(slot.area, [])))
        if verdict.killed_by:
            slot.entry.update(killing_status=verdict.killing_status, killers=verdict.killers)


def _tests_by_mutant(document: dict) -> dict[str, dict[str, dict]]:
    """A batch run's tests by mutant binary (<area>@<operator>), each under its baseline id (<area>/<test>)."""
    found: dict[str, dict[str, dict]] = {}
    for test in document.get("tests") or []:
        if not isinstance(test, dict) or "id" not in test:
            continue
        binary, _, name = str(test["id"]).partition("/")
        area = binary.partition(MUTANT_MARK)[0]
        found.setdefault(binary, {})[f"{area}/{name}"] = test
    return found


def _count(number: int, what: str) -> str:
    return f"{number} {what}" if number == 1 else f"{number} {what}s"


def _seconds(tests: dict[str, dict]) -> float:
    return sum(test.get("duration") or 0.0 for test in tests.values())


def _literal(text: str) -> str:
    """`text` as a --rule pattern that matches only itself (the harness looks one without a wildcard up exactly)."""
    return "".join(f"[{c}]" if c in "*?[" else c for c in text)


def _source_key(path: str) -> str:
    """A source file as the baseline and the manifests can both name it: its path below suites/ (a build made
    elsewhere names the same file), else the real path ('' for none)."""
    if not path:
        return ""
    marker = "/suites/"
    return "suites/" + path.rsplit(marker, 1)[1] if marker in path else os.path.realpath(path)


def operator_line(record: dict) -> str:
    """One console line per operator: its mutants by status, the areas where one survived, its seconds."""
    counted = outcome.counts(m["status"] for m in record["mutants"])
    parts = [f"{counted[status]} {status}" for status in outcome.STATUSES if counted[status]]
    survivors = [m["area"] for m in record["mutants"] if m["status"] == MutantStatus.SURVIVED.value]
    if record.get("sampled_out"):
        parts.append(f"{len(record['sampled_out'])} left out by the sample")
    line = f"{record['operator']:32} {', '.join(parts) or 'no area'}"
    if survivors:
        line += f" (survived in {', '.join(survivors)})"
    return f"{line}  [{record['seconds']:.1f} s]"


def _short(path: str) -> str:
    """An object as reports name it: its path under the build's CMakeFiles/<target>.dir/, or its name."""
    marker = ".dir/"
    return path.split(marker, 1)[1] if marker in path else Path(path).name


def _sites(mutant) -> int:
    sites = getattr(mutant, "sites", 0)
    return len(sites) if isinstance(sites, (list, tuple)) else int(sites or 0)
