"""Each test's part of the reports, made when the test finishes instead of at the end of the run (issue 35).

    made = Prerendered()
    made.add(record)            as each test finishes (any thread)
    made.make_one()             while pytest waits for a result: one finished test's parts
    made.close()                at the end: the tests not made yet are made as the reports join the others
    made.line(test) / made.testcase(test) / made.row(test)    for the writers of results.json, junit.xml, report.html

A test's parts are its line of results.json, its <testcase> of junit.xml (junit.testcase_xml) and its entry of
report.html's packed list (html_report.packed_row): most of the time the reports took at the end. The end joins
them. A part is looked up by the results.json entry it was made from, and used only if the entry at the end is
equal to it: an entry that changed since (pytest named the test after it finished early, its batch ran again) is
made again, so the reports are byte for byte those made at the end.
"""

from __future__ import annotations

import queue
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
    """The parts of the finished tests, made while pytest waits for a result (plugin.py: the time the run leaves
    the harness idle, as on a GPU, where tests take longer than their reports; a run whose harness is never idle
    makes them at the end, as before)."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[TestRecord] = queue.SimpleQueue()  # finished, parts not made yet
        self._made: dict[str, TestParts] = {}  # by test id
        self._checked: dict[int, tuple[dict, TestParts]] = {}  # by id() of an entry at the end, with the entry

    def add(self, record: TestRecord) -> None:
        """A finished test (from any thread): its parts are made by make_one."""
        self._queue.put(record)

    def make_one(self) -> bool:
        """Makes the parts of one finished test; False when none is waiting."""
        try:
            record = self._queue.get_nowait()
        except queue.Empty:
            return False
        if not record.nodeid:  # finished before pytest named it: added again once it has its name
            return True
        try:
            test = record.to_json()
            self._made[test["id"]] = TestParts.of(test)
        except Exception:  # noqa: BLE001 - a record still changing (another thread): made at the end instead
            pass
        return True

    def close(self) -> None:
        """Forgets the tests whose parts were not made: the end makes them as it joins the others."""
        while True:
            try:
                self._queue.get_nowait()
            except queue.Empty:
                return

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
