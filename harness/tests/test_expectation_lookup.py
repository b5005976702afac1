"""Which entry a test gets: the chain's order, the compiler, the sanitizer mode and the profile."""

from cuconform.expectations import Expectations, load_file

ENTRY = '[[expect]]\ntests = ["{tests}"]\nstatus = "{status}"\nreason = "r"\nevidence = "e"\n{extra}\n'


def chain(tmp_path, **files):
    loaded = []
    for name, entries in files.items():
        path = tmp_path / f"{name}.toml"
        path.write_text("".join(ENTRY.format(**entry) for entry in entries))
        loaded.append(load_file(path))
    return Expectations(loaded)


def test_the_first_file_of_the_chain_wins_and_a_compiler_entry_holds_for_its_compiler_only(tmp_path):
    expectations = chain(
        tmp_path,
        sm_90=[dict(tests="a/T.*", status="fail", extra='compiler = "clang"')],
        common=[dict(tests="a/T.X", status="crash", extra="")],
    )
    assert expectations.lookup("a/T.X", "clang", "22.1").status.value == "fail"
    assert expectations.lookup("a/T.X", "nvcc", "13.0").status.value == "crash"
    assert expectations.lookup("a/T.Y", "nvcc", "13.0") is None


def test_a_sanitizer_entry_holds_in_its_mode_only_and_comes_before_the_chain(tmp_path):
    expectations = chain(
        tmp_path,
        sm_90=[dict(tests="a/Fault.*", status="crash", extra="")],
        common=[dict(tests="a/Fault.*", status="skip", extra='sanitizer = ["memcheck"]')],
    )
    assert expectations.lookup("a/Fault.Trap", "nvcc", "13.0").status.value == "crash"
    assert expectations.lookup("a/Fault.Trap", "nvcc", "13.0", "memcheck").status.value == "skip"
    assert expectations.lookup("a/Fault.Trap", "nvcc", "13.0", "racecheck").status.value == "crash"


def test_a_profile_entry_holds_in_runs_of_that_profile_only(tmp_path):
    expectations = chain(tmp_path, sm_90=[dict(tests="math/*.FastLog10f", status="fail", extra='profile = "full"')])
    assert expectations.lookup("math/I.FastLog10f", "nvcc", "13.0", profile="full").status.value == "fail"
    assert expectations.lookup("math/I.FastLog10f", "nvcc", "13.0", profile="quick") is None
    assert expectations.lookup("math/I.FastLog10f", "nvcc", "13.0") is None


def test_brackets_in_test_ids_match_as_fnmatch_says(tmp_path):
    expectations = chain(tmp_path, common=[dict(tests="compile/A.B[[]nvcc]", status="fail", extra="")])
    assert expectations.lookup("compile/A.B[nvcc]").status.value == "fail"
    assert expectations.lookup("compile/A.B[clang]") is None
    assert expectations.stale(["compile/A.B[clang]"]) and not expectations.stale(["compile/A.B[nvcc]"])


def test_a_compiler_version_entry_holds_for_the_nvcc_version_that_built_a_gpu_rule(tmp_path):
    expectations = chain(
        tmp_path,
        common=[
            dict(tests="atomics/T.*", status="fail", extra='compiler = "nvcc"\ncompiler_versions = ">=13.0,<13.1"')
        ],
    )
    assert expectations.lookup("atomics/T.X", "nvcc", "13.0.88").status.value == "fail"
    assert expectations.lookup("atomics/T.X", "nvcc", "13.5.37") is None  # fixed in 13.5: the test must pass
    assert expectations.lookup("atomics/T.X", "nvcc", "12.9.86") is None
    assert expectations.lookup("atomics/T.X", "clang", "13.0") is None


