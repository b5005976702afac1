"""A mutation campaign: how many injected compiler bugs the suite notices (README.md, "Measuring the suite's
sensitivity"; `scripts/conformance mutate`). This module runs its steps in order; each step has a module of its own:

    capture build   capture_build.py: build/mutation, configured from a preset with the capture launcher
                    (capture.py): every object leaves <object>.mut/manifest.json, what rebuild.py needs
    baseline        baseline.py: the chosen areas, run once through the harness (DIR/baseline/); the tests that pass
                    there judge
    census          census.py: the areas with host-side mutants run once under libcuconform-interpose.so counting
                    the calls each operator would change (DIR/census/): a host-side mutant whose operator would change
                    none of its area's calls is not applicable without a run
    sites           sites.py: each object's PTX scanned once for every operator's sites (DIR/sites.json): ptxas runs
                    only for an (operator, object) with a site; the generic integer operators are sampled (sample.py)
    batches         batches.py: the operators in order, grouped until a batch holds `plan.batch_mutants` mutants
    rebuilds        rebuild_pool.py: a batch's (operator, object) pairs rebuilt on every host core while the GPU
                    runs something else: the first batch's during the baseline and the census, each later one's
                    during the batch before it; each call (a resumed one too) begins with a batch of host-side
                    operators, which needs no rebuild, when one is left (ready_first)
    passes          passes.py: each mutant (operator, area) patched into one overlay (overlay.py, DIR/mutants/<batch>/)
                    as bin/cuconform-<area>@<operator>, judged by a focused, then a whole-area harness run
    classification  classify.py: each mutant's entry, from its rebuilds and from the run that judged it
    progress        progress.py: each operator appended to DIR/mutation.jsonl as its batch ends, so that --resume
                    goes on where a cut campaign stopped; batch_state.py: a batch cut in the middle keeps its patched
                    binaries and its finished runs, and goes on at the run that was cut (that run at its unfinished
                    tests)
    deadline        with one (--deadline), a batch is begun only when the seconds per mutant measured in this
                    campaign's batches say that it ends before it: the campaign then stops cleanly, cut
    reports         report.py: DIR/results.json (the baseline's results and a `mutation` section, each survivor
                    with its answer from suites/<folder>/survivors.toml: answers.py); report_pages.py: summary.md,
                    report.html

The engine (operators.py, rebuild.py, patch.py, capture.py, sites.py: plan.Engine) and the harness runs (runs.py) are
given to the `Campaign`, so that its tests run it with fakes of both.
"""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from cuconform.catalog import area_of
from cuconform.mutation import answers as answering
from cuconform.mutation import batch_state, classify, outcome
from cuconform.mutation.answers import Answers
from cuconform.mutation.baseline import BASELINE, Judges, run_baseline
from cuconform.mutation.batch_state import Kept
from cuconform.mutation.batches import Batch, Planner
from cuconform.mutation.census import Census, areas_to_count, take_census
from cuconform.mutation.equivalent import Equivalents
from cuconform.mutation.outcome import MutantStatus
from cuconform.mutation.passes import Passes
from cuconform.mutation.plan import CampaignError, Engine, Plan
from cuconform.mutation.progress import PROGRESS, Progress
from cuconform.mutation.rebuild_pool import Built, rebuild
from cuconform.mutation.report import results_document
from cuconform.mutation.report_pages import PART
from cuconform.mutation.runs import Harness, subprocess_harness
from cuconform.mutation.runtime_operators import is_runtime
from cuconform.mutation.views import CAPTURE_BUILD_STEP, CENSUS_STEP, CUT_STEP
from cuconform.reports import write_documents
from cuconform.results_file import ResultsError, read

MUTANTS = "mutants"
WORK = "work"
SITES = "sites.json"


