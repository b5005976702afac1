"""One conformance run, independent of pytest: the build, the device, the expectations, the records of the
selected tests, the scheduler that runs them and the reports they end in. plugin.py connects it to pytest.
"""

from __future__ import annotations

import fnmatch
import os
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from cuconform import environment as env
from cuconform.catalog import CatalogError, TestCase, list_binary
from cuconform.expectations import Expectation, Expectations, ExpectationFile, chain_names, load_directory
from cuconform.options import Settings
from cuconform.reports import JUNIT, RESULTS, ReportFolder, results_document, write_readable, write_results
from cuconform.results import TestRecord
from cuconform.runner import Launch
from cuconform.sanitizer import SANITIZER_SLOWDOWN, sanitizer_wrapper
from cuconform.scheduler import Scheduler, plan_batches


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

    # --- the device and its expectations -------------------------------------------------------------------

    @property
    def devices(self) -> dict:
        if self._devices is None:
            self._devices = self.probe.result()
        return self._devices

    @property
    def cc(self) -> str | None:
        return env.compute_capability(self.devices)

    @property
    def expectations(self) -> Expectations:
        if self._expectations is None:
            self._expectations = Expectations([self.files[n] for n in chain_names(self.cc) if n in self.files])
        return self._expectations

    def expectation_for(self, case: TestCase) -> Expectation | None:
        if case.compiler is not None:  # a compile-time rule: its own compiler, not the build's
            return self.expectations.lookup(case.test_id, case.compiler, case.compiler_version)
        return self.expectations.lookup(case.test_id, self.build.get("compiler"), self.build.get("compiler_version"),
                                        self.settings.sanitizer or None)

    def resolve(self, record: TestRecord) -> None:
        """Gives a record its expectation (waiting for the device probe if need be); idempotent."""
        if not record.resolved:
            record.expectation = self.expectation_for(record.case)
            record.resolved = True

    def skipped_somewhere(self, case: TestCase) -> bool:
        """Whether an entry of any expectation file says 'skip' for this test (a known hang on some GPU): before
        the device is known, such a test must not start."""
        compiler, version = self.build.get("compiler"), self.build.get("compiler_version")
        return any(entry.status == "skip" and entry.matches(case.test_id, compiler, version,
                                                            self.settings.sanitizer or None)
                   for file in self.files.values() for entry in file.expectations)

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
        patterns = self.settings.rules
        return not patterns or any(fnmatch.fnmatchcase(case.rule_id, p) or fnmatch.fnmatchcase(case.test_id, p)
                                   for p in patterns)

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
        child_env = dict(os.environ, CUCONFORM_PROFILE=self.settings.profile)
        if slot is not None:
            child_env["CUDA_VISIBLE_DEVICES"] = slot
        if self.settings.sanitizer and not host:
            return Launch(env=child_env, timeout=self.settings.timeout * SANITIZER_SLOWDOWN,
                          wrapper=sanitizer_wrapper(self.settings.sanitizer))
        return Launch(env=child_env, timeout=self.settings.timeout)

    def _scheduler(self) -> Scheduler:
        if self.scheduler is None:
            self.scheduler = Scheduler(jobs=self.jobs, slots=env.gpu_slots(self.gpus, self.jobs),
                                       launch_for=self.launch_for, resolve=self.resolve, host_jobs=self.host_jobs)
            self.scheduler.start()
        return self.scheduler

    def start_early(self, cases: list[TestCase]) -> None:
        """Starts running `cases` before pytest has started (scripts/conformance does this when no pytest option
        can change the selection): the GPU works while pytest imports and collects, and while the device probe
        runs. A test that an expectation file anywhere says to skip waits until the device is known."""
        records = [TestRecord(case) for case in cases if self.selected_by_rules(case)]
        self.early = {record.case.test_id: record for record in records if not self.skipped_somewhere(record.case)}
        self._scheduler().add(plan_batches(list(self.early.values()), self.jobs, self.settings.batch_size,
                                              self.host_jobs))

    def start(self, records: list[TestRecord]) -> None:
        """Runs `records` (pytest's selection, in its order; those started early among them) in the background;
        each record is done when its result is in."""
        self.records = records
        scheduler = self._scheduler()
        for record in records:
            self.resolve(record)
            if not record.runs:
                record.finish()
        self.stale = self.find_stale()
        late = [record for record in records if self.early.get(record.case.test_id) is not record]
        scheduler.add(plan_batches(late, self.jobs, self.settings.batch_size, self.host_jobs))
        scheduler.close()

    def stop(self) -> None:
        if self.scheduler is not None:
            self.scheduler.stop()

    # --- reports -------------------------------------------------------------------------------------------

    def run_name(self) -> str:
        return env.run_name(self.started, self.cc, self.build)

    def prepare_reports(self) -> Path | None:
        """Chooses the report folder; returns where pytest's JUnit file is to be staged (None: no reports)."""
        if self.settings.output is None and self.settings.reports is None:
            return None
        self.folder = ReportFolder(self.settings.reports, self.settings.output, self.run_name())
        return self.folder.staged(JUNIT)

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
            "timeout_s": self.settings.timeout,
            "jobs": self.jobs,
            "host_jobs": self.host_jobs,
            "visible_gpus": self.gpus,
            "early_start": bool(self.early),
            "host": env.host_info(),
            "devices": self.devices,
            "compute_capability": self.cc,
            "build": self.build,
            "expectation_chain": expectations.chain,
            "cuconform_commit": env.git_commit(),
            "processes": self.scheduler.processes if self.scheduler else 0,
        }

    def write_reports(self, complete: bool) -> Path | None:
        self.ended = env.now()
        self._environment = self.environment()
        if self.folder is None:
            return None
        document = results_document(self._environment, self.reported, self.stale, complete)
        write_results(self.folder.staged(RESULTS), document)
        write_readable(document, self.folder.staging)
        return self.folder.publish()
