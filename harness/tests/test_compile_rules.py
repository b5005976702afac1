"""The compile-time rules: case files (cuconform_compile.cases), the compilers' command lines (compilers) and the
GoogleTest-style front that judges each (case, compiler) pair (cuconform_compile.rules). Fake compilers stand in for
nvcc, clang and nvrtc-compile, so these tests need no toolkit; one test uses the real ones when the build has them."""

from __future__ import annotations

import json
import subprocess
import textwrap
from pathlib import Path

import pytest

from cuconform_compile.cases import CaseError, find_cases, load_cases, parse_case
from cuconform_compile.compilers import Toolchain
from cuconform_compile.rules import Compiled, CompileSuite, judge, main, select
from conftest import first_built, real_builds

REPO = Path(__file__).resolve().parents[2]
CASES = REPO / "suites" / "compile"


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip())
    return path


FAIL_CASE = """\
    // rule: Kernels.MustReturnVoid
    // section: 5.4.1.1
    // statement: a __global__ function must return void,
    //   whatever it returns
    // error: error: a __global__ function must have a void return type
    // error.clang: must have void return type
    // skip.nvrtc: not for this compiler
    // flags: -DONE
    // flags.nvcc: -DTWO "-DTHREE=3 4"
    // note: first note
    __global__ int kernel() { return 0; }
"""


# --- case files --------------------------------------------------------------------------------------------------


def test_header_gives_rule_outcome_patterns_skips_and_flags(tmp_path):
    case = parse_case(write(tmp_path, "x/returns_int.fail.cu", FAIL_CASE))
    assert case.rule == "Kernels.MustReturnVoid"
    assert case.section == "5.4.1.1"
    assert case.statement == "a __global__ function must return void, whatever it returns"
    assert case.outcome == "fail"
    assert case.pattern("nvcc") == "error: a __global__ function must have a void return type"
    assert case.pattern("clang") == "must have void return type"
    assert case.pattern("nvrtc") == case.pattern("nvcc")  # NVRTC shares nvcc's front end
    assert case.skips == {"nvrtc": "not for this compiler"}
    assert case.flags["nvcc"] == ("-DONE", "-DTWO", "-DTHREE=3 4")
    assert case.flags["clang"] == ("-DONE",)
    assert case.notes == ("first note",)
    assert (case.std, case.arch) == ("c++17", "sm_90")
    assert case.test_name("clang") == "Kernels.MustReturnVoid[clang]"


def test_nvrtc_falls_back_to_the_nvcc_pattern(tmp_path):
    case = parse_case(
        write(
            tmp_path,
            "a.fail.cu",
            """\
        // rule: A.B
        // section: 5.4.1.1
        // statement: s
        // error: generic
        // error.nvcc: from nvcc
        int x;
    """,
        )
    )
    assert case.pattern("nvrtc") == "from nvcc"
    assert case.pattern("clang") == "generic"


@pytest.mark.parametrize(
    "header, problem",
    [
        ("// section: 5.4\n// statement: s\n", "needs '// rule: ...'"),
        ("// rule: A.B\n// statement: s\n", "needs '// section: ...'"),
        ("// rule: a_b\n// section: 5.4\n// statement: s\n", "must look like Suite.Name"),
        ("// rule: A.B\n// section: 5.4\n// statement: s\n// eror: x\n", "unknown key 'eror'"),
        ("// rule: A.B\n// section: 5.4\n// statement: s\n// error.gcc: x\n", "unknown compiler 'gcc'"),
        ("// rule: A.B\n// section: 5.4\n// statement: s\n// rule: C.D\n", "'rule' given twice"),
        ("// rule: A.B\n// section: 5.4\n// statement: s\n// std: c++98\n", "std 'c++98'"),
        ("// rule: A.B\n// section: 5.4\n// statement: s\n// error: (\n", "not a regular expression"),
        ("// rule: A.B\n// section: 5.4\n// statement: s\n// requires-header: ../x.h\n", "requires-header '../x.h'"),
        ("// rule: A.B\n// section: 5.4\n// statement: s\n// requires-header: <x.h>\n", "requires-header '<x.h>'"),
    ],
)
def test_bad_headers_are_reported_with_file_and_line(tmp_path, header, problem):
    text = header + ("int x;\n" if "error" in header else "// error: x\nint x;\n")
    path = write(tmp_path, "bad.fail.cu", text)
    with pytest.raises(CaseError) as caught:
        parse_case(path)
    assert problem in str(caught.value)
    assert str(caught.value).startswith(f"{path}:")