class Campaign:
    def __init__(
        self,
        plan: Plan,
        engine: Engine,
        equivalents: Equivalents,
        harness: Harness | None = None,
        say: Callable[[str], None] = print,
        answers: Answers = answering.NONE,
        build_seconds: float | None = None,
        deadline: float | None = None,
    ):
        self.plan = plan
        self.engine = engine
        self.equivalents = equivalents
        self.answers = answers  # suites/<folder>/survivors.toml: shown beside the survivors in the reports
        self.harness = harness or subprocess_harness(plan)
        self.say = say
        self.baseline: dict | None = None
        self.judges = Judges({}, {})
        self._stop = threading.Event()  # set when the campaign is cut: rebuilds not begun are not made
        self.build_seconds = build_seconds  # the capture build's configure and build in this command (mutation.jsonl)
        self.deadline = deadline  # a Unix time: no batch is begun that would end after it
        self.cut_short: str | None = None  # why the deadline stopped the campaign before its end
        self._resume = False
        self._unsaved: tuple[str, float] | None = None  # the batch in progress, since when its seconds are in no file

    @property
    def output(self) -> Path:
        return self.plan.output

    def objects(self) -> dict[str, tuple[Path, list[dict]]]:
        """Each chosen area's binary and the manifests of its objects (none: every operator is not applicable)."""
        by_area = {
            area_of(binary): (binary, manifests)
            for binary, manifests in self.engine.objects(self.plan.build_dir).items()
        }
        return {
            area: by_area.get(area, (self.plan.build_dir / "bin" / f"cuconform-{area}", [])) for area in self.plan.areas
        }

    def planner(
        self, objects: dict[str, tuple[Path, list[dict]]], sites: dict | None, census: Census | None = None
    ) -> Planner:
        return Planner(objects, sites, self.plan.sample, self.equivalents, self.plan.batch_mutants, census=census)

    def run(self, resume: bool = False) -> dict:
        """Runs (or goes on with) the campaign; returns the results document it wrote to DIR/results.json."""
        progress_path = self.output / PROGRESS
        if resume:
            progress = Progress.read(progress_path)
            if progress.header != self.plan.header():
                raise CampaignError(
                    f"{progress_path}: recorded for another campaign (build, areas, operators, "
                    "timeout, profile, sample or expectations differ): leave those options out with "
                    "--resume"
                )
        else:
            if progress_path.exists():
                raise CampaignError(
                    f"{self.output} holds a campaign already: --resume goes on with it, or give another --output"
                )
            progress = Progress(progress_path)
        self.output.mkdir(parents=True, exist_ok=True)
        objects = self.objects()
        if progress.header is None:  # before the baseline: a campaign cut in its baseline resumes too
            progress.start(self.plan.header())
        if self.build_seconds is not None:
            progress.append_step(CAPTURE_BUILD_STEP, self.build_seconds)
        self._resume = resume
        remaining = [self.engine.operator(name) for name in self.plan.operators if name not in progress.done]
        sites = self.index_sites(objects)
        # The batches' mutants are rebuilt (host cores) while the GPU runs something else: the first batch that needs
        # rebuilds during the baseline and the census (which settles host-side mutants only: that batch is the same
        # without it), each later one during the batch before it; a batch that needs none goes first (ready_first).
        ahead = ThreadPoolExecutor(max_workers=1, thread_name_prefix="next-batch")
        prepared: dict[str, tuple[Batch, Future]] = {}

        def prepare(batch: Batch) -> Future:
            early = prepared.pop(batch.label, None)
            if early and same_batch(early[0], batch):
                return early[1]
            if not needs_rebuilds(batch):  # nothing to rebuild: not queued behind the rebuilds of another batch
                ready: Future = Future()
                ready.set_result(self.prepare(batch))
                return ready
            return ahead.submit(self.prepare, batch)

        try:
            early = next((b for b in self.planner(objects, sites).batches(remaining) if needs_rebuilds(b)), None)
            if early is not None:
                prepared[early.label] = (early, ahead.submit(self.prepare, early))
            self.baseline, self.judges = run_baseline(self.plan, self.harness, resume, self.say)
            census = self.census(remaining, progress)
            batches = ready_first(self.planner(objects, sites, census).batches(remaining))
            settled = [
                e
                for b in batches
                for listed in b.entries.values()
                for e in listed
                if e.get("settled_by") == CENSUS_STEP
            ]
            if settled:
                self.say(f"census: {_count(len(settled), 'host-side mutant')} not applicable without a run")
            upcoming = prepare(batches[0]) if batches else None
            if batches:
                self.say(
                    f"plan: {sum(len(b.operators) for b in batches)} operators left, "
                    f"{sum(b.mutants() for b in batches)} mutants to build and run in {len(batches)} batches "
                    f"(at most 2 harness runs each); {self.plan.sample.describe()}"
                )
            for index, batch in enumerate(batches):
                if self.out_of_time(batch, progress, len(batches) - index):
                    self._stop.set()  # the next batch's rebuilds are not needed in this command
                    break
                waiting = time.monotonic()
                built = upcoming.result()
                waited = time.monotonic() - waiting
                if index + 1 < len(batches):
                    upcoming = prepare(batches[index + 1])
                for record in self.judge(batch, built, waited, f"{index + 1}/{len(batches)}"):
                    progress.append(record)
                self._unsaved = None
        except BaseException:
            self._stop.set()  # Ctrl-C, SIGTERM: the rebuilds queued are dropped, not made before the exit
            if self._unsaved is not None:  # where the cut call's time went: in no batch's line
                label, since = self._unsaved
                progress.append_step(CUT_STEP, time.monotonic() - since, batch=label)
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

    def out_of_time(self, batch: Batch, progress: Progress, left: int) -> bool:
        """Whether the deadline comes before the batch could end, at the seconds per mutant that this campaign's
        batches took (none measured yet: it is begun). Says so, and sets `cut_short`."""
        if self.deadline is None:
            return False
        by_batch: dict[str, tuple[float, int]] = {}
        for record in progress.operators:
            timing = record.get("batch") or {}
            seconds, mutants = by_batch.get(timing.get("label"), (0.0, int(timing.get("mutants") or 0)))
            by_batch[timing.get("label")] = (seconds + float(record.get("seconds") or 0.0), mutants)
        mutants = sum(count for _, count in by_batch.values())
        if not mutants:
            return False
        needed = sum(seconds for seconds, _ in by_batch.values()) / mutants * batch.mutants()
        kept = batch_state.load(self.output / MUTANTS / batch.label, batch) if self._resume else None
        if kept is not None:  # a batch cut in a call before: what it kept is not made again
            needed = max(needed - kept.seconds, 0.0)
        remaining = self.deadline - time.time()
        if needed <= remaining:
            return False
        self.cut_short = (
            f"deadline: {max(remaining, 0):.0f} s left, batch {batch.label} ({batch.mutants()} mutants) needs about "
            f"{needed:.0f} s at this campaign's {needed / max(batch.mutants(), 1):.2f} s a mutant: stopped before "
            f"it, {left} batch{'' if left == 1 else 'es'} left"
        )
        self.say(self.cut_short)
        return True

    def write_reports(self, progress: Progress) -> dict:
        document = results_document(
            self.baseline, progress.operators, self.plan, self.equivalents, self.answers, progress.steps
        )
        write_documents(self.output, document, [PART])
        return document

    def census(self, operators: list, progress: Progress) -> Census | None:
        """The census of the areas where `operators` have host-side mutants (census.py; a resumed campaign's is
        reused), or None when there are none or the plan takes no census (`--census`); its seconds in this call are
        mutation.jsonl's census step."""
        areas = areas_to_count(self.plan, operators) if self.plan.census else ()
        if not areas:
            return None
        found, seconds = take_census(
            self.plan, self.harness, self.baseline or {}, areas, self.judges.failed_in, self._resume, self.say
        )
        if seconds is not None:
            progress.append_step(CENSUS_STEP, seconds, areas=len(areas), **({"failed": True} if found.failed else {}))
        return found

    def index_sites(self, objects: dict[str, tuple[Path, list[dict]]]) -> dict[str, dict[str, int]] | None:
        """Each object's sites per operator (DIR/sites.json), or None when the engine cannot tell."""
        if self.engine.sites_of is None:
            return None
        started = time.monotonic()
        manifests = list({m["object"]: m for _, listed in objects.values() for m in listed}.values())
        found = self.engine.sites_of(manifests, self.output / SITES, self.plan.build_jobs)
        pairs = sum(1 for counts in found.values() for sites in counts.values() if sites)
        self.say(
            f"time: sites of {len(found)} objects scanned in {time.monotonic() - started:.1f} s: "
            f"{pairs} (operator, object) pairs have a site, of {len(found) * len(self.engine.operators)}"
        )
        return found

    def prepare(self, batch: Batch) -> tuple[Built, Kept | None]:
        """The batch's rebuilds; or, in a resumed campaign, what the batch kept when it was cut after its mutants
        were patched (batch_state.py): then nothing is rebuilt."""
        kept = batch_state.load(self.output / MUTANTS / batch.label, batch) if self._resume else None
        if kept is not None:
            return Built({}, by_operator=kept.build_seconds), kept
        return self.build(batch), None

    def build(self, batch: Batch) -> Built:
        """The batch's rebuilds (rebuild_pool.py); those not begun when the campaign is cut are CANCELLED."""
        return rebuild(batch, self.engine, self.output / MUTANTS / batch.label / WORK, self.plan.build_jobs, self._stop)

    def judge(self, batch: Batch, prepared: tuple[Built, Kept | None], waited: float, label: str) -> list[dict]:
        """The batch's mutants judged: its records, one per operator, for mutation.jsonl."""
        started = time.monotonic()
        built, kept = prepared
        folder = self.output / MUTANTS / batch.label
        slots = [slot for op in batch.operators for slot in batch.slots[op.name]]
        names = batch.operators[0].name + (f" .. {batch.operators[-1].name}" if len(batch.operators) > 1 else "")
        if kept is None:
            to_run = [slot for slot in slots if classify.from_rebuilds(slot, built.results, self.equivalents)]
            timing = {
                "mutants": batch.mutants(),
                "rebuilds": len(built.results),
                "rebuild_wall": round(built.wall, 3),
                "rebuild_cpu": round(built.cpu, 3),
                "waited": round(waited, 3),
            }
            self.say(
                f"time: batch {label} ({_count(len(batch.operators), 'operator')}: {names}): "
                f"{len(built.results)} (operator, object) rebuilds in "
                f"{built.wall:.1f} s ({built.cpu:.1f} s over the threads), waited {waited:.1f} s for them; "
                f"{len(to_run)} of {batch.mutants()} mutants to run"
            )
        else:
            to_run, _, _ = kept.restore(slots)
            timing = {**kept.timing, "resumed": int(kept.timing.get("resumed") or 0) + 1}
            self.say(
                f"time: batch {label} ({_count(len(batch.operators), 'operator')}: {names}): going on where it was "
                f"cut ({kept.seconds:.1f} s of it kept: its rebuilds, patched binaries"
                + (" and focused run" if batch_state.FOCUS in kept.runs_done else "")
                + f"); {len(to_run)} of {batch.mutants()} mutants to run"
            )
        before = kept.seconds if kept is not None else 0.0
        self._unsaved = (batch.label, started - waited)

        def checkpoint(ready, focus, done) -> None:
            seconds = before + time.monotonic() - started + waited
            batch_state.save(folder, slots, to_run, ready, focus, done, timing, built.by_operator, seconds)
            self._unsaved = (batch.label, time.monotonic())

        if to_run:
            Passes(self.plan, self.engine, self.harness, self.judges, self.say).run(
                folder, to_run, timing, kept, checkpoint
            )
        if not self.plan.keep_binaries:
            for scratch in (folder / WORK, folder / batch_state.BIN):
                shutil.rmtree(scratch, ignore_errors=True)
        batch_state.forget(folder)
        seconds = before + time.monotonic() - started + waited
        runs = timing.get("focus_seconds", 0.0) + timing.get("whole_seconds", 0.0)
        records = []
        for op in batch.operators:
            share = 1 / len(batch.operators)
            record = {
                "operator": op.name,
                "family": op.family,
                "seconds": round(seconds * share, 3),
                "build_seconds": round(built.by_operator.get(op.name, 0.0), 3),
                "run_seconds": round(runs * share, 3),
                "batch": {"label": batch.label, **timing},
                "mutants": batch.entries[op.name],
            }
            if batch.sampled_out[op.name]:
                record["sampled_out"] = batch.sampled_out[op.name]
            self.say(operator_line(record))
            records.append(record)
        return records


def needs_rebuilds(batch: Batch) -> bool:
    """Whether a batch has PTX mutants to rebuild (a batch of host-side operators has none: its mutants are scripts)."""
    return any(not is_runtime(op) for op in batch.operators)


def same_batch(batch: Batch, other: Batch) -> bool:
    return batch.label == other.label and [op.name for op in batch.operators] == [op.name for op in other.operators]


def ready_first(batches: list[Batch]) -> list[Batch]:
    """The batches with, when the first needs rebuilds, the first that needs none ahead of it: a call (a resumed one,
    whose baseline and census are read back, too) then begins on the GPU while the next batch's rebuilds run,
    instead of waiting for them."""
    if not batches or not needs_rebuilds(batches[0]):
        return batches
    ready = next((index for index, batch in enumerate(batches) if not needs_rebuilds(batch)), None)
    if ready is None:
        return batches
    return [batches[ready], *batches[:ready], *batches[ready + 1 :]]


def _count(number: int, what: str) -> str:
    return f"{number} {what}" if number == 1 else f"{number} {what}s"


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
