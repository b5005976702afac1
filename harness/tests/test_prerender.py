"""Each test's part of the reports is made when the test finishes (prerender.py, issue 35): the reports joined from
those parts are byte for byte the reports made from the results at the end, junit.xml is what ElementTree writes
for the whole tree, and a part made from an entry that changed since is made again."""

import copy
import json
import xml.etree.ElementTree as ET

from conftest import fake_case
from test_html_report import hostile_results

from cuconform import overview
from cuconform.gtest import Attempt
from cuconform.junit import write_junit
from cuconform.prerender import Prerendered, TestParts
from cuconform.reports import write_documents
from cuconform.results import TestRecord
from cuconform.status import Status

WRITTEN = ("results.json", "junit.xml", "report.html", "summary.md")


def write_all(document: dict, folder, made: Prerendered | None = None) -> dict[str, bytes]:
    made = made or Prerendered()
    write_documents(folder, document, made=made)
    write_junit(
        folder / "junit.xml",
        [("cuconform", document["environment"], document["tests"])],
        overview.unstartable(document),
        made.testcase,
    )
    return {name: (folder / name).read_bytes() for name in WRITTEN}


def with_unstartable(document: dict) -> dict:
    return {
        **document,
        "unstartable": [
            "cuconform-math could not start: libnvrtc.so.12: cannot open shared object file",
            "cuconform-mathx could not start: <b>&</b>",
        ],
    }


def test_junit_xml_is_what_element_tree_writes_for_the_whole_tree(tmp_path):
    document = with_unstartable(hostile_results())
    write_junit(
        tmp_path / "junit.xml",
        [("cuconform", document["environment"], document["tests"]), ("empty", document["environment"], [])],
        overview.unstartable(document),
    )
    written = (tmp_path / "junit.xml").read_text(encoding="utf-8")
    root = ET.fromstring(written.encode("utf-8"))
    for element in root.iter():  # as a tree, without the whitespace the file was indented with
        if len(element):
            element.text = None
            for child in element:
                child.tail = None
    ET.indent(root)
    assert written == '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
    assert [suite.get("name") for suite in root] == ["cuconform", "empty", "math", "mathx"]


def test_parts_made_as_tests_finish_give_the_reports_made_at_the_end(tmp_path):
    # every hostile text but the lone surrogate, which a results.json written as UTF-8 cannot hold
    document = json.loads(json.dumps(with_unstartable(hostile_results())).replace("\\ud800", "?"))
    at_the_end = write_all(document, tmp_path / "end")
    made = Prerendered()
    for test in document["tests"]:
        made._made[test["id"]] = TestParts.of(copy.deepcopy(test))  # as the thread makes them, from its own entry
    changed = document["tests"][1]  # its part was made before pytest named it: made again at the end
    made._made[changed["id"]] = TestParts.of({**changed, "nodeid": ""})
    assert write_all(document, tmp_path / "joined", made) == at_the_end
    assert made.parts(changed) is not made._made[changed["id"]]
    assert made.parts(document["tests"][0]) is made._made[document["tests"][0]["id"]]


def test_a_runs_reports_are_those_its_results_make_at_the_end(fake_build, tmp_path):
    fake_build.area("alpha", "Fake.Pass1", "Fake.Hostile1", "Fake.Skip1", "Fake.Fail1", "Fake.Flaky1")
    fake_build.area("beta", *(f"Fake.Pass{n}" for n in range(40)))
    run = fake_build.run()
    assert run.code == 1, run.stdout + run.stderr
    document = json.loads((run.folder / "results.json").read_text(encoding="utf-8"))
    assert len(document["tests"]) == 45
    again = write_all(document, tmp_path / "again")
    for name in WRITTEN:
        assert (run.folder / name).read_bytes() == again[name], name


def a_record(name: str, nodeid: str) -> TestRecord:
    case = fake_case("alpha", name)
    record = TestRecord(case, resolved=True, nodeid=nodeid)
    record.add(Attempt(Status.PASS, 0.25, output="printed"))
    record.finish()
    return record


def test_parts_are_made_one_at_a_time_and_only_for_named_tests(tmp_path):
    named, unnamed = a_record("S.Named", "bin/cuconform-alpha::S.Named"), a_record("S.Early", "")
    made = Prerendered()
    assert not made.make_one()  # nothing finished yet
    made.add(unnamed)  # finished before pytest named it: made when it is added again with its name
    made.add(named)
    assert made.make_one() and made.make_one() and not made.make_one()
    assert set(made._made) == {"alpha/S.Named"}
    late = a_record("S.Late", "bin/cuconform-alpha::S.Late")
    made.add(late)
    made.close()  # not made during the run: made at the end, as the reports join the others
    tests = [record.to_json() for record in (named, unnamed, late)]
    assert set(made._made) == {"alpha/S.Named"} and made.parts(tests[0]) is made._made["alpha/S.Named"]
    document = {**hostile_results(), "tests": tests}
    assert write_all(document, tmp_path / "joined", made) == write_all(document, tmp_path / "end")
