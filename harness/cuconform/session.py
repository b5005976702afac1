"""One conformance run, independent of pytest: the build, the device, the expectations, the records of the
selected tests, the scheduler that runs them and the reports they end in. plugin.py connects it to pytest.
"""

from __future__ import annotations

import fnmatch
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from cuconform import durations
from cuconform import environment as env
from cuconform import journal as journaling
from cuconform.catalog import CatalogError, TestCase, list_binary
from cuconform.expectations import Expectation, Expectations, ExpectationFile, chain_names, load_directory
from cuconform.options import Settings
from cuconform.protocol import PROFILE_ENV
from cuconform.junit import write_junit
from cuconform.progress import Progress
from cuconform.reports import JUNIT, ReportFolder, results_document, write_documents
from cuconform.gtest import Attempt
from cuconform.results import TestRecord
from cuconform.runner import Launch
from cuconform.sanitizer import SANITIZER_SLOWDOWN, sanitizer_wrapper
from cuconform.scheduler import Scheduler, plan_batches
from cuconform.shard import Selection, SelectionError
from cuconform.status import Expected


WORKERS_PER_GPU = 4  # test processes sharing one GPU at a time (exclusive tests still run alone)


class RunSession:
    def __init__(self, settings: Settings, build_dir: Path, probe: env.DeviceProbe | None = None,
                 command: list[str] | None = None):
        self.settings = settings
        self.files: dict[str, ExpectationFile] = load_directory(settings.expectations)  # ExpectationError
        self.build_dir = build_dir.resolve()
        self.build = env.read_build_info(self.build_dir)
        self.probe = probe or env.DeviceProbe(self.build_dir)
        self.command = command or env.command_line()
        self.started = env.now()
        self.ended = None
        self.catalog: dict[Path, list[TestCase]] = {}
        self._listing: dict[Path, Future] = {}
        self.records: list[TestRecord] = []
        self.reported: list[TestRecord] = []
        self.stale: list[Expectation] = []
        self.scheduler: Scheduler | None = None
        self.folder: ReportFolder | None = None
        self._devices: dict | None = None
        self._expectations: Expectations | None = None
        self._environment: dict | None = None
        self.gpus = env.visible_gpu_count()  # sizes the workers before the probe is done; see start_early
        self.early: dict[str, TestRecord] = {}
        self._skip_entries: list[Expectation] | None = None
        self.selection: Selection | None = None  # before sharding; see choose
        self.journal: journaling.Journal | None = None
        self.resumed: journaling.JournalContents | None = None  # the interrupted run this one continues
        self.finished_ids: set[str] = set()  # tests that finished in this run or the one it continues
        self.progress = Progress()
        self.written = False  # whether write_reports ran
        self.stopped_early: str | None = None  # why pytest stopped before every result was reported (-x: its words)
        self._stopping = False
        self._finishing = threading.Lock()
        if settings.resume is not None:
            self.prepare_reports()  # the interrupted run's journal, read before anything is chosen (JournalError)

    # --- the device and its expectations -------------------------------------------------------------------

    @property
    def devices(self) -> dict:
        if self._devices is None:
            self._devices = self.probe.result()
        return self._devices

    @property
    def cc(self) -> str | None:
        """The CC whose expectation chain judges the run: --target-cc (a compile-only run for a target), else the
        GPU's."""
        return self.settings.target_cc or env.compute_capability(self.devices)

    @property
    def expectations(self) -> Expectations:
        if self._expectations is None:
            self._expectations = Expectations([self.files[n] for n in chain_names(self.cc) if n in self.files])
        return self._expectations

    def expectation_for(self, case: TestCase) -> Expectation | None:
        if case.compiler is not None:  # a compile-time rule: its own compiler, not the build's
            # nvcc's and NVRTC's versions are their toolkit's; clang compiles the build's toolkit's headers
            toolkit = case.compiler_version if case.compiler in ("nvcc", "nvrtc") else None
            return self.expectations.lookup(case.test_id, case.compiler, case.compiler_version,
                                            toolkit_version=toolkit or self.build.get("cuda_toolkit"))
        return self.expectations.lookup(case.test_id, self.build.get("compiler"), self.build.get("compiler_version"),
                                        self.settings.sanitizer or None, self.settings.profile,
                                        self.build.get("cuda_toolkit"))

    def resolve(self, record: TestRecord) -> None:
        """Gives a record its expectation (waiting for the device probe if need be); idempotent."""
        if not record.resolved:
            record.expectation = self.expectation_for(record.case)
            record.resolved = True

    def settles(self, record: TestRecord, attempt: Attempt) -> bool:
        """Whether a test's first attempt settles it (called by the scheduler with each raw result): an unexpected
        one does not, and its batch runs again to tell a flake from a failure."""
        self.resolve(record)
        return not record.unexpected(attempt)

    def skipped_somewhere(self, case: TestCase) -> bool:
        """Whether an entry of any expectation file says 'skip' for this test (a known hang on some GPU): before
        the device is known, such a test must not start."""
        compiler, version = self.build.get("compiler"), self.build.get("compiler_version")
        if self._skip_entries is None:
            self._skip_entries = [entry for file in self.files.values() for entry in file.expectations
                                  if entry.status is Expected.SKIP]
        return any(entry.matches(case.test_id, compiler, version, self.settings.sanitizer or None, self.settings.profile,
                                 self.build.get("cuda_toolkit"))
                   for entry in self._skip_entries)

    # --- tests ---------------------------------------------------------------------------------------------

    def prefetch(self, binaries: list[Path]) -> None:
        """Lists the binaries in the background, all at once, while pytest starts."""
        pool = ThreadPoolExecutor(max_workers=min(16, max(1, len(binaries))), thread_name_prefix="list")
        for binary in binaries:
            self._listing[binary.resolve()] = pool.submit(list_binary, binary.resolve())
        pool.shutdown(wait=False)

    def list(self, binary: Path) -> list[TestCase]:
        binary = binary.resolve()
        if binary.parent.parent != self.build_dir:
            raise CatalogError(f"{binary} is not a binary of the build {self.build_dir}: one run covers one build")
        if binary not in self.catalog:
            pending = self._listing.pop(binary, None)
            self.catalog[binary] = pending.result() if pending else list_binary(binary)
        return self.catalog[binary]

    def selected_by_rules(self, case: TestCase) -> bool:
        return case.selected_by(self.settings.rules)

    def find_stale(self) -> list[Expectation]:
        """Entries of the chain that match no test of the listed binaries. An entry naming an area this run did
        not list cannot be judged, and is left out."""
        cases = [case for cases in self.catalog.values() for case in cases]
        areas = {case.area for case in cases}

        def judged(entry: Expectation) -> bool:
            return all(any(fnmatch.fnmatchcase(area, p.split("/", 1)[0]) for area in areas) for p in entry.tests)

        return [entry for entry in self.expectations.stale([c.test_id for c in cases]) if judged(entry)]

    # --- running -------------------------------------------------------------------------------------------

    @property
    def jobs(self) -> int:
        return self.settings.jobs or WORKERS_PER_GPU * max(1, self.gpus)

    @property
    def host_jobs(self) -> int:
        """Workers for the tests that need no GPU: one per core unless --host-jobs says otherwise."""
        return self.settings.host_jobs if self.settings.host_jobs else (os.cpu_count() or 1)

    def launch_for(self, slot: str | None, host: bool = False) -> Launch:
        child_env = dict(os.environ, **{PROFILE_ENV: self.settings.profile})
        if slot is not None:
            child_env["CUDA_VISIBLE_DEVICES"] = slot
        if self.settings.sanitizer and not host:
            return Launch(env=child_env, timeout=self.settings.timeout * SANITIZER_SLOWDOWN,
                          wrapper=sanitizer_wrapper(self.settings.sanitizer))
        return Launch(env=child_env, timeout=self.settings.timeout)

    def _scheduler(self) -> Scheduler:
        if self.scheduler is None:
            self.scheduler = Scheduler(jobs=self.jobs, slots=env.gpu_slots(self.gpus, self.jobs),
                                       launch_for=self.launch_for, settles=self.settles, host_jobs=self.host_jobs,
                                       on_finished=self._finished)
            self.scheduler.start()
        return self.scheduler

    def choose(self, cases: list[TestCase]) -> list[TestCase]:
        """This run's share of the selected `cases`: all of them, or its shard's (shard.py). Records the selection
        for the reports and the journal; a resumed run must have the interrupted run's."""
        selection = Selection.of([case.test_id for case in cases], self.settings.shard)
        if self.selection is not None and selection != self.selection:
            raise SelectionError(f"pytest selected {selection.size} tests, the run started with {self.selection.size}")
        if self.selection is None:
            if self.resumed is not None:
                before = self.resumed.header.get("selection") or {}
                if before != selection.to_json():
                    raise SelectionError(
                        f"cannot resume {self.folder.final}: it selected {before.get('size', '?')} tests (shard "
                        f"{before.get('shard', '?')}), this build and these options select {selection.size} (shard "
                        f"{selection.shard}) and not the same ones: the build or the expectations changed")
            self.selection = selection
            self._open_journal()
        share = selection.share([case.test_id for case in cases])
        return [case for case in cases if case.test_id in share]

    def record_for(self, case: TestCase) -> TestRecord:
        """The record of a selected test: started early, restored from the journal of a resumed run, or new."""
        record = self.early.get(case.test_id)
        if record is not None:
            return record
        entry = self.resumed.tests.get(case.test_id) if self.resumed else None
        if entry is not None and entry.get("attempts"):  # one that was not run (an expected skip) is judged again
            try:
                return journaling.restore(case, entry)
            except (ValueError, TypeError, AttributeError):
                pass  # a journal line this harness cannot read: the test runs again
        return TestRecord(case)

    def start_early(self, cases: list[TestCase]) -> None:
        """Starts running `cases` before pytest has started (scripts/conformance does this when no pytest option
        can change the selection): the GPU works while pytest imports and collects, and while the device probe
        runs. A test that an expectation file anywhere says to skip waits until the device is known."""
        chosen = self.choose([case for case in cases if self.selected_by_rules(case)])
        records = [self.record_for(case) for case in chosen]
        self.early = {record.case.test_id: record for record in records
                      if record.restored or not self.skipped_somewhere(record.case)}
        self._scheduler().add(plan_batches([record for record in self.early.values() if not record.restored],
                                           self.jobs, self.settings.batch_size, self.host_jobs, self._kept_cost()))

    def start(self, records: list[TestRecord]) -> None:
        """Runs `records` (pytest's selection, in its order; those started early among them) in the background;
        each record is done when its result is in."""
        self.records = records
        kept, gpu_present = durations.load(self.build_dir), bool(self.devices.get("devices"))
        self.progress.start(len(records), {record.case.test_id: durations.expected_s(record.case, kept, gpu_present)
                                           for record in records})
        scheduler = self._scheduler()
        for record in records:
            self.resolve(record)
            if record.restored:
                record.finish()
                self.finished_ids.add(record.case.test_id)
                self.progress.add(record.verdict.value, restored=True, test_id=record.case.test_id)
            elif not record.runs:
                record.finish()
                self._finished(record)
        self.stale = self.find_stale()
        late = [record for record in records
                if self.early.get(record.case.test_id) is not record and not record.restored]
        scheduler.add(plan_batches(late, self.jobs, self.settings.batch_size, self.host_jobs, self._kept_cost()))
        scheduler.close()

    def _kept_cost(self) -> Callable[[TestRecord], float]:
        """What each test took when an earlier run of this build ran it (0 when none did), to cut long batches."""
        kept = durations.load(self.build_dir)
        return lambda record: kept.get(record.case.test_id, 0.0)

    def _finished(self, record: TestRecord) -> None:
        """A test has its result (called by the scheduler's workers): journal it, count it. Once the run is being
        stopped, what ends is cut short (killed by the harness, never run), not finished: it runs on --resume."""
        with self._finishing:
            if self._stopping:
                return
            self.finished_ids.add(record.case.test_id)
        if self.journal is not None:
            self.journal.write(record)
        self.progress.add(record.verdict.value, test_id=record.case.test_id)

    def stop(self) -> None:
        with self._finishing:
            self._stopping = True
        if self.scheduler is not None:
            self.scheduler.stop()

    # --- reports -------------------------------------------------------------------------------------------

    def run_name(self) -> str:
        return env.run_name(self.started, self.cc, self.build)

    def prepare_reports(self) -> Path | None:
        """Chooses the report folder (once); returns where pytest's JUnit file is to be staged (None: no reports).
        A resumed run goes on in the interrupted run's folder, from its journal (JournalError)."""
        if self.settings.output is None and self.settings.reports is None:
            return None
        if self.folder is None:
            name = self.settings.output.name if self.settings.output is not None else self.run_name()
            self.folder = ReportFolder(self.settings.reports, self.settings.output, name)
            if self.settings.resume is not None:
                self.resumed = journaling.read(self._take_journal())
        if self.journal is not None:
            self.journal.open(self.folder.staged(journaling.JOURNAL))
        return self.folder.staged(JUNIT)

    def _take_journal(self) -> Path:
        """The interrupted run's journal, moved into the staging folder this run writes to."""
        staged = self.folder.staged(journaling.JOURNAL)
        published = self.folder.final / journaling.JOURNAL
        if not staged.exists() and published.exists():
            staged.parent.mkdir(parents=True, exist_ok=True)
            os.replace(published, staged)
        if not staged.exists():
            raise journaling.JournalError(f"{self.folder.final}: no {journaling.JOURNAL}: not a run that can be resumed")
        return staged

    def _open_journal(self) -> None:
        """Starts the journal once the selection is known; it is written into the report folder once that is."""
        if self.settings.output is None and self.settings.reports is None:
            return
        self.journal = journaling.Journal(None if self.resumed is not None else {
            "journal": journaling.FORMAT, "run": self.settings.rerun or {}, "selection": self.selection.to_json(),
            "started": self.started.isoformat(timespec="seconds")})
        if self.folder is not None:
            self.journal.open(self.folder.staged(journaling.JOURNAL))

    def final_records(self) -> list[TestRecord]:
        """The tests the reports hold, in run order: those pytest reported and, when the run was cut short, the
        others that finished too (a worker may be ahead of pytest, which takes results in order)."""
        reported = {id(record) for record in self.reported}
        records = self.records or list(self.early.values())
        return [record for record in records if id(record) in reported or record.case.test_id in self.finished_ids]

    def environment(self) -> dict:
        """The run's environment; fixed once the reports are written."""
        if self._environment is not None:
            return self._environment
        expectations = self.expectations
        return {
            "run": self.folder.name if self.folder else self.run_name(),
            "started": self.started.isoformat(timespec="seconds"),
            "ended": (self.ended or env.now()).isoformat(timespec="seconds"),
            "command": self.command,
            "profile": self.settings.profile,
            "sanitizer": self.settings.sanitizer or None,
            "timeout_s": self.settings.timeout,
            "jobs": self.jobs,
            "host_jobs": self.host_jobs,
            "visible_gpus": self.gpus,
            "early_start": bool(self.early),
            "host": env.host_info(),
            "devices": self.devices,
            "compute_capability": self.cc,
            "build": self.build,
            "math_reference": env.find_math_reference(self.build_dir),
            "expectation_chain": expectations.chain,
            "cuconform_commit": env.git_commit(),
            "processes": self.scheduler.processes if self.scheduler else 0,
            "batches": sorted(self.scheduler.timeline, key=lambda run: run["start_s"]) if self.scheduler else [],
            **({"resumed": {"restored_tests": sum(1 for r in self.records if r.restored),
                            "first_started": self.resumed.header.get("started")}} if self.resumed else {}),
        }

    def keep_durations(self) -> None:
        """The durations of the tests this run ran, for the next run's estimate (a GPU test without a GPU, a compile
        judged from the compile cache and a restored test say nothing about what the test costs)."""
        gpu_present = bool(self.devices.get("devices"))
        durations.save(self.build_dir, {
            record.case.test_id: record.duration for record in self.final_records()
            if record.attempts and not record.restored and record.metrics.get("compile_cache") != "hit"
            and (gpu_present or not record.case.gpu)})

    def write_reports(self, complete: bool) -> Path | None:
        self.written = True
        self.ended = env.now()
        self._environment = self.environment()
        if self.journal is not None:
            self.journal.close()
        self.keep_durations()
        if self.folder is None:
            return None
        document = results_document(self._environment, self.final_records(), self.stale, complete,
                                    self.selection.to_json() if self.selection else None)
        write_documents(self.folder.staging, document)
        # From the results, not from pytest's junitxml plugin: the same file, without its cost per test (a third of
        # the harness's own time), and complete when pytest stopped early (-x, Ctrl-C).
        write_junit(self.folder.staged(JUNIT), [("cuconform", self._environment, document["tests"])])
        return self.folder.publish()
