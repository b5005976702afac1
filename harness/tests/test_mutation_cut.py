"""A mutation campaign cut in the middle of a batch loses no finished work, a deadline ends it cleanly, and its
results say where the time went (the capture build's seconds): without a GPU, with the fake engine and harness of
test_mutation_campaign.py."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import CONFORMANCE, H100
from test_mutation_campaign import (
    BASELINE,
    FAILS,
    HARMLESS,
    FakeHarness,
    document,
    fake_engine,
    judged,
    no_equivalents,
    plan_for,
    result,
)

from cuconform.mutation import plan as plan_module
from cuconform.cli import conformance
from cuconform.environment import REPO
from cuconform.cli.conformance import mutate
from cuconform.mutation import batch_state, overlay, runs, views
from cuconform.mutation.campaign import Campaign
from cuconform.mutation.progress import PROGRESS, Progress
from cuconform.options import OptionError
from cuconform.results_file import read

FOCUSED_BASELINE = document(
    result("alpha/S.InA", "pass", source="/repo/suites/alpha/a.cu"),
    result("alpha/S.Other", "pass", source="/repo/suites/alpha/other.cu"),
    result("beta/S.InB", "pass", source="/repo/suites/beta/b.cu"),
    result("beta/S.Other", "pass", source="/repo/suites/beta/other.cu"),
)
# fail-all's mutant of alpha fails its focused test; its mutant of beta passes the focused one and fails elsewhere
MUTANTS = {
    "fail-all": {
        "run-focus": document(result("alpha/S.InA", "fail"), result("beta/S.InB", "pass")),
        "run": document(result("beta/S.InB", "pass"), result("beta/S.Other", "fail")),
    }
}
BEHAVIOUR = {("fail-all", "alpha/a.cu"): FAILS, ("fail-all", "beta/b.cu"): FAILS}


class CutHarness(FakeHarness):
    """The fake harness, told whether a run goes on after a cut; `cut_in` (a run folder's name, 'run-focus' or
    'run') is cut in the middle: its journal is left in <run>.partial/, as `scripts/conformance run` leaves it."""

    def __init__(self, baseline: dict, mutants: dict, cut_in: str | None = None):
        super().__init__(baseline, mutants)
        self.cut_in, self.resumed = cut_in, []

    def __call__(self, build_dir: Path, areas, output: Path, rules=(), resume=False, fail_fast=False, exclude=()):
        if output.name == self.cut_in:
            partial = output.with_name(output.name + ".partial")
            partial.mkdir(parents=True)
            (partial / "journal.jsonl").write_text('{"journal": 1}\n')
            raise KeyboardInterrupt
        if resume:
            self.resumed.append(output.name)
            for binary in areas:  # a harness run resumed in the overlay: the binaries it runs are still there
                assert (build_dir / "bin" / f"cuconform-{binary}").is_file(), binary
        return super().__call__(build_dir, areas, output, rules, fail_fast=fail_fast)


def campaign(capture_build: Path, tmp_path: Path, harness, **extra) -> tuple[Campaign, object]:
    engine = fake_engine(capture_build, BEHAVIOUR)
    plan = plan_for(capture_build, tmp_path / "out", ["fail-all"])
    return Campaign(plan, engine, no_equivalents(tmp_path), harness, say=lambda line: None, **extra), engine


def resumed(capture_build: Path, tmp_path: Path, engine) -> tuple[dict, CutHarness]:
    """The cut campaign run again with --resume through the first call's engine (so its rebuilds count together),
    and that call's harness, which does not run a baseline again."""
    harness = CutHarness({"tests": "a baseline is not run again"}, MUTANTS)
    again, _ = campaign(capture_build, tmp_path, harness)
    object.__setattr__(again, "engine", engine)
    return again.run(resume=True), harness


