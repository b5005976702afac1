"""The process runner and the scheduler on the fake binary: batching, crashes, hangs, poison, flakes, exclusivity."""

import time
from pathlib import Path

from cuconform.catalog import list_binary
from cuconform.results import TestRecord
from cuconform.runner import BatchRun, Launch
from cuconform import durations, plan
from cuconform.plan import plan_batches
from cuconform.scheduler import Scheduler
from cuconform.status import Status, Verdict


def run_batch(binary, names, timeout=10.0):
    results = {}
    batch = BatchRun(binary, names, Launch(timeout=timeout), lambda name, a: results.setdefault(name, a))
    batch.run()
    return results, batch


def test_one_process_runs_a_whole_batch(fake_build):
    names = [f"Fake.Pass{i}" for i in range(40)]
    binary = fake_build.area("many", *names)
    results, batch = run_batch(binary, names)
    assert batch.processes == 1 and fake_build.launches("many") == [names]
    assert all(results[n].status is Status.PASS and results[n].duration > 0 for n in names)


def test_a_crash_mid_batch_loses_nothing(fake_build):
    names = [
        "Fake.Pass1",
        "Fake.Abort",
        "Fake.Pass2",
        "Fake.Exit",
        "Fake.Pass3",
        "Fake.PoisonFail",
        "Fake.Pass4",
        "Fake.PoisonPass",
        "Fake.Pass5",
    ]
    binary = fake_build.area("crashy", *names)
    results, batch = run_batch(binary, names)
    assert {n: results[n].status for n in names} == {
        "Fake.Pass1": Status.PASS,
        "Fake.Abort": Status.CRASH,
        "Fake.Pass2": Status.PASS,
        "Fake.Exit": Status.CRASH,
        "Fake.Pass3": Status.PASS,
        "Fake.PoisonFail": Status.CRASH,
        "Fake.Pass4": Status.PASS,
        "Fake.PoisonPass": Status.PASS,
        "Fake.Pass5": Status.PASS,
    }
    assert "SIGABRT" in results["Fake.Abort"].message and "partial line" in results["Fake.Abort"].output
    # each process ended early restarts the tests that had not started, and only those
    assert fake_build.launches("crashy") == [names, names[2:], names[4:], names[6:], names[8:]]
    assert batch.between_tests == []  # each end is a test's result


def test_a_crash_between_two_tests_is_kept_though_no_test_carries_it(fake_build):
    names = ["Fake.Pass1", "Fake.SegvAfter1", "Fake.Pass2"]
    binary = fake_build.area("segv", *names)
    results, batch = run_batch(binary, names)
    assert {n: results[n].status for n in names} == dict.fromkeys(names, Status.PASS)
    assert fake_build.launches("segv") == [names, names[2:]]
    assert batch.processes == 2 and batch.between_tests == ["was killed by SIGSEGV after Fake.SegvAfter1"]


def test_a_hang_is_killed_and_the_rest_runs(fake_build):
    names = ["Fake.Pass1", "Fake.Hang", "Fake.Pass2"]
    binary = fake_build.area("hangs", *names)
    started = time.monotonic()
    results, _ = run_batch(binary, names, timeout=2)
    assert time.monotonic() - started < 30
    assert results["Fake.Hang"].status is Status.TIMEOUT and results["Fake.Hang"].output == "hanging\n"
    assert results["Fake.Hang"].duration >= 2
    assert results["Fake.Pass2"].status is Status.PASS


def test_a_test_the_binary_does_not_run_is_missing(fake_build):
    binary = fake_build.area("gone", "Fake.Pass1")
    results, batch = run_batch(binary, ["Fake.Pass1", "Fake.NotThere"])
    assert results["Fake.Pass1"].status is Status.PASS
    assert results["Fake.NotThere"].status is None and "without running this test" in results["Fake.NotThere"].message


def run_all(records, jobs, batch_size, fail_fast=False, timeout=60.0):
    scheduler = Scheduler(
        jobs=jobs,
        slots=[None],
        launch_for=lambda slot, host=False: Launch(timeout=timeout),
        settles=lambda record, attempt: not record.unexpected(attempt),
        fail_fast=fail_fast,
    )
    scheduler.start()
    scheduler.add(plan_batches(records, jobs, batch_size))
    scheduler.join()


