"""A malformed expectation file stops a run with one line, 'file:line: what is wrong', exit code 2, and no report."""

import pytest

from conftest import REPO

GOOD = """[[expect]]
tests = ["alpha/Fake.Pass1"]
status = "fail"
reason = "r"
evidence = "e"
"""


@pytest.mark.parametrize(
    "name, text, line, says",
    [
        ("sm_90", '[[expect]]\ntests = ["a"\nstatus = "fail"\n', 3, "invalid TOML"),
        (
            "common",
            GOOD + '\n[[expect]]\ntests = ["x"]\nstatus = "xfail"\nreason = "r"\nevidence = "e"\n',
            7,
            "'status' must be one of fail, crash, timeout, flake, skip, not 'xfail'",
        ),
        (
            "common",
            '\n\n[[expect]]\ntests = ["x"]\nstatus = "fail"\nevidence = "e"\n',
            3,
            "every entry needs a non-empty 'reason'",
        ),
        (
            "common",
            '[[expect]]\ntests = []\nstatus = "fail"\nreason = "r"\nevidence = "e"\n',
            1,
            "'tests' must be a non-empty list",
        ),
        ("sm_80", GOOD.replace('evidence = "e"', 'evidence = "e"\nwhen = "always"'), 1, "unknown key 'when'"),
        (
            "common",
            GOOD.replace('evidence = "e"', 'evidence = "e"\ncompiler_versions = ">=22"'),
            1,
            "'compiler_versions' needs 'compiler'",
        ),
        (
            "sm_80",
            GOOD + '\n[values.max_threads_per_block]\nvalue = 1024\nsource = "s"\n',
            7,
            "documented values live in spec/cc_values.toml, not in expectations/",
        ),
        ("common", "[expected]\nx = 1\n", 1, "unknown top-level key 'expected'"),
        (
            "common",
            GOOD.replace('evidence = "e"', 'evidence = "e"\nsanitizer = ["leakcheck"]'),
            1,
            "'sanitizer' must name tools among memcheck, racecheck, synccheck, initcheck",
        ),
        (
            "common",
            GOOD.replace('evidence = "e"', 'evidence = "e"\nprofile = "nightly"'),
            1,
            "'profile' must be one of quick, full, not 'nightly'",
        ),
        (
            "common",
            GOOD.replace('evidence = "e"', 'evidence = "e"\ntoolkit_versions = "13.0"'),
            1,
            "'toolkit_versions' must look like '>=13.0,<13.1', not '13.0'",
        ),
    ],
)
def test_a_malformed_file_is_one_line_and_exit_2(fake_build, name, text, line, says):
    fake_build.area("alpha", "Fake.Pass1")
    path = fake_build.expect(name, text)
    run = fake_build.run()
    assert run.code == 2
    assert run.stdout == ""
    assert len(run.stderr.splitlines()) == 1, run.stderr
    assert run.stderr.startswith(f"{path}:{line}: ") and says in run.stderr, run.stderr
    assert not fake_build.reports.exists()


def test_the_plugin_alone_reports_a_malformed_file_as_a_usage_error(fake_build, pytester, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(REPO / "harness"))
    fake_build.area("alpha", "Fake.Pass1")
    path = fake_build.expect("common", "[[expect]]\nstatus = 3\n")
    result = pytester.runpytest_subprocess(
        "-p",
        "cuconform.plugin",
        "--cuconform-expectations",
        str(fake_build.expectations),
        str(fake_build.bin / "cuconform-alpha"),
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert f"ERROR: {path}:1: 'tests' must be a non-empty list of test id patterns" in result.stderr.str()
