"""Long runs: the journal, --resume after a kill or Ctrl-C, the progress line, the slowest areas."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import CONFORMANCE, H100
from cuconform.journal import JournalError, read

NAPS = [f"Fake.Nap{i:02d}" for i in range(12)]  # 0.3 s each: 3.6 s in all, one process (no GPU: one worker)
# A run to be stopped mid-way: the fifth test waits at a gate the test opens, so however loaded the machine, the run
# is still going when the signal comes (a run of naps alone could end first).
GATED = [*NAPS[:4], "Fake.Gate04", *NAPS[5:]]


def journal_lines(fake_build) -> list[str]:
    for folder in ("only.partial", "only"):
        path = fake_build.reports / folder / "journal.jsonl"
        if path.exists():
            return path.read_text().splitlines()
    return []


def wait_for_tests(fake_build, count: int) -> None:
    deadline = time.monotonic() + 120
    while len(journal_lines(fake_build)) < count + 1 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert len(journal_lines(fake_build)) >= count + 1, "the run did not get going"


def wait_at_gate(fake_build, area: str) -> None:
    waiting = fake_build.bin / f"cuconform-{area}.waiting"
    deadline = time.monotonic() + 120
    while not waiting.exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert waiting.exists(), "the run did not reach the gate"


def open_gate(fake_build, area: str) -> None:
    (fake_build.bin / f"cuconform-{area}.open").touch()


def resume(fake_build, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(CONFORMANCE), "run", "--resume", str(fake_build.reports / "only"), *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def started_tests(fake_build, area: str, launches_before: int) -> list[str]:
    return [name for launch in fake_build.launches(area)[launches_before:] for name in launch]


def test_a_killed_run_resumes_without_running_anything_twice(fake_build):
    fake_build.area("alpha", *GATED)
    process = fake_build.start()
    wait_for_tests(fake_build, 3)
    wait_at_gate(fake_build, "alpha")
    process.kill()  # SIGKILL: no chance to write anything more
    process.communicate(timeout=30)
    journal = fake_build.reports / "only.partial" / "journal.jsonl"
    assert not (fake_build.reports / "only").exists() and journal.exists()
    finished = {json.loads(line)["id"] for line in journal.read_text().splitlines()[1:]}
    assert 3 <= len(finished) < len(GATED)
    unfinished = sorted(f"alpha/{name}" for name in GATED if f"alpha/{name}" not in finished)
    # killed in the middle of writing the next line: half of it is there, without its newline
    with open(journal, "a") as stream:
        stream.write(f'{{"id": "{unfinished[0]}", "rule": "alpha/Fake.Na')
    open_gate(fake_build, "alpha")
    time.sleep(0.5)  # the orphaned test process dies at its next write
    launches = len(fake_build.launches("alpha"))

    done = resume(fake_build)
    assert done.returncode == 0, done.stdout + done.stderr
    again = fake_build.completed("alpha", launches)
    assert sorted(again) == [test_id.split("/", 1)[1] for test_id in unfinished]  # nothing twice, nothing lost
    results = json.loads((fake_build.reports / "only" / "results.json").read_text())
    assert results["complete"] is True and results["counts"]["pass"] == len(GATED)
    assert sorted(test["id"] for test in results["tests"]) == sorted(f"alpha/{name}" for name in GATED)
    assert results["environment"]["resumed"]["restored_tests"] == len(finished)
    assert not (fake_build.reports / "only.partial").exists()
    contents = read(fake_build.reports / "only" / "journal.jsonl")
    assert set(contents.tests) == {test["id"] for test in results["tests"]} and not contents.dropped_partial_line


def test_ctrl_c_writes_what_finished_and_says_how_to_resume(fake_build):
    fake_build.area("alpha", *GATED[:8], "Fake.Fail1")
    fake_build.area("beta", *GATED[8:])
    process = fake_build.start()
    wait_for_tests(fake_build, 2)
    wait_at_gate(fake_build, "alpha")
    process.send_signal(signal.SIGINT)
    output, _ = process.communicate(timeout=60)
    assert process.returncode == 2, output
    assert f"scripts/conformance run --resume {fake_build.reports / 'only'}" in output
    first = json.loads((fake_build.reports / "only" / "results.json").read_text())
    assert first["complete"] is False and 2 <= len(first["tests"]) < 13
    assert all(test["verdict"] == "pass" for test in first["tests"])  # nothing cut short is reported as a result
    launches = {area: len(fake_build.launches(area)) for area in ("alpha", "beta")}
    open_gate(fake_build, "alpha")

    done = resume(fake_build, "--timeout", "30")  # options that do not choose tests may change
    assert done.returncode == 1, done.stdout + done.stderr  # Fake.Fail1
    again = started_tests(fake_build, "alpha", launches["alpha"]) + started_tests(fake_build, "beta", launches["beta"])
    assert not {f"alpha/{name}" for name in again} & {test["id"] for test in first["tests"]}
    results = json.loads((fake_build.reports / "only" / "results.json").read_text())
    assert results["complete"] is True and len(results["tests"]) == 13
    assert results["counts"]["pass"] == 12 and results["counts"]["fail"] == 1
    assert results["environment"]["timeout_s"] == 30


def test_a_sigterm_stops_the_run_as_ctrl_c_does(fake_build):
    fake_build.area("alpha", *GATED)
    process = fake_build.start()
    wait_for_tests(fake_build, 1)
    wait_at_gate(fake_build, "alpha")
    process.send_signal(signal.SIGTERM)
    output, _ = process.communicate(timeout=60)
    assert process.returncode == 2 and "--resume" in output, output
    assert json.loads((fake_build.reports / "only" / "results.json").read_text())["complete"] is False
    open_gate(fake_build, "alpha")
    assert resume(fake_build).returncode == 0


def test_a_resumed_sanitizer_run_stays_under_the_tool(fake_build, tmp_path, monkeypatch):
    # Seen on an H200 (2026-11-29): a racecheck run stopped at its call's end was resumed without the tool, and the
    # 4,366 tests it had left were reported as passing, unchecked.
    log = tmp_path / "sanitized"
    tool = tmp_path / "compute-sanitizer"  # records its options, then runs the binary it wraps
    tool.write_text(f'#!/bin/sh\necho "$@" >> "{log}"\nwhile [ "${{1#--}}" != "$1" ]; do shift 2; done\nexec "$@"\n')
    tool.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    fake_build.devices(H100)
    fake_build.area("alpha", *GATED)
    process = fake_build.start("--sanitizer", "racecheck")
    wait_for_tests(fake_build, 1)
    wait_at_gate(fake_build, "alpha")
    process.send_signal(signal.SIGINT)
    output, _ = process.communicate(timeout=60)
    assert process.returncode == 2, output
    launched = log.read_text().count("--tool racecheck")
    open_gate(fake_build, "alpha")

    refused = resume(fake_build, "--sanitizer", "memcheck")
    assert refused.returncode == 2 and "leave out --sanitizer" in refused.stderr
    done = resume(fake_build)
    assert done.returncode == 0, done.stdout + done.stderr
    assert log.read_text().count("--tool racecheck") > launched  # the rest ran under the tool too
    results = json.loads((fake_build.reports / "only" / "results.json").read_text())
    assert results["complete"] is True and results["environment"]["sanitizer"] == "racecheck"


def test_resume_refuses_what_it_cannot_continue(fake_build, tmp_path):
    fake_build.area("alpha", "Fake.Pass1", "Fake.Pass2")
    assert fake_build.run().code == 0
    for args, expected in (
        (["--area", "alpha"], "leave out --area"),
        (["--shard", "1/2"], "leave out --shard"),
        (["--exclude-rule", "alpha/Fake.Pass2"], "leave out --exclude-rule"),
        (["--", "-x"], "leave out pytest arguments"),
    ):
        done = resume(fake_build, *args)
        assert done.returncode == 2 and expected in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
    nothing = subprocess.run(
        [sys.executable, str(CONFORMANCE), "run", "--resume", str(tmp_path / "nope")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert nothing.returncode == 2 and nothing.stderr.splitlines() == [
        f"--resume={tmp_path / 'nope'}: no such folder (give the report folder of the interrupted run, reports/<run>)"
    ]
    (tmp_path / "empty").mkdir()
    empty = subprocess.run(
        [sys.executable, str(CONFORMANCE), "run", "--resume", str(tmp_path / "empty")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert empty.returncode == 2 and "not a run that can be resumed" in empty.stderr
    # the build lists another test now: not the same selection
    (fake_build.bin / "cuconform-alpha.tests").write_text("Fake.Pass1\nFake.Pass2\nFake.Pass3\n")
    changed = resume(fake_build)
    assert changed.returncode == 2 and "cannot resume" in changed.stderr and "Traceback" not in changed.stderr
    assert (fake_build.reports / "only.partial" / "journal.jsonl").exists()  # kept for a later try


def test_resuming_a_finished_run_runs_nothing(fake_build):
    fake_build.area("alpha", "Fake.Pass1", "Fake.Skip1")
    assert fake_build.run().code == 0
    launches = len(fake_build.launches("alpha"))
    done = resume(fake_build)
    assert done.returncode == 0 and len(fake_build.launches("alpha")) == launches
    assert len(json.loads((fake_build.reports / "only" / "results.json").read_text())["tests"]) == 2


def test_a_resumed_run_keeps_the_exclusions_it_was_begun_with(fake_build):
    fake_build.area("alpha", "Fake.Pass1", "Fake.Pass2", "Fake.Fail1")
    assert fake_build.run("--exclude-rule", "alpha/Fake.Fail1").code == 0
    done = resume(fake_build)  # the same selection (without Fail1), or it would refuse to go on
    assert done.returncode == 0, done.stdout + done.stderr
    results = json.loads((fake_build.reports / "only" / "results.json").read_text())
    assert sorted(test["id"] for test in results["tests"]) == ["alpha/Fake.Pass1", "alpha/Fake.Pass2"]


def test_the_journal_reader_drops_a_half_line_and_refuses_a_broken_one(tmp_path):
    path = tmp_path / "journal.jsonl"
    header = json.dumps({"journal": 1, "run": {}, "selection": {}})
    path.write_text(header + '\n{"id": "a/T.x", "attempts": []}\n{"id": "a/T.y", "att')
    contents = read(path)
    assert list(contents.tests) == ["a/T.x"] and contents.dropped_partial_line
    path.write_text(header + '\n{"id": "a/T.x", "att\n{"id": "a/T.y"}\n')
    with pytest.raises(JournalError, match="line 2: not a JSON line"):
        read(path)
    path.write_text("")
    with pytest.raises(JournalError, match="empty"):
        read(path)


def test_progress_lines_when_the_output_is_not_a_terminal(fake_build):
    """A progress line waits for pytest's line of letters to end: each area's letters stay on one line."""
    fake_build.area("alpha", *NAPS[:2])
    fake_build.area("beta", *NAPS[2:12])
    run = fake_build.run("--progress-every", "0.3", "--jobs", "1")
    assert run.code == 0
    output = run.stdout.splitlines()
    lines = [line for line in output if line.startswith("progress: ")]
    assert lines, run.stdout
    assert all(" pass" in line and "/12]" in line and "elapsed" in line for line in lines)
    # The tests start before pytest does: on a busy machine they may all be done before pytest ends alpha's line.
    assert any("left)" in line for line in lines) or lines[0].startswith("progress: [12/12]")
    letters = [line for line in output if line.startswith(("bin/cuconform-alpha", "bin/cuconform-beta"))]
    # pytest reports the areas in the order they are expected to finish (beta's longer batch first)
    assert {line.split()[0]: line.split()[1] for line in letters} == {
        "bin/cuconform-alpha": "..",
        "bin/cuconform-beta": "..........",
    }, run.stdout
    assert "progress: " not in fake_build.run("--progress-every", "0").stdout


def test_a_live_progress_line_on_a_terminal(fake_build):
    pty = pytest.importorskip("pty")
    fake_build.area("alpha", *NAPS[:4], "Fake.Fail1")
    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        [
            sys.executable,
            str(CONFORMANCE),
            "run",
            "--build-dir",
            str(fake_build.dir),
            "--expectations",
            str(fake_build.expectations),
            "--output",
            str(fake_build.reports / "only"),
        ],
        stdout=terminal,
        stderr=terminal,
        stdin=subprocess.DEVNULL,
    )
    os.close(terminal)
    output = b""
    while True:
        try:
            chunk = os.read(controller, 65536)
        except OSError:
            break
        if not chunk:
            break
        output += chunk
    os.close(controller)
    assert process.wait(timeout=60) == 1
    text = output.decode(errors="replace")
    assert "\r" in text and "[5/5] 100%  4 pass, 1 fail" in text
    assert "FAIL     alpha/Fake.Fail1  [2.2.3]" in text  # an unexpected result is shown as it comes
    assert "cuconform-alpha ...." not in text  # no letter per test: the line counts them


def test_the_summary_names_the_slowest_areas(fake_build):
    fake_build.area("alpha", "Fake.Nap1", "Fake.Pass1")
    fake_build.area("beta", "Fake.Pass2", "Fake.Pass3")
    run = fake_build.run()
    lines = run.stdout.splitlines()
    where = lines.index("slowest areas (2 of 2; test time, summed):")
    assert lines[where + 1].split()[-3:] == ["alpha", "(2", "tests)"] and "beta" in lines[where + 2]


def test_the_journal_holds_one_line_per_test(fake_build):
    fake_build.area("alpha", "Fake.Pass1", "Fake.Flaky1", "Fake.Skip1")
    run = fake_build.run()
    contents = read(run.folder / "journal.jsonl")
    assert contents.header["selection"]["size"] == 3 and contents.header["run"]["area"] == []
    assert {i: t["verdict"] for i, t in contents.tests.items()} == run.verdicts()
    assert [a["status"] for a in contents.tests["alpha/Fake.Flaky1"]["attempts"]] == ["fail", "pass"]
    assert Path(contents.header["run"]["build_dir"]) == fake_build.dir.resolve()
