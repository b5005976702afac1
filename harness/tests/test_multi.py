"""Several areas' shared batches in one cuconform-multi process (modules.py): the plan, the runner and the parser,
on the fake binaries and the fake cuconform-multi (harness/tests/fake/)."""

import os

from cuconform import modules
from cuconform.catalog import list_binary
from cuconform.gtest import StreamParser
from cuconform.plan import plan_batches
from cuconform.results import TestRecord
from cuconform.runner import Launch
from cuconform.scheduler import Scheduler
from cuconform.status import Status, Verdict


def records_of(*binaries):
    return [TestRecord(case) for binary in binaries for case in list_binary(binary)]


def shape(batches):
    return [(b.binary.name, [b.key(r) for r in b.records], b.exclusive, b.multi) for b in batches]


def test_the_ordinary_gpu_tests_of_areas_with_a_module_share_batches_the_rest_keeps_its_binary(fake_build):
    one = fake_build.area("one", "Fake.Pass1", "Fake.PassX exclusive", "Fake.PassI isolated", "Fake.PassH host")
    two = fake_build.area("two", "Fake.Pass1", "Fake.Pass2")
    alone = fake_build.area("alone", "Fake.Pass1")
    fake_build.modules("one", "two")
    batches = plan_batches(
        records_of(one, two, alone), 1, 500, host_jobs=1, shares=modules.finder(), isolated_first=False
    )
    assert shape(batches) == [
        ("cuconform-one", ["Fake.PassX"], True, False),
        # the same GoogleTest name in two areas: told apart by test id
        ("cuconform-multi", ["one/Fake.Pass1", "two/Fake.Pass1", "two/Fake.Pass2"], False, True),
        ("cuconform-one", ["Fake.PassI"], False, False),
        ("cuconform-one", ["Fake.PassH"], False, False),
        ("cuconform-alone", ["Fake.Pass1"], False, False),
    ]
    # without modules (or without --multi-area: no `shares`), as before
    assert [b.binary.name for b in plan_batches(records_of(one, two, alone), 1, 500, host_jobs=1)].count(
        "cuconform-multi"
    ) == 0


def test_a_module_older_than_its_binary_is_not_used(fake_build):
    one = fake_build.area("one", "Fake.Pass1")
    two = fake_build.area("two", "Fake.Pass1")
    runner = fake_build.modules("one", "two")
    stat = one.stat()
    os.utime(one, (stat.st_atime, stat.st_mtime + 10))  # rebuilt alone, or patched by a mutation campaign
    assert modules.runner_for(one) is None and modules.runner_for(two) == runner
    batches = plan_batches(records_of(one, two), 1, 500, shares=modules.finder())
    assert [(b.binary.name, b.multi) for b in batches] == [("cuconform-one", False), ("cuconform-multi", True)]


def test_the_command_gives_each_area_its_module_executable_and_filter(tmp_path):
    runner = tmp_path / "modules" / "cuconform-multi"
    command = modules.command(runner, ["a/S.T1", "a/S.T2", "b/S.T1"], ["--gtest_color=no"])
    bin_dir = tmp_path / "bin"
    assert command == [
        str(runner),
        "--part",
        "a",
        str(runner.parent / "cuconform-a.so"),
        str(bin_dir / "cuconform-a"),
        "--gtest_filter=S.T1:S.T2",
        "--gtest_color=no",
        "--part",
        "b",
        str(runner.parent / "cuconform-b.so"),
        str(bin_dir / "cuconform-b"),
        "--gtest_filter=S.T1",
        "--gtest_color=no",
    ]


def test_the_parser_names_a_tests_after_an_area_line_by_test_id():
    results = {}
    parser = StreamParser(lambda name, attempt: results.setdefault(name, attempt))
    for line in [
        "[ RUN      ] S.T1\n",
        "[       OK ] S.T1 (1 ms)\n",
        "[ AREA     ] math\n",
        "[ RUN      ] S.T1\n",
        "[  FAILED  ] S.T1 (1 ms)\n",
        "[ AREA     ] warp\n",
        "[ RUN      ] S.T2\n",
    ]:
        parser.feed(line.encode())
    assert parser.open_test == "warp/S.T2"
    parser.finish("was killed by SIGSEGV")
    assert {name: attempt.status for name, attempt in results.items()} == {
        "S.T1": Status.PASS,
        "math/S.T1": Status.FAIL,
        "warp/S.T2": Status.CRASH,
    }


def run_all(records, jobs=1, batch_size=500):
    scheduler = Scheduler(
        jobs=jobs,
        slots=[None],
        launch_for=lambda slot, host=False: Launch(timeout=20),
        settles=lambda record, attempt: not record.unexpected(attempt),
    )
    scheduler.start()
    scheduler.add(plan_batches(records, jobs, batch_size, shares=modules.finder()))
    scheduler.join()
    return scheduler


