"""A run's stages in their order (session.py): select -> resolve -> run -> journal -> report. Each takes what the
one before handed on and calls back into none: select needs no journal and no expectation file, resolve is a pure
function of the expectation files and the tests, the scheduler hands raw results up and never classifies."""

import json
from concurrent.futures import Future
from datetime import datetime
from pathlib import Path

import pytest

from cuconform import stage_journal, stage_resolve, stage_run
from cuconform import catalog
from cuconform.expectations import load_file
from cuconform.journal import read
from cuconform.options import Settings
from cuconform.results import TestRecord
from cuconform.shard import SelectionError, Shard
from cuconform.stage_resolve import Judging, resolve
from cuconform.stage_select import by_rules, select
from cuconform.status import Status, Verdict
from test_module_graph import PACKAGE
from test_module_graph import core_graph as graph

STAGES = ["stage_select", "stage_resolve", "stage_run", "stage_journal", "stage_report"]
NVCC = Judging("nvcc", "13.0", None, "quick")


def case(name: str, area: str = "a", gpu: bool = True, compiler: str | None = None) -> catalog.TestCase:
    return catalog.TestCase(Path(f"/b/bin/cuconform-{area}"), name, name, "5.4", "s", gpu, False, compiler=compiler)


def files(tmp_path, **texts):
    loaded = {}
    for name, text in texts.items():
        (tmp_path / f"{name}.toml").write_text(text)
        loaded[name] = load_file(tmp_path / f"{name}.toml")
    return loaded


def entry(tests: str, status: str, extra: str = "") -> str:
    return f'[[expect]]\ntests = ["{tests}"]\nstatus = "{status}"\nreason = "r"\nevidence = "e"\n{extra}\n'


def test_each_stage_imports_only_the_stages_before_it():
    edges = graph()
    for index, stage in enumerate(STAGES):
        assert edges[stage] & set(STAGES) <= set(STAGES[:index]), (stage, edges[stage])
    assert "session" not in set().union(*(edges[stage] for stage in STAGES))


def test_select_reads_no_journal_and_no_expectation_and_the_scheduler_never_classifies():
    edges = graph()
    assert not edges["stage_select"] & {"journal", "expectations", "reports", "stage_journal", "status"}
    assert "status" not in edges["scheduler"] and "classify" not in (PACKAGE / "scheduler.py").read_text()


def test_select_is_the_rules_then_the_shard_in_run_order():
    cases = [case(f"T.{name}") for name in "dcba"]
    assert [c.name for c in by_rules(cases, ["a/T.[ab]"])] == ["T.b", "T.a"]
    # exact ids (looked up in a set) and patterns together, by test id or rule id, in run order
    assert [c.name for c in by_rules(cases, ["a/T.a", "a/T.[c]", "a/T.d"])] == ["T.d", "T.c", "T.a"]
    assert [c.name for c in by_rules(cases, ["a/T.nothing"])] == [] and by_rules(cases, []) == cases
    whole = select(cases, None)
    assert [c.name for c in whole.cases] == ["T.d", "T.c", "T.b", "T.a"] and whole.selection.size == 4
    halves = [select(cases, Shard(k, 2)) for k in (1, 2)]
    assert [[c.name for c in half.cases] for half in halves] == [["T.c", "T.a"], ["T.d", "T.b"]]  # run order kept
    assert halves[0].selection.digest == whole.selection.digest
    assert select(cases, None, before=whole) == whole
    with pytest.raises(SelectionError, match="pytest selected 3 tests, the run started with 4"):
        select(cases[1:], None, before=whole)


def test_resolve_is_a_pure_function_of_the_expectation_files_and_the_tests(tmp_path):
    loaded = files(
        tmp_path,
        sm_90=entry("a/T.X", "fail"),
        sm_9x=entry("a/T.*", "crash"),
        common=entry("a/T.Y", "skip")
        + entry("a/Gone.*", "fail")
        + entry("other/*", "fail")
        + entry("compile/C.D*", "fail", 'compiler = "clang"'),
    )
    tests = [case("T.X"), case("T.Y"), case("U.Z"), case("C.D[clang]", "compile", False, "clang")]
    selected = select(tests, None)
    on_h100 = resolve(selected, loaded, "9.0", NVCC, tests)
    assert resolve(selected, loaded, "9.0", NVCC, tests) == on_h100
    assert [Path(p).stem for p in on_h100.chain] == ["sm_90", "sm_9x", "common"]
    assert {t: e.status.value if e else None for t, e in on_h100.entries.items()} == {
        "a/T.X": "fail",
        "a/T.Y": "crash",
        "a/U.Z": None,
        "compile/C.D[clang]": "fail",
    }
    # stale: matches no listed test, among the areas listed (an entry for an area not listed is not judged)
    assert [e.tests for e in on_h100.stale] == [("a/Gone.*",)]
    without_gpu = resolve(selected, loaded, None, NVCC, tests)
    assert [Path(p).stem for p in without_gpu.chain] == ["common"] and without_gpu.entry("a/T.Y").status.value == "skip"
    skipped = stage_resolve.skipped_somewhere(loaded, NVCC)
    assert [skipped(t) for t in tests] == [False, True, False, False]


