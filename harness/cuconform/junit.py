"""junit.xml from a results document, for reports that pytest did not write (a merge of shards).

The same shape as the JUnit file of a run (pytest's xunit2, reports/README.md): one <testcase> per test, classname
and name from its pytest node id, the harness's duration, <failure> for an unexpected verdict, <skipped> for skip
and xfail, and the same <properties>. One <testsuite> per part of a merge, and one per area whose binary could
not start (results.json `unstartable`), holding an <error> testcase for it.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from pathlib import Path

from cuconform.files import atomic_write, bounded_output, printable
from cuconform.overview import NOT_RUN_HINT, Unstartable
from cuconform.status import UNEXPECTED_VERDICTS

_NOT_XML = re.compile("[\ud800-\udfff\ufffe\uffff]")


def _text(value: object) -> str:
    return _NOT_XML.sub("?", printable(str(value)))


def _names(test: dict) -> tuple[str, str]:
    """(classname, name) as pytest's JUnit file has them: build.ci.bin.cuconform-sync, BlockSizes/Sync.Count/13."""
    nodeid = str(test.get("nodeid") or "")
    if "::" in nodeid:
        path, name = nodeid.split("::", 1)
        return path.replace("/", "."), name
    test_id = str(test.get("id"))
    area, _, name = test_id.partition("/")
    return f"cuconform-{area}", name or test_id


def _properties(test: dict) -> list[tuple[str, object]]:
    properties = [
        ("test", test.get("id")),
        ("rule", test.get("rule")),
        ("section", test.get("section")),
        ("statement", test.get("statement")),
    ]
    if test.get("compiler"):
        properties += [("compiler", test["compiler"]), ("compiler_version", test.get("compiler_version") or "")]
    properties += [("verdict", test.get("verdict")), ("status", test.get("status") or "none")]
    expected = test.get("expected") or {}
    if expected:
        properties += [
            ("expected", expected.get("status")),
            ("expected_reason", expected.get("reason")),
            ("expected_evidence", expected.get("evidence")),
            ("expected_entry", expected.get("entry")),
        ]
        if expected.get("draft") is True:  # a draft of scripts/conformance triage: accepted without review
            properties.append(("expected_draft", "true"))
    attempts = test.get("attempts") or []
    if len(attempts) > 1:
        properties.append(("attempts", " then ".join(a.get("status") or "none" for a in attempts)))
    properties += [(f"metric.{name}", value) for name, value in (test.get("metrics") or {}).items()]
    return [(name, value) for name, value in properties if value is not None]


def _testcase(test: dict) -> tuple[ET.Element, str]:
    """A test's <testcase> and its outcome ('failure', 'skipped', 'passed')."""
    classname, name = _names(test)
    duration = float(test.get("duration") or 0.0)
    case = ET.Element(
        "testcase",
        classname=_text(classname),
        name=_text(name),
        time=f"{max(duration, 0.001) if test.get('status') else 0.0:.3f}",
    )
    properties = ET.SubElement(case, "properties")
    for key, value in _properties(test):
        ET.SubElement(properties, "property", name=_text(key), value=_text(value))
    verdict = str(test.get("verdict"))
    message = str(test.get("message") or "")
    expected = test.get("expected") or {}
    if verdict in UNEXPECTED_VERDICTS:
        failure = ET.SubElement(case, "failure", message=_text(f"{verdict.upper()}: {message.strip()[:500]}"))
        output = str(test.get("output") or "").rstrip()
        failure.text = _text(message + ("\n--- output ---\n" + bounded_output(output) if output else ""))
        return case, "failure"
    if verdict == "skip":
        ET.SubElement(case, "skipped", type="pytest.skip", message=_text(message.strip() or "skipped"))
        return case, "skipped"
    if verdict == "xfail":
        reason = expected.get("reason") or "accepted without review (a draft entry)"
        ET.SubElement(
            case,
            "skipped",
            type="pytest.xfail",
            message=_text(f"{reason} [{expected.get('evidence')}] ({expected.get('entry')})"),
        )
        return case, "skipped"
    return case, "passed"