def test_a_fail_case_needs_a_pattern_for_every_compiler_it_runs_on(tmp_path):
    path = write(tmp_path, "a.fail.cu", "// rule: A.B\n// section: 5.4\n// statement: s\n// error.nvcc: x\nint x;\n")
    with pytest.raises(CaseError, match="needs '// error: <regex>'.*for clang"):
        parse_case(path)


def test_a_pass_case_takes_no_diagnostic_pattern(tmp_path):
    path = write(tmp_path, "a.pass.cu", "// rule: A.B\n// section: 5.4\n// statement: s\n// error: x\nint x;\n")
    with pytest.raises(CaseError, match="expects no diagnostic"):
        parse_case(path)


def test_ptx_checks_belong_to_pass_cases(tmp_path):
    path = write(
        tmp_path, "a.fail.cu", "// rule: A.B\n// section: 5.4\n// statement: s\n// error: x\n// ptx-match: ld\nint x;\n"
    )
    with pytest.raises(CaseError, match="PTX checks belong to .pass cases"):
        parse_case(path)


def test_outcome_comes_from_the_file_name(tmp_path):
    with pytest.raises(CaseError, match="named <name>.pass.cu"):
        parse_case(write(tmp_path, "a.cu", "// rule: A.B\n"))
    write(tmp_path, "notes.txt", "")
    write(tmp_path, "helper.cu", "")
    write(tmp_path, "d/x.warn.cu", "")
    assert [p.name for p in find_cases(tmp_path)] == ["x.warn.cu"]


def test_rule_ids_are_unique(tmp_path):
    for name in ("a.pass.cu", "b.pass.cu"):
        write(tmp_path, name, "// rule: Same.Rule\n// section: 5.4\n// statement: s\nint x;\n")
    with pytest.raises(CaseError, match="rule id Same.Rule is also used by"):
        load_cases(tmp_path)


def test_the_project_cases_are_well_formed():
    cases = load_cases(CASES)
    assert len(cases) >= 150
    assert all(case.section and case.statement for case in cases)


# --- judging -----------------------------------------------------------------------------------------------------


def compiled(returncode, output="", assembly=None):
    return Compiled(["cc"], returncode, output, assembly)


@pytest.fixture
def fail_case(tmp_path):
    return parse_case(write(tmp_path, "a.fail.cu", FAIL_CASE))


def test_fail_case_passes_when_rejected_with_the_expected_diagnostic(fail_case):
    result = judge(fail_case, "nvcc", compiled(2, "x.cu(3): error: a __global__ function must have a void return type"))
    assert result.status == "pass"


def test_fail_case_fails_when_accepted_and_says_so(fail_case):
    result = judge(fail_case, "nvcc", compiled(0))
    assert result.status == "fail"
    assert "the documentation says this is an error [5.4.1.1]" in result.message
    assert "nvcc accepted it" in result.message


def test_fail_case_fails_when_rejected_for_another_reason(fail_case):
    result = judge(fail_case, "clang", compiled(1, "x.cu:1:1: error: unknown type name 'foo'\n1 error generated."))
    assert result.status == "fail"
    assert "without the expected diagnostic" in result.message
    assert "unknown type name 'foo'" in result.message


def test_a_compiler_that_does_not_finish_fails(fail_case):
    assert judge(fail_case, "nvcc", compiled(None)).status == "fail"


def test_pass_case_checks_acceptance_and_the_device_assembly(tmp_path):
    case = parse_case(
        write(
            tmp_path,
            "a.pass.cu",
            """\
        // rule: A.B
        // section: 5.4.1.4
        // statement: s
        // ptx-match: ld\\.global\\.nc
        // ptx-no-match: \\bcall\\b
        int x;
    """,
        )
    )
    assert judge(case, "nvcc", compiled(0, assembly="ld.global.nc.f32 %f1, [%rd1];")).status == "pass"
    missing = judge(case, "nvcc", compiled(0, assembly="ld.global.f32 %f1, [%rd1];"))
    assert missing.status == "fail" and "does not match /ld\\.global\\.nc/" in missing.message
    present = judge(case, "nvcc", compiled(0, assembly="ld.global.nc.f32 %f1;\ncall.uni foo;"))
    assert present.status == "fail" and "line 2: call.uni foo;" in present.message
    rejected = judge(case, "nvcc", compiled(1, "x.cu(1): error: nope"))
    assert rejected.status == "fail" and "nvcc rejected it (exit code 1)" in rejected.message


def test_warn_case_needs_acceptance_and_the_warning(tmp_path):
    case = parse_case(
        write(
            tmp_path,
            "a.warn.cu",
            "// rule: A.B\n// section: 5.4.9.1\n// statement: s\n// warning: warning.*unroll\nint x;\n",
        )
    )
    assert judge(case, "clang", compiled(0, "x.cu:3: warning: unroll ignored")).status == "pass"
    assert judge(case, "clang", compiled(0, "")).status == "fail"
    assert judge(case, "clang", compiled(1, "x.cu:3: error: unroll")).status == "fail"