def test_a_toolkit_version_entry_holds_for_builds_with_that_toolkit_whichever_compiler(tmp_path):
    expectations = chain(
        tmp_path,
        common=[
            dict(tests="atomics/Ref16.*", status="fail", extra='toolkit_versions = ">=13.0,<13.5"'),
            dict(tests="atomics/Ref16.*", status="skip", extra='compiler = "clang"'),
        ],
    )
    assert (
        expectations.lookup("atomics/Ref16.Store", "nvcc", "13.0.88", toolkit_version="13.0.88").status.value == "fail"
    )
    assert (
        expectations.lookup("atomics/Ref16.Store", "clang", "22.1.8", toolkit_version="13.0.88").status.value == "fail"
    )
    assert expectations.lookup("atomics/Ref16.Store", "nvcc", "13.5.37", toolkit_version="13.5.37") is None
    assert (
        expectations.lookup("atomics/Ref16.Store", "clang", "22.1.8", toolkit_version="13.5.37").status.value == "skip"
    )
    assert expectations.lookup("atomics/Ref16.Store", "nvcc", "13.0.88") is None  # a build that names no toolkit


def test_a_compile_time_case_is_keyed_by_its_own_compilers_toolkit(tmp_path):
    """nvcc and NVRTC name their toolkit by their version (an NVRTC of another release run through
    CUCONFORM_NVRTC_COMPILE is judged by its own); clang compiles the build's toolkit's headers."""
    from pathlib import Path

    from cuconform.catalog import TestCase
    from cuconform.expectations import load_file
    from cuconform.stage_resolve import Judging, chain_of

    (tmp_path / "common.toml").write_text(
        ENTRY.format(tests="compile/Cg.Cpp11*", status="fail", extra='toolkit_versions = ">=13.0"')
    )
    chain = chain_of({"common": load_file(tmp_path / "common.toml")}, None)
    judging = Judging.of({"compiler": "nvcc", "compiler_version": "13.5.37", "cuda_toolkit": "13.5.37"}, None, None)

    def case(compiler, version):
        return TestCase(
            binary=Path("cuconform-compile"),
            name=f"Cg.Cpp11[{compiler}]",
            rule_name="Cg.Cpp11",
            section="11.4",
            statement="s",
            gpu=False,
            exclusive=False,
            compiler=compiler,
            compiler_version=version,
        )

    class Session:  # what the assertions below ask of a run: the entry that holds for a case
        def expectation_for(self, case):
            return judging.entry_for(chain, case)

    session = Session()

    assert session.expectation_for(case("nvrtc", "13.0")) is not None
    assert session.expectation_for(case("nvrtc", "12.9")) is None  # NVRTC 12.9 with its own 12.9 headers
    assert session.expectation_for(case("clang", "22.1.8")) is not None  # the build's 13.5 headers


def test_a_variant_binarys_test_is_judged_by_its_areas_entry(tmp_path):
    # A mutant of `conformance mutate` runs as bin/cuconform-<area>@<operator>: a test that fails as expected in the
    # area fails as expected in the mutant too (issue 34: without the area's entry, a baseline xfail was an
    # unexpected failure, and --fail-fast ended the mutant's binary there, every later test unrun).
    from pathlib import Path

    from cuconform.catalog import TestCase
    from cuconform.stage_resolve import Judging, chain_of

    (tmp_path / "sm_90.toml").write_text(ENTRY.format(tests="textures/T.Known", status="fail", extra=""))
    chain = chain_of({"sm_90": load_file(tmp_path / "sm_90.toml")}, "9.0")
    judging = Judging.of({"compiler": "nvcc", "compiler_version": "13.0"}, None, "quick")

    def case(binary):
        return TestCase(
            binary=Path(binary),
            name="T.Known",
            rule_name="T.Known",
            section="1",
            statement="s",
            gpu=True,
            exclusive=False,
        )

    mutant = case("bin/cuconform-textures@texture-read-mode-flipped")
    assert mutant.test_id == "textures@texture-read-mode-flipped/T.Known"
    assert mutant.expectation_id == "textures/T.Known"
    assert judging.entry_for(chain, mutant).status.value == "fail"
    assert judging.entry_for(chain, case("bin/cuconform-textures")).status.value == "fail"
    assert judging.entry_for(chain, case("bin/cuconform-streams@texture-read-mode-flipped")) is None