def records_of(binary):
    return [TestRecord(case) for case in list_binary(binary)]


def test_fail_fast_stops_a_binary_at_its_first_failure_without_a_rerun(fake_build):
    binary = fake_build.area("fast", "Fake.Pass1", "Fake.Fail", "Fake.Hang", "Fake.Pass2")
    records = records_of(binary)
    started = time.monotonic()
    run_all(records, jobs=1, batch_size=500, fail_fast=True, timeout=20)
    assert time.monotonic() - started < 10  # the hang is stopped with its binary, not waited for
    by_name = {r.case.name: r for r in records}
    assert by_name["Fake.Pass1"].verdict is Verdict.PASS
    assert by_name["Fake.Fail"].verdict is Verdict.FAIL and len(by_name["Fake.Fail"].attempts) == 1
    for name in ("Fake.Hang", "Fake.Pass2"):
        assert by_name[name].verdict is Verdict.SKIP
        assert "--fail-fast stopped cuconform-fast at its first unexpected result, Fake.Fail" in (
            by_name[name].attempts[0].message
        )
    assert len(fake_build.launches("fast")) == 1


def test_fail_fast_is_not_ended_by_an_unexpected_pass(fake_build):
    binary = fake_build.area("xpass", "Fake.Pass1", "Fake.Pass2", "Fake.Fail", "Fake.Hang")
    records = records_of(binary)
    scheduler = Scheduler(
        jobs=1,
        slots=[None],
        launch_for=lambda slot, host=False: Launch(timeout=20),
        settles=lambda record, attempt: record.case.name != "Fake.Pass1" and not record.unexpected(attempt),
        fail_fast=True,
    )
    scheduler.start()
    scheduler.add(plan_batches(records, 1, 500))
    scheduler.join()
    statuses = {r.case.name: r.attempts[0].status for r in records}
    assert statuses == {  # Pass1 (an unexpected pass, as an xfail's would be) ends nothing; the failure does
        "Fake.Pass1": Status.PASS,
        "Fake.Pass2": Status.PASS,
        "Fake.Fail": Status.FAIL,
        "Fake.Hang": Status.SKIP,
    }


def test_fail_fast_leaves_the_binarys_queued_batches_unstarted_and_other_binaries_whole(fake_build):
    failing = fake_build.area("first", "Fake.Fail", "Fake.Pass1", "Fake.Pass2", "Fake.Pass3")
    other = fake_build.area("second", "Fake.Pass1", "Fake.Fail", "Fake.Pass2")
    records = records_of(failing) + records_of(other)
    run_all(records, jobs=1, batch_size=1, fail_fast=True)
    verdicts = {(r.case.binary.name, r.case.name): r.verdict for r in records}
    assert verdicts[("cuconform-first", "Fake.Fail")] is Verdict.FAIL
    assert [verdicts[("cuconform-first", f"Fake.Pass{i}")] for i in (1, 2, 3)] == [Verdict.SKIP] * 3
    assert fake_build.launches("first") == [["Fake.Fail"]]
    assert verdicts[("cuconform-second", "Fake.Pass1")] is Verdict.PASS
    assert verdicts[("cuconform-second", "Fake.Fail")] is Verdict.FAIL


def test_fail_fast_stops_a_running_batch_of_the_binary_and_its_open_test_is_skipped(fake_build):
    binary = fake_build.area("both", "Fake.Hang", "Fake.Sleep300_a", "Fake.Fail")
    records = records_of(binary)
    started = time.monotonic()
    run_all(records, jobs=3, batch_size=1, fail_fast=True, timeout=20)
    assert time.monotonic() - started < 15  # the hanging test's process was stopped, not waited for
    verdicts = {r.case.name: r.verdict for r in records}
    assert verdicts["Fake.Fail"] is Verdict.FAIL
    assert verdicts["Fake.Hang"] is Verdict.SKIP  # running when the failure came: stopped, no crash reported