# --- filters and the GoogleTest-style stream ---------------------------------------------------------------------


def test_gtest_filter_keeps_the_filter_order_and_treats_brackets_literally():
    names = ["A.B[nvcc]", "A.B[clang]", "C.D[nvcc]", "C.D[nvrtc]"]
    assert select(names, None) == names
    assert select(names, "C.D[nvcc]:A.B[clang]") == ["C.D[nvcc]", "A.B[clang]"]
    assert select(names, "*[nvcc]") == ["A.B[nvcc]", "C.D[nvcc]"]
    assert select(names, "*-C.*") == ["A.B[nvcc]", "A.B[clang]"]
    assert select(names, "A.B[nvc]") == []


FAKE_COMPILER = """\
#!/usr/bin/env python3
# A fake compiler: rejects a source that says REJECT with the text after it, accepts the rest, writes its output.
import os
import sys
args = sys.argv[1:]
if "--version" in args:
    print("{version}")
    sys.exit(0)
source = next(a for a in args if a.endswith(".cu"))
if os.environ.get("FAKE_COMPILER_LOG"):
    open(os.environ["FAKE_COMPILER_LOG"], "a").write(os.path.basename(source) + "\\n")
if "--cuda-gpu-arch=sm_120f" in args:  # like clang 22, the fake clang has no sm_120f
    print("clang++-22: error: unsupported CUDA gpu architecture: sm_120f")
    sys.exit(1)
text = open(source).read()
out = args[args.index("-o") + 1] if "-o" in args else (args[args.index("--ptx") + 1] if "--ptx" in args else None)
if "REJECT" in text:
    print(source + ": error: " + text.split("REJECT", 1)[1].splitlines()[0].strip())
    sys.exit(1)
if out:
    open(out, "w").write("// assembly of " + source + "\\n")
sys.exit(0)
"""


@pytest.fixture
def fake_build(tmp_path, monkeypatch):
    """A build folder whose compile-rules.json names fake compilers, and a case folder with three cases; the compile
    cache in its compile-cache/ (the test's own)."""
    monkeypatch.setenv("CUCONFORM_COMPILE_CACHE_DIR", str(tmp_path / "build" / "compile-cache"))
    tools = tmp_path / "tools"
    tools.mkdir()
    versions = {
        "nvcc": "Cuda compilation tools, release 13.0, V13.0.88",
        "clang": "clang version 22.1.8",
        "nvrtc": "nvrtc 13.0",
    }
    paths = {}
    for name, version in versions.items():
        path = tools / f"fake-{name}"
        path.write_text(FAKE_COMPILER.replace("{version}", version))
        path.chmod(0o755)
        paths[name] = str(path)
    cases = tmp_path / "cases"
    write(cases, "ok.pass.cu", "// rule: Fake.Accepted\n// section: 5.4\n// statement: it compiles\nint x;\n")
    write(
        cases,
        "bad.fail.cu",
        "// rule: Fake.Rejected\n// section: 5.4\n// statement: it is rejected\n"
        "// error: error: nope\n// skip.clang: not for clang\n// REJECT nope\n",
    )
    write(
        cases,
        "wrong.fail.cu",
        "// rule: Fake.WrongReason\n// section: 5.4\n// statement: s\n"
        "// error: error: the right reason\n// REJECT the wrong reason\n",
    )
    build = tmp_path / "build"
    (build / "bin").mkdir(parents=True)
    (build / "compile-rules.json").write_text(
        json.dumps(
            {
                "cases": str(cases),
                "harness": str(REPO / "harness"),
                "cuda_root": "/nonexistent",
                "nvcc": paths["nvcc"],
                "clang": paths["clang"],
                "nvrtc_compile": paths["nvrtc"],
            }
        )
    )
    return build


def run_main(build: Path, *args: str, capsys) -> tuple[int, str]:
    code = main(list(args), build / "compile-rules.json")
    return code, capsys.readouterr().out


def test_listing_names_each_case_and_compiler_with_its_version(fake_build, capsys):
    code, out = run_main(fake_build, "--cuconform_list", capsys=capsys)
    assert code == 0
    entries = [json.loads(line) for line in out.splitlines()]
    assert [e["test"] for e in entries[:3]] == ["Fake.Rejected[nvcc]", "Fake.Rejected[clang]", "Fake.Rejected[nvrtc]"]
    first = entries[0]
    assert first["rule"] == "Fake.Rejected" and first["gpu"] is False and first["param"] == "nvcc"
    assert {e["compiler"]: e["compiler_version"] for e in entries} == {
        "nvcc": "13.0.88",
        "clang": "22.1.8",
        "nvrtc": "13.0",
    }
    assert first["file"].endswith("bad.fail.cu") and first["line"] == 1