def test_a_batch_cut_in_its_whole_area_run_keeps_its_binaries_and_focused_verdicts(tmp_path, capture_build):
    first, engine = campaign(capture_build, tmp_path, CutHarness(FOCUSED_BASELINE, MUTANTS, cut_in="run"))
    with pytest.raises(KeyboardInterrupt):
        first.run()
    folder = tmp_path / "out" / "mutants" / "batch-fail-all"
    state = json.loads((folder / batch_state.STATE).read_text())
    assert state["runs_done"] == ["focus"] and state["slots"]["alpha@fail-all"]["entry"]["status"] == "killed"
    assert not (folder / "bin" / "cuconform-alpha@fail-all").exists()  # decided in the focused run: removed
    assert (folder / "bin" / "cuconform-beta@fail-all").is_file()
    rebuilds = len(engine.calls)

    results, harness = resumed(capture_build, tmp_path, engine)
    # no rebuild, no patching, no focused run: only the whole-area run that was cut goes on, at its unfinished tests
    assert len(engine.calls) == rebuilds
    assert harness.calls == [("batch-fail-all", ("beta@fail-all",))] and harness.resumed == ["run"]
    mutants = judged(results)
    assert (mutants[("fail-all", "alpha")]["status"], mutants[("fail-all", "alpha")]["run"]) == ("killed", "focused")
    assert mutants[("fail-all", "alpha")]["killed_by"] == "alpha/S.InA"
    assert (mutants[("fail-all", "beta")]["killed_by"], mutants[("fail-all", "beta")]["run"]) == (
        "beta/S.Other",
        "whole area",
    )
    assert mutants[("fail-all", "beta")]["objects"] == ["beta/b.cu.o"]  # its rebuild's entry, kept
    batch = results["mutation"]["batches"][0]
    assert batch["resumed"] == 1 and batch["rebuilds"] == 4 and "patch_seconds" in batch
    assert not (folder / batch_state.STATE).exists() and not (folder / "bin").exists()  # recorded: nothing to resume


def test_a_batch_cut_in_its_focused_run_goes_on_with_that_run(tmp_path, capture_build):
    first, engine = campaign(capture_build, tmp_path, CutHarness(FOCUSED_BASELINE, MUTANTS, cut_in="run-focus"))
    with pytest.raises(KeyboardInterrupt):
        first.run()
    rebuilds = len(engine.calls)
    results, harness = resumed(capture_build, tmp_path, engine)
    assert len(engine.calls) == rebuilds
    assert harness.resumed == ["run-focus"]  # the whole-area run had not begun: it is a new one
    assert [call[:2] for call in harness.calls] == [
        ("batch-fail-all", ("alpha@fail-all", "beta@fail-all")),
        ("batch-fail-all", ("beta@fail-all",)),
    ]
    assert {key: m["run"] for key, m in judged(results).items()} == {
        ("fail-all", "alpha"): "focused",
        ("fail-all", "beta"): "whole area",
    }


def test_a_cut_batch_whose_binaries_are_gone_starts_over(tmp_path, capture_build):
    first, engine = campaign(capture_build, tmp_path, CutHarness(FOCUSED_BASELINE, MUTANTS, cut_in="run"))
    with pytest.raises(KeyboardInterrupt):
        first.run()
    (tmp_path / "out" / "mutants" / "batch-fail-all" / "bin" / "cuconform-beta@fail-all").unlink()
    rebuilds = len(engine.calls)
    results, harness = resumed(capture_build, tmp_path, engine)
    assert len(engine.calls) == 2 * rebuilds and harness.resumed == []  # rebuilt, patched and run again, whole
    assert len(harness.calls) == 2 and judged(results)[("fail-all", "beta")]["status"] == "killed"


