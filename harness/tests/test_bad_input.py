"""Bad input to scripts/conformance: every bad option, empty selection or missing prerequisite is one line naming the
value and what is allowed, exit code 2, and nothing is built (issue 14)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import CONFORMANCE, REPO


@pytest.fixture
def no_build_tools(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """cmake and nvidia-smi stand-ins on PATH: cmake leaves a mark when anything calls it, nvidia-smi finds no GPU.
    Returns the mark's path."""
    tools = tmp_path / "tools"
    tools.mkdir()
    mark = tmp_path / "cmake-ran"
    (tools / "cmake").write_text(f'#!/bin/sh\necho "$@" >> {mark}\nexit 1\n')
    (tools / "nvidia-smi").write_text("#!/bin/sh\necho 'No devices were found'\nexit 6\n")
    for tool in tools.iterdir():
        tool.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tools}{os.pathsep}{os.environ['PATH']}")
    return mark


def conformance(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(CONFORMANCE), *args], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(
    "args, line",
    [
        (["--timeout", "-1"], "--timeout=-1: must be a number of seconds greater than 0"),
        (["--timeout", "soon"], "--timeout=soon: must be a number of seconds greater than 0"),
        (["--timeout", "nan"], "--timeout=nan: must be a number of seconds greater than 0"),
        (["--jobs", "-2"], "--jobs=-2: must be a whole number, 0 or more"),
        (["--host-jobs", "1.5"], "--host-jobs=1.5: must be a whole number, 0 or more"),
        (["--batch-size", "0"], "--batch-size=0: must be a whole number greater than 0"),
        (["--progress-every", "-1"], "--progress-every=-1: must be a number of seconds, 0 or more"),
        (["--profile", "nightly"], "--profile=nightly: must be one of quick, full"),
        (
            ["--sanitizer", "leakcheck"],
            "--sanitizer=leakcheck: must be one of memcheck, racecheck, synccheck, initcheck",
        ),
        (["--shard", "3/2"], "--shard=3/2: must be K/N with 1 <= K <= N, e.g. 2/4"),
        (["--rule", ""], "--rule=: must be an fnmatch pattern"),
        (["--build-jobs", "0"], "--build-jobs=0: must be a whole number greater than 0"),
        (["--area", "nosucharea"], "--area=nosucharea: no such area (areas: alpha, "),
        (["--expectations", "/nonexistent"], "--expectations=/nonexistent: no such folder"),
    ],
)
def test_a_bad_option_is_one_line_naming_it_and_nothing_is_built(fake_build, no_build_tools, args, line):
    fake_build.area("alpha", "Fake.Pass1")
    (fake_build.dir / "CMakeCache.txt").write_text("# a configured build: a run would build it\n")
    done = conformance("run", "--build-dir", str(fake_build.dir), *args)
    assert (done.returncode, len(done.stderr.splitlines()), done.stdout) == (2, 1, ""), done.stderr
    assert done.stderr.startswith(line)
    assert not no_build_tools.exists(), "cmake ran before the bad option was reported"


def test_options_are_checked_before_the_preset_is_built(no_build_tools):
    """--preset gpu on a machine without a GPU: the bad timeout is named, not CMake's errors."""
    done = conformance("run", "--preset", "gpu", "--timeout", "-1")
    assert (done.returncode, done.stderr.splitlines()) == (
        2,
        ["--timeout=-1: must be a number of seconds greater than 0"],
    )
    done = conformance("run", "--preset", "nosuchpreset")
    assert (done.returncode, done.stderr.splitlines()) == (
        2,
        ["--preset=nosuchpreset: must be one of gpu, ci, ci-check, clang, clang-check, sm80-ptx"],
    )
    assert not no_build_tools.exists()


@pytest.mark.skipif((REPO / "build" / "gpu" / "CMakeCache.txt").exists(), reason="build/gpu is configured here")
def test_the_gpu_preset_without_a_gpu_is_named_before_cmake_runs(no_build_tools):
    done = conformance("run", "--preset", "gpu")
    assert done.returncode == 2 and done.stderr.splitlines() == [
        "--preset=gpu: builds for this machine's GPU, and nvidia-smi -L finds none: use --preset ci or clang here "
        "(or --build-dir with a build made on a GPU machine)"
    ]
    assert not no_build_tools.exists()


def test_a_missing_build_folder_is_named(tmp_path, no_build_tools):
    done = conformance("run", "--build-dir", str(tmp_path / "nope"))
    assert (done.returncode, done.stderr.splitlines()) == (2, [f"--build-dir={tmp_path / 'nope'}: no such folder"])


def test_the_list_command_checks_its_options_too(fake_build, no_build_tools):
    fake_build.area("alpha", "Fake.Pass1")
    done = fake_build.list("--area", "beta")
    assert (done.returncode, done.stderr.splitlines()) == (2, ["--area=beta: no such area (areas: alpha)"])


def test_a_listing_that_nothing_matches_names_its_filters(fake_build):
    fake_build.area("alpha", "Fake.Pass1", "Fake.Pass2")
    done = fake_build.list("--rule", "zzz*", "-k", "Pass")
    assert (done.returncode, done.stderr.splitlines(), done.stdout) == (
        2,
        ["nothing matched the filters given: --rule=zzz*, -k Pass select no test among the 2 tests collected"],
        "",
    )


def test_resume_of_a_folder_that_is_not_there_says_so(tmp_path):
    done = conformance("run", "--resume", str(tmp_path / "nonexistent"))
    assert (done.returncode, done.stderr.splitlines()) == (
        2,
        [
            f"--resume={tmp_path / 'nonexistent'}: no such folder (give the report folder of the interrupted run, "
            "reports/<run>)"
        ],
    )


def test_diff_names_the_argument_that_is_not_a_run(tmp_path):
    (tmp_path / "a").mkdir()
    done = conformance("diff", str(tmp_path / "a"), str(tmp_path / "nonexistent"))
    assert (done.returncode, done.stderr.splitlines()) == (
        2,
        [f"{tmp_path / 'a'}: not a report folder: it holds no results.json"],
    )
    done = conformance("diff", str(tmp_path / "nonexistent"), str(tmp_path / "a"))
    assert (done.returncode, done.stderr.splitlines()) == (2, [f"{tmp_path / 'nonexistent'}: no such file or folder"])


def test_pytest_stopping_early_is_said_in_the_summary(fake_build):
    fake_build.area("alpha", "Fake.Fail1", "Fake.Pass1", "Fake.Pass2", "Fake.Fail2")
    run = fake_build.run("--", "-x")
    assert run.code == 1
    stopped = [line for line in run.stdout.splitlines() if line.startswith("stopped early")]
    assert stopped and "stopping after 1 failures" in stopped[0] and "of the 4 selected tests" in stopped[0]
    assert run.results["complete"] is False