def test_flakes_are_told_from_failures_by_one_rerun_in_the_same_order(fake_build):
    binary = fake_build.area("flaky", "Fake.Pass1", "Fake.Flaky", "Fake.Fail", "Fake.Pass2")
    records = records_of(binary)
    run_all(records, jobs=1, batch_size=500)
    verdicts = {r.case.name: r.verdict for r in records}
    assert verdicts == {
        "Fake.Pass1": Verdict.PASS,
        "Fake.Flaky": Verdict.FLAKE,
        "Fake.Fail": Verdict.FAIL,
        "Fake.Pass2": Verdict.PASS,
    }
    order = ["Fake.Pass1", "Fake.Flaky", "Fake.Fail", "Fake.Pass2"]
    assert fake_build.launches("flaky") == [order, order]
    assert [a.status for a in records[1].attempts] == [Status.FAIL, Status.PASS]
    assert len(records[0].attempts) == 1  # an expected result is final at once


def test_exclusive_tests_run_alone(fake_build):
    names = [f"Fake.Slow{i}" for i in range(6)]
    binary = fake_build.area("excl", *names[:3], "Fake.SlowX exclusive", *names[3:])
    records = records_of(binary)
    run_all(records, jobs=3, batch_size=2)
    assert all(r.verdict is Verdict.PASS for r in records)
    spans, starts = {}, {}
    for line in (fake_build.bin / "cuconform-excl.log").read_text().splitlines():
        word, pid, when, *rest = line.split(" ", 3)
        if word == "start":
            starts[pid] = (float(when), rest[0] if rest else "")
        else:
            spans[starts[pid][1]] = (starts[pid][0], float(when))
    assert len(spans) >= 4  # several processes ran, some of them at once
    alone = spans.pop("Fake.SlowX")
    assert all(end <= alone[0] or start >= alone[1] for start, end in spans.values())


def test_batches_follow_the_binary_and_the_size_limit_exclusive_ones_first(fake_build):
    one = fake_build.area(
        "one", *[f"Fake.Pass{i}" for i in range(5)], "Fake.PassX exclusive", "Fake.PassW exclusive", "Fake.PassY"
    )
    two = fake_build.area("two", "Fake.Pass1")
    records = records_of(one) + records_of(two)
    assert [(b.binary.name, len(b.records), b.exclusive) for b in plan_batches(records, 1, 3)] == [
        ("cuconform-one", 2, True),
        ("cuconform-one", 3, False),
        ("cuconform-one", 3, False),
        ("cuconform-two", 1, False),
    ]


def test_a_binary_over_the_batch_size_is_cut_into_equal_batches_not_full_ones_and_a_remainder(fake_build):
    binary = fake_build.area("big", *[f"Fake.Pass{i:04d}" for i in range(1006)])
    # 500, 500 and 6 would leave a batch of 6 tests, planned last as the cheapest, whose process ends the run late
    assert [len(b.records) for b in plan_batches(records_of(binary), 1, 500)] == [336, 336, 334]


def test_the_exclusive_tests_of_a_binary_share_one_process_wherever_the_listing_puts_them(fake_build):
    one = fake_build.area(
        "apart", "Fake.PassX exclusive", "Fake.Pass1", "Fake.PassW exclusive", "Fake.Pass2", "Fake.PassV exclusive"
    )
    two = fake_build.area("other", "Fake.PassU exclusive", "Fake.Pass1")
    batches = plan_batches(records_of(one) + records_of(two), 1, 500)
    assert [(b.binary.name, [r.case.name for r in b.records], b.exclusive) for b in batches] == [
        ("cuconform-apart", ["Fake.PassX", "Fake.PassW", "Fake.PassV"], True),
        ("cuconform-other", ["Fake.PassU"], True),
        ("cuconform-apart", ["Fake.Pass1", "Fake.Pass2"], False),  # no longer split by the exclusive tests
        ("cuconform-other", ["Fake.Pass1"], False),
    ]