def test_a_finished_run_of_a_cut_batch_is_not_made_again(tmp_path, capture_build):
    """Cut after its focused run finished, before its verdicts were saved: that run's results.json is used."""
    first, engine = campaign(capture_build, tmp_path, CutHarness(FOCUSED_BASELINE, MUTANTS, cut_in="run"))
    with pytest.raises(KeyboardInterrupt):
        first.run()
    folder = tmp_path / "out" / "mutants" / "batch-fail-all"
    state = json.loads((folder / batch_state.STATE).read_text())
    state["runs_done"] = []
    for name in ("alpha@fail-all", "beta@fail-all"):
        state["slots"][name]["entry"] = {
            k: v for k, v in state["slots"][name]["entry"].items() if k not in ("status", "run", "killed_by")
        }
    (folder / batch_state.STATE).write_text(json.dumps(state))
    (folder / "bin" / "cuconform-alpha@fail-all").write_bytes(b"patched")
    results, harness = resumed(capture_build, tmp_path, engine)
    assert harness.calls == [("batch-fail-all", ("beta@fail-all",))] and harness.resumed == ["run"]
    assert judged(results)[("fail-all", "alpha")]["run"] == "focused"


def test_a_deadline_begins_no_batch_that_would_end_after_it(tmp_path, capture_build):
    engine = fake_engine(capture_build, {("fail-all", "alpha/a.cu"): FAILS, ("harmless", "alpha/a.cu"): HARMLESS})
    killed = document(result("alpha/S.Pass1", "fail"))
    plan = plan_for(capture_build, tmp_path / "out", ["fail-all", "harmless"], areas=("alpha",), batch_mutants=1)
    harness = FakeHarness(BASELINE, {"fail-all": killed, "harmless": killed})
    lines = []
    # the deadline has passed: the first batch is begun (nothing measured yet), the second is not
    cut = Campaign(plan, engine, no_equivalents(tmp_path), harness, say=lines.append, deadline=time.time() - 1)
    results = cut.run()
    assert results["mutation"]["complete"] is False and [r["operator"] for r in results["mutation"]["operators"]] == [
        "fail-all"
    ]
    assert cut.cut_short and cut.cut_short in lines
    assert "batch batch-harmless (1 mutants) needs about" in cut.cut_short and "1 batch left" in cut.cut_short

    later = FakeHarness({"tests": "a baseline is not run again"}, {"harmless": killed})
    done = Campaign(plan, engine, no_equivalents(tmp_path), later, say=lines.append, deadline=time.time() + 3600)
    assert done.run(resume=True)["mutation"]["complete"] is True and done.cut_short is None


def test_the_capture_build_s_seconds_are_in_the_time_of_the_results(tmp_path, capture_build):
    harness = CutHarness(FOCUSED_BASELINE, MUTANTS, cut_in="run")
    first, engine = campaign(capture_build, tmp_path, harness, build_seconds=212.25)
    with pytest.raises(KeyboardInterrupt):
        first.run()
    steps = Progress.read(tmp_path / "out" / PROGRESS).steps
    assert steps[0] == {"step": "capture build", "seconds": 212.25}
    # the cut: the batch's seconds since its state was saved last (after its focused run), in no operator's line
    assert [(step["step"], step["batch"]) for step in steps[1:]] == [("cut", "batch-fail-all")]
    assert 0 <= steps[1]["seconds"] < 60
    time_ = resumed(capture_build, tmp_path, engine)[0]["mutation"]["time"]
    assert time_["capture_build_seconds"] == 212.2  # rounded to 0.1 s, as every other figure there
    assert "after the capture build's 212.2 s: the baseline" in views.time_line(time_)
    assert time_["cuts"] == 1 and "; cut 1 time in a batch, " in views.time_line(time_)
    assert "capture build" not in views.time_line({"mutants": 0})  # a campaign that recorded none


def test_the_command_says_what_the_capture_build_took_even_when_it_fails(tmp_path, capture_build, monkeypatch, capsys):
    def failing(*args):
        time.sleep(0.01)
        raise mutate.build.BuildError("cmake --build build/mutation failed with exit code 1")

    monkeypatch.setattr(mutate, "real_engine", lambda: fake_engine(capture_build.resolve(), BEHAVIOUR))
    monkeypatch.setattr(mutate, "ensure_capture_build", failing)
    equivalents = tmp_path / "equivalent.toml"
    equivalents.write_text("")
    (tmp_path / "suites").mkdir()
    (tmp_path / "expectations").mkdir()
    (tmp_path / "expectations" / "common.toml").write_text("# none\n")
    arguments = ["mutate", "--preset", "ci", "--build-dir", str(capture_build), "--output", str(tmp_path / "out")]
    arguments += ["--equivalent", str(equivalents), "--survivors", str(tmp_path / "suites"), "--area", "alpha"]
    arguments += ["--expectations", str(tmp_path / "expectations"), "--deadline", "300"]
    assert conformance.main(arguments) == 2
    captured = capsys.readouterr()
    assert "time: the capture build (configure and build) stopped after 0." in captured.out
    assert "failed with exit code 1" in captured.err