def test_run_prints_googletest_results_the_harness_parses(fake_build, capsys):
    names = "Fake.Accepted[nvcc]:Fake.Rejected[nvcc]:Fake.Rejected[clang]:Fake.WrongReason[nvrtc]"
    code, out = run_main(fake_build, f"--gtest_filter={names}", "--gtest_color=no", capsys=capsys)
    assert code == 1  # one failure
    assert "[       OK ] Fake.Accepted[nvcc] (" in out
    assert "[       OK ] Fake.Rejected[nvcc] (" in out
    skipped = "bad.fail.cu:1: Skipped\nclang cannot take this case: not for clang\n[  SKIPPED ] Fake.Rejected[clang]"
    assert skipped in out
    assert "wrong.fail.cu:1: Failure\nnvrtc rejected it, but without the expected diagnostic" in out
    assert "[  FAILED  ] Fake.WrongReason[nvrtc] (" in out
    assert out.index("Fake.Accepted[nvcc]") < out.index("Fake.Rejected[nvcc]")  # the filter's order


def test_a_missing_compiler_skips_its_rules_with_how_to_get_it(fake_build, capsys, monkeypatch):
    monkeypatch.setenv("CUCONFORM_CLANG", "/nonexistent/clang++-22")
    code, out = run_main(fake_build, "--gtest_filter=Fake.Accepted[clang]", capsys=capsys)
    assert code == 0
    assert "clang: /nonexistent/clang++-22 not found: install clang" in out
    assert "[  SKIPPED ] Fake.Accepted[clang]" in out


def test_a_case_needing_a_header_the_toolkit_lacks_skips_for_every_compiler(fake_build, capsys, monkeypatch):
    config = json.loads((fake_build / "compile-rules.json").read_text())
    write(
        Path(config["cases"]),
        "needs.pass.cu",
        "// rule: Fake.NeedsHeader\n// section: 5.4\n// statement: s\n"
        "// requires-header: nvfunctional\n// requires-header: cuda/std/atomic\n#include <nvfunctional>\n",
    )
    toolkit = fake_build.parent / "toolkit"
    write(toolkit, "include/cccl/cuda/std/atomic", "// present\n")
    monkeypatch.setenv("CUCONFORM_CUDA_ROOT", str(toolkit))
    names = "Fake.NeedsHeader[nvcc]:Fake.NeedsHeader[clang]:Fake.NeedsHeader[nvrtc]"
    code, out = run_main(fake_build, f"--gtest_filter={names}", capsys=capsys)
    assert code == 0
    assert out.count("the case needs <nvfunctional>, which the CUDA toolkit at") == 3
    assert "cuda/std/atomic" not in out.split("the case needs", 1)[1].splitlines()[0]  # that one is there
    assert "[  SKIPPED ] Fake.NeedsHeader[nvrtc]" in out
    write(toolkit, "targets/x86_64-linux/include/nvfunctional", "// present\n")  # a toolkit laid out by target
    code, out = run_main(fake_build, "--gtest_filter=Fake.NeedsHeader[nvcc]", capsys=capsys)
    assert code == 0 and "[       OK ] Fake.NeedsHeader[nvcc]" in out


def test_a_bad_case_file_stops_the_listing_with_one_line(fake_build, capsys):
    config = json.loads((fake_build / "compile-rules.json").read_text())
    write(Path(config["cases"]), "broken.pass.cu", "// rule: nope\n// section: 5.4\n// statement: s\n")
    code = main(["--cuconform_list"], fake_build / "compile-rules.json")
    err = capsys.readouterr().err
    assert code == 2
    assert "broken.pass.cu:1:" in err and "rule id 'nope'" in err


