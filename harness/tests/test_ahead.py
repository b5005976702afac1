"""Test processes started ahead of their turn (ahead.py): they wait at their gates while an exclusive batch holds the
GPU, run their tests when their workers take them, and are never lost or left behind."""

import os
import time

from cuconform import ahead
from cuconform.catalog import list_binary
from cuconform.plan import plan_batches
from cuconform.results import TestRecord
from cuconform.runner import Launch
from cuconform.scheduler import Scheduler
from cuconform.status import Verdict


def records_of(*binaries):
    return [TestRecord(case) for binary in binaries for case in list_binary(binary)]


def scheduler_for(records, limit, jobs=2):
    scheduler = Scheduler(
        jobs=jobs,
        slots=[None],
        launch_for=lambda slot, host=False: Launch(timeout=30),
        settles=lambda record, attempt: not record.unexpected(attempt),
        ahead_limit=lambda: limit,
    )
    scheduler.start()
    scheduler.add(plan_batches(records, jobs, 500))
    return scheduler


def log_lines(fake_build, area, word):
    log = fake_build.bin / f"cuconform-{area}.log"
    return [line.split() for line in log.read_text().splitlines() if line.startswith(word)] if log.exists() else []


def wait_for(condition, seconds=20.0):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def holding_the_gpu(fake_build):
    """An exclusive batch that holds the GPU until the test opens it (the fake's Gate test); returns the opener."""
    binary = fake_build.area("hold", "Fake.Gate exclusive")
    wait = binary.with_name(binary.name + ".waiting")
    return binary, wait, lambda: binary.with_name(binary.name + ".open").touch()


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_ordinary_batches_wait_at_their_gates_while_an_exclusive_batch_holds_the_gpu(fake_build):
    hold, waiting, open_gpu = holding_the_gpu(fake_build)
    areas = ("one", "two", "three")
    binaries = [fake_build.area(area, f"Fake.Pass{area}1", f"Fake.Pass{area}2") for area in areas]
    isolated = fake_build.area("own", "Fake.PassOwn isolated")
    records = records_of(hold, *binaries, isolated)
    scheduler = scheduler_for(records, limit=8)
    wait_for(waiting.exists)
    wait_for(lambda: all(log_lines(fake_build, area, "gate") for area in (*areas, "own")))
    # each made its context (said so at the gate) and none has run a test while the GPU is held
    assert all(not log_lines(fake_build, area, "start") for area in (*areas, "own"))
    open_gpu()
    scheduler.join()
    assert all(record.verdict is Verdict.PASS and len(record.attempts) == 1 for record in records)
    ran = {entry["binary"]: entry for entry in scheduler.timeline}
    assert all(ran[f"cuconform-{area}"]["ahead_s"] > 0 for area in (*areas, "own"))
    assert "ahead_s" not in ran["cuconform-hold"]  # an exclusive batch is never started ahead
    assert scheduler.ahead.started == scheduler.ahead.taken == 4
    # one process each: the one that waited at its gate ran the batch
    assert all(len(log_lines(fake_build, area, "start")) == 1 for area in (*areas, "own"))


def test_no_more_than_the_limit_wait_at_once(fake_build):
    hold, waiting, open_gpu = holding_the_gpu(fake_build)
    binary = fake_build.area("many", *[f"Fake.Pass{i} isolated" for i in range(6)])
    records = records_of(hold, binary)
    scheduler = scheduler_for(records, limit=2)
    wait_for(waiting.exists)
    wait_for(lambda: len(log_lines(fake_build, "many", "gate")) == 2)
    time.sleep(0.5)
    assert len(log_lines(fake_build, "many", "gate")) == 2
    open_gpu()
    scheduler.join()
    assert all(record.verdict is Verdict.PASS and len(record.attempts) == 1 for record in records)
    assert len(log_lines(fake_build, "many", "start")) == 6  # one process per isolated test, as without starting ahead


def test_a_limit_of_zero_starts_nothing_ahead(fake_build):
    hold, waiting, open_gpu = holding_the_gpu(fake_build)
    binary = fake_build.area("later", "Fake.Pass1", "Fake.Pass2")
    records = records_of(hold, binary)
    scheduler = scheduler_for(records, limit=0)
    wait_for(waiting.exists)
    time.sleep(0.3)
    assert not log_lines(fake_build, "later", "gate")
    open_gpu()
    scheduler.join()
    assert all(record.verdict is Verdict.PASS for record in records)
    assert scheduler.ahead.started == 0 and not log_lines(fake_build, "later", "gate")


def test_stopping_the_run_ends_the_processes_at_their_gates(fake_build):
    hold, waiting, _ = holding_the_gpu(fake_build)
    binary = fake_build.area("stopped", "Fake.Pass1", "Fake.Pass2")
    scheduler = scheduler_for(records_of(hold, binary), limit=4)
    wait_for(waiting.exists)
    wait_for(lambda: log_lines(fake_build, "stopped", "gate"))
    pid = int(log_lines(fake_build, "stopped", "gate")[0][1])
    scheduler.stop()
    wait_for(lambda: not alive(pid), seconds=5)
    assert not log_lines(fake_build, "stopped", "start")


def test_a_process_that_ended_at_its_gate_is_not_handed_out(fake_build):
    hold, waiting, open_gpu = holding_the_gpu(fake_build)
    binary = fake_build.area("died", "Fake.Pass1", "Fake.Pass2")
    records = records_of(hold, binary)
    scheduler = scheduler_for(records, limit=4)
    wait_for(waiting.exists)
    wait_for(lambda: log_lines(fake_build, "died", "gate"))
    pid = int(log_lines(fake_build, "died", "gate")[0][1])
    os.kill(pid, 9)  # it could not make its context, say
    wait_for(lambda: not alive(pid) or open(f"/proc/{pid}/stat").read().split()[2] == "Z", seconds=5)
    open_gpu()
    scheduler.join()
    assert all(record.verdict is Verdict.PASS and len(record.attempts) == 1 for record in records)
    starts = log_lines(fake_build, "died", "start")
    assert len(starts) == 1 and int(starts[0][1]) != pid  # a fresh process ran the batch
    assert "ahead_s" not in next(entry for entry in scheduler.timeline if entry["binary"] == "cuconform-died")


def test_the_limit_follows_the_gpus_memory():
    gib = 1 << 30
    assert ahead.limit_for(None) == 0  # the probe is not done: nothing starts ahead yet
    assert ahead.limit_for({"devices": []}) == 0  # no GPU
    assert ahead.limit_for({"devices": [{"global_memory_bytes": 8 * gib}]}) == 4
    assert ahead.limit_for({"devices": [{"global_memory_bytes": 141 * gib}]}) == ahead.LIMIT
    # several GPUs: the smallest decides
    assert ahead.limit_for({"devices": [{"global_memory_bytes": 141 * gib}, {"global_memory_bytes": 16 * gib}]}) == 8