def test_a_campaign_over_a_math_area_without_the_math_reference_stops_before_its_build(
    tmp_path, capture_build, monkeypatch, capsys
):
    """The math rules that need the MPFR reference skip without it and judge nothing: a campaign with a math area
    (named, or every area of a build to be made) stops with one line before the capture build; without one it goes
    on."""
    monkeypatch.setattr(mutate, "real_engine", lambda: fake_engine(capture_build.resolve(), BEHAVIOUR))
    monkeypatch.setattr(plan_module.env, "find_math_reference", lambda build_dir: None)
    monkeypatch.setattr(mutate, "ensure_capture_build", lambda *args: pytest.fail("built without the reference"))
    (tmp_path / "equivalent.toml").write_text("")
    (tmp_path / "suites").mkdir()
    arguments = ["mutate", "--preset", "ci", "--build-dir", str(capture_build), "--output", str(tmp_path / "out")]
    arguments += ["--equivalent", str(tmp_path / "equivalent.toml"), "--survivors", str(tmp_path / "suites")]
    for areas in (["--area", "alpha,math-ftz"], []):  # []: every area of the repository's suites, math among them
        assert conformance.main([*arguments, *areas]) == 2
        err = capsys.readouterr().err
        assert err.startswith("the math reference libcuconform-mathref.so (MPFR) was not found") and "--area" in err
        assert len(err.strip().splitlines()) == 1
    plan = plan_module.Plan(build_dir=capture_build, output=tmp_path / "o", areas=("alpha",), operators=(), timeout=5)
    plan_module.check_math_reference(plan)  # no math area: nothing to check
    with pytest.raises(plan_module.CampaignError, match="the campaign has math, math-prec-div"):
        plan_module.check_math_reference(plan, ["alpha", "math", "math-prec-div"])


def test_a_deadline_is_a_unix_time_or_seconds_from_now():
    assert mutate._deadline(None) is None
    assert mutate._deadline("1900000000") == 1900000000.0
    assert abs(mutate._deadline("90") - (time.time() + 90)) < 5
    for bad in ("0", "-3", "soon", "inf"):
        with pytest.raises(OptionError, match=f"--deadline={bad}: must be a Unix time or seconds from now"):
            mutate._deadline(bad)


def test_a_cut_mutant_run_goes_on_with_run_resume_and_fail_fast(tmp_path, monkeypatch):
    commands = []

    class Process:
        def __init__(self, command, **options):
            commands.append(command)

        def wait(self):
            return 0

    monkeypatch.setattr(runs.subprocess, "Popen", Process)
    output = tmp_path / "mutants" / "batch-x" / "run"
    (tmp_path / "mutants" / "batch-x" / "run.partial").mkdir(parents=True)
    (tmp_path / "mutants" / "batch-x" / "run.partial" / "journal.jsonl").write_text("{}\n")
    plan = plan_for(tmp_path, tmp_path / "out", ["fail-all"])
    harness = runs.subprocess_harness(plan)
    ran = harness(tmp_path / "mutants" / "batch-x", ["alpha@x"], output, resume=True, fail_fast=True)
    assert ran.document is None
    command = commands[0]
    assert command[2:5] == ["run", "--resume", str(output)] and "--fail-fast" in command
    assert "--area" not in command and "--rule" not in command  # the journal keeps which tests
    with pytest.raises(Exception):
        read(output)


