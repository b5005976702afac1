"""The console's closing lines about a run's critical path (critical_path.py), from the batches timeline."""

from conftest import fake_case

from cuconform import critical_path
from cuconform.gtest import Attempt
from cuconform.reports import child_processes_of
from cuconform.results import TestRecord
from cuconform.status import Status


def run(binary, worker, start, end, tests=10, expected=None, **extra):
    return {
        "binary": binary,
        "worker": worker,
        "start_s": start,
        "end_s": end,
        "tests": tests,
        "exclusive": False,
        **({"expected_s": expected} if expected is not None else {}),
        **extra,
    }


def test_a_batch_that_ran_longer_than_planned_is_named_with_its_plan():
    lines = critical_path.describe(
        [
            run("cuconform-litmus", "cuconform worker 0", 0.4, 3.6, tests=167, exclusive=True),
            run("cuconform-runtime", "cuconform worker 3", 3.6, 22.0, tests=46, expected=2.3),
            run("cuconform-warp", "cuconform worker 1", 3.6, 12.0, expected=8.0),
            run("cuconform-compile", "cuconform host worker 0", 0.4, 15.0, host=True),
        ]
    )
    assert lines[0] == (
        "critical path: the run ended with cuconform-runtime (46 tests) on cuconform worker 3, 3.6 s to 22.0 s"
    )
    assert "it took 18.4 s, 8.0x the 2.3 s its plan expected" in lines[1]
    assert "the other GPU workers were done by 12.0 s" in lines[1] and "the host lane ended at 15.0 s" in lines[1]
    assert "the 3 GPU workers were busy" in lines[2]
    assert lines[3] == "  exclusive batches held every GPU for 3.2 s (cuconform-litmus 3.2 s)"


def test_a_full_lane_is_its_own_floor_and_no_timeline_says_nothing():
    lines = critical_path.describe(
        [
            run("cuconform-a", "cuconform worker 0", 0.0, 10.0, expected=9.5),
            run("cuconform-b", "cuconform worker 1", 0.0, 9.8, expected=9.0),
        ]
    )
    assert "its lane was busy to the end" in lines[1]
    assert critical_path.describe([]) == []


def test_the_closing_lines_count_the_processes_by_kind():
    batches = [
        run("cuconform-litmus", "cuconform worker 0", 0.0, 1.0, exclusive=True),
        run("cuconform-multi", "cuconform worker 1", 1.0, 3.0, processes=2, areas=["math", "warp"]),
        run("cuconform-runtime", "cuconform worker 2", 1.0, 2.0),
        run("cuconform-functions", "cuconform worker 3", 1.0, 1.5, tests=1, isolated=True),
        run("cuconform-compile", "cuconform host worker 0", 0.0, 1.0, host=True),
    ]
    by_kind = (
        "  processes: 6 (GPU 5: shared 3, 2 of them several areas' (cuconform-multi), exclusive 1, isolated 1; host 1)"
    )
    assert by_kind in critical_path.describe(batches)
    # The rules' own children (their metric child_processes, summed) make contexts too.
    assert by_kind + "; the rules' child processes 7" in critical_path.describe(batches, child_processes=7)


def test_the_child_processes_of_the_rules_are_their_metrics_summed():
    records = [TestRecord(fake_case("runtime", f"E.V{i}", gpu=True)) for i in range(4)]
    records[0].add(Attempt(Status.PASS, metrics={"child_processes": 2}))
    records[1].add(Attempt(Status.PASS, metrics={"child_processes": 1, "other": 5}))
    records[2].add(Attempt(Status.PASS, metrics={"child_processes": "many"}))  # not a count: ignored
    assert child_processes_of(records) == 3


def test_the_processes_that_ended_outside_any_test_get_a_line_of_their_own():
    segv = "was killed by SIGSEGV after {}"
    batches = [
        run("cuconform-multi", "cuconform worker 0", 0.0, 3.0, processes=3, areas=["dpx", "sync", "types"]),
        run("cuconform-warp", "cuconform worker 1", 0.0, 2.0),
    ]
    assert not any("outside any test" in line for line in critical_path.describe(batches))
    batches[0]["between_tests"] = [segv.format("dpx/A.B"), segv.format("sync/C.D")]
    batches[1]["between_tests"] = [segv.format("E.F"), "exited with code 134 after G.H"]
    assert (
        "  processes that ended outside any test: 4 (cuconform-multi was killed by SIGSEGV after dpx/A.B; "
        "cuconform-multi was killed by SIGSEGV after sync/C.D; cuconform-warp was killed by SIGSEGV after E.F; "
        "and 1 more (results.json's batches))"
    ) in critical_path.describe(batches)
