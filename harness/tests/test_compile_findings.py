"""scripts/compile-findings: FINDINGS.md lists every compile-time finding of expectations/common.toml."""

import shutil
import subprocess
import sys

from conftest import REPO

COMPILE_FINDINGS = REPO / "scripts" / "compile-findings"


def compile_findings(*args):
    return subprocess.run([sys.executable, str(COMPILE_FINDINGS), *map(str, args)], capture_output=True, text=True)


def test_findings_md_lists_every_compile_time_finding_as_the_expectations_record_it():
    done = compile_findings("--check")
    assert done.returncode == 0, done.stderr


def test_an_entry_added_without_its_finding_is_caught_and_write_brings_it_in(tmp_path):
    expectations, findings = tmp_path / "common.toml", tmp_path / "FINDINGS.md"
    shutil.copy(REPO / "FINDINGS.md", findings)
    expectations.write_text(
        (REPO / "expectations" / "common.toml").read_text()
        + """
[[expect]]
tests = ["compile/ExecutionSpace.GlobalMustReturnVoid*"]
status = "fail"
compiler = "clang"
compiler_versions = ">=99"
reason = "5.4.1.1: a __global__ function must return void; clang 99 accepts int kernel()"
evidence = "clang 99.0.0, 2099-01-01"
"""
    )
    done = compile_findings("--check", "--expectations", expectations, "--findings", findings)
    assert done.returncode == 1 and "run scripts/compile-findings --write" in done.stderr
    assert compile_findings("--write", "--expectations", expectations, "--findings", findings).returncode == 0
    text = findings.read_text()
    assert "### `ExecutionSpace.GlobalMustReturnVoid` — clang" in text
    assert "a `__global__` function must return void; clang 99 accepts int kernel()" in text
    assert "clang 99.0.0, 2099-01-01. Expectation `expectations/common.toml:" in text
    assert "**Reproducer** `suites/compile/execution_space/global_returns_int.fail.cu`: must be rejected" in text
    assert text.count("<!-- end of compile-time findings -->") == 1
    assert compile_findings("--check", "--expectations", expectations, "--findings", findings).returncode == 0


def test_bad_input_is_one_line_and_exit_2(tmp_path):
    broken = tmp_path / "common.toml"
    broken.write_text("[[expect]]\ntests = [\n")
    done = compile_findings("--expectations", broken)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"compile-findings: {broken}:") and len(done.stderr.strip().splitlines()) == 1
    no_markers = tmp_path / "FINDINGS.md"
    no_markers.write_text("# Findings\n")
    done = compile_findings("--check", "--findings", no_markers)
    assert done.returncode == 2 and "markers of the compile-time findings are missing" in done.stderr