def test_command_lines_of_the_three_compilers(tmp_path):
    case = parse_case(
        write(
            tmp_path,
            "a.pass.cu",
            "// rule: A.B\n// section: 5.4\n// statement: s\n// std: c++20\n"
            "// arch: sm_90a\n// flags.nvcc: -rdc=true\nint x;\n",
        )
    )
    tools = Toolchain(Path("/cuda"), "nvcc", "clang++-22", "nvrtc-compile")
    out = tmp_path / "o"
    assert tools.command("nvcc", case, out, ptx=False) == [
        "nvcc",
        "-arch=sm_90a",
        "-std=c++20",
        "-c",
        str(case.path),
        "-o",
        str(out),
        "-rdc=true",
    ]
    clang = tools.command("clang", case, out, ptx=True)
    assert clang[:3] == ["clang++-22", "-x", "cuda"] and "--cuda-gpu-arch=sm_90a" in clang
    assert "--cuda-device-only" in clang and "-S" in clang and "--cuda-path=/cuda" in clang
    assert tools.command("nvrtc", case, out, ptx=True) == [
        "nvrtc-compile",
        "--ptx",
        str(out),
        str(case.path),
        "-arch=sm_90a",
        "-std=c++20",
        "-I/cuda/include",
        "-I/cuda/include/cccl",
    ]
    chooses = parse_case(
        write(
            tmp_path,
            "b.pass.cu",
            "// rule: A.C\n// section: 5.4\n// statement: s\n"
            "// flags.nvcc: --generate-code arch=compute_80,code=sm_90\nint x;\n",
        )
    )
    assert not any(arg.startswith("-arch") for arg in tools.command("nvcc", chooses, out, ptx=False))


REAL_NEEDS = ["compile-rules.json", "bin/cuconform-compile", "bin/nvrtc-compile"]
REAL_BUILDS = [REPO / name for name in real_builds() if (REPO / name / "bin" / "cuconform-compile").exists()]


