"""scripts/conformance diff A B: two results.json files compared test by test."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cuconform.cli.conformance import main as conformance
from cuconform.diff import classify, compare, exit_code, load_run, report_lines, RunResult

REPO = Path(__file__).resolve().parents[2]
CONFORMANCE = REPO / "scripts" / "conformance"


def results(path: Path, compiler: str, tests: dict[str, tuple], complete: bool = True) -> Path:
    """A results.json whose tests map id -> (status, verdict[, message])."""
    document = {
        "format": 1,
        "complete": complete,
        "environment": {
            "started": "2026-11-22T05:12:09+00:00",
            "build": {"compiler": compiler, "compiler_version": {"nvcc": "13.0.88", "clang": "22.1.8"}[compiler]},
            "devices": {"driver_cuda_version": "13.0", "devices": [{"name": "NVIDIA H100 80GB HBM3", "cc": "9.0"}]},
        },
        "tests": [
            {
                "id": test_id,
                "rule": test_id.split("/")[0] + "/" + test_id.split("/")[1].split("/")[-1],
                "section": "5.4.4.1",
                "status": values[0],
                "verdict": values[1],
                "message": values[2] if len(values) > 2 else "",
            }
            for test_id, values in tests.items()
        ],
    }
    path.mkdir(parents=True, exist_ok=True)
    (path / "results.json").write_text(json.dumps(document))
    return path


def result(status, verdict=None, message=""):
    return RunResult("a/T.x", "a/T.x", "5.4", status, verdict or status, message)


@pytest.mark.parametrize(
    "a, b, group",
    [
        ("pass", "pass", None),
        ("pass", "fail", "regression"),
        ("pass", "crash", "regression"),
        ("pass", "timeout", "regression"),
        ("pass", None, "regression"),  # missing in B
        ("fail", "pass", "fix"),
        ("crash", "pass", "fix"),
        ("pass", "skip", "status"),
        ("skip", "fail", "status"),
        ("fail", "crash", "status"),
    ],
)
def test_each_change_has_one_group(a, b, group):
    assert classify(result(a), result(b)) == group


@pytest.mark.parametrize("a, b", [("pass", "skip"), ("skip", "pass")])
def test_a_skip_for_want_of_evidence_beside_a_pass_is_inconclusive_not_a_difference(tmp_path, a, b):
    why = "inconclusive: sibling SBRelaxed saw 0 weak outcomes (r0:0,r1:0) in 32768 instances"
    assert (
        classify(result(a, message=why if a == "skip" else ""), result(b, message=why if b == "skip" else ""))
        == "inconclusive"
    )
    assert classify(result("pass"), result("skip", message="needs 2 GPUs; 1 visible")) == "status"
    run_a = load_run(results(tmp_path / "a", "nvcc", {"litmus/L/T.x": (a, a, why if a == "skip" else "")}))
    run_b = load_run(results(tmp_path / "b", "nvcc", {"litmus/L/T.x": (b, b, why if b == "skip" else "")}))
    diff = compare(run_a, run_b)
    assert exit_code(diff, "changes") == 0
    assert "1 inconclusive" in report_lines(diff)[-1]


def test_same_status_with_another_verdict_is_a_verdict_change():
    assert classify(result("fail", "xfail"), result("fail", "fail")) == "verdict"
    assert classify(result("fail", "xfail"), result("fail", "xfail")) is None


def test_tests_of_one_run_only():
    assert classify(None, result("pass")) == "only_b"
    assert classify(result("pass"), None) == "only_a"


@pytest.fixture
def two_runs(tmp_path):
    a = results(
        tmp_path / "nvcc",
        "nvcc",
        {
            "sync/S.Same": ("pass", "pass"),
            "sync/S.Regressed": ("pass", "pass"),
            "sync/S.Fixed": ("fail", "fail", "expected 3, got 4"),
            "sync/S.NowSkipped": ("pass", "pass"),
            "sync/S.NowExpected": ("fail", "fail"),
            "sync/S.Gone": ("pass", "pass"),
        },
    )
    b = results(
        tmp_path / "clang",
        "clang",
        {
            "sync/S.Same": ("pass", "pass"),
            "sync/S.Regressed": ("fail", "fail", "line one\nline two\nline three\nline four"),
            "sync/S.Fixed": ("pass", "pass"),
            "sync/S.NowSkipped": ("skip", "skip", "compiled out: clang has no __nv_atomic_* builtins"),
            "sync/S.NowExpected": ("fail", "xfail"),
            "sync/S.New": ("skip", "skip"),
        },
    )
    return a, b


def test_compare_groups_every_difference(two_runs):
    diff = compare(load_run(two_runs[0]), load_run(two_runs[1]))
    assert {c.id: c.group for c in diff.changes} == {
        "sync/S.Regressed": "regression",
        "sync/S.Fixed": "fix",
        "sync/S.NowSkipped": "status",
        "sync/S.NowExpected": "verdict",
        "sync/S.Gone": "only_a",
        "sync/S.New": "only_b",
    }
    assert diff.common == 5
    assert exit_code(diff, "regressions") == 1
    assert exit_code(diff, "never") == 0


def test_report_names_both_runs_and_says_why_b_differs(two_runs):
    lines = report_lines(compare(load_run(two_runs[0]), load_run(two_runs[1])))
    text = "\n".join(lines)
    assert "nvcc 13.0.88; NVIDIA H100 80GB HBM3 (CC 9.0), driver for CUDA 13.0" in text
    assert "regressions: pass in A, failing in B (1):" in text
    assert "pass -> fail" in text and "B: line one" in text and "line four" not in text  # three lines, then ...
    assert "fixes: failing in A, pass in B (1):" in text and "A: expected 3, got 4" in text
    assert "B: compiled out: clang has no __nv_atomic_* builtins" in text
    assert "fail: fail -> xfail" in text
    assert "only in A (1 tests of 1 rules):" in text
    assert lines[-1] == (
        "summary: 1 regressions, 1 fixes, 1 status changes, 0 inconclusive, 1 verdict changes, 1 only in A, 1 only in B"
    )


def test_rule_patterns_choose_the_tests(two_runs):
    diff = compare(load_run(two_runs[0]), load_run(two_runs[1]), ["sync/S.Fixed", "*Gone"])
    assert [c.id for c in diff.changes] == ["sync/S.Fixed", "sync/S.Gone"]
    assert exit_code(diff, "regressions") == 0
    assert exit_code(diff, "changes") == 1


def test_identical_runs_exit_0(tmp_path):
    tests = {"sync/S.A": ("pass", "pass"), "sync/S.B": ("skip", "skip")}
    a, b = results(tmp_path / "a", "nvcc", tests), results(tmp_path / "b", "nvcc", tests)
    assert conformance(["diff", str(a), str(b), "--fail-on", "changes"]) == 0


def test_an_incomplete_run_is_flagged(tmp_path, capsys):
    a = results(tmp_path / "a", "nvcc", {"sync/S.A": ("pass", "pass")})
    b = results(tmp_path / "b", "nvcc", {}, complete=False)
    assert conformance(["diff", str(a), str(b / "results.json")]) == 0  # a test missing from B's list is "only in A"
    assert "run B is incomplete" in capsys.readouterr().out


def test_a_binary_that_could_not_start_is_named_in_the_header(tmp_path, capsys):
    # B ran where libnvrtc.so.12 is missing: its nvrtc tests are "only in A" because they did not run, and the
    # header says so before any list does.
    tests = {"nvrtc/N.Compiles": ("pass", "pass"), "sync/S.A": ("pass", "pass")}
    a = results(tmp_path / "a", "nvcc", tests)
    b = results(tmp_path / "b", "nvcc", {"sync/S.A": ("pass", "pass")})
    document = json.loads((b / "results.json").read_text())
    line = "cuconform-nvrtc cannot start here, its tests were not run: libnvrtc.so.12: cannot open shared object file"
    document["unstartable"] = [line]
    (b / "results.json").write_text(json.dumps(document))
    assert conformance(["diff", str(a), str(b)]) == 0
    out = capsys.readouterr().out.splitlines()
    header = out[: out.index("only in A (1 tests of 1 rules):")]
    said = [text for text in header if "cuconform-nvrtc" in text]
    assert said == [f"warning: run B: {line} (missing from B for that reason, not removed)"]
    assert conformance(["diff", str(a), str(b), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["unstartable"] == {"a": [], "b": [line]}


def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys):
    (tmp_path / "bad.json").write_text("{not json")
    (tmp_path / "other.json").write_text(json.dumps({"tests": "nope"}))
    assert conformance(["diff", str(tmp_path / "missing"), str(tmp_path / "bad.json")]) == 2
    assert capsys.readouterr().err == f"{tmp_path / 'missing'}: no such file or folder\n"
    assert conformance(["diff", str(tmp_path), str(tmp_path / "missing")]) == 2  # a folder, but no report folder
    assert capsys.readouterr().err == f"{tmp_path}: not a report folder: it holds no results.json\n"
    assert conformance(["diff", str(tmp_path / "bad.json"), str(tmp_path / "bad.json")]) == 2
    assert "not JSON" in capsys.readouterr().err
    assert conformance(["diff", str(tmp_path / "other.json"), str(tmp_path / "other.json")]) == 2
    assert "not a cuconform results.json" in capsys.readouterr().err


def test_json_output_lists_the_changes(two_runs, capsys):
    assert conformance(["diff", str(two_runs[0]), str(two_runs[1]), "--json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert document["counts"]["regression"] == 1
    assert {c["id"] for c in document["changes"] if c["group"] == "fix"} == {"sync/S.Fixed"}
    assert document["tests"] == {"a": 6, "b": 6, "both": 5}


def test_scripts_conformance_diff(two_runs):
    done = subprocess.run(
        [sys.executable, str(CONFORMANCE), "diff", str(two_runs[0]), str(two_runs[1])],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1, done.stderr
    assert "regressions: pass in A, failing in B (1):" in done.stdout


def test_compare_is_the_older_name_of_diff_and_fails_on_any_change(fake_build):
    fake_build.area("alpha", "Fake.Pass1", "Fake.Fail1", "Fake.Skip1")
    first = fake_build.run()
    (fake_build.bin / "cuconform-alpha.tests").write_text("Fake.Pass1\nFake.Pass2\nFake.Skip1\n")
    first.folder.rename(fake_build.reports / "first")
    second = fake_build.run()

    def compare(*args):
        return subprocess.run(
            [sys.executable, str(CONFORMANCE), "compare", *map(str, args)], capture_output=True, text=True, timeout=60
        )

    done = compare(fake_build.reports / "first", second.folder / "results.json")
    assert done.returncode == 1, done.stderr  # no regression, but changes: compare fails on any
    assert "only in A (1 tests of 1 rules):" in done.stdout and "alpha/Fake.Fail1" in done.stdout
    assert "only in B (1 tests of 1 rules):" in done.stdout and "alpha/Fake.Pass2" in done.stdout
    assert done.stdout.splitlines()[-1].endswith("1 only in A, 1 only in B")
    assert compare(second.folder, second.folder).returncode == 0
    bad = compare(fake_build.reports / "nope", second.folder)
    assert bad.returncode == 2 and bad.stderr.strip().splitlines() == [
        f"{fake_build.reports / 'nope'}: no such file or folder"
    ]


def test_a_merge_of_several_gpus_is_not_diffed(tmp_path, capsys):
    a = results(tmp_path / "a", "nvcc", {"sync/S.A": ("pass", "pass")})
    document = json.loads((a / "results.json").read_text())
    document["tests"] *= 2
    (a / "results.json").write_text(json.dumps(document))
    assert conformance(["diff", str(a), str(a)]) == 2
    assert "is there twice" in capsys.readouterr().err


def test_a_diff_between_toolkits_says_so_in_its_header(tmp_path, capsys):
    tests = {"sync/S.A": ("pass", "pass")}
    a, b = results(tmp_path / "a", "nvcc", tests), results(tmp_path / "b", "nvcc", tests)
    for path, version, arch in ((a, "13.0.88", "90"), (b, "13.5.37", "90a-real")):
        document = json.loads((path / "results.json").read_text())
        document["environment"]["build"].update(compiler_version=version, cuda_toolkit=version, architectures=arch)
        (path / "results.json").write_text(json.dumps(document))
    assert conformance(["diff", str(a), str(b)]) == 0
    out = capsys.readouterr().out
    assert "nvcc 13.5.37 (CUDA toolkit 13.5.37, for sm_90a)" in out
    assert "builds differ in CUDA toolkit: A 13.0.88, B 13.5.37" in out
    assert "builds differ in compiler version: A 13.0.88, B 13.5.37" in out
    assert "builds differ in targets: A sm_90, B sm_90a" in out and "builds differ in compiler:" not in out
    assert conformance(["diff", str(a), str(a)]) == 0
    assert "builds: the same compiler, toolkit and targets" in capsys.readouterr().out


def test_targets_that_give_the_same_code_are_not_a_build_difference(tmp_path):
    def run(name: str, architectures: str):
        path = results(tmp_path / name, "nvcc", {"sync/S.x": ("pass", "pass")})
        document = json.loads((path / "results.json").read_text())
        document["environment"]["build"]["architectures"] = architectures
        (path / "results.json").write_text(json.dumps(document))
        return load_run(path)

    assert not any("differ in targets" in line for line in report_lines(compare(run("a", "90-real"), run("b", "90"))))
    assert "builds differ in targets: A sm_90, B sm_100" in report_lines(compare(run("c", "90"), run("d", "100")))