def test_one_process_runs_several_areas_and_a_crash_restarts_the_rest_in_a_fresh_one(fake_build):
    one = fake_build.area("one", "Fake.Pass1", "Fake.Abort", "Fake.Pass2")
    two = fake_build.area("two", "Fake.Pass1", "Fake.Fail", "Fake.PoisonPass", "Fake.Pass2")
    fake_build.modules("one", "two")
    records = records_of(one, two)
    scheduler = run_all(records)
    got = {record.case.test_id: record.attempts[0].status for record in records}
    assert got == {
        "one/Fake.Pass1": Status.PASS,
        "one/Fake.Abort": Status.CRASH,
        "one/Fake.Pass2": Status.PASS,
        "two/Fake.Pass1": Status.PASS,
        "two/Fake.Fail": Status.FAIL,
        "two/Fake.PoisonPass": Status.PASS,
        "two/Fake.Pass2": Status.PASS,
    }
    # the crash ended the process: the tests not started ran in a fresh one, both areas' (the unexpected failure's
    # batch runs once more, whole, in the same order, as a batch of one binary does)
    assert fake_build.multi_launches()[:3] == [["one", "two"], ["one", "two"], ["two"]]
    assert fake_build.launches("one")[:2] == [["Fake.Pass1", "Fake.Abort", "Fake.Pass2"], ["Fake.Pass2"]]
    assert [record.verdict for record in records if record.case.name == "Fake.Pass2"] == [Verdict.PASS] * 2
    assert [run["areas"] for run in scheduler.timeline if not run.get("rerun")] == [["one", "two"]]
    assert scheduler.processes == len(fake_build.multi_launches())


def test_a_run_through_conformance_keeps_its_test_ids_and_counts_its_processes(fake_build):
    fake_build.area("one", "Fake.Pass1", "Fake.Pass2", "Fake.PassI isolated")
    fake_build.area("two", "Fake.Pass1", "Fake.Skip1")
    fake_build.modules("one", "two")
    shared = fake_build.run("--jobs", "1")  # --multi-area is the default
    assert shared.code == 0, shared.stdout + shared.stderr
    assert shared.verdicts() == {
        "one/Fake.Pass1": "pass",
        "one/Fake.Pass2": "pass",
        "one/Fake.PassI": "pass",
        "two/Fake.Pass1": "pass",
        "two/Fake.Skip1": "skip",
    }
    assert fake_build.multi_launches() == [["one", "two"]]
    assert "processes: 2 (GPU 2: shared 1, 1 of them several areas' (cuconform-multi), exclusive 0, isolated 1" in (
        shared.stdout
    )
    alone = fake_build.run("--jobs", "1", "--no-multi-area")
    assert alone.verdicts() == shared.verdicts()
    assert len(fake_build.multi_launches()) == 1  # none more
    assert "processes: 3 (GPU 3: shared 2, exclusive 0, isolated 1; host 0)" in alone.stdout


def test_an_unexpected_result_runs_again_the_tests_of_its_area_only(fake_build):
    one = fake_build.area("one", "Fake.Pass1", "Fake.Pass2")
    two = fake_build.area("two", "Fake.Pass1", "Fake.Flaky1", "Fake.Pass2")
    fake_build.modules("one", "two")
    records = records_of(one, two)
    scheduler = run_all(records)
    assert fake_build.multi_launches() == [["one", "two"], ["two"]]
    assert fake_build.launches("two") == [["Fake.Pass1", "Fake.Flaky1", "Fake.Pass2"]] * 2
    flaky = next(record for record in records if record.case.test_id == "two/Fake.Flaky1")
    assert flaky.verdict is Verdict.FLAKE
    assert [(run["tests"], run.get("rerun", False)) for run in scheduler.timeline] == [(5, False), (3, True)]


def test_a_multi_process_that_dies_between_two_areas_is_named_in_the_closing_lines(fake_build):
    fake_build.area("one", "Fake.Pass1", "Fake.SegvAfter1")
    fake_build.area("two", "Fake.Pass1")
    fake_build.modules("one", "two")
    done = fake_build.run("--jobs", "1")
    assert done.code == 0, done.stdout + done.stderr
    assert set(done.verdicts().values()) == {"pass"}
    assert fake_build.multi_launches() == [["one", "two"], ["two"]]
    assert (
        "processes that ended outside any test: 1 (cuconform-multi was killed by SIGSEGV after one/Fake.SegvAfter1)"
        in done.stdout
    )
