"""The journal of a run: `journal.jsonl` in its report folder, one JSON line per finished test, written as each test
finishes. It is what `scripts/conformance run --resume reports/<run>` continues from after Ctrl-C, a killed job or a
lost machine.

    line 1      {"journal": 1, "run": {...how to run it again...}, "selection": {...}}
    then        one test each, as results.json holds it (reports/README.md)

Each line is written whole and flushed at once (a killed harness loses nothing that finished; the kernel has it),
and the file is fsync'ed at most once a second (a lost machine loses at most that second). A harness killed in the
middle of a write leaves a last line without its newline: the reader drops it, and that test runs again.

The file's form (a header line, then one JSON object a line, appended whole; a cut last line dropped) is also a
mutation campaign's mutation.jsonl (mutation/progress.py): read_entries, append_entry and cut_partial_line are its.
"""

from __future__ import annotations

import json
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from cuconform.catalog import TestCase
from cuconform.gtest import Attempt
from cuconform.results import TestRecord
from cuconform.status import Status

JOURNAL = "journal.jsonl"
FORMAT = 1
SYNC_EVERY_S = 1.0


class JournalError(Exception):
    """A journal that cannot be read; str() is one line for the user."""


@dataclass
class JournalContents:
    header: dict
    tests: dict[str, dict] = field(default_factory=dict)  # id -> results.json entry
    dropped_partial_line: bool = False


class Journal:
    """Appends finished tests to a journal; thread-safe (the scheduler's workers finish tests). Lines written before
    the report folder is known (a run starts before its folder is named) wait in memory until `open`."""

    def __init__(self, header: dict | None):
        """A new journal that starts with `header`, or (None) one that goes on after an interrupted run's last
        whole line."""
        self._lock = threading.Lock()
        self._append = header is None
        self._pending = [] if header is None else [_line(header)]
        self._stream = None
        self._closed = False
        self._synced = time.monotonic()
        self.path: Path | None = None

    def open(self, path: Path) -> None:
        with self._lock:
            if self._stream is not None or self._closed:
                return
            self.path = path
            path.parent.mkdir(parents=True, exist_ok=True)
            if self._append and path.exists():
                cut_partial_line(path)
            self._stream = open(path, "a" if self._append else "w", encoding="utf-8", newline="\n")
            self._stream.write("".join(self._pending))
            self._stream.flush()
            self._pending = []

    def write(self, record: TestRecord) -> None:
        line = _line(record.to_json())
        with self._lock:
            if self._closed:
                return
            if self._stream is None:
                self._pending.append(line)
                return
            self._stream.write(line)
            self._stream.flush()
            if time.monotonic() - self._synced >= SYNC_EVERY_S:
                os.fsync(self._stream.fileno())
                self._synced = time.monotonic()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            if self._stream is not None:
                self._stream.flush()
                os.fsync(self._stream.fileno())
                self._stream.close()
                self._stream = None


def _line(entry: dict) -> str:
    return json.dumps(entry, ensure_ascii=False) + "\n"


def cut_partial_line(path: Path) -> None:
    """Drops a last line that has no newline (the harness was killed while writing it)."""
    with open(path, "rb+") as stream:
        data = stream.read()
        end = data.rfind(b"\n") + 1
        if end != len(data):
            stream.truncate(end)


def read_entries(path: Path) -> tuple[list[dict], bool]:
    """Every whole line of a journal file as a JSON object (none: an empty file), and whether a last line without its
    newline (cut while it was written) was dropped. JournalError: a file that cannot be read or holds a line that is
    not one JSON object."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise JournalError(f"{path}: cannot read: {error}") from None
    lines = data.split(b"\n")
    partial = lines.pop()  # after the last newline: b"" when the last line is whole
    entries = []
    for number, line in enumerate(lines, 1):
        try:
            entry = json.loads(line.decode("utf-8"))
        except ValueError:
            raise JournalError(f"{path}, line {number}: not a JSON line: {line[:80]!r}") from None
        if not isinstance(entry, dict):
            raise JournalError(f"{path}, line {number}: not a JSON object")
        entries.append(entry)
    return entries, bool(partial)


def append_entry(path: Path, entry: dict) -> None:
    """Appends one whole line to a journal file, on disk (fsync'ed) when it returns."""
    with open(path, "a", encoding="utf-8", newline="\n") as stream:
        stream.write(_line(entry))
        stream.flush()
        os.fsync(stream.fileno())


def read(path: Path) -> JournalContents:
    entries, partial = read_entries(path)
    if not entries:
        raise JournalError(f"{path}: empty: the run was stopped before it chose its tests; start it again")
    header = entries[0]
    if header.get("journal") != FORMAT or not isinstance(header.get("run"), dict):
        raise JournalError(f"{path}: not a cuconform journal (format {FORMAT})")
    contents = JournalContents(header, dropped_partial_line=partial)
    for number, entry in enumerate(entries[1:], 2):
        if not isinstance(entry.get("id"), str):
            raise JournalError(f"{path}, line {number}: a test without an id")
        contents.tests[entry["id"]] = entry
    return contents


def restore(case: TestCase, entry: dict) -> TestRecord:
    """The record of a test that finished in an earlier part of the run, as its journal line holds it. It is not
    done yet: the run stage gives it its expectation first (the verdict is the expectation's, as in any run)."""
    attempts = []
    for index, attempt in enumerate(entry.get("attempts") or []):
        status = attempt.get("status")
        attempts.append(
            Attempt(
                Status(status) if status else None,
                float(attempt.get("duration") or 0.0),
                str(attempt.get("message") or ""),
                str(entry.get("output") or "") if index == 0 else str(attempt.get("output") or ""),
                dict(entry.get("metrics") or {}) if index == 0 else {},
                str(attempt["gpus"]) if attempt.get("gpus") is not None else None,
            )
        )
    record = TestRecord(case, attempts=attempts, restored=True)
    record.nodeid = str(entry.get("nodeid") or "")
    return record