def test_a_mutant_run_stopped_in_its_overlay_goes_on_through_the_real_harness(fake_build, tmp_path):
    """What a cut campaign leaves of a batch's run (SIGTERM, as runs.py stops it when the campaign is cut), resumed
    as a resumed campaign resumes it: in the batch's overlay, with --fail-fast. A mutant killed before the cut stays
    killed; nothing that finished runs again."""
    fake_build.area("alpha", "Fake.Fail1", "Fake.Nap00", "Fake.Nap01")
    fake_build.area("beta", "Fake.Nap00", "Fake.Nap01", "Fake.Gate02", "Fake.Nap03")
    fake_build.devices(H100)
    folder = tmp_path / "mutants" / "batch-x"
    bin_dir = overlay.make_overlay(fake_build.dir, folder)
    for area in ("alpha", "beta"):  # the mutant binaries and the files they read beside themselves, as passes.py
        shutil.copy(fake_build.bin / f"cuconform-{area}", bin_dir / f"cuconform-{area}@x")
        (bin_dir / f"cuconform-{area}@x.tests").symlink_to(fake_build.bin / f"cuconform-{area}.tests")
    output = folder / "run"
    plan = plan_for(fake_build.dir, tmp_path / "out", ["x"], expectations=fake_build.expectations)
    plan = dataclasses.replace(plan, timeout=30)
    command = [sys.executable, str(CONFORMANCE), "run", "--no-build", "--build-dir", str(folder)]
    command += ["--area", "alpha@x,beta@x", "--output", str(output), "--expectations", str(fake_build.expectations)]
    command += ["--timeout", "30", "--fail-fast", "--progress-every", "0"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    gate = bin_dir / "cuconform-beta@x.waiting"
    waited = time.monotonic() + 120
    while not gate.exists() and time.monotonic() < waited:
        time.sleep(0.02)
    assert gate.exists(), "the run did not reach the gate"
    process.terminate()
    console, _ = process.communicate(timeout=60)
    assert process.returncode == 2, console
    assert runs.partial_run(output)
    finished = {test["id"] for test in read(output).tests}
    assert "alpha@x/Fake.Fail1" in finished and "beta@x/Fake.Nap01" in finished
    (bin_dir / "cuconform-beta@x.open").touch()
    launches = len((bin_dir / "cuconform-beta@x.log").read_text().splitlines())

    done = runs.subprocess_harness(plan)(folder, ["alpha@x", "beta@x"], output, resume=True, fail_fast=True)
    assert done.usable, done.why_not()
    tests = {test["id"]: test for test in done.document["tests"]}
    assert tests["alpha@x/Fake.Fail1"]["status"] == "fail"  # its kill, kept
    assert [tests[f"beta@x/Fake.{name}"]["status"] for name in ("Nap00", "Nap01", "Gate02", "Nap03")] == ["pass"] * 4
    again = [
        line.split(" ", 3)[3]
        for line in (bin_dir / "cuconform-beta@x.log").read_text().splitlines()[launches:]
        if line.startswith("done ")
    ]
    assert "Fake.Nap00" not in again and "Fake.Nap01" not in again  # finished before the cut: not run again
    assert not runs.partial_run(output)


def test_a_campaign_cut_in_a_run_goes_on_at_its_unfinished_tests_through_the_real_harness(fake_build, tmp_path):
    """The whole chain with scripts/conformance run on fake binaries: the campaign is stopped (SIGTERM, as
    `scripts/conformance mutate` takes it) while its mutant's run waits at a gate; --resume rebuilds and patches
    nothing and goes on with that run, which runs only the tests that had not finished."""
    fake_build.area("alpha", "Fake.Pass1", "Fake.Nap00", "Fake.Gate01", "Fake.Nap02")
    fake_build.devices(H100)
    engine = fake_engine(fake_build.dir.resolve(), {("harmless", "alpha/a.cu"): HARMLESS}, areas=("alpha",))
    plan = plan_for(
        fake_build.dir.resolve(), tmp_path / "out", ["harmless"], ("alpha",), expectations=fake_build.expectations
    )
    plan = dataclasses.replace(plan, timeout=30, focus=False, keep_binaries=True)
    real = runs.subprocess_harness(plan)

    def harness(build_dir, areas, output, rules=(), resume=False, fail_fast=False, exclude=()):
        gate = fake_build.bin / "cuconform-alpha.open"
        if output.name == "baseline":
            gate.touch()  # the baseline's binary passes its gate, the mutant's (its own file) will not
        try:
            return real(build_dir, areas, output, rules, resume=resume, fail_fast=fail_fast, exclude=exclude)
        finally:
            for left in ("open", "waiting", "log"):  # nothing of the baseline's beside the mutant's binary
                (fake_build.bin / f"cuconform-alpha.{left}").unlink(missing_ok=True)

    bin_dir = tmp_path / "out" / "mutants" / "batch-harmless" / "bin"
    main = threading.main_thread().ident

    journal = bin_dir.parent / "run.partial" / "journal.jsonl"

    def stop_at_the_gate():  # once Pass1 and Nap00 are in the run's journal, and Gate01 waits
        waited = time.monotonic() + 120
        while time.monotonic() < waited and not (
            (bin_dir / "cuconform-alpha@harmless.waiting").exists()
            and journal.exists()
            and len(journal.read_text().splitlines()) >= 3
        ):
            time.sleep(0.02)
        signal.pthread_kill(main, signal.SIGTERM)

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGTERM, interrupt)
    try:
        stopper = threading.Thread(target=stop_at_the_gate)
        stopper.start()
        with pytest.raises(KeyboardInterrupt):
            Campaign(plan, engine, no_equivalents(tmp_path), harness, say=lambda line: None).run()
        stopper.join()
    finally:
        signal.signal(signal.SIGTERM, before)
    run = tmp_path / "out" / "mutants" / "batch-harmless" / "run"
    assert runs.partial_run(run) and (bin_dir.parent / batch_state.STATE).exists()
    finished = {test["id"] for test in read(run).tests}
    assert {"alpha@harmless/Fake.Pass1", "alpha@harmless/Fake.Nap00"} <= finished
    (bin_dir / "cuconform-alpha@harmless.open").touch()
    launches = len((bin_dir / "cuconform-alpha@harmless.log").read_text().splitlines())
    rebuilds = len(engine.calls)

    lines = []
    results = Campaign(plan, engine, no_equivalents(tmp_path), harness, say=lines.append).run(resume=True)
    assert len(engine.calls) == rebuilds
    assert any("going on where it was cut" in line for line in lines), lines
    assert any("going on with the whole run that was cut" in line for line in lines), lines
    mutant = judged(results)[("harmless", "alpha")]
    assert (mutant["status"], mutant["run"], mutant["judges"]) == ("survived", "whole area", 4)
    assert "run --resume" in (bin_dir.parent / "run.log").read_text()
    again = [
        line.split(" ", 3)[3]
        for line in (bin_dir / "cuconform-alpha@harmless.log").read_text().splitlines()[launches:]
        if line.startswith("done ")
    ]
    assert "Fake.Gate01" in again and not {"Fake.Pass1", "Fake.Nap00"} & set(again)  # finished before the cut
    assert results["mutation"]["complete"] is True


def test_device_mutate_passes_its_seconds_as_the_deadline_unless_told_not_to(tmp_path):
    shims = tmp_path / "bin"
    shims.mkdir()
    asked = tmp_path / "asked.txt"
    (shims / "python3").write_text(f'#!/bin/sh\necho "$*" >> {asked}\nexit 0\n')
    (shims / "python3").chmod(0o755)
    env = {**os.environ, "PATH": f"{shims}:{os.environ['PATH']}", "OUT": str(tmp_path / "out")}
    device_mutate = [str(REPO / "scripts" / "device-mutate"), "--dir", str(tmp_path / "campaign")]
    subprocess.run([*device_mutate, "--seconds", "575"], env=env, check=True, capture_output=True)
    subprocess.run([*device_mutate, "--seconds", "575", "--no-deadline"], env=env, check=True, capture_output=True)
    with_deadline, without = asked.read_text().splitlines()
    assert "--deadline 565 " in with_deadline and "--deadline" not in without