def testcase_xml(test: dict) -> tuple[str, str]:
    """A test's <testcase> as junit.xml holds it (indented as the child of a <testsuite>), and its outcome: made
    once per test, when it finishes (prerender.py), and joined at the end."""
    case, outcome = _testcase(test)
    ET.indent(case, level=2)
    return ET.tostring(case, encoding="unicode"), outcome


def _suite(root: ET.Element, name: str, environment: dict) -> ET.Element:
    return ET.SubElement(
        root,
        "testsuite",
        name=_text(name),
        errors="0",
        timestamp=str(environment.get("started") or ""),
        hostname=_text((environment.get("host") or {}).get("name") or ""),
    )


def _not_run(root: ET.Element, not_run: Sequence[Unstartable], environment: dict) -> list[ET.Element]:
    """A binary that could not start (results.json `unstartable`): one testcase with an <error> in a testsuite
    named for its area, so that a CI system that reads only this file marks the run failed and says why."""
    by_area: dict[str, list[Unstartable]] = {}
    for binary in not_run:
        by_area.setdefault(binary.area, []).append(binary)
    for area, binaries in by_area.items():
        suite = _suite(root, area, environment)
        for binary in binaries:
            case = ET.SubElement(
                suite, "testcase", classname=_text(binary.binary), name="(binary could not start)", time="0.000"
            )
            error = ET.SubElement(case, "error", type="cuconform.not_run", message=_text(binary.line))
            error.text = _text(f"{binary.line}\n{NOT_RUN_HINT}")
        suite.set("errors", str(len(binaries)))
        suite.attrib.update(tests=str(len(binaries)), failures="0", skipped="0", time="0.000")
    return list(root)


def _xml(element: ET.Element, level: int) -> str:
    """An element as ET.indent and ET.tostring of the whole file would write it at that depth (without its tail)."""
    ET.indent(element, level=level)
    return ET.tostring(element, encoding="unicode")


def _with_children(element: ET.Element, children: list[str], level: int) -> str:
    """An element holding the given serialised children, indented as ET.indent does (`level`: its depth)."""
    empty = ET.tostring(element, encoding="unicode")  # <name attributes />: '>' in a value is written as &gt;
    if not children:
        return empty
    inner = "\n" + "  " * (level + 1)
    return f"{empty[:-3]}>{inner}{inner.join(children)}\n{'  ' * level}</{element.tag}>"


def write_junit(
    path: Path,
    suites: list[tuple[str, dict, list[dict]]],
    not_run: Sequence[Unstartable] = (),
    cases: Callable[[dict], tuple[str, str]] = testcase_xml,
) -> None:
    """`suites`: (name, environment, tests) of each part; `not_run`: the binaries that could not start; `cases`:
    each test's testcase_xml (a run's are made as its tests finish, prerender.py). The file is joined from each
    test's <testcase> text, byte for byte what ET.indent and ET.tostring would write for the whole tree."""
    root = ET.Element("testsuites")
    written = []
    for name, environment, tests in suites:
        suite = _suite(root, name, environment)
        made = [cases(test) for test in tests]
        outcomes = [outcome for _, outcome in made]
        suite.set("tests", str(len(tests)))
        suite.set("failures", str(outcomes.count("failure")))
        suite.set("skipped", str(outcomes.count("skipped")))
        suite.set("time", f"{sum(float(t.get('duration') or 0.0) for t in tests):.3f}")
        written.append(_with_children(suite, [xml for xml, _ in made], 1))
    for suite in _not_run(ET.Element("testsuites"), not_run, suites[0][1] if suites else {}):
        written.append(_xml(suite, 1))
    atomic_write(
        path, '<?xml version="1.0" encoding="utf-8"?>\n' + _with_children(ET.Element("testsuites"), written, 0) + "\n"
    )
