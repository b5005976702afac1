"""A mutation campaign: how many injected compiler bugs the suite notices (README.md, "Measuring the suite's
sensitivity"; `scripts/conformance mutate`).

    capture build   build/mutation, configured from a preset with the capture launcher (capture.py): every object
                    leaves <object>.mut/manifest.json, what rebuild.py needs to compile its PTX again
    baseline        the chosen areas, run once through the harness (DIR/baseline/): the tests that pass there judge
    per operator    build_mutant for every object of every chosen binary (threads over the host's cores); the
                    binaries it changed, patched, in an overlay build folder (overlay.py, DIR/mutants/<op>/); one
                    harness run over the areas whose binaries changed (DIR/mutants/<op>/run/); each (operator, area)
                    judged (outcome.py) and appended to DIR/mutation.jsonl, so --resume goes on where a cut one
                    stopped
    reports         DIR/results.json (the baseline's results and a `mutation` section), summary.md, report.html

The engine (operators.py, rebuild.py, patch.py, capture.py: plan.Engine) and the harness runs (runs.py) are given to
the `Campaign`, so that its tests run it with fakes of both; mutation.jsonl is progress.py's.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from cuconform import overview
from cuconform.catalog import area_of
from cuconform.mutation import outcome
from cuconform.mutation.equivalent import Equivalents
from cuconform.mutation.outcome import MutantStatus
from cuconform.mutation.overlay import make_overlay
from cuconform.mutation.plan import CampaignError, Engine, Plan, one_line
from cuconform.mutation.progress import PROGRESS, Progress
from cuconform.mutation.report import results_document
from cuconform.mutation.runs import Harness, subprocess_harness
from cuconform.reports import write_documents
from cuconform.results_file import ResultsError, read

BASELINE = "baseline"
MUTANTS = "mutants"
RUN = "run"
FOCUS_RUN = "run-focus"
WORK = "work"


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
        self._rules: dict[str, str] = {}  # test id -> its rule id
        self._objects: dict[str, tuple[Path, list[dict]]] = {}

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
                                    "timeout, profile or expectations differ): leave those options out with --resume")
        else:
            if progress_path.exists():
                raise CampaignError(f"{self.output} holds a campaign already: --resume goes on with it, or give "
                                    "another --output")
            progress = Progress(progress_path)
        self.output.mkdir(parents=True, exist_ok=True)
        self._objects = self.objects()
        self.baseline = self.run_baseline(reuse=resume)
        if progress.header is None:
            progress.start(self.plan.header())
        done = progress.done
        operators = [self.engine.operator(name) for name in self.plan.operators if name not in done]
        # The next operator's mutants are rebuilt (host cores) while this one's harness run uses the GPU.
        ahead = ThreadPoolExecutor(max_workers=1, thread_name_prefix="next-operator")
        try:
            upcoming = ahead.submit(self.build, operators[0]) if operators else None
            for index, op in enumerate(operators):
                built = upcoming.result()
                if index + 1 < len(operators):
                    upcoming = ahead.submit(self.build, operators[index + 1])
                progress.append(self.mutate(op, built))
        finally:
            ahead.shutdown(wait=False, cancel_futures=True)  # Ctrl-C: a rebuild in flight is not waited for
        document = results_document(self.baseline, progress.operators, self.plan, self.equivalents)
        write_documents(self.output, document)
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
                return kept
        started = time.monotonic()
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
        self._sources = {test["id"]: str(test.get("source") or "").rpartition(":")[0] for test in tests}
        self._rules = {test["id"]: str(test.get("rule") or "") for test in tests}

    # --- one operator ---

    def build(self, op) -> tuple[dict[str, object], float]:
        """Every object of the chosen areas built with `op` (see _build_all), and the seconds it took."""
        started = time.monotonic()
        built = self._build_all(op, self.output / MUTANTS / op.name / WORK)
        return built, time.monotonic() - started

    def mutate(self, op, built: tuple[dict[str, object], float] | None = None) -> dict:
        """One operator: its mutants (built here unless `built` holds them already) judged area by area. Its
        `seconds` are the time it added to the campaign: waiting for its rebuilds, its harness run."""
        started = time.monotonic()
        folder = self.output / MUTANTS / op.name
        built, build_seconds = built or self.build(op)

        mutants: dict[str, dict] = {}
        to_run: dict[str, list] = {}
        sources: dict[str, set[str]] = {}
        for area, (binary, manifests) in self._objects.items():
            results = [built[manifest["object"]] for manifest in manifests]
            sources[area] = {str(manifest.get("source") or "") for manifest, result in zip(manifests, results)
                             if result is not None and not isinstance(result, (Invalid, Broken))} - {""}
            changed = [r for r in results if r is not None and not isinstance(r, (Invalid, Broken))]
            invalid = [r for r in results if isinstance(r, Invalid)]
            broken = [r for r in results if isinstance(r, Broken)]
            entry = {"operator": op.name, "family": op.family, "area": area,
                     "objects": [_short(m.object) for m in changed], "sites": sum(_sites(m) for m in changed),
                     "killed_by": None, "seconds": 0.0}
            if invalid:
                entry["invalid_objects"] = [{"object": _short(i.object), "why": i.why} for i in invalid]
            why_equivalent = self.equivalents.why(op.name, area)
            if broken:
                entry.update(status=MutantStatus.ERROR.value, why=f"{_short(broken[0].object)}: {broken[0].why}")
            elif not changed and not invalid:
                entry.update(status=MutantStatus.NOT_APPLICABLE.value)
            elif not changed:
                entry.update(status=MutantStatus.INVALID.value, why=f"{_short(invalid[0].object)}: {invalid[0].why}")
            elif why_equivalent:
                entry.update(status=MutantStatus.EQUIVALENT.value, why=why_equivalent)
            else:
                to_run[area] = changed
            mutants[area] = entry

        run_seconds = 0.0
        if to_run:
            run_started = time.monotonic()
            self._run_mutants(folder, to_run, sources, mutants)
            run_seconds = time.monotonic() - run_started
        if not self.plan.keep_binaries:
            for scratch in (folder / WORK, folder / "bin"):
                shutil.rmtree(scratch, ignore_errors=True)
        record = {"operator": op.name, "family": op.family, "seconds": round(time.monotonic() - started, 3),
                  "build_seconds": round(build_seconds, 3), "run_seconds": round(run_seconds, 3),
                  "mutants": list(mutants.values())}
        self.say(operator_line(record))
        return record

    def _build_all(self, op, work: Path) -> dict[str, object]:
        """Every object of the chosen areas (once, if several binaries link it) built with `op`: its MutantFatbin,
        None (nothing to change), Invalid or Broken."""
        manifests = {m["object"]: m for _, listed in self._objects.values() for m in listed}
        if not manifests:
            return {}

        def build(index: int, manifest: dict):
            workdir = work / f"{index:04d}-{Path(manifest['object']).name}"
            workdir.mkdir(parents=True, exist_ok=True)
            try:
                return self.engine.build_mutant(manifest, op, workdir)
            except self.engine.mutant_error as error:
                return Invalid(manifest["object"], one_line(error))
            except Exception as error:  # noqa: BLE001 - an engine bug on one object is reported, the campaign goes on
                return Broken(manifest["object"], f"{type(error).__name__}: {one_line(error)}")

        threads = self.plan.build_jobs or os.cpu_count() or 1
        with ThreadPoolExecutor(max_workers=min(threads, len(manifests)), thread_name_prefix="mutant") as pool:
            futures = {name: pool.submit(build, index, manifest)
                       for index, (name, manifest) in enumerate(sorted(manifests.items()))}
        return {name: future.result() for name, future in futures.items()}

    def _run_mutants(self, folder: Path, to_run: dict[str, list], sources: dict[str, set[str]],
                     mutants: dict[str, dict]) -> None:
        """Patches the changed binaries into the overlay and runs them, in two steps. With `plan.focus`, first only
        the judges written in the sources of the objects the operator changed (a kernel is most often tested in its
        own file): a kill there is a kill. Then every area not killed so runs whole, so that `survived` always means
        that every judge of the area passed."""
        bin_dir = make_overlay(self.plan.build_dir, folder)
        ready = []
        for area, changed in to_run.items():
            binary = self._objects[area][0]
            try:
                self.engine.patch_executable(binary, bin_dir / binary.name,
                                             [(m.original, m.mutant) for m in changed])
                (bin_dir / binary.name).chmod(0o755)
                ready.append(area)
            except self.engine.mutant_error as error:
                mutants[area].update(status=MutantStatus.INVALID.value, why=f"{binary.name}: {one_line(error)}")
            except Exception as error:  # noqa: BLE001
                mutants[area].update(status=MutantStatus.ERROR.value,
                                     why=f"patching {binary.name}: {type(error).__name__}: {one_line(error)}")
        seconds = dict.fromkeys(ready, 0.0)
        undecided = list(ready)
        focus = {area: self._focus(area, sources.get(area, set())) for area in ready} if self.plan.focus else {}
        focused = [area for area in ready if focus.get(area)]
        if focused:
            rules = sorted({_fnmatch_literal(self._rules[test_id]) for area in focused for test_id in focus[area]})
            done = self.harness(folder, focused, folder / FOCUS_RUN, rules)
            if done.usable:  # else the whole areas decide
                tests = _tests_by_id(done.document)
                for area in focused:
                    seconds[area] += _test_seconds(tests, area)
                    verdict = outcome.judge(focus[area], tests)
                    if verdict.status is MutantStatus.KILLED:
                        self._record(mutants[area], verdict, "focused", seconds[area])
                        undecided.remove(area)
        if not undecided:
            return
        done = self.harness(folder, undecided, folder / RUN, ())
        if not done.usable:
            for area in undecided:
                mutants[area].update(status=MutantStatus.ERROR.value, why=f"the harness run: {done.why_not()}")
            return
        tests = _tests_by_id(done.document)
        for area in undecided:
            verdict = outcome.judge(self._judges.get(area, []), tests)
            self._record(mutants[area], verdict, "whole area", seconds[area] + _test_seconds(tests, area))

    def _focus(self, area: str, sources: set[str]) -> list[str]:
        """The area's judges whose rule is written in one of `sources` (the mutated objects' source files)."""
        return [test_id for test_id in self._judges.get(area, [])
                if any(_same_file(self._sources.get(test_id, ""), source) for source in sources)]

    def _record(self, entry: dict, verdict, run: str, seconds: float) -> None:
        entry.update(status=verdict.status.value, killed_by=verdict.killed_by, seconds=round(seconds, 3), run=run,
                     judges=len(self._judges.get(entry["area"], [])))
        if verdict.killed_by:
            entry.update(killing_status=verdict.killing_status, killers=verdict.killers)


def _tests_by_id(document: dict) -> dict[str, dict]:
    return {test["id"]: test for test in document.get("tests") or [] if isinstance(test, dict) and "id" in test}


def _test_seconds(tests: dict[str, dict], area: str) -> float:
    return sum(test.get("duration") or 0.0 for test in tests.values() if overview.area_of(test) == area)


def _same_file(a: str, b: str) -> bool:
    """Whether two paths name one source: the same file, or the same path below suites/ (a build made elsewhere)."""
    if not a or not b:
        return False
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    marker = "/suites/"
    return marker in a and marker in b and a.rsplit(marker, 1)[1] == b.rsplit(marker, 1)[1]


def _fnmatch_literal(text: str) -> str:
    """`text` as an fnmatch pattern that matches only itself (--rule takes patterns)."""
    return "".join(f"[{c}]" if c in "*?[" else c for c in text)


def operator_line(record: dict) -> str:
    """One console line per operator: its mutants by status, the areas where one survived, its seconds."""
    counted = outcome.counts(m["status"] for m in record["mutants"])
    parts = [f"{counted[status]} {status}" for status in outcome.STATUSES if counted[status]]
    survivors = [m["area"] for m in record["mutants"] if m["status"] == MutantStatus.SURVIVED.value]
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
