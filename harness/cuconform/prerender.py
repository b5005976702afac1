"""Each test's part of the reports, made when the test finishes instead of at the end of the run (issue 35).

    made = Prerendered()
    made.add(record)            as each test finishes (a thread of its own makes its parts)
    made.close()                at the end: what is still queued is made, the thread ends
    made.line(test) / made.testcase(test) / made.row(test)    for the writers of results.json, junit.xml, report.html

A test's parts are its line of results.json, its <testcase> of junit.xml (junit.testcase_xml) and its entry of
report.html's packed list (html_report.packed_row): most of the time the reports took at the end. The end joins
them. A part is looked up by the results.json entry it was made from, and used only if the entry at the end is
equal to it: an entry that changed since (pytest named the test after it finished early, its batch ran again) is
made again, so the reports are byte for byte those made at the end.
"""

from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass

from cuconform.html_report import packed_row
from cuconform.junit import testcase_xml
from cuconform.results import TestRecord
from cuconform.results_file import results_line


@dataclass(frozen=True)
class TestParts:
    __test__ = False  # not a test class, whatever pytest thinks of its name
    test: dict  # the results.json entry the parts were made from
    line: str  # results.json
    testcase: tuple[str, str]  # junit.xml: the <testcase> and its outcome
    row: tuple[str, str]  # report.html: the packed entry around its anchor

    @classmethod
    def of(cls, test: dict) -> TestParts:
        return cls(test, results_line(test), testcase_xml(test), packed_row(test))


class Prerendered:
    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[TestRecord | None] = queue.SimpleQueue()
        self._made: dict[str, TestParts] = {}  # by test id
        self._checked: dict[int, tuple[dict, TestParts]] = {}  # by id() of an entry at the end, with the entry
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._closing = False

    def add(self, record: TestRecord) -> None:
        """A finished test: its parts are made in the background."""
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, daemon=True, name="prerender")
                self._thread.start()
        self._queue.put(record)

    def _work(self) -> None:
        while (record := self._queue.get()) is not None:
            if not record.nodeid:  # finished before pytest named it: added again once it has its name
                continue
            try:
                test = record.to_json()
                self._made[test["id"]] = TestParts.of(test)
            except Exception:  # noqa: BLE001 - a record still changing (another thread): made at the end instead
                continue
            if not self._closing:
                time.sleep(0)  # lets the run's threads have the interpreter between two tests' parts

    def close(self) -> None:
        """Makes what is still queued, and ends the thread."""
        with self._lock:
            thread, self._thread = self._thread, None
        self._closing = True
        if thread is not None:
            self._queue.put(None)
            thread.join()

    def parts(self, test: dict) -> TestParts:
        """The parts of a results.json entry: those made when it finished if the entry is still the same, else
        made now."""
        checked = self._checked.get(id(test))
        if checked is not None and checked[0] is test:
            return checked[1]
        made = self._made.get(test.get("id"))
        parts = made if made is not None and made.test == test else TestParts.of(test)
        self._checked[id(test)] = (test, parts)
        return parts

    def line(self, test: dict) -> str:
        return self.parts(test).line

    def testcase(self, test: dict) -> tuple[str, str]:
        return self.parts(test).testcase

    def row(self, test: dict) -> tuple[str, str]:
        return self.parts(test).row
