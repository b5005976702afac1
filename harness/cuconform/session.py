"""One conformance run as stages in a fixed order, each a module of its own, each taking what the one before it
handed on and never calling back into it:

    select     stage_select.py    the build's tests, --rule, the shard              -> Selected
    resolve    stage_resolve.py   the expectation entry of each selected test       -> Resolved
    run        stage_run.py       batches, processes, the verdict of raw results    -> finished TestRecords
    journal    stage_journal.py   one line per finished test (--resume)
    report     stage_report.py    results.json, junit.xml, report.html, summary.md, the console summary

The stages are flat modules named `stage_<name>` (rather than a package) so that they sort together and the import
graph test sees them like every other module. `RunSession` only keeps what one run's stages handed on between
pytest's hooks (and scripts/conformance's early start) and calls them in order; plugin.py and cli/conformance/run.py
drive it. Its inputs are read before any stage runs: the settings, the build, the expectation files, the device
probe and, for --resume, the interrupted run's journal.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future
from pathlib import Path

from cuconform import STARTED, durations, since_start
from cuconform import environment as env
from cuconform import stage_journal, stage_report, stage_resolve, stage_run
from cuconform.catalog import TestCase
from cuconform.expectations import ExpectationFile, load_directory
from cuconform.journal import JOURNAL, JournalContents
from cuconform.options import Settings
from cuconform.prerender import Prerendered
from cuconform.progress import Progress
from cuconform.reports import JUNIT, ReportFolder
from cuconform.results import TestRecord
from cuconform.stage_resolve import Judging, Resolved
from cuconform.stage_select import Catalog, Selected, by_rules, select


class RunSession:
    def __init__(
        self,
        settings: Settings,
        build_dir: Path,
        probe: env.DeviceProbe | None = None,
        command: list[str] | None = None,
    ):
        # The inputs, read before anything is chosen.
        self.settings = settings
        self.files: dict[str, ExpectationFile] = load_directory(settings.expectations)  # ExpectationError
        self.build_dir = build_dir.resolve()
        self.build = env.read_build_info(self.build_dir)
        self.probe = probe or env.DeviceProbe(self.build_dir)
        self.command = command or env.command_line()
        self.started = env.now()
        self.judging = Judging.of(self.build, settings.sanitizer, settings.profile)
        self.folder: ReportFolder | None = None
        self.resumed: JournalContents | None = None  # the interrupted run this one continues
        if settings.resume is not None:  # it goes on in the interrupted run's folder, from its journal (JournalError)
            self.folder = self._report_folder()
            self.resumed = stage_journal.take(self.folder)
        # The stages, and what each handed on.
        self.catalog = Catalog(self.build_dir)
        self.selected: Selected | None = None
        # How the run chose fewer tests than its binaries list (results.json `chosen`): None when it runs them all.
        self.chosen: dict | None = None
        self._resolution: Future = Future()  # Future[Resolved]
        self._resolving = False
        self.resolved: Resolved | None = None  # once pytest's selection runs (the reports' stale entries)
        self.journal = stage_journal.Journaling(self.reports_wanted, settings.rerun, self.started)
        if self.folder is not None:
            self.journal.open(self.folder.staged(JOURNAL))
        self.progress = Progress()
        self.made = Prerendered()  # each finished test's part of the reports, made during the run (issue 35)
        self.durations = durations.Durations.load(durations.path_for(settings.profile, settings.sanitizer))
        workers = stage_run.Workers.of(settings, env.visible_gpu_count())  # sized before the probe is done
        self.running = stage_run.Running(
            settings, self.build_dir, workers, self._resolution, self._finished, self._restored, self.durations
        )
        self.early: dict[str, TestRecord] = {}
        self.records: list[TestRecord] = []
        self.reported: list[TestRecord] = []
        self.ended = None
        self._environment: dict | None = None
        self.written = False  # whether write_reports ran
        self.stopped_early: str | None = None  # why pytest stopped before every result was reported (-x: its words)
        self._devices: dict | None = None
        # When each phase of the run was reached, in seconds since the harness was imported: the harness's own
        # share of a run's time (results.json `phases`; the console's closing lines).
        self.phases: dict[str, float] = {}

    @property
    def reports_wanted(self) -> bool:
        return self.settings.output is not None or self.settings.reports is not None

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
    def selection(self):
        return self.selected.selection if self.selected else None

    @property
    def finished_ids(self) -> set[str]:
        return self.journal.finished_ids

    # --- select --------------------------------------------------------------------------------------------

    def select(self, cases: list[TestCase]) -> Selected:
        """Stage 1 over `cases` (every filter applied); the first selection starts the journal (stage 4)."""
        first = self.selected is None
        self.selected = select(cases, self.settings.shard, self.selected)
        if first:
            self.journal.begin(self.selected, self.resumed, self.folder.final if self.folder else None)
        return self.selected

    # --- resolve -------------------------------------------------------------------------------------------

    def _resolve(self) -> Resolved:
        """Stage 2, once the device is known (it waits for the probe)."""
        selected = self.selected or select([], self.settings.shard)  # pytest collected no test of ours
        return stage_resolve.resolve(selected, self.files, self.cc, self.judging, self.catalog.cases())

    def _resolve_in_background(self) -> None:
        """For a run started before the device is known: resolve as soon as the probe is done."""

        def work() -> None:
            try:
                self._resolution.set_result(self._resolve())
            except BaseException as error:  # noqa: BLE001 - the workers that wait must not wait for ever
                self._resolution.set_exception(error)

        self._resolving = True
        threading.Thread(target=work, daemon=True, name="resolve").start()

    def _resolved(self) -> Resolved:
        if not self._resolving:
            self._resolving = True
            self._resolution.set_result(self._resolve())
        return self._resolution.result()

    # --- run -----------------------------------------------------------------------------------------------

    def record_for(self, case: TestCase) -> TestRecord:
        """The record of a selected test: started early, restored from the journal of a resumed run, or new."""
        early = self.early.get(case.test_id)
        return early if early is not None else stage_run.record_for(case, self.resumed)

    def start_early(self, cases: list[TestCase]) -> None:
        """Starts running `cases` before pytest has started (scripts/conformance does this when no pytest option
        can change the selection): the GPU works while pytest imports and collects, and while the device probe
        runs. A test that an expectation file anywhere says to skip waits until the device is known."""
        self.phases.setdefault("listed_s", since_start())
        selected = self.select(by_rules(cases, self.settings.rules, self.settings.exclude_rules))
        skipped = stage_resolve.skipped_somewhere(self.files, self.judging)
        records = [self.record_for(case) for case in selected.cases]
        self.early = {record.case.test_id: record for record in records if record.restored or not skipped(record.case)}
        self._resolve_in_background()
        self.running.start_early(list(self.early.values()))

    def start(self, records: list[TestRecord]) -> None:
        """Runs `records` (pytest's selection, in its order; those started early among them) in the background;
        each record is done when its result is in."""
        self.records = records
        self.phases.setdefault("listed_s", since_start())
        self.phases["pytest_started_s"] = since_start()
        kept, gpu_present = self.durations, bool(self.devices.get("devices"))
        self.resolved = self._resolved()
        started_early = {id(record) for record in self.early.values()}
        self.running.start(records, self.resolved, started_early)
        if self.reports_wanted:  # those that finished before pytest named them: their parts again, with the name
            for record in records:
                if id(record) in started_early and record.done:
                    self.made.add(record)
        # The progress line measures the run against its plan (tests that finished before this count as done).
        self.progress.start(
            len(records),
            {record.case.test_id: kept.expected_s(record.case, gpu_present) for record in records},
            plan=self.running.expected_finish(),
            origin=self.running.queued_at,
        )

    def stop(self) -> None:
        self.journal.stop()
        self.running.stop()

    def report_order(self) -> dict[str, tuple[float, int, int]]:
        """The order in which pytest should report the running tests (plan.report_order)."""
        return self.running.report_order()

    # --- journal -------------------------------------------------------------------------------------------

    def _finished(self, record: TestRecord) -> None:
        """A test has its result (called by the run stage's workers): journal it, count it."""
        if self.journal.finished(record):
            self.progress.add(record.verdict.value, test_id=record.case.test_id)
            if self.reports_wanted:
                self.made.add(record)
        self.phases["last_result_s"] = since_start()

    def _restored(self, record: TestRecord) -> None:
        self.journal.restored(record)
        if self.reports_wanted:
            self.made.add(record)
        self.progress.add(record.verdict.value, restored=True, test_id=record.case.test_id)

    # --- report --------------------------------------------------------------------------------------------

    def run_name(self) -> str:
        return env.run_name(self.started, self.cc, self.build)

    def _report_folder(self) -> ReportFolder:
        name = self.settings.output.name if self.settings.output is not None else self.run_name()
        return ReportFolder(self.settings.reports, self.settings.output, name)

    def prepare_reports(self) -> Path | None:
        """Names the report folder (once) and points the journal there; returns where junit.xml is to be staged
        (None: no reports)."""
        if not self.reports_wanted:
            return None
        if self.folder is None:
            self.folder = self._report_folder()
        self.journal.open(self.folder.staged(JOURNAL))
        return self.folder.staged(JUNIT)

    def final_records(self) -> list[TestRecord]:
        return stage_report.final_records(self.records or list(self.early.values()), self.reported, self.finished_ids)

    def environment(self) -> dict:
        """The run's environment; fixed once the reports are written."""
        if self._environment is not None:
            return self._environment
        return stage_report.environment(
            stage_report.Facts(
                name=self.folder.name if self.folder else self.run_name(),
                started=self.started,
                ended=self.ended or env.now(),
                command=self.command,
                settings=self.settings,
                workers=self.running.workers,
                early_start=bool(self.early),
                devices=self.devices,
                cc=self.cc,
                build=self.build,
                build_dir=self.build_dir,
                chain=tuple(stage_resolve.chain_of(self.files, self.cc).chain),
                processes=self.running.processes,
                batches=self.running.timeline,
                phases=dict(self.phases),
                restored_tests=sum(1 for record in self.records if record.restored),
                resumed=self.resumed,
                chosen=self.chosen,
            )
        )

    def write_reports(self, complete: bool) -> Path | None:
        self.written = True
        self.ended = env.now()
        self.phases["pytest_done_s"] = since_start()
        if self.running.scheduler is not None:
            self.phases["scheduler_started_s"] = round(self.running.scheduler.created - STARTED, 3)
        self._environment = self.environment()
        self.journal.close()
        self.made.close()
        records = self.final_records()
        stage_report.keep_durations(self.durations, records, bool(self.devices.get("devices")))
        if self.folder is None:
            return None
        written = stage_report.write(
            self.folder,
            self._environment,
            records,
            self.resolved,
            self.selection,
            complete,
            sorted(self.catalog.unstartable.values()),
            self.made,
        )
        self.phases["reports_written_s"] = since_start()
        return written

    def console(self) -> list[str]:
        """The console summary of a run whose reports are written."""
        where = self.folder.final if self.folder and self.folder.final.exists() else None
        records = self.final_records()
        return stage_report.console(
            records, self.resolved, self.environment(), where, len(self.records) - len(records), self.phases
        )