@pytest.mark.skipif(not REAL_BUILDS, reason="no configured build with compile rules (cmake --preset ci)")
def test_real_compilers_on_one_case():
    """cuconform-compile of a real build, through whichever of the three compilers this machine has (nvrtc-compile is
    the build's own: a build of a few targets that lacks it skips, naming it)."""
    build = first_built(REAL_BUILDS, REAL_NEEDS)
    done = subprocess.run(
        [str(build / "bin" / "cuconform-compile"), "--gtest_filter=ExecutionSpace.GlobalMustReturnVoid[*]"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    out = done.stdout
    for compiler in ("nvcc", "clang", "nvrtc"):
        assert (
            f"[       OK ] ExecutionSpace.GlobalMustReturnVoid[{compiler}]" in out
            or f"[  SKIPPED ] ExecutionSpace.GlobalMustReturnVoid[{compiler}]" in out
        ), out


def test_no_rule_id_is_a_prefix_of_another():
    """So that an expectation entry can name a rule's tests as compile/<Rule>* (with `compiler` for one of them)."""
    ids = sorted(case.rule for case in load_cases(CASES))
    clashes = [(a, b) for a, b in zip(ids, ids[1:]) if b.startswith(a)]
    assert clashes == []


def test_a_build_away_from_its_case_folder_offers_no_tests(fake_build, capsys):
    config_path = fake_build / "compile-rules.json"
    config = json.loads(config_path.read_text())
    config_path.write_text(json.dumps(dict(config, cases="/nonexistent/suites/compile")))
    code = main(["--cuconform_list"], config_path)
    captured = capsys.readouterr()
    assert code == 0 and captured.out == ""
    assert "no compile-time rules here" in captured.err


# --- the compile cache ---------------------------------------------------------------------------------------------

CACHE_LINE = "(from the compile cache: compiled "


def test_a_second_run_takes_the_compilers_output_from_the_cache_and_judges_it_again(fake_build, capsys):
    names = "--gtest_filter=Fake.Accepted[nvcc]:Fake.WrongReason[nvrtc]"
    first_code, first = run_main(fake_build, names, capsys=capsys)
    second_code, second = run_main(fake_build, names, capsys=capsys)
    assert CACHE_LINE not in first
    assert second.count(CACHE_LINE) == 2 and second.count('[ METRIC   ] compile_cache = "hit"') == 2
    assert first_code == second_code == 1
    assert "[  FAILED  ] Fake.WrongReason[nvrtc] (" in second  # judged from the cached diagnostic


def test_a_changed_case_or_compiler_misses_the_cache(fake_build, capsys):
    config = json.loads((fake_build / "compile-rules.json").read_text())
    run_main(fake_build, "--gtest_filter=Fake.Accepted[nvcc]:Fake.Accepted[clang]", capsys=capsys)
    case = Path(config["cases"]) / "ok.pass.cu"
    case.write_text(case.read_text() + "int y;\n")
    clang = Path(config["clang"])
    clang.write_text(clang.read_text() + "\n# a new release\n")
    _, out = run_main(fake_build, "--gtest_filter=Fake.Accepted[nvcc]:Fake.Accepted[clang]", capsys=capsys)
    assert CACHE_LINE not in out


def test_the_cache_can_be_turned_off_and_a_broken_entry_is_a_miss(fake_build, capsys, monkeypatch):
    run_main(fake_build, "--gtest_filter=Fake.Accepted[nvcc]", capsys=capsys)
    monkeypatch.setenv("CUCONFORM_COMPILE_CACHE", "off")
    _, off = run_main(fake_build, "--gtest_filter=Fake.Accepted[nvcc]", capsys=capsys)
    assert CACHE_LINE not in off
    monkeypatch.delenv("CUCONFORM_COMPILE_CACHE")
    for entry in (fake_build / "compile-cache").rglob("*.json"):
        entry.write_text("{not json")
    code, broken = run_main(fake_build, "--gtest_filter=Fake.Accepted[nvcc]", capsys=capsys)
    assert code == 0 and CACHE_LINE not in broken
    _, again = run_main(fake_build, "--gtest_filter=Fake.Accepted[nvcc]", capsys=capsys)
    assert CACHE_LINE in again  # the broken entry was replaced


def test_the_cache_outlives_a_rebuild_of_the_compiler_the_build_makes(fake_build, capsys):
    """nvrtc-compile is built by the build: a rebuild gives it a new date, not new bytes, and another build folder
    a new path; neither misses the cache. New bytes do."""
    config = json.loads((fake_build / "compile-rules.json").read_text())
    run_main(fake_build, "--gtest_filter=Fake.Accepted[nvrtc]", capsys=capsys)
    nvrtc = Path(config["nvrtc_compile"])
    moved = fake_build.parent / "elsewhere" / "nvrtc-compile"
    moved.parent.mkdir()
    moved.write_bytes(nvrtc.read_bytes())
    moved.chmod(0o755)
    (fake_build / "compile-rules.json").write_text(json.dumps(dict(config, nvrtc_compile=str(moved))))
    _, rebuilt = run_main(fake_build, "--gtest_filter=Fake.Accepted[nvrtc]", capsys=capsys)
    assert CACHE_LINE in rebuilt
    moved.write_text(moved.read_text() + "\n# other bytes\n")
    _, changed = run_main(fake_build, "--gtest_filter=Fake.Accepted[nvrtc]", capsys=capsys)
    assert CACHE_LINE not in changed


def test_an_environment_variable_that_changes_a_compiler_misses_the_cache(fake_build, capsys, monkeypatch):
    run_main(fake_build, "--gtest_filter=Fake.Accepted[nvcc]", capsys=capsys)
    monkeypatch.setenv("NVCC_APPEND_FLAGS", "-DNDEBUG")
    _, out = run_main(fake_build, "--gtest_filter=Fake.Accepted[nvcc]", capsys=capsys)
    assert CACHE_LINE not in out


def test_the_listing_says_which_tests_skip_or_are_cached(fake_build, capsys):
    run_main(fake_build, "--gtest_filter=Fake.Accepted[nvcc]", capsys=capsys)
    _, out = run_main(fake_build, "--cuconform_list", capsys=capsys)
    hints = {entry["test"]: entry.get("cost_hint") for entry in map(json.loads, out.splitlines())}
    assert hints["Fake.Accepted[nvcc]"] == "cached" and hints["Fake.Rejected[clang]"] == "skip"
    assert hints["Fake.Accepted[clang]"] is None  # a compilation


# --- the run's target (compile-only validation per CC) ------------------------------------------------------------

CLUSTER_CASE = "// rule: A.Cluster\n// section: 5.4\n// statement: s\n// requires-cc: 9.0\nint x;\n"


def test_a_case_without_arch_compiles_for_the_runs_target_and_one_with_arch_keeps_its_own(tmp_path):
    plain = parse_case(write(tmp_path, "a.pass.cu", "// rule: A.B\n// section: 5.4\n// statement: s\nint x;\n"))
    named = parse_case(
        write(tmp_path, "b.pass.cu", "// rule: A.C\n// section: 5.4\n// statement: s\n// arch: sm_100a\nint x;\n")
    )
    out = tmp_path / "o"
    for_sm80 = Toolchain(Path("/cuda"), "nvcc", "clang++-22", "nvrtc-compile", target="sm_80")
    assert "-arch=sm_80" in for_sm80.command("nvcc", plain, out, ptx=False)
    assert "--cuda-gpu-arch=sm_80" in for_sm80.command("clang", plain, out, ptx=False)
    assert "-arch=sm_100a" in for_sm80.command("nvrtc", named, out, ptx=False)
    assert "-arch=sm_90" in Toolchain(Path("/cuda"), "nvcc", "c", "n").command("nvcc", plain, out, ptx=False)


@pytest.mark.parametrize(
    "given, target",
    [
        ("80", "sm_80"),
        ("sm_89", "sm_89"),
        ("90a-real", "sm_90a"),
        ("100f", "sm_100f"),
        ("native", None),
        ("", None),
        (None, None),
    ],
)
def test_the_target_is_read_as_cmake_spells_architectures(given, target):
    from cuconform_compile.compilers import target_name

    assert target_name(given) == target


def test_the_environment_names_the_target_over_the_build(monkeypatch):
    config = {"cuda_root": "/cuda", "nvcc": "nvcc", "clang": "clang", "nvrtc_compile": "n", "target": "90"}
    assert Toolchain.from_config(config).target == "sm_90"
    monkeypatch.setenv("CUCONFORM_COMPILE_TARGET", "sm_120a")
    assert Toolchain.from_config(config).target == "sm_120a"


def test_below_its_cc_a_pass_case_must_be_rejected(tmp_path):
    case = parse_case(write(tmp_path, "a.pass.cu", CLUSTER_CASE))
    assert case.requires_cc == "9.0"
    assert judge(case, "nvcc", compiled(0), "sm_90").status == "pass"
    assert judge(case, "nvcc", compiled(0), "sm_120").status == "pass"
    assert judge(case, "nvcc", compiled(2, "error: not on sm_80"), "sm_80").status == "pass"
    accepted = judge(case, "nvcc", compiled(0), "sm_89")
    assert accepted.status == "fail" and "CC 9.0 and later" in accepted.message and "for sm_89" in accepted.message
    assert judge(case, "nvcc", compiled(2, "error: x"), "sm_90").status == "fail"


def test_below_its_cc_a_fail_case_skips_and_above_it_is_judged(fake_build, capsys, monkeypatch):
    write(
        fake_build.parent / "cases",
        "misuse.fail.cu",
        CLUSTER_CASE.replace("A.Cluster", "Fake.Misuse").replace("int x;", "// error: error: bad\n// REJECT bad"),
    )
    monkeypatch.setenv("CUCONFORM_COMPILE_TARGET", "sm_80")
    _, out = run_main(fake_build, "--gtest_filter=Fake.Misuse[nvcc]", capsys=capsys)
    assert "CC 9.0 and later, which sm_80 does not have\n[  SKIPPED ] Fake.Misuse[nvcc]" in out
    monkeypatch.setenv("CUCONFORM_COMPILE_TARGET", "sm_90")
    _, out = run_main(fake_build, "--gtest_filter=Fake.Misuse[nvcc]", capsys=capsys)
    assert "[       OK ] Fake.Misuse[nvcc]" in out


@pytest.mark.parametrize(
    "target, cc", [("sm_80", (8, 0)), ("sm_90a", (9, 0)), ("sm_100f", (10, 0)), ("sm_121", (12, 1))]
)
def test_a_target_names_its_cc(target, cc):
    from cuconform_compile.cases import cc_of

    assert cc_of(target) == cc


def test_requires_cc_must_be_a_cc(tmp_path):
    with pytest.raises(CaseError, match="requires-cc '9' must be a CC such as 9.0"):
        parse_case(write(tmp_path, "a.pass.cu", CLUSTER_CASE.replace("9.0", "9")))


# --- a compiler that has no such target ---------------------------------------------------------------------------


def test_a_compiler_without_the_target_skips_naming_compiler_version_and_target(fake_build, capsys, monkeypatch):
    monkeypatch.setenv("CUCONFORM_COMPILE_TARGET", "sm_120f")
    names = "Fake.Accepted[clang]:Fake.WrongReason[clang]:Fake.Accepted[nvcc]:Fake.WrongReason[nvcc]"
    code, out = run_main(fake_build, f"--gtest_filter={names}", capsys=capsys)
    assert code == 1  # WrongReason[nvcc]: nvcc has the target, so its failure stays one
    reason = (
        "clang 22.1.8 ({}) has no target sm_120f: it rejects an empty file for it too: clang++-22: error: "
        "unsupported CUDA gpu architecture: sm_120f"
    )
    tool = json.loads((fake_build / "compile-rules.json").read_text())["clang"]
    for name in ("Fake.Accepted[clang]", "Fake.WrongReason[clang]"):
        assert f"[  SKIPPED ] {name}" in out
    assert out.count(reason.format(tool)) == 2
    assert "[       OK ] Fake.Accepted[nvcc]" in out
    assert "[  FAILED  ] Fake.WrongReason[nvcc]" in out


def test_the_target_is_probed_once_per_compiler_and_target_and_only_after_such_a_rejection(
    fake_build, capsys, monkeypatch
):
    log = fake_build.parent / "calls.log"
    monkeypatch.setenv("FAKE_COMPILER_LOG", str(log))
    monkeypatch.setenv("CUCONFORM_COMPILE_TARGET", "sm_120f")
    names = "Fake.Accepted[clang]:Fake.WrongReason[clang]:Fake.Accepted[nvcc]:Fake.WrongReason[nvcc]"
    run_main(fake_build, f"--gtest_filter={names}", capsys=capsys)
    calls = log.read_text().splitlines()
    # the four cases, and one probe: for clang; nvcc rejected WrongReason in other words, so nothing is probed
    assert sorted(calls) == sorted(
        ["ok.pass.cu", "wrong.fail.cu", "ok.pass.cu", "wrong.fail.cu", "empty-target-probe.cu"]
    )


def test_a_rejection_in_those_words_where_the_compiler_has_the_target_still_fails(fake_build, capsys, monkeypatch):
    """A case the compiler rejects for its own reasons, even with a diagnostic that reads like a missing target,
    fails when an empty file compiles for the same target: a genuine failure never becomes a skip."""
    cases = Path(json.loads((fake_build / "compile-rules.json").read_text())["cases"])
    write(
        cases,
        "mimic.pass.cu",
        "// rule: Fake.Mimic\n// section: 5.4\n// statement: s\n"
        "// REJECT unsupported CUDA gpu architecture: sm_90 (from the case itself)\n",
    )
    monkeypatch.setenv("CUCONFORM_COMPILE_TARGET", "sm_90")
    code, out = run_main(fake_build, "--gtest_filter=Fake.Mimic[clang]:Fake.WrongReason[clang]", capsys=capsys)
    assert code == 1
    assert "[  FAILED  ] Fake.Mimic[clang]" in out and "[  FAILED  ] Fake.WrongReason[clang]" in out
    assert "has no target" not in out


def test_a_case_naming_its_own_target_is_judged_in_a_run_for_a_target_the_compiler_lacks(
    fake_build, capsys, monkeypatch
):
    cases = Path(json.loads((fake_build / "compile-rules.json").read_text())["cases"])
    write(
        cases,
        "own.fail.cu",
        "// rule: Fake.OwnTarget\n// section: 5.4\n// statement: s\n// arch: sm_90\n"
        "// error: error: the right reason\n// REJECT the wrong reason\n",
    )
    monkeypatch.setenv("CUCONFORM_COMPILE_TARGET", "sm_120f")
    code, out = run_main(fake_build, "--gtest_filter=Fake.OwnTarget[clang]", capsys=capsys)
    assert code == 1 and "[  FAILED  ] Fake.OwnTarget[clang]" in out


def test_below_its_cc_a_pass_case_for_a_target_the_compiler_lacks_skips_rather_than_passes(tmp_path):
    """A .pass case of a CC the target lacks passes when rejected: not when the compiler has no such target."""
    case = parse_case(write(tmp_path, "a.pass.cu", CLUSTER_CASE.replace("int x;", "// arch: sm_88\nint x;")))
    tool = tmp_path / "fake-nvrtc"
    tool.write_text("#!/bin/sh\necho 'nvrtc: error: invalid value for --gpu-architecture (-arch)'\nexit 1\n")
    tool.chmod(0o755)
    suite = CompileSuite([case], Toolchain(tmp_path, "nvcc", "clang", str(tool)))
    result, compiled = suite.run(case, "nvrtc", tmp_path)
    assert compiled.returncode == 1
    assert result.status == "skip" and "has no target sm_88" in result.message
    assert "invalid value for --gpu-architecture (-arch)" in result.message


@pytest.mark.parametrize(
    "output",
    [
        "clang++-22: error: unsupported CUDA gpu architecture: sm_120f",
        "nvcc fatal   : Unsupported gpu architecture 'compute_120f'",
        "nvcc fatal   : Value 'sm_88' is not defined for option 'gpu-architecture'",
        "nvrtc: error: invalid value for --gpu-architecture (-arch)\nnvrtc-compile: NVRTC_ERROR_INVALID_OPTION",
    ],
)
def test_each_compilers_words_for_a_target_it_lacks_are_recognised(output):
    from cuconform_compile.compilers import no_such_target

    assert no_such_target(output) == output.splitlines()[0]


@pytest.mark.parametrize(
    "output",
    [
        "case.cu(3): error: __cluster_dims__ is not supported for this GPU architecture",
        "ptxas fatal   : Value 'sm_88' is not defined for option 'gpu-name'",
        "error: Minimum required PTX version is 9.0",
    ],
)
def test_other_rejections_are_not_a_missing_target(output):
    from cuconform_compile.compilers import no_such_target

    assert no_such_target(output) is None