def test_a_multi_gpu_test_is_exclusive_unless_the_run_has_one_gpu(fake_build):
    binary = fake_build.area("peers", "Fake.Pass1", "Fake.PassP multi_gpu", "Fake.PassX exclusive", "Fake.Pass2")
    records = records_of(binary)
    assert records[1].case.multi_gpu and records[1].case.exclusive and not records[2].case.multi_gpu

    def shape(gpus):
        return [([r.case.name for r in b.records], b.exclusive) for b in plan_batches(records, 1, 500, gpus=gpus)]

    alone = [(["Fake.PassP", "Fake.PassX"], True), (["Fake.Pass1", "Fake.Pass2"], False)]
    assert shape(None) == alone and shape(2) == alone and shape(0) == alone  # unknown, several, or none counted
    # one GPU: every process sees it, so the test runs beside the others (and skips); timing rules stay alone
    assert shape(1) == [(["Fake.PassX"], True), (["Fake.Pass1", "Fake.PassP", "Fake.Pass2"], False)]


def test_host_only_tests_get_batches_of_their_own(fake_build):
    binary = fake_build.area("mixed", "Fake.Pass1", "Fake.Pass2 host", "Fake.Pass3 host", "Fake.Pass4")
    batches = plan_batches(records_of(binary), 1, 500, host_jobs=2)
    # the host tests no longer split the GPU tests of the binary into two processes
    assert [([r.case.name for r in b.records], b.host) for b in batches] == [
        (["Fake.Pass1", "Fake.Pass4"], False),
        (["Fake.Pass2", "Fake.Pass3"], True),
    ]
    assert [(len(b.records), b.host) for b in plan_batches(records_of(binary), 1, 500)] == [(4, False)]


def test_the_sanitizer_wraps_gpu_batches_only(tmp_path):
    from cuconform.options import Settings
    from cuconform.runner import command_for
    from cuconform.sanitizer import PREFIX
    from cuconform.stage_run import launch_for

    settings = Settings(sanitizer="racecheck", timeout=2.0)
    gpu, host = launch_for(settings, "0"), launch_for(settings, None, host=True)
    command = command_for(Path("/b/cuconform-x"), ["A.B"], gpu)
    assert Path(command[0]).name == "compute-sanitizer" and command[1:3] == ["--tool", "racecheck"]
    assert PREFIX in command and "--report-api-errors" in command
    assert command[command.index("/b/cuconform-x") + 1] == "--gtest_filter=A.B"
    assert gpu.timeout == 40.0 and host.timeout == 2.0
    assert command_for(Path("/b/cuconform-x"), ["A.B"], host)[:4] == [
        "nice",
        "-n",
        "5",
        "/b/cuconform-x",
    ]  # below the GPU workers


def test_an_exclusive_batch_sees_and_holds_every_gpu():
    seen = []
    scheduler = Scheduler(jobs=4, slots=["0", "1"], launch_for=lambda slot, host=False: seen.append(slot) or Launch())
    assert scheduler._every_slot() == "0,1"
    with scheduler._every_gpu():
        assert all(lock._exclusive for lock in scheduler.locks.values())
    assert not any(lock._exclusive for lock in scheduler.locks.values())
    assert Scheduler(jobs=1, slots=[None], launch_for=lambda slot, host=False: Launch())._every_slot() is None


def test_an_ordinary_batch_ends_when_its_kept_durations_add_up(fake_build):
    slow = fake_build.area("slow", *[f"Fake.Pass{i}" for i in range(6)], "Fake.PassX exclusive", "Fake.PassY exclusive")
    full = plan.MIN_BATCH_S  # one worker and 3.1 of these of ordinary work: a batch ends at about this length
    kept = {
        "Fake.Pass0": 0.75 * full,
        "Fake.Pass1": 0.75 * full,
        "Fake.Pass2": 0.05 * full,
        "Fake.Pass3": 0.05 * full,
        "Fake.Pass4": 1.5 * full,
        "Fake.PassX": 5.0,
        "Fake.PassY": 5.0,
    }
    cost = lambda record: kept.get(record.case.name, 0.0)  # noqa: E731
    batches = plan_batches(records_of(slow), 1, 500, cost=cost)
    # exclusive tests keep sharing their process, first; then the longest first: Pass4 (alone: over the limit),
    # Pass1 + Pass2 + Pass3, Pass0, Pass5 (never kept: 0)
    assert [[r.case.name for r in b.records] for b in batches] == [
        ["Fake.PassX", "Fake.PassY"],
        ["Fake.Pass4"],
        ["Fake.Pass1", "Fake.Pass2", "Fake.Pass3"],
        ["Fake.Pass0"],
        ["Fake.Pass5"],
    ]
    assert [(len(b.records), b.exclusive) for b in plan_batches(records_of(slow), 1, 500)] == [(2, True), (6, False)]


