"""A new user's machine: scripts/setup and what each missing piece says (one line, exit 2, the command that installs
it), a machine without an NVIDIA driver, a run without the math reference, and the compile-time sample of
scripts/test."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from cuconform import build, environment, overview
from cuconform_compile.cases import COMPILERS, OUTCOMES, load_cases, sample
from conftest import CONFORMANCE, REPO, real_builds

SETUP = REPO / "scripts" / "setup"
LLVM_BIN = Path("/usr/lib/llvm-22/bin")
LLVM_TOOLS = ("llvm-offload-binary", "clang-linker-wrapper", "clang-nvlink-wrapper")


@pytest.fixture
def bare_path(tmp_path: Path) -> str:
    """A PATH with bash and dirname only: no cmake, ninja, compiler, ccache, clang or chromium."""
    bin_dir = tmp_path / "bare-bin"
    bin_dir.mkdir()
    for tool in ("bash", "dirname"):
        (bin_dir / tool).symlink_to(shutil.which(tool))
    return str(bin_dir)


def one_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1, text
    return lines[0]


def test_setup_check_names_what_is_missing_and_the_command(bare_path):
    done = subprocess.run(
        [str(SETUP), "--check", "build", "clang"], capture_output=True, text=True, env={**os.environ, "PATH": bare_path}
    )
    assert done.returncode == 2
    line = one_line(done.stderr + done.stdout)
    assert line.startswith("missing: cmake, ninja-build, g++") and "clang-22" in line
    assert line.endswith("scripts/setup build clang installs it (apt as root or through sudo)")


def test_setup_refuses_an_unknown_group():
    done = subprocess.run([str(SETUP), "--check", "everything"], capture_output=True, text=True)
    assert done.returncode == 2 and "unknown argument 'everything'" in one_line(done.stderr)


def test_setup_check_passes_where_everything_is(tmp_path):
    if subprocess.run([str(SETUP), "--check"], capture_output=True).returncode != 0:
        pytest.skip("this machine lacks something scripts/setup installs")
    assert subprocess.run([str(SETUP), "--check", "python"], capture_output=True, text=True).stderr == ""


def test_conformance_without_pytest_says_which_command_installs_it(tmp_path):
    """Run by an interpreter that has no pytest (-S: no site-packages) from a checkout without .venv/."""
    scripts = tmp_path / "checkout" / "scripts"
    scripts.mkdir(parents=True)
    shutil.copy(CONFORMANCE, scripts / "conformance")
    done = subprocess.run([sys.executable, "-S", str(scripts / "conformance"), "run"], capture_output=True, text=True)
    assert done.returncode == 2
    assert (
        one_line(done.stderr + done.stdout)
        == "scripts/conformance: pytest is missing: scripts/setup python installs it (into .venv/)"
    )


def test_a_run_that_must_build_without_cmake_runs_setup_saying_so(tmp_path, bare_path):
    """The run sets up what the build needs (one line says so); here setup cannot (no apt-get on this PATH), and its
    one line, naming what is missing, ends the run with exit 2."""
    build_dir = tmp_path / "build" / "clang"
    build_dir.mkdir(parents=True)
    (build_dir / "CMakeCache.txt").write_text("CUCONFORM_CUDA_COMPILER:STRING=clang\n")  # configured, not built
    done = subprocess.run(
        [sys.executable, str(CONFORMANCE), "run", "--build-dir", str(build_dir)],
        capture_output=True,
        text=True,
        env={**os.environ, "PATH": bare_path},
    )
    assert done.returncode == 2
    lines = [line for line in (done.stderr + done.stdout).splitlines() if line.strip()]
    assert lines[0] == "cuconform: the build needs what is missing here: running scripts/setup build clang"
    assert len(lines) == 2 and lines[1].startswith("scripts/setup: ") and "cmake" in lines[1], lines


def test_no_driver_is_not_an_insufficient_driver():
    no_driver = {
        "devices": {
            "runtime_version": "13.0",
            "driver_cuda_version": None,
            "devices": [],
            "error": "no NVIDIA driver: libcuda.so.1 is not installed",
        }
    }
    assert overview.driver_text(no_driver) == "none (no NVIDIA driver)"
    assert overview.gpu_text(no_driver) == "no CUDA device (no NVIDIA driver: libcuda.so.1 is not installed)"
    unknown = {
        "devices": {
            "runtime_version": "13.0",
            "driver_cuda_version": None,
            "devices": [],
            "error": "cudaErrorNoDevice: no CUDA-capable device is detected",
        }
    }
    assert overview.driver_text(unknown) == "-"  # never "runtime 13.0" under a driver that did not answer
    present = {"devices": {"runtime_version": "13.0", "driver_cuda_version": "13.0", "devices": []}}
    assert overview.driver_text(present) == "supports CUDA 13.0, runtime 13.0"


def test_the_real_deviceinfo_says_no_driver_where_libcuda_is_absent():
    built = [REPO / name / "bin" / "cuconform-deviceinfo" for name in real_builds()]
    tool = next((path for path in built if path.exists()), None)
    if tool is None:
        pytest.skip("needs a real build (scripts/test makes build/ci)")
    info = json.loads(subprocess.run([str(tool)], capture_output=True, text=True).stdout)
    if info["driver_cuda_version"] is not None:
        pytest.skip("an NVIDIA driver is installed here")
    assert info["devices"] == []
    assert info["error"] == "no NVIDIA driver: libcuda.so.1 is not installed"


@pytest.mark.skipif(
    environment.find_math_reference(Path("/nonexistent/build/x")) is not None,
    reason="a math reference is installed for this checkout or named by $CUCONFORM_MATHREF",
)
def test_a_run_without_the_math_reference_says_so_with_the_command_that_builds_it(fake_build):
    fake_build.area("math", "Fake.Pass1 host")
    run = fake_build.run()
    assert run.code == 0
    command = "scripts/setup math && scripts/build-math-reference"
    note = [line for line in run.stdout.splitlines() if line.startswith("math reference missing")]
    assert len(note) == 1 and note[0].endswith(command)
    assert "math reference missing" in (run.folder / "summary.md").read_text()
    assert command.replace("&", "&amp;") in (run.folder / "report.html").read_text()
    reference = fake_build.dir / "lib" / environment.MATH_REFERENCE
    reference.parent.mkdir()
    reference.write_bytes(b"")
    again = fake_build.run()
    assert "math reference missing" not in again.stdout + (again.folder / "summary.md").read_text()


def test_a_run_without_math_rules_says_nothing_of_the_math_reference(fake_build):
    fake_build.area("sync", "Fake.Pass1 host")
    run = fake_build.run()
    assert "math reference" not in run.stdout + (run.folder / "summary.md").read_text()


def test_the_compile_time_sample_takes_every_case_once_and_every_kind_through_every_compiler():
    cases = load_cases(REPO / "suites" / "compile")
    names = sample(cases)
    assert names == sample(list(reversed(cases)))  # deterministic, whatever the order of the files
    by_rule = Counter(name.rsplit("[", 1)[0] for name in names)
    assert set(by_rule) == {case.rule for case in cases}
    assert len(names) < 1.1 * len(cases)  # a third of the 3 x cases pairs, and a few more
    chosen = set(names)
    for kind in (*OUTCOMES, "ptx"):
        of_kind = [c for c in cases if (c.checks_ptx if kind == "ptx" else c.outcome == kind)]
        for compiler in COMPILERS:
            if any(compiler not in c.skips for c in of_kind):
                assert any(c.test_name(compiler) in chosen for c in of_kind), (kind, compiler)
    assert not [
        name
        for name in names
        if name.rsplit("[", 1)[1].rstrip("]") in next(c for c in cases if c.rule == name.rsplit("[", 1)[0]).skips
    ]


def test_build_prerequisites_are_checked_as_setup_checks_them(monkeypatch, bare_path):
    monkeypatch.setenv("PATH", bare_path)
    with pytest.raises(build.BuildError, match=r"^scripts/setup: .*cmake ninja-build g\+\+ .*clang-22"):
        build.check_prerequisites(clang=True)


@pytest.mark.parametrize("script", ["scripts/test", ".ci/run"])
def test_setup_runs_before_anything_is_built_and_pytest_runs_from_the_venv(script):
    """A missing pytest (or anything else) is found in seconds, not after the builds (issue 14: 21 minutes)."""
    lines = [
        line.strip()
        for line in (REPO / script).read_text().splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    setup = lines.index("scripts/setup")
    assert not any("cmake" in line for line in lines[:setup])
    if script == "scripts/test":
        assert lines[-1] == 'exec .venv/bin/python -m pytest -n "$jobs" harness/tests "$@"'
        lint = lines.index("scripts/lint")  # the style checks take a second: before the builds, after setup
        assert setup < lint and not any("cmake" in line for line in lines[:lint])
    else:  # the compilers' programs are checked before scripts/test builds anything (issue 29)
        assert lines.index("scripts/setup --check") < lines.index("exec scripts/test")


def setup_check(*groups: str, path: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(SETUP), "--check", *groups], capture_output=True, text=True, env={**os.environ, "PATH": path}, timeout=120
    )


def llvm_without(tmp_path: Path, tool: str) -> str:
    """A PATH whose clang++-22 is a copy of the real clang in an LLVM folder without `tool` (clang looks for the
    programs it runs beside itself), the others linked from the real one; copied too: the program that runs the
    next step down, which otherwise finds its own from where it really is."""
    bin_dir = tmp_path / "llvm-22" / "bin"
    bin_dir.mkdir(parents=True)
    (tmp_path / "llvm-22" / "lib").symlink_to(LLVM_BIN.parent / "lib")  # libclang-cpp, the CUDA wrapper headers
    shutil.copy(LLVM_BIN / "clang", bin_dir / "clang")
    (bin_dir / "clang++").symlink_to("clang")
    for other in LLVM_TOOLS:
        if other != tool:
            if other == "clang-linker-wrapper":
                shutil.copy(LLVM_BIN / other, bin_dir / other)
            else:
                (bin_dir / other).symlink_to(LLVM_BIN / other)
    path_dir = tmp_path / "path"
    path_dir.mkdir()
    (path_dir / "clang++-22").symlink_to(bin_dir / "clang++")
    return f"{path_dir}:{os.environ['PATH']}"


@pytest.mark.skipif(
    not all((LLVM_BIN / tool).exists() for tool in ("clang", *LLVM_TOOLS)),
    reason="needs clang++-22 with llvm-22 and clang-tools-22 (scripts/setup clang)",
)
@pytest.mark.parametrize(
    "tool, package, step",
    [
        ("llvm-offload-binary", "llvm-22", "clang++-22 -fgpu-rdc -c"),
        ("clang-linker-wrapper", "clang-tools-22", "clang++-22 --offload-link"),
        ("clang-nvlink-wrapper", "clang-tools-22", "clang++-22 --offload-link > clang-linker-wrapper > clang"),
    ],
)
def test_setup_check_names_a_program_clang_runs_that_is_missing(tmp_path, tool, package, step):
    """Issue 29: the clang build failed halfway (posix_spawn failed) where llvm-22 or clang-tools-22 was missing; the
    check asks clang itself (-###, and --dry-run of the wrappers it starts) and names the program, before building."""
    done = setup_check("clang", path=llvm_without(tmp_path, tool))
    assert done.returncode == 2
    assert (
        one_line(done.stderr + done.stdout)
        == f"missing: {tool} ({package}; run by {step}): scripts/setup clang installs it (apt as root or through sudo)"
    )


def test_setup_check_names_the_host_compiler_nvcc_runs_when_it_is_missing(tmp_path):
    """nvcc runs gcc whatever c++ is: a PATH with everything of this machine but gcc."""
    if setup_check("build", path=os.environ["PATH"]).returncode != 0:
        pytest.skip("this machine lacks something scripts/setup build installs")
    path_dir = tmp_path / "no-gcc"
    path_dir.mkdir()
    for directory in os.environ["PATH"].split(os.pathsep):
        for program in Path(directory).glob("*") if Path(directory).is_dir() else []:
            if program.name != "gcc" and not (path_dir / program.name).exists():
                (path_dir / program.name).symlink_to(program)
    done = setup_check("build", path=str(path_dir))
    assert done.returncode == 2
    assert (
        one_line(done.stderr + done.stdout)
        == "missing: gcc (gcc; run by nvcc -rdc=true -c): scripts/setup build installs it (apt as root or through sudo)"
    )


@pytest.mark.skipif(
    not all((LLVM_BIN / tool).exists() for tool in ("clang", *LLVM_TOOLS)),
    reason="needs clang++-22 with llvm-22 and clang-tools-22 (scripts/setup clang)",
)
@pytest.mark.parametrize(
    "program, says",
    [
        ("/bin/true", "runs /bin/true (package coreutils), which scripts/setup does not install"),  # there by accident
        (
            "/nonexistent/llvm-new-tool",
            "runs /nonexistent/llvm-new-tool, which is not here and whose package scripts/setup does not know",
        ),
    ],
)  # what a newer clang might run
def test_a_program_setup_does_not_know_is_named_there_or_not(tmp_path, program, says):
    """A program present only by accident (no package of setup's has it) would be missing on a fresh machine."""
    path_dir = tmp_path / "path"
    path_dir.mkdir()
    fake = path_dir / "clang++-22"  # lists, as clang -### does, one program that no group of setup's installs
    fake.write_text(f'#!/bin/sh\necho \' "{program}" "-o" "x"\' >&2\n')
    fake.chmod(0o755)
    done = setup_check("clang", path=f"{path_dir}:{os.environ['PATH']}")
    assert done.returncode == 2
    assert one_line(done.stderr + done.stdout) == (
        f"scripts/setup: clang++-22 -fgpu-rdc -c {says}: add that package "
        "to scripts/compiler-programs and to its group here"
    )


def test_the_programs_of_this_machine_are_all_known():
    """What each compiler here runs, as --list gives it: every program there and known to setup."""
    if setup_check("build", "clang", path=os.environ["PATH"]).returncode != 0:
        pytest.skip("this machine lacks something scripts/setup build clang installs")
    done = subprocess.run(
        [str(REPO / "scripts" / "compiler-programs"), "--list", "nvcc", "clang"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [line.split("\t") for line in done.stdout.splitlines()]
    assert {row[0] for row in rows} == {"ok"}
    names = {Path(row[1]).name for row in rows}
    assert {
        "cicc",
        "ptxas",
        "nvlink",
        "fatbinary",
        "llvm-offload-binary",
        "clang-linker-wrapper",
        "clang-nvlink-wrapper",
    } <= names


def fresh_checkout(tmp_path: Path, setup_body: str) -> Path:
    """A checkout with scripts/conformance and a scripts/setup that does what `setup_body` says (sh)."""
    scripts = tmp_path / "checkout" / "scripts"
    scripts.mkdir(parents=True)
    shutil.copy(CONFORMANCE, scripts / "conformance")
    (scripts / "setup").write_text("#!/bin/sh\n" + setup_body)
    (scripts / "setup").chmod(0o755)
    return scripts


def test_conformance_without_python3_runs_setup_python_first(tmp_path):
    scripts = fresh_checkout(tmp_path, 'echo "setup $*: no apt-get here" >&2\nexit 2\n')
    path_dir = tmp_path / "no-python"
    path_dir.mkdir()
    (path_dir / "dirname").symlink_to(shutil.which("dirname"))
    done = subprocess.run(
        ["/bin/sh", str(scripts / "conformance"), "run"], capture_output=True, text=True, env={"PATH": str(path_dir)}
    )
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "scripts/conformance: no python3 here: running scripts/setup python (python3, .venv/ with pytest)",
        "setup python: no apt-get here",
    ]


def test_conformance_without_pytest_makes_the_venv_and_goes_on_in_it(tmp_path):
    """Run by an interpreter that has no pytest (-S) from a checkout without .venv/: scripts/setup python makes it
    (here a fake one, whose Python says how it was started)."""
    venv_python = '"$(dirname "$0")/../.venv/bin/python"'
    scripts = fresh_checkout(
        tmp_path,
        f'mkdir -p "$(dirname "$0")/../.venv/bin"\n'
        f"printf '#!/bin/sh\\necho \"venv python $*\"\\n' >{venv_python}\n"
        f"chmod +x {venv_python}\n",
    )
    done = subprocess.run(
        [sys.executable, "-S", str(scripts / "conformance"), "run", "--area", "sync"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        "scripts/conformance: no pytest here: running scripts/setup python (.venv/ with pytest)"
    ]
    assert done.stdout == f"venv python {(scripts / 'conformance').resolve()} run --area sync\n"