def test_the_run_stage_judges_raw_results_with_the_resolved_entries(fake_build, tmp_path):
    binary = fake_build.area("alpha", "Fake.Pass1", "Fake.Fail1", "Fake.Pass2")
    cases = catalog.list_binary(binary)
    loaded = files(tmp_path, common=entry("alpha/Fake.Fail1", "fail") + entry("alpha/Fake.Pass2", "skip"))
    selected = select(cases, None)
    resolved = resolve(selected, loaded, None, NVCC, cases)
    finished, restored = [], []
    resolution = Future()
    resolution.set_result(resolved)
    running = stage_run.Running(
        Settings(timeout=10.0), fake_build.dir, stage_run.Workers(0, 1, 0), resolution, finished.append, restored.append
    )
    records = [TestRecord(c) for c in selected.cases]
    running.start(records, resolved, set())
    assert all(record.wait(30) for record in records)
    running.scheduler.join()
    assert [r.verdict for r in records] == [Verdict.PASS, Verdict.XFAIL, Verdict.SKIP]
    assert records[2].attempts == [] and records[2].message == "r"  # an expected skip is not run
    assert sorted(r.case.name for r in finished) == ["Fake.Fail1", "Fake.Pass1", "Fake.Pass2"] and not restored


def test_the_journal_stage_takes_the_selection_then_finished_tests(tmp_path):
    selected = select([case("T.A"), case("T.B")], None)
    journaling = stage_journal.Journaling(True, {"rule": []}, datetime(2026, 11, 26, 12, 0))
    journaling.begin(selected, None, None)
    first = TestRecord(selected.cases[0])
    assert journaling.finished(first)  # waits in memory: the folder is not named yet
    journaling.open(tmp_path / "run.partial" / "journal.jsonl")
    journaling.stop()
    assert not journaling.finished(TestRecord(selected.cases[1]))  # cut short by the stop: not journaled
    journaling.close()
    contents = read(tmp_path / "run.partial" / "journal.jsonl")
    assert contents.header["selection"] == selected.selection.to_json() and list(contents.tests) == ["a/T.A"]
    assert journaling.finished_ids == {"a/T.A"}

    resumed = stage_journal.Journaling(True, None, datetime(2026, 11, 26, 13, 0))
    with pytest.raises(SelectionError, match="cannot resume /r: it selected 2 tests"):
        resumed.begin(select([case("T.A")], None), contents, Path("/r"))


def test_a_resumed_test_is_restored_not_run_and_judged_by_the_current_entries(tmp_path):
    test = case("T.A")
    line = json.loads(json.dumps({"id": "a/T.A", "attempts": [{"status": "fail", "duration": 0.5, "message": "m"}]}))
    contents = read_journal_with(tmp_path, line)
    record = stage_run.record_for(test, contents)
    assert record.restored and record.first.status is Status.FAIL
    resolved = resolve(select([test], None), files(tmp_path, common=entry("a/T.A", "fail")), None, NVCC, [test])
    stage_run.give_entry(record, resolved)
    assert record.verdict is Verdict.XFAIL
    assert not stage_run.record_for(case("T.B"), contents).restored


def read_journal_with(tmp_path, *lines):
    path = tmp_path / "journal.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in ({"journal": 1, "run": {}}, *lines)))
    return read(path)


def test_a_sanitizer_run_tells_its_gpu_binaries_the_tool():
    """GPU batches under --sanitizer carry CUCONFORM_SANITIZER (the tile sweeps sample their shapes under it: issue
    31); host batches and runs without a tool do not, so the quick and full profiles launch what they always did."""
    from cuconform.protocol import PROFILE_ENV, SANITIZER_ENV

    under_tool = Settings(sanitizer="racecheck", timeout=2.0)
    assert stage_run.launch_for(under_tool, "0").env[SANITIZER_ENV] == "racecheck"
    assert SANITIZER_ENV not in stage_run.launch_for(under_tool, None, host=True).env
    bare = stage_run.launch_for(Settings(timeout=2.0), "0")
    assert SANITIZER_ENV not in bare.env and bare.env[PROFILE_ENV] == "quick"