def test_an_isolated_test_gets_a_process_of_its_own_beside_the_others(fake_build):
    binary = fake_build.area("own", "Fake.Pass1", "Fake.Pass2 isolated", "Fake.Pass3 isolated", "Fake.Pass4")
    batches = plan_batches(records_of(binary), 1, 500, isolated_first=False)
    # the ordinary tests around them still share one process
    assert [([r.case.name for r in b.records], b.exclusive) for b in batches] == [
        (["Fake.Pass1", "Fake.Pass4"], False),
        (["Fake.Pass2"], False),
        (["Fake.Pass3"], False),
    ]


def test_the_scheduler_keeps_each_batch_runs_span(fake_build):
    binary = fake_build.area("timed", "Fake.Pass1", "Fake.Pass2", "Fake.PassX exclusive")
    records = records_of(binary)
    scheduler = Scheduler(jobs=2, slots=[None], launch_for=lambda slot, host=False: Launch())
    scheduler.start()
    scheduler.add(plan_batches(records, 2, 500))
    scheduler.join()
    assert sorted((run["binary"], run["tests"], run["exclusive"]) for run in scheduler.timeline) == [
        ("cuconform-timed", 1, True),
        ("cuconform-timed", 2, False),
    ]
    assert all(0 <= run["start_s"] <= run["end_s"] for run in scheduler.timeline)


def test_an_idle_worker_takes_the_tail_of_a_batch_that_runs_longer_than_planned(fake_build):
    names = [f"Fake.Nap{i:02d}" for i in range(16)]  # 0.3 s each, planned at 0.05 s: one batch of 0.8 s
    binary = fake_build.area("naps", *names)
    records = records_of(binary)
    scheduler = Scheduler(jobs=2, slots=[None], launch_for=lambda slot, host=False: Launch())
    scheduler.start()
    started = time.monotonic()
    scheduler.add(plan_batches(records, 2, 500, cost=lambda record: 0.05))
    scheduler.join()
    elapsed = time.monotonic() - started
    assert all(record.verdict is Verdict.PASS and len(record.attempts) == 1 for record in records)
    launches = fake_build.launches("naps")
    assert launches[0] == names and len(launches) >= 2, launches  # the tail went to a process of its own
    tail = launches[1]
    assert tail == names[-len(tail) :] and len(tail) < len(names) - 2
    # the first process stopped where the tail starts: each test ran to its end once
    ran_first = {record.case.name for record in records if record.attempts[0].opened}
    assert "Fake.Nap00" in ran_first and tail[0] in ran_first
    assert elapsed < 16 * 0.3, elapsed
    spans = [run for run in scheduler.timeline if run.get("split_from")]
    assert spans and spans[0]["tests"] == len(tail)


def test_a_batch_gives_away_only_tests_it_has_not_started(fake_build):
    names = ["Fake.Nap1", "Fake.Nap2", "Fake.Pass3", "Fake.Pass4"]
    binary = fake_build.area("give", *names)
    results = {}
    batch = BatchRun(binary, names, Launch(), lambda name, a: results.setdefault(name, a))
    assert batch.not_started() == names
    assert batch.give_away(["Fake.Pass3", "Fake.Pass4"])
    assert batch.not_started() == ["Fake.Nap1", "Fake.Nap2"]
    batch.run()
    assert sorted(results) == ["Fake.Nap1", "Fake.Nap2"] and batch.processes == 1
    assert not batch.give_away(["Fake.Nap2"])  # it has run


