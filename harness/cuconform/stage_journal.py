"""Stage 4 of a run, journal: one line per finished test in `journal.jsonl` (journal.py: the file), what
`--resume` continues from.

It takes select's result (the journal's header records the selection; a resumed run must have the interrupted
run's) and then each test the run stage finishes. Lines wait in memory until the report folder is named. Once the
run is being stopped nothing more is journaled: a test killed by the stop has no result, and runs on --resume.

The journal of an interrupted run is an input of the run that continues it, like the expectation files: `take` reads
it before anything is chosen, and the run stage restores its finished tests instead of running them again.
"""

from __future__ import annotations

import os
import threading
from datetime import datetime
from pathlib import Path

from cuconform import journal as journal_file
from cuconform.journal import JOURNAL, JournalContents, JournalError
from cuconform.reports import ReportFolder
from cuconform.results import TestRecord
from cuconform.shard import SelectionError
from cuconform.stage_select import Selected


def take(folder: ReportFolder) -> JournalContents:
    """The journal of the interrupted run `folder` holds, moved into the staging folder this run writes to."""
    staged = folder.staged(JOURNAL)
    published = folder.final / JOURNAL
    if not staged.exists() and published.exists():
        staged.parent.mkdir(parents=True, exist_ok=True)
        os.replace(published, staged)
    if not staged.exists():
        raise JournalError(f"{folder.final}: no {JOURNAL}: not a run that can be resumed")
    return journal_file.read(staged)


class Journaling:
    """The journal stage of one run (`wanted`: whether the run writes reports, and so a journal)."""

    def __init__(self, wanted: bool, rerun: dict | None, started: datetime):
        self.wanted = wanted
        self.rerun = rerun
        self.started = started
        self.journal: journal_file.Journal | None = None
        self.path: Path | None = None
        self.finished_ids: set[str] = set()  # tests that finished in this run or the one it continues
        self._stopping = False
        self._finishing = threading.Lock()

    def begin(self, selected: Selected, resumed: JournalContents | None, resumed_from: Path | None) -> None:
        """Starts the journal of the run that selected `selected`; a resumed run goes on with the journal it
        continues, which must have selected the same tests (SelectionError)."""
        if resumed is not None:
            before = resumed.header.get("selection") or {}
            selection = selected.selection
            if before != selection.to_json():
                raise SelectionError(
                    f"cannot resume {resumed_from}: it selected {before.get('size', '?')} tests (shard "
                    f"{before.get('shard', '?')}), this build and these options select {selection.size} (shard "
                    f"{selection.shard}) and not the same ones: the build or the expectations changed"
                )
        if not self.wanted:
            return
        self.journal = journal_file.Journal(
            None
            if resumed is not None
            else {
                "journal": journal_file.FORMAT,
                "run": self.rerun or {},
                "selection": selected.selection.to_json(),
                "started": self.started.isoformat(timespec="seconds"),
            }
        )
        if self.path is not None:
            self.journal.open(self.path)

    def open(self, path: Path) -> None:
        """Where the journal is written, once the report folder is named."""
        self.path = path
        if self.journal is not None:
            self.journal.open(path)

    def finished(self, record: TestRecord) -> bool:
        """Journals a test that finished in this run (called by the run stage's workers); False once stopping."""
        with self._finishing:
            if self._stopping:
                return False
            self.finished_ids.add(record.case.test_id)
        if self.journal is not None:
            self.journal.write(record)
        return True

    def restored(self, record: TestRecord) -> None:
        """A test that finished in the run this one continues: its line is in the journal already."""
        self.finished_ids.add(record.case.test_id)

    def stop(self) -> None:
        """From now on what ends is cut short (killed by the harness, never run), not finished."""
        with self._finishing:
            self._stopping = True

    def close(self) -> None:
        if self.journal is not None:
            self.journal.close()
