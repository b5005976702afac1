"""scripts/conformance triage RUN: draft expectation entries for a run's unexpected results, on fake runs."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from conftest import CONFORMANCE
from cuconform import draft_entries
from cuconform.cli.conformance import triage as triage_command
from cuconform.expectations import load_file

H200 = {
    "runtime_version": "13.0",
    "driver_cuda_version": "13.0",
    "driver_version": "580.95.05",
    "devices": [{"ordinal": 0, "name": "NVIDIA H200", "uuid": "GPU-0", "cc": "9.0", "sm_count": 132}],
}
FAILURE = "/src/warp/match.cu:{line}: Failure\nExpected equality of these values:\n  mask\n    Which is: 0xffffffff\n"


def gpu(name: str, cc: str, driver: str = "580.95.05") -> dict:
    return {
        "runtime_version": "13.0",
        "driver_cuda_version": "13.0",
        "driver_version": driver,
        "devices": [{"ordinal": 0, "name": name, "uuid": "GPU-0", "cc": cc}],
    }


def environment(devices: dict, **extra) -> dict:
    cc = (devices.get("devices") or [{}])[0].get("cc")
    return {
        "run": "r",
        "started": "2026-11-28T10:00:00+00:00",
        "devices": devices,
        "compute_capability": cc,
        "build": {
            "compiler": "nvcc",
            "compiler_version": "13.0.88",
            "cuda_toolkit": "13.0.88",
            "host_compiler": "GNU 12.2.0",
            "architectures": "90",
        },
        "expectation_chain": [],
        "profile": "quick",
        "sanitizer": None,
        **extra,
    }


def result(
    test_id: str, status: str, verdict: str | None = None, message: str = "", rule: str | None = None, **extra
) -> dict:
    area, name = test_id.split("/", 1)
    suite_test = name.split("/")[1] if name.count("/") >= 2 else name.split("/")[0]
    entry = {
        "id": test_id,
        "area": area,
        "rule": rule or f"{area}/{suite_test}",
        "section": "5.4.6.3",
        "gpu": True,
        "status": status,
        "verdict": verdict or status,
        "message": message,
        "expected": None,
    }
    entry.update(extra)
    return entry


def run_folder(path: Path, env: dict, tests: list[dict], **extra) -> Path:
    path.mkdir(parents=True)
    (path / "results.json").write_text(
        json.dumps({"format": 1, "environment": env, "complete": True, "tests": tests, **extra})
    )
    return path


@pytest.fixture
def expectations(tmp_path: Path) -> Path:
    folder = tmp_path / "expectations"
    folder.mkdir()
    (folder / "common.toml").write_text("# the common base\n\n# --- Compile-time rules (suites/compile) ---\n")
    return folder


def conformance(*args: object) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(CONFORMANCE), *map(str, args)], capture_output=True, text=True, timeout=120
    )


MATCH = [
    result(
        f"warp/Types/MatchAllSync.ReturnsMask/{p}",
        "fail",
        message=FAILURE.format(line=120),
        rule="warp/MatchAllSync.ReturnsMask",
    )
    for p in ("Int", "Float", "Long")
]


def test_the_same_failure_over_many_parameters_is_one_draft_with_one_pattern_and_no_reason(tmp_path, expectations):
    run = run_folder(
        tmp_path / "r",
        environment(H200),
        [*MATCH, result("warp/Shfl.Passes", "pass"), result("warp/Vote.Other", "crash", message="the process crashed")],
    )
    done = conformance("triage", run, "--expectations", expectations)
    assert done.returncode == 0, done.stderr
    path = expectations / "sm_90.toml"
    entries = load_file(path).expectations
    assert [(e.tests, e.status.value, e.draft, e.reason) for e in entries] == [
        (("warp/Types/MatchAllSync.ReturnsMask/*",), "fail", True, ""),
        (("warp/Vote.Other",), "crash", True, ""),
    ]
    evidence = entries[0].evidence
    assert evidence.startswith(
        "NVIDIA H200 (CC 9.0), driver 580.95.05 (CUDA 13.0), CUDA toolkit 13.0.88, "
        "nvcc 13.0.88, 2026-11-28; observed in 3 tests, e.g. warp/Types/MatchAllSync.Return"
    )
    assert "Expected equality of these values: / mask / Which is: 0xffffffff" in evidence
    assert "reason" not in tomllib.loads(path.read_text())["expect"][0]
    assert "sm_90.toml:" in done.stdout and "warp/Types/MatchAllSync.ReturnsMask/*  (3 tests)" in done.stdout


def test_another_failing_check_is_another_cause_and_a_passing_parameter_is_not_named(tmp_path, expectations):
    run = run_folder(
        tmp_path / "r",
        environment(H200),
        [
            result("warp/Types/Rule.X/Int", "fail", message=FAILURE.format(line=1), rule="warp/Rule.X"),
            result("warp/Types/Rule.X/Int64", "fail", message=FAILURE.format(line=1), rule="warp/Rule.X"),
            result("warp/Types/Rule.X/Int8", "pass", rule="warp/Rule.X"),
            result("warp/Types/Rule.X/Float", "fail", message=FAILURE.format(line=2), rule="warp/Rule.X"),
        ],
    )
    assert conformance("triage", run, "--expectations", expectations).returncode == 0
    entries = load_file(expectations / "sm_90.toml").expectations
    assert [e.tests for e in entries] == [
        ("warp/Types/Rule.X/Int", "warp/Types/Rule.X/Int64"),
        ("warp/Types/Rule.X/Float",),
    ]


def test_a_compile_time_case_goes_to_common_with_its_compiler_and_version(tmp_path, expectations):
    message = "compile/atomic_builtins/not_on_local_memory.fail.cu: nvcc accepted it (exit 0); expected a diagnostic"
    cases = [
        result(
            "compile/AtomicBuiltins.NotOnLocalMemory[nvcc]",
            "fail",
            message=message,
            gpu=False,
            rule="compile/AtomicBuiltins.NotOnLocalMemory",
            compiler="nvcc",
            compiler_version="13.0.88",
        ),
        result(
            "compile/AtomicBuiltins.NotOnLocalMemory[nvrtc]",
            "pass",
            gpu=False,
            rule="compile/AtomicBuiltins.NotOnLocalMemory",
            compiler="nvrtc",
            compiler_version="13.0",
        ),
        result(
            "compile/AtomicBuiltins.NotOnLocalMemoryToo[nvcc]",
            "pass",
            gpu=False,
            rule="compile/AtomicBuiltins.NotOnLocalMemoryToo",
            compiler="nvcc",
            compiler_version="13.0.88",
        ),
    ]
    run = run_folder(tmp_path / "r", environment(H200), cases)
    assert conformance("triage", run, "--expectations", expectations).returncode == 0
    assert not (expectations / "sm_90.toml").exists()
    text = (expectations / "common.toml").read_text()
    assert text.startswith("# the common base\n\n# --- Compile-time rules (suites/compile) ---\n\n# Draft by ")
    [entry] = load_file(expectations / "common.toml").expectations
    # the pattern would also match ...NotOnLocalMemoryToo: the id itself, escaped
    assert entry.tests == ("compile/AtomicBuiltins.NotOnLocalMemory[[]nvcc]",)
    assert (entry.compiler, entry.compiler_versions, entry.draft) == ("nvcc", "==13.0.88", True)
    assert entry.evidence.startswith(
        "nvcc 13.0.88, CUDA toolkit 13.0.88, host GNU 12.2.0, for sm_90, 2026-11-28; "
        "observed: compile/atomic_builtins/not_on_local_memory.fail.cu: nvcc accepted"
    )


def test_a_compile_time_case_of_a_run_for_another_target_goes_to_that_targets_file(tmp_path, expectations):
    env = environment({"devices": [], "error": "no NVIDIA driver"}, compute_capability="8.0")
    run = run_folder(
        tmp_path / "r",
        env,
        [
            result(
                "compile/AtomicBuiltins.ClusterScopeNotBeforeSm90[nvcc]",
                "fail",
                message="accepted",
                gpu=False,
                rule="compile/AtomicBuiltins.ClusterScopeNotBeforeSm90",
                compiler="nvcc",
                compiler_version="13.0.88",
            )
        ],
    )
    assert conformance("triage", run, "--expectations", expectations).returncode == 0
    [entry] = load_file(expectations / "sm_80.toml").expectations
    assert entry.compiler == "nvcc" and entry.tests == ("compile/AtomicBuiltins.ClusterScopeNotBeforeSm90*",)


def test_a_compile_time_case_alone_gets_the_pattern_of_the_reviewed_entries(tmp_path, expectations):
    run = run_folder(
        tmp_path / "r",
        environment(H200),
        [
            result(
                "compile/Inlining.NoinlineForceinlineExclusive[nvcc]",
                "fail",
                message="accepted",
                gpu=False,
                rule="compile/Inlining.NoinlineForceinlineExclusive",
                compiler="nvcc",
                compiler_version="13.0.88",
            )
        ],
    )
    assert conformance("triage", run, "--expectations", expectations).returncode == 0
    [entry] = load_file(expectations / "common.toml").expectations
    assert entry.tests == ("compile/Inlining.NoinlineForceinlineExclusive*",)


def test_a_rule_without_a_gpu_goes_to_common(tmp_path, expectations):
    run = run_folder(tmp_path / "r", environment(H200), [result("runtime/Host.Thing", "fail", gpu=False)])
    assert conformance("triage", run, "--expectations", expectations).returncode == 0
    assert [e.tests for e in load_file(expectations / "common.toml").expectations] == [("runtime/Host.Thing",)]


def test_the_same_failure_on_every_gpu_of_a_family_goes_to_the_family_file(tmp_path, expectations):
    failing = [result("async/Tma.Load", "fail", message=FAILURE.format(line=9))]
    b200 = run_folder(tmp_path / "b200", environment(gpu("NVIDIA B200", "10.0")), failing)
    b300 = run_folder(tmp_path / "b300", environment(gpu("NVIDIA B300", "10.3")), failing)
    h200 = run_folder(tmp_path / "h200", environment(H200), [result("async/Tma.Load", "pass")])
    done = conformance("triage", b200, b300, h200, "--expectations", expectations)
    assert done.returncode == 0, done.stderr
    [entry] = load_file(expectations / "sm_10x.toml").expectations
    assert "NVIDIA B200 (CC 10.0)" in entry.evidence and "NVIDIA B300 (CC 10.3)" in entry.evidence
    assert (expectations / "sm_10x.toml").read_text().startswith("# Expectations for compute capabilities 10.x ")


@pytest.mark.parametrize(
    "gpus, file",
    [
        ([("NVIDIA B200", "10.0", "fail"), ("NVIDIA A100", "8.0", "fail")], "common.toml"),  # two families, no pass
        ([("NVIDIA B200", "10.0", "fail"), ("NVIDIA B300", "10.3", "pass")], "sm_100.toml"),  # passes on its family
        (
            [("NVIDIA B200", "10.0", "fail"), ("NVIDIA A100", "8.0", "fail"), ("NVIDIA H200", "9.0", "pass")],
            "sm_100.toml",
        ),  # and sm_80.toml: it passes somewhere, so each CC's own
    ],
)
def test_where_failures_on_several_gpus_go(tmp_path, expectations, gpus, file):
    runs = [
        run_folder(tmp_path / cc, environment(gpu(name, cc)), [result("async/Tma.Load", status)])
        for name, cc, status in gpus
    ]
    done = conformance("triage", *runs, "--expectations", expectations, "--dry-run")
    assert done.returncode == 0, done.stderr
    assert f"would go into {expectations / file}" in done.stdout
    assert (
        done.stdout.count("would go into") == sum(status == "fail" for *_, status in gpus)
        if file != "common.toml"
        else done.stdout.count("would go into") == 1
    )


def test_scope_puts_every_draft_where_it_is_told(tmp_path, expectations):
    run = run_folder(tmp_path / "r", environment(H200), MATCH)
    assert conformance("triage", run, "--expectations", expectations, "--scope", "family").returncode == 0
    assert load_file(expectations / "sm_9x.toml").expectations[0].draft


def test_a_sanitizer_or_full_profile_failure_holds_only_there(tmp_path, expectations):
    run = run_folder(tmp_path / "r", environment(H200, sanitizer="racecheck", profile="full"), MATCH[:1])
    assert conformance("triage", run, "--expectations", expectations).returncode == 0
    [entry] = load_file(expectations / "sm_90.toml").expectations
    assert entry.sanitizer == ("racecheck",) and entry.profile == "full"
    assert "compute-sanitizer racecheck" in entry.evidence


def test_what_triage_cannot_draft_is_left_for_a_person_and_exits_1(tmp_path, expectations):
    run = run_folder(
        tmp_path / "r",
        environment(H200),
        [
            result(
                "warp/A.Stale", "pass", "xpass", expected={"status": "fail", "entry": "sm_90.toml:3", "reason": "r"}
            ),
            result("warp/A.Gone", None, "missing"),
            result("warp/A.Other", "fail", expected={"status": "crash", "entry": "sm_90.toml:9", "reason": "r"}),
        ],
    )
    done = conformance("triage", run, "--expectations", expectations)
    assert done.returncode == 1, done.stderr
    assert "left for you (3):" in done.stdout
    assert (
        "XPASS    warp/A.Stale: passed; its entry sm_90.toml:3 expects fail: remove or narrow that entry" in done.stdout
    )
    assert "MISSING  warp/A.Gone: never produced a result" in done.stdout
    assert "its entry sm_90.toml:9 expects crash, it did fail: edit that entry" in done.stdout
    assert not (expectations / "sm_90.toml").exists()


def test_triage_twice_writes_once_and_rule_chooses_what_is_accepted(tmp_path, expectations):
    run = run_folder(tmp_path / "r", environment(H200), [*MATCH, result("warp/Vote.Other", "fail")])
    assert conformance("triage", run, "--expectations", expectations, "--rule", "warp/MatchAll*").returncode == 0
    assert [e.tests for e in load_file(expectations / "sm_90.toml").expectations] == [
        ("warp/Types/MatchAllSync.ReturnsMask/*",)
    ]
    again = conformance("triage", run, "--expectations", expectations)
    assert again.returncode == 0
    assert "judged by an entry now (3), left alone" in again.stdout
    assert [e.tests for e in load_file(expectations / "sm_90.toml").expectations] == [
        ("warp/Types/MatchAllSync.ReturnsMask/*",),
        ("warp/Vote.Other",),
    ]


def test_dry_run_writes_nothing(tmp_path, expectations):
    run = run_folder(tmp_path / "r", environment(H200), MATCH)
    done = conformance("triage", run, "--expectations", expectations, "--dry-run")
    assert done.returncode == 0 and "draft = true" in done.stdout and "would draft 1 entry" in done.stdout
    assert not (expectations / "sm_90.toml").exists()


def test_a_merge_of_several_gpus_is_triaged_part_by_part(tmp_path, expectations):
    parts = [{"environment": environment(gpu("NVIDIA B200", "10.0"))}, {"environment": environment(H200)}]
    run = run_folder(
        tmp_path / "merged",
        environment({}),
        [dict(result("async/Tma.Load", "fail"), part=0), dict(result("async/Tma.Load", "pass"), part=1)],
        parts=parts,
    )
    assert conformance("triage", run, "--expectations", expectations).returncode == 0
    assert load_file(expectations / "sm_100.toml").expectations[0].tests == ("async/Tma.Load",)


# --- bad input: one line, exit 2 ----------------------------------------------------------------------------------


def test_a_folder_without_results_is_one_line_and_exit_2(tmp_path, expectations):
    done = conformance("triage", tmp_path, "--expectations", expectations)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"{tmp_path}: not a report folder: it holds no results.json\n"
    done = conformance("triage", tmp_path / "nope", "--expectations", expectations)
    assert (done.returncode, done.stderr) == (2, f"{tmp_path / 'nope'}: no such file or folder\n")


def test_a_malformed_expectation_file_is_one_line_and_exit_2(tmp_path, expectations):
    run = run_folder(tmp_path / "r", environment(H200), MATCH)
    (expectations / "sm_90.toml").write_text('# mine\n[[expect]]\ntests = ["a"\nstatus = "fail"\n')
    done = conformance("triage", run, "--expectations", expectations)
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1
    assert done.stderr.startswith(f"{expectations / 'sm_90.toml'}:4: invalid TOML"), done.stderr
    assert (expectations / "sm_90.toml").read_text() == '# mine\n[[expect]]\ntests = ["a"\nstatus = "fail"\n'
    done = conformance("triage", run, "--expectations", tmp_path / "none")
    assert (done.returncode, done.stderr) == (2, f"--expectations={tmp_path / 'none'}: no such folder\n")


def test_an_unwritable_file_is_one_line_and_exit_2(tmp_path, expectations, monkeypatch, capsys):
    run = run_folder(tmp_path / "r", environment(H200), MATCH)

    def refuse(path, text):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(draft_entries, "atomic_write", refuse)
    args = triage_args(run, expectations)
    assert triage_command.run(args) == 2
    captured = capsys.readouterr()
    assert captured.err == f"{expectations / 'sm_90.toml'}: cannot write: Permission denied\n"
    assert not (expectations / "sm_90.toml").exists()


def test_a_read_only_file_is_refused_before_anything_is_written(tmp_path, expectations, monkeypatch, capsys):
    run = run_folder(tmp_path / "r", environment(H200), MATCH)
    (expectations / "sm_90.toml").write_text("# read only\n")
    monkeypatch.setattr(draft_entries, "writable", lambda path: False)  # what a user (not root) sees on a 0444 file
    assert triage_command.run(triage_args(run, expectations)) == 2
    assert capsys.readouterr().err == f"{expectations / 'sm_90.toml'}: cannot write: permission denied\n"


def triage_args(run: Path, expectations: Path, *more: str):
    import argparse

    parser = argparse.ArgumentParser()
    triage_command.add_arguments(parser)
    return parser.parse_args([str(run), "--expectations", str(expectations), *more])


# --- the workflows, through real (fake) runs ----------------------------------------------------------------------


def test_a_new_gpu_from_the_first_run_to_a_draft_honoured_by_the_next(fake_build):
    """A GPU of a CC the suite has never seen (12.1): the first run says what judged it and what spec/ lacks, and
    shows the deviations as unexpected; triage drafts sm_121.toml; the next run has nothing unexpected and shows
    the drafts apart; --strict fails on them; review makes them findings."""
    fake_build.devices(gpu("NVIDIA GB10", "12.1", "590.10"))
    fake_build.area("warp", "Types/Match.FailA/Int", "Types/Match.FailA/Float", "Shfl.Pass1", "Residency.Undocumented1")
    first = fake_build.run()
    assert first.code == 1
    assert (
        "compute capability 12.1 has no expectation file of its own: judged by common.toml (no sm_121.toml, no "
        "sm_12x.toml)" in first.stdout
    )
    assert (
        "spec/cc_values.toml has no column for 12.1 or its family, and documents no value for 12.1 of" in first.stdout
        and "max_resident_blocks_per_sm" in first.stdout
    )
    assert (
        "so 1 test(s) skip for want of a documented value: warp/Residency.Undocumented1 "
        "(max_resident_blocks_per_sm)" in first.stdout
    )
    coverage = first.results["unknown_cc"]
    assert coverage["absent"] == ["sm_121.toml", "sm_12x.toml"] and coverage["spec_column"] is None
    assert coverage["skipped"] == [{"id": "warp/Residency.Undocumented1", "key": "max_resident_blocks_per_sm"}]
    assert "is new to the suite and to spec/" in (first.folder / "summary.md").read_text()
    assert 'id="new-cc"' in (first.folder / "report.html").read_text()

    done = conformance("triage", first.folder, "--expectations", fake_build.expectations)
    assert done.returncode == 0, done.stderr
    path = fake_build.expectations / "sm_121.toml"
    [entry] = load_file(path).expectations
    assert entry.tests == ("warp/Types/Match.FailA/*",) and entry.draft

    first.folder.rename(fake_build.reports / "first")
    second = fake_build.run()
    assert second.code == 0, second.stdout
    assert "accepted without review: 2 tests, by 1 draft entry" in second.stdout
    assert "sm_121.toml:12: warp/Types/Match.FailA/*  (2 xfail)" in second.stdout
    results = second.results
    tests = second.tests
    assert tests["warp/Types/Match.FailA/Int"]["expected"]["draft"] is True
    assert "draft" not in (tests["warp/Shfl.Pass1"]["expected"] or {})
    summary = (second.folder / "summary.md").read_text()
    assert "#### Accepted without review: 2 tests, 1 draft entries" in summary
    assert "Known findings" not in summary  # a draft is not a finding until someone writes why
    page = (second.folder / "report.html").read_text()
    assert 'id="drafts"' in page and "2 accepted without review" in page and 'id="findings"' not in page
    junit = (second.folder / "junit.xml").read_text()
    assert junit.count('<property name="expected_draft" value="true" />') == 2
    assert "accepted without review (a draft entry)" in junit
    assert results["environment"]["strict"] is False

    second.folder.rename(fake_build.reports / "second")
    strict = fake_build.run("--strict")
    assert strict.code == 1
    assert "strict: 2 tests were judged by draft entries, so the run fails (--strict)" in strict.stdout

    # Review: the reason written, `draft = true` deleted; the entry is a finding now and --strict passes.
    text = path.read_text().replace("draft = true", 'reason = "5.4.6.3 says one thing; the GPU does another"')
    path.write_text(text)
    strict.folder.rename(fake_build.reports / "strict")
    reviewed = fake_build.run("--strict")
    assert reviewed.code == 0, reviewed.stdout
    assert "accepted without review" not in reviewed.stdout
    assert "Known findings" in (reviewed.folder / "summary.md").read_text()


def test_a_driver_regression_from_diff_to_an_entry(fake_build):
    """The README's workflow: a baseline on driver A, a run on driver B, diff names the regressions, triage turns
    the accepted one into an entry, and the run on driver B has nothing unexpected but what was not accepted."""
    fake_build.devices(gpu("NVIDIA H200", "9.0", "580.95.05"))
    fake_build.expect("sm_90", "# Expectations for CC 9.0.\n\n# --- warp ---\n")
    fake_build.area("warp", "Vote.Pass1", "Vote.Regress2", "Shfl.Regress3")
    baseline = fake_build.run()
    assert baseline.code == 0
    baseline.folder.rename(fake_build.reports / "driver-a")

    fake_build.devices(gpu("NVIDIA H200", "9.0", "590.10"))
    driver_b = fake_build.run()
    assert driver_b.code == 1
    diff = conformance("diff", fake_build.reports / "driver-a", driver_b.folder)
    assert diff.returncode == 1
    assert "regressions: pass in A, failing in B (2):" in diff.stdout

    done = conformance("triage", driver_b.folder, "--expectations", fake_build.expectations, "--rule", "warp/Vote.*")
    assert done.returncode == 0, done.stderr
    text = (fake_build.expectations / "sm_90.toml").read_text()
    assert text.startswith("# Expectations for CC 9.0.\n\n# --- warp ---\n\n# Draft by scripts/conformance triage")
    [entry] = load_file(fake_build.expectations / "sm_90.toml").expectations
    assert entry.tests == ("warp/Vote.Regress2",) and "driver 590.10" in entry.evidence
    assert "Actual: false (driver 590.10)" in entry.evidence

    driver_b.folder.rename(fake_build.reports / "driver-b")
    again = fake_build.run()
    assert again.code == 1  # Shfl.Regress3 was not accepted: still unexpected
    assert again.verdicts() == {"warp/Vote.Pass1": "pass", "warp/Vote.Regress2": "xfail", "warp/Shfl.Regress3": "fail"}


@pytest.mark.parametrize(
    "text, version",
    [
        (
            "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Thu Oct  2 2025\nGCC version: 12\n",
            "580.159.04",
        ),
        ("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  570.86.15  Release Build\n", "570.86.15"),
        ("something else\n", None),
    ],
)
def test_the_driver_version_comes_from_the_kernel_module(tmp_path, text, version):
    """The evidence of a draft names the driver ('driver 580.159.04'): the CUDA API gives only its CUDA version, so
    the device probe reads the version the NVIDIA kernel module states in /proc (the round trip of 2026-11-29 wrote
    'driver ? (CUDA 13.0)')."""
    from cuconform.environment import driver_version

    (tmp_path / "version").write_text(text)
    assert driver_version(tmp_path / "version") == version
    assert driver_version(tmp_path / "absent") is None