def test_a_split_batch_still_restarts_after_a_crash_and_reruns_a_flake_in_its_own_order(fake_build):
    names = (
        [f"Fake.Nap{i:02d}" for i in range(6)]
        + ["Fake.Abort1", "Fake.Flaky1"]
        + [f"Fake.Nap{i:02d}" for i in range(6, 14)]
    )
    binary = fake_build.area("mixed", *names)
    records = records_of(binary)
    scheduler = Scheduler(
        jobs=2,
        slots=[None],
        launch_for=lambda slot, host=False: Launch(),
        settles=lambda record, attempt: not record.unexpected(attempt),
    )
    scheduler.start()
    scheduler.add(plan_batches(records, 2, 500, cost=lambda record: 0.05))
    scheduler.join()
    verdicts = {record.case.name: record.verdict for record in records}
    assert verdicts["Fake.Abort1"] is Verdict.CRASH and verdicts["Fake.Flaky1"] in (Verdict.FLAKE, Verdict.FAIL)
    assert all(v is Verdict.PASS for name, v in verdicts.items() if name.startswith("Fake.Nap")), verdicts
    launches = fake_build.launches("mixed")
    ran = [name for launch in launches for name in launch]
    # Every Nap test ended once (a process stopped at a given-away test does not count it: it never ended there).
    assert all(
        record.attempts and len([a for a in record.attempts]) == 1
        for record in records
        if record.case.name.startswith("Fake.Nap")
    ), [(r.case.name, len(r.attempts)) for r in records]
    assert len(launches) >= 3 and set(ran) == set(names)
    assert any(run.get("split_from") for run in scheduler.timeline), launches  # a tail was taken


def test_isolated_first_puts_the_isolated_batches_right_after_the_exclusive_ones(fake_build):
    binary = fake_build.area(
        "order", "Fake.Pass1", "Fake.Pass2", "Fake.PassX exclusive", "Fake.Pass3 isolated", "Fake.Pass4 isolated"
    )
    records = records_of(binary)
    costs = {"Fake.Pass1": 0.5, "Fake.Pass2": 0.5, "Fake.PassX": 1.0, "Fake.Pass3": 0.2, "Fake.Pass4": 0.2}

    def order(isolated_first):
        batches = plan_batches(
            records, 1, 500, cost=lambda r: costs[r.case.name], isolated_first=isolated_first, measured=lambda r: True
        )
        return [[r.case.name for r in b.records] for b in batches]

    # by their cost, the isolated come last; asked to, right after the exclusive one
    assert order(False) == [["Fake.PassX"], ["Fake.Pass1", "Fake.Pass2"], ["Fake.Pass3"], ["Fake.Pass4"]]
    assert order(True) == [["Fake.PassX"], ["Fake.Pass3"], ["Fake.Pass4"], ["Fake.Pass1", "Fake.Pass2"]]


def test_launch_heavy_last_puts_the_batches_of_many_short_tests_after_the_others(fake_build):
    many = fake_build.area("many", *[f"Fake.Pass{i:03d}" for i in range(250)])
    long = fake_build.area("long", *[f"Fake.Pass{i:03d}" for i in range(250)])
    few = fake_build.area("few", "Fake.Pass1", "Fake.Pass2")
    big = fake_build.area("big", "Fake.Pass1")
    records = records_of(many) + records_of(long) + records_of(few) + records_of(big)
    costs = {"many": 0.004, "long": 0.025, "few": 0.4, "big": 30.0}  # batches of 1 s, 6.25 s, 0.8 s and 30 s

    def order(launch_heavy_last):
        batches = plan_batches(
            records,
            1,
            500,
            cost=lambda r: costs[r.case.area],
            launch_heavy_last=launch_heavy_last,
            measured=lambda r: True,
        )
        return [b.binary.name[len("cuconform-") :] for b in batches]

    assert order(False) == ["big", "long", "many", "few"]  # the longest first
    # 250 tests of 4 ms are launch-heavy; 250 of 25 ms (math's kind) are not
    assert order(True) == ["big", "long", "few", "many"]
    # never measured: every GPU test at its default cost, none is taken for launch-heavy
    unmeasured = plan_batches(records, 1, 500, cost=lambda r: durations.DEFAULT_S["gpu"], launch_heavy_last=True)
    assert not any(plan.launch_heavy(batch) for batch in unmeasured)
